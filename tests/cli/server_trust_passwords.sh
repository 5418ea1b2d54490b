#!/usr/bin/env bash
# Passwords strangers can trust (issue 22, tests/server/trust_passwords.mjs): the common ones refused,
# white space alone too weak, characters counted and compared in Unicode NFC; and the server refuses
# to start without its list of common passwords.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

# No list, or an empty one: the server says which and does not start.
out=$(timeout 60 "$SCHACH" serve --listen 127.0.0.1:0 --db "$tmp/none.db" --common-passwords "$tmp/missing.lst" 2>&1)
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "serve without its list of common passwords: exit $rc"
grep -q "common passwords $tmp/missing.lst" <<<"$out" || fail "serve without its list does not say which: $out"
: >"$tmp/empty.lst"
out=$(timeout 60 "$SCHACH" serve --listen 127.0.0.1:0 --db "$tmp/none.db" --common-passwords "$tmp/empty.lst" 2>&1)
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "serve with an empty list of common passwords: exit $rc"
grep -q "holds no password" <<<"$out" || fail "serve with an empty list does not say so: $out"

server_start "$tmp/x.db" --no-limits
run_node trust_passwords.mjs
server_stop

cli_finish server_trust_passwords
