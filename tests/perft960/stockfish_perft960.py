#!/usr/bin/env python3
"""Chess960 perft suite: computes node counts with Stockfish (UCI_Chess960) and checks or writes
tests/data/perft960.epd. The unit test test_chess960 compares schach with the stored counts, so
`make test` needs no Stockfish; this script is how the counts were made and how to re-check them.

    tests/perft960/stockfish_perft960.py            check the stored counts against Stockfish
    tests/perft960/stockfish_perft960.py --write    recompute every count and rewrite the EPD
    STOCKFISH=/path/to/stockfish                    (default: stockfish on PATH or /usr/games)

Exit status 1 when a stored count differs from Stockfish's.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EPD = os.path.join(HERE, "..", "data", "perft960.epd")


def scharnagl(n):
    """Back rank of Chess960 start position n (0-959), written independently of the C code."""
    rank = [None] * 8
    rank[2 * (n % 4) + 1] = "B"
    n //= 4
    rank[2 * (n % 4)] = "B"
    n //= 4
    q, n = n % 6, n // 6
    free = [f for f in range(8) if rank[f] is None]
    rank[free[q]] = "Q"
    pairs = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    free = [f for f in range(8) if rank[f] is None]
    for k in pairs[n]:
        rank[free[k]] = "N"
    for f, p in zip([f for f in range(8) if rank[f] is None], "RKR"):
        rank[f] = p
    return "".join(rank)


def start_fen(n):
    r = scharnagl(n)
    files = [chr(ord("a") + f) for f in range(8) if r[f] == "R"]
    rights = files[1].upper() + files[0].upper() + files[1] + files[0]
    return f"{r.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{r} w {rights} - 0 1"


# (FEN, depth, why). Depths keep each count below a few million so the unit test stays fast.
POSITIONS = [(start_fen(n), 4, f"start position {n}") for n in (0, 1, 518, 959, 100, 287, 666)] + [
    # Published Chess960 perft positions (chessprogramming wiki), counts recomputed here.
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 4, "cpw 1"),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 4, "cpw 2"),
    ("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 4, "cpw 3"),
    ("qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 4, "cpw 4"),
    ("1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", 4, "cpw 5"),
    # Kings on the b- and g-files; kings that do not move when castling.
    ("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", 4, "kings on b: a-side castling b1-c1, rook a1-d1"),
    ("r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1", 4, "kings on g: h-side castling leaves the king on g1"),
    ("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1", 4, "king f1 and rook g1 swap"),
    ("2rk3r/8/8/8/8/8/8/1RK4R w HBhc - 0 1", 4, "rook b1, king c1: a-side castling leaves the king on c1"),
    # Adjacent rooks: the rook already stands on its target square.
    ("3rkr2/pppppppp/8/8/8/8/PPPPPPPP/3RKR2 w FDfd - 0 1", 4, "rooks d1 and f1 beside the king on e1"),
    ("4k3/8/8/8/8/8/8/3R1K2 w D - 0 1", 5, "rook d1 on the path of king f1 to c1"),
    # Attacks: through, into, on the rook's square only, and shielded by the castling rook.
    ("4k3/8/8/8/7b/8/8/1K5R w H - 0 1", 5, "bishop h4 attacks e1 on the king's path"),
    ("4k3/8/8/8/8/8/8/qRK4R w HB - 0 1", 4, "queen a1 behind rook b1: castling would expose c1"),
    ("1r2k3/8/8/8/8/8/8/qRK4R w H - 0 1", 4, "queen a1, a-side right gone"),
    ("3rk3/8/8/8/8/8/8/RK6 w A - 0 1", 5, "rook d8 attacks only the rook's target d1"),
    ("4k3/8/8/8/8/8/6r1/1K5R w H - 0 1", 4, "rook g2 attacks g1: castling into check"),
    ("1r2k3/8/8/8/8/8/8/RK5R w HA - 0 1", 4, "king b1 in check: no castling"),
    ("4k3/8/8/8/8/8/8/RN4K1 w A - 0 1", 5, "knight b1 blocks the rook's way, not the king's"),
    ("4k3/8/8/8/8/8/8/R1n1K2R w HA - 0 1", 5, "enemy knight c1 on the king's target"),
    # Two rooks on one side: rights are per rook (file letters in X-FEN).
    ("4k3/8/8/8/8/8/8/4K1RR w G - 0 1", 5, "castling with the inner rook g1, rook h1 stays"),
    ("r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1", 4, "inner rooks c1 and c8 hold the rights"),
    # Black castling and mixed positions.
    ("1r4kr/8/8/8/8/8/8/4K3 b hb - 0 1", 5, "black king g8 with rooks b8 and h8"),
    ("rkr5/ppp5/8/8/8/8/5PPP/5RKR b HFca - 0 1", 4, "both sides, kings b8 and g1, rooks adjacent"),
    ("nrkbrqbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBRQBN w EBeb - 0 1", 4, "start-like array with king c1"),
    ("brkrnqbn/p1pppppp/8/1p6/6P1/8/PPPPPP1P/BRKRNQBN w DBdb - 0 3", 4, "bishops opened, king c1"),
]


def find_stockfish():
    for cand in (os.environ.get("STOCKFISH"), shutil.which("stockfish"), "/usr/games/stockfish"):
        if cand and os.path.exists(cand):
            return cand
    sys.exit("stockfish not found (set STOCKFISH)")


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError("stockfish ended")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.wait("Nodes searched").split(":")[1])

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    write = "--write" in sys.argv[1:]
    sf = Stockfish(find_stockfish())
    if write:
        with open(EPD, "w") as out:
            for fen, depth, why in POSITIONS:
                counts = " ".join(f";D{d} {sf.perft(fen, d)}" for d in range(1, depth + 1))
                out.write(f"{fen} {counts} ; {why}\n")
        print(f"wrote {len(POSITIONS)} positions to {EPD}")
        sf.close()
        return 0
    bad = checked = 0
    for line in open(EPD):
        parts = line.rstrip("\n").split(";")
        fen = parts[0].strip()
        for part in parts[1:]:
            part = part.strip()
            if not part.startswith("D"):
                continue
            depth, expected = part[1:].split()
            got = sf.perft(fen, int(depth))
            checked += 1
            if got != int(expected):
                print(f"MISMATCH {fen} depth {depth}: stored {expected}, stockfish {got}")
                bad += 1
    sf.close()
    print(f"{checked} counts checked against stockfish, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
