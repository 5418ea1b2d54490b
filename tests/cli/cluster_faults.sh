#!/usr/bin/env bash
# Faults of the cluster of issue 12, each in the middle of a game played to the end
# (tests/server/cluster_faults.mjs, on PostgreSQL, three nodes and HAProxy started by scripts/cluster on
# free loopback ports): kill -9 of a node (the players go on through HAProxy, every acknowledged move
# is there), PostgreSQL stopped and held down (503 storage as JSON everywhere, /healthz 503, nothing
# half done; then everything resumes and nothing acknowledged is lost), SIGTERM of a node with a move
# in its store (the move is answered, its WebSocket gets Close 1001 and reconnects through HAProxy to
# another node with the full state, no request through HAProxy fails).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup
source "$(dirname "$0")/lib/cluster.bash"
cluster_start

run_node cluster_faults.mjs
out=$("$CLUSTER" status) || fail "not every part of the cluster runs again at the end: $out"
((failures)) && cluster_logs >&2

cli_finish cluster_faults
