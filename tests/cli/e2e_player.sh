#!/usr/bin/env bash
# Browser checks of the player page /@/NAME (issue 13): starts the real `schach serve` (--no-limits:
# the test signs up and plays many games) on a free loopback port and runs tests/e2e/player.mjs
# (playwright-core driving Debian's /usr/bin/chromium): ratings as the API says, one graph point per
# rated game, the result filter and paging in the address, the opponent's link, both PGN downloads,
# an unknown name, the language switch, axe-core in German and English on a desktop and a phone, no
# sideways scrolling. Screenshots go to $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup player --no-limits

CHROMIUM=$CHROMIUM node "$E2E_DIR/player.mjs" "$url" "$ARTIFACTS" || fail "player.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_player: screenshots in $ARTIFACTS"
cli_finish e2e_player
