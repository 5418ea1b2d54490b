# shellcheck shell=bash
# Sourced by tests/cli/cluster_*.sh after lib/common.bash, cli_init, tests/server/server.bash and
# server_setup: a real cluster on loopback with scripts/cluster — PostgreSQL (scripts/pg-temp), three
# `schach serve` nodes and HAProxy on free ports chosen now, everything in $tmp — stopped when the test
# script exits, also on a failure.
#
#   cluster_start   starts it; exports for the node scripts CLUSTER (the script), CLUSTER_DIR, NODES,
#                   PORT, STATS_PORT, SCHACH, SCHACH_URL (HAProxy), CLUSTER_NODE_URLS (the nodes, one
#                   URL each, space separated), PG_URI and PG_TEMP (the script that runs PostgreSQL)
CLUSTER=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/scripts/cluster

cluster_cleanup() {
    if [ -n "${CLUSTER_DIR:-}" ] && [ -d "$CLUSTER_DIR" ]; then
        # A PostgreSQL that a test stopped and left down is no reason to keep the nodes waiting.
        "$CLUSTER" stop >"$tmp/cluster-stop.log" 2>&1 || cat "$tmp/cluster-stop.log" >&2
    fi
    rm -rf "$tmp"
}

# cluster_logs: the last lines of every part's log, for a failure message.
cluster_logs() {
    local f
    for f in "$CLUSTER_DIR"/node*.log "$CLUSTER_DIR/pg/postgres.log"; do
        [ -f "$f" ] || continue
        echo "--- $(basename "$f")"
        tail -n 15 "$f"
    done
}

cluster_start() {
    require_command haproxy
    require_command psql
    require_command pg_isready
    require_command curl
    # PostgreSQL runs as nobody when we are root (scripts/pg-temp): it must pass through $tmp.
    chmod 711 "$tmp"
    # Five free ports in a row: HAProxy, three nodes, HAProxy's statistics page. Below the ephemeral
    # range (32768 and up): a port the nodes' own connections to PostgreSQL use could not be bound.
    local try base=
    free_port() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
    for ((try = 0; try < 100; try++)); do
        base=$((20000 + (RANDOM % 1200) * 10))
        free_port "$base" && free_port $((base + 1)) && free_port $((base + 2)) && free_port $((base + 3)) &&
            free_port $((base + 4)) && break
        base=
    done
    [ -n "$base" ] || { echo "FAIL: no five free ports in a row on 127.0.0.1" >&2; exit 1; }
    export CLUSTER CLUSTER_DIR=$tmp/c NODES=3 PORT=$base STATS_PORT=$((base + 4)) SCHACH
    export PG_TEMP=${CLUSTER%/cluster}/pg-temp
    # Behind HAProxy on loopback every client is 127.0.0.1: the per-address limits would count all of
    # the test's players as one.
    export SERVE_ARGS=--no-limits
    trap cluster_cleanup EXIT
    local out
    if ! out=$("$CLUSTER" start 2>&1); then
        echo "FAIL: scripts/cluster start: $out" >&2
        cluster_logs >&2
        exit 1
    fi
    export SCHACH_URL=http://127.0.0.1:$base/
    export CLUSTER_NODE_URLS="http://127.0.0.1:$((base + 1))/ http://127.0.0.1:$((base + 2))/ http://127.0.0.1:$((base + 3))/"
    PG_URI=$(<"$CLUSTER_DIR/pg.uri")
    export PG_URI
}
