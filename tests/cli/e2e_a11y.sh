#!/usr/bin/env bash
# Browser checks of the game page for everyone (issue 13): starts the real `schach serve` on a free
# loopback port with a fresh database and runs tests/e2e/game_a11y.mjs (playwright-core driving
# Debian's /usr/bin/chromium): a friend game played to Scholar's mate with the keyboard only in a
# German and an English browser, the board's grid labels, the spoken moves and ending, the clocks
# read on demand, the review of earlier positions, the mute switch, dark mode, and axe-core with 0
# violations on desktop and phone, before and after the end. Screenshots go to $ARTIFACTS (default
# ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup a11y

CHROMIUM=$CHROMIUM node "$E2E_DIR/game_a11y.mjs" "$url" "$ARTIFACTS" || fail "game_a11y.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_a11y: screenshots in $ARTIFACTS"
cli_finish e2e_a11y
