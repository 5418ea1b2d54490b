#!/usr/bin/env bash
# Ratings cannot be farmed (issue 22, defect 4b; tests/server/trust_farming.mjs): at most 3 rated games
# a day between the same two accounts count for the rating.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" --no-limits
run_node trust_farming.mjs
server_stop

cli_finish server_trust_farming
