#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match_dead.sh: answers "go" with the move of its arguments whose
# index is the number of moves in the last "position" command, so both sides can share one list.
# The word "hang" never answers that "go" (the engine's flag falls).
moves=("$@")
ply=0
while read -r cmd rest; do
    case $cmd in
        uci) echo "id name Scripted"; echo "uciok" ;;
        isready) echo "readyok" ;;
        position)
            ply=0
            if [[ " $rest " == *" moves "* ]]; then
                read -ra played <<<"${rest#* moves }"
                ply=${#played[@]}
            fi
            ;;
        go) [ "${moves[$ply]:-0000}" = hang ] || echo "bestmove ${moves[$ply]:-0000}" ;;
        quit) exit 0 ;;
    esac
done
