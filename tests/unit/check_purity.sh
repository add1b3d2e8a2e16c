#!/bin/sh
# The rules core may include only the C standard library and its own headers.
# Fails (TAP "not ok") naming every other #include in protocol/rules/.
dir="$1"
allowed='assert.h|limits.h|stdbool.h|stddef.h|stdint.h|string.h|inttypes.h'
n=0
for f in "$dir"/*.c "$dir"/*.h; do
	n=$((n + 1))
	bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f" |
		grep -vE "<($allowed)>" | grep -vE '"[a-z0-9_]+\.h"')
	if [ -n "$bad" ]; then
		echo "not ok $n - $(basename "$f") includes only the standard library"
		echo "$bad" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - $(basename "$f") includes only the standard library"
	fi
	# No allocation or I/O either.
	n=$((n + 1))
	if grep -nE '\b(malloc|calloc|realloc|free|printf|fprintf|fopen|read|write|time|rand)\s*\(' "$f" >/dev/null; then
		echo "not ok $n - $(basename "$f") allocates or does I/O"
		grep -nE '\b(malloc|calloc|realloc|free|printf|fprintf|fopen|read|write|time|rand)\s*\(' "$f" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - $(basename "$f") neither allocates nor does I/O"
	fi
done
echo "1..$n"
[ -z "$fail" ]
