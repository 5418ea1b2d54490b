#!/usr/bin/env bash
# Server benchmark: the real `schach serve` on a loopback port against schach_loadgen (bench/server/).
#
#   bench/server.sh [SCHACH_BINARY [LOADGEN_BINARY]]   (defaults: build/schach, build/bench/server/schach_loadgen;
#                                                       `make bench-server` builds both first)
#
# 1. games: GAMES (500) games at once, two WebSocket players each (plus SPECTATORS per game, 0), replaying
#    real games (../shared/data/classics.pgn) and random legal lines; after WARMUP (3) seconds it measures
#    DURATION (20) seconds: moves acknowledged (each one committed to SQLite before the ack) and the
#    latency from writing a move to the opponent receiving the new state. Twice: games-max, players answer
#    at once (the most moves per second; latency is then just games / rate), and games-paced, the players
#    together offer RATE (5000) moves per second (the latency at that load).
# 2. conns: CONNS (10000) WebSocket connections subscribed to WATCH_GAMES (10) games, held HOLD (10)
#    seconds; then one move in each game must reach every connection.
# Each part gets a fresh server and database. The database lives in DB_DIR (default: a new folder under
# $TMPDIR or /tmp), which should be on a real disk: the durable commits are part of what is measured.
# ONLY=games or ONLY=conns runs one part. Prints a markdown table; exit status 1 when a target is missed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schach=${1:-build/schach}
loadgen=${2:-build/bench/server/schach_loadgen}
games=${GAMES:-500}
spectators=${SPECTATORS:-0}
warmup=${WARMUP:-3}
duration=${DURATION:-20}
rate=${RATE:-5000}
conns=${CONNS:-10000}
watch_games=${WATCH_GAMES:-10}
hold=${HOLD:-10}
only=${ONLY:-}
pgn=${PGN:-$here/../../shared/data/classics.pgn}

for bin in "$schach" "$loadgen"; do
    [[ -x $bin ]] || { echo "bench/server.sh: $bin is missing (make bench-server builds it)" >&2; exit 2; }
done

# Both processes need one descriptor per connection; the server raises its own limit too.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

dir=${DB_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/schach-bench.XXXXXX")}
mkdir -p "$dir"
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [[ -n ${DB_DIR:-} ]] || rm -rf "$dir"
}
trap cleanup EXIT

# Starts a server on a fresh database; sets server_pid and port.
start_server() {
    local name=$1 log="$dir/$1.log"
    rm -f "$dir/$name.db" "$dir/$name.db-wal" "$dir/$name.db-shm"
    # --no-limits: the load generator is one address creating thousands of games a second.
    "$schach" serve --listen 127.0.0.1:0 --db "$dir/$name.db" --no-limits >"$log" 2>&1 &
    server_pid=$!
    port=
    for _ in $(seq 1 200); do
        port=$(sed -n 's|^schach serve: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log" | head -n1)
        [[ -n $port ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "bench/server.sh: the server did not start:" >&2
    cat "$log" >&2
    exit 2
}

stop_server() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

rows=()
status=0
run_part() { # name, loadgen arguments...
    local name=$1 rc
    shift
    start_server "$name"
    echo "== $name (server pid $server_pid, port $port, database $dir/$name.db)"
    set +e
    "$loadgen" "$@" --port "$port" --server-pid "$server_pid" 2>&1 | tee "$dir/$name.out"
    rc=${PIPESTATUS[0]}
    set -e
    ((rc == 0)) || status=1
    while IFS= read -r line; do rows+=("$line"); done < <(grep '^| ' "$dir/$name.out" || true)
    echo "database after the run: $(du -sh "$dir/$name.db"* 2>/dev/null | awk '{print $1" "$2}' | xargs)"
    stop_server
}

pgn_args=()
[[ -f $pgn ]] && pgn_args=(--pgn "$pgn")
if [[ -z $only || $only == games ]]; then
    run_part games-max games --games "$games" --spectators "$spectators" --warmup "$warmup" --duration "$duration" \
        "${pgn_args[@]}"
    run_part games-paced games --games "$games" --spectators "$spectators" --warmup "$warmup" --duration "$duration" \
        --rate "$rate" "${pgn_args[@]}"
fi
if [[ -z $only || $only == conns ]]; then
    run_part conns conns --conns "$conns" --games "$watch_games" --hold "$hold"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
echo
echo "schach serve on loopback, $(nproc) cores ($cpu), shared by the server and the load generator:"
echo
echo "| Measure | Result | Target | |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
