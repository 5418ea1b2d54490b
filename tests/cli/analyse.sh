#!/usr/bin/env bash
# schach analyse: a missed mate in one is a blunder with the mate as the better move, in PGN (which
# schach pgn check reads back with the same moves, the input's comments and variations kept) and in
# JSON (the server API's shape, read by python3); German letters and comments; a bad game reported
# and skipped; the same output on every run with --threads 1 and --nodes; usage errors.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command python3
data=${SCHACH_TEST_DATA:-$(dirname "$0")/../data}/analyse
games=$data/blunder.pgn
budget=(--nodes 3000 --threads 1)

# The moves of each game's main line (comments, variations, NAGs and move numbers left out), one
# game per line.
mainline() {
    python3 - "$1" <<'PY'
import re, sys
games, moves, depth, in_tags = [], [], 0, False
text = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r"\{[^}]*\}", " ", text)
for line in text.splitlines():
    if line.startswith("["):
        if moves:
            games.append(" ".join(moves))
            moves = []
        continue
    for tok in re.findall(r"\(|\)|[^\s()]+", line):
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        elif depth == 0 and not re.fullmatch(r"\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*", tok):
            moves.append(re.sub(r"^\d+\.+", "", tok))
if moves:
    games.append(" ".join(moves))
print("\n".join(games))
PY
}

# --- help, in both languages, and the command list
run --help
grep -q "^  analyse " <<<"$out" || fail "schach --help does not list analyse: $out"
run analyse --help
expect_rc "analyse --help" 0
grep -q "Usage: schach analyse" <<<"$out" || fail "analyse --help: $out"
run --lang de analyse --help
grep -q "Aufruf: schach analyse" <<<"$out" || fail "--lang de analyse --help: $out"

# --- PGN: the missed mate, the bad game skipped, the input's comments and variations kept
run analyse "${budget[@]}" "$games"
expect_rc "a file with a bad game" 1
cp "$tmp/out" "$tmp/annotated.pgn"
grep -q "game 2: line 20, column 13: .*Ke3.*(skipped)" <<<"$err" || fail "the bad game is not reported: $err"
[ "$(grep -c '^\[Event ' "$tmp/annotated.pgn")" -eq 2 ] || fail "want the 2 good games: $out"
grep -q '\[Annotator "schach analyse"\]' <<<"$out" || fail "no Annotator tag: $out"
flat=$(tr '\n' ' ' <"$tmp/annotated.pgn")
grep -q '4\. Nc3 \$4 {\[%eval -[0-9.]*\] Blunder\. Qxf7# was best\.} (4\. Qxf7#)' <<<"$flat" ||
    fail "4. Nc3 is not a blunder with Qxf7# as the better line: $out"
grep -q '3\.\.\. Nf6 \$4 {\[%eval #1\] Blunder\.' <<<"$flat" || fail "3... Nf6 allows mate in one: $out"
grep -q '1\. e4 {\[%eval -*[0-9.]*\] The king.s pawn\.}' <<<"$flat" || fail "the input's comment is lost: $out"
grep -q '(2\. Nf3 Nc6 3\. Bb5 {The Spanish\.})' <<<"$flat" || fail "the input's variation is lost: $out"
grep -q '2\. g4 \$4 {\[%eval #-1\] Blunder\.' <<<"$flat" || fail "fool's mate: 2. g4 is no blunder: $out"
grep -q 'Qh4# {\[%eval #0\]} 0-1' <<<"$flat" || fail "the mate on the board: $out"
# every move has an [%eval]
evals=$(grep -o '\[%eval [^]]*\]' "$tmp/annotated.pgn" | wc -l)
[ "$evals" -eq 12 ] || fail "want 12 [%eval] (8 + 4 moves), got $evals: $out"
# schach pgn check reads it back, with the input's main lines
run pgn check "$tmp/annotated.pgn"
expect_rc "pgn check of the annotated PGN" 0
grep -q "2 games, 0 with errors" <<<"$out" || fail "pgn check: $out"
mainline "$tmp/annotated.pgn" >"$tmp/moves.out"
mainline "$games" | sed '2d' >"$tmp/moves.in"
diff "$tmp/moves.in" "$tmp/moves.out" >/dev/null || fail "the main lines changed: $(diff "$tmp/moves.in" "$tmp/moves.out")"
[ "$(wc -l <"$tmp/moves.out")" -eq 2 ] || fail "main lines: $(cat "$tmp/moves.out")"

# --- the same output on every run with one thread and a node budget; stdin
run analyse "${budget[@]}" - <"$games"
cmp -s "$tmp/out" "$tmp/annotated.pgn" || fail "a second run (from stdin) differs: $(diff "$tmp/annotated.pgn" "$tmp/out")"
grep -q "(standard input): game 2" <<<"$err" || fail "stdin: the bad game is not named: $err"
[ -z "$(grep -v 'game 2' <<<"$err")" ] || fail "stderr has more than the bad game (a progress bar off a terminal?): $err"

# --- JSON: the server API's shape, read by python3
run analyse --json "${budget[@]}" "$games"
expect_rc "--json" 1
printf '%s\n' "$out" >"$tmp/out.json"
python3 - "$tmp/out.json" <<'PY' || fail "--json: $out"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
games = [json.loads(l) for l in lines]
for g in games:
    assert set(g) == {"moves", "accuracy", "summary"}, g.keys()
    assert set(g["accuracy"]) == {"white", "black"}
    for side in ("white", "black"):
        a = g["accuracy"][side]
        assert isinstance(a, int) and 0 <= a <= 100, a
        s = g["summary"][side]
        assert set(s) == {"inaccuracy", "mistake", "blunder", "acpl"}, s
        assert all(isinstance(v, int) and v >= 0 for v in s.values()), s
    for i, m in enumerate(g["moves"]):
        assert set(m) == {"ply", "san", "eval", "best", "best_san", "line", "judgement"}, m
        assert m["ply"] == i + 1
        assert list(m["eval"]) in (["cp"], ["mate"]) and isinstance(list(m["eval"].values())[0], int), m
        assert m["judgement"] in (None, "inaccuracy", "mistake", "blunder"), m
        if m["best"] is None:
            assert m["best_san"] is None and m["line"] is None and m["judgement"] is None, m
        else:
            assert isinstance(m["best"], str) and m["line"][0] == m["best_san"], m
first, fools = games
assert [m["san"] for m in first["moves"]] == "e4 e5 Qh5 Nc6 Bc4 Nf6 Nc3 Nxh5".split()
m = first["moves"][6]
assert m["judgement"] == "blunder" and m["best"] == "h5f7" and m["best_san"] == "Qxf7#" and m["line"] == ["Qxf7#"], m
assert first["moves"][5]["eval"] == {"mate": 1}, first["moves"][5]
assert first["summary"]["white"]["blunder"] >= 1 and first["summary"]["black"]["blunder"] >= 1
assert fools["moves"][2]["judgement"] == "blunder" and fools["moves"][2]["eval"] == {"mate": -1}
assert fools["moves"][3]["eval"] == {"mate": 0} and fools["moves"][3]["best"] is None
PY

# --- German: letters and comments; two threads find the same blunder
run --lang de analyse --nodes 3000 --threads 2 "$games"
flat=$(tr '\n' ' ' <<<"$out")
grep -q '4\. Sc3 \$4 {\[%eval -[0-9.]*\] Grober Fehler\. Dxf7# war der beste Zug\.} (4\. Dxf7#)' <<<"$flat" ||
    fail "German: $out"
grep -q "Partie 2: .*(übersprungen)" <<<"$err" || fail "German: the bad game: $err"
run analyse --json --lang de "${budget[@]}" "$games"
jq -s -e '.[0].moves[6] | .san == "Sc3" and .best_san == "Dxf7#"' <<<"$out" >/dev/null ||
    fail "German JSON: $out"

# --- a progress bar on a terminal (script gives the command one), none without
if command -v script >/dev/null; then
    script -qec "$SCHACH analyse ${budget[*]} $data/blunder.pgn >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q '\[#*\.*\] [0-9]*/9' "$tmp/tty" || fail "no progress bar on a terminal: $(cat -v "$tmp/tty")"
fi

# --- usage errors
for args in "--nodes 0" "--nodes x" "--depth 1 --nodes 5" "--threads 99" "--bogus" ""; do
    run analyse $args "$games"
    [ -n "$args" ] || run analyse
    expect_rc "analyse $args" 2
done
run analyse "${budget[@]}" "$tmp/missing.pgn"
expect_rc "a missing file" 1
grep -q "missing.pgn: cannot open" <<<"$err" || fail "missing file: $err"

cli_finish analyse
