#!/bin/sh
# load.sh: runs the C load generator (quinteto-load) against a release build of
# the server on a free loopback port with a fresh database, then stops the
# server. The server gets rate limits far above the load (--rate/--burst: an
# accepted `act` is not counted anyway, but the setup messages are), and the
# default limit of connections per address: the generator spreads its
# connections over 127.0.0.x source addresses instead. With --pin S,G the
# server runs on core S and the generator on core G (taskset), so each has a
# core of its own. Every run ends by itself (the generator's --duration).
# --journal-cpu J then moves the server's journal writer thread alone to core J.
# --postgres CONNINFO: the server keeps its store in that PostgreSQL (--store postgres) instead of a
# fresh SQLite file (its tables are not emptied: give it a database of its own, e.g. deploy/cluster/lib.sh's).
# --store postgres: start a throwaway PostgreSQL 15 of our own (deploy/cluster/lib.sh, fsync on, in the run's
# temporary folder) and run the server on it; --store node: that and a throwaway Redis, the server a cluster
# node (--node n1 --redis ...: lease, directory, lobby summaries). Either way (and for --store sqlite, the
# default) load_window.sh takes counters at the generator's window edges (its --window-cmd) and
# load_counts.py prints them per action: the node's CPU (all threads), PostgreSQL's write transactions (xids
# assigned, exact) and xact_commit (lags up to a second), rows written, WAL bytes and CPU (the postmaster
# and all its processes), Redis's commands by name and CPU; and the archive's size per finished match.
# --attach PORT,PID: start no server, load the one already listening on 127.0.0.1:PORT whose process is
# PID (a cluster node of deploy/cluster/dev-cluster.sh: DIR/nodes has both; give it load.sh's caps below).
# Usage: tests/bench/load.sh [--pin S,G] [--journal-cpu J] [--build DIR]
#        [--store sqlite|postgres|node | --postgres CONNINFO | --attach PORT,PID] [--] [quinteto-load options]
#   e.g. tests/bench/load.sh --pin 0,1 -- --rooms 200 --duration 10
#        tests/bench/load.sh --pin 0,1 -- --rooms 200 --rate 4500 --duration 10
#        tests/bench/load.sh --store node -- --rooms 200 --duration 10 --warmup 2 --no-autoroll
# Env: MAX_CONNS_PER_ADDR (server, default 256), SERVER_ARGS (extra server options), NOFILE (the
# descriptor limit to raise both to, default 65536, where permitted), METRICS_DIR (save the server's
# /metrics there once a second while the generator runs, and once after: m.EPOCH files for
# tests/bench/server_tail.mjs, which shows where the actions' time went on the server's side).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build="$src/build-release"
pin=""
journal_cpu=""
postgres=""
attach=""
store=sqlite
while [ $# -gt 0 ]; do
	case "$1" in
	--pin) pin="$2"; shift 2 ;;
	--journal-cpu) journal_cpu="$2"; shift 2 ;;
	--build) build="$2"; shift 2 ;;
	--postgres) postgres="$2"; shift 2 ;;
	--attach) attach="$2"; shift 2 ;;
	--store) store="$2"; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
case "$store" in
sqlite | postgres | node) ;;
*) echo "load.sh: --store sqlite|postgres|node" >&2; exit 2 ;;
esac
if [ "$store" != sqlite ] && [ -n "$postgres$attach" ]; then
	echo "load.sh: --store $store starts its own engines: no --postgres or --attach with it" >&2
	exit 2
fi

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
others=""
engines=""
cleanup() {
	for o in $others; do kill -TERM "$o" 2>/dev/null || true; done
	if [ -z "$attach" ] && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		wait "$pid" || true
	fi
	if [ -n "$engines" ]; then # after the server: it must not see its store go first
		redis_stop "$tmp"
		pg_stop "$tmp"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Descriptors: raise the hard limit where we may (root, up to fs.nr_open), so that 20,000 connections fit
# in the server and in the generator (each needs a few of its own); otherwise use the hard limit as it is.
ulimit -Hn "${NOFILE:-65536}" 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ -n "$attach" ]; then
	port=${attach%,*}
	pid=${attach#*,}
	kill -0 "$pid" 2>/dev/null || { echo "load.sh: no process $pid to attach to" >&2; exit 1; }
else
	store_args=""
	if [ "$store" != sqlite ]; then
		# shellcheck source=../../deploy/cluster/lib.sh
		. "$src/deploy/cluster/lib.sh"
		engines=1
		pg_up "$tmp" "$(free_port)"
		postgres=$(pg_conninfo "$tmp")
		store_args="--migrations $src/migrations"
		if [ "$store" = node ]; then
			redis_up "$tmp" "$(free_port)"
			store_args="$store_args --node n1 --redis 127.0.0.1:$(cat "$tmp/redis/port")"
			# lib.sh's Redis wants a password: the node gets it as a host gives it, in the environment
			QUINTETO_REDIS_PASSWORD=$(redis_password "$tmp")
			export QUINTETO_REDIS_PASSWORD
		fi
	fi
	[ -n "$postgres" ] && store_args="$store_args --store postgres"
	# shellcheck disable=SC2086 # SERVER_ARGS and the taskset prefix are word lists
	$srv_pin "$build/server/quinteto-server" --listen "127.0.0.1:$port" --db "$tmp/q.db" \
		--rate 1000000 --burst 1000000 --max-conns-per-addr "${MAX_CONNS_PER_ADDR:-256}" \
		--max-rooms 4000 --max-live-rooms-per-addr 3999 --max-live-rooms-per-player 1000000 \
		--max-matches-per-addr-hour 1000000 --max-new-players-per-addr-hour 1000000 --new-players-burst 1000000 \
		--log-level warn $store_args ${postgres:+--postgres "$postgres"} ${SERVER_ARGS:-} >"$tmp/server.log" 2>&1 &
	pid=$!
	for i in $(seq 100); do
		grep -q listening "$tmp/server.log" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || { cat "$tmp/server.log" >&2; exit 1; }
		sleep 0.1
	done
	grep -q listening "$tmp/server.log" || { echo "load.sh: the server did not start" >&2; exit 1; }
fi
echo "server: $build/server/quinteto-server pid $pid port $port${pin:+, pinned to core ${pin%,*}}"
if [ -n "$journal_cpu" ]; then # the journal writer thread alone on another core
	for t in /proc/"$pid"/task/*; do
		if [ "$(cat "$t/comm")" = q-journal ]; then
			taskset -p -c "$journal_cpu" "${t##*/}" >/dev/null
			echo "journal writer thread ${t##*/} pinned to core $journal_cpu"
		fi
	done
fi

# GENERATORS=K: K-1 more generator processes, started first with the same options on their own source
# addresses (each process is one core and at most RLIMIT_NOFILE connections). They run longer than the
# measured one, which starts once the server has counted their connections; its memory per connection is
# then the cost of its own connections on top of theirs. The server's total is printed from /metrics.
gens=${GENERATORS:-1}
count_conns() {
	curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "quinteto_connections" { print $2 }'
}
if [ "$gens" -gt 1 ]; then
	base=$(count_conns)
	k=1
	while [ "$k" -lt "$gens" ]; do
		# shellcheck disable=SC2086
		$gen_pin "$build/tests/bench/quinteto-load" --port "$port" --addr-first $((1 + k * 250 / gens)) \
			"$@" --warmup 0 --duration 3600 >"$tmp/gen$k.log" 2>&1 &
		others="$others $!"
		k=$((k + 1))
	done
	prev=-1
	while :; do # until the other generators stop adding connections
		sleep 2
		now=$(count_conns)
		[ "$now" = "$prev" ] && break
		prev=$now
	done
	echo "other generators: $((gens - 1)) processes, $((now - base)) connections open at the server"
fi
rc=0
export LOAD_TMP="$tmp" LOAD_PID="$pid"
# shellcheck disable=SC2086
$gen_pin "$build/tests/bench/quinteto-load" --port "$port" --server-pid "$pid" \
	--window-cmd "$src/tests/bench/load_window.sh" "$@" >"$tmp/gen.out" &
gen=$!
most=0
snapshot() {
	[ -n "${METRICS_DIR:-}" ] || return 0
	mkdir -p "$METRICS_DIR"
	curl -s "http://127.0.0.1:$port/metrics" >"$METRICS_DIR/m.$(date +%s.%N)" || true
}
while kill -0 "$gen" 2>/dev/null; do # the most connections open at once, every generator's
	now=$(count_conns)
	[ "${now:-0}" -gt "$most" ] && most=$now
	snapshot
	sleep 1
done
wait "$gen" || rc=$?
snapshot # the window's end: the generator has just stopped measuring
cat "$tmp/gen.out"
echo "most WebSocket connections open at the server at once (sampled each second): $most"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -f "$tmp/win.start" ] && [ -f "$tmp/win.end" ]; then
	if [ -n "$engines" ]; then # the archive as it stands after the run: its size per finished match
		psql "$postgres" -AtF ' ' -c "select 'archive', (select count(*) from matches),
			(select count(*) from match_actions), (select count(*) from match_events),
			pg_total_relation_size('matches') + pg_total_relation_size('match_seats') +
			pg_total_relation_size('match_actions') + pg_total_relation_size('match_events')" >>"$tmp/win.end"
	fi
	python3 "$src/tests/bench/load_counts.py" "$tmp/win.start" "$tmp/win.end" "$tmp/gen.out" "$(getconf CLK_TCK)"
fi
for o in $others; do kill -INT "$o" 2>/dev/null || true; done
[ "$rc" = 0 ] || { echo "load.sh: quinteto-load failed; server log:" >&2; tail -20 "$tmp/server.log" >&2; }
exit $rc
