#!/usr/bin/env bash
# schach serve: the game service's part of issue 22 (tests/server/trust_service.mjs): a rated game
# resigned before both sides moved is aborted and not rated.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node trust_service.mjs
server_stop

cli_finish server_trust_service
