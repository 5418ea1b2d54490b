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
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup defects

CHROMIUM=$CHROMIUM node "$E2E_DIR/defects.mjs" "$url" "$ARTIFACTS" || fail "defects.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_defects: screenshots in $ARTIFACTS"
cli_finish e2e_defects
