#!/usr/bin/env bash
# schach perft: node counts (text and JSON), --divide, and its usage errors.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq


START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

expected=(1 20 400 8902 197281)
for depth in 0 1 2 3 4; do
    run perft "$depth"
    [ "$rc" -eq 0 ] || fail "perft $depth: exit $rc: $err"
    grep -qx "nodes: ${expected[$depth]}" <<<"$out" || fail "perft $depth: want nodes: ${expected[$depth]}, got: $out"
    run perft --json "$depth"
    [ "$rc" -eq 0 ] || fail "perft --json $depth: exit $rc: $err"
    json_check "perft --json $depth" ".nodes == ${expected[$depth]} and .depth == $depth and .fen == \"$START\""
    json_check "perft --json $depth fields" \
        '(keys_unsorted == ["fen","depth","nodes","seconds","nps"]) and (.seconds|type) == "number" and (.nps|type) == "number"'
done

run perft --fen "$KIWIPETE" 3
grep -qx "nodes: 97862" <<<"$out" || fail "Kiwipete depth 3: got: $out $err"
run perft --fen="$KIWIPETE" --json 3
json_check "Kiwipete --json 3" ".nodes == 97862 and .fen == \"$KIWIPETE\""

# --divide: one sorted line per root move in UCI, then the total.
run perft --divide 2
[ "$rc" -eq 0 ] || fail "perft --divide 2: exit $rc: $err"
lines=$(grep -E '^[a-h][1-8][a-h][1-8][nbrq]?: [0-9]+$' <<<"$out")
[ "$(wc -l <<<"$lines")" -eq 20 ] || fail "perft --divide 2: want 20 move lines, got: $out"
[ "$lines" = "$(LC_ALL=C sort <<<"$lines")" ] || fail "perft --divide 2: lines are not sorted: $lines"
grep -qx "e2e4: 20" <<<"$out" || fail "perft --divide 2: no 'e2e4: 20' in: $out"
grep -qx "nodes: 400" <<<"$out" || fail "perft --divide 2: no total 400 in: $out"
run perft --divide --json 3
json_check "perft --divide --json 3" \
    '.nodes == 8902 and (.moves|length) == 20 and .moves.e2e4 == 600 and .moves.g1f3 == 440 and ([.moves[]]|add) == 8902'
json_check "perft --divide --json 3 sorted" '(.moves|keys_unsorted) == (.moves|keys)'
run perft --fen "$KIWIPETE" --divide --json 1
json_check "Kiwipete divide 1" '.nodes == 48 and (.moves|length) == 48 and .moves.e1g1 == 1 and .moves.e1c1 == 1'

# German labels.
run perft --lang de 2
grep -qx "Knoten: 400" <<<"$out" || fail "perft --lang de: want 'Knoten: 400', got: $out"

# Errors: a bad FEN fails (1), bad arguments are usage errors (2).
run perft --fen "8/8/8/8/8/8/8/8 w - - 0 1" 1
[ "$rc" -eq 1 ] || fail "perft with a FEN without kings: want exit 1, got $rc"
[ -n "$err" ] || fail "perft with a bad FEN: no message on stderr"
for args in "" "abc" "-1" "31" "2 3" "--divide 0" "--bogus 2" "--fen"; do
    # shellcheck disable=SC2086
    run perft $args
    [ "$rc" -eq 2 ] || fail "perft $args: want exit 2, got $rc"
    [ -n "$err" ] || fail "perft $args: no usage message on stderr"
done
run perft --help
[ "$rc" -eq 0 ] && grep -q "DEPTH" <<<"$out" || fail "perft --help: exit $rc, output: $out"

cli_finish perft
