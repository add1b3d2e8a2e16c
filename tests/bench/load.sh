#!/bin/sh
# load.sh: runs the C load generator (quinteto-load) against a release build of
# the server on a free loopback port with a fresh database, then stops the
# server. The server gets rate limits far above the load (--rate/--burst: an
# accepted `act` is not counted anyway, but the setup messages are), and the
# default limit of connections per address: the generator spreads its
# connections over 127.0.0.x source addresses instead. With --pin S,G the
# server runs on core S and the generator on core G (taskset), so each has a
# core of its own. Every run ends by itself (the generator's --duration).
# Usage: tests/bench/load.sh [--pin S,G] [--build DIR] [--] [quinteto-load options]
#   e.g. tests/bench/load.sh --pin 0,1 -- --rooms 200 --duration 10
#        tests/bench/load.sh --pin 0,1 -- --rooms 200 --rate 4500 --duration 10
# Env: MAX_CONNS_PER_ADDR (server, default 256), SERVER_ARGS (extra server options).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build="$src/build-release"
pin=""
while [ $# -gt 0 ]; do
	case "$1" in
	--pin) pin="$2"; shift 2 ;;
	--build) build="$2"; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done

if [ ! -d "$build" ]; then
	meson setup "$build" "$src" --buildtype=release -Dintegration_tests=false -Dbrowser_tests=false >/dev/null
fi
ninja -C "$build" server/quinteto-server tests/bench/quinteto-load >/dev/null

srv_pin="" gen_pin=""
if [ -n "$pin" ]; then
	srv_pin="taskset -c ${pin%,*}"
	gen_pin="taskset -c ${pin#*,}"
fi

# A port below the ephemeral range (thousands of client sockets take ports from that range, and a
# listener cannot bind one of theirs) that no socket uses in any state.
eph_lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range)
port=""
for try in 1 2 3 4 5 6 7 8 9 10; do
	p=$(( 10000 + $(od -An -N2 -tu2 /dev/urandom) % (eph_lo - 10000) ))
	if ! ss -Htan "sport = :$p" | grep -q .; then port=$p; break; fi
done
[ -n "$port" ] || { echo "load.sh: no free port found" >&2; exit 1; }

tmp=$(mktemp -d /tmp/quinteto-load-XXXXXX)
pid=""
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		wait "$pid" || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# shellcheck disable=SC2086 # SERVER_ARGS and the taskset prefix are word lists
$srv_pin "$build/server/quinteto-server" --listen "127.0.0.1:$port" --db "$tmp/q.db" \
	--rate 1000000 --burst 1000000 --max-conns-per-addr "${MAX_CONNS_PER_ADDR:-256}" \
	--log-level warn ${SERVER_ARGS:-} >"$tmp/server.log" 2>&1 &
pid=$!
for i in $(seq 100); do
	grep -q listening "$tmp/server.log" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/server.log" >&2; exit 1; }
	sleep 0.1
done
grep -q listening "$tmp/server.log" || { echo "load.sh: the server did not start" >&2; exit 1; }

echo "server: $build/server/quinteto-server pid $pid port $port${pin:+, pinned to core ${pin%,*}}"
rc=0
# shellcheck disable=SC2086
$gen_pin "$build/tests/bench/quinteto-load" --port "$port" --server-pid "$pid" "$@" || rc=$?
[ "$rc" = 0 ] || { echo "load.sh: quinteto-load failed; server log:" >&2; tail -20 "$tmp/server.log" >&2; }
exit $rc
