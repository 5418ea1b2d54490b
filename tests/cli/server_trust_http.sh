#!/usr/bin/env bash
# A site strangers can trust, the HTTP side (tests/server/trust_http.mjs): the request deadline cuts
# dripped requests off, another site's page changes nothing and costs the visitor nothing, moves in
# running games have an allowance of their own, and every answer carries the security headers.
# Afterwards the database holds exactly the games the test created on purpose.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

# A short request deadline when the binary knows the option (older binaries keep their own).
deadline=()
if "$SCHACH" serve --help 2>/dev/null | grep -q -- '--request-timeout'; then
    deadline=(--request-timeout 2)
fi
server_start "$tmp/x.db" --max-connections 40 "${deadline[@]}"
MAX_CONNECTIONS=40 PART=main GAMES_FILE=$tmp/games run_node trust_http.mjs
server_stop
want=$(cat "$tmp/games" 2>/dev/null || echo missing)
have=$(server_db_query 'SELECT count(*) FROM games')
[ "$have" = "$want" ] || fail "the database holds $have games, the test created $want on purpose"

SCHACH_LIMITS_CLOCK=frozen server_start "$tmp/y.db" --max-requests-per-minute 20
LIMIT=20 PART=limits GAMES_FILE=$tmp/games2 run_node trust_http.mjs
server_stop
want=$(cat "$tmp/games2" 2>/dev/null || echo missing)
have=$(server_db_query 'SELECT count(*) FROM games')
[ "$have" = "$want" ] || fail "the second database holds $have games, the test created $want on purpose"

cli_finish server_trust_http
