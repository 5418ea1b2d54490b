#!/usr/bin/env bash
# schach serve on a loopback port, checked by tests/server/dead_positions.mjs (see its header): dead
# positions end games for both players over HTTP and WebSocket, and still say why after a restart.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db"
run_node dead_positions.mjs play "$tmp/finished.json"
server_stop
server_start "$tmp/x.db"
run_node dead_positions.mjs check "$tmp/finished.json"
server_stop

cli_finish server_dead_positions
