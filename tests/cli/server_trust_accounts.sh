#!/usr/bin/env bash
# The accounts room under one greedy address (issue 22, tests/server/trust_accounts.mjs): heavy reads
# capped per address with a 429, other addresses' logins, lobby and seeks answered while they are held.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

SCHACH_ACCOUNTS_HOLD="$tmp/hold" SCHACH_LIMITS_CLOCK=frozen server_start "$tmp/x.db" --trust-proxy 127.0.0.1
run_node trust_accounts.mjs "$tmp/hold"
rm -f "$tmp/hold"
server_stop

cli_finish server_trust_accounts
