#!/usr/bin/env bash
# Quinteto's one entry point for a Debian 12 machine.
#
#   deploy/dev.sh run    install what is missing, build, start the server on
#                        http://localhost:8080 with its database in var/; it
#                        serves clients/web from memory: after editing it,
#                        send it SIGHUP (`kill -HUP PID`) or restart it
#   deploy/dev.sh test   the same set-up, then every test (C unit, integration,
#                        browser); ends with the line "N passed, N failed"
#   deploy/dev.sh setup  only install and build
#
# Idempotent: packages already installed are not touched, npm packages are
# installed from tests/package-lock.json only when it changed, and the build
# directory is configured once. Environment: BUILD_DIR (default build),
# QUINTETO_LISTEN (default 127.0.0.1:8080), QUINTETO_DB (default var/quinteto.db),
# QUINTETO_TEST_JOBS (tests run at a time by `test`, default 3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
cd "$ROOT"

# clang and lld (wasm-ld): the games' rules built to WebAssembly for the web client (protocol/wasm/).
RUN_PACKAGES=(build-essential meson ninja-build pkg-config libwebsockets-dev libuv1-dev
	libjansson-dev libsqlite3-dev zlib1g-dev clang lld libpq-dev libhiredis-dev libsodium-dev)
# nginx: the nginx_front test starts its own on loopback with deploy/nginx.conf. Where services start on
# install (not in a container with policy-rc.d), Debian also starts the system nginx on port 80:
# `systemctl disable --now nginx` if it is not wanted.
# postgresql, redis-server, haproxy: the cluster's engines, started on loopback by deploy/cluster/ (the
# store's PostgreSQL contract tests and the cluster tests); as with nginx, Debian may also start the system's.
TEST_PACKAGES=(chromium fonts-dejavu-core sqlite3 iproute2 clang-tools clang-format cppcheck nginx
	postgresql redis-server haproxy)

log() { printf '==> %s\n' "$*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	as_root apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

need_node() {
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		apt_install nodejs npm
	fi
}

npm_install() {
	local stamp="$ROOT/tests/node_modules/.quinteto-lock"
	local want
	want="$(sha256sum "$ROOT/tests/package-lock.json" | cut -d' ' -f1)"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return 0
	fi
	log "installing the test suite's npm packages"
	(cd "$ROOT/tests" && npm ci --no-audit --no-fund --loglevel=error)
	echo "$want" >"$stamp"
}

build() {
	if [ ! -f "$BUILD_DIR/build.ninja" ]; then
		log "configuring $BUILD_DIR"
		meson setup "$BUILD_DIR" "$@"
	fi
	log "building"
	ninja -C "$BUILD_DIR"
}

cmd_setup() {
	apt_install "${RUN_PACKAGES[@]}"
	build -Dintegration_tests=false -Dbrowser_tests=false
}

cmd_run() {
	cmd_setup
	mkdir -p "$ROOT/var"
	exec "$BUILD_DIR/server/quinteto-server" --listen "${QUINTETO_LISTEN:-127.0.0.1:8080}" \
		--db "${QUINTETO_DB:-$ROOT/var/quinteto.db}" --web "$ROOT/clients/web" \
		--migrations "$ROOT/migrations"
}

cmd_test() {
	apt_install "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
	need_node
	npm_install
	build -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false
	meson configure "$BUILD_DIR" -Dintegration_tests=true -Dbrowser_tests=true >/dev/null
	ninja -C "$BUILD_DIR"
	log "running every test"
	local rc=0
	# Three tests at a time on a 2-core machine; QUINTETO_TEST_JOBS sets another number. The integration tests
	# mostly wait on sockets and timers (a tenth to a third of a core each, measured), so with two slots the
	# cores idled while they ran (tests/meson.build says more); a third slot fills them.
	ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
	UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
		meson test -C "$BUILD_DIR" --print-errorlogs --num-processes "${QUINTETO_TEST_JOBS:-3}" "$@" >&2 || rc=$?
	node "$ROOT/tests/summary.mjs" "$BUILD_DIR/meson-logs/testlog.json" || rc=1
	return $rc
}

case "${1:-}" in
setup) cmd_setup ;;
run) cmd_run ;;
test) shift; BUILD_DIR="${BUILD_DIR_TEST:-$ROOT/build-test}"; cmd_test "$@" ;;
*)
	sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
