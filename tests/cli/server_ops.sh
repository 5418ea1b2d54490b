#!/usr/bin/env bash
# GET /healthz and GET /metrics (tests/server/ops.mjs): the load balancer's check and Prometheus'
# scrape are answered in their formats, with HEAD and 405 for other methods, never rate-limited (the
# API still is), never logged; the metrics move when games are played over HTTP and WebSocket.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

# The limits' clock stands still (SCHACH_LIMITS_CLOCK=frozen): the API is limited after ten requests
# however slowly they come.
SCHACH_LIMITS_CLOCK=frozen server_start "$tmp/x.db" --max-requests-per-minute 10
run_node ops.mjs limited
server_stop
! grep -q 'healthz\|metrics' "$SERVER_ERR" || fail "health checks or scrapes are logged: $(grep 'healthz\|metrics' "$SERVER_ERR" | head -3)"

server_start "$tmp/y.db" "${SERVER_NO_LIMITS[@]}"
run_node ops.mjs values
server_stop

cli_finish server_ops
