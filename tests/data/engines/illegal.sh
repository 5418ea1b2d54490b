#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match.sh: speaks the protocol but always answers an illegal move.
while read -r cmd _; do
    case $cmd in
        uci) echo "id name Illegal"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go) echo "info depth 1 score cp 0"; echo "bestmove a1a1" ;;
        quit) exit 0 ;;
    esac
done
