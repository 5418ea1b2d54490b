#!/usr/bin/env bash
# Games against the computer in schach serve, checked by tests/server/computer.mjs (see its header):
# levels and errors, the computer's replies over WebSocket, and a kill -9 while the computer is to
# move, after which the restarted server lets it move. The computer thinks 50 ms per move here.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
export SCHACH_COMPUTER_THINK_MS=50

server_start "$tmp/x.db"
run_node computer.mjs
server_stop

# The computer holds its search back for an hour: it is surely still to move at the kill.
SCHACH_COMPUTER_DELAY_MS=3600000 server_start "$tmp/y.db"
run_node computer.mjs hold "$tmp/game.json"
server_kill9
server_start "$tmp/y.db"
run_node computer.mjs resume "$tmp/game.json"
server_stop

cli_finish server_computer
