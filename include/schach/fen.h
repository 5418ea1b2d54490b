/** @file
 * libschach: Forsyth-Edwards Notation.
 *
 * sch_fen_parse() validates strictly and rejects malformed or impossible positions with an error that
 * names the field and the reason. It accepts an en passant square whether or not a capture is
 * possible. sch_fen_write() prints the en passant square only when the capture is legal (the convention
 * of X-FEN and of the repetition rule, FIDE 9.2.2), so equal positions print equal FENs.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_FEN_H
#define SCH_FEN_H

#include <stddef.h>

#include "error.h"
#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The FEN of the standard starting position. */
#define SCH_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

enum {
    SCH_FEN_ERR_EMPTY = 100,       /**< the FEN is empty */
    SCH_FEN_ERR_FIELDS,            /**< %1: number of fields found */
    SCH_FEN_ERR_RANKS,             /**< %1: number of ranks found */
    SCH_FEN_ERR_RANK_LENGTH,       /**< %1: rank number, %2: squares described */
    SCH_FEN_ERR_PIECE,             /**< %1: the character */
    SCH_FEN_ERR_TURN,              /**< %1: the field */
    SCH_FEN_ERR_CASTLING,          /**< %1: the field */
    SCH_FEN_ERR_CASTLING_PIECES,   /**< %1: the right (e.g. "K"), king or rook not on its original square */
    SCH_FEN_ERR_EP,                /**< %1: the field */
    SCH_FEN_ERR_EP_RANK,           /**< %1: the square, on the wrong rank for the side to move */
    SCH_FEN_ERR_EP_PAWN,           /**< %1: the square, no pawn that could just have made the double step */
    SCH_FEN_ERR_HALFMOVE,          /**< %1: the field */
    SCH_FEN_ERR_FULLMOVE,          /**< %1: the field */
    SCH_FEN_ERR_TRAILING,          /**< %1: the extra text */
    SCH_FEN_ERR_NO_KING,           /**< %1: "white" or "black" (localised) */
    SCH_FEN_ERR_TWO_KINGS,         /**< %1: colour */
    SCH_FEN_ERR_PAWN_RANK,         /**< %1: the square of a pawn on rank 1 or 8 */
    SCH_FEN_ERR_TOO_MANY_PAWNS,    /**< %1: colour, %2: count */
    SCH_FEN_ERR_TOO_MANY_PIECES,   /**< %1: colour, %2: count */
    SCH_FEN_ERR_OPPONENT_IN_CHECK, /**< the side not to move is in check */
    SCH_FEN_ERR_TOO_MANY_CHECKERS, /**< %1: count; no legal move gives more than two checks */
    SCH_FEN_ERR_IMPOSSIBLE_CHECK,  /**< two checkers that no single move can produce */
    SCH_FEN_ERR_TOO_MANY_PROMOTED, /**< %1: colour: more extra pieces than missing pawns */
};

/** Parses text into *pos. On failure returns false, leaves *pos unspecified and fills err
 * (column = 1-based character where the bad field starts). The clocks may be omitted ("w KQkq -"). */
bool sch_fen_parse(SchPosition *pos, const char *text, SchError *err);

/** Writes the FEN of pos into buf (size >= SCH_FEN_MAX is always enough); returns its length. */
size_t sch_fen_write(const SchPosition *pos, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
