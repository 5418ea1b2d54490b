#!/usr/bin/env bash
# The whole site as a stranger uses it (issue 13), one flow through the real pages with the server's
# default limits: two accounts sign up, a rated challenge is accepted from the lobby and played to
# mate, both ratings change as Glicko-2 gives (computed by the test itself), the game is on both
# player pages, a rematch with colours swapped, and an anonymous visitor on a phone plays a casual
# challenge; axe-core on every page visited and no sideways scrolling on the phone
# (tests/e2e/site.mjs, playwright-core driving Debian's /usr/bin/chromium). Screenshots go to
# $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup site

CHROMIUM=$CHROMIUM node "$E2E_DIR/site.mjs" "$url" "$ARTIFACTS" || fail "site.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_site: screenshots in $ARTIFACTS"
cli_finish e2e_site
