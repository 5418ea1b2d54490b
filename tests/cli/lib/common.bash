# Shared by the command-line tests (sourced, not run: CTest only runs tests/cli/*.sh).
#
#   source "$(dirname "$0")/lib/common.bash"; cli_init "$@"
#
# cli_init sets SCHACH (absolute path of the binary given as $1), a C locale, an empty temporary
# folder $tmp removed on exit, and the failure counter. Checks call fail and go on, so one run
# reports every failure; cli_finish NAME exits 1 when any check failed.

cli_init() {
    SCHACH=${1:?usage: $(basename "$0") path/to/schach}
    case $SCHACH in /*) ;; *) SCHACH=$PWD/$SCHACH ;; esac
    [ -x "$SCHACH" ] || { echo "FAIL: $SCHACH is not executable" >&2; exit 1; }
    export LC_ALL=C LANG=C
    unset LC_MESSAGES LANGUAGE
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    failures=0
    # Every schach serve a test starts hashes passwords at libsodium's least cost (docs/api.md,
    # "Accounts"): the suite signs up and logs in hundreds of times, each 64 MiB of Argon2id at the real
    # cost. server_accounts checks the real cost on a server started without it.
    export SCHACH_PASSWORD_HASH=${SCHACH_PASSWORD_HASH-test}
    # Every PostgreSQL a test starts (scripts/pg-temp) is a copy of one initdb made once, not a new initdb.
    export PG_TEMP_TEMPLATE=${PG_TEMP_TEMPLATE-${TMPDIR:-/tmp}/schach-pg-template-$(id -u)}
}

# require_command NAME: the tests need this program (scripts/install-deps installs it).
require_command() {
    command -v "$1" >/dev/null || { echo "FAIL: $1 is needed (scripts/install-deps installs it)" >&2; exit 1; }
}

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run ARGS...: runs schach; sets rc, out (stdout) and err (stderr).
run() {
    "$SCHACH" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}

expect_rc() { [ "$rc" -eq "$2" ] || fail "$1: want exit $2, got $rc (stderr: $err)"; }

# json_check WHAT FILTER: the jq FILTER is true for $out. Empty output fails too (jq 1.6 -e exits 0
# when it reads no value at all).
json_check() {
    [ -n "$out" ] && jq -e "$2" >/dev/null 2>&1 <<<"$out" || fail "$1: jq '$2' is not true for: $out"
}

cli_finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures check(s) failed" >&2
        exit 1
    fi
    echo "$1: all checks passed"
}
