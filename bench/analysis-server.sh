#!/usr/bin/env bash
# The server's game analyses under load (issue 23): GAMES (100) finished games of about PLIES (80)
# plies, all asked for at once (POST /api/games/{id}/analysis) from a server with WORKERS (1) analysis
# workers at the default node budget; bench/analysis-server/queue.mjs prints the answers (202 and the
# places in the queue, 503 beyond it), how long until every analysis is done, the positions per
# second per worker on the server, and a live game's move latency (p50/p99) while the workers run.
#
#   bench/analysis-server.sh [SCHACH_BINARY [MKGAMES_BINARY]]   (defaults: build/schach,
#                                                               build/bench/server/schach_mkgames)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schach=$(realpath "${1:-build/schach}")
mkgames=$(realpath "${2:-build/bench/server/schach_mkgames}")
games=${GAMES:-100}
plies=${PLIES:-80}
workers=${WORKERS:-1}
for bin in "$schach" "$mkgames"; do
    [[ -x $bin ]] || { echo "bench/analysis-server.sh: $bin is missing (make; make bench-server builds mkgames)" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "bench/analysis-server.sh: needs sqlite3" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/schach-analysis.XXXXXX")
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$mkgames" "$work/a.db" "$games" 0 "$plies" >&2
sqlite3 "$work/a.db" "SELECT id FROM games WHERE result <> '' ORDER BY id" >"$work/ids"
"$schach" serve --listen 127.0.0.1:0 --db "$work/a.db" --no-limits --analysis-workers "$workers" \
    >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=
for _ in $(seq 3000); do
    url=$(sed -n 's/^schach serve: \(http:[^ ]*\)$/\1/p' "$work/server.out")
    [[ -n $url ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
[[ -n $url ]] || { echo "bench/analysis-server.sh: the server did not start: $(tail -5 "$work/server.err")" >&2; exit 1; }
echo "schach $("$schach" --version 2>/dev/null | head -1), $games games of about $plies plies, $workers worker(s), $(nproc) cores"
echo
node "$here/analysis-server/queue.mjs" "$url" "$work/ids" "$workers"
