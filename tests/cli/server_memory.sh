#!/usr/bin/env bash
# schach serve's memory does not grow with the games ever played: tests/server/memory.mjs creates and
# finishes 20,000 games and compares the server's RSS after 2,000 and after 20,000. The games are
# created faster than the per-address limits allow, so the server runs with --no-limits when it has
# that option; SCHACH_SERVE_ARGS, when set, gives the server's extra arguments instead.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

if [ -z "${SCHACH_SERVE_ARGS+set}" ]; then
    SCHACH_SERVE_ARGS=
    "$SCHACH" serve --help | grep -q -- --no-limits && SCHACH_SERVE_ARGS=--no-limits
fi
# shellcheck disable=SC2086 # the arguments are meant to split
server_start "$tmp/x.db" $SCHACH_SERVE_ARGS
run_node memory.mjs "$SERVER_PID"
server_stop

cli_finish server_memory
