#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match.sh: starts normally, then exits (a crash) when asked to move.
while read -r cmd _; do
    case $cmd in
        uci) echo "id name Crasher"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go) exit 3 ;;
        quit) exit 0 ;;
    esac
done
