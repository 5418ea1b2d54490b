#!/usr/bin/env bash
# The engine's clock handling, measured: 200 games of `schach uci` against itself at 1 s + 0.01 s per
# game, two at a time, under the match runner's clock. Not one game may be lost on time and not one
# protocol error may occur. Every figure is wall-clock time, so it belongs on an otherwise idle machine
# (two games keep both cores of a 2-core machine busy; anything beside them takes the time their clocks
# were promised): that is why it is a benchmark and not part of `make test`. About 3-4 minutes.
#
#   bench/match_clock.sh [SCHACH_BINARY]  (default build/schach; `make bench-clock` builds it first)
#
# Environment: GAMES (200), TC (1+0.01). Prints the match's final report; exit status 1 when a
# game was lost on time, a protocol error occurred or the PGN does not read back.
set -uo pipefail

source "$(dirname "$0")/lib/match.bash"
schach=$(schach_binary match_clock.sh "${1:-}") || exit 1
games=${GAMES:-200}
tc=${TC:-1+0.01}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

start=$(date +%s)
"$schach" match --engine cmd="$schach uci" name=A --engine cmd="$schach uci" name=B --tc "$tc" \
    --games "$games" --concurrency 2 --pgn "$tmp/clock.pgn" --report 50 >"$tmp/out" 2>"$tmp/err"
rc=$?
final_report "$tmp/out"
echo "match_clock: $games games at $tc in $(($(date +%s) - start)) s"
[ "$rc" -eq 0 ] || fail "schach match exited with $rc: $(tail -5 "$tmp/err")"
grep -q "^Match finished: $games games\.$" "$tmp/out" || fail "not all $games games finished: $(tail -20 "$tmp/out")"
grep -q '^Protocol errors: 0$' "$tmp/out" || fail "protocol errors (time forfeits, illegal moves, crashes): $(tail -20 "$tmp/out")"
forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$tmp/clock.pgn")
[ "$forfeits" -eq 0 ] || fail "$forfeits games lost on time"
"$schach" pgn check "$tmp/clock.pgn" >"$tmp/check" 2>&1 || fail "the PGN does not read back: $(head "$tmp/check")"

if [ "$failures" -ne 0 ]; then
    echo "match_clock: $failures check(s) failed" >&2
    exit 1
fi
echo "match_clock: no game lost on time"
