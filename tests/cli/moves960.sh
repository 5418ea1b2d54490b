#!/usr/bin/env bash
# Chess960 on the command line: `schach moves --chess960 [N]`, perft from 960 FENs, and `schach uci`
# with UCI_Chess960 (castling as king takes rook, X-FEN).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq

# Start positions by number (Scharnagl): 0, 518 (the standard array) and 959.
run moves --chess960 0 --json
json_check "--chess960 0" '.fen == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1" and (.moves|length) == 20'
run moves --chess960 518 --json
json_check "--chess960 518" '.fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"'
run moves --chess960 959 --json
json_check "--chess960 959" '.fen == "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"'
run moves --chess960 960
[ "$rc" -eq 2 ] || fail "--chess960 960: want usage error 2, got $rc"
grep -q "0 to 959" <<<"$err" || fail "--chess960 960: message: $err"
run moves --chess960 5 --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
[ "$rc" -eq 2 ] || fail "--chess960 5 --fen: want usage error 2, got $rc"

# Castling where the king does not move: O-O, king-takes-rook UCI, Shredder-FEN in, X-FEN out.
G1="r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1"
run moves --fen "$G1" --json
json_check "king g1: O-O listed as g1h1" '[.moves[] | select(.san == "O-O")][0].uci == "g1h1"'
json_check "king g1: O-O-O listed as g1a1" '[.moves[] | select(.san == "O-O-O")][0].uci == "g1a1" and ([.moves[] | select(.san == "O-O-O")][0].san_de == "0-0-0")'
for m in O-O 0-0 g1h1; do
    run moves --fen "$G1" --moves "$m" --json
    json_check "king g1: $m" '.fen == "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"'
done
run moves --fen "$G1" --moves O-O O-O-O --json
json_check "black O-O-O" '.fen == "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"'

# Standard games keep e1g1; --chess960 writes e1h1 and still reads e1g1.
KQ="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
run moves --fen "$KQ" --json
json_check "standard castling e1g1" '[.moves[] | select(.san == "O-O")][0].uci == "e1g1"'
run moves --chess960 --fen "$KQ" --json
json_check "--chess960 castling e1h1" '[.moves[] | select(.san == "O-O")][0].uci == "e1h1"'
run moves --chess960 --fen "$KQ" --moves e1g1 --json
json_check "--chess960 reads e1g1" '.fen == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"'

# Why castling is illegal, by the Chess960 rule: the rook on b1 shields c1 from the queen on a1.
run moves --fen "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1" --moves O-O-O
[ "$rc" -eq 1 ] || fail "shielded O-O-O: want exit 1, got $rc"
grep -q "c1" <<<"$err" || fail "shielded O-O-O: message names c1: $err"

# perft from Chess960 FENs (counts from Stockfish, see tests/data/perft960.epd).
run perft --fen "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" 3
grep -qx "nodes: 12189" <<<"$out" || fail "perft 960 position 1 depth 3: $out $err"
run perft --fen "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1" 3
want=$(grep -F "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb" "$(dirname "$0")/../data/perft960.epd" | grep -o 'D3 [0-9]*' | cut -d' ' -f2)
grep -qx "nodes: $want" <<<"$out" || fail "perft swap position depth 3: want $want: $out $err"

# perft --divide where O-O-O and a plain king move both take the king to c1: castling is listed as
# king takes rook (b1a1), once each, as Stockfish divides with UCI_Chess960.
run perft --divide --fen "r3k2r/8/8/8/8/8/8/RK5R w KQkq - 0 1" 1
lines=$(grep -E '^[a-h][1-8][a-h][1-8][nbrq]?: ' <<<"$out")
[ "$(wc -l <<<"$lines")" -eq 24 ] || fail "perft --divide, king b1: want 24 moves: $out $err"
[ "$(sort -u <<<"$lines" | wc -l)" -eq 24 ] || fail "perft --divide, king b1: a move listed twice: $out"
grep -qx "b1a1: 1" <<<"$out" && grep -qx "b1c1: 1" <<<"$out" || fail "perft --divide, king b1: b1a1 and b1c1: $out"

# schach uci: the UCI_Chess960 option, king-takes-rook in and out.
uci() {
    printf '%s\n' "$1" | timeout 120 "$SCHACH" uci >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
}
uci 'uci
quit'
grep -qx "option name UCI_Chess960 type check default false" <<<"$out" || fail "uci: no UCI_Chess960 option: $out"
uci "setoption name UCI_Chess960 value true
position fen $G1 moves g1h1
go depth 1 searchmoves g8h8
isready"
grep -q "^bestmove g8h8" <<<"$out" || fail "UCI_Chess960: want bestmove g8h8: $out"
uci "setoption name UCI_Chess960 value true
position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6
go depth 1 searchmoves e1h1
isready"
grep -q "^bestmove e1h1" <<<"$out" || fail "UCI_Chess960 standard array: want bestmove e1h1: $out"
uci "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6
go depth 1 searchmoves e1g1
isready"
grep -q "^bestmove e1g1" <<<"$out" || fail "standard mode: want bestmove e1g1: $out"

cli_finish "moves960"
