#!/usr/bin/env bash
# Browser end-to-end test: starts the real `schach serve` on a free loopback port with a fresh
# database and runs tests/e2e/browser_game.mjs (playwright-core driving Debian's /usr/bin/chromium):
# two browsers play a friend game to checkmate, and the downloaded PGN is read back by the rules core;
# a game against the computer is created with the level picker and its reply checked on the board.
# Screenshots and PGNs go to $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup e2e

CHROMIUM=$CHROMIUM node "$E2E_DIR/browser_game.mjs" "$url" "$SCHACH" "$ARTIFACTS" || fail "browser_game.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_browser: screenshots and PGNs in $ARTIFACTS"
cli_finish e2e_browser
