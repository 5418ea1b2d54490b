#!/usr/bin/env bash
# Playing strength of schach: `schach match` against the UCI engines Debian ships, one markdown table.
#
#   bench/strength.sh [SCHACH_BINARY]        (default build/schach)
#
# Pairings: schach against gnuchess (`gnuchess --uci`), Ethereal (/usr/games/ethereal-chess) and
# Stockfish limited with UCI_LimitStrength/UCI_Elo at each of ELOS. Each pairing plays GAMES games
# (each opening of data/openings.pgn twice, colours swapped) at time control TC, CONCURRENCY at once.
# Engines that are not installed are skipped with a note. The table has per pairing the score of
# schach (wins - losses - draws), its Elo difference with the 95% margin (trinomial), LOS, and the
# protocol errors (illegal move, time forfeit, crash, startup) of schach and of the opponent; the
# PGN files and the full match outputs go to OUT.
#
# Environment: GAMES (200), TC (10+0.1), CONCURRENCY (2), ELOS ("1500 2000 2500"), OUT (a new
# folder under /tmp), TIMEMARGIN (ms a clock may go below zero, default 0), PAIRINGS (default
# "gnuchess ethereal stockfish"), OPENINGS (an opening file instead of the shipped data/openings.pgn,
# e.g. to continue a pairing on other openings). A quick check of the script itself:
#   GAMES=2 TC=2+0.05 ELOS=1500 bench/strength.sh
# (at such short clocks Stockfish with UCI_LimitStrength sometimes loses on time on a loaded
# machine - counted in its error column; at 10+0.1 it did not in our runs)
# The full run (3 + len(ELOS) pairings of 200 games at 10+0.1, about 20 s a game, two at once)
# takes about 3 hours on two cores.
#
# Not here: Phalanx and Fairy-Max speak only the xboard (CECP) protocol, and Debian has no adapter
# that turns an xboard engine into a UCI engine: polyglot and uci2wb adapt the other way (a UCI
# engine for an xboard GUI). `schach match` speaks UCI only, so they cannot be paired.
set -uo pipefail

source "$(dirname "$0")/lib/match.bash"
schach=$(schach_binary strength.sh "${1:-}") || exit 1
games=${GAMES:-200}
tc=${TC:-10+0.1}
concurrency=${CONCURRENCY:-2}
elos=${ELOS:-1500 2000 2500}
margin=${TIMEMARGIN:-0}
pairings=${PAIRINGS:-gnuchess ethereal stockfish}
openings=()
[ -n "${OPENINGS:-}" ] && openings=(--openings "$OPENINGS")
out=${OUT:-$(mktemp -d /tmp/schach-strength.XXXXXX)}
mkdir -p "$out"
export LC_ALL=C

rows=()
notes=()

# play LABEL ENGINE-WORDS...: one match of schach (first engine) against the opponent, one table row.
play() {
    local label=$1 file
    shift
    file=$out/$label
    echo "strength.sh: schach vs $label ($games games at $tc) ..." >&2
    "$schach" --lang en match --engine cmd="$schach uci" name=schach --engine "$@" name="$label" \
        --tc "$tc" --timemargin "$margin" --games "$games" --concurrency "$concurrency" --report 20 \
        "${openings[@]}" --pgn "$file.pgn" >"$file.txt" 2>"$file.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        notes+=("schach vs $label did not run (exit $rc): $(head -c 300 "$file.err")")
        return
    fi
    local final score elo los errs_schach errs_opp
    final=$(final_report "$file.txt")
    score=$(sed -n 's/^Score of schach vs .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\) (W - L - D)  \[\([0-9.]*\)\] \([0-9]*\) games$/\1 - \2 - \3|\4|\5/p' <<<"$final")
    elo=$(sed -n 's/^Elo difference: \(.*\) (95%, trinomial)$/\1/p' <<<"$final")
    los=$(sed -n 's/^LOS: \(.*\)$/\1/p' <<<"$final")
    errs_schach=$(awk '$1 == "schach" && NF == 5 {print $2 + $3 + $4 + $5 " (" $2 "/" $3 "/" $4 "/" $5 ")"}' <<<"$final")
    errs_opp=$(awk -v n="$label" '$1 == n && NF == 5 {print $2 + $3 + $4 + $5 " (" $2 "/" $3 "/" $4 "/" $5 ")"}' <<<"$final")
    IFS='|' read -r wld frac played <<<"$score"
    rows+=("| $label | $played | $wld | $frac | $elo | $los | $errs_schach | $errs_opp |")
}

for p in $pairings; do
    case $p in
        gnuchess)
            if e=$(find_engine gnuchess); then play GNUChess cmd="$e --uci"; else notes+=("gnuchess is not installed"); fi ;;
        ethereal)
            if e=$(find_engine ethereal-chess Ethereal ethereal); then play Ethereal cmd="$e"; else notes+=("ethereal-chess is not installed"); fi ;;
        stockfish)
            if e=$(find_engine stockfish); then
                for elo in $elos; do
                    play "Stockfish-$elo" cmd="$e" option.UCI_LimitStrength=true option.UCI_Elo="$elo"
                done
            else
                notes+=("stockfish is not installed")
            fi ;;
        *) notes+=("unknown pairing '$p'") ;;
    esac
done

echo "## schach playing strength ($games games per pairing, tc $tc, concurrency $concurrency, $(date +%Y-%m-%d))"
echo
echo "Score and Elo are schach's (first engine); Elo is the logistic difference with its 95% margin from"
echo "the trinomial distribution. Protocol errors: total (illegal/time/crash/startup)."
echo
echo "| Opponent | Games | schach W - L - D | Score | Elo diff | LOS | Errors schach | Errors opponent |"
echo "|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "$r"; done
for n in "${notes[@]}"; do echo; echo "Note: $n"; done
echo
echo "PGN and match outputs: $out"
