#!/bin/sh
# test_check_games.sh CHECK SRC_ROOT: proves that check_games.sh can fail. It passes on
# the real tree; then, in a temporary copy of protocol/games/, it plants one fault at a
# time (a game folder not in the list, a listed game without its text board, a codec
# file that does not define the game's codec) and requires the check to fail naming it.
# Prints TAP.
set -u
check="$1"
root="$2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/quinteto-games-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
fail=0
result() { # OK NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
fresh() {
	rm -rf "$tmp/protocol"
	mkdir -p "$tmp/protocol"
	cp -R "$root/protocol/games" "$tmp/protocol/"
}
expect_fail() { # NAME PATTERN
	out=$(sh "$check" "$tmp" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep '^not ok' | grep -qF -- "$2" && [ $rc -ne 0 ]
	r=$?
	[ $r -ne 0 ] && printf '%s\n' "$out" | sed 's/^/#   /'
	result $r "$1"
}

sh "$check" "$root" >/dev/null 2>&1
result $? "the real tree passes"

fresh
mkdir "$tmp/protocol/games/nim"
expect_fail 'a folder not in the list is refused' 'protocol/games/nim/ is in the list'

fresh
first=$(sed -n "/^games = \[/,/^\]/s/^[[:space:]]*'\([^']*\)',*.*/\1/p" "$root/protocol/games/meson.build" | head -n 1)
rm "$tmp/protocol/games/$first/${first}_render.c"
expect_fail "a listed game without its text board is refused ($first)" "missing: ${first}_render.c"

fresh
sed -i "s/wire_game_$first\b/wire_game_other/" "$tmp/protocol/games/$first/${first}_wire.c"
expect_fail "a codec file without wire_game_$first is refused" "wire_game_$first"

echo "1..$n"
[ $fail -eq 0 ]
