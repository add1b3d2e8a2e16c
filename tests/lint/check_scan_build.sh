#!/bin/sh
# The clang static analyser (scan-build) over a separate plain build of the
# whole tree: any report fails the test and lists what it found.
src="$1" out="$2"
command -v scan-build >/dev/null || { echo "not ok 1 - scan-build is installed (deploy/dev.sh test installs it)"; echo "1..1"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
if ! scan-build meson setup "$out/build" "$src" -Dintegration_tests=false -Dbrowser_tests=false \
	-Dwerror=false >"$out/setup.log" 2>&1; then
	echo "not ok 1 - scan-build configures the tree"
	sed 's/^/# /' "$out/setup.log" | tail -20
	echo "1..1"
	exit 1
fi
log="$out/scan.log"
scan-build -o "$out/reports" --status-bugs ninja -C "$out/build" >"$log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	echo "ok 1 - the clang static analyser finds no bug"
else
	echo "not ok 1 - the clang static analyser finds no bug"
	grep -E 'warning:|error:|bugs? found' "$log" | sed 's/^/# /'
fi
echo "1..1"
exit $rc
