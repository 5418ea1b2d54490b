#!/usr/bin/env bash
# The library's tutorial examples (examples/, docs/library/tutorial.md) as a user runs them: the
# three C programs built against the public headers and the shared library, and play_random.py,
# which drives libschach.so.1 from Python through ctypes. Each program's answers are checked against
# chess, and the Python game against schach itself (`schach moves` replays its SAN to the same FEN).
# The tutorial's code excerpts must be the examples' own lines (tests/cli/lib/tutorial_excerpts.py).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command python3
require_command jq
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(dirname "$SCHACH")/examples
for p in legal_moves play_game read_pgn; do
    [ -x "$bin/$p" ] || fail "$bin/$p was not built"
done

# 1. legal_moves: the starting position, German letters with castling, a stalemate, a bad FEN.
run_example() { "$bin/$1" "${@:2}" >"$tmp/out" 2>"$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }
run_example legal_moves
expect_rc "legal_moves" 0
[ "$out" = "White to move, 20 legal moves: a3 b3 c3 d3 e3 f3 g3 h3 a4 b4 c4 d4 e4 f4 g4 h4 Na3 Nc3 Nf3 Nh3" ] ||
    fail "legal_moves of the start: $out"
run_example legal_moves --de "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
grep -q '^White to move, 26 legal moves: .* Txa8+ .* 0-0 0-0-0$' <<<"$out" || fail "legal_moves --de: $out"
run_example legal_moves "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
[ "$out" = $'Black to move, 0 legal moves:\nstalemate' ] || fail "legal_moves of a stalemate: $out"
run_example legal_moves "8/8/8/8/8/8/8/8 w - - 0 1"
expect_rc "legal_moves of an empty board" 1
grep -q "column 1: .*white has no king" <<<"$err" || fail "legal_moves of an empty board: $err"

# 2. play_game: the fool's mate with an illegal move on the way, a repetition, German letters.
run_example play_game f3 e5 g4 Ke2 Qh4#
expect_rc "play_game" 0
[ "$out" = $'1. f3\n1... e5\n2. g4\nKe2: no king can reach e2\n2... Qh4#\nCheckmate – Black wins 0-1' ] ||
    fail "play_game fool's mate: $out"
run_example play_game Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 e4
[ "$(grep -c 'may claim a draw by threefold repetition' <<<"$out")" -eq 1 ] || fail "play_game repetition: $out"
grep -q '^5. e4$' <<<"$out" || fail "play_game after the repetition: $out"
run_example play_game --de e4 e5 Lc4 Sc6 Dh5 Sf6 Dxf7#
[ "$(tail -1 <<<"$out")" = "Schachmatt – Weiß gewinnt 1:0" ] || fail "play_game --de scholar's mate: $out"

# 3. read_pgn: a tree with a nested variation, a comment and a clock; a bad game, then a good one.
cat >"$tmp/games.pgn" <<'PGN'
[White "Anna"]
[Black "Bert"]

1. e4 {[%clk 0:05:00] a good start} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 *

1. e4 e5 2. Ke3 *

[White "Carl"]

1. d4 d5 1/2-1/2
PGN
run_example read_pgn "$tmp/games.pgn"
expect_rc "read_pgn with a bad game" 1
grep -q '^game 1: Anna - Bert, 7 moves in the tree$' <<<"$out" || fail "read_pgn game 1: $out"
grep -q '^1. e4 \[clock 0:05:00\] {.*a good start}$' <<<"$out" || fail "read_pgn clock and comment: $out"
grep -q '^    1... c5$' <<<"$out" || fail "read_pgn variation: $out"
grep -q '^        2. c3$' <<<"$out" || fail "read_pgn nested variation: $out"
grep -q "^game 2, line 6, column 13: move 'Ke3' is not possible: no king can reach e3$" <<<"$out" ||
    fail "read_pgn error: $out"
grep -q '^game 3: Carl - ?, 2 moves in the tree$' <<<"$out" || fail "read_pgn goes on after the error: $out"

# 4. Python over ctypes: the library's own version, a whole random game, its end, and its FEN equal to
# what schach finds replaying the moves.
lib=$(dirname "$SCHACH")/libschach.so.1
if [ -f "$lib" ]; then
    for args in "--seed 1" "--seed 7" "--seed 3 --chess960 692"; do
        # shellcheck disable=SC2086
        python3 "$src/examples/play_random.py" --lib "$lib" $args >"$tmp/py" 2>"$tmp/pyerr" ||
            { fail "play_random.py $args: $(cat "$tmp/pyerr")"; continue; }
        grep -q '^libschach 1\.0\.' "$tmp/py" || fail "play_random.py $args: version: $(head -1 "$tmp/py")"
        grep -q '^ending: ' "$tmp/py" || fail "play_random.py $args: no ending"
        movetext=$(sed -n 2p "$tmp/py")
        fen=$(sed -n 's/^fen: //p' "$tmp/py")
        chess960=()
        [[ $args == *chess960* ]] && chess960=(--chess960 692)
        "$SCHACH" moves "${chess960[@]}" --json --moves "$movetext" >"$tmp/replay" 2>&1 ||
            fail "schach cannot replay play_random.py $args: $(head -c 300 "$tmp/replay")"
        [ "$(jq -r .fen "$tmp/replay")" = "$fen" ] ||
            fail "play_random.py $args ends in $fen, schach replays to $(jq -r .fen "$tmp/replay")"
        [ "$(jq -r '.outcome != null' "$tmp/replay")" = true ] || fail "play_random.py $args: schach says the game goes on"
    done
    python3 "$src/examples/play_random.py" --lib "$lib" --chess960 960 >/dev/null 2>"$tmp/pyerr" &&
        fail "play_random.py --chess960 960 succeeded"
    grep -q "960 is not a Chess960 start position (0 to 959)" "$tmp/pyerr" || fail "play_random.py 960: $(cat "$tmp/pyerr")"
else
    fail "$lib was not built (SCHACH_SHARED=OFF?)"
fi

# 5. The tutorial quotes the examples exactly.
python3 "$src/tests/cli/lib/tutorial_excerpts.py" "$src/docs/library/tutorial.md" "$src" >"$tmp/log" 2>&1 ||
    fail "docs/library/tutorial.md: $(cat "$tmp/log")"
cli_finish examples
