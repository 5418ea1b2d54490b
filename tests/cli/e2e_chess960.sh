#!/usr/bin/env bash
# Chess960 in the browser: starts the real `schach serve` on a free loopback port with a fresh database
# and runs tests/e2e/chess960.mjs (playwright-core driving Debian's /usr/bin/chromium): a Chess960 game
# from the new-game form, named with its start position on the game page; castling by dropping the king
# on its rook in start position 692 (the Chess960 rule, recorded as e1h1; the king stays where it was
# dropped while the move is on its way, and the board is read once it is at rest); axe-core on both pages.
# Screenshots go to $ARTIFACTS.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/lib/e2e.bash"
# Every commit waits 300 ms: the castling is still on its way when the held refresh is answered.
SCHACH_STORE_COMMIT_DELAY_MS=300 e2e_setup chess960

CHROMIUM=$CHROMIUM node "$E2E_DIR/chess960.mjs" "$url" "$ARTIFACTS" || fail "chess960.mjs failed (artifacts: $ARTIFACTS)"

kill -0 "$server_pid" 2>/dev/null || fail "schach serve died during the test: $(cat "$tmp/serve.log")"
echo "e2e_chess960: screenshots in $ARTIFACTS"
cli_finish e2e_chess960
