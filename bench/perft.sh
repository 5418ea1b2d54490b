#!/usr/bin/env bash
# Perft speed of schach, and of Stockfish on the same positions in the same run when it is installed.
#
#   bench/perft.sh [SCHACH_BINARY]        (default build/schach; `make bench` builds it first)
#
# Environment: RUNS (5) is how often each program counts each position, alternating between the
# two so both see the same machine; the fastest run of each is reported, since on a shared machine
# a slow run only measures interference. START_DEPTH (6) and KIWIPETE_DEPTH (5) set the depths; STOCKFISH names the engine
# (default: stockfish on PATH, else /usr/games/stockfish); NO_STOCKFISH=1 skips it.
# Stockfish's time is measured from sending "go perft" to reading "Nodes searched", with the engine
# already started and its network loaded (a coprocess), so startup is not counted. Both programs count
# with one thread. Exit status 1 when a node count is wrong.
set -euo pipefail

schach=${1:-build/schach}
start_depth=${START_DEPTH:-6}
kiwipete_depth=${KIWIPETE_DEPTH:-5}
runs=${RUNS:-5}

# name, FEN, depth, and the exact node counts (from tests/data/perft.epd) for checking.
START_FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE_FEN="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
declare -A expected=(
    [start:1]=20 [start:2]=400 [start:3]=8902 [start:4]=197281 [start:5]=4865609 [start:6]=119060324
    [start:7]=3195901860
    [kiwipete:1]=48 [kiwipete:2]=2039 [kiwipete:3]=97862 [kiwipete:4]=4085603 [kiwipete:5]=193690690
    [kiwipete:6]=8031647685
)
positions=("start|$START_FEN|$start_depth" "kiwipete|$KIWIPETE_FEN|$kiwipete_depth")

now() { # seconds since the epoch with microseconds; bash 5 has it built in (no fork)
    if [[ -n ${EPOCHREALTIME:-} ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi
}

find_stockfish() {
    [[ ${NO_STOCKFISH:-0} == 1 ]] && return 1
    if [[ -n ${STOCKFISH:-} ]]; then echo "$STOCKFISH"; return 0; fi
    command -v stockfish 2>/dev/null && return 0
    [[ -x /usr/games/stockfish ]] && { echo /usr/games/stockfish; return 0; }
    return 1
}

# Reads engine lines until one starts with $1; fails after 10 minutes of silence or at EOF.
sf_wait_for() {
    local line
    while IFS= read -r -t 600 line <&"${SF[0]}"; do
        line=${line%$'\r'}
        if [[ $line == "$1"* ]]; then
            reply=$line
            return 0
        fi
    done
    echo "bench: stockfish stopped before '$1'" >&2
    return 1
}

sf_start() {
    coproc SF { exec "$1" 2>/dev/null; }
    echo uci >&"${SF[1]}"
    sf_wait_for uciok
    echo "setoption name Threads value 1" >&"${SF[1]}"
    echo isready >&"${SF[1]}" # the network is loaded before readyok
    sf_wait_for readyok
}

# shellcheck disable=SC2317 # runs from the EXIT trap
sf_stop() {
    if [[ -n ${SF[1]:-} ]]; then
        echo quit >&"${SF[1]}" || true
    fi
    wait "${SF_PID:-}" 2>/dev/null || true
}

# Prints "nodes seconds" of Stockfish's perft of $1 (FEN) to depth $2.
sf_perft() {
    local t0 t1
    echo "position fen $1" >&"${SF[1]}"
    echo isready >&"${SF[1]}"
    sf_wait_for readyok
    t0=$(now)
    echo "go perft $2" >&"${SF[1]}"
    sf_wait_for "Nodes searched"
    t1=$(now)
    echo "${reply##*: } $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
}

# Prints "nodes seconds" of schach's perft, from the JSON it prints.
schach_perft() {
    local json nodes seconds
    json=$("$schach" perft --json --fen "$1" "$2" | tr -d '\n')
    nodes=$(sed -n 's/.*"nodes"[[:space:]]*:[[:space:]]*\([0-9]*\).*/\1/p' <<<"$json")
    seconds=$(sed -n 's/.*"seconds"[[:space:]]*:[[:space:]]*\([-0-9.eE+]*\).*/\1/p' <<<"$json")
    if [[ -z $nodes || -z $seconds ]]; then
        echo "bench: cannot read nodes and seconds from: $json" >&2
        return 1
    fi
    echo "$nodes $seconds"
}

# The smaller of two times; the first argument may be empty (no time yet).
fastest() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }

if [[ ! -x $schach ]]; then
    echo "bench: $schach not found; run 'make build' (or pass the binary as the first argument)" >&2
    exit 1
fi
stockfish=$(find_stockfish) || stockfish=""
if [[ -n $stockfish ]]; then
    sf_start "$stockfish"
    trap sf_stop EXIT
    sf_name=${stockfish##*/}
    echo "bench: schach ($schach) against $sf_name ($stockfish), one thread each, fastest of $runs runs"
else
    echo "bench: schach ($schach); Stockfish not found (install it: apt-get install stockfish), so no comparison"
fi

printf '\n%-9s %5s  %-9s %12s %10s %12s\n' position depth program nodes seconds nodes/s
status=0
summary=()
for entry in "${positions[@]}"; do
    IFS='|' read -r name fen depth <<<"$entry"
    want=${expected[$name:$depth]:-}
    s_secs="" f_secs=""
    for ((run = 1; run <= runs; run++)); do
        read -r s_nodes secs < <(schach_perft "$fen" "$depth")
        s_secs=$(fastest "$s_secs" "$secs")
        if [[ -n $stockfish ]]; then
            read -r f_nodes secs < <(sf_perft "$fen" "$depth")
            f_secs=$(fastest "$f_secs" "$secs")
        fi
    done
    s_nps=$(awk -v n="$s_nodes" -v s="$s_secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
    printf '%-9s %5s  %-9s %12s %10.3f %12s\n' "$name" "$depth" schach "$s_nodes" "$s_secs" "$s_nps"
    if [[ -n $want && $s_nodes != "$want" ]]; then
        echo "bench: WRONG node count from schach: $s_nodes, expected $want" >&2
        status=1
    fi
    if [[ -n $stockfish ]]; then
        f_nps=$(awk -v n="$f_nodes" -v s="$f_secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
        printf '%-9s %5s  %-9s %12s %10.3f %12s\n' "$name" "$depth" stockfish "$f_nodes" "$f_secs" "$f_nps"
        if [[ $f_nodes != "$s_nodes" ]]; then
            echo "bench: node counts differ: schach $s_nodes, stockfish $f_nodes" >&2
            status=1
        fi
        ratio=$(awk -v a="$s_nps" -v b="$f_nps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        summary+=("$name depth $depth: schach/stockfish speed ratio $ratio (nodes/s; above 1 means schach is faster)")
    fi
done

if ((${#summary[@]})); then
    echo
    printf '%s\n' "${summary[@]}"
fi
exit "$status"
