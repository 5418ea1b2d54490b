#!/usr/bin/env bash
# schach serve: the game service's part of issue 22 (tests/server/trust_service.mjs): a rated game
# resigned before both sides moved is aborted and not rated; games nobody began are aborted after
# --unstarted-expiry-live / --unstarted-expiry-slow (here a second or two), also those loaded at
# start, and leave memory.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node trust_service.mjs
server_stop

# The expiry options (an older binary without them runs with its defaults, to see the tests fail).
short=()
if "$SCHACH" serve --help 2>/dev/null | grep -q -- '--unstarted-expiry-live'; then
    short=(--unstarted-expiry-live 1s --unstarted-expiry-slow 2s)
    for bad in 0s 5 1x -1h 1001d ''; do
        run serve --unstarted-expiry-live "$bad"
        expect_rc "--unstarted-expiry-live '$bad'" 2
        [[ $err == *"--unstarted-expiry-live"* ]] || fail "--unstarted-expiry-live '$bad': the message names the option: $err"
    done
fi

server_start "$tmp/expiry.db" "${SERVER_NO_LIMITS[@]}" "${short[@]}"
run_node trust_service.mjs expiry
server_stop

# Games left unbegun while the server ran with the default times expire once it starts with short ones.
server_start "$tmp/restart.db" "${SERVER_NO_LIMITS[@]}"
games=$(node "$SERVER_TEST_DIR/trust_service.mjs" create) || fail "creating the games for the restart"
server_stop
server_start "$tmp/restart.db" "${SERVER_NO_LIMITS[@]}" "${short[@]}"
run_node trust_service.mjs loaded "$games"
server_stop
aborted=$(server_db_query "SELECT count(*) FROM games WHERE termination = 'aborted'")
[[ $aborted == 6 ]] || fail "want the 6 unbegun games aborted in the database, got $aborted"

cli_finish server_trust_service
