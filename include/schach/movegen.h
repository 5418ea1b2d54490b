/** @file
 * libschach: legal move generation (FIDE Laws, article 3).
 *
 * Generation is stateless and legal: pins and check masks are computed first, so every move written
 * is legal; only en passant (which can uncover a rank attack on the king) is verified by a test.
 * No allocation: moves go into a caller's array of at least SCH_MAX_MOVES entries.
 */
#ifndef SCH_MOVEGEN_H
#define SCH_MOVEGEN_H

#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which legal moves a generator writes. */
typedef enum {
    SCH_GEN_ALL,   /**< every legal move */
    SCH_GEN_NOISY, /**< captures (including en passant) and all promotions */
    SCH_GEN_QUIET  /**< the rest: non-capturing, non-promoting moves including castling */
} SchGenKind;

/** A list of moves on the caller's stack, room for every legal move of any position. */
typedef struct SchMoveList {
    int count;                    /**< moves in the list */
    SchMove moves[SCH_MAX_MOVES]; /**< the moves, count of them */
} SchMoveList;

/** Writes the legal moves of kind into out (room for SCH_MAX_MOVES); returns how many. */
int sch_gen_moves(const SchPosition *pos, SchGenKind kind, SchMove *out);

/** Fills list with every legal move; returns list->count. */
static inline int sch_gen_legal(const SchPosition *pos, SchMoveList *list) {
    return list->count = sch_gen_moves(pos, SCH_GEN_ALL, list->moves);
}

/** Number of legal moves, counted without writing them (fast leaf counting for perft). */
int sch_gen_count(const SchPosition *pos);

/** True when m (any 16-bit value) is a legal move in pos. */
bool sch_gen_is_legal(const SchPosition *pos, SchMove m);

/** True when the side to move has at least one legal move. */
bool sch_gen_has_legal_move(const SchPosition *pos);

/** True when pos->ep is set and an en passant capture is legal now. */
bool sch_gen_ep_legal(const SchPosition *pos);

#ifdef __cplusplus
}
#endif

#endif
