#!/bin/sh
# cppcheck over the C sources (warnings, portability, performance): one TAP
# line per folder; any finding fails it and is printed.
src="$1" build="$2"
command -v cppcheck >/dev/null || { echo "not ok 1 - cppcheck is installed (deploy/dev.sh test installs it)"; echo "1..1"; exit 1; }
n=0 fail=0
# Each game's folder is an include path too (its headers are named bare, as
# the build's game_list.h, generated in $build/protocol/games, names them).
games=''
for g in "$src"/protocol/games/*/; do games="$games -I $g"; done
for dir in protocol/rules protocol/wire protocol/bots protocol/games server clients/cli; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	out=$(cppcheck --quiet --std=c11 --enable=warning,portability,performance --inline-suppr \
		--error-exitcode=1 -D__GNUC__ -I "$src/protocol/rules" -I "$src/protocol/wire" \
		-I "$src/protocol/bots" -I "$src/clients/cli" $games -I "$build/protocol/games" \
		-I "$src/server" -I "$build" "$src/$dir" 2>&1)
	if [ $? -eq 0 ] && [ -z "$out" ]; then
		echo "ok $n - cppcheck finds nothing in $dir"
	else
		echo "not ok $n - cppcheck finds nothing in $dir"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
