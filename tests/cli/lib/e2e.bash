# shellcheck shell=bash
# Shared by the browser tests (tests/cli/e2e_*.sh), sourced after common.bash and cli_init:
#
#   e2e_setup NAME [ARGS...]
#                    installs the page's and the tests' npm packages once (under a lock, so tests
#                    started together do not install into one folder twice), starts the real
#                    `schach serve` on a free loopback port with a fresh database $tmp/NAME.db, waits
#                    for its address and sets url, server_pid, E2E_DIR, CHROMIUM and ARTIFACTS (default
#                    ./e2e-artifacts in the test's working folder); the server is killed on exit.
#                    ARGS go to `schach serve` as well (e.g. --no-limits).

e2e_setup() {
    local name=$1
    shift
    require_command node
    require_command npm
    require_command flock

    ROOT=$(cd "$(dirname "$0")/../.." && pwd)
    E2E_DIR=$ROOT/tests/e2e
    WEB_DIR=$ROOT/web
    CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
    ARTIFACTS=${ARTIFACTS:-$PWD/e2e-artifacts}
    [ -x "$CHROMIUM" ] || { echo "FAIL: $CHROMIUM is needed (apt-get install chromium)" >&2; exit 1; }

    # npm_ci_once DIR PACKAGE_FILE: npm ci in DIR unless PACKAGE_FILE is installed there already. The
    # lock makes a second test started at the same time wait instead of installing into the same folder.
    npm_ci_once() {
        [ -f "$1/node_modules/$2" ] && return 0
        # shellcheck disable=SC2094 # fd 9 only holds the lock on the folder
        (
            flock 9
            [ -f "$1/node_modules/$2" ] || npm ci --prefix "$1" --no-audit --no-fund --loglevel=error >&2
        ) 9<"$1" || { echo "FAIL: npm ci in $1 failed (is the npm registry reachable?)" >&2; exit 1; }
    }
    npm_ci_once "$WEB_DIR" "@lichess-org/chessground/dist/chessground.js"
    npm_ci_once "$E2E_DIR" "axe-core/axe.min.js" # and playwright-core

    "$SCHACH" serve --listen 127.0.0.1:0 --db "$tmp/$name.db" "$@" >"$tmp/serve.log" 2>&1 &
    server_pid=$!
    trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

    # The server prints its address once it listens; wait for that line (at most 60 s).
    url=""
    for _ in $(seq 600); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/serve.log" | head -n 1)
        [ -n "$url" ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        echo "FAIL: schach serve did not print its address:" >&2
        cat "$tmp/serve.log" >&2
        exit 1
    fi

    mkdir -p "$ARTIFACTS"
}
