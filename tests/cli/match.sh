#!/usr/bin/env bash
# schach match: Stockfish at depth 1 against itself and against fake engines that misbehave
# (tests/data/engines: an illegal move, an exit on "go", no answer to "go", garbage before uciok, no
# uciok at all), the PGN it writes (read back by schach pgn check), options and messages.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command jq
SF=/usr/games/stockfish
[ -x "$SF" ] || SF=$(command -v stockfish) || { echo "FAIL: stockfish is needed (scripts/install-deps installs it)" >&2; exit 1; }
ENGINES=$(cd "$(dirname "$0")/../data/engines" && pwd)

# check_pgn WHAT FILE GAMES: schach pgn check reads every game without an error.
check_pgn() {
    "$SCHACH" pgn check --json "$2" >"$tmp/check" 2>&1 || fail "$1: pgn check failed: $(cat "$tmp/check")"
    jq -e -s "length == $3 and all(.error == null)" "$tmp/check" >/dev/null ||
        fail "$1: pgn check: want $3 games without errors, got: $(cat "$tmp/check")"
}

# errors_of NAME: the protocol error counts of engine NAME in the final table ("illegal time crash startup").
errors_of() { awk -v n="$1" '$1 == n && NF == 5 { e = $2 " " $3 " " $4 " " $5 } END { print e }' <<<"$out"; }

# Stockfish against itself: 4 games at once on 2 slots, PGN with comments.
run match --engine cmd=$SF name=A --engine cmd=$SF name=B --depth 1 --games 4 --concurrency 2 \
    --pgn "$tmp/sf.pgn" --pgn-comments --report 2
expect_rc "sf vs sf" 0
[ "$(grep -c '^Game [1-4]/4 ' <<<"$out")" -eq 4 ] || fail "sf vs sf: want 4 progress lines: $out"
grep -q '^Match finished: 4 games\.$' <<<"$out" || fail "sf vs sf: no final line: $out"
grep -Eq '^Score of A vs B: [0-4] - [0-4] - [0-4] \(W - L - D\)' <<<"$out" || fail "sf vs sf: no score: $out"
grep -Eq '^Elo difference: [-+](inf|[0-9.]+) \+/- (inf|[0-9.]+) \(95%, trinomial\)$' <<<"$out" || fail "sf vs sf: no Elo: $out"
grep -q '^Pentanomial .*(95%, 2 pairs)$' <<<"$out" || fail "sf vs sf: no pentanomial line: $out"
grep -q '^LOS: ' <<<"$out" || fail "sf vs sf: no LOS: $out"
grep -q '^Protocol errors: 0$' <<<"$out" || fail "sf vs sf: protocol errors: $out"
[ "$(grep -c '^Score of A vs B' <<<"$out")" -ge 2 ] || fail "sf vs sf: no periodic report: $out"
check_pgn "sf vs sf" "$tmp/sf.pgn" 4
for tag in Event Site Date Round White Black Result TimeControl Termination PlyCount; do
    [ "$(grep -c "^\[$tag " "$tmp/sf.pgn")" -eq 4 ] || fail "sf vs sf: want 4 $tag tags in the PGN"
done
grep -q '^\[TimeControl "-"\]' "$tmp/sf.pgn" || fail "sf vs sf: TimeControl without a clock is '-'"
grep -Eq '\{[-+]([0-9]+\.[0-9][0-9]|M[0-9]+)/1 [0-9]+\.[0-9]{3}s\}' "$tmp/sf.pgn" || fail "sf vs sf: no engine comments in the PGN"
grep -q '{book}' "$tmp/sf.pgn" || fail "sf vs sf: the opening moves are not marked as book"
# The results in the PGN agree with the score line (A's wins - losses - draws).
read -r w l d < <(sed -n 's/^Score of A vs B: \([0-9]*\) - \([0-9]*\) - \([0-9]*\) .*/\1 \2 \3/p' <<<"$out" | tail -1)
pw=$(awk '/^\[White /{wh=$0} /^\[Result /{ if (($0 ~ /"1-0"/ && wh ~ /"A"/) || ($0 ~ /"0-1"/ && wh !~ /"A"/)) n++ } END {print n+0}' "$tmp/sf.pgn")
pd=$(grep -c '^\[Result "1/2-1/2"\]' "$tmp/sf.pgn")
[ "$pw" -eq "$w" ] && [ "$pd" -eq "$d" ] || fail "sf vs sf: PGN results ($pw wins, $pd draws) differ from the score $w-$l-$d"
# Colours alternate: A has white in games 1 and 3, B in games 2 and 4.
whites=$(awk '/^\[Round /{r=$2} /^\[White /{print r, $2}' "$tmp/sf.pgn" | sort | tr -d '"]' | tr '\n' ' ')
[ "$whites" = "1 A 2 B 3 A 4 B " ] || fail "sf vs sf: colours per round: $whites"

# An engine answering an illegal move loses every game by rules infraction.
run match --engine cmd=$SF name=SF --engine cmd="bash $ENGINES/illegal.sh" --depth 1 --games 2 --pgn "$tmp/illegal.pgn"
expect_rc "illegal" 0
grep -q "^Score of SF vs Illegal: 2 - 0 - 0 " <<<"$out" || fail "illegal: want 2-0-0: $out"
grep -q "played the illegal move 'a1a1'" <<<"$out" || fail "illegal: no reason in the progress line: $out"
[ "$(errors_of Illegal)" = "2 0 0 0" ] || fail "illegal: want 2 illegal-move errors, got '$(errors_of Illegal)': $out"
[ "$(errors_of SF)" = "0 0 0 0" ] || fail "illegal: Stockfish has errors: $out"
[ "$(grep -c '^\[Termination "rules infraction"\]' "$tmp/illegal.pgn")" -eq 2 ] || fail "illegal: Termination tags"
check_pgn "illegal" "$tmp/illegal.pgn" 2

# An engine that exits on "go" loses on time every game and is restarted for the next one.
run match --engine cmd=$SF name=SF --engine cmd="bash $ENGINES/exit_on_go.sh" --depth 1 --games 3 --pgn "$tmp/crash.pgn"
expect_rc "crash" 0
grep -q "^Score of SF vs Crasher: 3 - 0 - 0 " <<<"$out" || fail "crash: want 3-0-0: $out"
[ "$(errors_of Crasher)" = "0 0 3 0" ] || fail "crash: want 3 crashes, got '$(errors_of Crasher)': $out"
check_pgn "crash" "$tmp/crash.pgn" 3

# An engine that never answers "go" loses on time with a 3 s clock (3 s: Stockfish's moves at depth 1
# must come within it on a busy machine too; how long the flag took is only checked to be at least 3 s).
run match --engine cmd="bash $ENGINES/silent.sh" --engine cmd=$SF name=SF --tc 3+0 --depth 1 --games 2 \
    --pgn "$tmp/silent.pgn" --log "$tmp/uci.log"
expect_rc "silent" 0
grep -q "^Score of Silent vs SF: 0 - 2 - 0 " <<<"$out" || fail "silent: want 0-2-0: $out"
[ "$(errors_of Silent)" = "0 2 0 0" ] || fail "silent: want 2 time forfeits, got '$(errors_of Silent)': $out"
[ "$(grep -c '^\[Termination "time forfeit"\]' "$tmp/silent.pgn")" -eq 2 ] || fail "silent: Termination tags"
grep -q '^\[TimeControl "3"\]' "$tmp/silent.pgn" || fail "silent: TimeControl tag"
grep -Eq 'took ([3-9]|[1-9][0-9]+)(\.[0-9]+)? s with 3 s on the clock' "$tmp/silent.pgn" || fail "silent: the forfeit comment lacks the times"
grep -q ' < go wtime 3000 btime 3000 winc 0 binc 0 depth 1$' "$tmp/uci.log" || fail "silent: no go command in the log"
grep -q ' > bestmove ' "$tmp/uci.log" || fail "silent: no bestmove in the log"
check_pgn "silent" "$tmp/silent.pgn" 2

# Garbage before uciok is ignored: no protocol error, the games are played.
run match --engine cmd="bash $ENGINES/garbage.sh $SF" name=Garbage --engine cmd=$SF name=SF --depth 1 --games 2
expect_rc "garbage" 0
grep -q '^Protocol errors: 0$' <<<"$out" || fail "garbage: protocol errors: $out"
grep -q '^Match finished: 2 games\.$' <<<"$out" || fail "garbage: $out"

# An EPD opening: the games start from its position; the PGN gets SetUp and FEN.
echo '4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id "pawn";' >"$tmp/one.epd"
run match --engine cmd=$SF name=A --engine cmd=$SF name=B --depth 3 --games 2 --openings "$tmp/one.epd" --pgn "$tmp/epd.pgn"
expect_rc "epd" 0
[ "$(grep -c '^\[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"\]' "$tmp/epd.pgn")" -eq 2 ] || fail "epd: FEN tags: $(cat "$tmp/epd.pgn")"
[ "$(grep -c '^\[SetUp "1"\]' "$tmp/epd.pgn")" -eq 2 ] || fail "epd: SetUp tags"
check_pgn "epd" "$tmp/epd.pgn" 2

# SPRT stops the match once the log-likelihood ratio crosses a bound.
run match --engine cmd=$SF name=SF --engine cmd="bash $ENGINES/illegal.sh" --depth 1 --games 100 \
    --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --report 0
expect_rc "sprt" 0
grep -Eq '^SPRT: H1 accepted after [0-9]+ games\.$' <<<"$out" || fail "sprt: no early stop: $out"
grep -q '^SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 (pentanomial, logistic Elo): LLR ' <<<"$out" || fail "sprt: no SPRT line: $out"

# The engine's own engine, when it speaks UCI: schach against Stockfish without a protocol error.
if printf 'uci\nisready\nquit\n' | "$SCHACH" uci 2>/dev/null | grep -q '^uciok$'; then
    run match --engine cmd="$SCHACH uci" name=schach --engine cmd=$SF name=SF --nodes 2000 --games 2 --move-timeout 60000 \
        --pgn "$tmp/schach.pgn"
    expect_rc "schach uci" 0
    grep -q '^Protocol errors: 0$' <<<"$out" || fail "schach uci: protocol errors: $out"
    check_pgn "schach uci" "$tmp/schach.pgn" 2
else
    echo "note: schach uci is not available yet; skipped schach against Stockfish" >&2
fi

# Engines that cannot be used, and usage errors.
run match --engine cmd=/nonexistent/engine --engine cmd=$SF --depth 1
expect_rc "missing engine" 1
grep -q 'engine 1 (/nonexistent/engine) cannot be used' <<<"$err" || fail "missing engine: $err"
run match --engine cmd="bash $ENGINES/no_uciok.sh" --engine cmd=$SF --depth 1 --startup-timeout 300
expect_rc "no uciok" 1
grep -q 'timed out waiting for uciok' <<<"$err" || fail "no uciok: $err"
run --lang de match --engine cmd="bash $ENGINES/no_uciok.sh" --engine cmd=$SF --depth 1 --startup-timeout 300
grep -q 'Engine 1 (bash .*no_uciok.sh) ist nicht verwendbar: keine Antwort uciok in der Zeit' <<<"$err" || fail "no uciok de: $err"
run match --engine cmd=$SF --depth 1
expect_rc "one engine" 2
run match --engine cmd=$SF --engine cmd=$SF
expect_rc "no limit" 2
grep -q 'give a limit' <<<"$err" || fail "no limit: $err"
run match --engine cmd=$SF --engine cmd=$SF --tc 0+1
expect_rc "bad tc" 2
run match --engine cmd=$SF colour=white --engine cmd=$SF --depth 1
expect_rc "bad engine word" 2
grep -q "invalid word 'colour=white'" <<<"$err" || fail "bad engine word: $err"
run match --engine cmd=$SF --engine cmd=$SF --depth 1 --openings "$tmp/missing.pgn"
expect_rc "missing openings" 1
run match --help
expect_rc "help" 0
grep -q -- '--sprt elo0=E0' <<<"$out" || fail "help: $out"
run --lang de match --help
grep -q '^Aufruf: schach match' <<<"$out" || fail "help de: $out"

# German progress lines.
run --lang de match --engine cmd=$SF name=SF --engine cmd="bash $ENGINES/illegal.sh" --depth 1 --games 2
grep -q "^Partie 1/2 (Weiß: SF, Schwarz: Illegal): Schwarz spielte den unzulässigen Zug 'a1a1': Weiß gewinnt 1:0\." <<<"$out" ||
    fail "german progress: $out"
grep -q '^Wettkampf beendet: 2 Partien\.$' <<<"$out" || fail "german final: $out"

cli_finish match
