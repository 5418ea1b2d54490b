#!/usr/bin/env bash
# schach serve with few file descriptors under a flood of connections (tests/server/fds.mjs): it
# keeps serving, logs the condition at most once a second, and does not spin.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command prlimit
source "$(dirname "$0")/../server/server.bash"
server_setup

SERVER_WRAP=(prlimit --nofile=256:256 --)
server_start "$tmp/x.db"
SERVER_WRAP=()
SERVER_ERR=$SERVER_ERR run_node fds.mjs
server_stop
lines=$(wc -l <"$SERVER_ERR")
[ "$lines" -lt 60 ] || fail "the log has $lines lines: $(head -c 1000 "$SERVER_ERR")"

cli_finish server_fds
