#!/bin/sh
# load_window.sh start|end: the counters load.sh takes at the edges of the generator's measured window
# (quinteto-load --window-cmd), written to $LOAD_TMP/win.start or win.end for load_counts.py. /proc
# first (a tick is 10 ms), then the engines' own counters: each sample costs PostgreSQL one short query
# (its backend's CPU lands in the postmaster's children) and Redis one INFO.
# Env (from load.sh): LOAD_TMP (its folder: pg/ and redis/ when it started them), LOAD_PID (the server).
set -u
out="$LOAD_TMP/win.$1"
ticks() { # utime + stime + cutime + cstime of a process, in clock ticks (comm may hold spaces)
	awk '{ sub(/^.*\) /, ""); print $12 + $13 + $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
{
	echo "t $(date +%s.%N)"
	echo "node_ticks $(ticks "$LOAD_PID")"
	if [ -f "$LOAD_TMP/pg/data/postmaster.pid" ]; then
		pm=$(head -1 "$LOAD_TMP/pg/data/postmaster.pid")
		n=$(ticks "$pm")
		for c in $(pgrep -P "$pm"); do n=$((n + $(ticks "$c"))); done
		echo "pg_ticks $n"
		psql "host=127.0.0.1 port=$(cat "$LOAD_TMP/pg/port") dbname=quinteto user=quinteto" -AtF ' ' -c "
			select 'pg', pg_current_xact_id()::text, pg_current_wal_lsn() - '0/0', xact_commit,
				tup_inserted, tup_updated, tup_deleted
			from pg_stat_database where datname = current_database()"
	fi
	if [ -f "$LOAD_TMP/redis/redis.pid" ]; then
		echo "redis_ticks $(ticks "$(cat "$LOAD_TMP/redis/redis.pid")")"
		rp=$(cat "$LOAD_TMP/redis/port")
		REDISCLI_AUTH=$(cat "$LOAD_TMP/redis/password") # lib.sh's Redis has one (its AUTHs count here too)
		export REDISCLI_AUTH
		redis-cli -p "$rp" INFO commandstats | tr -d '\r' |
			sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),.*/cmd \1 \2/p'
		# memory, bytes sent (pub/sub deliveries included), the directory's rooms, node n1's summary
		redis-cli -p "$rp" INFO | tr -d '\r' |
			sed -n 's/^used_memory:\([0-9]*\)/redis_mem \1/p; s/^total_net_output_bytes:\([0-9]*\)/redis_out \1/p'
		echo "redis_rooms $(redis-cli -p "$rp" HLEN quinteto:rooms)"
		echo "redis_summary $(redis-cli -p "$rp" STRLEN quinteto:lobby:n1)"
	fi
} >"$out.part" && mv "$out.part" "$out"
