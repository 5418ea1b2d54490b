#!/usr/bin/env python3
"""Compares two runs of `schach analyse --json` over the same games (bench/analysis.sh): the share of
moves judged the same way (null, inaccuracy, mistake, blunder), the share among the moves either run
judged, and the counts of each run.

    agreement.py LOW.jsonl HIGH.jsonl"""
import json
import sys


def judgements(path):
    return [[m["judgement"] for m in json.loads(line)["moves"]] for line in open(path) if line.strip()]


def main():
    low, high = judgements(sys.argv[1]), judgements(sys.argv[2])
    assert len(low) == len(high), "the runs analysed different games"
    same = total = judged = judged_same = 0
    counts = [{}, {}]
    for a, b in zip(low, high):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            total += 1
            same += x == y
            if x or y:
                judged += 1
                judged_same += x == y
            for run, j in ((0, x), (1, y)):
                counts[run][j or "none"] = counts[run].get(j or "none", 0) + 1
    print(f"games {len(low)} moves {total}")
    print(f"same judgement: {same}/{total} = {100.0 * same / total:.1f} %")
    if judged:
        print(f"same judgement where either run judged: {judged_same}/{judged} = {100.0 * judged_same / judged:.1f} %")
    for name, c in (("default", counts[0]), ("10x", counts[1])):
        print(f"{name}: " + ", ".join(f"{k} {c.get(k, 0)}" for k in ("none", "inaccuracy", "mistake", "blunder")))


main()
