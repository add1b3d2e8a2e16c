#!/bin/sh
# check_games.sh SRC_ROOT: the games' folders and the one list of games agree.
# Every folder protocol/games/<id>/ is named in the list (protocol/games/meson.build,
# one `'id',` a line), every listed game has its folder with each part the C
# consumers need (rules <id>.c/.h, codec <id>_wire.c, text codec <id>_text.c, bots <id>_bots.c, text board
# <id>_render.c, its meson.build), and a game's id names its C symbols. The build
# refuses to configure when a listed game lacks a part; this catches the folder
# that was never listed (whose game would silently not exist). Prints TAP.
set -u
root="$1"
list="$root/protocol/games/meson.build"
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

# The ids between `games = [` and `]`.
ids=$(sed -n '/^games = \[/,/^\]/p' "$list" | sed -nE "s/^[[:space:]]*'([^']*)',?[[:space:]]*(#.*)?$/\1/p")
[ -n "$ids" ] && ok "the list of games names games ($(echo $ids))" || notok "the list of games names games"

for dir in "$root"/protocol/games/*/; do
	id=$(basename "$dir")
	if printf '%s\n' $ids | grep -qx "$id"; then
		ok "protocol/games/$id/ is in the list of games"
	else
		notok "protocol/games/$id/ is in the list of games (add '$id', to protocol/games/meson.build)"
	fi
done

for id in $ids; do
	missing=''
	for part in "$id.h" "$id.c" "${id}_wire.c" "${id}_text.c" "${id}_bots.c" "${id}_render.c" meson.build; do
		[ -f "$root/protocol/games/$id/$part" ] || missing="$missing $part"
	done
	if [ -z "$missing" ]; then
		ok "$id has its rules, codec, text codec, bots and text board"
	else
		notok "$id has its rules, codec, text codec, bots and text board (missing:$missing)"
	fi
	d="$root/protocol/games/$id"
	if grep -q "rules_game_$id\b" "$d/$id.c" 2>/dev/null && grep -q "wire_game_$id\b" "$d/${id}_wire.c" 2>/dev/null &&
		grep -q "text_game_$id\b" "$d/${id}_text.c" 2>/dev/null &&
		grep -q "bot_game_$id\b" "$d/${id}_bots.c" 2>/dev/null &&
		grep -q "cli_render_$id\b" "$d/${id}_render.c" 2>/dev/null; then
		ok "$id defines rules_game_$id, wire_game_$id, text_game_$id, bot_game_$id, cli_render_$id"
	else
		notok "$id defines rules_game_$id, wire_game_$id, text_game_$id, bot_game_$id, cli_render_$id"
	fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
