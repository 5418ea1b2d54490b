#!/usr/bin/env bash
# schach serve and a failing disk: every storage fault gives a clear refusal at start (exit status 1
# and a message that says what to do) or 503 "storage" while running, and nothing acknowledged is
# lost. Covers: the -shm file truncated while running (it was SIGBUS), a second server on the same
# file, a read-only database, an unwritable WAL, bit-rot in a page, a damaged WAL frame and header,
# the database or its WAL deleted while running, and writes failing (file-size limit) and recovering.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
require_command sqlite3

# as_user CMD...: runs CMD as an unprivileged user when we are root (root writes read-only files).
as_user() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
    else
        "$@"
    fi
}

# user_dir NAME: a folder under $tmp that as_user can use; prints its path.
user_dir() {
    local dir=$tmp/$1
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chmod 0711 "$tmp"
        chown 65534:65534 "$dir"
    fi
    echo "$dir"
}

# expect_refusal WHAT PATTERN DB [RUNNER...]: schach serve on DB must exit with status 1 before it
# listens, its message matching PATTERN (grep -E). A server that starts after all is stopped.
expect_refusal() {
    local what=$1 pattern=$2 db=$3
    shift 3
    local out=$tmp/refusal.out errf=$tmp/refusal.err i
    "$@" "$SCHACH" serve --listen 127.0.0.1:0 --db "$db" >"$out" 2>"$errf" &
    local pid=$!
    for ((i = 0; i < 600; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        if grep -q '^schach serve: http' "$out"; then
            kill -9 "$pid"
            break
        fi
        sleep 0.05
    done
    wait "$pid"
    local rc=$?
    [ "$rc" -eq 1 ] || fail "$what: want exit 1, got $rc (stdout: $(cat "$out"); stderr: $(cat "$errf"))"
    grep -Eq "$pattern" "$errf" || fail "$what: message does not match '$pattern': $(cat "$errf")"
}

# wal_frame_offset N: the byte offset of frame N (from 0) of a WAL with 4096-byte pages.
wal_frame_offset() { echo $((32 + $1 * (24 + 4096))); }

# flip DB-FILE OFFSET: inverts one byte.
flip() {
    local byte
    byte=$(od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
    printf "\\$(printf %03o $((byte ^ 0xff)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# halve_moves_cells DB: bit-rot as it was seen: the moves' root page (a leaf while the games are few)
# claims half the cells it holds, so reads return games cut short without an error.
halve_moves_cells() {
    local root off cells half
    root=$(sqlite3 "$1" "SELECT rootpage FROM sqlite_master WHERE name = 'moves'")
    off=$(((root - 1) * 4096 + 3))
    cells=$(od -A n -t u1 -j "$off" -N 2 "$1" | awk '{print $1 * 256 + $2}')
    half=$((cells / 2))
    printf "\\$(printf %03o $((half >> 8)))\\$(printf %03o $((half & 255)))" |
        dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}

# --- The -shm file truncated while the server runs: SIGBUS before; now there is no -shm to map.
server_start "$tmp/shm.db"
run_node faults.mjs play "$tmp/shm.json" 4
truncate -s 0 "$tmp/shm.db-shm"
run_node faults.mjs more "$tmp/shm.json" 4
server_alive || fail "the server died after its -shm file was truncated: $(cat "$SERVER_ERR")"
# --- A second server on the same database is refused while the first one runs.
expect_refusal "second server" "in use by another process" "$tmp/shm.db"
run_node faults.mjs check "$tmp/shm.json"
server_stop
server_start "$tmp/shm.db"
run_node faults.mjs check "$tmp/shm.json"
server_stop

# --- A read-only database file is refused at start (it was accepted, and every write failed).
dir=$(user_dir ro)
server_start "$dir/x.db"
run_node faults.mjs play "$tmp/ro.json" 3
server_stop
chown -R 65534:65534 "$dir" 2>/dev/null
chmod 0444 "$dir/x.db"
expect_refusal "read-only database" "read-only.*writable" "$dir/x.db" as_user
chmod 0644 "$dir/x.db"

# --- An unwritable WAL (left by a crash, holding acknowledged moves) is refused at start.
dir=$(user_dir wal)
server_start "$dir/x.db"
run_node faults.mjs play "$tmp/wal.json" 3
server_kill9
rm -f "$dir/x.db-shm"
chown -R 65534:65534 "$dir" 2>/dev/null
chmod 0444 "$dir/x.db-wal"
expect_refusal "unwritable WAL" "cannot write the database" "$dir/x.db" as_user
chmod 0644 "$dir/x.db-wal"
server_start "$dir/x.db"
run_node faults.mjs check "$tmp/wal.json"
server_stop

# --- Bit-rot in a page (the moves' page claims half its cells): games were served cut short.
server_start "$tmp/rot.db"
run_node faults.mjs play "$tmp/rot.json" 24
server_stop
halve_moves_cells "$tmp/rot.db"
expect_refusal "bit-rot in a page" "damaged \(PRAGMA quick_check.*schach backup" "$tmp/rot.db"

# --- The same database checked in the background (--check-limit 0: a database too large to check
# before listening): the server starts, finds the damage, says so, and from then on refuses writes.
SCHACH_STORE_CHECK_DELAY_MS=1000 server_start "$tmp/rot.db" --check-limit 0
for ((i = 0; i < 600; i++)); do
    grep -q 'storage_damaged' "$SERVER_ERR" && break
    sleep 0.05
done
grep -q 'storage_check_background' "$SERVER_ERR" || fail "no storage_check_background line: $(cat "$SERVER_ERR")"
grep -q 'storage_damaged.*quick_check' "$SERVER_ERR" || fail "background check: no storage_damaged line: $(cat "$SERVER_ERR")"
status=$(curl -s -o "$tmp/bg.json" -w '%{http_code}' -H 'content-type: application/json' \
    -d '{"mode":"friend","color":"white","time":{"type":"none"}}' "$SCHACH_URL/api/games")
[ "$status" = 503 ] && grep -q '"storage"' "$tmp/bg.json" ||
    fail "background check: a new game in a damaged database answered $status $(cat "$tmp/bg.json")"
server_alive || fail "background check: the server died: $(cat "$SERVER_ERR")"
server_stop

# --- Moves lost where no check of the file sees it (rows gone, the pages sound): a finished game
# was served cut short; its row knows its length, so now every read of it fails and says so (a read
# while running answers 503 storage: unit.store, unit.service_storage).
require_command jq
server_start "$tmp/cut.db"
created=$(curl -fsS -H 'content-type: application/json' -d '{"mode":"local","time":{"type":"none"}}' \
    "$SCHACH_URL/api/games")
id=$(jq -r .id <<<"$created")
white=$(jq -r .secrets.white <<<"$created")
black=$(jq -r .secrets.black <<<"$created")
ply=0
for mv in e4 e5 Nf3 Nc6 Bb5 a6; do
    secret=$white
    ((ply % 2)) && secret=$black
    curl -fsS -o /dev/null -H 'content-type: application/json' \
        -d "{\"secret\":\"$secret\",\"ply\":$ply,\"move\":\"$mv\"}" "$SCHACH_URL/api/games/$id/move" ||
        fail "cut: move $mv"
    ply=$((ply + 1))
done
curl -fsS -o /dev/null -H 'content-type: application/json' -d "{\"secret\":\"$white\"}" \
    "$SCHACH_URL/api/games/$id/resign" || fail "cut: resign"
server_stop
sqlite3 "$tmp/cut.db" "DELETE FROM moves WHERE game_id = '$id' AND ply >= 3" || fail "cut: delete"
# Start-up reads it (it is among the recently finished games): the database is refused.
expect_refusal "a finished game cut short" "damaged: game $id has 3 moves stored, but its row was written at ply 6" \
    "$tmp/cut.db"

# --- The same in a database over 64 MB, whose tables are checked in parallel while the server sets up.
sqlite3 "$tmp/bigrot.db" "CREATE TABLE padding (b BLOB);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700)
    INSERT INTO padding SELECT zeroblob(100000) FROM n;" || fail "padding"
server_start "$tmp/bigrot.db"
run_node faults.mjs play "$tmp/bigrot.json" 24
server_stop
halve_moves_cells "$tmp/bigrot.db"
expect_refusal "bit-rot in a large database" "damaged \(PRAGMA quick_check.*schach backup" "$tmp/bigrot.db"
grep -q 'storage_damaged.*quick_check' "$tmp/refusal.err" || fail "no storage_damaged line: $(cat "$tmp/refusal.err")"
rm -f "$tmp/bigrot.db"*

# --- A damaged frame in the WAL with committed transactions after it: they were dropped silently.
server_start "$tmp/frame.db"
run_node faults.mjs play "$tmp/frame.json" 12
server_kill9
rm -f "$tmp/frame.db-shm"
flip "$tmp/frame.db-wal" $(($(wal_frame_offset 3) + 24 + 2000))
expect_refusal "damaged WAL frame" "write-ahead log .* is damaged at frame 4.*committed" "$tmp/frame.db"

# --- A damaged WAL header: SQLite ignored the whole log.
server_start "$tmp/head.db"
run_node faults.mjs play "$tmp/head.json" 6
server_kill9
rm -f "$tmp/head.db-shm"
flip "$tmp/head.db-wal" 17 # in the first salt
expect_refusal "damaged WAL header" "write-ahead log .* is damaged: its header" "$tmp/head.db"

# --- The database deleted while the server runs: writes must fail, not vanish.
server_start "$tmp/gone.db"
run_node faults.mjs play "$tmp/gone.json" 4
rm "$tmp/gone.db"
run_node faults.mjs refused "$tmp/gone.json"
grep -q 'storage_fault.*was deleted' "$SERVER_ERR" || fail "no storage_fault line for the deleted database: $(cat "$SERVER_ERR")"
server_stop

# --- Its WAL deleted while the server runs: the same.
server_start "$tmp/walgone.db"
run_node faults.mjs play "$tmp/walgone.json" 4
rm "$tmp/walgone.db-wal"
run_node faults.mjs refused "$tmp/walgone.json"
server_stop

# --- Writes fail while running (a file-size limit: EFBIG), reads go on, and writes come back by
# themselves once the limit is lifted; nothing acknowledged is lost.
require_command prlimit
server_start "$tmp/full.db"
run_node faults.mjs play "$tmp/full.json" 4
prlimit --pid "$SERVER_PID" --fsize="$(stat -c %s "$tmp/full.db-wal")":unlimited
run_node faults.mjs refused "$tmp/full.json"
server_alive || fail "the server died at the file-size limit: $(cat "$SERVER_ERR")"
grep -q 'storage_fault' "$SERVER_ERR" || fail "no storage_fault line: $(cat "$SERVER_ERR")"
prlimit --pid "$SERVER_PID" --fsize=unlimited:unlimited
run_node faults.mjs more "$tmp/full.json" 3
grep -q 'storage_recovered' "$SERVER_ERR" || fail "no storage_recovered line: $(cat "$SERVER_ERR")"
server_kill9
server_start "$tmp/full.db"
run_node faults.mjs check "$tmp/full.json"
server_stop

cli_finish server_faults
