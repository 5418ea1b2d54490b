#!/usr/bin/env bash
# The board editor (/editor, issue 23) and the new-game form with a FEN: starts the real `schach serve`
# on a free loopback port with a fresh database and runs tests/e2e/editor.mjs (playwright-core driving
# Debian's /usr/bin/chromium): a position built by clicks and by keyboard, libschach's reasons for an
# illegal one in English and German, the FEN both ways, a game against the computer from it, the
# analysis board with it, the home page's start position (refused with the reason when illegal),
# axe-core. Needs schach.wasm in the served folder (cmake/wasm.cmake): without it the test says so and
# passes. Screenshots go to $ARTIFACTS (default ./e2e-artifacts).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
if [ ! -f "$(dirname "$SCHACH")/web/wasm/schach.wasm" ]; then
    echo "e2e_editor: SKIP: schach.wasm is not built (cmake/wasm.cmake), the page cannot run"
    exit 0
fi
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup editor --no-limits

CHROMIUM=$CHROMIUM node "$E2E_DIR/editor.mjs" "$url" "$ARTIFACTS" ||
    fail "editor.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_editor: screenshots in $ARTIFACTS"
cli_finish e2e_editor
