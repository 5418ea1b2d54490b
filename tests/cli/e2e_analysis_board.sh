#!/usr/bin/env bash
# The analysis board (/analysis, issue 23): starts the real `schach serve` on a free loopback port
# with a fresh database and runs tests/e2e/analysis_board.mjs (playwright-core driving Debian's
# /usr/bin/chromium): moves by click, drag and keyboard, variations promoted and deleted, a comment,
# the local engine (score, lines, arrow, multi-PV), the PGN read back by `schach pgn` and by chessops
# (tests/oracle's package), German SAN and decimal comma, a game's moves at a ply, the page without
# WebAssembly, axe-core. Needs schach.wasm in the served folder (cmake/wasm.cmake): without it the
# test says so and passes. Screenshots go to $ARTIFACTS (default ./e2e-artifacts).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
if [ ! -f "$(dirname "$SCHACH")/web/wasm/schach.wasm" ]; then
    echo "e2e_analysis_board: SKIP: schach.wasm is not built (cmake/wasm.cmake), the page cannot run"
    exit 0
fi
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup analysis_board --no-limits
npm_ci_once "$ROOT/tests/oracle" "chessops/package.json"

CHROMIUM=$CHROMIUM node "$E2E_DIR/analysis_board.mjs" "$url" "$SCHACH" "$ROOT/tests/oracle" "$ARTIFACTS" ||
    fail "analysis_board.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_analysis_board: screenshots in $ARTIFACTS"
cli_finish e2e_analysis_board
