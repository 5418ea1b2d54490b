#!/usr/bin/env bash
# Dead positions (FIDE 5.2.2) and flag falls (6.9) beyond material, everywhere a game ends at the
# terminal: schach moves, schach play (and its saved PGN), schach pgn check (dead_at_ply,
# result_contradicts_6_9). The old rules core let these games go on and let wins on time stand.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq
TEST_DATA=${SCHACH_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}

# One pawn move locks the wall: the kings can never meet and neither side has a piece.
LOCKING="8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1"
DEAD="8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 b - - 0 1"

run moves --fen "$LOCKING" --json
json_check "before the lock" '.outcome == null and (.moves|length) > 0'
run moves --fen "$LOCKING" --moves g4 --json
expect_rc "moves g4" 0
json_check "moves: dead position" ".fen == \"$DEAD\" and .moves == [] and .outcome == {\"result\":\"1/2-1/2\",\"termination\":\"dead_position\",\"reason\":\"locked_pawns\"}"
run moves --fen "$LOCKING" --moves g4 Kb6
expect_rc "a move after the end" 1
grep -q "already over" <<<"$err" || fail "a move after the end: $err"
run moves --lang de --fen "$LOCKING" --moves g4
grep -q "Partie beendet: Remis: tote Stellung – die Bauernketten sind blockiert, keine Figur kann durchbrechen, kein Matt ist mehr möglich" <<<"$out" ||
    fail "moves German text: $out"
# A pawn move that locks the chain and gives check ends the game at once: the king in check is no
# capture waiting to happen (the quick pass once took it for one and never called the full analysis).
CHECK_LOCK="8/8/p1k5/Pppp1p1p/1P1PpPpP/1KP1P1P1/8/8 b - - 0 1"
run moves --fen "$CHECK_LOCK" --moves c4 --json
json_check "moves: c4+ locks" '.fen == "8/8/p1k5/Pp1p1p1p/1PpPpPpP/1KP1P1P1/8/8 w - - 0 2" and .outcome.termination == "dead_position" and .outcome.reason == "locked_pawns"'
printf '[Event "check lock"]\n[SetUp "1"]\n[FEN "%s"]\n[Result "*"]\n\n1... c4+ *\n' "$CHECK_LOCK" >"$tmp/check_lock.pgn"
run pgn check --json "$tmp/check_lock.pgn"
json_check "pgn check: c4+ locks" '.dead_at_ply == 1 and .termination == "dead_position"'
# A FEN that is dead already is over at once.
run moves --fen "$DEAD" --json
json_check "dead FEN" '.outcome.termination == "dead_position"'

# schach play: the game ends with the reason, and the saved game reads back as a dead position.
cd "$tmp" || exit 1
printf 'g4\nsave dead.pgn\n' | "$SCHACH" play --fen "$LOCKING" >"$tmp/out" 2>"$tmp/err"
grep -q "Game over: Draw: dead position – the pawns are locked" "$tmp/out" || fail "play: $(tail -5 "$tmp/out")"
run pgn check --json dead.pgn
json_check "play saved" '.plies == 1 and .result == "1/2-1/2" and .termination == "dead_position" and .dead_at_ply == 1'

printf 'c4\n' | "$SCHACH" play --fen "$CHECK_LOCK" >"$tmp/out" 2>"$tmp/err"
grep -q "Game over: Draw: dead position – the pawns are locked" "$tmp/out" || fail "play c4+: $(tail -5 "$tmp/out")"

# schach play --pgn continues a recorded game: reading lets games go on past a dead position, but the
# game at the terminal ends there — at the next move, or at once when the file's game is dead already.
printf '[Event "lock"]\n[SetUp "1"]\n[FEN "%s"]\n\n*\n' "$LOCKING" >"$tmp/lock.pgn"
printf 'g4\nfen\n' | "$SCHACH" play --pgn "$tmp/lock.pgn" >"$tmp/out" 2>"$tmp/err"
grep -q "Game over: Draw: dead position – the pawns are locked" "$tmp/out" || fail "play --pgn, g4: $(tail -5 "$tmp/out")"
printf '[Event "on"]\n[SetUp "1"]\n[FEN "%s"]\n[Result "1-0"]\n\n1. g4 Kb6 1-0\n' "$LOCKING" >"$tmp/on.pgn"
printf 'Kb2\nundo\nfen\nundo\nfen\n' | "$SCHACH" play --lang de --pgn "$tmp/on.pgn" >"$tmp/out" 2>"$tmp/err"
grep -q "Die Datei nennt das Ergebnis 1-0, aber die Stellung war schon tot: remis" "$tmp/err" ||
    fail "play --pgn past a dead position: the file's result: $(cat "$tmp/err")"
grep -q "^Partie beendet: Remis: tote Stellung – die Bauernketten sind blockiert" "$tmp/out" ||
    fail "play --pgn past a dead position: $(head -30 "$tmp/out")"
grep -q "^> Kb2$" "$tmp/out" && grep -q "^die Partie ist bereits beendet$" "$tmp/out" || fail "play --pgn past a dead position: Kb2 was played: $(cat "$tmp/out")"
# undo steps back through the dead positions to the last one that lived.
grep -q "^8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 b - - 0 1$" "$tmp/out" || fail "play: first undo: $(grep '^8/' "$tmp/out")"
grep -q "^$LOCKING$" "$tmp/out" || fail "play: second undo: $(grep '^8/' "$tmp/out")"

# schach pgn check audits recorded games: a game that went on after the wall locked and was then
# "won" on time; K+N v K+Q won on time by the knight (it can never mate); K+N v K+R won on time (a
# helpmate exists: the win stands).
run pgn check --json "$TEST_DATA/pgn_dead_positions.pgn"
expect_rc "pgn check" 0
first=$(sed -n 1p <<<"$out")
second=$(sed -n 2p <<<"$out")
third=$(sed -n 3p <<<"$out")
out=$first
json_check "pgn: dead then on" '.plies == 4 and .dead_at_ply == 1 and .result == "1/2-1/2" and .termination == "dead_position" and .reason == "locked_pawns" and .result_contradicts_6_9 == true and .error == null'
out=$second
json_check "pgn: K+N v K+Q on time" '.dead_at_ply == null and .result == "0-1" and .result_contradicts_6_9 == true'
out=$third
json_check "pgn: K+N v K+R on time" '.dead_at_ply == null and .result == "0-1" and .result_contradicts_6_9 == false'
run pgn check "$TEST_DATA/pgn_dead_positions.pgn"
grep -q "^game 1: 4 plies, Draw: dead position .*(from ply 1 on; 3 plies were played after it), the win on time contradicts FIDE 6.9" <<<"$out" ||
    fail "pgn check text: $out"
grep -q "^game 3: 2 plies, 0-1 (not decided by the rules)$" <<<"$out" || fail "pgn check text game 3: $out"
run --lang de pgn check "$TEST_DATA/pgn_dead_positions.pgn"
grep -q "widerspricht FIDE 6.9" <<<"$out" || fail "pgn check German: $out"

cli_finish dead_positions
