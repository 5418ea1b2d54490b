/* libschach: basic types shared by every module: colours, pieces, squares, moves.
 *
 * Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
 * A Bitboard has bit n set for square n.
 */
#ifndef SCHACH_TYPES_H
#define SCHACH_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t Bitboard;

typedef enum { WHITE = 0, BLACK = 1 } Color;

typedef enum { PAWN = 0, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB } PieceType;

/* A coloured piece: type + 6 * colour; NO_PIECE marks an empty square. */
typedef enum {
    W_PAWN = 0,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    NO_PIECE = 12
} Piece;

typedef enum {
    SQ_A1,
    SQ_B1,
    SQ_C1,
    SQ_D1,
    SQ_E1,
    SQ_F1,
    SQ_G1,
    SQ_H1,
    SQ_A2,
    SQ_B2,
    SQ_C2,
    SQ_D2,
    SQ_E2,
    SQ_F2,
    SQ_G2,
    SQ_H2,
    SQ_A3,
    SQ_B3,
    SQ_C3,
    SQ_D3,
    SQ_E3,
    SQ_F3,
    SQ_G3,
    SQ_H3,
    SQ_A4,
    SQ_B4,
    SQ_C4,
    SQ_D4,
    SQ_E4,
    SQ_F4,
    SQ_G4,
    SQ_H4,
    SQ_A5,
    SQ_B5,
    SQ_C5,
    SQ_D5,
    SQ_E5,
    SQ_F5,
    SQ_G5,
    SQ_H5,
    SQ_A6,
    SQ_B6,
    SQ_C6,
    SQ_D6,
    SQ_E6,
    SQ_F6,
    SQ_G6,
    SQ_H6,
    SQ_A7,
    SQ_B7,
    SQ_C7,
    SQ_D7,
    SQ_E7,
    SQ_F7,
    SQ_G7,
    SQ_H7,
    SQ_A8,
    SQ_B8,
    SQ_C8,
    SQ_D8,
    SQ_E8,
    SQ_F8,
    SQ_G8,
    SQ_H8,
    SQ_NONE = 64
} Square;

/* Castling rights, one bit each. */
enum {
    CASTLE_WK = 1, /* white king side  (O-O)   */
    CASTLE_WQ = 2, /* white queen side (O-O-O) */
    CASTLE_BK = 4,
    CASTLE_BQ = 8,
    CASTLE_ALL = 15
};

/* Language of user-facing text and of piece letters in notation. */
typedef enum { LANG_EN = 0, LANG_DE = 1 } Lang;

/* A move in 16 bits:
 *
 *   15 14 | 13 12 | 11 ........ 6 | 5 ........ 0
 *    kind | promo |  to square    | from square
 *
 * kind:  MOVE_NORMAL, MOVE_PROMOTION, MOVE_EN_PASSANT, MOVE_CASTLING
 * promo: promotion piece minus KNIGHT (0 knight, 1 bishop, 2 rook, 3 queen)
 * Castling is stored as the king's two-square move (e1g1, e1c1, e8g8, e8c8).
 * MOVE_NONE (0) is never a legal move because from == to.
 */
typedef uint16_t Move;

enum { MOVE_NONE = 0 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

static inline Move move_make(Square from, Square to) { return (Move)(from | (to << 6)); }
static inline Move move_make_kind(Square from, Square to, int kind) { return (Move)(from | (to << 6) | (kind << 14)); }
static inline Move move_make_promotion(Square from, Square to, PieceType promo) {
    return (Move)(from | (to << 6) | ((promo - KNIGHT) << 12) | (MOVE_PROMOTION << 14));
}
static inline Square move_from(Move m) { return (Square)(m & 63); }
static inline Square move_to(Move m) { return (Square)((m >> 6) & 63); }
static inline int move_kind(Move m) { return m >> 14; }
/* The piece a promotion creates; only meaningful when move_kind(m) == MOVE_PROMOTION. */
static inline PieceType move_promotion(Move m) { return (PieceType)(((m >> 12) & 3) + KNIGHT); }

static inline Piece piece_make(Color c, PieceType t) { return (Piece)(t + 6 * c); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p % 6); }
static inline Color piece_color(Piece p) { return (Color)(p >= B_PAWN); }

static inline int square_file(Square s) { return s & 7; }
static inline int square_rank(Square s) { return s >> 3; }
static inline Square square_make(int file, int rank) { return (Square)(rank * 8 + file); }
/* The same square seen from black's side (rank mirrored) when c is BLACK. */
static inline Square square_relative(Color c, Square s) { return (Square)(s ^ (c * 56)); }

/* Maximum number of legal moves in any chess position is 218; leave headroom. */
#define SCHACH_MAX_MOVES 256
/* Longest FEN this library writes, including the terminating NUL. */
#define SCHACH_FEN_MAX 96

#ifdef __cplusplus
}
#endif

#endif
