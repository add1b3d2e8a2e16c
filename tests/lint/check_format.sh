#!/bin/sh
# Every C file the project tracks is formatted as .clang-format says.
# One TAP line per file; a failing file shows the first lines of its diff.
# Fix with: clang-format -i $(git ls-files '*.c' '*.h')
cd "$1" || exit 2
command -v clang-format >/dev/null || { echo "not ok 1 - clang-format is installed (deploy/dev.sh test installs it)"; echo "1..1"; exit 1; }
n=0 fail=0
for f in $(git ls-files '*.c' '*.h' 2>/dev/null || find protocol server clients tests -name '*.[ch]'); do
	n=$((n + 1))
	if out=$(clang-format --style=file "$f" | diff -u "$f" - 2>&1); then
		echo "ok $n - $f is formatted"
	else
		echo "not ok $n - $f is formatted (clang-format -i $f)"
		echo "$out" | head -20 | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
