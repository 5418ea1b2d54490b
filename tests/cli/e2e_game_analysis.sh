#!/usr/bin/env bash
# The computer analysis on the game page (issue 23): starts the real `schach serve` on a free loopback
# port with a fresh database, a small analysis budget (3,000 nodes a position) and one analysis a day
# per address (the test's second request is refused) and runs
# tests/e2e/game_analysis.mjs (playwright-core driving Debian's /usr/bin/chromium): the request, the
# graph, the marked moves with the better move and its arrow, the summary and accuracy, the annotated
# PGN, the review's FEN and material, "Learn from your mistakes", German, the day's limit, axe-core. Screenshots go to
# $ARTIFACTS (default ./e2e-artifacts in the test's working folder).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
e2e_setup game_analysis --analysis-nodes 3000 --analysis-per-day-address 1

CHROMIUM=$CHROMIUM node "$E2E_DIR/game_analysis.mjs" "$url" "$ARTIFACTS" || fail "game_analysis.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_game_analysis: screenshots in $ARTIFACTS"
cli_finish e2e_game_analysis
