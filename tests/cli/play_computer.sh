#!/usr/bin/env bash
# schach play against the computer, from a script: computer against computer to the end, a person
# against the computer (moves, undo, draw offers, the computer's draw claim), levels and budgets.
# Searches are limited by nodes (the default when standard input is not a terminal), never by time.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
cd "$tmp" || exit 1

# play INPUT-LINES ARGS...: pipes the lines into `schach play ARGS`; sets out, err, rc.
play() {
    local input=$1
    shift
    printf '%s\n' "$input" | timeout 300 "$SCHACH" play "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}
has() { grep -qF -- "$2" <<<"$out" || fail "$1: no '$2' in output:"$'\n'"$(tail -n 30 <<<"$out")"; }
hasnt() { ! grep -qF -- "$2" <<<"$out" || fail "$1: unexpected '$2' in output"; }
# check_saved WHAT FILE JQ: `schach pgn check --json FILE` satisfies JQ.
check_saved() {
    local json
    json=$("$SCHACH" pgn check --json "$2" 2>&1)
    [ -n "$json" ] && jq -e "$3" >/dev/null 2>&1 <<<"$json" || fail "$1: jq '$3' is not true for: $json"
}
require_command jq

# ---- computer against computer: the game runs to its end without input ----
play 'save cvc.pgn
quit' --white computer:max --black computer:beginner --nodes 3000
expect_rc "computer vs computer" 0
has "computer vs computer" "Game over: "
has "computer vs computer" "White (computer, Full strength) plays 1. "
has "computer vs computer" "Black (computer, Beginner) plays 1... "
hasnt "computer vs computer" "White> " # nobody was asked for a move
check_saved "computer vs computer saved" cvc.pgn '.game == 1 and .result != "*" and .plies > 0'
grep -q '^\[White "schach (Full strength)"\]' cvc.pgn || fail "computer vs computer: no White tag: $(head -n 8 cvc.pgn)"
grep -q '^\[Black "schach (Beginner)"\]' cvc.pgn || fail "computer vs computer: no Black tag"

# With a node budget the same game is played on every run (German; full strength: weaker levels draw on a random generator).
play 'pgn' --lang de --white computer:max --black computer:max --nodes 2000
first=$(sed -n '/^1\. /,$p' <<<"$out")
has "computer vs computer de" "Weiß (Computer, Volle Stärke) spielt 1. "
has "computer vs computer de" "Schwarz (Computer, Volle Stärke) spielt 1... "
has "computer vs computer de" "Partie beendet: "
play 'pgn' --lang de --white computer:max --black computer:max --nodes 2000
[ -n "$first" ] && [ "$first" = "$(sed -n '/^1\. /,$p' <<<"$out")" ] || fail "computer vs computer: two runs differ"

# ---- a person against the computer ----
play 'a3
h3
undo
moves
fen
quit' --black computer:max --nodes 2000
expect_rc "human vs computer" 0
has "human vs computer" "1. White> a3"
has "human vs computer" "Black (computer, Full strength) plays 1... "
has "human vs computer" "2. White> h3"
has "human vs computer" "Black (computer, Full strength) plays 2... "
has "human vs computer: undo takes back the reply too" "Two moves taken back: yours and the computer's reply."
has "human vs computer: white to move after undo" "Move 2: White to move"
# A computer limited to an Elo rating.
play 'a3
quit' --black computer:1800 --nodes 1000
has "Elo computer" "Black (computer, Elo 1800) plays 1... "
# The person plays black: the board is seen from black's side, the computer opens.
play 'quit' --lang de --white computer --nodes 1000
has "computer white" "Weiß (Computer, Vereinsspieler) spielt 1. "
has "computer white" "1... Schwarz> quit"
grep -q '^ *1 .*h  *g  *f' <<<"$out" || grep -q 'h  g  f  e  d  c  b  a' <<<"$out" ||
    fail "computer white: the board is not flipped for the black player"

# The computer declines a draw offer when it stands better and accepts when it stands clearly worse.
play 'draw
Kb1
quit' --fen '4k3/8/8/8/8/8/3q4/K7 w - - 0 1' --black computer:max --nodes 2000
has "winning computer" "White offers a draw; the computer answers after White's move."
has "winning computer" "Black (computer, Full strength) declines the draw offer."
hasnt "winning computer" "Game over"
play 'draw
Ka2
quit' --fen '4k3/8/8/8/8/8/3Q4/K7 w - - 0 1' --black computer:max --nodes 2000
has "losing computer" "Black (computer, Full strength) accepts the draw offer."
has "losing computer" "Game over: Draw by agreement"

# Lost, the computer repeats the position and claims the draw as soon as it may.
play 'Ka2
Ka1
Ka2
Ka1
Ka2
Ka1
Ka2
Ka1
pgn
quit' --fen '7k/8/8/8/8/8/8/KR6 w - - 0 1' --black computer:max --nodes 3000
has "repetition claim" "claims a draw"
has "repetition claim" "Game over: Draw by threefold repetition"
has "repetition claim" '[Result "1/2-1/2"]'

# ---- levels, budgets, usage ----
play 'quit' --black computer:grandmaster
expect_rc "unknown level" 2
grep -q "grandmaster" <<<"$err" || fail "unknown level not named: $err"
for level in beginner novice casual club strong expert master max; do
    grep -q "^ *$level " <<<"$err" || fail "unknown level: '$level' not listed: $err"
done
play 'quit' --lang de --white rechner
expect_rc "unknown level de" 2
grep -q "unbekannter Spieler oder unbekannte Stufe 'rechner'" <<<"$err" || fail "unknown level de: $err"
grep -q "Anfänger" <<<"$err" || fail "unknown level de: German level names not listed: $err"
play 'quit' --white computer:100
expect_rc "Elo out of range" 2
play 'quit' --white computer --think 0
expect_rc "--think 0" 2
play 'quit' --white computer --nodes many
expect_rc "--nodes many" 2
play 'quit' --white human --black mensch
expect_rc "two people" 0
has "two people" "1. White> quit"
run play --help
expect_rc "play --help" 0
grep -q -- "--white PLAYER" <<<"$out" || fail "play --help: no --white: $out"
grep -q "^ *expert " <<<"$out" || fail "play --help: levels not listed"
run --lang de play --help
grep -q -- "--black SPIELER" <<<"$out" || fail "play --help de: $out"
grep -q "Volle Stärke" <<<"$out" || fail "play --help de: German level names not listed"

cli_finish play_computer
