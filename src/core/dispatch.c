/* Run-time choice between the two builds of the hot core files (cmake/multiversion.cmake): the
 * baseline with magic bitboards and the one with BMI1/BMI2 (PEXT lookups). schach_init() sets
 * bb_use_bmi2 once, before any position exists; afterwards it never changes, so the branch below
 * always goes the same way and costs next to nothing beside a whole move generation. */
#include "bitboard_internal.h"
#include "schach/perft.h"

#define VARIANTS(name) extern __typeof__(name) name##_base, name##_bmi2

VARIANTS(gen_moves);
VARIANTS(gen_count);
VARIANTS(gen_is_legal);
VARIANTS(gen_has_legal_move);
VARIANTS(gen_ep_legal);
VARIANTS(pos_make);
VARIANTS(pos_unmake);
VARIANTS(pos_make_null);
VARIANTS(pos_unmake_null);
VARIANTS(pos_attackers_to);
VARIANTS(pos_attacked_by);
VARIANTS(perft);
VARIANTS(perft_divide);

#define CHOOSE(name) (bb_use_bmi2 ? name##_bmi2 : name##_base)

int gen_moves(const Position *pos, GenKind kind, Move *out) { return CHOOSE(gen_moves)(pos, kind, out); }
int gen_count(const Position *pos) { return CHOOSE(gen_count)(pos); }
bool gen_is_legal(const Position *pos, Move m) { return CHOOSE(gen_is_legal)(pos, m); }
bool gen_has_legal_move(const Position *pos) { return CHOOSE(gen_has_legal_move)(pos); }
bool gen_ep_legal(const Position *pos) { return CHOOSE(gen_ep_legal)(pos); }
void pos_make(Position *pos, Move m, Undo *undo) { CHOOSE(pos_make)(pos, m, undo); }
void pos_unmake(Position *pos, Move m, const Undo *undo) { CHOOSE(pos_unmake)(pos, m, undo); }
void pos_make_null(Position *pos, Undo *undo) { CHOOSE(pos_make_null)(pos, undo); }
void pos_unmake_null(Position *pos, const Undo *undo) { CHOOSE(pos_unmake_null)(pos, undo); }
Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occ) { return CHOOSE(pos_attackers_to)(pos, s, occ); }
bool pos_attacked_by(const Position *pos, Square s, Color by) { return CHOOSE(pos_attacked_by)(pos, s, by); }
uint64_t perft(const Position *pos, int depth) { return CHOOSE(perft)(pos, depth); }
int perft_divide(const Position *pos, int depth, Move *moves, uint64_t *counts) {
    return CHOOSE(perft_divide)(pos, depth, moves, counts);
}
