/* Engine: endgame knowledge: basic mates and drawish material. */
#include <stdlib.h>

#include "endgame.h"
#include "eval.h"

/* Rough piece values for material decisions here (not tuned: they only classify endings). */
static const int unit_value[SCH_PIECE_TYPE_NB] = {1, 3, 3, 5, 9, 0};

static int non_pawn_units(const SchPosition *pos, SchColor c) {
    int units = 0;
    for (SchPieceType t = SCH_KNIGHT; t <= SCH_QUEEN; t++)
        units += unit_value[t] * sch_bb_count(sch_pos_pieces(pos, c, t));
    return units;
}

static int distance(SchSquare a, SchSquare b) {
    int df = abs(sch_square_file(a) - sch_square_file(b)), dr = abs(sch_square_rank(a) - sch_square_rank(b));
    return df > dr ? df : dr;
}

/* 0 on the four centre squares, 3 on the edge. */
static int edge_closeness(SchSquare s) {
    int f = sch_square_file(s), r = sch_square_rank(s);
    int df = f < 4 ? 3 - f : f - 4, dr = r < 4 ? 3 - r : r - 4;
    return df > dr ? df : dr;
}

/* Distance to the nearer corner of the square colour of `bishop_squares` (a1/h8 dark, h1/a8 light). */
static int bishop_corner_distance(SchSquare s, SchBitboard bishop_squares) {
    if (bishop_squares & SCH_BB_DARK_SQUARES) {
        int a = distance(s, SCH_SQ_A1), b = distance(s, SCH_SQ_H8);
        return a < b ? a : b;
    }
    int a = distance(s, SCH_SQ_H1), b = distance(s, SCH_SQ_A8);
    return a < b ? a : b;
}

static bool can_force_mate(const SchPosition *pos, SchColor c) {
    SchBitboard bishops = sch_pos_pieces(pos, c, SCH_BISHOP);
    int knights = sch_bb_count(sch_pos_pieces(pos, c, SCH_KNIGHT));
    if (sch_pos_pieces(pos, c, SCH_QUEEN) | sch_pos_pieces(pos, c, SCH_ROOK) | sch_pos_pieces(pos, c, SCH_PAWN))
        return true;
    bool both_colours = (bishops & SCH_BB_LIGHT_SQUARES) && (bishops & SCH_BB_DARK_SQUARES);
    return both_colours || (bishops && knights) || knights >= 3;
}

bool endgame_basic_mate(const SchPosition *pos, int *white_score) {
    for (SchColor strong = SCH_WHITE; strong <= SCH_BLACK; strong++) {
        SchColor weak = (SchColor)!strong;
        if (sch_bb_more_than_one(pos->by_color[weak]) || !can_force_mate(pos, strong))
            continue;
        SchSquare lone = sch_pos_king(pos, weak), king = sch_pos_king(pos, strong);
        SchBitboard bishops = sch_pos_pieces(pos, strong, SCH_BISHOP);
        int score = EVAL_KNOWN_WIN + 100 * non_pawn_units(pos, strong) +
                    100 * sch_bb_count(sch_pos_pieces(pos, strong, SCH_PAWN)) + 10 * (7 - distance(king, lone));
        bool kbnk = non_pawn_units(pos, strong) == 6 && sch_bb_count(bishops) == 1 &&
                    sch_bb_count(sch_pos_pieces(pos, strong, SCH_KNIGHT)) == 1 &&
                    !sch_pos_pieces(pos, strong, SCH_PAWN);
        score += kbnk ? 40 * (7 - bishop_corner_distance(lone, bishops)) : 40 * edge_closeness(lone);
        *white_score = strong == SCH_WHITE ? score : -score;
        return true;
    }
    return false;
}

static bool opposite_bishops(const SchPosition *pos) {
    SchBitboard w = sch_pos_pieces(pos, SCH_WHITE, SCH_BISHOP), b = sch_pos_pieces(pos, SCH_BLACK, SCH_BISHOP);
    if (sch_bb_more_than_one(w) || sch_bb_more_than_one(b) || !w || !b)
        return false;
    return !!(w & SCH_BB_LIGHT_SQUARES) != !!(b & SCH_BB_LIGHT_SQUARES);
}

int endgame_scale(const SchPosition *pos, SchColor strong) {
    SchColor weak = (SchColor)!strong;
    int strong_units = non_pawn_units(pos, strong), weak_units = non_pawn_units(pos, weak);
    if (!sch_pos_pieces(pos, strong, SCH_PAWN)) {
        /* A lone minor piece cannot mate; a piece more than a minor up usually can. */
        if (strong_units <= 3)
            return 0;
        if (strong_units - weak_units <= 3)
            return strong_units == 6 && weak_units == 0 && !sch_pos_pieces(pos, strong, SCH_BISHOP) ? 2 : 12;
    }
    if (opposite_bishops(pos)) {
        bool only_bishops = strong_units == 3 && weak_units == 3;
        return only_bishops ? 24 : 48;
    }
    return 64;
}
