#!/usr/bin/env bash
# The account page's redirect after logging in (issue 22, defect 6): starts the real `schach serve` on a
# free loopback port with a fresh database and runs tests/e2e/trust_redirect.mjs (playwright-core
# driving Debian's /usr/bin/chromium): /account?next=… goes back only to a page of this site; a tab or
# line feed, //host, backslashes, another scheme or javascript: all end on the home page, and no request
# leaves the site. Screenshots go to $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup trust_redirect --no-limits

CHROMIUM=$CHROMIUM node "$E2E_DIR/trust_redirect.mjs" "$url" "$ARTIFACTS" || fail "trust_redirect.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_trust_redirect: screenshots in $ARTIFACTS"
cli_finish e2e_trust_redirect
