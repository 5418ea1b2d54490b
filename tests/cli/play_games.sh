#!/usr/bin/env bash
# schach play from a script: whole games piped through standard input in English and German, every
# way a game ends, and the saved PGN read back by `schach pgn check`.
set -u
SCHACH=${1:?usage: play_games.sh path/to/schach}
case $SCHACH in /*) ;; *) SCHACH=$PWD/$SCHACH ;; esac # the games are saved in a temporary folder
[ -x "$SCHACH" ] || { echo "FAIL: $SCHACH is not executable" >&2; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq is needed (scripts/install-deps installs it)" >&2; exit 1; }
export LC_ALL=C LANG=C
unset LC_MESSAGES LANGUAGE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# play INPUT-LINES ARGS...: pipes the lines into `schach play ARGS`; sets out, err, rc.
play() {
    local input=$1
    shift
    printf '%s\n' "$input" | "$SCHACH" play "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}
has() { grep -qF -- "$2" <<<"$out" || fail "$1: no '$2' in output:"$'\n'"$(tail -n 30 <<<"$out")"; }
hasnt() { ! grep -qF -- "$2" <<<"$out" || fail "$1: unexpected '$2' in output"; }
expect_rc() { [ "$rc" -eq "$2" ] || fail "$1: want exit $2, got $rc (stderr: $err)"; }
# check_saved DESCRIPTION FILE JQ: `schach pgn check --json FILE` satisfies JQ.
check_saved() {
    local json
    json=$("$SCHACH" pgn check --json "$2" 2>&1)
    [ -n "$json" ] && jq -e "$3" >/dev/null 2>&1 <<<"$json" || fail "$1: jq '$3' is not true for: $json"
}

# The Opera game (Morphy 1858), typed move by move as a player would: English SAN ...
OPERA_EN='e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5
Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#'
# ... German SAN ...
OPERA_DE='e4 e5 Sf3 d6 d4 Lg4 dxe5 Lxf3 Dxf3 dxe5 Lc4 Sf6 Db3 De7 Sc3 c6 Lg5 b5 Sxb5 cxb5
Lxb5+ Sbd7 0-0-0 Td8 Txd7 Txd7 Td1 De6 Lxd7+ Sxd7 Db8+ Sxb8 Td8#'
# ... and mixed: UCI, long algebraic, move numbers, letters of both languages in one game (with German
# chosen, B is a pawn, so the bishops are L).
OPERA_MIXED='1. e2e4 e7e5 2. Ng1-f3 d7-d6 d4 Lg4 dxe5 Lxf3 Qxf3 dxe5 Lc4 Sf6 Qb3 Qe7 Nc3 c6 Lg5 b5
Nxb5 cxb5 Lxb5+ Nbd7 e1c1 Rd8 Rxd7 Txd7 Rd1 De6 Lxd7+ Nxd7 Qb8+ Nxb8 d1d8'

play "$(tr ' ' '\n' <<<"$OPERA_EN")
save opera-en.pgn
quit" --lang en
expect_rc "opera en" 0
has "opera en" "Game over: Checkmate – White wins 1-0"
has "opera en" "Save the game with 'save FILE'"
has "opera en" "Game saved to opera-en.pgn."
has "opera en: move list" "11. Bxb5+ Nbd7 12. O-O-O"
has "opera en: last move" "Last move: 17. Rd8# (Rd1-d8#), check"
has "opera en: echo" "17. White> Rd8#"
hasnt "opera en: plain output" $'\e['
check_saved "opera en saved" opera-en.pgn '.game == 1 and .plies == 33 and .result == "1-0" and .termination == "checkmate"'
grep -q '^\[Event "Casual game"\]' opera-en.pgn || fail "opera en: no Event tag in the saved PGN"

play "$(tr ' ' '\n' <<<"$OPERA_DE")
speichern opera-de.pgn
ende" --lang de
expect_rc "opera de" 0
has "opera de" "Partie beendet: Schachmatt – Weiß gewinnt 1:0"
has "opera de" "Mit 'speichern DATEI' die Partie speichern"
has "opera de" "Partie in opera-de.pgn gespeichert."
has "opera de: German move list" "11. Lxb5+ Sbd7 12. 0-0-0"
has "opera de: last move" "Letzter Zug: 17. Td8# (Td1-d8#), Schach"
has "opera de: German turn" "Zug 17: Weiß am Zug"
grep -q "Td8#" opera-de.pgn || fail "opera de: the saved PGN is not in German letters"
check_saved "opera de saved" opera-de.pgn '.plies == 33 and .result == "1-0" and .termination == "checkmate"'

# Mixed notations; the language comes from the environment (LANG=de).
printf '%s\n' $OPERA_MIXED pgn | env -u LC_ALL LANG=de_DE.UTF-8 "$SCHACH" play >"$tmp/out" 2>&1
rc=$?
out=$(cat "$tmp/out")
expect_rc "opera mixed" 0
has "opera mixed, LANG=de" "Partie beendet: Schachmatt – Weiß gewinnt 1:0"
has "opera mixed: pgn command" '[Result "1-0"]'
has "opera mixed: pgn command" "17. Td8# 1-0"

# Fool's mate: Black wins; a move after the end is refused; undo revives the game, EOF ends cleanly.
play "f3
e5
g4
Qh4#
e4
undo
Qh4
fen" --lang en
expect_rc "fool's mate" 0
has "fool's mate" "Game over: Checkmate – Black wins 0-1"
has "fool's mate: move after the end" "the game is already over"
has "fool's mate: undo" "Move taken back."
has "fool's mate: undo and replay" "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
[ "$(grep -c "Game over: Checkmate – Black wins 0-1" <<<"$out")" -eq 2 ] ||
    fail "fool's mate: the ending must be announced again after undo and the mating move"
play "f3
e5
g4
Dh4#
speichern fool.pgn" --lang de
has "fool's mate de" "Partie beendet: Schachmatt – Schwarz gewinnt 0:1"
check_saved "fool's mate saved" fool.pgn '.plies == 4 and .result == "0-1" and .termination == "checkmate"'

# Stalemate from a FEN; the saved game keeps the position in SetUp/FEN.
STALE_FEN="7k/8/6Q1/8/8/8/8/K7 w - - 0 1"
play "Qf7
Kh7
save stale.pgn" --lang en --fen "$STALE_FEN"
has "stalemate: no move after the end" "the game is already over"
play "Qf7
save stale.pgn
pgn" --lang en --fen "$STALE_FEN"
has "stalemate" "Game over: Stalemate – draw"
has "stalemate: SetUp in pgn" '[FEN "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"]'
check_saved "stalemate saved" stale.pgn '.plies == 1 and .result == "1/2-1/2" and .termination == "stalemate"'
play "Df7" --lang de --fen "$STALE_FEN"
has "stalemate de" "Partie beendet: Patt – remis"

# Threefold repetition: an early claim is refused (and stands as a draw offer), then claimed
# together with the move that repeats (9.2.1.1), and claimed on the board.
REPEAT='Nf3
Nf6
Ng1
Ng8
Nf3
Nf6
Ng1'
play "claim
$REPEAT
claim Ng8
save three.pgn" --lang en
has "threefold: early claim" "no draw can be claimed: neither threefold repetition nor the 50-move rule applies"
has "threefold: early claim is an offer" "The incorrect claim counts as a draw offer by White"
has "threefold: claim with move" "Game over: Draw by threefold repetition (claimed)"
# Where the position stood, with move numbers (issue 24): after the claim, and while it can be claimed.
has "threefold: where" "Repeated: the starting position stood after 2…Ng8 and 4…Ng8."
check_saved "threefold saved" three.pgn '.plies == 8 and .result == "1/2-1/2"'
play "$REPEAT
Ng8
bean" --lang de
has "threefold de: claim offered" "Weiß kann Remis beanspruchen (beanspruchen): dreifache Stellungswiederholung"
has "threefold de: claim by prefix" "Partie beendet: Remis durch dreifache Stellungswiederholung (reklamiert)"
has "threefold de: where" "Wiederholt: dieselbe Stellung zu Beginn, nach 2. … Sg8 und 4. … Sg8."
play "$REPEAT
Ng8" --lang en
has "threefold: where, claimable" "Repeated: the starting position stood after 2…Ng8 and 4…Ng8."
play "$REPEAT
claim Ng8
undo
zurueck" --lang en
has "threefold: claimed draws are final" "A game ended by a claim, an agreement or a resignation is final"

# Draw offers: accepted; declined; declined by a move.
play "draw
accept
save agreed.pgn" --lang en
has "draw accepted" "White offers a draw. Black: 'accept' or 'decline'"
has "draw accepted" "Game over: Draw by agreement"
check_saved "draw agreed saved" agreed.pgn '.result == "1/2-1/2"'
grep -q '^\[Termination "normal"\]' agreed.pgn || fail "draw agreed: no Termination tag in the saved PGN"
play "remis
ablehnen
e4
remis
e5
Sf3
annehmen" --lang de
has "draw declined" "Schwarz lehnt das Remisangebot ab."
has "draw offer by the mover stands" "Schwarz bietet Remis an: Weiß kann annehmen oder ablehnen"
has "draw declined by a move" "es liegt kein Remisangebot des Gegners vor"
hasnt "draw declined by a move" "Remis durch Vereinbarung"

# Resignation, with and without naming the colour; final, so undo is refused.
play "e4
resign
undo
save resigned.pgn" --lang en
has "resign" "Game over: Black resigns – White wins 1-0"
has "resign: final" "is final"
check_saved "resigned saved" resigned.pgn '.result == "1-0"'
play "e4
aufg weiß" --lang de
has "resign de, prefix and colour" "Partie beendet: Weiß gibt auf – Schwarz gewinnt 0:1"

# Continuing a saved game: --pgn and load take the last game of the file with its tags.
cat >two.pgn <<'EOF'
[Event "First"]
[Result "*"]

1. d4 *

[Event "Second"]
[White "Anna"]
[Black "Bert"]
[Result "*"]

1. e4 e5 2. Nf3 *
EOF
play "Nc6
pgn" --lang en --pgn two.pgn
expect_rc "--pgn" 0
has "--pgn: last game with its tags" '[White "Anna"]'
has "--pgn: continued" "2. Nf3 Nc6"
play "new
load two.pgn
fen" --lang en
has "load" "Loaded the last game of two.pgn."
has "load" "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
# A loaded game keeps its comments; those on moves taken back go with the moves.
cat >notes.pgn <<'EOF'
[Event "Notes"]
[Result "*"]

{Before the moves} 1. e4 {the king's pawn} e5 2. Nf3 {a knight} Nc6 {a reply} *
EOF
play "undo
undo
Nc3
pgn" --lang en --pgn notes.pgn
expect_rc "--pgn with comments" 0
has "comments kept" "{Before the moves} 1. e4 {the king's pawn} 1... e5 2. Nc3 *"
hasnt "comments of moves taken back" "a knight"
hasnt "comments of moves taken back" "a reply"
play "" --pgn missing.pgn
expect_rc "--pgn missing file" 1
play "" --fen "8/8/8/8/8/8/8/8 w - - 0 1"
expect_rc "--fen invalid" 1
play "" --bogus
expect_rc "unknown option" 2

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "play_games: all passed"
