#!/usr/bin/env bash
# deploy/cluster/lib.sh: start and stop, on loopback and in a folder of their
# own, the engines a cluster of Quinteto nodes runs on (docs/SCALING.md):
# PostgreSQL 15 (the durable store) and Redis 7 (the directory and lobby).
# Sourced by dev-cluster.sh and by the tests (tests/lib/with-pg.sh); nothing
# here touches the system's own services or their data.
#
#   pg_up DIR PORT      initdb in DIR/pg (as an unprivileged user when run as
#                       root: initdb and postgres refuse root), start it on
#                       127.0.0.1:PORT, create the database `quinteto`; prints
#                       nothing, returns non-zero with the log's tail on failure
#   pg_conninfo DIR     the conninfo of that database ("host=... port=...")
#   pg_stop DIR         stop it (fast shutdown); pg_kill DIR: SIGKILL it
#   redis_up DIR PORT   a Redis on 127.0.0.1:PORT, no persistence, in DIR/redis,
#                       with passwords (docs/SCALING.md, "Redis with a password"):
#                       the default user's in DIR/redis/password, and an ACL
#                       user `quinteto` with only what a node needs, its password
#                       in DIR/redis/node-password (both made once per DIR, kept
#                       across a restart); REDIS_AUTH=none: no password at all
#   redis_stop DIR      stop it
#   free_port           a TCP port nobody listens on now, on 127.0.0.1

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

# Runs "$@" as the unprivileged owner of the engines' folders when we are root.
_as_owner() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

free_port() {
	python3 - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

pg_up() {
	local dir="$1" port="$2" pg="$1/pg"
	mkdir -p "$pg"
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$dir" "$pg"
		chmod 755 "$dir"
	fi
	if [ ! -f "$pg/data/PG_VERSION" ]; then
		_as_owner "$PG_BIN/initdb" -D "$pg/data" -A trust -U quinteto -E UTF8 --locale=C.UTF-8 \
			--no-sync >"$pg/initdb.log" 2>&1 || {
			tail -20 "$pg/initdb.log" >&2
			return 1
		}
	fi
	echo "$port" >"$pg/port"
	# fsync stays on: the tests kill nodes, not the machine, but a dev cluster should behave as a real one.
	_as_owner "$PG_BIN/pg_ctl" -D "$pg/data" -l "$pg/log" -w -t 60 \
		-o "-p $port -k $pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null || {
		tail -20 "$pg/log" >&2
		return 1
	}
	_as_owner "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U quinteto quinteto 2>/dev/null || true
}

pg_conninfo() {
	echo "host=127.0.0.1 port=$(cat "$1/pg/port") dbname=quinteto user=quinteto connect_timeout=2"
}

pg_stop() {
	[ -f "$1/pg/data/postmaster.pid" ] || return 0
	_as_owner "$PG_BIN/pg_ctl" -D "$1/pg/data" -m fast -w -t 30 stop >/dev/null 2>&1 || pg_kill "$1"
}

pg_kill() {
	local pid
	pid=$(head -1 "$1/pg/data/postmaster.pid" 2>/dev/null) || return 0
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	return 0
}

# The commands a node sends (server/cluster/: the scripts' HSET, HGET, HDEL and PUBLISH are checked too),
# on the keys and channels under quinteto: only. docs/SCALING.md lists the same.
REDIS_NODE_ACL='resetkeys ~quinteto:* resetchannels &quinteto:* -@all +subscribe +publish +set +del +mget +sadd +srem +smembers +hscan +hset +hget +hdel +eval'

redis_up() {
	local dir="$1" port="$2" r="$1/redis"
	mkdir -p "$r"
	(
		umask 077
		[ -s "$r/password" ] || head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$r/password"
		[ -s "$r/node-password" ] || head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$r/node-password"
		{
			echo "port $port"
			echo "bind 127.0.0.1"
			echo "dir $r"
			echo "save \"\""
			echo "appendonly no"
			echo "daemonize yes"
			echo "pidfile $r/redis.pid"
			echo "logfile $r/log"
			if [ "${REDIS_AUTH:-}" != none ]; then
				echo "requirepass $(cat "$r/password")"
				echo "user quinteto on >$(cat "$r/node-password") $REDIS_NODE_ACL"
			fi
		} >"$r/redis.conf"
	)
	# The passwords are in the file (mode 600), not on a command line every user sees.
	redis-server "$r/redis.conf" || return 1
	echo "$port" >"$r/port"
	local i
	for i in $(seq 100); do
		REDISCLI_AUTH=$(redis_password "$dir") redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && return 0
		sleep 0.05
	done
	tail -20 "$r/log" >&2
	return 1
}

# redis_password DIR: the password of the default user of DIR's Redis (empty: none, REDIS_AUTH=none).
redis_password() {
	grep -q '^requirepass ' "$1/redis/redis.conf" 2>/dev/null && cat "$1/redis/password"
	return 0
}

redis_stop() {
	local pid
	pid=$(cat "$1/redis/redis.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	local i
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	return 0
}
