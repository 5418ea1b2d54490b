#!/usr/bin/env bash
# schach serve survives kill -9: every acknowledged move is in the database after a restart, also
# when the server dies while a burst of moves is in flight, and the games go on to the end.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db"
run_node restart.mjs play "$tmp/game.json"
server_alive || fail "server died during the game"
server_kill9
server_start "$tmp/x.db"
run_node restart.mjs finish "$tmp/game.json"
server_stop

server_start "$tmp/y.db"
pid=$SERVER_PID
run_node restart.mjs burst "$tmp/burst.json" "$pid"
wait "$pid" 2>/dev/null
SERVER_PID=
server_start "$tmp/y.db"
run_node restart.mjs check-burst "$tmp/burst.json"
server_stop

cli_finish server_restart
