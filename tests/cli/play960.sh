#!/usr/bin/env bash
# schach play --chess960 [N]: numbered and random start positions, castling typed as O-O, 0-0 or king
# takes rook, refusals explained by the Chess960 rule, the saved PGN tagged Variant Chess960.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"

play() {
    local input=$1
    shift
    printf '%s\n' "$input" | "$SCHACH" play --ascii "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}
has() { grep -qF -- "$2" <<<"$out" || fail "$1: no '$2' in output:"$'\n'"$(tail -n 30 <<<"$out")"; }

# Position 959 (RKRNNQBB): O-O is blocked first on d1; the king takes its rook in UCI.
play "O-O
b1c1
quit" --chess960 959
[ "$rc" -eq 0 ] || fail "959: exit $rc: $err"
has "959 number" "Chess960 start position 959"
has "959 board" " 1  R  K  R  N  N  Q  B  B  1"
has "959 O-O" "castling is not allowed: d1 is occupied"

# Position 518 is the standard array: castling as e1h1 (king takes rook) and as O-O.
play "e4
e5
Nf3
Nf6
Bc4
Bc5
e1h1
0-0
save $tmp/g.pgn
quit" --chess960 518
has "518 castled" "Game saved to"
grep -q '\[Variant "Chess960"\]' "$tmp/g.pgn" || fail "518: no Variant tag: $(cat "$tmp/g.pgn")"
grep -q "4\. O-O O-O" "$tmp/g.pgn" || fail "518: castling not saved as O-O: $(cat "$tmp/g.pgn")"

# Without a number: a random position, still 0-959.
play "quit" --chess960
grep -Eq "Chess960 start position ([0-9]|[1-9][0-9]|[1-8][0-9][0-9]|9[0-5][0-9])$" <<<"$out" ||
    fail "random: $(head -n 2 <<<"$out")"

play "quit" --chess960 960
[ "$rc" -eq 2 ] || fail "960: want usage error 2, got $rc"
play "quit" --chess960 3 --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
[ "$rc" -eq 2 ] || fail "--chess960 with --fen: want usage error 2, got $rc"

cli_finish "play960"
