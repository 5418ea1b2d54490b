#!/usr/bin/env bash
# Rematch and presence in the browser: starts the real `schach serve` on a free loopback port with a
# fresh database and runs tests/e2e/rematch.mjs (playwright-core driving Debian's /usr/bin/chromium):
# two browsers finish a friend game, one offers a rematch, the other accepts, both arrive in the new
# game with the colours swapped; the presence dots follow the opponent's page; axe-core finds no
# violation on the ended game with the offer. Screenshots go to $ARTIFACTS.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup rematch

CHROMIUM=$CHROMIUM node "$E2E_DIR/rematch.mjs" "$url" "$ARTIFACTS" || fail "rematch.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_rematch: screenshots in $ARTIFACTS"
cli_finish e2e_rematch
