#!/bin/sh
# instr.sh: the server's instructions per ply, counted by valgrind's callgrind
# instead of timed. Counts do not depend on what else the machine is doing, so
# two builds can be compared on a busy machine where CPU times move by 15%.
#
# The server (a release build) runs under callgrind, all threads counted, while
# the C load generator plays R rooms at a fixed offered rate for a short and a
# long window; the instructions per ply are the difference between the two runs
# divided by the difference in plies (quinteto_actions_total), so start-up,
# migrations and the rooms' set-up cancel out. User space only: the kernel's
# share (socket and file syscalls) is not in these counts.
#
# Usage: tests/bench/instr.sh [--build DIR] [--rooms R] [--rate A] [--game ID]
#   e.g. tests/bench/instr.sh --build build-release
# Prints one line per run and the result; keeps callgrind's files in a
# temporary folder (named at the end) for callgrind_annotate.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build="$src/build-release"
rooms=20
rate=300
game=ur
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build="$2"; shift 2 ;;
	--rooms) rooms="$2"; shift 2 ;;
	--rate) rate="$2"; shift 2 ;;
	--game) game="$2"; shift 2 ;;
	*) echo "instr.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
command -v valgrind >/dev/null || { echo "instr.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
if [ ! -d "$build" ]; then
	meson setup "$build" "$src" --buildtype=release -Dintegration_tests=false -Dbrowser_tests=false >/dev/null
fi
ninja -C "$build" server/quinteto-server tests/bench/quinteto-load >/dev/null

tmp=$(mktemp -d /tmp/quinteto-instr-XXXXXX)
pid=""
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
}
trap cleanup EXIT INT TERM

# run NAME SECONDS: prints "plies instructions"
run() {
	port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 9000 ))
	rm -f "$tmp"/db*
	valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" \
		"$build/server/quinteto-server" --listen 127.0.0.1:$port --db "$tmp/db" \
		--rate 100000 --burst 100000 --bot-delay-ms 0 >/dev/null 2>"$tmp/$1.err" &
	pid=$!
	i=0
	until curl -sf "127.0.0.1:$port/healthz" >/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "instr.sh: the server did not start" >&2; exit 1; }
		sleep 0.2
	done
	"$build/tests/bench/quinteto-load" --port $port --game "$game" --rooms "$rooms" --rate "$rate" \
		--duration "$2" --warmup 1 --setup-timeout 300 >"$tmp/$1.load" || true
	plies=$(curl -s "127.0.0.1:$port/metrics" | awk '/^quinteto_actions_total/ {print $2}')
	kill -TERM $pid
	wait $pid || true
	pid=""
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/$1.err")
	echo "$plies $ir"
}

set -- $(run short 4)
p1=$1 i1=$2
echo "short run: $p1 plies, $i1 instructions"
set -- $(run long 16)
p2=$1 i2=$2
echo "long run: $p2 plies, $i2 instructions"
if [ "$p2" -le "$p1" ]; then
	echo "instr.sh: the long run played no more plies than the short one" >&2
	exit 1
fi
echo "instructions per ply: $(( (i2 - i1) / (p2 - p1) )) ($game, $rooms rooms, $rate actions/s offered; files in $tmp)"
