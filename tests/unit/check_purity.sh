#!/bin/sh
# check_purity.sh SOURCE... -- OBJECT...: the rules core is pure C (house style),
# checked by allow-lists rather than by looking for known bad names, so what nobody
# thought of is refused too. The SOURCEs are the rules core's files: protocol/rules/
# and each game's rules (protocol/games/<id>/<id>.c and .h) with the generated
# game_list.h (tests/unit/meson.build lists them from the list of games).
#  1. every #include in the SOURCEs is a C standard library header from
#     ALLOWED_HEADERS below, or "name.h" naming a header that is itself one of
#     the SOURCEs (a quoted "jansson.h" is refused like <jansson.h>; so is an
#     include built from a macro, or a path);
#  2. every symbol the OBJECTs (the rules library, .a or .o) leave undefined
#     (`nm -u`) is defined by another of the OBJECTs or is in ALLOWED_SYMBOLS /
#     ALLOWED_PATTERNS: the memory and string functions, assert(), and what the
#     compiler, the stack protector, fortify and the sanitizers add. A call to
#     malloc, free, fputs, printf, fopen, time, rand... is refused however it was
#     spelled in the source (macros, token pasting).
# Prints TAP; exits non-zero on any violation. tests/unit/test_purity.sh plants
# violations in a copy of the tree to prove each check can fail.
set -u
sources=''
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	sources="$sources $1"
	shift
done
[ $# -gt 0 ] && shift # the --

# Standard headers that bring no I/O, allocation, clocks, locale or processes.
ALLOWED_HEADERS='assert.h float.h inttypes.h iso646.h limits.h stdalign.h stdarg.h stdbool.h stddef.h stdint.h stdnoreturn.h string.h'
ALLOWED_SYMBOLS='memcpy memmove memset memcmp memchr strcmp strncmp strlen strnlen strchr strrchr
__assert_fail __assert_rtn __assert __stack_chk_fail __stack_chk_guard __memcpy_chk __memmove_chk
__memset_chk _GLOBAL_OFFSET_TABLE_ __dso_handle'
# Sanitizer, coverage and profiling runtimes; libgcc/compiler-rt arithmetic helpers.
ALLOWED_PATTERNS='^__(asan|ubsan|sanitizer|msan|tsan|lsan|hwasan|sancov|gcov|llvm)_
^__(u?(div|mod|mul)[dt]i3|(popcount|clz|ctz|parity|ffs)[dst]i2|bswap[ds]i2)$'

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

in_list() { # WORD LIST
	for w in $2; do [ "$w" = "$1" ] && return 0; done
	return 1
}

# The SOURCEs' bare names, " a.c b.h ", and a test for one of them.
names=' '
for s in $sources; do names="$names${s##*/} "; done
is_source() { case "$names" in *" $1 "*) return 0 ;; esac; return 1; }

# 1. Headers.
[ -n "$sources" ] || notok "source files given to check"
for f in $sources; do
	bad=''
	# Every line that is an include directive, with its line number.
	lines=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f" || true)
	while IFS= read -r line; do
		[ -z "$line" ] && continue
		spec=$(printf '%s\n' "$line" | sed -nE 's/^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]*[>"]).*/\1/p')
		name=$(printf '%s' "$spec" | sed -E 's/^[<"](.*)[>"]$/\1/')
		case "$spec" in
		\<*\>) in_list "$name" "$ALLOWED_HEADERS" && continue ;;
		\"*\") case "$name" in */* | .*) ;; *) is_source "$name" && continue ;; esac ;;
		esac
		bad="$bad$line
"
	done <<EOF
$lines
EOF
	if [ -n "$bad" ]; then
		notok "$(basename "$f") includes only allowed standard headers and the rules core's own"
		printf '%s' "$bad" | sed 's/^/# refused: /'
	else
		ok "$(basename "$f") includes only allowed standard headers and the rules core's own"
	fi
done

# 2. Undefined symbols.
if [ $# -eq 0 ]; then
	notok "object files given to check"
else
	defined=$(nm -g --defined-only "$@" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u)
	undefined=$(nm -u "$@" | awk 'NF >= 2 && $1 == "U" { print $2 }' | sort -u)
	if [ -z "$defined" ]; then
		notok "the objects define symbols (nm found nothing: wrong files?)"
	fi
	bad=''
	for s in $undefined; do
		in_list "$s" "$defined" && continue
		in_list "$s" "$ALLOWED_SYMBOLS" && continue
		printf '%s\n' "$s" | grep -qE "$ALLOWED_PATTERNS" && continue
		bad="$bad $s"
	done
	if [ -n "$bad" ]; then
		notok "the rules objects call only allowed functions"
		for s in $bad; do
			echo "# refused: $s, used by: $(nm -A -u "$@" | awk -v s="$s" '$NF == s { k = split($1, p, ":"); print (p[k] != "" ? p[k] : p[k - 1]) }' | xargs -n1 basename | sort -u | tr '\n' ' ')"
		done
	else
		ok "the rules objects call only allowed functions ($(printf '%s\n' $undefined | wc -l) undefined symbols checked)"
	fi
fi
echo "1..$n"
[ "$fail" -eq 0 ]
