#!/usr/bin/env bash
# schach play in a real terminal: a detached tmux session of fixed size, keys sent as a person types
# them, the screen read back with capture-pane. Every wait polls the screen until the expected text
# appears (at most 60 s, for a busy machine), so nothing depends on timing.
set -u
SCHACH=${1:?usage: play_tty.sh path/to/schach}
case $SCHACH in /*) ;; *) SCHACH=$PWD/$SCHACH ;; esac
command -v tmux >/dev/null || { echo "FAIL: tmux is needed (scripts/install-deps installs it)" >&2; exit 1; }
export LC_ALL=C.UTF-8 LANG=C.UTF-8 # figurines are UTF-8; --lang de chooses the language
unset LC_MESSAGES LANGUAGE
SOCKET="schach-play-test-$$"
T() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

screen() { T capture-pane -p -t play 2>/dev/null; }
# wait_for DESCRIPTION TEXT: polls the screen until TEXT shows.
wait_for() {
    for _ in $(seq 600); do
        screen | grep -qF -- "$2" && return 0
        sleep 0.1
    done
    fail "$1: '$2' did not appear; the screen:"$'\n'"$(screen)"
    return 1
}
type_line() { T send-keys -t play -l "$1" && T send-keys -t play Enter; }

T new-session -d -s play -x 100 -y 50 "$SCHACH play --lang de" || { echo "FAIL: tmux could not start" >&2; exit 1; }
wait_for "start" "Zug 1: Weiß am Zug" || exit 1
wait_for "prompt" "1. Weiß>"

type_line "e4"
wait_for "after e4" "Zug 1: Schwarz am Zug" || exit 1
shot=$(screen)
colored=$(T capture-pane -p -e -t play)
grep -qF "♟" <<<"$shot" || fail "no figurines on the board"
grep -qF "♚" <<<"$shot" || fail "no king figurine on the board"
grep -qE '^ +a +b +c +d +e +f +g +h$' <<<"$shot" || fail "no file letters around the board"
grep -qE '^ 8 .* 8$' <<<"$shot" || fail "no rank 8 labels"
grep -qE '^ 1 .* 1$' <<<"$shot" || fail "no rank 1 labels"
# Rank 4 now holds one piece, the pawn on e4 (the fifth square: three columns per square).
rank4=$(grep -E '^ 4 ' <<<"$shot" | tail -n 1)
[ "$(grep -o "♟" <<<"$rank4" | wc -l)" -eq 1 ] || fail "the pawn did not arrive on rank 4: '$rank4'"
[ "${rank4:3:12}" = "            " ] || fail "rank 4 should be empty on a-d: '$rank4'"
grep -qF "Letzter Zug: 1. e4 (e2-e4)" <<<"$shot" || fail "no last move line"
grep -qF $'\e[48;5;' <<<"$colored" || fail "no coloured squares on a terminal"
grep -qF "[" <<<"$(grep -E '^ 4 ' <<<"$shot")" && fail "bracket marks belong to the plain board only"

type_line "Sf3"
wait_for "an illegal move is explained" "kein Springer kann f3 erreichen"
type_line "züge g8"
wait_for "moves of a piece" "Springer g8 – legale Züge (2): Sf6 Sh6"

# Promotion in the terminal: the question, then the answer.
type_line "neu 4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
wait_for "new game from FEN" "Neue Partie."
type_line "a8"
wait_for "promotion question" "Umwandeln in: D T L S?"
type_line "D"
wait_for "promoted to a queen" "Letzter Zug: 1. a8=D+ (a7-a8=D+), Schach"
wait_for "check shown" "Zug 1: Schwarz am Zug – Schach!"

type_line "ende"
for _ in $(seq 600); do
    T has-session -t play 2>/dev/null || break
    sleep 0.1
done
T has-session -t play 2>/dev/null && fail "'ende' did not end the program"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "play_tty: all passed"
