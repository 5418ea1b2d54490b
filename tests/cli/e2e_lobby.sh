#!/usr/bin/env bash
# Browser test of the lobby, the accounts and "your turn" (issue 13): starts the real `schach serve`
# on a free loopback port with a fresh database and its default limits (two sign-ups and a few logins
# stay within those of one address) and runs tests/e2e/lobby.mjs (playwright-core
# driving Debian's /usr/bin/chromium) with three browser contexts: two accounts sign up, post and
# accept a rated seek through the lobby and land on one game with opposite colours, the header's
# "your turn" follows the moves; quick pairing pairs both into one game; an anonymous visitor is told
# to log in for a rated seek and plays a casual one; log out, a wrong password, log in, a new password;
# axe-core on home and /account in German and English on desktop and phone. Screenshots go to
# $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup lobby

CHROMIUM=$CHROMIUM node "$E2E_DIR/lobby.mjs" "$url" "$ARTIFACTS" || fail "lobby.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_lobby: screenshots in $ARTIFACTS"
cli_finish e2e_lobby
