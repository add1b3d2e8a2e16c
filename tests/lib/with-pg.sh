#!/usr/bin/env bash
# tests/lib/with-pg.sh CMD ARGS...: runs CMD with a PostgreSQL 15 of its own,
# started on a free loopback port in a temporary folder (deploy/cluster/lib.sh),
# its conninfo in QUINTETO_TEST_PG and its folder in QUINTETO_TEST_PG_DIR (for
# lib.sh's pg_stop/pg_up: tests that restart it); stops it and removes the
# folder after.
# CMD's exit status is this script's.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../deploy/cluster/lib.sh"
dir=$(mktemp -d /tmp/quinteto-pg.XXXXXX)
cleanup() { pg_stop "$dir"; rm -rf "$dir"; }
trap cleanup EXIT
pg_up "$dir" "$(free_port)" || { echo "with-pg: PostgreSQL did not start" >&2; exit 1; }
QUINTETO_TEST_PG="$(pg_conninfo "$dir")" QUINTETO_TEST_PG_DIR="$dir" "$@"
