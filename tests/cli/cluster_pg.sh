#!/usr/bin/env bash
# The cluster of issue 12 for real: PostgreSQL (scripts/pg-temp), three `schach serve --db
# postgresql://… --node NAME` nodes and HAProxy (deploy/haproxy.cfg), started by scripts/cluster on free
# loopback ports (tests/cli/lib/cluster.bash), driven by tests/server/cluster.mjs: a whole game with
# every kind of move played across three nodes (each side sees every move over WebSocket, every node
# and HAProxy agree on the state and PGN at the end); the same ply sent to two nodes at once is played
# once (a repeat, or 409 stale_ply; one row per ply in PostgreSQL); a live clock runs out while three
# nodes hold the game and it ends once. Unit tests cover the parts one at a time; this is where they
# meet: NOTIFY, the rev check and the timers across processes.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
source "$(dirname "$0")/lib/cluster.bash"
# The seeks of a dead node leave the lobby after 8 s here (40 s on a real site): tests/server/cluster.mjs.
export SCHACH_LOBBY_NODE_DEADLINE_MS=8000
cluster_start

run_node cluster.mjs
for i in 1 2 3; do
    # A node that logged a storage fault or died meanwhile is a failure even when every check passed.
    grep -E ' (error|warn) (storage_fault|storage_listen_fault|resync_failed) ' "$CLUSTER_DIR/node$i.log" &&
        fail "node$i logged a storage fault"
done
out=$("$CLUSTER" status) || fail "not every part of the cluster runs at the end: $out"
((failures)) && cluster_logs >&2

cli_finish cluster_pg
