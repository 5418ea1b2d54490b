#!/usr/bin/env python3
"""Picks the games of bench/analysis.sh from PGN files: those `schach pgn check --json` reads without
an error and with at least one move, in file order, until COUNT; writes them to OUT.

    games.py SCHACH COUNT OUT FILE...

With COUNT 1 and --plies N before the files, the first game of exactly N plies (a 40-move game: 80)."""
import json
import re
import subprocess
import sys


def split_games(text):
    """The games of a PGN text, each from its first tag line to the next game's."""
    starts = [m.start() for m in re.finditer(r"(?m)^\[Event ", text)]
    return [text[a:b].strip() + "\n" for a, b in zip(starts, starts[1:] + [len(text)])]


def main():
    schach, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    files = sys.argv[4:]
    plies = None
    if files and files[0] == "--plies":
        plies, files = int(files[1]), files[2:]
    chosen = []
    for f in files:
        games = split_games(open(f, encoding="utf-8").read())
        report = subprocess.run([schach, "pgn", "check", "--json", f], capture_output=True, text=True).stdout
        checks = [json.loads(line) for line in report.splitlines() if line.strip()]
        if len(checks) != len(games):  # a file whose games the split does not find: leave it out
            continue
        for game, check in zip(games, checks):
            if check["error"] is None and check["plies"] > 0 and (plies is None or check["plies"] == plies):
                chosen.append(game)
            if len(chosen) == count:
                break
        if len(chosen) == count:
            break
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(chosen))
    print(len(chosen))


main()
