#!/bin/bash
# check-debian.sh: follows docs/HOSTING.md on a fresh Debian 12 booted under systemd, unattended, and
# checks the instance it makes from the outside. Not part of the test suite (4 to 10 minutes; see
# docs/HOSTING.md for the last run). Run it as root on a Debian 12 host with network access to a
# Debian mirror:
#
#   sudo deploy/check-debian.sh
#
# What it does:
#  1. installs debootstrap and systemd-container on the host if they are missing (and the Node modules
#     of tests/, for the client), then debootstraps bookworm into a fresh folder (the host's own Debian
#     mirror, or $CHECK_DEBIAN_MIRROR) and boots it with systemd-nspawn --boot: systemd is PID 1 in
#     it. The container shares the host's network (apt in it reaches the mirror; the host reaches the
#     server on 127.0.0.1).
#  2. copies a `git clone` of this checkout's HEAD (committed work only) into /root/quinteto in it, and
#     runs every `sh` block of HOSTING.md's Install section there, in order, as written (apt-get's
#     questions are answered yes): packages, build, meson install, user, unit, configuration, a
#     self-signed certificate, systemctl enable --now.
#  3. from the host (deploy/check-debian-play.mjs, over https:// and wss:// trusting only that
#     certificate): /healthz, /readyz and the web client; two players play the first listed game; `systemctl restart`;
#     the match is back at the same ply, both tokens resume their seats and the match is played out
#     and archived (and `quinteto verify` accepts it); the certificate block is run again and
#     `systemctl reload`: new connections get the new certificate, an open one goes on.
#  4. in the container: the installed unit is deploy/quinteto.service unchanged, it never restarted,
#     its journal has the server's lines and no error, the database is the service user's, the
#     connection cap follows LimitNOFILE; the `sh` blocks of "Back up and restore" (backup, verify,
#     restore) and the archived match is still served after the restore; `systemctl stop` ends the
#     server with status 0; a reboot of the container starts the enabled service again.
#
# Exits 0 when every step passed, 1 at the first that failed (its output says which). Always stops the
# container, unmounts what it mounted and removes its folder (CHECK_DEBIAN_KEEP=1 keeps the folder).
# Settings: CHECK_DEBIAN_DIR (parent folder, default /var/tmp), CHECK_DEBIAN_MIRROR, CHECK_DEBIAN_BASE
# (a tar file: when it exists, it is unpacked instead of running debootstrap, which saves about four
# minutes; when it does not, debootstrap's output is saved there). Delete the file to start from a
# new debootstrap (point releases move on).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
DOC="$SRC/docs/HOSTING.md"
START=$(date +%s)
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

say() { printf '\n== %s\n' "$*"; }
fail() { printf '\ncheck-debian: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap and systemd-nspawn need it)"
grep -q '^VERSION_ID="12"' /etc/os-release 2>/dev/null || echo "check-debian: warning: the host is not Debian 12" >&2

# --- the host's tools ------------------------------------------------------------------------------
need=()
for p in debootstrap systemd-container git curl iproute2; do
	[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	say "installing on the host: ${need[*]}"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi
command -v node >/dev/null || fail "node is needed on the host for the client (deploy/dev.sh installs it)"
if [ ! -d "$SRC/tests/node_modules/ws" ]; then
	say "installing the Node modules of tests/"
	(cd "$SRC/tests" && npm ci --no-audit --no-fund)
fi

if [ -z "${CHECK_DEBIAN_MIRROR:-}" ]; then
	# The host's own Debian mirror: the first archive URI of its apt sources (one-line or deb822).
	CHECK_DEBIAN_MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE '(https?|file)://[^ ]+/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ' || true)
	CHECK_DEBIAN_MIRROR=${CHECK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
fi

# --- the folder, the container and the clean-up ------------------------------------------------------
WORK=$(mktemp -d "${CHECK_DEBIAN_DIR:-/var/tmp}/quinteto-check-debian.XXXXXX")
ROOT="$WORK/root"
MACHINE="qcheck$$"
NSPAWN_PID=

container_pid() { # PID 1 of the container, as the host sees it
	[ -z "$NSPAWN_PID" ] || pgrep -P "$NSPAWN_PID" -x systemd | head -n1 || true
}

stop_container() {
	[ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null || { NSPAWN_PID=; return 0; }
	kill -TERM "$NSPAWN_PID" 2>/dev/null || true # nspawn asks the container's systemd to power off
	for _ in $(seq 60); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 1; done
	if kill -0 "$NSPAWN_PID" 2>/dev/null; then
		echo "check-debian: the container did not power off in 60 s; killing it" >&2
		kill -KILL "$NSPAWN_PID" 2>/dev/null || true
	fi
	wait "$NSPAWN_PID" 2>/dev/null || true
	NSPAWN_PID=
}

cleanup() {
	local rc=$?
	set +e
	stop_container
	# Whatever is still mounted below the folder (nothing, normally).
	findmnt -rn -o TARGET | grep -F "$WORK/" | sort -r | while read -r m; do umount -l "$m"; done
	if [ "${CHECK_DEBIAN_KEEP:-}" = 1 ]; then
		echo "check-debian: kept $WORK" >&2
	else
		rm -rf --one-file-system "$WORK"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM

boot() {
	# The rlimit is the one systemd gives a real boot (a hard NOFILE of 524288), so that the unit's
	# LimitNOFILE can be checked here as on a real machine.
	systemd-nspawn -D "$ROOT" --boot --machine="$MACHINE" --register=no --keep-unit \
		--console=passive --rlimit=RLIMIT_NOFILE=1024:524288 >>"$WORK/boot.log" 2>&1 &
	NSPAWN_PID=$!
	local state=
	for _ in $(seq 120); do
		if [ -n "$(container_pid)" ]; then
			state=$(in_c systemctl is-system-running 2>/dev/null || true)
			case "$state" in running | degraded) break ;; esac
		fi
		kill -0 "$NSPAWN_PID" 2>/dev/null || { cat "$WORK/boot.log" >&2; fail "systemd-nspawn exited"; }
		sleep 1
	done
	case "$state" in
	running) ;;
	degraded) in_c systemctl --failed --no-pager; fail "the container booted degraded" ;;
	*) cat "$WORK/boot.log" >&2; fail "the container's systemd did not come up in 120 s (state: $state)" ;;
	esac
	echo "booted: systemd is PID 1 ($(in_c cat /proc/1/comm)), system $state"
}

# Runs a command in the booted container (all its namespaces), with a clean environment.
in_c() {
	local pid
	pid=$(container_pid)
	[ -n "$pid" ] || fail "the container is not running"
	nsenter -t "$pid" -a env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# The `sh` blocks of one "## " section of HOSTING.md, NUL-separated.
blocks() {
	awk -v sec="## $1" '
		/^## / { insec = ($0 == sec) }
		insec && /^```sh$/ { inb = 1; next }
		inb && /^```$/ { inb = 0; printf "%c", 0; next }
		inb { print }' "$DOC"
}

# Runs one block of HOSTING.md in the container, in the checkout, as a reader would: line by line
# (bash -e), answering apt-get's questions with yes. Prints it first.
run_block() {
	printf '%s\n' "$1" | sed 's/^/    $ /'
	local rc=0
	yes | in_c bash -e -o pipefail -c "cd /root/quinteto; $1" >"$WORK/block.log" 2>&1 || rc=${PIPESTATUS[1]}
	if [ "$rc" != 0 ]; then
		tail -n 40 "$WORK/block.log" >&2
		fail "this HOSTING.md step exited $rc"
	fi
	tail -n 3 "$WORK/block.log" | sed 's/^/    | /'
}

# --- 1. a fresh Debian 12 under systemd --------------------------------------------------------------
if [ -n "${CHECK_DEBIAN_BASE:-}" ] && [ -f "$CHECK_DEBIAN_BASE" ]; then
	say "unpacking $CHECK_DEBIAN_BASE (debootstrap's output, kept by an earlier run) into $ROOT"
	mkdir "$ROOT"
	tar -C "$ROOT" -xpf "$CHECK_DEBIAN_BASE" --numeric-owner --xattrs --xattrs-include='*'
else
	say "debootstrap bookworm from $CHECK_DEBIAN_MIRROR into $ROOT"
	debootstrap bookworm "$ROOT" "$CHECK_DEBIAN_MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$WORK/debootstrap.log" >&2; fail "debootstrap"; }
	if [ -n "${CHECK_DEBIAN_BASE:-}" ]; then
		tar -C "$ROOT" -cf "$CHECK_DEBIAN_BASE" --numeric-owner --xattrs --xattrs-include='*' .
		echo "kept debootstrap's output in $CHECK_DEBIAN_BASE for the next runs"
	fi
fi
echo "Debian $(cat "$ROOT/etc/debian_version")"
echo "$MACHINE" >"$ROOT/etc/hostname"

say "the source: a clone of $(git -C "$SRC" rev-parse --short HEAD) ($(git -C "$SRC" log -1 --format=%s))"
git -C "$SRC" diff --quiet HEAD || echo "check-debian: note: uncommitted changes are not part of the check" >&2
git clone -q --no-hardlinks "$SRC" "$ROOT/root/quinteto"

say "booting it with systemd-nspawn --boot"
boot

# The ports of deploy/quinteto.json, unless the host uses them already (the container shares its
# network): then the copy in /etc/quinteto is edited to free ones, as HOSTING.md's "edit it" allows.
port_free() { [ -z "$(ss -Hltn "sport = :$1")" ]; }
free_port() { local p=$1; while ! port_free "$p"; do p=$((p + 1)); done; echo "$p"; }
PORT=$(free_port 8443)
MPORT=$(free_port 9090)

# --- 2. HOSTING.md's Install section, block by block ----------------------------------------------
mapfile -d '' INSTALL < <(blocks Install)
[ ${#INSTALL[@]} -ge 4 ] || fail "HOSTING.md's Install section has ${#INSTALL[@]} sh blocks (expected at least 4)"
grep -q 'systemctl enable --now quinteto' <<<"${INSTALL[*]}" || fail "HOSTING.md's Install never starts the unit"
CERT_BLOCK=
edited=
n=0
for b in "${INSTALL[@]}"; do
	say "HOSTING.md, Install: block $((++n))"
	case "$b" in *"openssl req"*) CERT_BLOCK=$b ;; esac
	case "$b" in *"enable --now"*)
		if [ -z "$edited" ] && { [ "$PORT" != 8443 ] || [ "$MPORT" != 9090 ]; }; then
			echo "    (8443 or 9090 is taken on the host: the configuration is edited to $PORT and $MPORT)"
			sed -i -e "s/:8443\"/:$PORT\"/" -e "s/:9090\"/:$MPORT\"/" "$ROOT/etc/quinteto/quinteto.json"
		fi
		edited=1
		;;
	esac
	run_block "$b"
done
[ -n "$CERT_BLOCK" ] || fail "HOSTING.md's Install section makes no certificate"
LWS=$(in_c dpkg-query -W -f='${Version}' libwebsockets-dev)
echo "libwebsockets-dev $LWS"

# --- 3. from the host -------------------------------------------------------------------------------
export QUINTETO_SOURCE="$SRC"
ADDR="127.0.0.1:$PORT"
CA="$WORK/ca.pem"
play() { node "$SRC/deploy/check-debian-play.mjs" "$@" || fail "client step: $1"; }
wait_healthy() {
	for _ in $(seq 30); do
		node "$SRC/deploy/check-debian-play.mjs" health "$ADDR" "$CA" >"$WORK/health.log" 2>&1 && { cat "$WORK/health.log"; return 0; }
		sleep 1
	done
	cat "$WORK/health.log" >&2
	in_c journalctl -u quinteto --no-pager -n 30 >&2 || true
	fail "the server at https://$ADDR did not become healthy in 30 s"
}
cp "$ROOT/etc/quinteto/tls/fullchain.pem" "$CA"

say "from the host: https://$ADDR/healthz, /readyz, the web client"
wait_healthy
# Into a file first: grep -q stops reading at its match, and curl's failed write would fail the pipe.
curl -fsS -o "$WORK/metrics.txt" "http://127.0.0.1:$MPORT/metrics" || fail "/metrics on 127.0.0.1:$MPORT"
grep -q '^quinteto_connections ' "$WORK/metrics.txt" || fail "/metrics on 127.0.0.1:$MPORT has no quinteto_connections"
echo "GET http://127.0.0.1:$MPORT/metrics: 200"

say "from the host: two players play the first listed game over wss://"
play play "$ADDR" "$CA" "$WORK/match.json"

say "systemctl restart quinteto: the match comes back"
in_c systemctl restart quinteto
wait_healthy
ARCHIVED=$(node "$SRC/deploy/check-debian-play.mjs" resume "$ADDR" "$CA" "$WORK/match.json") ||
	{ echo "$ARCHIVED"; fail "client step: resume"; }
echo "$ARCHIVED"
ROOM=$(sed -n 's/^archived //p' <<<"$ARCHIVED")
[ -n "$ROOM" ] || fail "no archived room"
in_c quinteto --db /var/lib/quinteto/quinteto.db verify "$ROOM" || fail "quinteto verify $ROOM"

say "renew the certificate (Install's openssl block again), systemctl reload quinteto"
grep -q 'systemctl reload quinteto' "$DOC" || fail "HOSTING.md no longer says systemctl reload quinteto"
cat >"$WORK/renew.sh" <<EOF
#!/bin/bash
set -e
$(declare -f in_c container_pid fail)
NSPAWN_PID=$NSPAWN_PID
sleep 1 # a certificate made in the same second may look the same to a client
in_c bash -e -o pipefail -c "cd /root/quinteto; \$1" </dev/null >/dev/null 2>&1
in_c systemctl reload quinteto
cp "$ROOT/etc/quinteto/tls/fullchain.pem" "$WORK/ca2.pem"
EOF
chmod +x "$WORK/renew.sh"
play reload "$ADDR" "$CA" "$WORK/ca2.pem" -- "$WORK/renew.sh" "$CERT_BLOCK"
cp "$WORK/ca2.pem" "$CA"

# --- 4. in the container ------------------------------------------------------------------------------
say "the unit, its hardening, its journal"
cmp "$SRC/deploy/quinteto.service" "$ROOT/etc/systemd/system/quinteto.service" ||
	fail "the installed unit is not deploy/quinteto.service"
in_c systemctl is-enabled quinteto
[ "$(in_c systemctl show quinteto -p NRestarts --value)" = 0 ] || fail "the service restarted on its own"
in_c stat -c '%U:%G %a %n' /var/lib/quinteto /var/lib/quinteto/quinteto.db
[ "$(in_c stat -c %U /var/lib/quinteto/quinteto.db)" = quinteto ] || fail "the database is not the service user's"
in_c journalctl -u quinteto --no-pager -o cat >"$WORK/journal.log"
# LimitNOFILE=65536 reaches the server, whose connection cap is 64 below it. (Where the host's own hard
# limit is lower and it cannot raise it, as in a sandbox without CAP_SYS_RESOURCE, the container's is.)
main=$(in_c systemctl show quinteto -p MainPID --value)
nofile=$(in_c awk '/^Max open files/ { print $4 }' "/proc/$main/limits")
ceiling=$(in_c awk '/^Max open files/ { print $5 }' /proc/1/limits)
want_nofile=$((ceiling < 65536 ? ceiling : 65536))
echo "the server's open-file limit: $nofile (LimitNOFILE=65536; the container's ceiling: $ceiling)"
[ "$nofile" = "$want_nofile" ] || fail "the server's open-file limit is $nofile, not $want_nofile"
for want in "listening on https://0.0.0.0:$PORT" "metrics on http://127.0.0.1:$MPORT" 'reloaded the certificate' \
	'applied migration' "at most $((nofile - 64)) connections"; do
	grep -qF "$want" "$WORK/journal.log" || { tail -n 30 "$WORK/journal.log" >&2; fail "journalctl -u quinteto lacks \"$want\""; }
done
if grep -E '"level":"(error|warn)"|quinteto-server (error|warn):' "$WORK/journal.log"; then
	fail "the server logged errors or warnings under the unit"
fi
echo "journalctl -u quinteto: $(wc -l <"$WORK/journal.log") lines, the start, the migrations, the reload; no error"
in_c systemd-analyze security quinteto --no-pager | tail -n 1

say "HOSTING.md, Back up and restore"
mapfile -d '' BACKUP < <(blocks 'Back up and restore')
[ ${#BACKUP[@]} -ge 2 ] || fail "HOSTING.md's backup section has ${#BACKUP[@]} sh blocks (expected 2)"
for b in "${BACKUP[@]}"; do run_block "$b"; done
in_c systemctl is-active quinteto
wait_healthy
node -e '
  const https = require("node:https"), fs = require("node:fs");
  https.get({ host: "127.0.0.1", port: process.argv[1], path: "/api/matches/" + process.argv[2], servername: "localhost",
    ca: fs.readFileSync(process.argv[3]) }, (r) => { console.log(`after the restore: GET /api/matches/${process.argv[2]}: ${r.statusCode}`);
    process.exit(r.statusCode === 200 ? 0 : 1); }).on("error", (e) => { console.error(e.message); process.exit(1); });
' "$PORT" "$ROOM" "$CA" || fail "the archived match is gone after the restore"

say "systemctl stop quinteto: status 0"
in_c systemctl stop quinteto
result=$(in_c systemctl show quinteto -p Result --value)
status=$(in_c systemctl show quinteto -p ExecMainStatus --value)
echo "Result=$result ExecMainStatus=$status"
[ "$result" = success ] && [ "$status" = 0 ] || fail "the server did not stop cleanly"

say "reboot: the enabled unit starts at boot"
stop_container
boot
wait_healthy
in_c systemctl is-active quinteto

say "power off"
stop_container
SECS=$(($(date +%s) - START))
printf '\ncheck-debian: PASSED in %dm%02ds: Debian %s, libwebsockets %s, commit %s\n' $((SECS / 60)) $((SECS % 60)) \
	"$(cat "$ROOT/etc/debian_version")" "$LWS" "$(git -C "$SRC" rev-parse --short HEAD)"
