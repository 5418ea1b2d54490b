#!/usr/bin/env bash
# The address bar gives no seat away (issue 22, defect 8): starts the real `schach serve` on a
# free loopback port with a fresh database and runs tests/e2e/trust_seats.mjs (playwright-core
# driving Debian's /usr/bin/chromium): no game's address keeps a secret after the page read it, another
# browser opening a player's address only watches, a reload keeps the side (the browser's storage), and
# a page without localStorage still plays. Screenshots go to $ARTIFACTS (default ./e2e-artifacts in the
# test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup trust_seats --no-limits

CHROMIUM=$CHROMIUM node "$E2E_DIR/trust_seats.mjs" "$url" "$ARTIFACTS" || fail "trust_seats.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_trust_seats: screenshots in $ARTIFACTS"
cli_finish e2e_trust_seats
