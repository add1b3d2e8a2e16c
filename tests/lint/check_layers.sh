#!/bin/sh
# The server's include graph between module folders (docs/ARCHITECTURE.md,
# "The server"). Every #include "x" in server/ is one of:
#   - a header of the same module (its own folder; server.c, main.c and
#     server.h are the top module, "server"), private ones (*_int.h) included;
#   - a public header (the module's face, listed below) of a LOWER module in
#     server -> net -> lobby -> room -> player -> cluster -> store -> bots -> base
#     -> rating (Glicko-2: pure C, includes nothing of ours);
#   - a header of protocol/ (rules.h, wire.h, ...) or the build's config.h.
# A private header (*_int.h) is never included from another module, and since
# the order is total, arrows only downward means no circle between modules.
# Lines in the allow-list ($2, default tests/lint/layers_allow.txt: "file
# include", each with a comment naming who removes it) are known violations
# reported as TODO; an allowed line that no longer occurs fails, so the list
# only shrinks. One TAP line per include between modules or of an unknown header.
root=${1:-.}
allow=${2:-$root/tests/lint/layers_allow.txt}
cd "$root" || exit 2
[ -d server ] || { echo "not ok 1 - server/ exists under $root"; echo "1..1"; exit 1; }

# module rank (lower number = higher layer) and its public headers
faces='server 0 server.h
net 1 net/net.h
lobby 2 lobby/lobby.h
room 3 room/room.h
player 4 player/player.h
cluster 5 cluster/cluster.h
store 6 store/store.h
bots 7 bots/bots.h
base 8 base/util.h base/buf.h base/conf.h base/metrics.h base/pwhash.h
rating 9 rating/rating.h'

protocol_headers=$(find protocol -name '*.h' 2>/dev/null | sed 's|.*/||' | sort -u | tr '\n' ' ')

find server -name '*.[ch]' | LC_ALL=C sort | while read -r f; do
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed "s|^|$f:|"
done | awk -v faces="$faces" -v protocol="$protocol_headers" -v allowfile="$allow" '
function module_of(path,   p) {
	p = path; sub(/^server\//, "", p)
	if (p !~ /\//) return "server"
	sub(/\/.*/, "", p); return p
}
BEGIN {
	n = split(faces, lines, "\n")
	for (i = 1; i <= n; i++) {
		k = split(lines[i], w, " ")
		rank[w[1]] = w[2]
		for (j = 3; j <= k; j++) public[w[j]] = 1
	}
	k = split(protocol, w, " ")
	for (j = 1; j <= k; j++) proto[w[j]] = 1
	while ((getline line < allowfile) > 0) {
		sub(/#.*/, "", line)
		if (split(line, w, " ") == 2) { allowed[w[1] " " w[2]] = 1; nallowed++ }
	}
	t = 0; fail = 0
}
{
	file = $0; sub(/:.*/, "", file)
	inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
	from = module_of(file)
	dir = file; sub(/\/[^\/]*$/, "", dir)
	why = ""
	if (inc !~ /\//) {
		if (inc == "config.h" || (inc in proto)) next
		if (from == "server" && inc == "server.h") next
		if (system("test -f \"" dir "/" inc "\"") == 0) next  # a sibling in its own folder
		why = "an unknown header (neither protocol/, config.h nor its own folder)"
	} else {
		to = inc; sub(/\/.*/, "", to)
		if (!(to in rank)) why = "a header of no known module folder"
		else if (to == from) next
		else if (inc ~ /_int\.h$/) why = "a private header of module " to
		else if (rank[to] <= rank[from]) why = "an upward include (" from " -> " to ")"
		else if (!(inc in public)) why = "not the public face of module " to
	}
	t++
	key = file " " inc
	if (why == "") { print "ok " t " - " file " -> " inc; next }
	if (key in allowed) {
		seen[key] = 1
		print "not ok " t " - " file " includes " inc ": " why " # TODO allow-listed in " allowfile
		next
	}
	print "not ok " t " - " file " includes " inc ": " why
	fail = 1
}
END {
	for (key in allowed) if (!(key in seen)) {
		t++
		print "not ok " t " - the allow-list entry \"" key "\" no longer occurs: remove it from " allowfile
		fail = 1
	}
	print "1.." t
	exit fail
}'
