#!/usr/bin/env bash
# Regenerates the positions of the winnability benchmark (bench/winnable.sh) in bench/data/:
#
#   bench/winnable-data.sh [SCHACH_BINARY [WINBENCH_BINARY]]   (defaults: build/schach,
#                                                               build/bench/winnable/schach_winbench)
#
# 1. selfplay.pgn: GAMES (300) games of schach against itself with `schach match`, in three matches
#    of GAMES/3 at NODES (3000) nodes a move: full strength against UCI_Elo 1600, UCI_Elo 1200
#    against 2000, and full strength against itself; a side resigns when its score stays below
#    -10 pawns for 4 moves, as people do.
# 2. winnable.fen: the final position of every decisive game of selfplay.pgn and classics.pgn (the
#    three classic games of the shared test data, copied here) and RANDOM (10) positions after
#    random plies of every game, without duplicates (schach_winbench --extract).
# The files are committed: the benchmark reads them, it does not make them.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schach=${1:-build/schach}
winbench=${2:-build/bench/winnable/schach_winbench}
games=${GAMES:-300}
nodes=${NODES:-3000}
random=${RANDOM_PLIES:-10}
data=$here/data

for bin in "$schach" "$winbench"; do
    [[ -x $bin ]] || { echo "bench/winnable-data.sh: $bin is missing (make build)" >&2; exit 2; }
done
schach=$(cd "$(dirname "$schach")" && pwd)/$(basename "$schach")

pgn=$(mktemp "${TMPDIR:-/tmp}/schach-selfplay.XXXXXX")
trap 'rm -f "$pgn"' EXIT
per=$(( games / 3 ))
match() { # name seed engine-words-1 -- engine-words-2
    local seed=$1; shift
    local -a first=() second=()
    while [[ $1 != -- ]]; do first+=("$1"); shift; done
    shift
    second=("$@")
    "$schach" match --engine cmd="$schach uci" "${first[@]}" --engine cmd="$schach uci" "${second[@]}" \
        --nodes "$nodes" --games "$per" --concurrency 2 --shuffle --seed "$seed" \
        --resign moves=4 score=1000 --event "schach self-play" --pgn "$pgn" --report 0 >/dev/null
}
match 1 name=full -- name=elo1600 option.UCI_LimitStrength=true option.UCI_Elo=1600
match 2 name=elo1200 option.UCI_LimitStrength=true option.UCI_Elo=1200 -- name=elo2000 option.UCI_LimitStrength=true option.UCI_Elo=2000
match 3 name=full-a -- name=full-b
cat "$pgn" > "$data/selfplay.pgn"
"$winbench" --extract --random "$random" --seed 1 "$data/selfplay.pgn" "$data/classics.pgn" > "$data/winnable.fen"
echo "bench/data/selfplay.pgn: $(grep -c '^\[Result' "$data/selfplay.pgn") games; bench/data/winnable.fen: $(wc -l < "$data/winnable.fen") positions"
