#!/usr/bin/env bash
# deploy/cluster/dev-cluster.sh: a whole Quinteto cluster on loopback, in one folder (docs/SCALING.md,
# "Running a cluster"): PostgreSQL 15, Redis 7, N nodes and HAProxy 2.6 in front of them, each on a free
# port. For development and for the cluster tests (tests/lib/cluster.mjs); nothing here touches the
# system's own services. The folder keeps every log, the generated haproxy.cfg and what the commands
# below need to find the processes again.
#
#   up N DIR [-- NODE ARGS...]   start it all; NODE ARGS are added to every node's command line (e.g.
#                                --node-lease-ms 1000); waits until HAProxy and every node answer
#                                healthy, prints URL=http://127.0.0.1:PORT (HAProxy) as one line and
#                                writes DIR/nodes, one "NAME PID PORT" line per node (n1 .. nN).
#                                A failed up stops what it started and exits non-zero.
#   down DIR                     stop everything up started (nodes with SIGTERM, then SIGKILL after
#                                20 s); idempotent, and safe after a failed up
#   kill DIR NAME [SIGNAL]       send a node a signal (default KILL; STOP and CONT freeze and thaw it)
#   start DIR NAME               start node NAME again (same name and port) and wait until it is ready
#   wait DIR NAME                wait until node NAME answers /readyz 200 and HAProxy sees it up
#   stop-redis DIR, start-redis DIR, stop-pg DIR, start-pg DIR, restart-haproxy DIR
#
# Redis requires passwords (deploy/cluster/lib.sh; REDIS_AUTH=none: none): the nodes sign in as its ACL
# user `quinteto` (--redis-user, QUINTETO_REDIS_PASSWORD from DIR/redis/node-password); the default user's
# password, for redis-cli, is DIR/redis/password.
#
# The node binary: $QUINTETO_SERVER, else build/ then build-test/ of this tree. Each node's log is
# DIR/NAME.log, its exit status (when it ends) DIR/NAME.exit. Needs: postgresql-15, redis-server, haproxy,
# curl, python3 (deploy/dev.sh installs them).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$(cd "$here/../.." && pwd)"
# shellcheck source=deploy/cluster/lib.sh
. "$here/lib.sh"

die() {
	echo "dev-cluster: $*" >&2
	exit 1
}

# ---------------------------------------------------------------------------------------------
# The folder's state: DIR/cluster.env (shell assignments, written by up) and DIR/nodes.

load() {
	local dir="$1"
	[ -f "$dir/cluster.env" ] || die "$dir holds no cluster (no cluster.env)"
	# shellcheck disable=SC1091
	. "$dir/cluster.env"
}

node_port() { awk -v n="$2" '$1 == n { print $3 }' "$1/nodes"; }
node_pid() { awk -v n="$2" '$1 == n { print $2 }' "$1/nodes"; }

# A process id is ours only while its command line names our folder: a recycled pid is left alone.
ours() {
	local pid="$1" dir="$2"
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/"
}

# ---------------------------------------------------------------------------------------------
# Nodes

server_bin() {
	local b
	for b in "${QUINTETO_SERVER:-}" "$src/build/server/quinteto-server" "$src/build-test/server/quinteto-server"; do
		[ -n "$b" ] && [ -x "$b" ] && {
			echo "$b"
			return 0
		}
	done
	return 1
}

# start_node DIR NAME: runs the node in the background under a small keeper shell that records its
# exit status in DIR/NAME.exit; its pid goes into DIR/nodes.
start_node() {
	local dir="$1" name="$2" port
	port=$(node_port "$dir" "$name")
	[ -n "$port" ] || die "no node $name in $dir/nodes"
	rm -f "$dir/$name.exit" "$dir/$name.pid"
	local args=(--node "$name" --store postgres --postgres "$PG_CONNINFO" --redis "127.0.0.1:$REDIS_PORT"
		--listen "127.0.0.1:$port" --db "$dir/$name.db" --web "$src/clients/web"
		--migrations "$src/migrations" --trusted-proxies 127.0.0.1)
	# Redis' ACL user for the nodes (lib.sh: only what a node needs), its password in the environment,
	# as a host would give it (never on the command line); NODE ARGS come last and may override.
	[ -n "$(redis_password "$dir")" ] && args+=(--redis-user quinteto)
	args+=("${NODE_ARGS[@]}")
	(
		cd "$dir" || exit 1
		# The server refuses QUINTETO_* variables it does not know: the caller's test settings stay out.
		for v in $(compgen -e); do
			case "$v" in QUINTETO_SERVER | QUINTETO_CLI | QUINTETO_SOURCE) ;; QUINTETO_*) unset "$v" ;; esac
		done
		if [ -n "$(redis_password "$dir")" ]; then
			QUINTETO_REDIS_PASSWORD=$(cat "$dir/redis/node-password")
			export QUINTETO_REDIS_PASSWORD
		fi
		export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}"
		export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
		trap '' HUP
		"$BIN" "${args[@]}" >>"$dir/$name.log" 2>&1 </dev/null &
		echo $! >"$dir/$name.pid"
		wait $!
		echo $? >"$dir/$name.exit"
	) </dev/null >/dev/null 2>&1 &
	local i
	for i in $(seq 100); do
		[ -s "$dir/$name.pid" ] && break
		sleep 0.02
	done
	local pid
	pid=$(cat "$dir/$name.pid")
	awk -v n="$name" -v p="$pid" '$1 == n { $2 = p } { print }' "$dir/nodes" >"$dir/nodes.tmp" &&
		mv "$dir/nodes.tmp" "$dir/nodes"
}

# wait_node DIR NAME [SECONDS]: until the node answers /readyz 200 and HAProxy has it up; fails with the
# log's tail if the node exits first or the time runs out.
wait_node() {
	local dir="$1" name="$2" limit="${3:-90}" port pid end
	port=$(node_port "$dir" "$name")
	pid=$(node_pid "$dir" "$name")
	end=$((SECONDS + limit))
	while ((SECONDS < end)); do
		if [ -f "$dir/$name.exit" ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "dev-cluster: node $name exited (status $(cat "$dir/$name.exit" 2>/dev/null)); its log:" >&2
			tail -30 "$dir/$name.log" >&2
			return 1
		fi
		if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/readyz")" = 200 ] &&
			[ "$(haproxy_state "$dir" "$name")" = UP ]; then
			return 0
		fi
		sleep 0.1
	done
	echo "dev-cluster: node $name not ready in ${limit} s; its log:" >&2
	tail -30 "$dir/$name.log" >&2
	return 1
}

stop_node() {
	local dir="$1" name="$2" pid i
	pid=$(cat "$dir/$name.pid" 2>/dev/null) || return 0
	ours "$pid" "$dir" || return 0
	kill -TERM "$pid" 2>/dev/null
	kill -CONT "$pid" 2>/dev/null # a frozen node must wake up to see its SIGTERM
	for i in $(seq 200); do
		ours "$pid" "$dir" || return 0
		sleep 0.1
	done
	echo "dev-cluster: node $name did not stop in 20 s of SIGTERM: SIGKILL" >&2
	kill -KILL "$pid" 2>/dev/null
	return 0
}

# ---------------------------------------------------------------------------------------------
# HAProxy: one frontend, one backend of every node (docs/SCALING.md, Routing)

write_haproxy_cfg() {
	local dir="$1" n="$2" i maxconn
	# Two descriptors a proxied connection, within this shell's open-file limit (HAProxy refuses more).
	maxconn=$((($(ulimit -n) - 200) / 2))
	{
		cat <<EOF
# Generated by deploy/cluster/dev-cluster.sh: HAProxy 2.6 in front of $n Quinteto nodes.
global
	maxconn $maxconn
	stats socket $dir/haproxy.sock mode 600 level admin
	log stdout format raw local0 info

defaults
	mode http
	log global
	option httplog
	option dontlognull
	# X-Forwarded-For: the client's address, appended; the nodes list 127.0.0.1 in trusted_proxies.
	option forwardfor
	# A connection to a node that just died is retried once on another one.
	retries 2
	option redispatch 1
	timeout connect 2s
	timeout http-request 10s
	timeout client 60s
	timeout server 60s
	# A WebSocket, once upgraded, is a tunnel: the server pings idle ones (keepalive), an hour is plenty.
	timeout tunnel 1h
	timeout client-fin 10s
	timeout server-fin 10s

frontend www
	bind 127.0.0.1:$HAPROXY_PORT
	default_backend nodes

backend nodes
	balance roundrobin
	# A node takes connections while it can take changes: /readyz (503 while its store fails or it stops).
	# A node marked down keeps the WebSockets it has (no on-marked-down shutdown-sessions).
	option httpchk GET /readyz
	http-check expect status 200
	default-server check inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1
	# Which node answered (debugging, and the tests): the server's name in HAProxy is the node's name.
	http-response set-header X-Quinteto-Node %s
EOF
		# /ws?node=NAME: to that node while HAProxy has it up; use-server is skipped for a server that
		# is down, and round robin picks another (which answers `moved` or `unavailable` as it must).
		for i in $(seq "$n"); do
			printf '\tuse-server n%s if { path /ws } { urlp(node) -m str n%s }\n' "$i" "$i"
		done
		for i in $(seq "$n"); do
			printf '\tserver n%s 127.0.0.1:%s\n' "$i" "$(node_port "$dir" "n$i")"
		done
	} >"$dir/haproxy.cfg"
}

start_haproxy() {
	local dir="$1" i
	rm -f "$dir/haproxy.pid"
	haproxy -c -q -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 || {
		echo "dev-cluster: haproxy.cfg is refused:" >&2
		haproxy -c -f "$dir/haproxy.cfg" >&2
		return 1
	}
	(
		trap '' HUP
		haproxy -db -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 </dev/null &
		echo $! >"$dir/haproxy.pid"
	) </dev/null >/dev/null 2>&1
	for i in $(seq 200); do
		curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$HAPROXY_PORT/healthz" && return 0
		kill -0 "$(cat "$dir/haproxy.pid")" 2>/dev/null || break
		sleep 0.05
	done
	echo "dev-cluster: haproxy did not start; its log:" >&2
	tail -20 "$dir/haproxy.log" >&2
	return 1
}

stop_haproxy() {
	local dir="$1" pid i
	pid=$(cat "$dir/haproxy.pid" 2>/dev/null) || return 0
	ours "$pid" "$dir" || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 100); do
		ours "$pid" "$dir" || return 0
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	return 0
}

# haproxy_state DIR NAME: UP, DOWN, MAINT, ... as HAProxy's checks see node NAME now.
haproxy_state() {
	python3 - "$1/haproxy.sock" "$2" <<'PY' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
s.connect(sys.argv[1])
s.sendall(b"show stat\n")
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
for line in data.decode().splitlines():
    f = line.split(",")
    if len(f) > 17 and f[0] == "nodes" and f[1] == sys.argv[2]:
        print(f[17].split(" ")[0])
PY
}

# ---------------------------------------------------------------------------------------------
# Commands

cmd_up() {
	local n="$1" dir="$2"
	shift 2
	[ "${1:-}" = -- ] && shift
	[[ "$n" =~ ^[1-9][0-9]?$ ]] || die "up N DIR: N is 1..99"
	mkdir -p "$dir" || die "cannot make $dir"
	dir="$(cd "$dir" && pwd)"
	[ -f "$dir/cluster.env" ] && die "$dir holds a cluster already (down it, or use a new folder)"
	BIN=$(server_bin) || die "no server binary: set QUINTETO_SERVER or build into build/ or build-test/"
	PG_PORT=$(free_port)
	REDIS_PORT=$(free_port)
	HAPROXY_PORT=$(free_port)
	NODE_ARGS=("$@")
	: >"$dir/nodes"
	local i
	for i in $(seq "$n"); do echo "n$i 0 $(free_port)" >>"$dir/nodes"; done
	PG_CONNINFO="host=127.0.0.1 port=$PG_PORT dbname=quinteto user=quinteto connect_timeout=2"
	# declare -g: load() sources this inside a function, and the settings must outlive it.
	declare -p BIN PG_PORT REDIS_PORT HAPROXY_PORT NODE_ARGS PG_CONNINFO |
		sed -e 's/^declare -- /declare -g /' -e 's/^declare -a /declare -ga /' >"$dir/cluster.env"

	# From here on, a failure stops whatever was started.
	trap 'cmd_down "$dir" >/dev/null 2>&1' EXIT
	pg_up "$dir" "$PG_PORT" || die "PostgreSQL did not start"
	redis_up "$dir" "$REDIS_PORT" || die "Redis did not start"
	for i in $(seq "$n"); do start_node "$dir" "n$i"; done
	write_haproxy_cfg "$dir" "$n"
	start_haproxy "$dir" || die "HAProxy did not start"
	for i in $(seq "$n"); do wait_node "$dir" "n$i" || die "node n$i did not become ready"; done
	trap - EXIT
	echo "URL=http://127.0.0.1:$HAPROXY_PORT"
}

cmd_down() {
	local dir="$1" name
	[ -f "$dir/cluster.env" ] || return 0
	load "$dir"
	if [ -f "$dir/nodes" ]; then
		while read -r name _; do stop_node "$dir" "$name" & done <"$dir/nodes"
		wait
	fi
	stop_haproxy "$dir"
	redis_stop "$dir"
	pg_stop "$dir"
	return 0
}

main() {
	local cmd="${1:-}"
	shift || true
	case "$cmd" in
	up)
		[ $# -ge 2 ] || die "usage: up N DIR [-- NODE ARGS...]"
		cmd_up "$@"
		;;
	down)
		[ $# -eq 1 ] || die "usage: down DIR"
		cmd_down "$1"
		;;
	kill)
		[ $# -ge 2 ] || die "usage: kill DIR NAME [SIGNAL]"
		load "$1"
		local pid
		pid=$(node_pid "$1" "$2")
		ours "$pid" "$1" || die "node $2 is not running"
		kill -"${3:-KILL}" "$pid"
		;;
	start)
		[ $# -eq 2 ] || die "usage: start DIR NAME"
		load "$1"
		ours "$(node_pid "$1" "$2")" "$1" && die "node $2 is running"
		start_node "$1" "$2"
		wait_node "$1" "$2"
		;;
	wait)
		[ $# -eq 2 ] || die "usage: wait DIR NAME"
		load "$1"
		wait_node "$1" "$2"
		;;
	stop-redis)
		load "$1"
		redis_stop "$1"
		;;
	start-redis)
		load "$1"
		redis_up "$1" "$REDIS_PORT"
		;;
	stop-pg)
		load "$1"
		pg_stop "$1"
		;;
	start-pg)
		load "$1"
		pg_up "$1" "$PG_PORT"
		;;
	restart-haproxy)
		load "$1"
		stop_haproxy "$1"
		start_haproxy "$1"
		;;
	*)
		die "usage: dev-cluster.sh up N DIR [-- NODE ARGS] | down DIR | kill DIR NAME [SIGNAL] | start DIR NAME | wait DIR NAME | stop-redis DIR | start-redis DIR | stop-pg DIR | start-pg DIR | restart-haproxy DIR"
		;;
	esac
}

main "$@"
