#!/usr/bin/env bash
# Accounts in schach serve (tests/server/accounts.mjs): sign up, log in, log out, who am I, password
# changes, every bad input refused with nothing changed; then the login and sign-up limits on a server
# with its limits on; and what the database holds: no password and no session token in plain text.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
run_node accounts.mjs
server_stop

# A server started as every deployment starts it: without the tests' cheap hashes (SCHACH_PASSWORD_HASH,
# tests/cli/lib/common.bash), its hashes cost what libsodium calls interactive (64 MiB, two passes).
SCHACH_PASSWORD_HASH= server_start "$tmp/x.db" "${SERVER_NO_LIMITS[@]}"
grep -q ' password_hash=interactive' "$SERVER_ERR" ||
    fail "the start event does not say password_hash=interactive: $(head -3 "$SERVER_ERR")"
run_node accounts.mjs dump "$tmp/stored.json"
server_stop

# The database: Argon2id strings and token hashes only.
name=$(jq -r .name "$tmp/stored.json")
password=$(jq -r .password "$tmp/stored.json")
token=$(jq -r .token "$tmp/stored.json")
key=$(tr 'A-Z' 'a-z' <<<"$name")
stored=$(server_db_query "SELECT name, password_hash FROM accounts WHERE key = '$key'")
[[ $stored == "$name|\$argon2id\$v=19\$m=65536,t=2,p=1\$"* ]] ||
    fail "the account is not stored with an Argon2id hash at the interactive cost: $stored"
all=$(server_db_query "SELECT * FROM accounts")$(server_db_query "SELECT * FROM sessions")
grep -qF "$password" <<<"$all" && fail "the database holds a password in plain text"
grep -qF "$token" <<<"$all" && fail "the database holds a session token in plain text"
[[ $(server_db_query "SELECT count(*) FROM sessions") -ge 1 ]] || fail "no sessions stored"

# The limits, on a server with them on (X-Forwarded-For from loopback names the clients). Their clock
# stands still (SCHACH_LIMITS_CLOCK=frozen): ten Argon2id logins may take longer than the minute in
# which the eleventh must be refused on a busy machine, and a running clock would refill the bucket.
# Logins to a name tried too often are answered SCHACH_LOGIN_SLOWDOWN_MS later, not 2 s: the spread
# guesses below are slowed one after the other, and 2 s each was most of this test's time.
SCHACH_LIMITS_CLOCK=frozen SCHACH_LOGIN_SLOWDOWN_MS=100 server_start "$tmp/y.db" --trust-proxy 127.0.0.1
grep -q ' limits=frozen' "$SERVER_ERR" || fail "the start event does not say the limits' clock is frozen: $(head -3 "$SERVER_ERR")"
grep -q ' password_hash=test' "$SERVER_ERR" || fail "the start event does not say password_hash=test: $(head -3 "$SERVER_ERR")"
run_node accounts.mjs limits
server_stop

cli_finish server_accounts
