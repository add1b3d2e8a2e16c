#!/bin/sh
# The clang static analyser over every C file the build compiles: any report (or an analyser
# crash) fails the test and lists what it found. It reads the compile commands meson wrote for
# this build (compile_commands.json: the same files, flags and generated headers) and runs only
# the analyser on them (analyze-build, the compilation-database front end of scan-build), rather
# than configuring and compiling the whole tree a second time under scan-build. Every further
# argument is a folder whose files are not analysed (tests/lint/meson.build says which and why);
# every other file of the database is.
out="$1" build="$2"
shift 2
# each folder becomes "--exclude FOLDER" in the positional parameters (kept whole, spaces and all)
for d in "$@"; do
	[ -d "$d" ] || {
		echo "not ok 1 - the folder left out of the analysis exists ($d)"
		echo "1..1"
		exit 1
	}
	set -- "$@" --exclude "$d"
	shift
done
ab=$(command -v analyze-build || ls /usr/bin/analyze-build-* 2>/dev/null | sort -V | tail -n 1)
if [ -z "$ab" ]; then
	echo "not ok 1 - analyze-build (clang-tools) is installed (deploy/dev.sh test installs it)"
	echo "1..1"
	exit 1
fi
cdb="$build/compile_commands.json"
if [ ! -s "$cdb" ]; then
	echo "not ok 1 - the build has a compilation database ($cdb)"
	echo "1..1"
	exit 1
fi
rm -rf "$out/reports" "$out/scan.log"
mkdir -p "$out"
log="$out/scan.log"
"$ab" --cdb "$cdb" -o "$out/reports" --status-bugs "$@" >"$log" 2>&1
rc=$?
# --status-bugs exits with the number of reports: count them too, so 256 of them cannot pass.
found=$(find "$out/reports" \( -name 'report-*.html' -o -path '*/failures/*' \) 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$found" -eq 0 ]; then
	echo "ok 1 - the clang static analyser finds no bug"
	rc=0
else
	echo "not ok 1 - the clang static analyser finds no bug"
	grep -E 'warning:|error:|crash' "$log" | sed 's/^/# /'
	# each report's file, line and description (analyze-build prints them only when verbose)
	for r in $(find "$out/reports" -name 'report-*.html' | sort); do
		sed -n 's/^<!-- BUG\(FILE\|LINE\|DESC\) \(.*\) -->$/\2/p' "$r" | tr '\n' ' ' | sed 's/^/# /'
		echo
	done
	for f in $(find "$out/reports" -path '*/failures/*.stderr.txt' | sort); do
		echo "# the analyser failed:"
		# (the file holds the analyser's lines without their line ends)
		printf '#   %s\n' "$(head -c 400 "$f" | tr '\n' ' ')"
	done
	[ $rc -ne 0 ] || rc=1
fi
echo "1..1"
exit $rc
