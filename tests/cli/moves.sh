#!/usr/bin/env bash
# schach moves: playing moves in every notation, legal moves, endings, claims and errors.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq


START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_NF3="rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"

# The start position.
run moves --json
expect_rc "moves --json" 0
json_check "start keys" 'keys_unsorted == ["fen","turn","check","moves","outcome","claims"]'
json_check "start" ".fen == \"$START\" and .turn == \"white\" and .check == false and .outcome == null and .claims == []"
json_check "start moves" '(.moves|length) == 20 and (.moves|map(.uci)) == (.moves|map(.uci)|sort)'
json_check "start Nf3" '.moves | index({"uci":"g1f3","san":"Nf3","san_de":"Sf3"}) != null'
json_check "start e4" '.moves | index({"uci":"e2e4","san":"e4","san_de":"e4"}) != null'

# The same moves in every notation and way of passing them.
for args in "--moves e4 e5 Nf3" "--moves e2e4 e7e5 g1f3" "--moves e2-e4 e7-e5 Ng1-f3" \
    "--lang de --moves e4 e5 Sf3" "--moves e4 e5 Sf3" "--moves=e4 --moves e5 Nf3" "--moves 1. e4 e5 2.Nf3"; do
    # shellcheck disable=SC2086
    run moves --json $args
    expect_rc "moves $args" 0
    json_check "moves $args" ".fen == \"$AFTER_NF3\" and .turn == \"black\" and (.moves|length) == 29"
done
run moves --moves "e4 e5 Nf3" --json
json_check "one quoted argument" ".fen == \"$AFTER_NF3\""
json_check "after Nf3: Nc6" '.moves | index({"uci":"b8c6","san":"Nc6","san_de":"Sc6"}) != null'

# Text output in both languages, chosen by --lang or by the environment.
run moves --moves e4 e5 Nf3
expect_rc "text" 0
grep -qx "FEN: $AFTER_NF3" <<<"$out" || fail "text: no FEN line in: $out"
grep -qx "Turn: Black" <<<"$out" || fail "text: no 'Turn: Black' in: $out"
grep -q "Legal moves (29):.* Nc6" <<<"$out" || fail "text: no English move list in: $out"
run moves --lang de --moves e4 e5 Nf3
grep -qx "Am Zug: Schwarz" <<<"$out" || fail "German text: no 'Am Zug: Schwarz' in: $out"
grep -q "Legale Züge (29):.* Sc6" <<<"$out" || fail "German text: no German move list in: $out"
out=$(env -u LC_ALL LANG=de_DE.UTF-8 "$SCHACH" moves 2>&1)
grep -qx "Am Zug: Weiß" <<<"$out" || fail "LANG=de_DE.UTF-8: no German output: $out"
out=$(env LC_ALL=de_AT.UTF-8 LANG=en_US.UTF-8 "$SCHACH" moves --lang en 2>&1)
grep -qx "Turn: White" <<<"$out" || fail "--lang en must win over LC_ALL=de: $out"

# Fool's mate.
run moves --json --moves f3 e5 g4 Qh4#
expect_rc "fool's mate" 0
json_check "fool's mate" '.outcome == {"result":"0-1","termination":"checkmate"} and .moves == [] and .check == true and .turn == "white"'
run moves --moves f3 e5 g4 Qh4#
grep -q "Game over" <<<"$out" || fail "fool's mate text: no outcome in: $out"
run moves --moves f3 e5 g4 Qh4# e4
expect_rc "move after mate" 1
grep -q "move 5 (e4): the game is already over" <<<"$err" || fail "move after mate: $err"

# Stalemate given as FEN.
run moves --json --fen "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
expect_rc "stalemate" 0
json_check "stalemate" '.outcome == {"result":"1/2-1/2","termination":"stalemate"} and .moves == [] and .check == false'

# Insufficient material after a capture.
run moves --json --fen "8/8/4k3/8/8/3Kp3/8/8 w - - 0 1" --moves Kxe3
expect_rc "insufficient material" 0
json_check "insufficient material" '.outcome == {"result":"1/2-1/2","termination":"insufficient_material"} and .moves == []'

# Draw claims.
run moves --json --moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8
expect_rc "threefold" 0
json_check "threefold" '.claims == ["threefold_repetition"] and .outcome == null and (.moves|length) == 20'
run moves --moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8
grep -q "threefold repetition" <<<"$out" || fail "threefold text: no claim in: $out"
run moves --json --moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1
json_check "not yet threefold" '.claims == []'
run moves --json --fen "8/8/4k3/8/8/3K4/8/R7 w - - 99 80" --moves Ra2
json_check "fifty moves" '.claims == ["fifty_moves"] and .outcome == null'

# Errors: a bad FEN names the field; an illegal move names its number and text.
run moves --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1"
expect_rc "bad FEN" 1
grep -q "castling" <<<"$err" && grep -q "KQxq" <<<"$err" || fail "bad FEN: message does not name the field: $err"
[ -z "$out" ] || fail "bad FEN: output on stdout: $out"
run moves --lang de --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1"
expect_rc "bad FEN German" 1
grep -q "Rochade" <<<"$err" || fail "bad FEN German: no German message: $err"
run moves --json --moves e4 e4
expect_rc "illegal move" 1
grep -q "move 2 (e4)" <<<"$err" || fail "illegal move: message does not name move 2 (e4): $err"
[ -z "$out" ] || fail "illegal move: output on stdout: $out"
run moves --lang de --moves e4 e5 Ke3
expect_rc "illegal move German" 1
grep -q "Zug 3 (Ke3)" <<<"$err" || fail "illegal move German: $err"
run moves --moves xyz
expect_rc "garbage move" 1

# --batch: one JSON query per line of stdin, one answer per line; the answers are --json's, errors
# say which line and why, and a bad line stops nothing.
run moves --batch <<'EOF'
{"moves": "e4 e5 Nf3"}

{"moves": ["e4", "Ke2x"]}
not json
[1]
{"fen": 1}
{"zzz": true}
{"chess960": 518, "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}
{"chess960": 960}
{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}
{"fen": "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}
EOF
expect_rc "moves --batch with bad lines" 1
[ "$(wc -l <<<"$out")" -eq 10 ] || fail "moves --batch: want 10 answers (the blank line skipped), got: $out"
single=$("$SCHACH" moves --json --moves e4 e5 Nf3)
[ "$(sed -n 1p <<<"$out")" = "$single" ] || fail "moves --batch: line 1 differs from moves --json: $out"
out_all=$out
for want in '2:.line == 3 and (.error | test("move 2 \\(Ke2x\\)"))' '3:.line == 4 and (.error | test("not JSON"))' \
    '4:.line == 5 and (.error | test("JSON object"))' '5:.line == 6 and (.error | test("\"fen\" must be a string"))' \
    '6:.line == 7 and (.error | test("unknown member \"zzz\""))' '7:.line == 8 and (.error | test("exclude"))' \
    '8:.line == 9 and (.error | test("0 to 959"))' '9:.line == 10 and (.error | test("invalid FEN"))' \
    '10:.outcome.termination == "checkmate" and .moves == []'; do
    out=$(sed -n "${want%%:*}p" <<<"$out_all")
    json_check "moves --batch answer ${want%%:*}" "${want#*:}"
done
run moves --batch --lang de <<<'{"moves": "e4 e4"}'
expect_rc "moves --batch --lang de" 1
json_check "moves --batch in German" '.error | test("Zug 2 \\(e4\\)")'
run moves --batch </dev/null
expect_rc "moves --batch with no input" 0
[ -z "$out" ] || fail "moves --batch with no input answered: $out"
run moves --batch --fen "$START"
expect_rc "moves --batch --fen" 2

# Usage errors.
for args in "--bogus" "e4" "--fen" "--lang xx" "--lang"; do
    # shellcheck disable=SC2086
    run moves $args
    expect_rc "moves $args" 2
    [ -n "$err" ] || fail "moves $args: no usage message"
done
run moves --help
expect_rc "moves --help" 0
grep -q -- "--moves" <<<"$out" || fail "moves --help: $out"
run moves --lang de --help
grep -q "Aufruf" <<<"$out" || fail "moves --lang de --help: $out"

cli_finish moves
