/** @file
 * libschach: basic types shared by every module: colours, pieces, squares, moves.
 *
 * Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
 * A Bitboard has bit n set for square n.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_TYPES_H
#define SCH_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A set of squares: bit n for square n. */
typedef uint64_t SchBitboard;

/** The two sides. */
typedef enum { SCH_WHITE = 0, SCH_BLACK = 1 } SchColor;

/** The kinds of piece; SCH_PIECE_TYPE_NB counts them (and means "none" where a type is optional). */
typedef enum { SCH_PAWN = 0, SCH_KNIGHT, SCH_BISHOP, SCH_ROOK, SCH_QUEEN, SCH_KING, SCH_PIECE_TYPE_NB } SchPieceType;

/** A coloured piece: type + 6 * colour; SCH_NO_PIECE marks an empty square. */
typedef enum {
    SCH_W_PAWN = 0,
    SCH_W_KNIGHT,
    SCH_W_BISHOP,
    SCH_W_ROOK,
    SCH_W_QUEEN,
    SCH_W_KING,
    SCH_B_PAWN,
    SCH_B_KNIGHT,
    SCH_B_BISHOP,
    SCH_B_ROOK,
    SCH_B_QUEEN,
    SCH_B_KING,
    SCH_NO_PIECE = 12
} SchPiece;

/** The 64 squares, a1 = 0 to h8 = 63, and SCH_SQ_NONE. */
typedef enum {
    SCH_SQ_A1,
    SCH_SQ_B1,
    SCH_SQ_C1,
    SCH_SQ_D1,
    SCH_SQ_E1,
    SCH_SQ_F1,
    SCH_SQ_G1,
    SCH_SQ_H1,
    SCH_SQ_A2,
    SCH_SQ_B2,
    SCH_SQ_C2,
    SCH_SQ_D2,
    SCH_SQ_E2,
    SCH_SQ_F2,
    SCH_SQ_G2,
    SCH_SQ_H2,
    SCH_SQ_A3,
    SCH_SQ_B3,
    SCH_SQ_C3,
    SCH_SQ_D3,
    SCH_SQ_E3,
    SCH_SQ_F3,
    SCH_SQ_G3,
    SCH_SQ_H3,
    SCH_SQ_A4,
    SCH_SQ_B4,
    SCH_SQ_C4,
    SCH_SQ_D4,
    SCH_SQ_E4,
    SCH_SQ_F4,
    SCH_SQ_G4,
    SCH_SQ_H4,
    SCH_SQ_A5,
    SCH_SQ_B5,
    SCH_SQ_C5,
    SCH_SQ_D5,
    SCH_SQ_E5,
    SCH_SQ_F5,
    SCH_SQ_G5,
    SCH_SQ_H5,
    SCH_SQ_A6,
    SCH_SQ_B6,
    SCH_SQ_C6,
    SCH_SQ_D6,
    SCH_SQ_E6,
    SCH_SQ_F6,
    SCH_SQ_G6,
    SCH_SQ_H6,
    SCH_SQ_A7,
    SCH_SQ_B7,
    SCH_SQ_C7,
    SCH_SQ_D7,
    SCH_SQ_E7,
    SCH_SQ_F7,
    SCH_SQ_G7,
    SCH_SQ_H7,
    SCH_SQ_A8,
    SCH_SQ_B8,
    SCH_SQ_C8,
    SCH_SQ_D8,
    SCH_SQ_E8,
    SCH_SQ_F8,
    SCH_SQ_G8,
    SCH_SQ_H8,
    SCH_SQ_NONE = 64
} SchSquare;

/** Castling rights, one bit each. */
enum {
    SCH_CASTLE_WK = 1, /**< white king side  (O-O)   */
    SCH_CASTLE_WQ = 2, /**< white queen side (O-O-O) */
    SCH_CASTLE_BK = 4,
    SCH_CASTLE_BQ = 8,
    SCH_CASTLE_ALL = 15
};

/** Language of user-facing text and of piece letters in notation. */
typedef enum { SCH_LANG_EN = 0, SCH_LANG_DE = 1 } SchLang;

/** A move in 16 bits:
 *
 *   15 14 | 13 12 | 11 ........ 6 | 5 ........ 0
 *    kind | promo |  to square    | from square
 *
 * kind:  SCH_MOVE_NORMAL, SCH_MOVE_PROMOTION, SCH_MOVE_EN_PASSANT, SCH_MOVE_CASTLING
 * promo: promotion piece minus KNIGHT (0 knight, 1 bishop, 2 rook, 3 queen)
 * Castling is stored as the king's two-square move (e1g1, e1c1, e8g8, e8c8).
 * SCH_MOVE_NONE (0) is never a legal move because from == to.
 */
typedef uint16_t SchMove;

/** No move (from == to == a1): what parsers return when they find none. */
enum { SCH_MOVE_NONE = 0 };
/** A null move: it passes the turn (PGN "--"). Its from and to squares are both h8, so it is no real
 * move and not SCH_MOVE_NONE. A game record (game.h) holds it where the side to move is not in check;
 * sch_san_write and sch_lan_write write it "--". It is no legal move: the move generator never gives
 * it and sch_pos_make does not take it (sch_pos_make_null passes the turn). */
enum { SCH_MOVE_NULL = 63 | (63 << 6) };
/** The kinds of move, in a move's top two bits. */
enum { SCH_MOVE_NORMAL = 0, SCH_MOVE_PROMOTION = 1, SCH_MOVE_EN_PASSANT = 2, SCH_MOVE_CASTLING = 3 };

/** The move from -> to (a normal move). */
static inline SchMove sch_move_make(SchSquare from, SchSquare to) { return (SchMove)(from | (to << 6)); }
/** The move from -> to of a kind (SCH_MOVE_EN_PASSANT, SCH_MOVE_CASTLING, ...). */
static inline SchMove sch_move_make_kind(SchSquare from, SchSquare to, int kind) {
    return (SchMove)(from | (to << 6) | (kind << 14));
}
/** The pawn move from -> to that promotes to promo (SCH_KNIGHT to SCH_QUEEN). */
static inline SchMove sch_move_make_promotion(SchSquare from, SchSquare to, SchPieceType promo) {
    return (SchMove)(from | (to << 6) | ((promo - SCH_KNIGHT) << 12) | (SCH_MOVE_PROMOTION << 14));
}
/** The square a move starts from. */
static inline SchSquare sch_move_from(SchMove m) { return (SchSquare)(m & 63); }
/** The square a move goes to (for castling the king's target). */
static inline SchSquare sch_move_to(SchMove m) { return (SchSquare)((m >> 6) & 63); }
/** The kind of a move: SCH_MOVE_NORMAL, SCH_MOVE_PROMOTION, SCH_MOVE_EN_PASSANT or SCH_MOVE_CASTLING. */
static inline int sch_move_kind(SchMove m) { return m >> 14; }
/** The piece a promotion creates; only meaningful when sch_move_kind(m) == SCH_MOVE_PROMOTION. */
static inline SchPieceType sch_move_promotion(SchMove m) { return (SchPieceType)(((m >> 12) & 3) + SCH_KNIGHT); }

/** The piece of colour c and type t. */
static inline SchPiece sch_piece_make(SchColor c, SchPieceType t) { return (SchPiece)(t + 6 * c); }
/** The type of a piece (not SCH_NO_PIECE). */
static inline SchPieceType sch_piece_type(SchPiece p) { return (SchPieceType)(p % 6); }
/** The colour of a piece (not SCH_NO_PIECE). */
static inline SchColor sch_piece_color(SchPiece p) { return (SchColor)(p >= SCH_B_PAWN); }

/** The file of a square, 0 (a) to 7 (h). */
static inline int sch_square_file(SchSquare s) { return s & 7; }
/** The rank of a square, 0 (rank 1) to 7 (rank 8). */
static inline int sch_square_rank(SchSquare s) { return s >> 3; }
/** The square on file (0-7) and rank (0-7). */
static inline SchSquare sch_square_make(int file, int rank) { return (SchSquare)(rank * 8 + file); }
/** The same square seen from black's side (rank mirrored) when c is BLACK. */
static inline SchSquare sch_square_relative(SchColor c, SchSquare s) { return (SchSquare)(s ^ (c * 56)); }

/** Maximum number of legal moves in any chess position is 218; leave headroom. */
#define SCH_MAX_MOVES 256
/** Longest FEN this library writes, including the terminating NUL. */
#define SCH_FEN_MAX 96

#ifdef __cplusplus
}
#endif

#endif
