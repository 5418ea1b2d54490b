#!/usr/bin/env bash
# schach serve as a command: help, option errors, the default data folder, clean stop on SIGTERM
# and SIGINT, a port in use.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

run serve --help
expect_rc "serve --help" 0
grep -q -- "--listen" <<<"$out" || fail "serve --help: $out"
run --lang de serve --help
grep -q "Aufruf: schach serve" <<<"$out" || fail "--lang de serve --help: $out"
run serve --listen nonsense
expect_rc "--listen nonsense" 2
run serve --listen 127.0.0.1:70000
expect_rc "--listen port out of range" 2
run serve --bogus
expect_rc "unknown option" 2
run serve --db
expect_rc "--db without value" 2
run serve --listen 127.0.0.1:0 --db "$tmp/x.db" --web "$tmp/no-such-folder"
expect_rc "missing web folder" 1

# Without --db the database goes to $XDG_DATA_HOME/schach/schach.db (the folder is created).
export XDG_DATA_HOME=$tmp/xdg
"$SCHACH" serve --listen 127.0.0.1:0 >"$tmp/s.out" 2>"$tmp/s.err" &
SERVER_PID=$!
SERVER_ERR=$tmp/s.err
for ((i = 0; i < 600; i++)); do
    grep -q '^schach serve: http://127\.0\.0\.1:[0-9]*/$' "$tmp/s.out" && break
    sleep 0.05
done
grep -q '^schach serve: http://127\.0\.0\.1:[1-9][0-9]*/$' "$tmp/s.out" || fail "URL with the chosen port: $(cat "$tmp/s.out")"
[ -f "$tmp/xdg/schach/schach.db" ] || fail "no database in \$XDG_DATA_HOME/schach"
port=$(sed -n 's/^schach serve: http:\/\/127\.0\.0\.1:\([0-9]*\)\/$/\1/p' "$tmp/s.out")
# The same port again: an error, not a crash.
run serve --listen "127.0.0.1:$port" --db "$tmp/z.db"
expect_rc "port in use" 1
grep -q "$port" <<<"$err" || fail "port in use: $err"
kill -INT "$SERVER_PID"
wait "$SERVER_PID"
rc=$?
SERVER_PID=
[ "$rc" -eq 0 ] || fail "SIGINT: exit $rc: $(cat "$tmp/s.err")"

# SIGTERM while clients hold connections: still a clean exit.
server_start "$tmp/x.db"
SCHACH_URL=$SCHACH_URL node -e '
  const ws = new (require(process.argv[1]))(process.env.SCHACH_URL.replace("http", "ws") + "ws", "schach");
  ws.on("open", () => { console.log("open"); process.exit(0); });
  ws.on("error", (e) => { console.error(e); process.exit(1); });
' "$(dirname "$0")/../server/node_modules/ws" || fail "WebSocket did not open"
server_stop

cli_finish server_cli
