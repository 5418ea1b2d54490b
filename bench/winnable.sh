#!/usr/bin/env bash
# Winnability benchmark (`make bench-winnable`): schach_winbench on real-game positions — the final
# positions of the decisive games and ten random positions of every game, from our own self-play
# (bench/data/selfplay.pgn, made by bench/winnable-games.sh) and the classics (bench/data/classics.pgn).
# Prints a markdown table and the targets (quick <= 2 µs, full <= 100 µs average, none undetermined);
# exit status 1 when one is missed. NODES sets the full mode's budget (default 200,000).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench=${1:-build/bench/winnable/schach_winbench}
args=()
[ -n "${NODES:-}" ] && args+=(--nodes "$NODES")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), one thread"
exec "$bench" "${args[@]}" "$here/data/selfplay.pgn" "$here/data/classics.pgn"
