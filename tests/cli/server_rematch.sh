#!/usr/bin/env bash
# Rematch and presence in schach serve (tests/server/rematch.mjs): offer, accept, decline, both sides at
# once, accounts, the computer, local games, bad input, presence over WebSocket; then the rows: the old
# game names the new one, which has the colours and accounts swapped and no secret stored in the clear.
# Also the other offers of a game and its premoves (tests/server/takeback.mjs): takebacks of one and two
# plies with the record and clocks restored (the game goes on: the store deleted the moves taken back),
# refused in rated games; premoves played, dropped, cancelled.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node rematch.mjs
run_node takeback.mjs
server_stop

# Every rematch game the old rows name exists, with the old game's mode and time control.
bad=$(server_db_query "SELECT count(*) FROM games o WHERE o.rematch_game <> '' AND NOT EXISTS (SELECT 1 FROM games n WHERE n.id = o.rematch_game AND n.mode = o.mode AND n.time_type = o.time_type AND n.minutes = o.minutes AND n.increment = o.increment AND n.days = o.days AND n.account_white = o.account_black AND n.account_black = o.account_white)")
[[ $bad == 0 ]] || fail "$bad rematch rows without their new game (or with colours not swapped)"
made=$(server_db_query "SELECT count(*) FROM games WHERE rematch_game <> ''")
(( made >= 15 )) || fail "only $made rematches in the database"

cli_finish server_rematch
