#!/usr/bin/env bash
# Provisional ratings in games (issue 24, defect 1; tests/server/provisional.mjs): a rated game between
# two new accounts says in its state, the lists' summaries and "your turn" that both ratings were
# provisional as it began. The flags are stored with the game: after a restart they are still there,
# and once one account's rating is established (its deviation set to 60 in the database while the
# server is down) its side of a new rated game is not provisional, the newcomer's still is.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node provisional.mjs newcomers "$tmp/p.json"
server_stop

white=$(jq -r .white.name "$tmp/p.json" | tr 'A-Z' 'a-z')
game=$(jq -r .game "$tmp/p.json")
row=$(server_db_query "SELECT provisional_white, provisional_black FROM games WHERE id = '$game'")
[[ $row == "1|1" ]] || fail "the first game's row: provisional $row (want 1|1)"
server_db_query "UPDATE ratings SET rd = 60 WHERE account_key = '$white' AND category = 'blitz'" >/dev/null
[[ $(server_db_query "SELECT count(*) FROM ratings WHERE account_key = '$white' AND rd = 60") == 1 ]] ||
    fail "could not make $white's blitz rating established"

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node provisional.mjs established "$tmp/p.json"
server_stop

cli_finish server_provisional
