#!/usr/bin/env bash
# The NNUE training data and trainer (docs/nnue.md): schach_tune selfplay --out writes 32-byte records,
# resumes without playing a game twice (the same command again adds nothing, a longer range adds only
# the new games, a record cut short by a kill is cut off, another seed adds other games); nnue_train
# train gives the same bytes from the same data and seed (1 and 2 threads), other bytes from another
# seed, a file of the documented size and header; nnue_train check finds the quantised net within a few
# centipawns of the float model; bad records are skipped and a bad net file refused; --init from a
# quantised net writes the same net back with --epochs 0 and goes on learning with more.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
bin=$(dirname "$SCHACH")
tune=$bin/schach_tune
train=$bin/nnue_train
[ -x "$tune" ] && [ -x "$train" ] || { echo "FAIL: $tune or $train not built" >&2; exit 1; }
data=$tmp/data.bin
gen=(selfplay --out "$data" --nodes 300 --threads 1 --seed 5)
size() { stat -c %s "$1"; }

"$tune" "${gen[@]}" --games 3 2>"$tmp/err" || fail "selfplay: exit $?: $(cat "$tmp/err")"
s1=$(size "$data")
[ "$s1" -gt 0 ] && [ $((s1 % 32)) -eq 0 ] || fail "selfplay: $s1 bytes is not a positive number of records"
[ "$(wc -l <"$data.games")" -eq 3 ] || fail "selfplay: want 3 games in $data.games: $(cat "$data.games")"
grep -q "positions/hour" "$tmp/err" || fail "selfplay: no progress line: $(cat "$tmp/err")"
cp "$data" "$tmp/first.bin"

"$tune" "${gen[@]}" --games 3 2>/dev/null
[ "$(size "$data")" -eq "$s1" ] || fail "resume: the same games again changed the file ($s1 -> $(size "$data"))"
printf 'half a record' >>"$data"
"$tune" "${gen[@]}" --games 5 2>/dev/null
s2=$(size "$data")
[ $((s2 % 32)) -eq 0 ] && [ "$s2" -gt "$s1" ] || fail "resume: $s2 bytes after 2 more games (had $s1 and a cut record)"
cmp -s -n "$s1" "$data" "$tmp/first.bin" || fail "resume: the first games' records changed"
[ "$(wc -l <"$data.games")" -eq 5 ] || fail "resume: want 5 games listed: $(cat "$data.games")"
"$tune" selfplay --out "$data" --nodes 300 --threads 2 --seed 6 --games 3 2>/dev/null
[ "$(size "$data")" -gt "$s2" ] || fail "another seed added nothing"
[ "$(wc -l <"$data.games")" -eq 8 ] || fail "another seed: want 8 games listed: $(cat "$data.games")"

opts=(--hidden 16 --epochs 2 --batch 64)
"$train" train "${opts[@]}" --threads 1 --seed 3 "$data" -o "$tmp/a.nnue" >"$tmp/out" 2>"$tmp/err" ||
    fail "train: exit $?: $(cat "$tmp/err")"
grep -q "^epoch 2: train loss [0-9.]*, held-out loss" "$tmp/out" || fail "train: no loss per epoch: $(cat "$tmp/out")"
grep -q "invalid" "$tmp/err" && fail "train: the generator wrote invalid records: $(cat "$tmp/err")"
"$train" train "${opts[@]}" --threads 1 --seed 3 "$data" -o "$tmp/b.nnue" >/dev/null 2>&1
cmp -s "$tmp/a.nnue" "$tmp/b.nnue" || fail "train: same data and seed, other bytes (1 thread)"
"$train" train "${opts[@]}" --threads 2 --seed 3 "$data" -o "$tmp/c.nnue" >/dev/null 2>&1
"$train" train "${opts[@]}" --threads 2 --seed 3 "$data" -o "$tmp/d.nnue" >/dev/null 2>&1
cmp -s "$tmp/c.nnue" "$tmp/d.nnue" || fail "train: same data and seed, other bytes (2 threads)"
"$train" train "${opts[@]}" --threads 1 --seed 4 "$data" -o "$tmp/e.nnue" >/dev/null 2>&1
cmp -s "$tmp/a.nnue" "$tmp/e.nnue" && fail "train: another seed, the same bytes"
# 8 magic + 5 int32 + int16 (768 * 16 + 16 + 2 * 16) + int32
[ "$(size "$tmp/a.nnue")" -eq $((8 + 20 + (768 * 16 + 16 + 32) * 2 + 4)) ] || fail "net: size $(size "$tmp/a.nnue")"
header=$(od -A n -t d4 -w20 -j 8 -N 20 "$tmp/a.nnue" | tr -s ' ')
[ "$(head -c 8 "$tmp/a.nnue")" = SCHNNUE1 ] && [ "$header" = " 768 16 255 64 400" ] || fail "net: header '$header'"

"$train" check "$tmp/a.nnue" "$data" >"$tmp/out" 2>&1 || fail "check: exit $?: $(cat "$tmp/out")"
diff=$(sed -n 's/.*float model: mean |difference| \([0-9.]*\) cp.*/\1/p' "$tmp/out")
[ -n "$diff" ] && awk -v d="$diff" 'BEGIN { exit !(d < 10) }' || fail "check: quantised vs float: $(cat "$tmp/out")"

head -c 32 /dev/urandom | tr '\0-\377' '\377' >"$tmp/bad.bin"
"$train" check "$tmp/a.nnue" "$tmp/bad.bin" "$data" >/dev/null 2>"$tmp/err" || fail "check: a bad record stopped it"
grep -q "1 invalid records skipped" "$tmp/err" || fail "check: the bad record not reported: $(cat "$tmp/err")"
head -c 1000 "$tmp/a.nnue" >"$tmp/short.nnue"
"$train" check "$tmp/short.nnue" "$data" >/dev/null 2>"$tmp/err" && fail "check: a cut net accepted"
grep -q "cut short" "$tmp/err" || fail "check: no message for a cut net: $(cat "$tmp/err")"
"$train" train --epochs 0 --init "$tmp/a.nnue" "$data" -o "$tmp/g.nnue" >"$tmp/out" 2>"$tmp/err" ||
    fail "init from a net: exit $?: $(cat "$tmp/err")"
cmp -s "$tmp/a.nnue" "$tmp/g.nnue" || fail "init from a net: read back and written again, other bytes"
"$train" train --epochs 1 --batch 64 --init "$tmp/a.nnue" "$data" -o "$tmp/g.nnue" >/dev/null 2>&1 ||
    fail "init from a net: a further epoch failed"
cmp -s "$tmp/a.nnue" "$tmp/g.nnue" && fail "init from a net: a further epoch changed nothing"
"$train" train --epochs 1 --init "$tmp/short.nnue" "$data" -o "$tmp/g.nnue" >/dev/null 2>"$tmp/err" &&
    fail "init: a cut net accepted"
grep -q "neither a float checkpoint nor a net" "$tmp/err" || fail "init: no message for a cut net: $(cat "$tmp/err")"
"$train" train --epochs 0 "$data" -o "$tmp/g.nnue" >/dev/null 2>&1
[ $? -eq 2 ] || fail "train: --epochs 0 without --init is not a usage error"
"$train" train --hidden 24 --epochs 1 "$data" -o "$tmp/f.nnue" >/dev/null 2>&1
[ $? -eq 2 ] || fail "train: a hidden layer the engine cannot read (24) is not a usage error"
cli_finish nnue_train
