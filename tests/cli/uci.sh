#!/usr/bin/env bash
# schach uci: protocol transcripts sent on standard input - the handshake and options, searches
# with every kind of limit, stop and ponderhit, MultiPV, mate scores, finished games, and a block of
# bad input after which the engine still answers. Results only depend on depth/node limits and on
# the order of the commands, never on timing.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"

# uci INPUT: pipes INPUT (lines) into `schach uci`; sets out (stdout), err, rc. A hung engine is
# killed after 120 s so that the test fails instead of hanging.
uci() {
    printf '%s\n' "$1" | timeout 120 "$SCHACH" uci >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}
has() { grep -qF -- "$2" <<<"$out" || fail "$1: no '$2' in:"$'\n'"$(tail -n 20 <<<"$out")"; }
hasnt() { ! grep -qF -- "$2" <<<"$out" || fail "$1: unexpected '$2' in:"$'\n'"$(tail -n 20 <<<"$out")"; }
count() { grep -c -- "$1" <<<"$out"; }
# one_bestmove WHAT: exactly one bestmove line, and the engine ended normally.
one_bestmove() {
    [ "$rc" -eq 0 ] || fail "$1: exit $rc (stderr: $err)"
    [ "$(count '^bestmove ')" -eq 1 ] || fail "$1: want one bestmove, got:"$'\n'"$(grep '^bestmove' <<<"$out")"
}
# legal WHAT FEN MOVES: the bestmove is a legal move after FEN (or startpos when empty) and MOVES.
legal() {
    local best fenargs=()
    best=$(sed -n 's/^bestmove \([^ ]*\).*/\1/p' <<<"$out" | head -n 1)
    [ -n "$2" ] && fenargs=(--fen "$2")
    "$SCHACH" moves "${fenargs[@]}" --moves $3 "$best" >/dev/null 2>&1 || fail "$1: bestmove '$best' is not legal"
}
# before WHAT A B: the first line starting with A comes before the first line starting with B.
before() {
    local a b
    a=$(grep -n -m1 -- "^$2" <<<"$out" | cut -d: -f1)
    b=$(grep -n -m1 -- "^$3" <<<"$out" | cut -d: -f1)
    [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] || fail "$1: '$2' (line ${a:-none}) not before '$3' (line ${b:-none})"
}

# ---- handshake and options ----
uci 'uci
isready
quit'
[ "$rc" -eq 0 ] || fail "handshake: exit $rc"
grep -Eq '^id name schach [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out" || fail "handshake: no 'id name schach VERSION': $out"
has "handshake" "id author "
has "handshake" "option name Hash type spin default 16 min 1 max 65536"
has "handshake" "option name Threads type spin default 1 min 1 max "
has "handshake" "option name MultiPV type spin default 1 min 1 max 16"
has "handshake" "option name Move Overhead type spin default 10 min 0 max 5000"
has "handshake" "option name Ponder type check default false"
has "handshake" "option name UCI_LimitStrength type check default false"
has "handshake" "option name UCI_Elo type spin default 1500 min 400 max 2400"
has "handshake" "option name Skill Level type spin default 20 min 0 max 20"
has "handshake" "option name Clear Hash type button"
before "handshake" "option name" "uciok"
before "handshake" "uciok" "readyok"

# ---- searches ----
uci 'uci
isready
position startpos moves e2e4
go depth 8'
one_bestmove "go depth 8"
legal "go depth 8" "" "e2e4"
grep -Eq '^info depth 8 seldepth [0-9]+ multipv 1 score (cp|mate) -?[0-9]+ .*nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv [a-h][1-8]' <<<"$out" \
    || fail "go depth 8: no complete info line for depth 8:"$'\n'"$out"

uci 'position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e1d2
go nodes 20000'
one_bestmove "go nodes"
legal "go nodes" "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" "e1d2"

uci 'position startpos moves d2d4 d7d5 c2c4
go movetime 100'
one_bestmove "go movetime"
legal "go movetime" "" "d2d4 d7d5 c2c4"

# A GUI's clock: the answer comes by itself (the limit is the clock, not a depth).
uci 'ucinewgame
position startpos moves e2e4 c7c5
go wtime 10000 btime 10000 winc 100 binc 100
isready'
one_bestmove "go wtime"
legal "go wtime" "" "e2e4 c7c5"
uci 'position startpos
go wtime 3000 btime 3000 movestogo 5
isready'
one_bestmove "go movestogo"

# go infinite: bestmove only after stop; isready is answered while searching.
uci 'position startpos
go infinite
isready
stop
isready'
one_bestmove "go infinite"
before "go infinite" "readyok" "bestmove"
[ "$(count '^readyok')" -eq 2 ] || fail "go infinite: want two readyok"

# go ponder: bestmove only after ponderhit (then the clock counts) or stop.
uci 'position startpos moves e2e4
go ponder wtime 2000 btime 2000 depth 3
isready
ponderhit
isready'
one_bestmove "go ponder + ponderhit"
before "go ponder + ponderhit" "readyok" "bestmove"
uci 'position startpos moves e2e4
go ponder depth 2
isready
stop
position startpos moves e2e4 e7e5
go depth 2'
[ "$(count '^bestmove ')" -eq 2 ] || fail "go ponder + stop then go: want two bestmoves: $out"

# searchmoves restricts the root moves.
uci 'position startpos
go depth 4 searchmoves a2a3 h2h3'
one_bestmove "searchmoves"
grep -Eq '^bestmove (a2a3|h2h3)' <<<"$out" || fail "searchmoves: $(grep bestmove <<<"$out")"

# MultiPV 3: three lines per depth; setoption names ignore case.
uci 'setoption name multipv value 3
position startpos
go depth 5'
one_bestmove "MultiPV 3"
for k in 1 2 3; do
    grep -q "^info depth 5 .*multipv $k " <<<"$out" || fail "MultiPV 3: no multipv $k line at depth 5"
done
hasnt "MultiPV 3" "multipv 4 "

# Every option can be set (values in range are not answered).
uci 'setoption name Hash value 8
setoption name Threads value 1
setoption name Move Overhead value 50
setoption name Ponder value true
setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1200
setoption name Skill Level value 10
setoption name Clear Hash
position startpos
go depth 3
isready'
hasnt "setoption in range" "info string"
one_bestmove "after setoption"

# Threads 3: helpers search beside the main thread; no complaint, every depth reported, one bestmove.
uci 'setoption name Threads value 3
position startpos
go depth 9'
hasnt "Threads 3" "info string"
one_bestmove "Threads 3"
for d in 1 5 9; do
    grep -q "^info depth $d .* nodes [1-9][0-9]* " <<<"$out" || fail "Threads 3: no depth $d line with nodes"
done

# go nodes N searches about N nodes whatever Threads is: the limit counts every thread's nodes, as
# the reports do (with Threads 2 it used to count one thread's, and the search took twice as many).
for threads in 1 2; do
    uci "setoption name Threads value $threads
position startpos
go nodes 50000"
    one_bestmove "Threads $threads go nodes 50000"
    searched=$(grep -o '^info .*nodes [0-9]*' <<<"$out" | tail -n 1 | sed 's/.*nodes //')
    { [ -n "$searched" ] && [ "$searched" -ge 50000 ] && [ "$searched" -le 55000 ]; } ||
        fail "Threads $threads go nodes 50000: searched ${searched:-?} nodes"
done

# ---- mate scores, finished games ----
MATE2='r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1'
uci "position fen $MATE2
go depth 6"
one_bestmove "mate in 2"
has "mate in 2" "score mate 2 "
has "mate in 2" "bestmove d5f6"
uci "position fen $MATE2 moves d5f6
go depth 6"
one_bestmove "mated in 1"
has "mated in 1" "score mate -1 "
uci 'position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1
go depth 5'
one_bestmove "checkmate"
has "checkmate" "bestmove (none)"
uci 'position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
go depth 5'
has "stalemate" "bestmove (none)"

# ---- bad input: explained, ignored, and the engine still answers ----
long_moves=$(for i in $(seq 500); do printf ' g1f3 g8f6 f3g1 f6g8'; done)
long_garbage=$(head -c 50000 /dev/zero | tr '\0' 'z')
uci "garbage
go depth 1
position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0
position fen not a fen at all
position startpos moves e2e4 e7e5 e1e3
position startpos moves e2e4 xyz
position
position startpos moves e2e4
position startpos moves e2e5
go depth -1
go depth abc
go nodes
go movestogo -5
go wtime -100 btime 1000 depth 2
setoption name Frobnicate value 1
setoption name Hash value 0
setoption name Hash value 99999999
setoption name Skill Level value twenty
setoption name Ponder value yes
setoption value 3
$long_garbage
position startpos moves$long_moves
d
isready
go depth 1"
[ "$rc" -eq 0 ] || fail "bad input: exit $rc (stderr: $err)"
has "garbage" "info string unknown command 'garbage'"
has "go before position" "info string go: no valid position yet"
has "FEN with 5 fields" "info string position: invalid FEN"
has "illegal move in list" "move 3 'e1e3' cannot be played"
has "malformed move in list" "move 2 'xyz' cannot be played"
has "position without argument" "info string position: expected 'startpos' or 'fen <FEN>'"
has "illegal move" "info string position: move 1 'e2e5' cannot be played"
has "a refused position leaves none" "; no position until a valid one"
has "negative depth" "info string go: depth -1 is out of range; go ignored"
has "garbage depth" "info string go: depth needs a whole number, not 'abc'"
has "missing number" "info string go: nodes needs a whole number; go ignored"
has "negative movestogo" "info string go: movestogo -5 is out of range"
has "negative wtime" "info string go: wtime -100 is negative; moving at once"
has "unknown option" "info string setoption: no option named 'Frobnicate'"
has "Hash 0" "info string setoption Hash: '0' is not a whole number from 1 to 65536"
has "Hash huge" "info string setoption Hash: '99999999'"
has "Skill garbage" "info string setoption Skill Level: 'twenty'"
has "check garbage" "info string setoption Ponder: 'yes' is not true or false"
has "setoption without name" "info string setoption: expected 'setoption name <id> [value <x>]'"
grep -q "^info string unknown command 'zzzzzzzzzz.*\.\.\.'" <<<"$out" || fail "long garbage line not reported"
[ "$(grep -c "^info string unknown command 'zzz" <<<"$out")" -eq 1 ] || fail "long garbage line reported more than once"
[ "$(awk 'length > 200' <<<"$out" | wc -l)" -eq 0 ] || fail "an answer quotes the long line in full"
has "2000 moves on one line" "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2000 1001"
has "still ready" "readyok"
# A go whose parameters are refused is ignored; every other go answers: the first (before any
# position) and the wtime -100 one (after a refused position) with bestmove (none), the last with a move.
[ "$(count '^bestmove ')" -eq 3 ] || fail "bad input: want 3 bestmoves:"$'\n'"$(grep bestmove <<<"$out")"
[ "$(count '^bestmove (none)$')" -eq 2 ] || fail "bad input: want 2 of them (none):"$'\n'"$(grep bestmove <<<"$out")"

# Windows line ends and unknown words before a command (UCI: skip them).
printf 'isready\r\njoho isready\r\nquit\r\n' | timeout 60 "$SCHACH" uci >"$tmp/out" 2>&1
out=$(cat "$tmp/out")
[ "$(count '^readyok$')" -eq 2 ] || fail "CRLF / leading unknown word: $out"

# End of input stops a running search: the engine exits after its bestmove.
uci 'position startpos
go infinite'
one_bestmove "end of input during go infinite"

uci 'uci
quit
isready'
hasnt "quit" "readyok"

run uci --help
expect_rc "uci --help" 0
grep -q "Universal Chess Interface" <<<"$out" || fail "uci --help: $out"
run uci --bogus
expect_rc "uci --bogus" 2

cli_finish uci
