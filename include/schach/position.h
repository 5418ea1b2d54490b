/* libschach: the position (board, side to move, castling rights, en passant, clocks) and make/unmake.
 *
 * A Position is a plain value: copy it freely; it owns no memory. Everything about one game lives in
 * its Position and Game, never in globals, so many games may run on many threads.
 *
 * En passant: `ep` holds the square a pawn passed over on the last move, but only when an enemy pawn
 * stands beside it (could capture pseudo-legally); otherwise SQ_NONE. The Zobrist key includes the
 * ep file exactly when `ep` is set. Whether the capture is *legal* is answered by gen_ep_legal()
 * (movegen.h); FEN output and repetition identity use that.
 */
#ifndef SCHACH_POSITION_H
#define SCHACH_POSITION_H

#include <stddef.h>

#include "bitboard.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Position {
    Bitboard by_type[PIECE_TYPE_NB]; /* squares of each piece type, both colours */
    Bitboard by_color[2];            /* squares of each colour's pieces */
    uint8_t board[64];               /* Piece on each square, NO_PIECE if empty */
    uint8_t turn;                    /* Color to move */
    uint8_t castling;                /* CASTLE_* bits still available */
    uint8_t ep;                      /* Square (see above) or SQ_NONE */
    uint16_t halfmove;               /* plies since the last capture or pawn move (50/75-move rules) */
    uint16_t fullmove;               /* starts at 1, incremented after black's move */
    Bitboard checkers;               /* enemy pieces giving check to the side to move */
    uint64_t key;                    /* Zobrist key, kept incrementally */
    /* Chess960 (FIDE Laws, Guidelines II). Castling rights are per rook: castle_rook[i] is the square
     * of the rook that right (1 << i) castles with (CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ order);
     * h1, a1, h8, a8 in standard chess. The king castles from wherever it stands between the rooks and
     * ends on the g- or c-file as usual; the move is still stored as the king's move to that square. */
    uint8_t castle_rook[4];
    /* Chess960 conventions for notation: UCI writes castling as king-takes-rook (e1h1), FEN writes
     * X-FEN file letters where KQkq would be ambiguous. Not part of the position's identity (key). */
    uint8_t chess960;
} Position;

/* What pos_make() saves so that pos_unmake() restores the position exactly. Owned by the caller. */
typedef struct Undo {
    uint64_t key;
    Bitboard checkers;
    uint16_t halfmove;
    uint8_t castling;
    uint8_t ep;
    uint8_t captured; /* Piece captured by the move, NO_PIECE if none */
} Undo;

/* Zobrist keys, filled by schach_init(). */
extern SCHACH_TABLE_CONST uint64_t zobrist_piece[12][64];
extern SCHACH_TABLE_CONST uint64_t zobrist_castling[16];
extern SCHACH_TABLE_CONST uint64_t zobrist_ep_file[8];
extern SCHACH_TABLE_CONST uint64_t zobrist_black_to_move;

/* Sets pos to the standard starting position. */
void pos_set_start(Position *pos);

/* Sets pos to Chess960 start position number (0-959, Scharnagl numbering; 518 is the standard
 * array) with pos->chess960 set. Returns false (pos untouched) when number is out of range. */
bool pos_set_chess960(Position *pos, int number);
/* The Chess960 number (0-959) of pos when it is a start position (all 32 pieces at home, all four
 * rights, white to move), otherwise -1. */
int pos_chess960_number(const Position *pos);
/* Whether Chess960 start position number (0-959) castles like standard chess: king on the e-file and
 * rooks on the a- and h-files, 18 of the 960 (the standard array 518 among them, e.g. 692 RBBQKNNR).
 * Castling there moves king and rook as in standard chess, so its FEN (KQkq) cannot tell such a start
 * from a standard game's: fen_parse leaves pos->chess960 off, where every other start array's FEN
 * switches it on. A program that starts a Chess960 game from such a FEN sets pos->chess960 itself.
 * false for every other number, also one out of range. */
bool pos_chess960_castles_like_standard(int number);

/* Empties the board (white to move, no rights, clocks 0 and 1). Use pos_put/pos_finish to build. */
void pos_clear(Position *pos);
/* Puts piece p on empty square s (no key or checkers update until pos_finish). */
void pos_put(Position *pos, Piece p, Square s);
/* Recomputes key and checkers after building a position by hand. */
void pos_finish(Position *pos);

/* Plays legal move m; saves what is needed to take it back in *undo. m must be legal in pos. */
void pos_make(Position *pos, Move m, Undo *undo);
/* Takes back m, which must be the last move made with this undo record. */
void pos_unmake(Position *pos, Move m, const Undo *undo);
/* Passes the turn (for null-move pruning); pos must not be in check. */
void pos_make_null(Position *pos, Undo *undo);
void pos_unmake_null(Position *pos, const Undo *undo);

static inline Piece pos_piece_on(const Position *pos, Square s) { return (Piece)pos->board[s]; }
static inline Bitboard pos_occupied(const Position *pos) { return pos->by_color[WHITE] | pos->by_color[BLACK]; }
static inline Bitboard pos_pieces(const Position *pos, Color c, PieceType t) {
    return pos->by_color[c] & pos->by_type[t];
}
static inline Square pos_king(const Position *pos, Color c) { return bb_lsb(pos_pieces(pos, c, KING)); }
static inline bool pos_in_check(const Position *pos) { return pos->checkers != 0; }
static inline Color pos_turn(const Position *pos) { return (Color)pos->turn; }
/* Index (0-3) of the castling right a castling move of colour c to king_to (g- or c-file) uses. */
static inline int castle_index(Color c, Square king_to) { return 2 * (int)c + (square_file(king_to) == 2); }
/* The rook square a castling move m of the side to move in pos starts from (m must be castling). */
static inline Square pos_castling_rook(const Position *pos, Move m) {
    return (Square)pos->castle_rook[castle_index(pos_turn(pos), move_to(m))];
}

/* Pieces of either colour attacking square s, given occupancy occ. */
Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occ);
/* True when a piece of colour by attacks square s (current occupancy). */
bool pos_attacked_by(const Position *pos, Square s, Color by);

/* Zobrist key computed from scratch (for checks and for building positions). */
uint64_t pos_compute_key(const Position *pos);

/* Consistency check that recomputes bitboards, mailbox, key and checkers from scratch.
 * Returns true when everything agrees; otherwise writes what is wrong to why (may be NULL). */
bool pos_ok(const Position *pos, char *why, size_t why_size);

/* Debug builds (no NDEBUG) assert pos_ok after every make and unmake; define SCHACH_SLOW_CHECKS=0
 * to turn that off. */
#ifndef SCHACH_SLOW_CHECKS
#ifdef NDEBUG
#define SCHACH_SLOW_CHECKS 0
#else
#define SCHACH_SLOW_CHECKS 1
#endif
#endif

/* Piece letter in a language: English "PNBRQK", German "BSLTDK"; uppercase. */
char piece_letter(PieceType t, Lang lang);
/* Piece type for an uppercase English or German letter, or PIECE_TYPE_NB when unknown. */
PieceType piece_from_letter(char c, Lang lang);
/* Writes a square's name ("e4") into buf[3]. */
void square_name(Square s, char buf[3]);
/* Parses "e4" (lowercase file, rank digit) at text; returns SQ_NONE when not a square. */
Square square_parse(const char *text);

#ifdef __cplusplus
}
#endif

#endif
