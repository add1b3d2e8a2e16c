#!/bin/sh
# OBSOLETE: a one-off before/after comparison for issue 5, kept as the record
# of how docs/BENCHMARKS.md's issue 5 figures were made. It compiles the store
# by hand from the flat server/ of that time (server/store*.c, server/util.c),
# which no longer exists since the server moved into module folders, so it no
# longer builds against this tree; no test runs it. Today's journal figures
# come from quinteto-journal-bench and quinteto-bench (tests/bench/meson.build),
# which link the server's own store library.
#
# store_bench.sh: journal commit delay under an archive read flood, before and
# after issue 5 (reads on their own connection and thread, batched journal).
# Builds tests/bench/bench_store.c against the store of BEFORE (default
# 0ffb6e1, the tree before issue 5: one queue and one thread for everything)
# and against this tree's store, both -O2 without sanitizers, then runs each
# with 0 and READERS (default 1000) list requests in flight.
# Usage: tests/bench/store_bench.sh [READERS] [TICKS] [MATCHES]
# Needs: cc, pkg-config, sqlite3, libuv, jansson development files, git.
set -eu
readers=${1:-1000}
ticks=${2:-300}
matches=${3:-2000}
before=${BEFORE:-0ffb6e1}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/quinteto-store-bench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
flags="-O2 -std=c11 -D_GNU_SOURCE -pthread"
libs=$(pkg-config --cflags --libs sqlite3 libuv jansson)

mkdir -p "$tmp/old/migrations" "$tmp/new"
for f in server/store.c server/store.h server/util.c server/util.h; do
	git -C "$src" show "$before:$f" >"$tmp/old/$(basename "$f")"
done
for f in $(git -C "$src" ls-tree --name-only "$before" migrations/); do
	git -C "$src" show "$before:$f" >"$tmp/old/migrations/$(basename "$f")"
done
printf '#define QUINTETO_VERSION "bench"\n' >"$tmp/old/config.h"
cp "$tmp/old/config.h" "$tmp/new/config.h"
cc $flags -I"$tmp/old" -o "$tmp/bench_before" "$src/tests/bench/bench_store.c" "$tmp/old/store.c" \
	"$tmp/old/util.c" $libs
cc $flags -DNEW_STORE -I"$tmp/new" -I"$src/server" -I"$src/protocol/wire" -I"$src/protocol/rules" \
	-o "$tmp/bench_after" "$src/tests/bench/bench_store.c" "$src"/server/store*.c "$src/server/util.c" \
	"$src"/protocol/wire/*.c "$src"/protocol/rules/*.c $libs

for which in before after; do
	mig="$src/migrations"
	[ "$which" = before ] && mig="$tmp/old/migrations"
	for r in 0 "$readers"; do
		echo "== $which ($([ "$which" = before ] && echo "$before" || git -C "$src" rev-parse --short HEAD)), $r readers"
		rm -f "$tmp"/db*
		"$tmp/bench_$which" "$tmp/db" "$mig" "$r" "$ticks" "$matches" 2>/dev/null
	done
done
