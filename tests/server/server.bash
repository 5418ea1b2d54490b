# shellcheck shell=bash
# Sourced by tests/cli/server_*.sh after tests/cli/lib/common.bash and cli_init: installs the pinned
# ws package (npm ci) when it is missing, starts the real `schach serve` on a free loopback port
# and stops it again. Every started server is killed when the test script exits.
SERVER_TEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SERVER_PID=
SERVER_RUNS=0
# "--no-limits" when the binary knows it (tests run against older binaries too, to see them fail).
SERVER_NO_LIMITS=()
# A command that runs the server (e.g. (prlimit --nofile=256:256 --)); it must exec it, so that
# SERVER_PID is the server's.
SERVER_WRAP=()

server_setup() {
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        echo "FAIL: the server tests need node (18 or newer) and npm (scripts/install-deps installs them)" >&2
        exit 1
    fi
    if [ ! -f "$SERVER_TEST_DIR/node_modules/ws/package.json" ]; then
        # Several server tests may start at once under ctest -j: the lock serialises the install.
        # shellcheck disable=SC2094 # fd 9 only holds the lock on the folder
        (
            flock 9
            if [ ! -f "$SERVER_TEST_DIR/node_modules/ws/package.json" ]; then
                npm ci --prefix "$SERVER_TEST_DIR" --no-audit --no-fund --loglevel=error >&2
            fi
        ) 9<"$SERVER_TEST_DIR" || {
            echo "FAIL: npm ci in $SERVER_TEST_DIR failed (is the npm registry reachable?)" >&2
            exit 1
        }
    fi
    trap 'server_cleanup; rm -rf "$tmp"' EXIT
    if "$SCHACH" serve --help 2>/dev/null | grep -q -- '--no-limits'; then
        SERVER_NO_LIMITS=(--no-limits)
    fi
}

server_cleanup() {
    if [ -n "$SERVER_PID" ]; then
        kill -9 "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
        SERVER_PID=
    fi
    if [ -n "$SERVER_PG_DIR" ]; then
        bash "$SERVER_TEST_DIR/../../scripts/pg-temp" stop "$SERVER_PG_DIR" >/dev/null 2>&1
        rm -rf "$SERVER_PG_DIR"
        SERVER_PG_DIR=
    fi
}

# The backend the API tests run against: SCHACH_TEST_BACKEND=postgresql (CTest's cli.pg.* tests) gives
# every database a test names by its path a PostgreSQL database of its own, in one PostgreSQL started
# for the test on loopback (scripts/pg-temp): the same path means the same database, so restarts find
# their games. Anything else: the path is the SQLite file.
SERVER_PG_DIR=
SERVER_PG_URI=
server_db() {
    local path=$1
    if [ "${SCHACH_TEST_BACKEND:-sqlite}" != postgresql ]; then
        SERVER_DB=$path
        return 0
    fi
    if [ -z "$SERVER_PG_DIR" ]; then
        # pg-temp hands its folder to an unprivileged user when run as root: not under the private $tmp.
        SERVER_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/schach-pg-XXXXXX")
        chmod 755 "$SERVER_PG_DIR"
        SERVER_PG_URI=$(bash "$SERVER_TEST_DIR/../../scripts/pg-temp" start "$SERVER_PG_DIR") || {
            echo "FAIL: scripts/pg-temp could not start PostgreSQL: $(tail -5 "$SERVER_PG_DIR/postgres.log" 2>/dev/null)" >&2
            exit 1
        }
    fi
    local name
    name=t_$(basename "$path" | tr -c 'a-zA-Z0-9\n' _ | tr 'A-Z' 'a-z')_$(printf '%s' "$path" | cksum | cut -d' ' -f1)
    if [ "$(psql -X -A -t -q "$SERVER_PG_URI" -c "SELECT count(*) FROM pg_database WHERE datname = '$name'")" = 0 ]; then
        psql -X -q "$SERVER_PG_URI" -c "CREATE DATABASE $name" >/dev/null || { echo "FAIL: CREATE DATABASE $name" >&2; exit 1; }
    fi
    SERVER_DB=${SERVER_PG_URI%/*}/$name
    # A node of a deployment has a name of its own that it keeps over restarts (scripts/cluster: nodeI),
    # so a restarted node takes back at once the leases it held (docs/api.md, "several servers").
    SERVER_BACKEND_ARGS=(--node test-node)
}
SERVER_BACKEND_ARGS=()

# server_db_query SQL: runs SQL on the database of the last server_start (SQLite file or PostgreSQL
# database), one row a line, columns separated by |.
server_db_query() {
    case $SERVER_DB in
        postgresql:*) psql -X -A -t -q "$SERVER_DB" -c "$1" 2>&1 ;;
        *) sqlite3 "$SERVER_DB" "$1" 2>&1 ;;
    esac
}

# server_start DB [ARGS...]: starts schach serve on 127.0.0.1 port 0 (or $SERVER_LISTEN) with database DB (a
# path; see server_db for PostgreSQL) and waits (up to 30 s) for the URL it prints; sets SCHACH_URL
# (exported for node), SERVER_PID and SERVER_DB (what --db was).
server_start() {
    server_db "$1"
    local db=$SERVER_DB
    shift
    SERVER_RUNS=$((SERVER_RUNS + 1))
    SERVER_OUT=$tmp/server.$SERVER_RUNS.out
    SERVER_ERR=$tmp/server.$SERVER_RUNS.err
    : >"$SERVER_OUT" # read below before the server may have opened it
    "${SERVER_WRAP[@]}" "$SCHACH" serve --listen "${SERVER_LISTEN:-127.0.0.1:0}" --db "$db" "${SERVER_BACKEND_ARGS[@]}" "$@" >"$SERVER_OUT" 2>"$SERVER_ERR" &
    SERVER_PID=$!
    local i
    for ((i = 0; i < 600; i++)); do
        SCHACH_URL=$(sed -n 's/^schach serve: \(http:[^ ]*\)$/\1/p' "$SERVER_OUT")
        [ -n "$SCHACH_URL" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
    if [ -z "$SCHACH_URL" ]; then
        echo "FAIL: schach serve did not print its URL: $(cat "$SERVER_ERR")" >&2
        server_cleanup
        exit 1
    fi
    export SCHACH_URL
}

# server_alive: the server process still runs.
server_alive() { [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; }

# server_stop: SIGTERM and a clean exit (status 0) expected.
server_stop() {
    server_alive || { fail "server died before the end: $(cat "$SERVER_ERR")"; SERVER_PID=; return; }
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID"
    local rc=$?
    SERVER_PID=
    [ "$rc" -eq 0 ] || fail "schach serve exited with $rc after SIGTERM: $(cat "$SERVER_ERR")"
}

# server_kill9: no chance to clean up, as in a crash.
server_kill9() {
    kill -9 "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=
}

# run_node SCRIPT ARGS...: runs tests/server/SCRIPT; a failure is counted, its output shown.
run_node() {
    local script=$1
    shift
    node "$SERVER_TEST_DIR/$script" "$@" || fail "$script $*"
}
