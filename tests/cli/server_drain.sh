#!/usr/bin/env bash
# SIGTERM drains schach serve (tests/server/drain.mjs): with a move over WebSocket and one over HTTP
# held in the store (SCHACH_STORE_COMMIT_DELAY_MS), new connections are refused at once and /healthz
# says "draining"; both moves are answered, then the WebSocket gets Close 1001 (going away); the
# server exits with status 0 and logs drain, drained and stop; after a restart on the same database
# every acknowledged move is there. An idle server closes its WebSockets with 1001 at once, and the
# browser's code (web/live.js) reconnects at once after 1001 and restores the game.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

# wait_exit SECONDS: the server exits within SECONDS; its status is in rc.
wait_exit() {
    local i
    for ((i = 0; i < $1 * 20; i++)); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        fail "schach serve still runs $1 s after SIGTERM"
        server_cleanup
        rc=1
        return
    fi
    wait "$SERVER_PID"
    rc=$?
    SERVER_PID=
}

# 3 s a commit: both moves are still unanswered while the test looks at the drain's first steps, and the
# drain's 10 s for the store hold even when the two go in two commits.
SCHACH_STORE_COMMIT_DELAY_MS=3000 server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node drain.mjs hold "$tmp/acked.json" "$SERVER_PID"
wait_exit 60
[ "$rc" -eq 0 ] || fail "exit status $rc after the drain: $(cat "$SERVER_ERR")"
for event in drain drained stop; do
    grep -q " info $event " "$SERVER_ERR" || fail "no $event event in the log: $(cat "$SERVER_ERR")"
done
grep -q ' info drain pending=2 websockets=1 ' "$SERVER_ERR" || fail "the drain event does not count what is in flight: $(cat "$SERVER_ERR")"
grep -q ' info drained result=ok' "$SERVER_ERR" || fail "the drain ran into its bound: $(cat "$SERVER_ERR")"

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node drain.mjs check "$tmp/acked.json"
run_node drain.mjs idle "$SERVER_PID"
wait_exit 60
[ "$rc" -eq 0 ] || fail "exit status $rc after an idle drain: $(cat "$SERVER_ERR")"
# At once, by the server's own account: the idle WebSocket was closed before any of the drain's bounds.
grep -q ' info drained result=ok' "$SERVER_ERR" || fail "the idle drain ran into its bound: $(cat "$SERVER_ERR")"

# The browser's reconnection: 1001 makes the page try again at once; once a server is back on the
# same address and database the page shows the game as it was and follows it again.
server_start "$tmp/p.db" "${SERVER_NO_LIMITS[@]}"
port=${SCHACH_URL##*:}
port=${port%/}
node "$SERVER_TEST_DIR/drain.mjs" page "$SERVER_PID" &
page=$!
wait_exit 60
[ "$rc" -eq 0 ] || fail "exit status $rc after draining a page's connection: $(cat "$SERVER_ERR")"
SERVER_LISTEN=127.0.0.1:$port server_start "$tmp/p.db" "${SERVER_NO_LIMITS[@]}"
wait "$page" || fail "drain.mjs page"
server_stop

cli_finish server_drain
