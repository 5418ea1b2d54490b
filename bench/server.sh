#!/usr/bin/env bash
# Server benchmark: the real `schach serve` on a loopback port against schach_loadgen (bench/server/).
#
#   bench/server.sh [SCHACH_BINARY [LOADGEN_BINARY]]   (defaults: build/schach, build/bench/server/schach_loadgen;
#                                                       `make bench-server` builds both first)
#
# 1. games: GAMES (500) games at once, two WebSocket players each (plus SPECTATORS per game, 0), replaying
#    real games (tests/data/classics.pgn) and random legal lines; after WARMUP (3) seconds it measures
#    DURATION (20) seconds: moves acknowledged (each one committed to SQLite before the ack) and the
#    latency from writing a move to the opponent receiving the new state. Twice: games-max, players answer
#    at once (the most moves per second; latency is then just games / rate), and games-paced, the players
#    together offer RATE (5000) moves per second (the latency at that load).
# 2. conns: CONNS (10000) WebSocket connections subscribed to WATCH_GAMES (10) games, held HOLD (10)
#    seconds; then one move in each game must reach every connection.
# 3. scale: start-up time and memory of a server whose database holds SCALE_GAMES ("0 100000 1000000")
#    finished games (and 50 in play), made by schach_mkgames with PLIES (60) plies a game on average;
#    the databases are kept in SCALE_DIR (default: the run's folder) and reused when they exist.
# 4. idle: the server's memory with IDLE_CONNS ("50000") idle WebSockets subscribed to WATCH_GAMES
#    games (part 2 reports it at 10,000), from several loopback source addresses; needs an open-files
#    limit above that (root raises it here).
# Each part gets a fresh server and database. The database lives in DB_DIR (default: a new folder under
# $TMPDIR or /tmp), which should be on a real disk: the durable commits are part of what is measured.
# ONLY=games, conns, scale or idle runs one part. Prints a markdown table; exit status 1 when a target is missed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schach=${1:-build/schach}
loadgen=${2:-build/bench/server/schach_loadgen}
mkgames=${MKGAMES:-$(dirname "$loadgen")/schach_mkgames}
games=${GAMES:-500}
spectators=${SPECTATORS:-0}
warmup=${WARMUP:-3}
duration=${DURATION:-20}
rate=${RATE:-5000}
conns=${CONNS:-10000}
watch_games=${WATCH_GAMES:-10}
hold=${HOLD:-10}
only=${ONLY:-}
scale_games=${SCALE_GAMES:-0 100000 1000000}
idle_conns=${IDLE_CONNS:-50000}
plies=${PLIES:-60}
# The benchmark loads the server from one machine: the per-address limits of a public server are off.
serve_args=(${SERVE_ARGS---no-limits})
pgn=${PGN:-$here/../tests/data/classics.pgn}

for bin in "$schach" "$loadgen"; do
    [[ -x $bin ]] || { echo "bench/server.sh: $bin is missing (make bench-server builds it)" >&2; exit 2; }
done

# Both processes need one descriptor per connection; the server raises its own limit too. Root may
# raise the hard limit for the 50,000 connections of the idle part.
ulimit -Hn 200000 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

dir=${DB_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/schach-bench.XXXXXX")}
mkdir -p "$dir"
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [[ -n ${DB_DIR:-} ]] || rm -rf "$dir"
}
trap cleanup EXIT

# Starts a server on a fresh database (or on DB when given); sets server_pid, port and start_ms (the
# milliseconds from starting the process to its printed address: it listens once the games are loaded).
start_server() {
    local name=$1 db=${2:-} log="$dir/$1.log"
    if [[ -z $db ]]; then
        db=$dir/$name.db
        rm -f "$db" "$db-wal" "$db-shm"
    fi
    local t0 t1
    t0=$(date +%s%N)
    "$schach" serve --listen 127.0.0.1:0 --db "$db" "${serve_args[@]}" >"$log" 2>&1 &
    server_pid=$!
    port=
    for _ in $(seq 1 20000); do
        port=$(sed -n 's|^schach serve: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log" | head -n1)
        if [[ -n $port ]]; then
            t1=$(date +%s%N)
            start_ms=$(((t1 - t0) / 1000000))
            return 0
        fi
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.005
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

rss_mb() { awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }

if [[ -z $only || $only == scale ]]; then
    [[ -x $mkgames ]] || { echo "bench/server.sh: $mkgames is missing (make bench-server builds it)" >&2; exit 2; }
    scale_dir=${SCALE_DIR:-$dir}
    mkdir -p "$scale_dir"
    for n in $scale_games; do
        db=$scale_dir/finished-$n-p$plies.db
        if [[ ! -f $db ]]; then
            echo "== making $db ($n finished games)"
            "$mkgames" "$db" "$n" 50 "$plies"
        fi
        # Twice, the second with the file in the page cache: the first measures the disk as well.
        for run in cold warm; do
            start_server "scale-$n-$run" "$db"
            rss_start=$(rss_mb "$server_pid")
            curl -fsS "http://127.0.0.1:$port/api/recent" >/dev/null
            rss_recent=$(rss_mb "$server_pid")
            echo "== scale: $n finished games ($(du -h "$db" | cut -f1)), $run: listening after $start_ms ms," \
                "RSS $rss_start MB, after GET /api/recent $rss_recent MB"
            stop_server
        done
        target="-"
        verdict=""
        if ((n >= 1000000)); then
            target="<= 1000 ms"
            if ((start_ms <= 1000)); then verdict=PASS; else verdict=FAIL; status=1; fi
        fi
        rows+=("| Start-up with $n finished games ($(du -h "$db" | cut -f1)), page cache warm: listening after; RSS | $start_ms ms; $rss_recent MB | $target | $verdict |")
    done
fi

if [[ -z $only || $only == idle ]]; then
    for n in $idle_conns; do
        # Each process needs a descriptor per connection; where the hard limit cannot be raised (no
        # CAP_SYS_RESOURCE in a container), measure as many as it allows and say so.
        fit=$(($(ulimit -Hn) - 500))
        if ((n > fit)); then
            echo "== idle: $n connections do not fit the open-files limit $(ulimit -Hn); measuring $fit"
            n=$fit
        fi
        sources=$(((n + 19999) / 20000))
        run_part "idle-$n" conns --conns "$n" --games "$watch_games" --hold "$hold" --sources "$sources"
    done
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
echo
echo "schach serve on loopback, $(nproc) cores ($cpu), shared by the server and the load generator:"
echo
echo "| Measure | Result | Target | |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
