#!/usr/bin/env bash
# schach serve listens only once its games are loaded (issue 10, defect 8): while another process
# holds the database locked, the server cannot load it, and its port must refuse connections.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command python3
source "$(dirname "$0")/../server/server.bash"
server_setup

db=$tmp/x.db
server_start "$db"
server_stop

# Another process takes the database: an exclusive lock, held while $tmp/locked exists.
python3 - "$db" "$tmp/locked" <<'PY' &
import os, sqlite3, sys, time
db, flag = sys.argv[1], sys.argv[2]
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA locking_mode=EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
open(flag, "w").close()
time.sleep(4)
os.remove(flag)  # first the flag, then the lock: a connect seen with the flag there came before release
c.execute("COMMIT")
c.close()
PY
locker=$!
for ((i = 0; i < 1200; i++)); do [ -f "$tmp/locked" ] && break; sleep 0.05; done
[ -f "$tmp/locked" ] || fail "the locking process did not start"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$SCHACH" serve --listen "127.0.0.1:$port" --db "$db" >"$tmp/late.out" 2>"$tmp/late.err" &
late=$!
accepted=0
while [ -f "$tmp/locked" ]; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && [ -f "$tmp/locked" ]; then
        accepted=$((accepted + 1))
    fi
    sleep 0.1
done
wait "$locker"
[ "$accepted" -eq 0 ] || fail "the port accepted $accepted connection(s) while the database could not be loaded"
# Afterwards the server either serves (it waited for the lock) or refused to start with a message
# (waited for up to a minute: a busy machine).
for ((i = 0; i < 1200; i++)); do
    grep -q '^schach serve: http' "$tmp/late.out" && break
    kill -0 "$late" 2>/dev/null || break
    sleep 0.05
done
if kill -0 "$late" 2>/dev/null; then
    kill -TERM "$late"
fi
wait "$late" 2>/dev/null
grep -q "^schach serve: http" "$tmp/late.out" || grep -qi "database" "$tmp/late.err" ||
    fail "the server neither served nor named the database: $(cat "$tmp/late.err")"

cli_finish server_listen
