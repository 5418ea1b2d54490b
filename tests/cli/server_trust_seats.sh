#!/usr/bin/env bash
# Seats that die with the account's access, and look-alike names (issue 22, tests/server/trust_seats.mjs):
# a password change and "log out everywhere" revoke every seat secret handed out before.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" --no-limits
run_node trust_seats.mjs
server_stop

cli_finish server_trust_seats
