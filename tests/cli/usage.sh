#!/usr/bin/env bash
# schach itself: usage, --help, --version, unknown and announced commands, languages.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"

run
expect_rc "no arguments" 2
grep -q "Usage: schach" <<<"$err" || fail "no arguments: no usage on stderr: $err"
[ -z "$out" ] || fail "no arguments: output on stdout"
run frobnicate
expect_rc "unknown command" 2
grep -q "frobnicate" <<<"$err" || fail "unknown command not named: $err"
run --bogus
expect_rc "unknown option" 2
run --help
expect_rc "--help" 0
for cmd in perft moves pgn play serve uci bench match analyse; do
    grep -q "^  $cmd " <<<"$out" || fail "--help does not list $cmd: $out"
done
run --version
expect_rc "--version" 0
grep -Eqx "schach [0-9]+\.[0-9]+\.[0-9]+" <<<"$out" || fail "--version: $out"
run --lang de --help
grep -q "Aufruf: schach" <<<"$out" || fail "--lang de --help: $out"
out=$(env -u LC_ALL LANG=de_DE.UTF-8 "$SCHACH" 2>&1)
grep -q "Aufruf: schach" <<<"$out" || fail "LANG=de_DE.UTF-8: usage not German: $out"
out=$(env -u LC_ALL LANG=de_DE.UTF-8 LC_MESSAGES=en_US.UTF-8 "$SCHACH" 2>&1)
grep -q "Usage: schach" <<<"$out" || fail "LC_MESSAGES=en must win over LANG=de: $out"
run --lang xx perft 1
expect_rc "--lang xx" 2
for cmd in perft moves pgn play serve uci bench match analyse; do
    run "$cmd" --help
    expect_rc "$cmd --help" 0
    run --lang de "$cmd" --help
    grep -q "Aufruf" <<<"$out" || fail "--lang de $cmd --help: $out"
done

cli_finish usage
