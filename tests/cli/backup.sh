#!/usr/bin/env bash
# schach backup --db PATH FILE: an online, consistent copy while the server runs and games are played
# (made by the server over its socket), a direct copy when no server runs, and FILE is the complete
# new copy or untouched, also when the server or the backup is killed (kill -9) in the middle.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
require_command sqlite3

# usable FILE WHAT: FILE is a sound database (integrity_check says ok).
usable() {
    local check
    check=$(sqlite3 "$1" "PRAGMA integrity_check" 2>&1)
    [ "$check" = ok ] || fail "$2: $1 is not a sound database: $check"
}

# wait_for_tmp FILE: waits (at most 30 s) until a temporary FILE.tmp-* exists; false if none came.
wait_for_tmp() {
    local i
    for ((i = 0; i < 3000; i++)); do
        compgen -G "$1.tmp-*" >/dev/null && return 0
        sleep 0.01
    done
    return 1
}

# --- Usage and a missing database.
run backup
expect_rc "no arguments" 2
run backup --db "$tmp/none.db" "$tmp/b.db"
expect_rc "missing database" 1
grep -q "no database at $tmp/none.db" <<<"$err" || fail "missing database: message: $err"
[ ! -e "$tmp/b.db" ] || fail "missing database: $tmp/b.db was created"
run --lang de backup --help
expect_rc "help" 0
grep -q "Wiederherstellen" <<<"$out" || fail "German help: $out"

# --- While the server runs and games are played: the copy holds every move acknowledged before it.
# The database carries 40 MB of padding, so a copy takes long enough to be killed in the middle.
sqlite3 "$tmp/x.db" "CREATE TABLE padding (b BLOB);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
    INSERT INTO padding SELECT zeroblob(100000) FROM n;" || fail "padding"
server_start "$tmp/x.db"
run_node faults.mjs play "$tmp/games.json" 20
cp "$tmp/games.json" "$tmp/before.json"
node "$SERVER_TEST_DIR/faults.mjs" more "$tmp/games.json" 40 >/dev/null 2>"$tmp/more.err" &
more_pid=$!
run backup --db "$tmp/x.db" "$tmp/b.db"
expect_rc "backup while playing" 0
wait "$more_pid" || fail "moves during the backup: $(cat "$tmp/more.err")"
[ ! -e "$tmp/x.db.sock" ] || [ "$(stat -c %a "$tmp/x.db.sock")" = 600 ] || fail "the socket is not owner-only"
grep -q 'info backup' "$SERVER_ERR" || fail "no backup line in the server's log: $(cat "$SERVER_ERR")"
usable "$tmp/b.db" "backup while playing"
run_node faults.mjs check "$tmp/games.json"

# --- kill -9 of the server in the middle of a backup: FILE is the previous backup, still sound.
cp "$tmp/b.db" "$tmp/b.previous"
"$SCHACH" backup --db "$tmp/x.db" "$tmp/b.db" >/dev/null 2>"$tmp/killed.err" &
backup_pid=$!
wait_for_tmp "$tmp/b.db" || echo "note: the copy ended before it could be interrupted" >&2
server_kill9
wait "$backup_pid"
rc=$?
if [ "$rc" -ne 0 ]; then
    cmp -s "$tmp/b.db" "$tmp/b.previous" || fail "an interrupted backup changed $tmp/b.db"
    grep -q "unchanged" "$tmp/killed.err" || fail "interrupted backup: message: $(cat "$tmp/killed.err")"
else
    echo "note: the backup was done before the server was killed" >&2
fi
usable "$tmp/b.db" "server killed during a backup"
server_start "$tmp/x.db"
run_node faults.mjs check "$tmp/games.json"
server_stop

# --- No server: the copy is made directly; kill -9 of schach backup in the middle leaves FILE alone.
run backup --db "$tmp/x.db" "$tmp/direct.db"
expect_rc "direct backup" 0
usable "$tmp/direct.db" "direct backup"
cp "$tmp/direct.db" "$tmp/direct.previous"
"$SCHACH" backup --db "$tmp/x.db" "$tmp/direct.db" >/dev/null 2>&1 &
backup_pid=$!
wait_for_tmp "$tmp/direct.db" || echo "note: the copy ended before it could be interrupted" >&2
kill -9 "$backup_pid" 2>/dev/null
wait "$backup_pid" 2>/dev/null
[ $? -eq 137 ] || echo "note: the direct backup was done before it was killed" >&2
cmp -s "$tmp/direct.db" "$tmp/direct.previous" || usable "$tmp/direct.db" "direct backup killed (completed)"
usable "$tmp/direct.db" "direct backup killed"

# --- The backups open as the server's database with every acknowledged move of before the copy.
for copy in b.db direct.db; do
    cp "$tmp/$copy" "$tmp/restored.db"
    server_start "$tmp/restored.db"
    run_node faults.mjs check-min "$tmp/before.json"
    server_stop
    rm -f "$tmp/restored.db"*
done
# The direct copy was made with no server running: it holds everything.
server_start "$tmp/direct.db"
run_node faults.mjs check "$tmp/games.json"
server_stop

cli_finish backup
