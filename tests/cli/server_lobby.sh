#!/usr/bin/env bash
# The lobby in schach serve (tests/server/lobby.mjs): seeks posted, listed, withdrawn and accepted,
# exactly one game when several accept at once, rated seeks between accounts only, bad input refused
# with nothing changed; and the row of a rated game made from a seek: both accounts, rated.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

# 127.0.0.1 is trusted as a proxy, so a test's visitors can come from addresses of their own
# (X-Forwarded-For): an anonymous seek is its poster's by address.
# Quick pairing's rating window widens every 300 ms here (10 s on a real site), so a test waits
# for it to widen without a minute's wait.
export SCHACH_LOBBY_WINDOW_STEP_MS=300
# A seek posted with "hold" waits 4 s for its page's hold here (20 s on a real site).
export SCHACH_SEEK_HOLD_GRACE_MS=4000
server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}" --trust-proxy 127.0.0.1
run_node lobby.mjs
run_node lobby.mjs rated "$tmp/rated.json"
server_stop

game=$(jq -r .game "$tmp/rated.json")
white=$(jq -r .white "$tmp/rated.json")
black=$(jq -r .black "$tmp/rated.json")
row=$(server_db_query "SELECT account_white, account_black, rated, mode, time_type, minutes, increment FROM games WHERE id = '$game'")
[[ $row == "$white|$black|1|friend|live|5|3" ]] || fail "the rated game's row: $row (want $white|$black|1|friend|live|5|3)"

cli_finish server_lobby
