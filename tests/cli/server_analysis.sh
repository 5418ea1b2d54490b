#!/usr/bin/env bash
# The engine's analysis of finished games over the API (issue 23, tests/server/analysis.mjs): queued,
# run once, shared, told to watchers, judged; limits per account and address a day; a bounded queue.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

SCHACH_ANALYSIS_HOLD="$tmp/hold" server_start "$tmp/x.db" --trust-proxy 127.0.0.1 --analysis-nodes 3000 \
    --analysis-per-day 2 --analysis-per-day-address 3 --analysis-queue 1
run_node analysis.mjs "$tmp/hold"
rm -f "$tmp/hold"
server_stop

cli_finish server_analysis
