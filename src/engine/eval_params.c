/* Engine: the evaluation weights (see eval_params.h for the layout). Written by tools/tune.c: hand-
 * written starting values, fitted to 119,699 quiet positions of 6,000 games of the engine against
 * itself (schach_tune selfplay --games 6000 --nodes 8000 --per-game 20 --seed 1, then schach_tune
 * tune --epochs 1500 --l2 1e-8). Against the hand-written values: +107 +/- 44 Elo (200 games at
 * 20,000 nodes per move). Without the L2 term the held-out error was lower still, but rare terms
 * drifted by up to 7 pawns and the engine played 94 Elo worse. */
#include "eval_params.h"

/* clang-format off */
const Score eval_params[EP_COUNT] = {
/* Material: pawn, knight, bishop, rook, queen. */
    S(61, 103), S(329, 360), S(350, 372), S(459, 634), S(971, 1119),
/* Piece-square table: pawn (rank 1 first; files a-d, mirrored onto h-e). */
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-7, 2), S(1, -10), S(8, 7), S(-2, 4),
    S(-7, -1), S(2, -12), S(-1, 6), S(5, 0),
    S(-6, -3), S(-10, 7), S(10, 2), S(12, -7),
    S(7, 29), S(5, 23), S(32, 8), S(22, 8),
    S(38, 27), S(35, 57), S(25, 33), S(23, 17),
    S(39, 50), S(31, 55), S(36, 47), S(43, 65),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
/* Piece-square table: knight (rank 1 first; files a-d, mirrored onto h-e). */
    S(-11, -24), S(-38, -30), S(-30, -24), S(-10, -14),
    S(-13, -20), S(-13, -12), S(-6, -17), S(-12, -12),
    S(-37, -46), S(-7, 2), S(-13, 1), S(11, -2),
    S(-14, -14), S(17, -1), S(9, 8), S(-10, 20),
    S(-17, -19), S(-1, -6), S(27, 14), S(18, 13),
    S(-16, -19), S(4, -16), S(32, 4), S(5, 1),
    S(-21, -20), S(-12, -11), S(10, 0), S(2, 9),
    S(-36, -30), S(-24, -25), S(-23, -18), S(-24, -23),
/* Piece-square table: bishop (rank 1 first; files a-d, mirrored onto h-e). */
    S(-14, -5), S(-9, -3), S(-15, -22), S(-25, -15),
    S(-18, -15), S(7, -7), S(9, -19), S(-11, 4),
    S(-7, -8), S(6, -5), S(-3, -1), S(-5, 6),
    S(-5, -12), S(4, 9), S(15, 9), S(24, 0),
    S(-30, -5), S(4, 9), S(-6, 3), S(19, 8),
    S(-11, 0), S(-5, 5), S(14, 5), S(1, 2),
    S(-14, -8), S(2, 11), S(14, 13), S(1, -1),
    S(-8, 0), S(-11, -10), S(-13, -7), S(-8, -6),
/* Piece-square table: rook (rank 1 first; files a-d, mirrored onto h-e). */
    S(-3, 2), S(-3, -6), S(7, -12), S(11, -25),
    S(-7, -5), S(-4, -15), S(8, -8), S(1, -10),
    S(-20, -2), S(-20, -5), S(-1, -16), S(-22, 0),
    S(-22, -4), S(11, 11), S(1, 5), S(8, 4),
    S(-8, 16), S(12, 17), S(19, 12), S(-3, 1),
    S(18, 9), S(8, 11), S(22, 6), S(18, 1),
    S(14, 17), S(17, 21), S(14, 11), S(12, 10),
    S(2, 11), S(4, 1), S(4, 5), S(1, 12),
/* Piece-square table: queen (rank 1 first; files a-d, mirrored onto h-e). */
    S(-14, -13), S(-11, -23), S(0, -29), S(-3, -19),
    S(11, -11), S(0, -3), S(23, -32), S(1, -4),
    S(-2, -4), S(-5, 7), S(-9, 18), S(-9, 12),
    S(-6, -11), S(-2, 8), S(0, 14), S(4, 26),
    S(-19, -9), S(2, 6), S(8, 9), S(-2, 11),
    S(3, -8), S(0, 3), S(-5, 12), S(10, 11),
    S(2, -11), S(5, -1), S(-3, 6), S(2, 4),
    S(-2, -12), S(0, -8), S(-7, -13), S(0, -8),
/* Piece-square table: king (rank 1 first; files a-d, mirrored onto h-e). */
    S(-2, -43), S(32, -33), S(13, -32), S(12, -49),
    S(2, -32), S(15, -4), S(-19, -1), S(-25, -7),
    S(-28, -9), S(-20, 5), S(-17, 16), S(-32, 7),
    S(-31, -13), S(-26, 8), S(-43, 13), S(-45, 34),
    S(-45, -26), S(-44, 6), S(-43, 22), S(-50, 27),
    S(-54, -16), S(-55, -5), S(-55, 22), S(-55, 27),
    S(-65, -27), S(-65, 3), S(-65, 7), S(-64, 4),
    S(-71, -30), S(-70, -25), S(-70, -25), S(-70, -25),
/* Mobility: knight (0..8 squares), bishop (0..13), rook (0..14), queen (0..27). */
    S(-34, -60), S(-20, -29), S(-12, -21), S(1, 5), S(1, -2), S(11, 14), S(20, 10), S(2, 29), S(-1, 21),
    S(-38, -74), S(-32, -41), S(-17, -40), S(-14, -24), S(-10, -2), S(2, 1), S(3, 5),
    S(2, 20), S(2, 15), S(6, 19), S(21, 13), S(20, 27), S(18, 27), S(19, 28),
    S(-51, -89), S(-22, -66), S(-10, -50), S(-14, -9), S(-2, -4), S(-3, 3), S(3, 4), S(2, 13),
    S(17, 19), S(0, 36), S(17, 28), S(25, 30), S(7, 49), S(26, 36), S(11, 38),
    S(-28, -69), S(-26, -49), S(-23, -44), S(-25, -34), S(-14, -33), S(-14, -36), S(-13, -32),
    S(-2, -20), S(4, -12), S(-1, -14), S(2, -2), S(3, 14), S(1, 7), S(9, 12),
    S(13, 19), S(5, 20), S(15, 13), S(6, 15), S(4, 17), S(6, 11), S(11, 22),
    S(11, 22), S(8, 23), S(12, 29), S(9, 26), S(12, 31), S(12, 32), S(13, 34),
/* Pawns: doubled, isolated, backward. */
    S(-3, 1), S(-8, -16), S(0, -13),
/* Connected pawn by relative rank. */
    S(0, 0), S(3, 1), S(13, 2), S(11, 11), S(5, 9), S(55, 42), S(47, 44), S(0, 0),
/* Passed pawn by relative rank. */
    S(0, 0), S(13, 28), S(-2, 22), S(13, 34), S(8, 38), S(32, 67), S(80, 117), S(0, 0),
/* Passed pawn with a free path, by relative rank. */
    S(0, 0), S(0, -1), S(2, 14), S(-8, 14), S(4, 20), S(15, 34), S(26, 55), S(0, 0),
/* Passed pawn blocked by a piece, by relative rank. */
    S(0, 0), S(-3, 5), S(-12, -4), S(-13, -9), S(1, -9), S(-25, -28), S(-12, -47), S(0, 0),
/* Passed pawn: own king distance, enemy king distance. */
    S(3, -6), S(-5, 13),
/* Bishop pair, knight outpost, bishop outpost, minor behind pawn. */
    S(27, 60), S(20, 29), S(23, 10), S(3, 13),
/* Rook on an open file, on a half-open file, on the seventh rank. */
    S(39, 4), S(7, 11), S(10, 15),
/* Threats: by a pawn, by a minor on a major, by a rook on a queen; hanging piece. */
    S(38, 37), S(34, 27), S(44, 28), S(13, 15),
/* King attack per attacked king-zone square: knight, bishop, rook, queen. */
    S(8, 0), S(13, -11), S(21, -2), S(9, 24),
/* Safe check: knight, bishop, rook, queen. */
    S(34, 5), S(2, 29), S(35, 16), S(27, 18),
/* King shelter by distance of the nearest own pawn in front (7: none). */
    S(0, 0), S(12, -5), S(4, -1), S(2, -4), S(1, 4), S(-3, -3), S(-10, -2), S(-17, 7),
/* King on an open file; tempo. */
    S(-12, 3), S(14, 4),
};
/* clang-format on */
