#!/usr/bin/env bash
# Game analysis benchmark (`make bench-analysis`, not part of make test): schach analyse at its default
# node budget — positions per second of one worker, the time of a 40-move game on one core and how
# many such analyses one core serves a day — and the stability of the judgements: on 50 games (every
# game of tests/data that reads without an error, the rest from bench/data/selfplay.pgn) the share of
# moves judged the same way at the default budget and at 10× that budget.
#
#   bench/analysis.sh [path/to/schach]      NODES=N (default: schach's own), GAMES=50, THREADS=2
#
# THREADS engines analyse the 50 games (the positions are independent); the per-worker figures come
# from runs with one thread. Prints the figures as markdown for docs/analysis.md.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
schach=${1:-build/schach}
case $schach in /*) ;; *) schach=$PWD/$schach ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
default_nodes=$("$schach" analyse --help | sed -n 's/.*--nodes N .*(default \([0-9]*\)).*/\1/p')
nodes=${NODES:-$default_nodes}
games=${GAMES:-50}
threads=${THREADS:-2}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# positions FILE.jsonl: positions analysed (moves + 1 per game)
positions() { python3 -c 'import json,sys; print(sum(len(json.loads(l)["moves"]) + 1 for l in open(sys.argv[1]) if l.strip()))' "$1"; }

data=("$root"/tests/data/classics.pgn "$root"/tests/data/pgn_*.pgn "$root"/bench/data/selfplay.pgn)
picked=$(python3 "$here/analysis/games.py" "$schach" "$games" "$tmp/games.pgn" "${data[@]}")
from_tests=$(python3 "$here/analysis/games.py" "$schach" "$games" "$tmp/tests.pgn" "${data[@]:0:${#data[@]}-1}")
python3 "$here/analysis/games.py" "$schach" 1 "$tmp/forty.pgn" --plies 80 "$root/bench/data/selfplay.pgn" >/dev/null

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "budget: $nodes nodes per position (default $default_nodes)"
echo

# One worker: a 40-move game (80 plies, 81 positions).
t0=$(now)
"$schach" analyse --json --threads 1 --nodes "$nodes" "$tmp/forty.pgn" >"$tmp/forty.jsonl"
t1=$(now)
forty=$(elapsed "$t0" "$t1")
n=$(positions "$tmp/forty.jsonl")
pps=$(awk -v n="$n" -v t="$forty" 'BEGIN { printf "%.1f", n / t }')
day=$(awk -v t="$forty" 'BEGIN { printf "%d", 86400 / t }')

# The games at the budget and at 10x, THREADS engines.
t0=$(now)
"$schach" analyse --json --threads "$threads" --nodes "$nodes" "$tmp/games.pgn" >"$tmp/low.jsonl"
t1=$(now)
"$schach" analyse --json --threads "$threads" --nodes $((nodes * 10)) "$tmp/games.pgn" >"$tmp/high.jsonl"
t2=$(now)
total=$(positions "$tmp/low.jsonl")

echo "| Figure | Value |"
echo "|---|---|"
echo "| positions per second, one worker, $nodes nodes | $pps |"
echo "| a 40-move game (81 positions), one core | $forty s |"
echo "| 40-move analyses a day per core | $day |"
echo "| $picked games ($from_tests from tests/data), $total positions, $threads threads, $nodes nodes | $(elapsed "$t0" "$t1") s |"
echo "| the same at $((nodes * 10)) nodes | $(elapsed "$t1" "$t2") s |"
echo
python3 "$here/analysis/agreement.py" "$tmp/low.jsonl" "$tmp/high.jsonl"
