#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match.sh: starts normally but never answers "go" (it hangs).
while read -r cmd _; do
    case $cmd in
        uci) echo "id name Silent"; echo "uciok" ;;
        isready) echo "readyok" ;;
        quit) exit 0 ;;
    esac
done
