#!/usr/bin/env bash
# A fake UCI engine for tests/cli/match.sh: prints garbage before the protocol starts, then is
# Stockfish (the program given as $1). Unknown lines must be ignored by a GUI.
printf 'Garbage Engine 0.0 by nobody\n\001\002 not uci at all\nuciok? no\nid name\n'
printf 'bestmove e2e4\n'
exec "$@"
