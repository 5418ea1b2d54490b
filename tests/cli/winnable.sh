#!/usr/bin/env bash
# schach winnable: verdicts, reasons, helpmates (replayed with schach moves), standard input with bad
# lines, --color, --quick, --nodes, both languages, exit statuses.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq

WALL="8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1"           # kings behind a locked wall: dead
WALL_BISHOP="8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1b5 w - - 0 1"  # Black's bishop checks but never mates
OPEN_WALL="8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1B5 w - - 0 1"    # White's bishop takes a pawn: both can mate
KN_KQ="8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1"                   # the knight cannot mate the queen's king
KN_KR="8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1"                   # ... but a rook may block its own king
MATED="7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"

# check_proof FEN COLOR: the helpmate of COLOR in $out replays to checkmate by COLOR.
check_proof() {
    local fen=$1 color=$2 line winner
    line=$(jq -r ".${color}.helpmate | join(\" \")" <<<"$out")
    winner=$([ "$color" = white ] && echo "1-0" || echo "0-1")
    local saved=$out
    if [ -n "$line" ]; then
        run moves --fen "$fen" --moves $line --json
    else
        run moves --fen "$fen" --json
    fi
    json_check "proof of $color from $fen" ".outcome.termination == \"checkmate\" and .outcome.result == \"$winner\""
    out=$saved
}

run winnable --json "$WALL"
expect_rc "wall" 0
json_check "wall keys" 'keys_unsorted == ["fen","white","black","dead","nodes","micros"]'
json_check "wall" '.white.verdict == "unwinnable" and .black.verdict == "unwinnable" and .dead == true'
json_check "wall reasons" '.white.reason == "locked_pawns" and .black.reason == "locked_pawns" and .white.helpmate == null'

run winnable --json "$WALL_BISHOP"
json_check "wall with bishop" '.white.verdict == "unwinnable" and .black.verdict == "unwinnable" and .dead == true'

run winnable --json "$OPEN_WALL"
json_check "open wall" '.white.verdict == "winnable" and .black.verdict == "winnable" and .dead == false'
json_check "open wall proofs" '(.white.helpmate|length) > 0 and .white.reason == null'
check_proof "$OPEN_WALL" white
check_proof "$OPEN_WALL" black

run winnable --json "$KN_KQ"
json_check "K+N v K+Q" '.white.verdict == "winnable" and .black.verdict == "unwinnable" and .black.reason == "insufficient_material"'
check_proof "$KN_KQ" white
run winnable --json "$KN_KR"
json_check "K+N v K+R" '.white.verdict == "winnable" and .black.verdict == "winnable"'
check_proof "$KN_KR" black

run winnable --json "$MATED"
json_check "mated" '.white.verdict == "winnable" and .white.helpmate == [] and .black.reason == "checkmated"'

# --color: the other colour is null.
run winnable --json --color black "$KN_KQ"
json_check "--color black" '.white == null and .black.verdict == "unwinnable" and .dead == null'

# --quick: never a wrong unwinnable; the wall is settled statically.
run winnable --json --quick "$WALL"
json_check "quick wall" '.dead == true'
run winnable --json --quick "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
json_check "quick start" '.white.verdict != "unwinnable" and .black.verdict != "unwinnable"'

# --nodes bounds the work.
run winnable --json --nodes 5 --color white "$KN_KR"
json_check "--nodes 5" '.white.verdict == "undetermined" and .nodes <= 10'

# Standard input: one answer per line, bad lines reported in place, blank lines skipped, four fields.
printf '%s\n\nnot a fen\n%s\n8/8/8/4k1n1/8/8/8/3QK3 w - -\n' "$WALL" "$OPEN_WALL" >"$tmp/in"
"$SCHACH" winnable --json <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc "stdin" 0
[ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "stdin: want 4 lines, got: $(cat "$tmp/out")"
out=$(sed -n 2p "$tmp/out")
json_check "stdin bad line" '.fen == "not a fen" and (.error|test("fields"))'
out=$(sed -n 4p "$tmp/out")
json_check "stdin four fields" '.fen == "8/8/8/4k1n1/8/8/8/3QK3 w - -" and .black.verdict == "unwinnable"'

out=$(sed -n 3p "$tmp/out")
json_check "stdin keeps order" '.fen == "8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1B5 w - - 0 1" and .dead == false'
# The same input as text: one line per position, errors with the line of the input.
"$SCHACH" winnable --quick <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc "stdin text" 0
[ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "stdin text: want 4 lines, got: $(cat "$tmp/out")"
grep -q "^not a fen: error: line 3, column 1: " "$tmp/out" || fail "stdin text: bad line: $(cat "$tmp/out")"
grep -q "^$WALL: White cannot checkmate .*; dead position: draw$" "$tmp/out" || fail "stdin text: wall: $(cat "$tmp/out")"
"$SCHACH" winnable --lang de --color white <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
grep -q "^not a fen: Fehler: Zeile 3, Spalte 1: " "$tmp/out" || fail "stdin German: bad line: $(cat "$tmp/out")"
grep -q "^8/8/8/4k1n1/8/8/8/3QK3 w - -: Weiß kann mattsetzen (Hilfsmatt: [a-h1-8 ]*)$" "$tmp/out" ||
    fail "stdin German --color white: $(cat "$tmp/out")"
grep -q "Schwarz" "$tmp/out" && fail "stdin German --color white names Black: $(cat "$tmp/out")"
# Each line is answered before the next is read: a pipe that stays open gets its answer.
coproc WIN { "$SCHACH" winnable --json --quick; }
win_pid=$WIN_PID win_in=${WIN[1]:-} win_out=${WIN[0]:-}
# (A program that is gone already leaves no pipe; writing to a closed one fails instead of ending
# the script.)
trap '' PIPE
if [ -n "$win_in" ] && echo "$WALL" 2>/dev/null >&"$win_in" && read -t 10 -r answer <&"$win_out"; then
    out=$answer
    json_check "answer at once" '.dead == true'
else
    fail "no answer while standard input stays open"
fi
trap - PIPE
[ -n "$win_in" ] && eval "exec $win_in>&-"
wait "$win_pid" 2>/dev/null

# Text in both languages.
run winnable "$WALL"
expect_rc "text" 0
grep -q "White cannot checkmate (the pawns are locked" <<<"$out" || fail "English text: $out"
grep -q "dead position: draw" <<<"$out" || fail "English dead: $out"
run winnable --lang de "$WALL"
grep -q "Weiß kann nicht mattsetzen (die Bauernketten sind blockiert" <<<"$out" || fail "German text: $out"
grep -q "tote Stellung: remis" <<<"$out" || fail "German dead: $out"

# Errors.
run winnable "not a fen"
expect_rc "bad FEN argument" 1
grep -q "invalid FEN" <<<"$err" || fail "bad FEN argument: $err"
run winnable --json "8/8/8/8/8/8/8/8 w - - 0 1"
expect_rc "FEN argument without kings" 1
[ -z "$out" ] || fail "FEN argument without kings: output: $out"
grep -q "invalid FEN: column 1: .*no king" <<<"$err" || fail "FEN argument without kings: $err"
run winnable --color red "$WALL"
expect_rc "bad --color" 2
run winnable --nodes 0 "$WALL"
expect_rc "bad --nodes" 2
run winnable --bogus
expect_rc "unknown option" 2
run winnable --help
expect_rc "help" 0
grep -q "Usage: schach winnable" <<<"$out" || fail "help: $out"

cli_finish winnable
