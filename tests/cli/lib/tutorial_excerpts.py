#!/usr/bin/env python3
"""The code in docs/library/tutorial.md is the examples' own code, so it cannot go stale.

Usage: tutorial_excerpts.py TUTORIAL.md SOURCE_DIR

Every fenced code block right after a line `<!-- excerpt: examples/FILE -->` must consist of lines
of that file in the same order: runs of consecutive lines, where a line `/* ... */` (any indent)
in the block stands for lines left out. Every example program must be quoted at least once.
Exits 1 with what differs.
"""
import os
import re
import sys

EXAMPLES = ("examples/legal_moves.c", "examples/play_game.c", "examples/read_pgn.c", "examples/play_random.py")


def runs(block):
    current = []
    for line in block:
        if line.strip() in ("/* ... */", "# ..."):
            if current:
                yield current
            current = []
        else:
            current.append(line)
    if current:
        yield current


def find_run(lines, run, start):
    for i in range(start, len(lines) - len(run) + 1):
        if lines[i:i + len(run)] == run:
            return i + len(run)
    return -1


def main():
    tutorial, root = sys.argv[1], sys.argv[2]
    text = open(tutorial, encoding="utf-8").read().split("\n")
    problems, quoted = [], set()
    i = 0
    while i < len(text):
        m = re.match(r"<!-- excerpt: (\S+) -->$", text[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        if i + 1 >= len(text) or not text[i + 1].startswith("```"):
            problems.append("line %d: no code block after the excerpt marker" % (i + 1))
            i += 1
            continue
        end = i + 2
        while end < len(text) and text[end] != "```":
            end += 1
        block = text[i + 2:end]
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            problems.append("line %d: %s does not exist" % (i + 1, name))
        else:
            lines = open(path, encoding="utf-8").read().split("\n")
            position = 0
            for run in runs(block):
                position = find_run(lines, run, position)
                if position < 0:
                    problems.append("line %d: these lines are not in %s as they stand: %r" % (i + 1, name, run[:3]))
                    break
            quoted.add(name)
        i = end + 1
    for name in EXAMPLES:
        if name not in quoted:
            problems.append("%s is never quoted" % name)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
