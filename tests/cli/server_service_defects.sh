#!/usr/bin/env bash
# schach serve: the game service's defects of issue 10 (tests/server/service_defects.mjs): negative
# time members, a bad join while a change is in flight, joining a finished game.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db"
run_node service_defects.mjs
server_stop

cli_finish server_service_defects
