#!/usr/bin/env bash
# The engine's clock handling: 200 games of `schach uci` against itself at 1 s + 0.01 s per game,
# two at a time, under the match runner's clock. Not one game may be lost on time and not one
# protocol error may occur. Takes about 3-4 minutes (release build only, like every command-line test).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
GAMES=${MATCH_CLOCK_GAMES:-200}

run match --engine cmd="$SCHACH uci" name=A --engine cmd="$SCHACH uci" name=B --tc 1+0.01 \
    --games "$GAMES" --concurrency 2 --pgn "$tmp/clock.pgn" --report 50
expect_rc "self-play at 1+0.01" 0
grep -q "^Match finished: $GAMES games\.$" <<<"$out" || fail "not all $GAMES games finished: $(tail -20 <<<"$out")"
grep -q '^Protocol errors: 0$' <<<"$out" || fail "protocol errors (time forfeits, illegal moves, crashes): $(tail -20 <<<"$out")"
forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$tmp/clock.pgn")
[ "$forfeits" -eq 0 ] || fail "$forfeits games lost on time"
"$SCHACH" pgn check "$tmp/clock.pgn" >"$tmp/check" 2>&1 || fail "the PGN does not read back: $(head "$tmp/check")"
cli_finish match_clock
