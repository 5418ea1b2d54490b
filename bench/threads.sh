#!/usr/bin/env bash
# What more search threads buy: the bench positions searched to a fixed depth by `schach uci` with
# Threads 1, 2, ... (lazy SMP), each with a fresh table. Prints per thread count the time to reach
# the depth, the nodes and nodes per second, and both as ratios against one thread.
#
#   bench/threads.sh [SCHACH_BINARY]      (default build/schach)
#
# Environment: DEPTH (default 16), THREADS ("1 2": more threads than cores only measure the
# scheduler). Run it on an otherwise idle machine: every figure is wall-clock time.
set -uo pipefail

source "$(dirname "$0")/lib/match.bash"
schach=$(schach_binary threads.sh "${1:-}") || exit 1
depth=${DEPTH:-16}
counts=${THREADS:-1 2}
export LC_ALL=C

# The positions of `schach bench`: its lines "Position  N:  NODES nodes  FEN".
mapfile -t fens < <("$schach" --lang en bench 1 | sed -n 's/^Position *[0-9]*: *[0-9]* nodes  //p')
[ "${#fens[@]}" -gt 0 ] || { echo "threads.sh: no positions from '$schach bench 1'" >&2; exit 1; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run THREADS: prints "MS NODES" for all positions searched to depth.
run() {
    local threads=$1 total_ms=0 total_nodes=0 line nodes start
    coproc ENGINE { "$schach" uci; }
    printf 'uci\nsetoption name Threads value %s\nisready\n' "$threads" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do [ "$line" = readyok ] && break; done
    for fen in "${fens[@]}"; do
        printf 'ucinewgame\nposition fen %s\nisready\n' "$fen" >&"${ENGINE[1]}"
        while read -r line <&"${ENGINE[0]}"; do [ "$line" = readyok ] && break; done
        start=$(now_ms)
        printf 'go depth %s\n' "$depth" >&"${ENGINE[1]}"
        nodes=0
        while read -r line <&"${ENGINE[0]}"; do
            case $line in
                "info depth "*" nodes "*) nodes=$(sed -n 's/.* nodes \([0-9]*\) .*/\1/p' <<<"$line") ;;
                bestmove*) break ;;
            esac
        done
        total_ms=$((total_ms + $(now_ms) - start))
        total_nodes=$((total_nodes + nodes))
    done
    printf 'quit\n' >&"${ENGINE[1]}"
    wait "$ENGINE_PID" 2>/dev/null
    echo "$total_ms $total_nodes"
}

echo "## schach threads: ${#fens[@]} bench positions to depth $depth ($(nproc) cores, $(date +%Y-%m-%d))"
echo
echo "| Threads | Time to depth | Nodes | Nodes per second | Time vs 1 thread | nps vs 1 thread |"
echo "|---|---|---|---|---|---|"
base_ms=0 base_nps=0
for t in $counts; do
    read -r ms nodes < <(run "$t")
    nps=$((nodes * 1000 / (ms > 0 ? ms : 1)))
    if [ "$base_ms" -eq 0 ]; then base_ms=$ms base_nps=$nps; fi
    speed=$(awk -v a="$base_ms" -v b="$ms" 'BEGIN { printf "%.2fx faster", a / (b > 0 ? b : 1) }')
    rate=$(awk -v a="$nps" -v b="$base_nps" 'BEGIN { printf "%.2fx", a / (b > 0 ? b : 1) }')
    echo "| $t | $ms ms | $nodes | $nps | $speed | $rate |"
done
