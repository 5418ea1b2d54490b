#!/usr/bin/env bash
# Browser checks of the web page's defects found in Chromium (issue 13, defects 1-10): starts the
# real `schach serve` on a free loopback port with a fresh database and runs tests/e2e/defects.mjs
# (playwright-core driving Debian's /usr/bin/chromium): a phone-sized friend game (file letters in
# their squares, no sideways scrolling, the invitation link in view, readable coordinates, the
# controls shown only when they apply, "Copy" confirmed, the placeholder and "1 Halbzug"), an
# illegal drag and a tap that say why, two PGN names, the icon, the promotion chooser at its square
# and the recently finished games without aborted ones. Screenshots go to $ARTIFACTS (default
# ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
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
npm_ci_once "$E2E_DIR" "playwright-core/package.json"

"$SCHACH" serve --listen 127.0.0.1:0 --db "$tmp/defects.db" >"$tmp/serve.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# The server prints its address once it listens; wait for that line (at most 20 s).
url=""
for _ in $(seq 200); do
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
CHROMIUM=$CHROMIUM node "$E2E_DIR/defects.mjs" "$url" "$ARTIFACTS" || fail "defects.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_defects: screenshots in $ARTIFACTS"
cli_finish e2e_defects
