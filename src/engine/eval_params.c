/* Engine: the evaluation weights (see eval_params.h for the layout). Hand-written starting values:
 * the Texel tuner (eval_trace() in eval.h) replaces them with values fitted to our own games. */
#include "eval_params.h"

/* clang-format off */
const Score eval_params[EP_COUNT] = {
/* Material: pawn, knight, bishop, rook, queen. */
    S(80, 110), S(320, 340), S(335, 355), S(450, 590), S(950, 1100),
/* Piece-square table: pawn (rank 1 first; files a-d, mirrored onto h-e). */
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-2, 0), S(0, 0), S(0, 0), S(-5, 0),
    S(0, 0), S(2, 0), S(5, 0), S(7, 0),
    S(4, 5), S(6, 5), S(14, 5), S(21, 5),
    S(10, 15), S(12, 15), S(22, 15), S(32, 15),
    S(18, 30), S(20, 30), S(26, 30), S(30, 30),
    S(33, 55), S(35, 55), S(35, 55), S(35, 55),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
/* Piece-square table: knight (rank 1 first; files a-d, mirrored onto h-e). */
    S(-25, -25), S(-25, -25), S(-25, -25), S(-25, -25),
    S(-25, -25), S(-5, -6), S(-5, -6), S(-5, -6),
    S(-25, -25), S(-5, -6), S(8, 6), S(8, 6),
    S(-20, -25), S(0, -6), S(13, 6), S(20, 12),
    S(-20, -25), S(0, -6), S(13, 6), S(20, 12),
    S(-20, -25), S(0, -6), S(13, 6), S(13, 6),
    S(-25, -25), S(-5, -6), S(-5, -6), S(-5, -6),
    S(-25, -25), S(-25, -25), S(-25, -25), S(-25, -25),
/* Piece-square table: bishop (rank 1 first; files a-d, mirrored onto h-e). */
    S(-15, -8), S(-15, -8), S(-15, -8), S(-15, -8),
    S(-10, -8), S(0, 0), S(0, 0), S(0, 0),
    S(-10, -8), S(0, 0), S(5, 3), S(5, 3),
    S(-10, -8), S(0, 0), S(5, 3), S(8, 6),
    S(-10, -8), S(0, 0), S(5, 3), S(8, 6),
    S(-10, -8), S(0, 0), S(5, 3), S(5, 3),
    S(-10, -8), S(0, 0), S(0, 0), S(0, 0),
    S(-10, -8), S(-10, -8), S(-10, -8), S(-10, -8),
/* Piece-square table: rook (rank 1 first; files a-d, mirrored onto h-e). */
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
    S(9, 8), S(12, 8), S(16, 8), S(16, 8),
    S(-3, 0), S(0, 0), S(4, 0), S(4, 0),
/* Piece-square table: queen (rank 1 first; files a-d, mirrored onto h-e). */
    S(-5, -10), S(-5, -10), S(-5, -10), S(-5, -10),
    S(-5, -10), S(0, 0), S(0, 0), S(0, 0),
    S(-5, -10), S(0, 0), S(2, 5), S(2, 5),
    S(-5, -10), S(0, 0), S(2, 5), S(4, 10),
    S(-5, -10), S(0, 0), S(2, 5), S(4, 10),
    S(-5, -10), S(0, 0), S(2, 5), S(2, 5),
    S(-5, -10), S(0, 0), S(0, 0), S(0, 0),
    S(-5, -10), S(-5, -10), S(-5, -10), S(-5, -10),
/* Piece-square table: king (rank 1 first; files a-d, mirrored onto h-e). */
    S(15, -25), S(25, -25), S(5, -25), S(-10, -25),
    S(5, -25), S(10, 0), S(-5, 0), S(-20, 0),
    S(-25, -25), S(-25, 0), S(-25, 15), S(-25, 15),
    S(-35, -25), S(-35, 0), S(-35, 15), S(-35, 30),
    S(-45, -25), S(-45, 0), S(-45, 15), S(-45, 30),
    S(-55, -25), S(-55, 0), S(-55, 15), S(-55, 15),
    S(-65, -25), S(-65, 0), S(-65, 0), S(-65, 0),
    S(-70, -25), S(-70, -25), S(-70, -25), S(-70, -25),
/* Mobility: knight (0..8 squares), bishop (0..13), rook (0..14), queen (0..27). */
    S(-50, -60), S(-25, -30), S(-15, -18), S(-7, -8), S(0, 0), S(6, 7), S(11, 13), S(16, 19), S(21, 25),
    S(-54, -69), S(-32, -41), S(-23, -29), S(-16, -20), S(-10, -13), S(-5, -6), S(0, 0),
    S(4, 5), S(8, 11), S(12, 15), S(16, 20), S(19, 24), S(22, 28), S(25, 32),
    S(-37, -86), S(-22, -51), S(-16, -36), S(-11, -25), S(-7, -16), S(-3, -7), S(0, 0), S(3, 7),
    S(6, 13), S(8, 19), S(11, 25), S(13, 30), S(15, 36), S(17, 40), S(19, 45),
    S(-28, -69), S(-20, -49), S(-16, -41), S(-14, -35), S(-12, -29), S(-10, -25), S(-8, -20),
    S(-7, -16), S(-5, -13), S(-4, -9), S(-2, -6), S(-1, -3), S(0, 0), S(1, 3),
    S(2, 6), S(3, 8), S(4, 11), S(5, 13), S(6, 16), S(7, 18), S(8, 20),
    S(9, 22), S(10, 25), S(11, 27), S(11, 29), S(12, 31), S(13, 33), S(14, 35),
/* Pawns: doubled, isolated, backward. */
    S(-10, -20), S(-10, -12), S(-6, -8),
/* Connected pawn by relative rank. */
    S(0, 0), S(4, 2), S(6, 4), S(9, 7), S(14, 12), S(25, 25), S(45, 45), S(0, 0),
/* Passed pawn by relative rank. */
    S(0, 0), S(5, 10), S(5, 15), S(10, 25), S(20, 45), S(40, 75), S(70, 120), S(0, 0),
/* Passed pawn with a free path, by relative rank. */
    S(0, 0), S(0, 0), S(0, 0), S(2, 5), S(6, 12), S(12, 25), S(22, 45), S(0, 0),
/* Passed pawn blocked by a piece, by relative rank. */
    S(0, 0), S(0, 0), S(0, 0), S(-2, -5), S(-4, -10), S(-6, -18), S(-8, -25), S(0, 0),
/* Passed pawn: own king distance, enemy king distance. */
    S(0, -4), S(0, 8),
/* Bishop pair, knight outpost, bishop outpost, minor behind pawn. */
    S(25, 50), S(20, 12), S(12, 6), S(6, 2),
/* Rook on an open file, on a half-open file, on the seventh rank. */
    S(25, 10), S(10, 5), S(10, 20),
/* Threats: by a pawn, by a minor on a major, by a rook on a queen; hanging piece. */
    S(50, 40), S(35, 30), S(40, 30), S(20, 20),
/* King attack per attacked king-zone square: knight, bishop, rook, queen. */
    S(8, 0), S(8, 0), S(10, 0), S(14, 0),
/* Safe check: knight, bishop, rook, queen. */
    S(40, 5), S(25, 5), S(45, 5), S(35, 5),
/* King shelter by distance of the nearest own pawn in front (7: none). */
    S(0, 0), S(10, 0), S(5, 0), S(0, 0), S(-5, 0), S(-8, 0), S(-10, 0), S(-20, 0),
/* King on an open file; tempo. */
    S(-20, 0), S(18, 6),
};
/* clang-format on */
