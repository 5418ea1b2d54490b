#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match.sh: reads "uci" but never says "uciok".
while read -r cmd _; do
    case $cmd in
        quit) exit 0 ;;
    esac
done
