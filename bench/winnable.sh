#!/usr/bin/env bash
# Winnability benchmark: can_checkmate (include/schach/winnable.h) on real-game positions, one thread.
#
#   bench/winnable.sh [WINBENCH_BINARY [FEN_FILE...]]   (defaults: build/bench/winnable/schach_winbench,
#                                                        bench/data/winnable.fen; `make bench-winnable`
#                                                        builds the program first)
#
# The positions (bench/data/winnable.fen, made by bench/winnable-data.sh): the final positions of the
# decisive games of our own self-play (bench/data/selfplay.pgn) and of the classics
# (bench/data/classics.pgn), and 10 positions after random plies of every one of those games.
# Each position is asked about both colours, in the quick mode and in the full mode (NODES, default
# the library's WIN_DEFAULT_NODES). Prints a markdown table: average and worst microseconds per call
# (one colour) and per position (both colours), the verdicts and the nodes; then the targets (quick
# <= 2 us a call on average; full <= 100 us with none undetermined). Every helpmate proof is replayed
# to checkmate. Exit status 1 when a target is missed or a proof fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
winbench=${1:-build/bench/winnable/schach_winbench}
shift || true
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=("$here/data/winnable.fen")
nodes=${NODES:-0}

[[ -x $winbench ]] || { echo "bench/winnable.sh: $winbench is missing (make bench-winnable builds it)" >&2; exit 2; }
echo "## can_checkmate on $(cat "${files[@]}" | grep -cv '^#') real-game positions ($(uname -m), $(nproc) cores, one thread used)"
"$winbench" --nodes "$nodes" "${files[@]}"
