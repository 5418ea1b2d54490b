#!/usr/bin/env bash
# schach db copy: a site's games move from its SQLite file to PostgreSQL (a real one, started here on
# loopback) and to another SQLite file: every game in play or finished, its moves and their times, its
# row (result, clocks, secrets' hashes) — and the copied site serves them, links and all. A second run
# copies nothing twice; bad arguments are usage errors that change nothing.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
require_command psql
root=$(cd "$(dirname "$0")/../.." && pwd)

# A site with a finished game, a game in play with a live clock, and a game nobody joined.
server_start "$tmp/site.db" --public-url http://schach.test  # one [Site] for both sites' PGN
run_node db_copy.mjs make "$tmp/site.json"
server_stop

pgdir=$(mktemp -d /tmp/schach-dbcopy-XXXXXX)
chmod 755 "$pgdir"
trap 'server_cleanup; bash "$root/scripts/pg-temp" stop "$pgdir" >/dev/null 2>&1; rm -rf "$pgdir" "$tmp"' EXIT
uri=$(bash "$root/scripts/pg-temp" start "$pgdir") || { fail "pg-temp start"; cli_finish db_copy; }

run db copy --from "$tmp/site.db" --to "$uri"
expect_rc "copy to PostgreSQL" 0
grep -q "3 games with" <<<"$out" || fail "copy to PostgreSQL: $out"
run db copy --from "sqlite:$tmp/site.db" --to "$uri"
expect_rc "second copy" 0
grep -q "0 games with 0 moves copied, 3 already there" <<<"$out" || fail "second copy: $out"
run db copy --from "$uri" --to "$tmp/back.db"
expect_rc "copy back to SQLite" 0
grep -q "3 games with" <<<"$out" || fail "copy back: $out"

# The rows and moves are the same in all three databases (ids, moves with their times, results, hashes).
dump_sqlite() {
    sqlite3 "$1" "SELECT id, result, termination, clock_white_ms, clock_black_ms, turn_started_ms,
                  hex(secret_hash_white), hex(coalesce(secret_hash_black, '')), invite_color FROM games ORDER BY id;
                  SELECT game_id, ply, uci, at_ms FROM moves ORDER BY game_id, ply;"
}
a=$(dump_sqlite "$tmp/site.db")
b=$(psql -X -A -t -q "$uri" -c "SELECT id, result, termination, clock_white_ms, clock_black_ms, turn_started_ms,
        upper(encode(secret_hash_white, 'hex')), upper(encode(coalesce(secret_hash_black, ''), 'hex')), invite_color
        FROM games ORDER BY id" -c "SELECT game_id, ply, uci, at_ms FROM moves ORDER BY game_id, ply")
c=$(dump_sqlite "$tmp/back.db")
[ "$a" = "$b" ] || fail "PostgreSQL holds other rows than the SQLite site: $(diff <(echo "$a") <(echo "$b") | head -20)"
[ "$a" = "$c" ] || fail "the copy back differs: $(diff <(echo "$a") <(echo "$c") | head -20)"

# The copied site serves the games: states, PGN, the players' secrets and the invitation still work.
server_start "$uri" --public-url http://schach.test
run_node db_copy.mjs check "$tmp/site.json"
server_stop

# Usage errors change nothing.
run db copy --from "$tmp/site.db"
expect_rc "no --to" 2
run db copy --from "$tmp/site.db" --to "sqlite:$tmp/site.db"
expect_rc "the same database" 2
run db copy --from "$tmp/missing/none.db" --to "$tmp/x.db"
[ "$rc" -ne 0 ] || fail "a source that cannot be opened copies nothing: $out"
run db copy --from "$tmp/site.db" --to "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"
expect_rc "unreachable PostgreSQL" 1
n=$(psql -X -A -t -q "$uri" -c "SELECT count(*) FROM games")
[ "$n" = 3 ] || fail "PostgreSQL has $n games after the refused runs"

cli_finish db_copy
