#!/usr/bin/env bash
# schach serve against an attacker's requests (tests/server/attack.mjs): malformed framing changes
# nothing, HEAD has no body, static files only by GET/HEAD and only inside the web folder. Afterwards
# the database holds exactly the games the test created on purpose.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

web=$tmp/web
mkdir -p "$web/node_modules/@lichess-org/chessground" "$tmp/outside"
echo '<!DOCTYPE html><html><body>schach-attack-test</body></html>' >"$web/index.html"
echo 'top secret' >"$tmp/outside/secret.txt"
ln -s "$tmp/outside/secret.txt" "$web/outside.txt"
ln -s "$tmp/outside" "$web/outdir"
ln -s "$tmp/outside/secret.txt" "$web/node_modules/@lichess-org/chessground/outside.txt"
ln -s index.html "$web/inside-link.html"

server_start "$tmp/x.db" --web "$web"
ATTACK_SYMLINKS=1 GAMES_FILE=$tmp/games run_node attack.mjs
server_stop

want=$(cat "$tmp/games" 2>/dev/null || echo missing)
have=$(server_db_query 'SELECT count(*) FROM games')
[ "$have" = "$want" ] || fail "the database holds $have games, the test created $want on purpose"

cli_finish server_attack
