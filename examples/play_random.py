#!/usr/bin/env python3
"""play_random.py: libschach from Python through ctypes, with nothing but the shared library.

    python3 play_random.py [--lib PATH] [--seed N] [--chess960 N]

Plays a game of random legal moves (the same game for the same seed) until the rules end it, and
prints the moves in SAN, the final FEN and how the game ended. The library decides every rule; this
script only picks moves. It shows that libschach's ABI serves other languages: plain C functions,
plain structs (declared below exactly as in include/schach/position.h and game.h), and integer
constants. --lib names the library (default: libschach.so.1 wherever the system finds it).
"""
import argparse
import ctypes
import ctypes.util
import random
import sys

SCH_MAX_MOVES = 256
SCH_FEN_MAX = 96
SCH_MOVE_TEXT_MAX = 16
SCH_LANG_EN = 0
SCH_GEN_ALL = 0
SCH_RESULT_NONE = 0


class SchPosition(ctypes.Structure):
    _fields_ = [
        ("by_type", ctypes.c_uint64 * 6),
        ("by_color", ctypes.c_uint64 * 2),
        ("board", ctypes.c_uint8 * 64),
        ("turn", ctypes.c_uint8),
        ("castling", ctypes.c_uint8),
        ("ep", ctypes.c_uint8),
        ("halfmove", ctypes.c_uint16),
        ("fullmove", ctypes.c_uint16),
        ("checkers", ctypes.c_uint64),
        ("key", ctypes.c_uint64),
        ("castle_rook", ctypes.c_uint8 * 4),
        ("chess960", ctypes.c_uint8),
    ]


class SchOutcome(ctypes.Structure):
    _fields_ = [("result", ctypes.c_int), ("termination", ctypes.c_int), ("winner", ctypes.c_int),
                ("reason", ctypes.c_int)]


class SchGame(ctypes.Structure):
    _fields_ = [
        ("start", SchPosition),
        ("pos", SchPosition),
        ("start_key", ctypes.c_uint64),
        ("plies", ctypes.c_void_p),
        ("ply_count", ctypes.c_int),
        ("ply_capacity", ctypes.c_int),
        ("outcome", SchOutcome),
        ("draw_offer", ctypes.c_int),
        ("dead_mode", ctypes.c_uint8),
        ("dead_pending", ctypes.c_bool),
    ]


class SchError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("line", ctypes.c_int), ("column", ctypes.c_int), ("game", ctypes.c_int),
                ("args", (ctypes.c_char * 96) * 3)]


def load(path):
    lib = ctypes.CDLL(path or ctypes.util.find_library("schach") or "libschach.so.1")
    signatures = {
        "sch_version": (ctypes.c_char_p, []),
        "sch_game_init": (None, [ctypes.POINTER(SchGame)]),
        "sch_game_init_chess960": (ctypes.c_bool, [ctypes.POINTER(SchGame), ctypes.c_int, ctypes.POINTER(SchError)]),
        "sch_game_free": (None, [ctypes.POINTER(SchGame)]),
        "sch_game_play": (ctypes.c_bool, [ctypes.POINTER(SchGame), ctypes.c_uint16, ctypes.POINTER(SchError)]),
        "sch_gen_moves": (ctypes.c_int, [ctypes.POINTER(SchPosition), ctypes.c_int, ctypes.POINTER(ctypes.c_uint16)]),
        "sch_san_write": (ctypes.c_size_t, [ctypes.POINTER(SchPosition), ctypes.c_uint16, ctypes.c_int,
                                            ctypes.c_char_p, ctypes.c_size_t]),
        "sch_fen_write": (ctypes.c_size_t, [ctypes.POINTER(SchPosition), ctypes.c_char_p, ctypes.c_size_t]),
        "sch_outcome_describe": (ctypes.c_size_t, [ctypes.POINTER(SchOutcome), ctypes.c_int, ctypes.c_char_p,
                                                   ctypes.c_size_t]),
        "sch_err_format": (ctypes.c_size_t, [ctypes.POINTER(SchError), ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib", help="path of libschach.so")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chess960", type=int, metavar="N", help="start from Chess960 position N (0-959)")
    args = parser.parse_args()
    lib = load(args.lib)
    rng = random.Random(args.seed)

    game = SchGame()
    err = SchError()
    if args.chess960 is not None:
        if not lib.sch_game_init_chess960(ctypes.byref(game), args.chess960, ctypes.byref(err)):
            text = ctypes.create_string_buffer(256)
            lib.sch_err_format(ctypes.byref(err), SCH_LANG_EN, text, len(text))
            print("play_random: " + text.value.decode(), file=sys.stderr)
            lib.sch_game_free(ctypes.byref(game))
            return 1
    else:
        lib.sch_game_init(ctypes.byref(game))
    print("libschach " + lib.sch_version().decode())

    moves = (ctypes.c_uint16 * SCH_MAX_MOVES)()
    san = ctypes.create_string_buffer(SCH_MOVE_TEXT_MAX)
    movetext = []
    while game.outcome.result == SCH_RESULT_NONE:
        count = lib.sch_gen_moves(ctypes.byref(game.pos), SCH_GEN_ALL, moves)
        move = moves[rng.randrange(count)]
        lib.sch_san_write(ctypes.byref(game.pos), move, SCH_LANG_EN, san, len(san))
        if game.pos.turn == 0:
            movetext.append("%d." % game.pos.fullmove)
        movetext.append(san.value.decode())
        if not lib.sch_game_play(ctypes.byref(game), move, ctypes.byref(err)):
            print("play_random: a generated move was refused", file=sys.stderr)
            return 1

    fen = ctypes.create_string_buffer(SCH_FEN_MAX)
    lib.sch_fen_write(ctypes.byref(game.pos), fen, len(fen))
    ending = ctypes.create_string_buffer(160)
    lib.sch_outcome_describe(ctypes.byref(game.outcome), SCH_LANG_EN, ending, len(ending))
    print(" ".join(movetext))
    print("plies: %d" % game.ply_count)
    print("fen: " + fen.value.decode())
    print("ending: " + ending.value.decode())
    lib.sch_game_free(ctypes.byref(game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
