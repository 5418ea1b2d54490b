#!/usr/bin/env bash
# schach serve on a loopback port, checked by tests/server/verbs.mjs (see its header).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node verbs.mjs
server_stop

cli_finish server_verbs
