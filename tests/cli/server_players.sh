#!/usr/bin/env bash
# A player's games as one PGN file from schach serve (tests/server/players.mjs): names, Elo, what ended
# each game, oldest first, aborted games left out, unknown names 404; the export as lichess writes it
# ([Site] from --public-url, the standard's Termination, UTCDate/UTCTime, TimeControl, rating changes,
# [%clk]; one blank line between games); `schach pgn check` reads both languages' files without an
# error and chessops (tests/oracle/pgn_export_check.mjs) the English one. A bad --public-url is refused.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

for bad in ftp://example.org http:// 'https://a b' 'https://x"y'; do
    run serve --public-url "$bad" --db "$tmp/never.db"
    expect_rc "serve --public-url $bad" 2
done
export PUBLIC_URL=https://schach.example.org
server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}" --public-url "$PUBLIC_URL/"
run_node players.mjs "$tmp"
server_stop

for lang in en de; do
    [[ -s $tmp/$lang.pgn ]] || { fail "no $lang.pgn written"; continue; }
    run pgn check --json --lang "$lang" "$tmp/$lang.pgn"
    expect_rc "pgn check $lang" 0
    games=$(jq -s 'length' <<<"$out" 2>/dev/null)
    [[ $games == 5 ]] || fail "pgn check $lang: $games games (want 5): $out"
done
# shellcheck source=../oracle/setup.sh source-path=SCRIPTDIR
source "$(dirname "$0")/../oracle/setup.sh"
if oracle_setup && [[ -s $tmp/en.pgn ]]; then
    node "$ORACLE_DIR/pgn_export_check.mjs" "$tmp/en.pgn" 5 || fail "chessops does not read the exported PGN"
else
    fail "chessops: no oracle or no en.pgn"
fi

cli_finish server_players
