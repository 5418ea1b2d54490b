#!/usr/bin/env bash
# Cross-check against chessops (the rules library behind lichess): legal moves, SAN in English and
# German, FEN, check, outcome and claims on every position of seeded random games, and whole games
# replayed as SAN. The work is done by tests/oracle/chessops_check.mjs.
set -u
SCHACH=${1:?usage: oracle_chessops.sh path/to/schach}
# shellcheck source=../oracle/setup.sh source-path=SCRIPTDIR
source "$(dirname "$0")/../oracle/setup.sh"
oracle_setup || exit 1
EPD=${SCHACH_TEST_DATA:-$(dirname "$0")/../data}/perft.epd
[ -f "$EPD" ] || { echo "FAIL: $EPD is missing (set SCHACH_TEST_DATA)" >&2; exit 1; }
exec node "$ORACLE_DIR/chessops_check.mjs" "$SCHACH" "$EPD"
