#!/usr/bin/env bash
# The Elo of schach's levels for people, measured by `schach match`: each level against Stockfish
# limited to a UCI_Elo near the level's, or against a level already measured; one markdown table.
#
#   bench/levels.sh [SCHACH_BINARY]        (default build/schach)
#
# PAIRS lists "level:opponent" words in the order they are played; an opponent is "sf<ELO>"
# (Stockfish 15.1 with UCI_LimitStrength and UCI_Elo=ELO, 1320..3190) or a level named earlier in
# PAIRS, whose measured Elo then anchors this one (the two 95% margins add in quadrature). A level is
# `schach uci` with its "Skill Level" (src/engine/levels.c). Each pairing plays GAMES games (each
# opening of data/openings.pgn twice, colours swapped) at TC, CONCURRENCY at once.
#
# Stockfish's UCI_Elo is its own estimate (anchored to CCRL at 60 s + 0.6 s); these figures are no
# better than that anchor. The weakest levels are chained to the next one up because Stockfish goes
# no lower than 1320.
#
# Environment: GAMES (60), TC (10+0.1), CONCURRENCY (2), OUT (a new folder under /tmp),
# PAIRS (default below). A quick check of the script itself: GAMES=2 PAIRS="club:sf1500" bench/levels.sh
set -uo pipefail

source "$(dirname "$0")/lib/match.bash"
schach=$(schach_binary levels.sh "${1:-}") || exit 1
games=${GAMES:-60}
tc=${TC:-10+0.1}
concurrency=${CONCURRENCY:-2}
pairs=${PAIRS:-club:sf1500 strong:sf1800 expert:sf2100 master:sf2400 casual:sf1320 novice:casual beginner:novice}
out=${OUT:-$(mktemp -d /tmp/schach-levels.XXXXXX)}
mkdir -p "$out"
export LC_ALL=C

stockfish=$(find_engine stockfish) ||
    { echo "levels.sh: stockfish is not installed (scripts/install-deps)" >&2; exit 1; }

# skill LEVEL: the level's "Skill Level", read from src/engine/levels.c so that this script never
# disagrees with the table the program uses.
levels_c=$(dirname "$0")/../src/engine/levels.c
skill() {
    sed -n 's/^ *{"'"$1"'", "[^"]*", "[^"]*", -\{0,1\}[0-9]*, \([0-9]*\)},.*/\1/p' "$levels_c"
}

declare -A elo margin
rows=()
notes=()

for pair in $pairs; do
    level=${pair%%:*}
    opp=${pair#*:}
    s=$(skill "$level")
    [ -n "$s" ] || { notes+=("unknown level '$level'"); continue; }
    case $opp in
        sf*)
            anchor=${opp#sf}
            anchor_margin=0
            opp_words=(cmd="$stockfish" option.UCI_LimitStrength=true option.UCI_Elo="$anchor" name="Stockfish-$anchor") ;;
        *)
            os=$(skill "$opp")
            if [ -z "$os" ] || [ -z "${elo[$opp]:-}" ]; then
                notes+=("$level: opponent '$opp' is neither sfELO nor a level measured earlier in PAIRS")
                continue
            fi
            anchor=${elo[$opp]}
            anchor_margin=${margin[$opp]}
            opp_words=(cmd="$schach uci" "option.Skill Level=$os" name="$opp") ;;
    esac
    file=$out/$level-vs-$opp
    echo "levels.sh: $level (skill $s) vs $opp ($games games at $tc) ..." >&2
    "$schach" --lang en match --engine cmd="$schach uci" "option.Skill Level=$s" name="$level" \
        --engine "${opp_words[@]}" --tc "$tc" --games "$games" --concurrency "$concurrency" --report 20 \
        --pgn "$file.pgn" >"$file.txt" 2>"$file.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        notes+=("$level vs $opp did not run (exit $rc): $(head -c 300 "$file.err")")
        continue
    fi
    final=$(final_report "$file.txt")
    wld=$(sed -n 's/^Score of .* vs .*: \([0-9]* - [0-9]* - [0-9]*\) (W - L - D)  \[\([0-9.]*\)\] .*$/\1|\2/p' <<<"$final")
    diff=$(sed -n 's/^Elo difference: \([-+0-9.inf]*\) +\/- \([0-9.inf]*\) (95%, trinomial)$/\1|\2/p' <<<"$final")
    errors=$(sed -n 's/^Protocol errors: //p' <<<"$final")
    IFS='|' read -r score frac <<<"$wld"
    IFS='|' read -r d m <<<"$diff"
    # A whitewash has no finite Elo difference: say so instead of inventing one.
    if [[ $d =~ ^[-+]?[0-9.]+$ && $m =~ ^[0-9.]+$ ]]; then
        elo[$level]=$(awk -v a="$anchor" -v d="$d" 'BEGIN{printf "%.0f", a + d}')
        margin[$level]=$(awk -v a="$anchor_margin" -v m="$m" 'BEGIN{printf "%.0f", sqrt(a * a + m * m)}')
        measured="${elo[$level]} ± ${margin[$level]}"
    else
        measured="(no finite estimate: $d)"
    fi
    rows+=("| $level | $s | $opp | $games | $score | $frac | $d ± $m | **$measured** | $errors |")
done

echo "## schach levels ($games games per pairing, tc $tc, concurrency $concurrency, $(date +%Y-%m-%d))"
echo
echo "Level Elo = the opponent's Elo (Stockfish's UCI_Elo, or a level measured above) + the measured"
echo "difference; margins are 95% (trinomial), added in quadrature along a chain."
echo
echo "| Level | Skill | Opponent | Games | Level W - L - D | Score | Elo diff | Level Elo | Protocol errors |"
echo "|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "$r"; done
for n in "${notes[@]}"; do echo; echo "Note: $n"; done
echo
echo "PGN and match outputs: $out"
