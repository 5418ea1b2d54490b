#!/usr/bin/env bash
# Cluster benchmark: schach_loadgen against HAProxy in front of 1, 2 and 3 `schach serve` nodes on one
# PostgreSQL (scripts/cluster), and against one node on SQLite (direct, as bench/server.sh) for
# comparison. Measures what a capacity model needs: the rate and latency, and the cost of a move.
#
#   bench/cluster.sh [SCHACH_BINARY [LOADGEN_BINARY]]   (defaults: build/schach,
#                                                        build/bench/server/schach_loadgen;
#                                                        `make bench-cluster` builds both first)
#
# Each setup (SETUPS: "sqlite pg1 pg2 pg3") runs twice (RUNS: "max paced"), each time on a fresh
# cluster and database: max, the players answer at once (the most durable moves per second), and
# paced, the players together offer RATE (5000) moves per second (the latency at that load). GAMES
# (500) games at once, two WebSocket players each, through HAProxy (a game's two players usually on
# two different nodes: a move reaches the opponent through PostgreSQL's NOTIFY); after WARMUP (3) s
# the load generator measures DURATION (20) s. When it starts and ends its window this script reads:
#   - each node's /metrics, directly on the node's port: moves and changes committed, store batches,
#     the NOTIFY lag histogram (its difference: the window's announcements only);
#   - /proc/PID/stat (utime + stime) of the nodes, of every PostgreSQL process and of HAProxy (the
#     load generator reports its own CPU); /proc/stat (the machine's CPU: what other processes used)
#     and /proc/diskstats (the writes of the device under BENCH_DIR, whole machine);
#   - PostgreSQL: pg_stat_database (xact_commit, tup_inserted, tup_updated), pg_current_wal_lsn() and
#     pg_stat_wal (wal_sync: the WAL fsyncs).
# and divides the differences by the moves the nodes committed meanwhile. Prints two markdown tables
# (rate and latency; cost per move). Target: with 3 nodes on PostgreSQL >= 5,000 durable moves/s (max
# run) and p99 <= MAX_P99 (30) ms at RATE moves/s (paced run), no errors; exit status 1 when missed
# (or when a run did not measure).
#
# Everything shares this machine's cores: PostgreSQL, the nodes, HAProxy and the load generator. On a
# machine shared with others, each run waits (at most QUIET_WAIT, 300 s) until the cores are 90% idle,
# and a run during which other processes used more than NOISY (0.2) cores is repeated up to RETRIES (2)
# times; the quietest counts and the table says what the others used when that was over NOISY.
# Folders under BENCH_DIR (default: a new one under $TMPDIR or /tmp, removed at the end; a given one
# is kept with the logs). PORT: the first of the ports used (HAProxy on PORT, node I on PORT+I, the
# statistics on PORT+9); default a free range.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
schach=${1:-build/schach}
loadgen=${2:-build/bench/server/schach_loadgen}
[[ $schach == /* ]] || schach=$PWD/$schach
[[ $loadgen == /* ]] || loadgen=$PWD/$loadgen
games=${GAMES:-500}
warmup=${WARMUP:-3}
duration=${DURATION:-20}
rate=${RATE:-5000}
max_p99=${MAX_P99:-30}
min_moves=${MIN_MOVES:-5000}
setups=${SETUPS:-sqlite pg1 pg2 pg3}
runs=${RUNS:-max paced}
pgn=${PGN:-$here/data/classics.pgn}
cluster=$root/scripts/cluster

for bin in "$schach" "$loadgen"; do
    [[ -x $bin ]] || { echo "bench/cluster.sh: $bin is missing (make bench-cluster builds it)" >&2; exit 2; }
done
for prog in haproxy psql curl python3; do
    command -v "$prog" >/dev/null || { echo "bench/cluster.sh: $prog is missing (scripts/install-deps)" >&2; exit 2; }
done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

dir=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/schach-bench-cluster.XXXXXX")}
mkdir -p "$dir"
# PostgreSQL runs as nobody when we are root (scripts/pg-temp): it must be able to pass through.
chmod 755 "$dir"

# A free range of ports: PORT .. PORT+9.
free_base() {
    python3 - <<'EOF'
import random, socket
for _ in range(200):
    base = random.randrange(20000, 30000, 10)
    socks = []
    try:
        for p in range(base, base + 10):
            s = socket.socket()
            s.bind(("127.0.0.1", p))
            socks.append(s)
        print(base)
        break
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
EOF
}
# The block device under the folder: its writes (the whole machine's) per move.
disk=$(basename "$(df --output=source "$dir" | tail -n1)")
base=${PORT:-$(free_base)}
[[ $base =~ ^[0-9]+$ ]] || { echo "bench/cluster.sh: no free ports" >&2; exit 2; }

server_pid=
cluster_dir=
cluster_env() { env CLUSTER_DIR="$cluster_dir" NODES="$nodes" PORT="$base" STATS_PORT=$((base + 9)) \
    SCHACH="$schach" SERVE_ARGS=--no-limits "$@"; }
lg=""
stop_all() {
    if [[ -n $lg ]]; then
        kill "$lg" 2>/dev/null || true
        wait "$lg" 2>/dev/null || true
        lg=""
    fi
    if [[ -n $server_pid ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=
    fi
    if [[ -n $cluster_dir ]]; then
        cluster_env "$cluster" stop >/dev/null 2>&1 || true
        cluster_dir=
    fi
}
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    stop_all
    [[ -n ${BENCH_DIR:-} ]] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the setup under test ----

# start_setup NAME RUN: sets backend, nodes, front (the port the load generator uses), node_ports,
# node_pids, pg_uri, pg_pids_of (the postmaster's pid), haproxy_pid.
start_setup() {
    local name=$1 run=$2
    node_ports=() node_pids=() pg_uri="" postmaster="" haproxy_pid=""
    if [[ $name == sqlite ]]; then
        backend=sqlite nodes=1
        local log=$dir/$name-$run.log db=$dir/$name-$run.db
        "$schach" serve --listen "127.0.0.1:$((base + 1))" --db "$db" --no-limits >"$log" 2>&1 &
        server_pid=$!
        local t
        for ((t = 0; t < 600; t++)); do
            grep -q "^schach serve: http://127.0.0.1:$((base + 1))/" "$log" && break
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.05
        done
        grep -q "^schach serve: http://" "$log" || { echo "bench/cluster.sh: the server did not start:" >&2; cat "$log" >&2; exit 2; }
        front=$((base + 1)) node_ports=("$front") node_pids=("$server_pid")
    else
        backend=postgresql nodes=${name#pg}
        cluster_dir=$dir/$name-$run
        cluster_env "$cluster" start >"$dir/$name-$run.start.log" 2>&1 || {
            echo "bench/cluster.sh: scripts/cluster start failed:" >&2
            cat "$dir/$name-$run.start.log" >&2
            exit 2
        }
        front=$base
        local i
        for ((i = 1; i <= nodes; i++)); do
            node_ports+=($((base + i)))
            node_pids+=("$(<"$cluster_dir/node$i.pid")")
        done
        pg_uri=$(<"$cluster_dir/pg.uri")
        postmaster=$(head -n1 "$cluster_dir/pg/pgdata/postmaster.pid")
        haproxy_pid=$(<"$cluster_dir/haproxy.pid")
    fi
}

# ---- snapshots ----

# proc_line PID KIND: "KIND ticks" of one process (nothing when it is gone).
proc_line() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    # After "(comm) ": the state, ..., utime the 12th and stime the 13th word (fields 14 and 15).
    local -a f
    read -r -a f <<<"${stat##*) }"
    echo "$2 $((f[11] + f[12]))"
}

# snapshot FOLDER: everything the costs are computed from.
snapshot() {
    local out=$1 i
    mkdir -p "$out"
    for i in "${!node_ports[@]}"; do
        curl -fsS -m 2 "http://127.0.0.1:${node_ports[$i]}/metrics" >"$out/node$((i + 1)).metrics" || true
    done
    {
        for i in "${!node_pids[@]}"; do proc_line "${node_pids[$i]}" node; done
        [[ -z $haproxy_pid ]] || proc_line "$haproxy_pid" haproxy
        if [[ -n $postmaster ]]; then
            proc_line "$postmaster" postgres
            for i in $(ps -o pid= --ppid "$postmaster"); do proc_line "$i" postgres; done
        fi
    } >"$out/procs"
    {
        echo "${node_pids[@]}" "$haproxy_pid" "$postmaster" "$BASHPID"
        [[ -z $postmaster ]] || ps -o pid= --ppid "$postmaster"
        echo "${lg:-}"
    } >"$out/ours"
    head -n1 /proc/stat >"$out/cpu"
    # Every process, to name the others that ran meanwhile (this machine may be shared).
    cat /proc/[0-9]*/stat >"$out/all" 2>/dev/null || true
    awk -v d="$disk" '$3 == d {print $8, $10}' /proc/diskstats >"$out/disk"
    if [[ -n $pg_uri ]]; then
        psql -X -q -tA -F ' ' "$pg_uri" -c "SELECT d.xact_commit, d.tup_inserted, d.tup_updated, d.tup_deleted,
            pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), w.wal_sync, w.wal_write, w.wal_fpi
            FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()" >"$out/pg" || true
    fi
    date +%s.%N >"$out/time"
}

# ---- one run ----

results=$dir/results
: >"$results"
status=0

run_one() { # setup run
    local name=$1 run=$2 out=$dir/$1-$2
    rm -rf "$out".* "$out"
    start_setup "$name" "$run"
    local args=(games --port "$front" --games "$games" --warmup "$warmup" --duration "$duration"
        --min-moves "$min_moves" --max-p99 "$max_p99")
    [[ $run == paced ]] && args+=(--rate "$rate")
    [[ -f $pgn ]] && args+=(--pgn "$pgn")
    echo "== $name, $run: $nodes node(s) on $backend, the load generator on port $front"
    # The load generator in the background; its lines tell when the window starts and ends.
    local fifo=$dir/fifo
    rm -f "$fifo"
    mkfifo "$fifo"
    "$loadgen" "${args[@]}" >"$fifo" 2>&1 &
    lg=$!
    local line
    : >"$out.out"
    while IFS= read -r line; do
        printf '%s\n' "$line" | tee -a "$out.out"
        case $line in
            "measuring "*) snapshot "$out.a" ;;
            "measured "*) snapshot "$out.b" ;;
        esac
    done <"$fifo"
    local rc=0
    wait "$lg" || rc=$?
    lg=""
    rm -f "$fifo"
    stop_all
    [[ -d $out.a && -d $out.b ]] || { echo "bench/cluster.sh: the load generator did not measure (exit $rc)" >&2; status=1; return; }
    python3 - "$name" "$run" "$backend" "$nodes" "$out" "$results" "$(getconf CLK_TCK)" <<'EOF'
import json, re, sys
name, run, backend, nodes, out, results, hz = sys.argv[1:]
nodes, hz = int(nodes), int(hz)

def metrics(path):
    m = {}
    try:
        for line in open(path):
            if line.startswith("#") or not line.strip():
                continue
            key, value = line.rsplit(None, 1)
            m[key] = float(value)
    except FileNotFoundError:
        pass
    return m

def procs(path):
    t = {}
    for line in open(path):
        kind, ticks = line.split()
        t[kind] = t.get(kind, 0) + int(ticks)
    return t

a, b = out + ".a", out + ".b"
ma = [metrics(f"{a}/node{i}.metrics") for i in range(1, nodes + 1)]
mb = [metrics(f"{b}/node{i}.metrics") for i in range(1, nodes + 1)]
def delta(key):
    return sum(y.get(key, 0) - x.get(key, 0) for x, y in zip(ma, mb))
moves = delta("schach_moves_committed_total")
changes = delta("schach_changes_committed_total")
batches = delta("schach_store_batches_total")
commit_sum = delta("schach_store_commit_seconds_sum")
commit_n = delta("schach_store_commit_seconds_count")
lag_n = delta("schach_notify_lag_seconds_count")
lag_sum = delta("schach_notify_lag_seconds_sum")
buckets = []
for key in mb[0] if mb else []:
    m = re.match(r'schach_notify_lag_seconds_bucket\{le="([^"]+)"\}', key)
    if m:
        buckets.append((float("inf") if m.group(1) == "+Inf" else float(m.group(1)), delta(key)))
buckets.sort()

def quantile(q):
    """Prometheus' histogram_quantile: linear within the bucket that holds the q-th sample."""
    if lag_n <= 0:
        return None
    rank, lo, below = q * lag_n, 0.0, 0.0
    for le, cum in buckets:
        if cum >= rank:
            if le == float("inf"):
                return lo
            return lo + (le - lo) * (rank - below) / max(cum - below, 1e-9)
        lo, below = le, cum
    return lo

pa, pb = procs(f"{a}/procs"), procs(f"{b}/procs")
def cpu_us(kind):
    if kind not in pb:
        return None
    return (pb[kind] - pa.get(kind, 0)) / hz * 1e6
secs = float(open(f"{b}/time").read()) - float(open(f"{a}/time").read())
ca = [int(x) for x in open(f"{a}/cpu").read().split()[1:]]
cb = [int(x) for x in open(f"{b}/cpu").read().split()[1:]]
total = sum(cb) - sum(ca)
idle = (cb[3] + cb[4]) - (ca[3] + ca[4])
busy = 100.0 * (total - idle) / total if total else 0
ncpu = sum(1 for line in open("/proc/stat") if re.match(r"cpu\d", line))

disk = [0, 0]
try:
    da = [int(x) for x in open(f"{a}/disk").read().split()]
    db = [int(x) for x in open(f"{b}/disk").read().split()]
    disk = [db[0] - da[0], (db[1] - da[1]) * 512]
except (FileNotFoundError, ValueError, IndexError):
    disk = [None, None]
pg = None
try:
    va = [float(x) for x in open(f"{a}/pg").read().split()]
    vb = [float(x) for x in open(f"{b}/pg").read().split()]
    if len(va) == 8 and len(vb) == 8:
        pg = [y - x for x, y in zip(va, vb)]
except FileNotFoundError:
    pass

# The processes outside the benchmark that used the most CPU in the window.
def all_procs(path):
    t = {}
    try:
        for line in open(path, errors="replace"):
            m = re.match(r"(\d+) \((.*)\) (.*)", line)
            if m:
                f = m.group(3).split()
                t[int(m.group(1))] = (m.group(2), int(f[11]) + int(f[12]))
    except FileNotFoundError:
        pass
    return t
ours = set()
for path in (f"{a}/ours", f"{b}/ours"):
    try:
        ours.update(int(x) for x in open(path).read().split())
    except FileNotFoundError:
        pass
aa, ab = all_procs(f"{a}/all"), all_procs(f"{b}/all")
others = sorted(((ticks - aa.get(pid, (None, 0))[1], comm) for pid, (comm, ticks) in ab.items()
                 if pid not in ours), reverse=True)
others_top = ", ".join(f"{comm} {t / hz / secs:.2f}" for t, comm in others[:3] if t > 0) or "none"

# The load generator's own figures (its window is this one to within the snapshots' few ms).
text = open(out + ".out").read()
m = re.search(r"acknowledged \((\d+)/s\)", text)
acked = float(m.group(1)) if m else 0
m = re.search(r"p50 ([\d.]+) ms, p90 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms", text)
p50, p90, p99, pmax = (float(x) for x in m.groups()) if m else (0, 0, 0, 0)
m = re.search(r"load generator (\d+)%", text)
loadgen_cores = float(m.group(1)) / 100 if m else None
m = re.search(r"errors during the whole run: (\d+)", text)
errors = int(m.group(1)) if m else -1

per = lambda x: None if x is None or moves <= 0 else x / moves
row = dict(name=name, run=run, backend=backend, nodes=nodes, secs=secs, moves=moves, changes=changes,
           rate=acked, node_rate=moves / secs if secs else 0, p50=p50, p90=p90, p99=p99, max=pmax,
           errors=errors, batches=per(batches), commit_ms=commit_sum / commit_n * 1e3 if commit_n else None,
           lag_n=lag_n, lag_mean_ms=lag_sum / lag_n * 1e3 if lag_n else None,
           lag_p50_ms=None if quantile(0.5) is None else quantile(0.5) * 1e3,
           lag_p99_ms=None if quantile(0.99) is None else quantile(0.99) * 1e3,
           node_us=per(cpu_us("node")), pg_us=per(cpu_us("postgres")), haproxy_us=per(cpu_us("haproxy")),
           loadgen_us=None if loadgen_cores is None else per(loadgen_cores * secs * 1e6), busy=busy,
           node_cores=(cpu_us("node") or 0) / 1e6 / secs, pg_cores=(cpu_us("postgres") or 0) / 1e6 / secs,
           haproxy_cores=(cpu_us("haproxy") or 0) / 1e6 / secs,
           others_cores=busy / 100 * ncpu - sum((cpu_us(k) or 0) for k in ("node", "postgres", "haproxy")) / 1e6 / secs
               - (loadgen_cores or 0),
           disk_ios=per(disk[0]), disk_bytes=per(disk[1]))
if pg:
    row.update(xact=per(pg[0]), ins=per(pg[1]), upd=per(pg[2]), dele=per(pg[3]), wal_bytes=per(pg[4]),
               wal_sync=per(pg[5]), wal_write=per(pg[6]), wal_fpi=per(pg[7]))
with open(out + ".row", "w") as f:
    f.write(json.dumps(row) + "\n")
print(f"window {secs:.1f} s: {moves:.0f} moves committed by the nodes ({moves / secs:.0f}/s); machine {busy:.0f}% busy, "
      f"{row['others_cores']:.2f} cores used by other processes (the most: {others_top})")
EOF
    ((rc == 0)) || echo "(the load generator's own verdict: exit $rc)"
}

# wait_quiet: until the machine is at least 90% idle over 2 s, at most QUIET_WAIT (300) s: the
# benchmark needs both cores (on a shared machine, others' builds and tests come and go).
wait_quiet() {
    local waited=0 a b
    while :; do
        a=$(head -n1 /proc/stat)
        sleep 2
        b=$(head -n1 /proc/stat)
        if python3 -c 'import sys; a = [int(x) for x in sys.argv[1].split()[1:]]; b = [int(x) for x in sys.argv[2].split()[1:]]
t = sum(b) - sum(a); sys.exit(0 if t and (b[3] + b[4] - a[3] - a[4]) / t >= 0.9 else 1)' "$a" "$b"; then
            return 0
        fi
        waited=$((waited + 2))
        if ((waited >= ${QUIET_WAIT:-300})); then
            echo "(the machine is busy with other processes; measuring anyway)"
            return 0
        fi
        ((waited % 30)) || echo "(waiting for a quiet machine: other processes use the cores)"
    done
}

# A run during which other processes used more than NOISY (0.2) cores is repeated, up to RETRIES (2)
# times; the quietest one counts (the table names what the others used).
for setup in $setups; do
    for run in $runs; do
        best="" best_noise=""
        for ((try = 0; try <= ${RETRIES:-2}; try++)); do
            wait_quiet
            run_one "$setup" "$run"
            row=$dir/$setup-$run.row
            [[ -f $row ]] || continue
            noise=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["others_cores"])' "$row")
            if [[ -z $best ]] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$noise" "$best_noise"; then
                best=$(<"$row") best_noise=$noise
            fi
            python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$noise" "${NOISY:-0.2}" && break
            ((try < ${RETRIES:-2})) && echo "(other processes used $noise cores meanwhile: once more)"
        done
        [[ -z $best ]] || echo "$best" >>"$results"
    done
done

# ---- the tables ----

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
echo
echo "$games games, two WebSocket players each; $(nproc) cores ($cpu) shared by PostgreSQL, the nodes,"
echo "HAProxy and the load generator; PostgreSQL: fsync and synchronous_commit on."
python3 - "$results" "$rate" "$max_p99" "$min_moves" <<'EOF' || status=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rate, max_p99, min_moves = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])

def f(x, fmt="{:,.0f}"):
    return "-" if x is None else fmt.format(x)

def setup(r):
    return "1 node, SQLite (direct)" if r["backend"] == "sqlite" else \
        f"{r['nodes']} node{'s' if r['nodes'] > 1 else ''}, PostgreSQL, HAProxy"

print()
print("| Setup | Run | Durable moves/s | Move sent → opponent has it, p50 / p90 / p99 / max | NOTIFY lag mean / p50 / p99 | Errors | Target | |")
print("|---|---|---|---|---|---|---|---|")
ok = True
for r in rows:
    target, verdict = "-", ""
    lag = "-" if not r["lag_n"] else \
        f"{r['lag_mean_ms']:.2f} / {r['lag_p50_ms']:.2f} / {r['lag_p99_ms']:.1f} ms"
    if r["backend"] == "postgresql" and r["nodes"] == 3:
        if r["run"] == "max":
            target = f"≥ {min_moves:,.0f}/s"
            good = r["rate"] >= min_moves and r["errors"] == 0
        else:
            target = f"p99 ≤ {max_p99:.0f} ms at {rate:,.0f}/s"
            good = r["rate"] >= 0.99 * rate and r["p99"] <= max_p99 and r["errors"] == 0
        verdict = "PASS" if good else "FAIL"
        ok = ok and good
    run = "max" if r["run"] == "max" else f"paced {rate:,.0f}/s"
    if r["others_cores"] > 0.2:
        run += f" (other processes used {r['others_cores']:.1f} cores)"
    print(f"| {setup(r)} | {run} | {r['rate']:,.0f}/s | {r['p50']:.2f} / {r['p90']:.2f} / {r['p99']:.2f} / {r['max']:.1f} ms "
          f"| {lag} | {r['errors']} | {target} | {verdict} |")

print()
print("Costs per committed move (the window's differences divided by the moves the nodes committed; CPU in")
print("µs of one core; \"cores\" is the average use over the window):")
print()
print("| Setup | Run | Node CPU | PostgreSQL CPU | HAProxy CPU | Load generator CPU | Machine busy (others) | Store batches (commits) | PG xact_commit | WAL bytes | WAL fsyncs | Tuples ins / upd | Device writes |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    run = "max" if r["run"] == "max" else f"paced {rate:,.0f}/s"
    print(f"| {setup(r)} | {run} | {f(r['node_us'])} µs ({r['node_cores']:.2f} cores) "
          f"| {f(r['pg_us']) + ' µs' if r.get('pg_us') is not None else '-'}"
          f"{' (%.2f cores)' % r['pg_cores'] if r.get('pg_us') is not None else ''} "
          f"| {f(r['haproxy_us']) + ' µs' if r.get('haproxy_us') is not None else '-'} "
          f"| {f(r['loadgen_us'])} µs | {r['busy']:.0f}% ({r['others_cores']:.2f} cores) "
          f"| {f(r['batches'], '{:.3f}')} (commit {f(r['commit_ms'], '{:.2f}')} ms) "
          f"| {f(r.get('xact'), '{:.3f}')} | {f(r.get('wal_bytes'))} | {f(r.get('wal_sync'), '{:.3f}')} "
          f"| {f(r.get('ins'), '{:.2f}')} / {f(r.get('upd'), '{:.2f}')} | {f(r['disk_ios'], '{:.3f}')} I/Os, {f(r['disk_bytes'])} B |")
sys.exit(0 if ok else 1)
EOF
exit $status
