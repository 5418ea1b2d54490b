#!/usr/bin/env bash
# schach bench: the node count of the fixed benchmark is a signature of the search. It must be the
# same in every run and equal the figure recorded here.
#
# When a change of search or evaluation changes the count on purpose, run `schach bench`, put its
# node count into BENCH_SIGNATURE and name the new figure in the commit message ("bench: 1234567").
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"

BENCH_SIGNATURE=5530703

# bench_nodes ARGS...: runs schach bench ARGS; sets out/err/rc and nodes from the last line.
bench_nodes() {
    run bench "$@"
    nodes=$(tail -n 1 <<<"$out" | sed -En 's/^bench: ([0-9]+) nodes [0-9]+ nps [0-9]+ ms$/\1/p')
}

bench_nodes
expect_rc "bench" 0
[ -n "$nodes" ] || fail "bench: the last line is not 'bench: N nodes N nps N ms': $(tail -n 1 <<<"$out")"
first=$nodes
grep -Eq '^Position +1: +[0-9]+ nodes  [^ ]+/' <<<"$out" || fail "bench: no line for position 1: $out"
grep -Eq '^Total: [0-9]+ nodes in [0-9]+ ms' <<<"$out" || fail "bench: no total line"
# The per-position counts add up to the total.
sum=$(sed -En 's/^Position +[0-9]+: +([0-9]+) nodes.*/\1/p' <<<"$out" | awk '{ s += $1 } END { printf "%.0f", s }')
[ "$sum" = "$first" ] || fail "bench: positions add up to $sum, total says $first"

bench_nodes --lang de
expect_rc "bench --lang de" 0
grep -q '^Stellung  1: .* Knoten' <<<"$out" || fail "bench --lang de: no German position lines: $out"
grep -q '^Summe: ' <<<"$out" || fail "bench --lang de: no German total"
[ "$nodes" = "$first" ] || fail "bench: two runs differ: $first and $nodes nodes"
[ "$first" = "$BENCH_SIGNATURE" ] ||
    fail "bench: $first nodes, but the recorded signature is $BENCH_SIGNATURE (update it when search or evaluation changed on purpose)"

# A smaller depth searches fewer nodes, and is as reproducible.
bench_nodes 3
expect_rc "bench 3" 0
small=$nodes
bench_nodes 3
[ "$nodes" = "$small" ] || fail "bench 3: two runs differ: $small and $nodes"
[ -n "$small" ] && [ "$small" -lt "$first" ] || fail "bench 3: $small nodes, not fewer than the default depth's $first"

for bad in 0 -1 x 65 "3 4"; do
    run bench $bad
    expect_rc "bench $bad" 2
done
run bench --help
expect_rc "bench --help" 0
grep -q "bench: <nodes> nodes <nps> nps <ms> ms" <<<"$out" || fail "bench --help: $out"

cli_finish bench
