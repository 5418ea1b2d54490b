#!/usr/bin/env bash
# schach serve closes a WebSocket whose client sends an unmasked frame (RFC 6455 5.1) or breaks the
# framing otherwise, before any of it reaches a game (tests/server/ws_mask.mjs), and logs it as
# client_dropped.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node ws_mask.mjs
server_stop
grep -q 'client_dropped.*unmasked_frame' "$SERVER_ERR" ||
    fail "no client_dropped reason=unmasked_frame in the log: $(head -c 2000 "$SERVER_ERR")"

cli_finish server_ws_mask
