#!/bin/sh
# test_purity.sh CHECK RULES_LIB SOURCE...: proves that check_purity.sh can fail.
# It passes on the real tree; then, in a temporary flat copy of the SOURCEs (the
# rules core's files: their names are unique), it plants one
# violation at a time (a quoted "jansson.h", a <stdio.h>, an include built from a
# macro; a call to fputs, to malloc, and to fputs spelled by token pasting so no
# grep for the name could see it), compiles the planted copy with $CC where the
# check reads objects, and requires check_purity.sh to fail naming the culprit.
# Prints TAP.
set -u
check="$1"
lib="$2"
shift 2
sources="$*"
cc="${CC:-cc}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/quinteto-purity-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
fail=0
result() { # OK NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

# A fresh copy of the rules sources in $tmp/src.
fresh() {
	rm -rf "$tmp/src" "$tmp/obj"
	mkdir -p "$tmp/src" "$tmp/obj"
	# shellcheck disable=SC2086
	cp $sources "$tmp/src/"
}

# expect_fail NAME PATTERN OBJECTS...: the check must exit non-zero, print "not ok" and PATTERN.
expect_fail() {
	name="$1"
	pattern="$2"
	shift 2
	out=$(sh "$check" "$tmp"/src/* -- "$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -q '^not ok' && printf '%s\n' "$out" | grep -qF -- "$pattern" && [ $rc -ne 0 ]
	r=$?
	[ $r -ne 0 ] && printf '%s\n' "$out" | sed 's/^/#   /'
	result $r "$name"
}

# compile_plant FILE: compiles $tmp/src/FILE to $tmp/obj/plant.o. -fno-builtin keeps the
# call under its own name (the compiler may turn fputs into fwrite: refused all the same).
compile_plant() {
	$cc -std=c11 -w -fno-builtin -c "$tmp/src/$1" -I "$tmp/src" -o "$tmp/obj/plant.o"
}

# shellcheck disable=SC2086
out=$(sh "$check" $sources -- "$lib" 2>&1)
result $? "the real rules core passes"
[ $fail -ne 0 ] && printf '%s\n' "$out" | sed 's/^/#   /'

fresh
sed -i '0,/#include/s//#include "jansson.h"\n#include/' "$tmp/src/game.c"
expect_fail 'a quoted "jansson.h" in game.c is refused' 'jansson.h' "$lib"

fresh
printf '#include <stdio.h>\n' >> "$tmp/src/ur.h"
expect_fail 'a <stdio.h> in ur.h is refused' 'stdio.h' "$lib"

fresh
printf '#define HDR <stdlib.h>\n#include HDR\n' >> "$tmp/src/dice.c"
expect_fail 'an include built from a macro is refused' 'include HDR' "$lib"

fresh
printf '#include "../wire/wire.h"\n' >> "$tmp/src/dice.c"
expect_fail 'a quoted header outside the rules core is refused' 'wire.h' "$lib"

fresh
cat >> "$tmp/src/dice.c" <<'EOF'
extern int fputs(const char *s, void *stream);
void rules_debug_dump(void *stream)
{
	fputs("dice\n", stream);
}
EOF
compile_plant dice.c
expect_fail 'a call to fputs in dice.c is refused (by symbol)' 'fputs' "$tmp/obj/plant.o" "$lib"

fresh
cat >> "$tmp/src/game.c" <<'EOF'
extern void *malloc(size_t n);
struct rules_match *rules_match_new(void)
{
	return malloc(sizeof(struct rules_match));
}
EOF
compile_plant game.c
expect_fail 'a call to malloc in game.c is refused (by symbol)' 'malloc' "$tmp/obj/plant.o" "$lib"

fresh
cat >> "$tmp/src/ur.c" <<'EOF'
#define HIDE(a, b) a##b
extern int HIDE(fpu, ts)(const char *s, void *stream);
void ur_debug(void *stream)
{
	HIDE(fpu, ts)("ur\n", stream);
}
EOF
compile_plant ur.c
expect_fail 'fputs spelled by token pasting is refused (by symbol)' 'fputs' "$tmp/obj/plant.o" "$lib"

fresh
expect_fail 'no objects given is a failure, not a pass' 'object files given' 

echo "1..$n"
[ $fail -eq 0 ]
