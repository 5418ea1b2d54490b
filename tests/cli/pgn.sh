#!/usr/bin/env bash
# schach pgn check and pgn convert on the shared classics and on small games with errors and draws.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq
DATA=${SCHACH_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}
json_lines_check() {
    jq -e -s "$2" >/dev/null 2>&1 <<<"$out" || fail "$1: jq -s '$2' is not true for: $out"
}


CLASSICS='[{"game":1,"plies":45,"result":"1-0","termination":"checkmate","reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null},
           {"game":2,"plies":47,"result":"1-0","termination":"checkmate","reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null},
           {"game":3,"plies":33,"result":"1-0","termination":"checkmate","reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null}]'

for file in classics.pgn classics-de.pgn; do
    run pgn check --json "$DATA/$file"
    expect_rc "pgn check --json $file" 0
    json_lines_check "pgn check --json $file" ". == $CLASSICS"
    run pgn check "$DATA/$file"
    expect_rc "pgn check $file" 0
    grep -qx "3 games, 0 with errors" <<<"$out" || fail "pgn check $file: no summary in: $out"
    grep -q "^game 1: 45 plies, .*1-0" <<<"$out" || fail "pgn check $file: no line for game 1 in: $out"
done
run pgn check --json "$DATA/classics.pgn" "$DATA/classics-de.pgn"
expect_rc "pgn check two files" 0
json_lines_check "two files" "length == 6 and (map(.file) | unique) == ([\"$DATA/classics.pgn\", \"$DATA/classics-de.pgn\"] | sort)"
run pgn check --lang de "$DATA/classics-de.pgn"
grep -qx "3 Partien, 0 mit Fehlern" <<<"$out" || fail "pgn check --lang de: $out"

# A file with a good game, an illegal move, a resignation, an unfinished game and a repetition.
cat >"$tmp/mixed.pgn" <<'PGN'
[Event "good"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "illegal"]
[Result "*"]

1. e4 e5 2. Ke3 Nc6 *

[Event "resigned"]
[Result "0-1"]

1. f3 e5 0-1

[Event "unfinished"]
[Result "*"]

1. d4 *

[Event "repetition"]
[Result "*"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *
PGN
run pgn check --json "$tmp/mixed.pgn"
expect_rc "mixed" 1
json_lines_check "mixed: five games" 'length == 5 and map(.game) == [1,2,3,4,5]'
json_lines_check "mixed: good" '.[0] == {"game":1,"plies":4,"result":"1-0","termination":null,"reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null}'
json_lines_check "mixed: illegal" '.[1].error.line == 9 and .[1].error.column == 13 and .[1].plies == 2 and (.[1].error.message|length) > 0'
json_lines_check "mixed: resigned" '.[2] == {"game":3,"plies":2,"result":"0-1","termination":null,"reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null}'
json_lines_check "mixed: unfinished" '.[3] == {"game":4,"plies":1,"result":null,"termination":null,"reason":null,"claims":[],"dead_at_ply":null,"result_contradicts_6_9":null,"error":null}'
json_lines_check "mixed: repetition" '.[4].claims == ["threefold_repetition"] and .[4].result == null'
run pgn check "$tmp/mixed.pgn"
expect_rc "mixed text" 1
grep -q "^game 2: 2 plies, error: line 9, column 13: " <<<"$out" || fail "mixed text: no error line for game 2 in: $out"
grep -qx "5 games, 1 with errors" <<<"$out" || fail "mixed text: no summary in: $out"
run pgn check "$tmp/missing.pgn"
expect_rc "missing file" 1
grep -q "missing.pgn" <<<"$err" || fail "missing file: message does not name it: $err"

# convert: English -> German -> English gives back the same text; German letters appear.
run pgn convert --lang en "$DATA/classics.pgn"
expect_rc "convert en" 0
cp "$tmp/out" "$tmp/en1.pgn"
run pgn convert --lang de "$DATA/classics.pgn"
expect_rc "convert de" 0
cp "$tmp/out" "$tmp/de.pgn"
grep -q "Dh4+" "$tmp/de.pgn" || fail "convert de: no German queen move 'Dh4+' in: $(cat "$tmp/de.pgn")"
grep -q "Qh4" "$tmp/de.pgn" && fail "convert de: English letters left"
run pgn convert --lang en "$tmp/de.pgn"
expect_rc "convert de -> en" 0
cmp -s "$tmp/out" "$tmp/en1.pgn" || fail "convert en -> de -> en differs: $(diff "$tmp/en1.pgn" "$tmp/out")"
run pgn convert --lang de "$DATA/classics-de.pgn"
cmp -s "$tmp/out" "$tmp/de.pgn" || fail "convert of classics-de.pgn differs from classics.pgn: $(diff "$tmp/de.pgn" "$tmp/out")"
run pgn check --json "$tmp/de.pgn"
json_lines_check "converted file checks" ". == $CLASSICS"
[ "$(grep -c '^\[Event ' "$tmp/en1.pgn")" -eq 3 ] || fail "convert: want 3 games in: $(cat "$tmp/en1.pgn")"

run pgn convert --lang en "$tmp/mixed.pgn"
expect_rc "convert mixed" 1
grep -q "game 2" <<<"$err" || fail "convert mixed: error does not name game 2: $err"
[ "$(grep -c '^\[Event ' "$tmp/out")" -eq 4 ] || fail "convert mixed: want the 4 good games, got: $out"

# The whole PGN: variations, NAGs, comments, clk/eval and null moves survive convert in both
# languages (German letters inside variations too), and a second convert gives the same text.
run pgn convert --lang en "$DATA/pgn_tree.pgn"
expect_rc "convert tree" 0
cp "$tmp/out" "$tmp/tree-en.pgn"
grep -q "warning: line 26, column 19: the Result tag '1-0' contradicts the result '0-1'" <<<"$err" ||
    fail "convert tree: no warning on stderr: $err"
for want in '(2. f4 $5 {The King'"'"'s Gambit} 2... exf4' '{[%clk 1:30:00] [%eval 0.25]}' '4. Ba4 --' \
    '({Before a variation'"'"'s first move} 3... f5 $6)' '(3. Nf3 {[%eval -0.10,20]})' '1. e4 -- 2. d4 -- 3. Nf3 (3. c4 -- 4. Nc3) 3... --'; do
    grep -qF -- "$want" "$tmp/tree-en.pgn" || fail "convert tree: '$want' missing in: $(cat "$tmp/tree-en.pgn")"
done
run pgn convert --lang en "$tmp/tree-en.pgn"
cmp -s "$tmp/out" "$tmp/tree-en.pgn" || fail "convert tree twice differs: $(diff "$tmp/tree-en.pgn" "$tmp/out")"
run pgn convert --lang de "$DATA/pgn_tree.pgn"
expect_rc "convert tree de" 0
cp "$tmp/out" "$tmp/tree-de.pgn"
grep -qF '2. Sf3 (2. Lc4 Sf6 (2... Lc5 3. Dh5)) 2... Sc6 3. Lb5 (3. Lc4 Lc5' "$tmp/tree-de.pgn" ||
    fail "convert tree de: no German letters in variations: $(cat "$tmp/tree-de.pgn")"
run pgn convert --lang en "$tmp/tree-de.pgn"
cmp -s "$tmp/out" "$tmp/tree-en.pgn" || fail "convert tree en -> de -> en differs: $(diff "$tmp/tree-en.pgn" "$tmp/out")"
# The defects (the convert above warned): the Result tag warning (the marker counts), the tag's result without a marker, 'Qxf7 #', '½-½'.
run pgn check --json "$DATA/pgn_tree.pgn"
expect_rc "check tree" 0
json_lines_check "check tree warning" '.[2].result == "0-1" and .[2].warning.line == 26 and .[2].warning.column == 19 and (.[0] | has("warning") | not)'
json_lines_check "check tree results" '[.[] | .result] == ["1-0", null, "0-1", "1-0", "1-0", "1/2-1/2", null] and .[4].termination == "checkmate" and all(.[]; .error == null)'
run pgn check --lang de "$DATA/pgn_tree.pgn"
grep -q "^Partie 3: .*Warnung: Zeile 26, Spalte 19: der Result-Tag" <<<"$out" || fail "check de: no warning in: $out"

# Chess960 games (issue 14: one with a Shredder-FEN castling field 'HDhd' was refused): both castlings,
# from the Shredder and the X-FEN field, read to the end; German letters 0-0 and 0-0-0 when converted.
run pgn check --json "$DATA/pgn_chess960.pgn"
expect_rc "check chess960" 0
json_lines_check "check chess960" '[.[] | .plies] == [12, 12] and all(.[]; .error == null and .result == "1/2-1/2")'
run pgn convert --lang de "$DATA/pgn_chess960.pgn"
expect_rc "convert chess960" 0
[ "$(grep -c '5\. 0-0 Sd6 6\. Sd3 0-0-0' <<<"$out")" -eq 2 ] || fail "convert chess960: castling not written: $out"

# Convert is stable: a game recognised as Chess960 by its castling rights got its generated Variant tag
# before SetUp/FEN, and after them when that output was converted again. Tags come in a fixed order.
printf '[ECO "A00"]\n[SetUp "1"]\n[FEN "3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]\n\n1. O-O O-O-O *\n' >"$tmp/960.pgn"
run pgn convert --lang en "$tmp/960.pgn"
expect_rc "convert 960 castling rights" 0
cp "$tmp/out" "$tmp/960-once.pgn"
grep -A3 -x '\[Result "\*"\]' "$tmp/960-once.pgn" | paste -sd' ' - |
    grep -qF '[Result "*"] [Variant "Chess960"] [SetUp "1"] [FEN "3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]' ||
    fail "convert 960: tags not in the fixed order: $(cat "$tmp/960-once.pgn")"
run pgn convert --lang en "$tmp/960-once.pgn"
cmp -s "$tmp/out" "$tmp/960-once.pgn" || fail "convert 960 twice differs: $(diff "$tmp/960-once.pgn" "$tmp/out")"

# Usage errors.
for args in "" "frob" "check" "convert" "check --bogus x.pgn" "convert --json x.pgn" "convert --lang xx x.pgn"; do
    # shellcheck disable=SC2086
    run pgn $args
    expect_rc "pgn $args" 2
done
for args in "--help" "check --help" "convert --help"; do
    # shellcheck disable=SC2086
    run pgn $args
    expect_rc "pgn $args" 0
    [ -n "$out" ] || fail "pgn $args: no help text"
done

cli_finish pgn
