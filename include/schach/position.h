/** @file
 * libschach: the position (board, side to move, castling rights, en passant, clocks) and make/unmake.
 *
 * A Position is a plain value: copy it freely; it owns no memory. Everything about one game lives in
 * its Position and Game, never in globals, so many games may run on many threads.
 *
 * En passant: `ep` holds the square a pawn passed over on the last move, but only when an enemy pawn
 * stands beside it (could capture pseudo-legally); otherwise SCH_SQ_NONE. The Zobrist key includes the
 * ep file exactly when `ep` is set. Whether the capture is *legal* is answered by sch_gen_ep_legal()
 * (movegen.h); FEN output and repetition identity use that.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_POSITION_H
#define SCH_POSITION_H

#include <stddef.h>

#include "bitboard.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A position: the board, the side to move, castling rights, en passant, the clocks. A plain value. */
typedef struct SchPosition {
    SchBitboard by_type[SCH_PIECE_TYPE_NB]; /**< squares of each piece type, both colours */
    SchBitboard by_color[2];                /**< squares of each colour's pieces */
    uint8_t board[64];                      /**< Piece on each square, SCH_NO_PIECE if empty */
    uint8_t turn;                           /**< Color to move */
    uint8_t castling;                       /**< CASTLE_* bits still available */
    uint8_t ep;                             /**< Square (see above) or SCH_SQ_NONE */
    uint16_t halfmove;                      /**< plies since the last capture or pawn move (50/75-move rules) */
    uint16_t fullmove;                      /**< starts at 1, incremented after black's move */
    SchBitboard checkers;                   /**< enemy pieces giving check to the side to move */
    uint64_t key;                           /**< Zobrist key, kept incrementally */
    /** Chess960 (FIDE Laws, Guidelines II). Castling rights are per rook: castle_rook[i] is the square
     * of the rook that right (1 << i) castles with (SCH_CASTLE_WK, SCH_CASTLE_WQ, SCH_CASTLE_BK, SCH_CASTLE_BQ order);
     * h1, a1, h8, a8 in standard chess. The king castles from wherever it stands between the rooks and
     * ends on the g- or c-file as usual; the move is still stored as the king's move to that square. */
    uint8_t castle_rook[4];
    /** Chess960 conventions for notation: UCI writes castling as king-takes-rook (e1h1), FEN writes
     * X-FEN file letters where KQkq would be ambiguous. Not part of the position's identity (key). */
    uint8_t chess960;
} SchPosition;

/** What sch_pos_make() saves so that sch_pos_unmake() restores the position exactly. Owned by the caller. */
typedef struct SchUndo {
    uint64_t key;         /**< the key before the move */
    SchBitboard checkers; /**< the checkers before the move */
    uint16_t halfmove;    /**< the 50-move clock before the move */
    uint8_t castling;     /**< the castling rights before the move */
    uint8_t ep;           /**< the en passant square before the move */
    uint8_t captured;     /**< Piece captured by the move, SCH_NO_PIECE if none */
} SchUndo;

/** Zobrist keys, filled when the library is loaded. */
extern SCH_TABLE_CONST uint64_t sch_zobrist_piece[12][64]; /**< per piece and square */
extern SCH_TABLE_CONST uint64_t sch_zobrist_castling[16];  /**< per set of castling rights */
extern SCH_TABLE_CONST uint64_t sch_zobrist_ep_file[8];    /**< per file of an en passant square */
extern SCH_TABLE_CONST uint64_t sch_zobrist_black_to_move; /**< when black is to move */

/** Sets pos to the standard starting position. */
void sch_pos_set_start(SchPosition *pos);

/** Sets pos to Chess960 start position number (0-959, Scharnagl numbering; 518 is the standard
 * array) with pos->chess960 set. Returns false (pos untouched) when number is out of range. */
bool sch_pos_set_chess960(SchPosition *pos, int number);
/** The Chess960 number (0-959) of pos when it is a start position (all 32 pieces at home, all four
 * rights, white to move), otherwise -1. */
int sch_pos_chess960_number(const SchPosition *pos);
/** Whether Chess960 start position number (0-959) castles like standard chess: king on the e-file and
 * rooks on the a- and h-files, 18 of the 960 (the standard array 518 among them, e.g. 692 RBBQKNNR).
 * Castling there moves king and rook as in standard chess, so its FEN (KQkq) cannot tell such a start
 * from a standard game's: sch_fen_parse leaves pos->chess960 off, where every other start array's FEN
 * switches it on. A program that starts a Chess960 game from such a FEN sets pos->chess960 itself.
 * false for every other number, also one out of range. */
bool sch_pos_chess960_castles_like_standard(int number);

/** Empties the board (white to move, no rights, clocks 0 and 1). Use sch_pos_put/sch_pos_finish to build. */
void sch_pos_clear(SchPosition *pos);
/** Puts piece p on empty square s (no key or checkers update until sch_pos_finish). */
void sch_pos_put(SchPosition *pos, SchPiece p, SchSquare s);
/** Recomputes key and checkers after building a position by hand. */
void sch_pos_finish(SchPosition *pos);

/** Plays legal move m; saves what is needed to take it back in *undo. m must be legal in pos. */
void sch_pos_make(SchPosition *pos, SchMove m, SchUndo *undo);
/** Takes back m, which must be the last move made with this undo record. */
void sch_pos_unmake(SchPosition *pos, SchMove m, const SchUndo *undo);
/** Passes the turn (for null-move pruning); pos must not be in check. */
void sch_pos_make_null(SchPosition *pos, SchUndo *undo);
/** Takes back a pass made with sch_pos_make_null and this undo record. */
void sch_pos_unmake_null(SchPosition *pos, const SchUndo *undo);

/** The piece on square s, SCH_NO_PIECE when it is empty. */
static inline SchPiece sch_pos_piece_on(const SchPosition *pos, SchSquare s) { return (SchPiece)pos->board[s]; }
/** Every occupied square. */
static inline SchBitboard sch_pos_occupied(const SchPosition *pos) {
    return pos->by_color[SCH_WHITE] | pos->by_color[SCH_BLACK];
}
/** The squares of colour c's pieces of type t. */
static inline SchBitboard sch_pos_pieces(const SchPosition *pos, SchColor c, SchPieceType t) {
    return pos->by_color[c] & pos->by_type[t];
}
/** The square of colour c's king. */
static inline SchSquare sch_pos_king(const SchPosition *pos, SchColor c) {
    return sch_bb_lsb(sch_pos_pieces(pos, c, SCH_KING));
}
/** Whether the side to move is in check. */
static inline bool sch_pos_in_check(const SchPosition *pos) { return pos->checkers != 0; }
/** The side to move. */
static inline SchColor sch_pos_turn(const SchPosition *pos) { return (SchColor)pos->turn; }
/** Index (0-3) of the castling right a castling move of colour c to king_to (g- or c-file) uses. */
static inline int sch_castle_index(SchColor c, SchSquare king_to) {
    return 2 * (int)c + (sch_square_file(king_to) == 2);
}
/** The rook square a castling move m of the side to move in pos starts from (m must be castling). */
static inline SchSquare sch_pos_castling_rook(const SchPosition *pos, SchMove m) {
    return (SchSquare)pos->castle_rook[sch_castle_index(sch_pos_turn(pos), sch_move_to(m))];
}

/** Pieces of either colour attacking square s, given occupancy occ. */
SchBitboard sch_pos_attackers_to(const SchPosition *pos, SchSquare s, SchBitboard occ);
/** True when a piece of colour by attacks square s (current occupancy). */
bool sch_pos_attacked_by(const SchPosition *pos, SchSquare s, SchColor by);

/** Zobrist key computed from scratch (for checks and for building positions). */
uint64_t sch_pos_compute_key(const SchPosition *pos);

/** Consistency check that recomputes bitboards, mailbox, key and checkers from scratch.
 * Returns true when everything agrees; otherwise writes what is wrong to why (may be NULL). */
bool sch_pos_ok(const SchPosition *pos, char *why, size_t why_size);

/** Debug builds (no NDEBUG) assert sch_pos_ok after every make and unmake; define SCH_SLOW_CHECKS=0
 * to turn that off. */
#ifndef SCH_SLOW_CHECKS
#ifdef NDEBUG
#define SCH_SLOW_CHECKS 0
#else
#define SCH_SLOW_CHECKS 1
#endif
#endif

/** Piece letter in a language: English "PNBRQK", German "BSLTDK"; uppercase. */
char sch_piece_letter(SchPieceType t, SchLang lang);
/** Piece type for an uppercase English or German letter, or SCH_PIECE_TYPE_NB when unknown. */
SchPieceType sch_piece_from_letter(char c, SchLang lang);
/** Writes a square's name ("e4") into buf[3]. */
void sch_square_name(SchSquare s, char buf[3]);
/** Parses "e4" (lowercase file, rank digit) at text; returns SCH_SQ_NONE when not a square. */
SchSquare sch_square_parse(const char *text);

#ifdef __cplusplus
}
#endif

#endif
