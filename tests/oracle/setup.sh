# shellcheck shell=bash
# Sourced by tests/cli/oracle_*.sh: finds node and npm and installs the pinned chessops from
# tests/oracle/package-lock.json (npm ci) when it is not there yet, as on a fresh clone.
# Sets ORACLE_DIR; on failure prints why and returns 1.
ORACLE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

oracle_setup() {
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        echo "FAIL: the oracle tests need node (18 or newer) and npm: apt-get install nodejs npm" >&2
        return 1
    fi
    if [ ! -f "$ORACLE_DIR/node_modules/chessops/package.json" ]; then
        # Both oracle tests may start at once under ctest -j; the lock makes the second one wait
        # for the first one's install instead of installing into the same folder at the same time.
        # shellcheck disable=SC2094 # fd 9 only holds the lock on the folder
        (
            flock 9
            if [ ! -f "$ORACLE_DIR/node_modules/chessops/package.json" ]; then
                npm ci --prefix "$ORACLE_DIR" --no-audit --no-fund --loglevel=error >&2
            fi
        ) 9<"$ORACLE_DIR" || {
            echo "FAIL: npm ci in $ORACLE_DIR failed (is the npm registry reachable?)" >&2
            return 1
        }
    fi
}
