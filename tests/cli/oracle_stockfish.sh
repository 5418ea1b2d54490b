#!/usr/bin/env bash
# Cross-check against Stockfish: perft 3 with divide on positions from seeded random games and on
# hand-picked tricky ones (en passant pins, castling through check, promotions with check). The
# work is done by tests/oracle/stockfish_check.mjs, which keeps one Stockfish process for all.
set -u
SCHACH=${1:?usage: oracle_stockfish.sh path/to/schach}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[ -x "$STOCKFISH" ] || { echo "FAIL: $STOCKFISH is missing (scripts/install-deps installs stockfish)" >&2; exit 1; }
# shellcheck source=../oracle/setup.sh source-path=SCRIPTDIR
source "$(dirname "$0")/../oracle/setup.sh"
oracle_setup || exit 1
exec node "$ORACLE_DIR/stockfish_check.mjs" "$SCHACH" "$STOCKFISH" 3
