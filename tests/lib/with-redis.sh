#!/usr/bin/env bash
# tests/lib/with-redis.sh CMD ARGS...: runs CMD with a Redis 7 of its own,
# started on a free loopback port in a temporary folder (deploy/cluster/lib.sh),
# without persistence, with a password (the default user's: requirepass). CMD
# gets QUINTETO_TEST_REDIS (HOST:PORT), QUINTETO_TEST_REDIS_PASSWORD and
# QUINTETO_TEST_REDIS_CTL, a command that takes `stop` or `start` to stop that
# Redis and start it again, empty, on the same port, or `pause` and `resume`
# (SIGSTOP, SIGCONT: a Redis that hangs), for the tests of a Redis that goes
# away. The Redis is stopped and the folder removed after; CMD's
# exit status is this script's.
#
# tests/lib/with-redis.sh --ctl DIR stop|start|pause|resume: that command.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../deploy/cluster/lib.sh"
if [ "${1:-}" = --ctl ]; then
	case "$3" in
	stop) redis_stop "$2" ;;
	start) redis_up "$2" "$(cat "$2/redis/port")" ;;
	pause) kill -STOP "$(cat "$2/redis/redis.pid")" ;;
	resume) kill -CONT "$(cat "$2/redis/redis.pid")" ;;
	*) echo "with-redis: --ctl DIR stop|start|pause|resume" >&2; exit 2 ;;
	esac
	exit
fi
dir=$(mktemp -d /tmp/quinteto-redis.XXXXXX)
cleanup() { redis_stop "$dir"; rm -rf "$dir"; }
trap cleanup EXIT
port=$(free_port)
redis_up "$dir" "$port" || { echo "with-redis: Redis did not start" >&2; exit 1; }
QUINTETO_TEST_REDIS="127.0.0.1:$port" QUINTETO_TEST_REDIS_PASSWORD="$(redis_password "$dir")" \
	QUINTETO_TEST_REDIS_CTL="$here/with-redis.sh --ctl $dir" "$@"
