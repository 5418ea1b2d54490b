#!/usr/bin/env bash
# schach play explains every illegal move in words, in English and German, and bad input never
# changes the game. Cases: tests/data/play_explanations.txt. Also the command words: prefixes,
# ambiguity, words that are moves, promotion questions.
set -u
SCHACH=${1:?usage: play_explain.sh path/to/schach}
DATA=${SCHACH_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}
export LC_ALL=C LANG=C
unset LC_MESSAGES LANGUAGE
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# play INPUT-LINES ARGS...: pipes the lines into `schach play ARGS`; sets out and rc.
play() {
    local input=$1
    shift
    out=$(printf '%s\n' "$input" | "$SCHACH" play "$@" 2>&1)
    rc=$?
}
has() { grep -qF -- "$2" <<<"$out" || fail "$1: no '$2' in output:"$'\n'"$(tail -n 12 <<<"$out")"; }
hasnt() { ! grep -qF -- "$2" <<<"$out" || fail "$1: unexpected '$2' in output"; }
# The line printed right after the echo of the input line "PROMPT> TEXT".
answer_to() {
    awk -v t="> $1" 'found { print; exit }
        length($0) >= length(t) && substr($0, length($0) - length(t) + 1) == t { found = 1 }' <<<"$out"
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

cases=0
while IFS='|' read -r name fen en de why_en why_de; do
    name=$(trim "$name")
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    fen=$(trim "$fen")
    cases=$((cases + 1))
    for lang in en de; do
        if [ $lang = en ]; then moves=$(trim "$en") why=$(trim "$why_en"); else moves=$(trim "$de") why=$(trim "$why_de"); fi
        bad=${moves##*,}
        legal=""
        [ "$bad" != "$moves" ] && legal=${moves%,*}
        args=(--lang $lang)
        [ -n "$fen" ] && args+=(--fen "$fen")
        # The FEN before the illegal move ...
        play "$(tr ',' '\n' <<<"$legal")
fen" "${args[@]}"
        before=$(tail -n 2 <<<"$out" | head -n 1)
        # ... is the FEN after it: the explanation changed nothing.
        play "$(tr ',' '\n' <<<"$legal")
$bad
fen" "${args[@]}"
        [ "$rc" -eq 0 ] || fail "$name ($lang): exit status $rc"
        reply=$(answer_to "$bad")
        [ "$reply" = "$why" ] || fail "$name ($lang): after '$bad' want '$why', got '$reply'"
        after=$(tail -n 2 <<<"$out" | head -n 1)
        [ "$before" = "$after" ] || fail "$name ($lang): the position changed: '$before' -> '$after'"
    done
done <"$DATA/play_explanations.txt"
[ "$cases" -ge 15 ] || fail "only $cases cases read from $DATA/play_explanations.txt"

# The game is over: moves are refused, in both languages.
play "f3
e5
g4
Qh4#
Nf3" --lang en
[ "$(answer_to "Nf3")" = "the game is already over" ] || fail "move after mate (en): $(answer_to Nf3)"
play "f3
e5
g4
Dh4#
Sf3" --lang de
[ "$(answer_to "Sf3")" = "die Partie ist bereits beendet" ] || fail "move after mate (de): $(answer_to Sf3)"

# Commands: exact names and prefixes in both languages whatever --lang says, ASCII spellings,
# ambiguity, and words that are moves rather than command prefixes.
play "re
d
a
züge e2
zuege g1
ZÜGE b1
mov e2
flip
dreh
hilfe
xyz
zurueck" --lang en
[ "$(answer_to "re")" = "'re' is ambiguous: remis, reklamieren, resign" ] || fail "ambiguous 're': $(answer_to re)"
[ "$(answer_to "d")" = "'d' is ambiguous: drehen, draw, decline" ] || fail "ambiguous 'd': $(answer_to d)"
has "züge e2" "Pawn e2 – legal moves (2): e3 e4"
has "zuege g1" "Knight g1 – legal moves (2): Nf3 Nh3"
has "ZÜGE b1" "Knight b1 – legal moves (2): Na3 Nc3"
has "mov e2: a prefix with a square argument" "Pawn e2 – legal moves (2): e3 e4"
has "moves e2: board marks" " 4  .  .  .  . {.} .  .  .  4"
has "moves e2: board marks" " 2  P  P  P  P (P) P  P  P  2"
has "moves e2: legend" "( ) the piece   { } where it may go"
has "flip: black at the bottom" " 1  R  N  B  K  Q  B  N  R  1"
has "flip: files reversed" "    h  g  f  e  d  c  b  a"
has "hilfe in English mode" "moves [SQUARE]  züge [FELD]"
[ "$(answer_to "xyz")" = "'xyz' is neither a move nor a command; 'help' lists the commands." ] ||
    fail "unknown word: $(answer_to xyz)"
[ "$(answer_to "zurueck")" = "there is no move to take back" ] || fail "undo at the start: $(answer_to zurueck)"

play "res
e4" --lang de
has "res: resign by prefix" "Partie beendet: Weiß gibt auf – Schwarz gewinnt 0:1"
play "moves e7
moves e9
moves e4
e4
zur
fen" --lang de
has "moves of an opponent's piece" "Bauer e7 gehört Schwarz, aber Weiß ist am Zug."
has "not a square" "'e9' ist kein Feld (a1 bis h8)"
has "empty square" "Auf e4 steht keine Figur."
has "zur: undo by prefix" "Zug zurückgenommen."
has "undo restores the start" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# A square-like word is a move even where it is also a command prefix: "d5" is no prefix of draw.
play "d5" --lang en
[ "$(answer_to "d5")" = "a pawn cannot go from d2 to d5: it moves straight ahead (two squares only from its start square) and captures diagonally" ] ||
    [ "$(answer_to "d5")" = "no pawn can reach d5" ] || fail "d5 as a move: $(answer_to d5)"
hasnt "d5 is no prefix" "ambiguous"

# Promotion without a piece: asked in the chosen language, answered with a letter or a word of
# either language; a wrong answer asks again, 'cancel' keeps the position.
PROMO="4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
play "a8
x
Springer
fen" --lang en --fen "$PROMO"
has "promotion question (en)" "Promote to: Q R B N? x"
has "promotion: wrong answer" "Please answer Q (queen), R (rook), B (bishop) or N (knight)"
has "promotion to a knight by a German word" "N3k3/8/8/8/8/8/8/4K3 b - - 0 1"
play "a7a8
T
fen" --lang de --fen "$PROMO"
has "promotion question (de)" "Umwandeln in: D T L S? T"
has "promotion to a rook (de)" "R3k3/8/8/8/8/8/8/4K3 b - - 0 1"
play "a7-a8
queen" --lang de --fen "$PROMO"
has "promotion by an English word in German mode" "1. a8=D+"
play "a8
cancel
fen" --lang en --fen "$PROMO"
has "promotion cancelled" "Move cancelled."
has "promotion cancelled: position kept" "$PROMO"
play "a8" --lang en --fen "$PROMO"
[ "$rc" -eq 0 ] || fail "EOF during the promotion question: exit $rc"
play "a8=Q
fen" --lang en --fen "$PROMO"
has "promotion with the piece asks nothing" "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"
hasnt "promotion with the piece asks nothing" "Promote to"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "play_explain: all passed ($cases explanations in two languages)"
