#!/usr/bin/env bash
# Makes bench/data/selfplay.pgn, the self-play games whose positions `make bench-winnable` measures:
# 200 games of schach against itself at two levels, 3,000 nodes a move (a few minutes). The file is
# committed, so the benchmark measures the same positions everywhere; run this only to renew it.
set -euo pipefail
schach=${1:-build/schach}
out=${2:-bench/data/selfplay.pgn}
rm -f "$out"
"$schach" match --engine cmd="$schach uci" name=strong "option.Skill Level=12" \
    --engine cmd="$schach uci" name=weak "option.Skill Level=6" \
    --nodes 3000 --games 200 --concurrency 2 --pgn "$out" --report 0
