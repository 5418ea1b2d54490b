/* libschach: legal move generation (FIDE Laws, article 3).
 *
 * Generation is stateless and legal: pins and check masks are computed first, so every move written
 * is legal; only en passant (which can uncover a rank attack on the king) is verified by a test.
 * No allocation: moves go into a caller's array of at least SCHACH_MAX_MOVES entries.
 */
#ifndef SCHACH_MOVEGEN_H
#define SCHACH_MOVEGEN_H

#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GEN_ALL,   /* every legal move */
    GEN_NOISY, /* captures (including en passant) and all promotions */
    GEN_QUIET  /* the rest: non-capturing, non-promoting moves including castling */
} GenKind;

typedef struct MoveList {
    int count;
    Move moves[SCHACH_MAX_MOVES];
} MoveList;

/* Writes the legal moves of kind into out (room for SCHACH_MAX_MOVES); returns how many. */
int gen_moves(const Position *pos, GenKind kind, Move *out);

/* Fills list with every legal move; returns list->count. */
static inline int gen_legal(const Position *pos, MoveList *list) {
    return list->count = gen_moves(pos, GEN_ALL, list->moves);
}

/* Number of legal moves, counted without writing them (fast leaf counting for perft). */
int gen_count(const Position *pos);

/* True when m (any 16-bit value) is a legal move in pos. */
bool gen_is_legal(const Position *pos, Move m);

/* True when the side to move has at least one legal move. */
bool gen_has_legal_move(const Position *pos);

/* True when pos->ep is set and an en passant capture is legal now. */
bool gen_ep_legal(const Position *pos);

#ifdef __cplusplus
}
#endif

#endif
