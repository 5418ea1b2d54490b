/* Engine: endgame knowledge: basic mates and drawish material. */
#include <stdlib.h>

#include "endgame.h"
#include "eval.h"

/* Rough piece values for material decisions here (not tuned: they only classify endings). */
static const int unit_value[PIECE_TYPE_NB] = {1, 3, 3, 5, 9, 0};

static int non_pawn_units(const Position *pos, Color c) {
    int units = 0;
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        units += unit_value[t] * bb_count(pos_pieces(pos, c, t));
    return units;
}

static int distance(Square a, Square b) {
    int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
    return df > dr ? df : dr;
}

/* 0 on the four centre squares, 3 on the edge. */
static int edge_closeness(Square s) {
    int f = square_file(s), r = square_rank(s);
    int df = f < 4 ? 3 - f : f - 4, dr = r < 4 ? 3 - r : r - 4;
    return df > dr ? df : dr;
}

/* Distance to the nearer corner of the square colour of `bishop_squares` (a1/h8 dark, h1/a8 light). */
static int bishop_corner_distance(Square s, Bitboard bishop_squares) {
    if (bishop_squares & BB_DARK_SQUARES) {
        int a = distance(s, SQ_A1), b = distance(s, SQ_H8);
        return a < b ? a : b;
    }
    int a = distance(s, SQ_H1), b = distance(s, SQ_A8);
    return a < b ? a : b;
}

static bool can_force_mate(const Position *pos, Color c) {
    Bitboard bishops = pos_pieces(pos, c, BISHOP);
    int knights = bb_count(pos_pieces(pos, c, KNIGHT));
    if (pos_pieces(pos, c, QUEEN) | pos_pieces(pos, c, ROOK) | pos_pieces(pos, c, PAWN))
        return true;
    bool both_colours = (bishops & BB_LIGHT_SQUARES) && (bishops & BB_DARK_SQUARES);
    return both_colours || (bishops && knights) || knights >= 3;
}

bool endgame_basic_mate(const Position *pos, int *white_score) {
    for (Color strong = WHITE; strong <= BLACK; strong++) {
        Color weak = (Color)!strong;
        if (bb_more_than_one(pos->by_color[weak]) || !can_force_mate(pos, strong))
            continue;
        Square lone = pos_king(pos, weak), king = pos_king(pos, strong);
        Bitboard bishops = pos_pieces(pos, strong, BISHOP);
        int score = EVAL_KNOWN_WIN + 100 * non_pawn_units(pos, strong) + 100 * bb_count(pos_pieces(pos, strong, PAWN)) +
                    10 * (7 - distance(king, lone));
        bool kbnk = non_pawn_units(pos, strong) == 6 && bb_count(bishops) == 1 &&
                    bb_count(pos_pieces(pos, strong, KNIGHT)) == 1 && !pos_pieces(pos, strong, PAWN);
        score += kbnk ? 40 * (7 - bishop_corner_distance(lone, bishops)) : 40 * edge_closeness(lone);
        *white_score = strong == WHITE ? score : -score;
        return true;
    }
    return false;
}

static bool opposite_bishops(const Position *pos) {
    Bitboard w = pos_pieces(pos, WHITE, BISHOP), b = pos_pieces(pos, BLACK, BISHOP);
    if (bb_more_than_one(w) || bb_more_than_one(b) || !w || !b)
        return false;
    return !!(w & BB_LIGHT_SQUARES) != !!(b & BB_LIGHT_SQUARES);
}

int endgame_scale(const Position *pos, Color strong) {
    Color weak = (Color)!strong;
    int strong_units = non_pawn_units(pos, strong), weak_units = non_pawn_units(pos, weak);
    if (!pos_pieces(pos, strong, PAWN)) {
        /* A lone minor piece cannot mate; a piece more than a minor up usually can. */
        if (strong_units <= 3)
            return 0;
        if (strong_units - weak_units <= 3)
            return strong_units == 6 && weak_units == 0 && !pos_pieces(pos, strong, BISHOP) ? 2 : 12;
    }
    if (opposite_bishops(pos)) {
        bool only_bishops = strong_units == 3 && weak_units == 3;
        return only_bishops ? 24 : 48;
    }
    return 64;
}
