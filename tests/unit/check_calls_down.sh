#!/bin/sh
# check_calls_down.sh LIBRARY PREFIX...: a lower module calls nothing above it.
# Every symbol LIBRARY (a static library of the server, e.g. the store's) leaves
# undefined (`nm -u`) is checked against the PREFIXes of the functions of the
# modules above it (room_, lobby_, session_...): a direct call up, however it
# was spelled in the source, is refused. Calls up go through callbacks named in
# the module's own header (store_live_ops, store_commit_cb), which leave no
# undefined symbol. Prints TAP; exits non-zero on a violation.
set -u
lib="$1"
shift
n=0
fail=0
up=$(nm -u "$lib" 2>/dev/null | awk '{print $NF}' | sort -u)
if [ -z "$up" ]; then
	echo "1..1"
	echo "not ok 1 - nm -u $lib printed nothing (no library, or no nm)"
	exit 1
fi
echo "1..$#"
for prefix in "$@"; do
	n=$((n + 1))
	bad=$(printf '%s\n' "$up" | grep "^$prefix" | tr '\n' ' ')
	if [ -n "$bad" ]; then
		echo "not ok $n - $(basename "$lib") calls up into $prefix*: $bad"
		fail=1
	else
		echo "ok $n - $(basename "$lib") calls no $prefix* function"
	fi
done
exit $fail
