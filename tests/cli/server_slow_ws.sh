#!/usr/bin/env bash
# schach serve closes WebSocket clients that stop reading (tests/server/slow_ws.mjs), and says so in
# its log (one "client_dropped" line per second at most).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command ss
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node slow_ws.mjs
server_stop
if [ ${#SERVER_NO_LIMITS[@]} -gt 0 ]; then
    grep -q 'client_dropped' "$SERVER_ERR" || fail "no client_dropped in the log: $(head -c 2000 "$SERVER_ERR")"
fi

cli_finish server_slow_ws
