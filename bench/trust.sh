#!/usr/bin/env bash
# The accounts' reads at scale and under one address's load (issue "A site strangers can trust"):
# a database of GAMES (1,000,000) finished games among ACCOUNTS (10,000) accounts, one of which
# (player00000) has played 10,000 of them; then the real `schach serve` with its default limits, and
# bench/trust/measure.mjs: p50/p99 of the player page (first, deep and past-the-end pages), /api/me,
# the seek list and the 10,000-game PGN export, and a visitor's login (target: within 1 s, every time)
# while one other address holds 64 heavy reads in flight.
#
#   bench/trust.sh [SCHACH_BINARY [MKGAMES_BINARY]]   (defaults: build/schach, build/bench/server/schach_mkgames)
#
# Games name their players by the account's name as written (here the same as its key).
# The database is made once in DB (default: $TMPDIR/schach-trust-GAMES.db) and reused when it exists.
# Prints markdown tables; exit status 1 when a login took longer than 1 s or failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schach=$(realpath "${1:-build/schach}")
mkgames=$(realpath "${2:-build/bench/server/schach_mkgames}")
games=${GAMES:-1000000}
accounts=${ACCOUNTS:-10000}
heavy_games=${HEAVY_GAMES:-10000}
plies=${PLIES:-40}
db=${DB:-${TMPDIR:-/tmp}/schach-trust-$games.db}
password=bench-password-1
for bin in "$schach" "$mkgames"; do
    [[ -x $bin ]] || { echo "bench/trust.sh: $bin is missing (make build; make bench-server builds mkgames)" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "bench/trust.sh: needs sqlite3" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/schach-trust.XXXXXX")
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

start_server() {
    "$schach" serve --listen 127.0.0.1:0 --db "$db" >"$work/server.out" 2>"$work/server.err" &
    server_pid=$!
    local url=
    for _ in $(seq 3000); do
        url=$(sed -n 's/^schach serve: \(http:[^ ]*\)$/\1/p' "$work/server.out")
        [[ -n $url ]] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    [[ -n $url ]] || { echo "bench/trust.sh: the server did not start: $(tail -5 "$work/server.err")" >&2; exit 1; }
    port=${url##*:}
    port=${port%%/*}
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=; }

if [[ ! -s $db ]]; then
    echo "making $db: $games finished games of $plies plies on average, $accounts accounts ..." >&2
    start=$(date +%s)
    "$mkgames" "$db.tmp" "$games" 0 "$plies" >&2
    mv "$db.tmp" "$db"
    # One real sign-up through the server gives the password hash every bench account shares.
    start_server
    curl -sf -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"username\":\"visitor01\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/accounts" ||
        { echo "bench/trust.sh: the sign-up failed" >&2; exit 1; }
    stop_server
    sqlite3 "$db" <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $accounts)
INSERT INTO accounts (key, name, password_hash, created_ms, skeleton)
SELECT printf('player%05d', i), printf('player%05d', i),
       (SELECT password_hash FROM accounts WHERE key = 'visitor01'), 1700000000000,
       replace(printf('player%05d', i), '0', 'o') FROM n;
UPDATE games SET account_white = printf('player%05d', rowid % $accounts),
                 account_black = printf('player%05d', (rowid % $accounts + 1 + (rowid / $accounts) % ($accounts - 1)) % $accounts),
                 rated = 1, rating_white = 1500, rating_black = 1500;
UPDATE games SET account_white = 'player00000', account_black = 'player00001' WHERE rowid <= $heavy_games;
COMMIT;
ANALYZE;
SQL
    echo "made in $(( $(date +%s) - start )) s" >&2
fi

start_server
echo "schach $("$schach" --version 2>/dev/null | head -1), $games finished games, $accounts accounts, player00000 with $heavy_games+ games"
echo
node "$here/trust/measure.mjs" "$port" player00000 visitor01 "$password"
