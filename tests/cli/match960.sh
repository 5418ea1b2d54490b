#!/usr/bin/env bash
# schach match --chess960: numbered start positions, each played twice with colours swapped, the
# engines told UCI_Chess960, castling sent as king takes rook, the PGN tagged Variant Chess960.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"

engine=(--engine "cmd=$SCHACH" arg=uci name=A --engine "cmd=$SCHACH" arg=uci name=B)
run match "${engine[@]}" --depth 2 --games 4 --chess960 0,959 --pgn "$tmp/m.pgn" --log "$tmp/m.log" --report 0
[ "$rc" -eq 0 ] || fail "match --chess960: exit $rc: $err"
grep -q "4 games, 2 openings" <<<"$out" || fail "match --chess960: header: $out"
[ "$(grep -c 'Variant "Chess960"' "$tmp/m.pgn")" -eq 4 ] || fail "match --chess960: want 4 Variant tags"
[ "$(grep -c 'FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"' "$tmp/m.pgn")" -eq 2 ] ||
    fail "match --chess960: position 0 not played twice"
[ "$(grep -c 'FEN "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"' "$tmp/m.pgn")" -eq 2 ] ||
    fail "match --chess960: position 959 not played twice"
grep -q "setoption name UCI_Chess960 value true" "$tmp/m.log" || fail "match --chess960: no UCI_Chess960 sent"
grep -q "Protocol errors: 0" <<<"$out" || fail "match --chess960: protocol errors: $out"
# Random start positions from the seed: the same seed gives the same positions.
run match "${engine[@]}" --depth 1 --games 2 --chess960 --seed 7 --pgn "$tmp/a.pgn" --report 0
run match "${engine[@]}" --depth 1 --games 2 --chess960 --seed 7 --pgn "$tmp/b.pgn" --report 0
[ "$(grep FEN "$tmp/a.pgn")" = "$(grep FEN "$tmp/b.pgn")" ] || fail "match --chess960 --seed: positions differ"
run match "${engine[@]}" --depth 1 --chess960 0,960
[ "$rc" -eq 2 ] || fail "match --chess960 0,960: want usage error 2, got $rc"

cli_finish "match960"
