#!/usr/bin/env bash
# A player's games as one PGN file from schach serve (tests/server/players.mjs): names, Elo, what ended
# each game, oldest first, aborted games left out, unknown names 404; and `schach pgn check` reads both
# languages' files without an error.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node players.mjs "$tmp"
server_stop

for lang in en de; do
    [[ -s $tmp/$lang.pgn ]] || { fail "no $lang.pgn written"; continue; }
    run pgn check --json --lang "$lang" "$tmp/$lang.pgn"
    expect_rc "pgn check $lang" 0
    games=$(jq -s 'length' <<<"$out" 2>/dev/null)
    [[ $games == 5 ]] || fail "pgn check $lang: $games games (want 5): $out"
done

cli_finish server_players
