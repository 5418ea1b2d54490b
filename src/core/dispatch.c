/* Run-time choice between the two builds of the hot core files (cmake/multiversion.cmake): the
 * baseline with magic bitboards and the one with BMI1/BMI2 (PEXT lookups). Loading the library sets
 * sch_bb_use_bmi2 once, before any position exists; afterwards it never changes, so the branch below
 * always goes the same way and costs next to nothing beside a whole move generation. */
#include "bitboard_internal.h"
#include "schach/perft.h"

#define VARIANTS(name) extern __typeof__(name) name##_base, name##_bmi2

VARIANTS(sch_gen_moves);
VARIANTS(sch_gen_count);
VARIANTS(sch_gen_is_legal);
VARIANTS(sch_gen_has_legal_move);
VARIANTS(sch_gen_ep_legal);
VARIANTS(sch_pos_make);
VARIANTS(sch_pos_unmake);
VARIANTS(sch_pos_make_null);
VARIANTS(sch_pos_unmake_null);
VARIANTS(sch_pos_attackers_to);
VARIANTS(sch_pos_attacked_by);
VARIANTS(sch_perft);
VARIANTS(sch_perft_divide);

#define CHOOSE(name) (sch_bb_use_bmi2 ? name##_bmi2 : name##_base)

int sch_gen_moves(const SchPosition *pos, SchGenKind kind, SchMove *out) {
    return CHOOSE(sch_gen_moves)(pos, kind, out);
}
int sch_gen_count(const SchPosition *pos) { return CHOOSE(sch_gen_count)(pos); }
bool sch_gen_is_legal(const SchPosition *pos, SchMove m) { return CHOOSE(sch_gen_is_legal)(pos, m); }
bool sch_gen_has_legal_move(const SchPosition *pos) { return CHOOSE(sch_gen_has_legal_move)(pos); }
bool sch_gen_ep_legal(const SchPosition *pos) { return CHOOSE(sch_gen_ep_legal)(pos); }
void sch_pos_make(SchPosition *pos, SchMove m, SchUndo *undo) { CHOOSE(sch_pos_make)(pos, m, undo); }
void sch_pos_unmake(SchPosition *pos, SchMove m, const SchUndo *undo) { CHOOSE(sch_pos_unmake)(pos, m, undo); }
void sch_pos_make_null(SchPosition *pos, SchUndo *undo) { CHOOSE(sch_pos_make_null)(pos, undo); }
void sch_pos_unmake_null(SchPosition *pos, const SchUndo *undo) { CHOOSE(sch_pos_unmake_null)(pos, undo); }
SchBitboard sch_pos_attackers_to(const SchPosition *pos, SchSquare s, SchBitboard occ) {
    return CHOOSE(sch_pos_attackers_to)(pos, s, occ);
}
bool sch_pos_attacked_by(const SchPosition *pos, SchSquare s, SchColor by) {
    return CHOOSE(sch_pos_attacked_by)(pos, s, by);
}
uint64_t sch_perft(const SchPosition *pos, int depth) { return CHOOSE(sch_perft)(pos, depth); }
int sch_perft_divide(const SchPosition *pos, int depth, SchMove *moves, uint64_t *counts) {
    return CHOOSE(sch_perft_divide)(pos, depth, moves, counts);
}
