#!/usr/bin/env bash
# schach match ends engine games by the rules core: at a dead position (FIDE 5.2.2) and, at a flag
# fall, by 6.9 (a draw when the opponent cannot mate by any series of legal moves), with the reason in
# the progress line and in the PGN; an opening that ends in a dead position is refused. The engines
# are tests/data/engines/scripted.sh, which play fixed moves. About 7 seconds (two 3 s flag falls; 3 s
# leave the mover's one move time on a busy machine, and the time a flag took is only checked to be at
# least the clock).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq
# json_lines_check WHAT FILTER: the jq FILTER is true for the array of $out's lines.
json_lines_check() { jq -e -s "$2" >/dev/null 2>&1 <<<"$out" || fail "$1: jq -s '$2' is not true for: $out"; }

ENGINE="bash $(cd "$(dirname "$0")/../data/engines" && pwd)/scripted.sh"

# One pawn move locks the wall: the game ends there, drawn, whoever plays it.
echo '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1' >"$tmp/lock.epd"
run match --engine cmd="$ENGINE g3g4" name=A --engine cmd="$ENGINE g3g4" name=B --depth 1 --games 2 \
    --openings "$tmp/lock.epd" --pgn "$tmp/lock.pgn"
expect_rc "dead position" 0
[ "$(grep -c 'Draw: dead position – the pawns are locked and no piece can break through, no checkmate is possible any more\. ' <<<"$out")" -eq 2 ] ||
    fail "dead position: progress lines: $out"
grep -q '^Score of A vs B: 0 - 0 - 2 ' <<<"$out" || fail "dead position: score: $out"
grep -q '^Protocol errors: 0$' <<<"$out" || fail "dead position: protocol errors: $out"
[ "$(grep -c '^\[Result "1/2-1/2"\]' "$tmp/lock.pgn")" -eq 2 ] || fail "dead position: results: $(cat "$tmp/lock.pgn")"
[ "$(grep -c '^\[Termination "normal"\]' "$tmp/lock.pgn")" -eq 2 ] || fail "dead position: Termination tags"
[ "$(grep -c '^{Draw: dead position' "$tmp/lock.pgn")" -eq 2 ] || fail "dead position: no comment: $(cat "$tmp/lock.pgn")"
run pgn check --json "$tmp/lock.pgn"
expect_rc "dead position: pgn check" 0
json_lines_check "dead position: pgn check" 'length == 2 and all(.plies == 1 and .termination == "dead_position" and .reason == "locked_pawns" and .dead_at_ply == 1 and .result_contradicts_6_9 == null and .error == null)'
run --lang de match --engine cmd="$ENGINE g3g4" name=A --engine cmd="$ENGINE g3g4" name=B --depth 1 --games 1 \
    --openings "$tmp/lock.epd"
grep -q '^Partie 1/1 (Weiß: A, Schwarz: B): Remis: tote Stellung – die Bauernketten sind blockiert' <<<"$out" ||
    fail "dead position: German progress line: $out"

# A flag falls in K+Q v K+N. The queen's flag: the knight can never mate, a draw (6.9). The knight's
# flag: the queen can, a loss.
echo '8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1' >"$tmp/kq.epd"
run match --engine cmd="$ENGINE hang hang" name=Hang --engine cmd="$ENGINE d1d2" name=Mover --tc 3+0 --games 2 \
    --openings "$tmp/kq.epd" --pgn "$tmp/kq.pgn"
expect_rc "flag falls" 0
grep -Eq '^Game 1/2 \(White: Hang, Black: Mover\): White took ([3-9]|[1-9][0-9]+)(\.[0-9]+)? s with 3 s on the clock: Time ran out, but the opponent cannot checkmate – draw\. ' <<<"$out" ||
    fail "flag falls: the queen's flag: $out"
grep -Eq '^Game 2/2 \(White: Mover, Black: Hang\): Black took ([3-9]|[1-9][0-9]+)(\.[0-9]+)? s with 3 s on the clock: Black lost on time – White wins 1-0\. ' <<<"$out" ||
    fail "flag falls: the knight's flag: $out"
grep -q '^Score of Hang vs Mover: 0 - 1 - 1 ' <<<"$out" || fail "flag falls: score: $out"
[ "$(grep -c '^\[Termination "time forfeit"\]' "$tmp/kq.pgn")" -eq 2 ] || fail "flag falls: Termination tags: $(cat "$tmp/kq.pgn")"
tr '\n' ' ' <"$tmp/kq.pgn" | grep -Eq '\{White took ([3-9]|[1-9][0-9]+)(\.[0-9]+)? s with 3 s on the clock: Time ran out, but the opponent cannot checkmate – draw\}' ||
    fail "flag falls: no comment: $(cat "$tmp/kq.pgn")"
run pgn check --json "$tmp/kq.pgn"
expect_rc "flag falls: pgn check" 0
json_lines_check "flag falls: pgn check" '[.[] | {result, result_contradicts_6_9, dead_at_ply}] == [{"result":"1/2-1/2","result_contradicts_6_9":null,"dead_at_ply":null},{"result":"1-0","result_contradicts_6_9":false,"dead_at_ply":null}]'

# An opening whose last move makes the position dead leaves the engines nothing to play.
printf '[Event "lock"]\n[SetUp "1"]\n[FEN "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1"]\n\n1. g4 *\n' >"$tmp/lock.pgn"
run match --engine cmd="$ENGINE" --engine cmd="$ENGINE" --depth 1 --openings "$tmp/lock.pgn"
expect_rc "dead opening" 1
grep -q 'game 1: the opening line ends the game' <<<"$err" || fail "dead opening: $err"

cli_finish match_dead
