#!/usr/bin/env bash
# scripts/cluster and deploy/haproxy.cfg, without PostgreSQL: two nodes on SQLite files of their own
# (CLUSTER_DB; no cluster in the sense of shared games, but the same processes, ports, pid files and
# HAProxy). start (twice: the second leaves everything alone), status, round robin through HAProxy,
# /metrics refused there, node-kill (no request fails: the check takes the node out, connection
# failures are retried on the other node), node-start (back in), a node's SIGTERM (it drains), stop
# (twice). The PostgreSQL parts (pg-start, pg-restart) are covered by the cluster tests.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command haproxy
require_command curl
cluster=$(cd "$(dirname "$0")/../.." && pwd)/scripts/cluster

# `schach serve --node` is passed by the script; a binary without it (before it was added) gets a
# shim that drops it, so that the script itself is still tested.
schach=$SCHACH
if ! "$SCHACH" serve --help 2>/dev/null | grep -q -- '--node'; then
    schach=$tmp/schach-shim
    # shellcheck disable=SC2016 # the shim's own code
    printf '#!/usr/bin/env bash\nargs=()\nwhile (($#)); do [[ $1 == --node ]] && { shift 2; continue; }; args+=("$1"); shift; done\nexec %q "${args[@]}"\n' \
        "$SCHACH" >"$schach"
    chmod +x "$schach"
fi

# Four free ports in a row (HAProxy, two nodes, statistics at PORT+3).
free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for ((try = 0; try < 50; try++)); do
    base=$((20000 + (RANDOM % 900) * 10))
    free "$base" && free $((base + 1)) && free $((base + 2)) && free $((base + 3)) && break
done
export CLUSTER_DIR=$tmp/c NODES=2 PORT=$base STATS_PORT=$((base + 3)) SCHACH=$schach CLUSTER_DB=$tmp/c/node%i.db
export SERVE_ARGS=--no-limits
trap '"$cluster" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
front=http://127.0.0.1:$base

# Generous deadlines, for a busy machine: every wait is for a condition.
code() { curl -s -o /dev/null -w '%{http_code}' -m 30 "$@"; }
# server_state I: UP, DOWN, ... of node I on HAProxy's statistics page.
server_state() { curl -s -m 30 "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, -v n="node$1" '$1 == "schach" && $2 == n { print $18 }'; }
wait_state() {
    local i
    for ((i = 0; i < 600; i++)); do
        [[ $(server_state "$1") == "$2"* ]] && return 0
        sleep 0.1
    done
    return 1
}

out=$("$cluster" start 2>&1) || fail "start: $out"
grep -q "^schach cluster: $front/\$" <<<"$out" || fail "start does not print the address: $out"
[[ $(code "$front/healthz") == 200 ]] || fail "HAProxy does not answer /healthz"
out=$("$cluster" start 2>&1) || fail "second start: $out"
[[ $(grep -c 'runs (pid' <<<"$out") == 2 ]] || fail "the second start did not leave the nodes alone: $out"
out=$("$cluster" status) || fail "status is not 0 with everything up: $out"
[[ $(grep -c ' up ' <<<"$out") == 3 ]] || fail "status: $out"
for i in 1 2; do
    grep -qx "    server node$i 127.0.0.1:$((base + i))" "$CLUSTER_DIR/haproxy.cfg" || fail "no server line for node$i"
done
[[ $(grep -c '^    server node[12]-unchecked .* backup no-check$' "$CLUSTER_DIR/haproxy.cfg") == 2 ]] ||
    fail "not one unchecked backup line per node: $(grep server "$CLUSTER_DIR/haproxy.cfg")"
! grep -qE '# cluster: [a-z]+$' "$CLUSTER_DIR/haproxy.cfg" || fail "markers left in the generated config"

# Round robin, /metrics only on the nodes themselves.
for ((i = 0; i < 10; i++)); do [[ $(code "$front/api/levels") == 200 ]] || fail "GET /api/levels through HAProxy"; done
sessions=$(curl -s "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, '$1 == "schach" && $2 ~ /^node/ { print $8 }')
[[ $(grep -c '^[1-9]' <<<"$sessions") == 2 ]] || fail "not both nodes got requests: $sessions"
[[ $(code "$front/metrics") == 404 ]] || fail "/metrics is served through HAProxy"
[[ $(code "http://127.0.0.1:$((base + 1))/metrics") == 200 ]] || fail "/metrics of node1"

# A crash: no request fails, the node is taken out, and comes back in after node-start.
"$cluster" node-kill 1 >/dev/null || fail "node-kill 1"
failed=0
for ((i = 0; i < 60; i++)); do
    [[ $(code "$front/api/levels") == 200 ]] || failed=$((failed + 1))
    sleep 0.05
done
[[ $failed == 0 ]] || fail "$failed of 60 requests failed after a node was killed"
wait_state 1 DOWN || fail "node1 is not taken out: $(server_state 1)"
! "$cluster" status >/dev/null || fail "status is 0 with a node down"
"$cluster" node-start 1 >/dev/null || fail "node-start 1"
wait_state 1 UP || fail "node1 is not back: $(server_state 1)"
! "$cluster" node-kill 3 2>/dev/null || fail "node-kill of a node that does not exist"

# SIGTERM: the node drains and exits; HAProxy goes on with the other one.
kill -TERM "$(<"$CLUSTER_DIR/node2.pid")"
for ((i = 0; i < 600; i++)); do grep -q ' info stop ' "$CLUSTER_DIR/node2.log" && break; sleep 0.1; done
grep -q ' info drained result=ok' "$CLUSTER_DIR/node2.log" || fail "node2 did not drain: $(tail -n 5 "$CLUSTER_DIR/node2.log")"
for ((i = 0; i < 20; i++)); do [[ $(code "$front/api/levels") == 200 ]] || fail "a request after node2 drained"; done
"$cluster" node-start 2 >/dev/null || fail "node-start 2"

out=$("$cluster" stop 2>&1) || fail "stop: $out"
[[ $(grep -c 'stopped' <<<"$out") == 3 ]] || fail "stop: $out"
ls "$CLUSTER_DIR"/*.pid >/dev/null 2>&1 && fail "pid files left: $(ls "$CLUSTER_DIR")"
if ! free "$base" || ! free $((base + 1)) || ! free $((base + 2)); then fail "something still listens after stop"; fi
"$cluster" stop >/dev/null 2>&1 || fail "a second stop fails"
"$cluster" frobnicate >/dev/null 2>&1
[[ $? == 2 ]] || fail "an unknown subcommand is not a usage error"

cli_finish cluster_script
