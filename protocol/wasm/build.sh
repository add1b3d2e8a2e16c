#!/bin/sh
# build.sh OUT CLANG WASM_LD [-Idir | -e name ...] -- SOURCE...: compiles
# SOURCEs for wasm32, freestanding (the C library is protocol/wasm/libc/), and
# links them into the module OUT with nothing imported, exporting its memory
# and each function named by -e. Run by protocol/wasm/meson.build and
# tests/unit/meson.build.
set -eu
out=$1 clang=$2 ld=$3
shift 3
incs="" exports=""
while [ "$1" != "--" ]; do
	case $1 in
	-e) exports="$exports --export=$2"; shift 2 ;;
	*) incs="$incs $1"; shift ;;
	esac
done
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
# -O2, not -Oz: a replay derives tens of thousands of plies; the module stays near 45 KB (budget 200 KB).
for src in "$@"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$clang" --target=wasm32 -ffreestanding -nostdlib -fno-builtin -O2 -std=c11 -Wall -Werror \
		-isystem "$here/libc" $incs -c "$src" -o "$tmp/$i.o"
done
# 16 MiB of memory: the 4 MiB stack, the I/O buffers and the bots' 4 MiB search arena (exports.c), all BSS.
# shellcheck disable=SC2086
"$ld" --no-entry --strip-all -z stack-size=4194304 --initial-memory=16777216 \
	$exports -o "$out" "$tmp"/*.o
