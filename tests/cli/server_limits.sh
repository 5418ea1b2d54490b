#!/usr/bin/env bash
# schach serve's limits per client address (tests/server/limits.mjs): 429 for a client over a limit
# while others are served, X-Forwarded-For only from a trusted proxy, none with --no-limits; and
# the structured log: limit events, and with --log-format json every line is a JSON object. The limits'
# clock stands still (SCHACH_LIMITS_CLOCK=frozen), so what the test counts does not depend on how fast
# the machine sends its requests (a running clock refills a bucket while a slow machine sends).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq
source "$(dirname "$0")/../server/server.bash"
server_setup

SCHACH_LIMITS_CLOCK=frozen server_start "$tmp/x.db" --max-games-per-minute 3 --max-requests-per-minute 40 --max-connections-per-address 5 \
    --max-subscriptions 2 --trust-proxy 127.0.0.8
LIMITS=on run_node limits.mjs
server_stop
grep -q ' limit kind=creates address=127.0.0.1' "$SERVER_ERR" || fail "no limit event in the log: $(head -c 2000 "$SERVER_ERR")"
[ "$(wc -l <"$SERVER_ERR")" -lt 100 ] || fail "limit events are not rate-limited: $(wc -l <"$SERVER_ERR") lines"

server_start "$tmp/y.db" --no-limits --log-format json
LIMITS=off run_node limits.mjs
server_stop
while IFS= read -r line; do
    jq -e 'type == "object" and (.event | type == "string") and (.time | type == "string")' >/dev/null 2>&1 <<<"$line" ||
        fail "not a JSON log line: $line"
done <"$SERVER_ERR"
jq -se 'any(.[]; .event == "start" and .games_in_play == "0" and (.url | startswith("http://127.0.0.1:")))' "$SERVER_ERR" \
    >/dev/null || fail "no start event: $(cat "$SERVER_ERR")"
jq -se 'any(.[]; .event == "stop")' "$SERVER_ERR" >/dev/null || fail "no stop event: $(cat "$SERVER_ERR")"

cli_finish server_limits
