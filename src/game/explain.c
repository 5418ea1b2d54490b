/* Why a typed move is refused, in the words of the rules.
 *
 * The text is read leniently into what the player meant (piece, origin, target, promotion or
 * castling) by sch_move_text_read, the same reader the SAN parser uses. Every own piece that fits is then taken through the rules in a fixed order: can it go
 * there at all, is the target free of own pieces, is the path open, en passant timing, promotion,
 * pin, king safety, check. The candidate that got furthest names the reason, so a knight that
 * reaches d2 but is pinned beats one that cannot reach d2. Castling reasons come from the Game's
 * history: the first move that took the right away tells whether the king or the rook moved or
 * the rook was captured.
 */
#include "schach/explain.h"

#include <string.h>

#include "schach/movegen.h"
#include "schach/notation.h"

/* How far a candidate got before a rule stopped it; the furthest candidate names the reason. */
enum {
    STAGE_UNREACHABLE, /* not even on an empty board */
    STAGE_PAWN_RULE,   /* a pawn near the target, but pawns do not move like that */
    STAGE_OWN_PIECE,
    STAGE_BLOCKED, /* also a pawn moving diagonally to an empty square */
    STAGE_EN_PASSANT,
    STAGE_PROMOTION,
    STAGE_PINNED,
    STAGE_KING_ATTACKED,
    STAGE_CHECK,
    STAGE_OTHER /* none of the above: the notation module's explanation */
};

static const char *const PIECE_WORDS[SCH_PIECE_TYPE_NB] = {"@pawn", "@knight", "@bishop", "@rook", "@queen", "@king"};

/* ---------------------------------------------------------------------------------------------- */
/* Reasons                                                                                         */

static SchSquare bb_msb(SchBitboard b) { return (SchSquare)(63 - __builtin_clzll(b)); }

static void set_square_reason(SchError *why, int code, SchSquare s) {
    char sq[3];
    sch_square_name(s, sq);
    sch_err_set(why, code, sq, NULL, NULL);
}

static void set_piece_reason(SchError *why, int code, SchPieceType pt, SchSquare s) {
    char sq[3];
    sch_square_name(s, sq);
    sch_err_set(why, code, PIECE_WORDS[pt], sq, NULL);
}

static void set_no_piece(SchError *why, SchPieceType pt, SchSquare to) {
    char sq[3], letter[2] = {sch_piece_letter(pt, SCH_LANG_EN), '\0'};
    sch_square_name(to, sq);
    sch_err_set(why, SCH_MOVE_ERR_NO_PAWN + (int)pt, letter, sq, NULL);
}

static int castle_right(SchColor us, bool king_side) {
    return us == SCH_WHITE ? (king_side ? SCH_CASTLE_WK : SCH_CASTLE_WQ) : (king_side ? SCH_CASTLE_BK : SCH_CASTLE_BQ);
}

/* Which move of the game took the right away: replays the history from the start. */
static int lost_right_reason(const SchGame *g, int right, SchSquare king_home, SchSquare rook_home) {
    if (!(g->start.castling & right))
        return SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT;
    SchPosition p = g->start;
    for (int i = 0; i < g->ply_count && g->plies; i++) {
        SchMove m = g->plies[i].move;
        if (m == SCH_MOVE_NULL ? sch_pos_in_check(&p) : !sch_gen_is_legal(&p, m))
            break; /* a damaged history: never make a move that is not legal */
        SchUndo undo;
        sch_game_make_ply(&p, m, &undo); /* a null move passes, the rights stay */
        if (p.castling & right)
            continue;
        if (sch_move_from(m) == king_home)
            return SCH_EXPLAIN_ERR_CASTLE_KING_MOVED;
        if (sch_move_from(m) == rook_home)
            return SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED;
        if (sch_move_to(m) == rook_home)
            return SCH_EXPLAIN_ERR_CASTLE_ROOK_GONE;
        break;
    }
    /* The history does not say (a game whose moves were not recorded): the king is the sure answer
     * when it has left its square, otherwise the position simply has no right. */
    return sch_pos_piece_on(&g->pos, king_home) == sch_piece_make(sch_pos_turn(&g->pos), SCH_KING)
               ? SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT
               : SCH_EXPLAIN_ERR_CASTLE_KING_MOVED;
}

/* The blocker a player sees first looking from the king towards the castling side (in Chess960 the
 * rook's target may also lie behind the king). */
static SchSquare nearest_blocker(SchBitboard blockers, SchSquare king, bool king_side) {
    SchBitboard above = blockers & ~((sch_bb_square(king) << 1) - 1), below = blockers & (sch_bb_square(king) - 1);
    if (king_side)
        return above ? sch_bb_lsb(above) : bb_msb(below);
    return below ? bb_msb(below) : sch_bb_lsb(above);
}

/* By the Chess960 rule, of which standard chess is a case: the king and the right's rook may start on
 * any files; every square either crosses or lands on must be empty but for the two of them, and no
 * square the king crosses or lands on may be attacked once both have left their squares. */
static void explain_castling(const SchGame *g, bool king_side, const char *text, SchError *why) {
    const SchPosition *pos = &g->pos;
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    int right = castle_right(us, king_side), index = 2 * (int)us + !king_side;
    SchSquare king = sch_pos_king(pos, us);
    SchSquare rook = (SchSquare)pos->castle_rook[index];
    SchSquare target = sch_square_relative(us, king_side ? SCH_SQ_G1 : SCH_SQ_C1);
    SchSquare rook_target = sch_square_relative(us, king_side ? SCH_SQ_F1 : SCH_SQ_D1);
    if (!(pos->castling & right)) {
        /* Where king and rook stood at the start of the game (the rights there name the rook). */
        SchSquare king_home = sch_pos_king(&g->start, us), rook_home = (SchSquare)g->start.castle_rook[index];
        int code = lost_right_reason(g, right, king_home, rook_home);
        if (code == SCH_EXPLAIN_ERR_CASTLE_KING_MOVED || code == SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT)
            sch_err_set(why, code, NULL, NULL, NULL);
        else
            set_square_reason(why, code, rook_home);
        return;
    }
    if (sch_pos_in_check(pos)) {
        sch_err_set(why, SCH_EXPLAIN_ERR_CASTLE_IN_CHECK, NULL, NULL, NULL);
        return;
    }
    SchBitboard occ = sch_pos_occupied(pos) ^ sch_bb_square(king) ^ sch_bb_square(rook);
    SchBitboard crossed = (sch_bb_between(king, target) | sch_bb_square(target) | sch_bb_between(rook, rook_target) |
                           sch_bb_square(rook_target)) &
                          occ;
    if (crossed) {
        set_square_reason(why, SCH_EXPLAIN_ERR_CASTLE_OCCUPIED, nearest_blocker(crossed, king, king_side));
        return;
    }
    int step = target > king ? 1 : -1;
    for (int s = king == target ? (int)king : (int)king + step;; s += step) {
        if (sch_pos_attackers_to(pos, (SchSquare)s, occ) & pos->by_color[them]) {
            set_square_reason(why, SCH_EXPLAIN_ERR_CASTLE_ATTACKED, (SchSquare)s);
            return;
        }
        if (s == (int)target)
            break;
    }
    sch_move_explain(pos, king, target, SCH_PIECE_TYPE_NB, text, why);
}

/* Pawn steps on an empty board: one ahead, two from the start rank, one diagonally ahead. */
typedef enum { PAWN_NONE, PAWN_PUSH, PAWN_DOUBLE, PAWN_DIAGONAL } PawnStep;

static PawnStep pawn_step(SchColor us, SchSquare from, SchSquare to) {
    int df = sch_square_file(to) - sch_square_file(from);
    int dr = (sch_square_rank(to) - sch_square_rank(from)) * (us == SCH_WHITE ? 1 : -1);
    if (df == 0 && dr == 1)
        return PAWN_PUSH;
    if (df == 0 && dr == 2 && sch_square_rank(sch_square_relative(us, from)) == 1)
        return PAWN_DOUBLE;
    if ((df == 1 || df == -1) && dr == 1)
        return PAWN_DIAGONAL;
    return PAWN_NONE;
}

static int judge_geometry(const SchPosition *pos, SchSquare from, SchSquare to, SchPieceType pt, bool from_named,
                          SchError *why) {
    SchColor us = sch_pos_turn(pos);
    if (pt == SCH_PAWN) {
        if (pawn_step(us, from, to) != PAWN_NONE)
            return -1;
        int df = sch_square_file(to) - sch_square_file(from), dr = sch_square_rank(to) - sch_square_rank(from);
        if (from_named || (df >= -1 && df <= 1 && dr >= -2 && dr <= 2)) {
            char a[3], b[3];
            sch_square_name(from, a);
            sch_square_name(to, b);
            sch_err_set(why, SCH_EXPLAIN_ERR_PAWN_MOVE, a, b, NULL);
            return STAGE_PAWN_RULE;
        }
    } else {
        SchBitboard reach = pt == SCH_KING ? sch_bb_king_attacks(from) : sch_bb_attacks(pt, from, 0);
        if (reach & sch_bb_square(to))
            return -1;
    }
    set_no_piece(why, pt, to);
    return STAGE_UNREACHABLE;
}

/* The own piece on from moves to to: the first rule (in the order of the stages) that forbids it.
 * Returns the stage and sets why. */
static int judge(const SchPosition *pos, SchSquare from, SchSquare to, SchPieceType promo, bool from_named,
                 const char *text, SchError *why) {
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    SchPieceType pt = sch_piece_type(sch_pos_piece_on(pos, from));
    int stage = judge_geometry(pos, from, to, pt, from_named, why);
    if (stage >= 0)
        return stage;
    SchBitboard occ = sch_pos_occupied(pos);
    SchPiece target = sch_pos_piece_on(pos, to);
    if (target != SCH_NO_PIECE && sch_piece_color(target) == us) {
        char sq[3];
        sch_square_name(to, sq);
        sch_err_set(why, SCH_EXPLAIN_ERR_OWN_PIECE, sq, PIECE_WORDS[sch_piece_type(target)], NULL);
        return STAGE_OWN_PIECE;
    }
    SchSquare captured = to;
    SchBitboard path = 0;
    if (pt == SCH_PAWN) {
        PawnStep step = pawn_step(us, from, to);
        if (step != PAWN_DIAGONAL)
            path = (sch_bb_between(from, to) | sch_bb_square(to)) & occ;
        else if (target == SCH_NO_PIECE) {
            SchSquare behind = (SchSquare)(us == SCH_WHITE ? to - 8 : to + 8);
            bool enemy_pawn_behind = sch_pos_piece_on(pos, behind) == sch_piece_make(them, SCH_PAWN) &&
                                     sch_square_rank(sch_square_relative(us, to)) == 5;
            if (to == pos->ep && enemy_pawn_behind) {
                captured = behind;
            } else if (enemy_pawn_behind) {
                set_square_reason(why, SCH_EXPLAIN_ERR_EP_TOO_LATE, to);
                return STAGE_EN_PASSANT;
            } else {
                char a[3], b[3];
                sch_square_name(from, a);
                sch_square_name(to, b);
                sch_err_set(why, SCH_EXPLAIN_ERR_PAWN_MOVE, a, b, NULL);
                return STAGE_BLOCKED;
            }
        }
    } else if (pt != SCH_KNIGHT && pt != SCH_KING) {
        path = sch_bb_between(from, to) & occ;
    }
    if (path) {
        char sq[3], blocker[3];
        sch_square_name(from, sq);
        sch_square_name(to > from ? sch_bb_lsb(path) : bb_msb(path), blocker);
        sch_err_set(why, SCH_EXPLAIN_ERR_BLOCKED, PIECE_WORDS[pt], sq, blocker);
        return STAGE_BLOCKED;
    }
    bool last_rank = pt == SCH_PAWN && sch_square_rank(sch_square_relative(us, to)) == 7;
    if (promo != SCH_PIECE_TYPE_NB || last_rank) {
        int code = !last_rank                               ? SCH_MOVE_ERR_PROMOTION_BAD
                   : promo == SCH_PIECE_TYPE_NB             ? SCH_MOVE_ERR_PROMOTION_MISSING
                   : promo == SCH_PAWN || promo == SCH_KING ? SCH_MOVE_ERR_PROMOTION_PIECE
                                                            : 0;
        if (code) {
            sch_err_set(why, code, text, NULL, NULL);
            return STAGE_PROMOTION;
        }
    }
    /* The board after the move, as far as attacks on the own king are concerned. */
    SchBitboard occ_after = (occ & ~sch_bb_square(from) & ~sch_bb_square(captured)) | sch_bb_square(to);
    SchBitboard enemies = pos->by_color[them] & ~sch_bb_square(captured);
    SchSquare king = pt == SCH_KING ? to : sch_pos_king(pos, us);
    SchBitboard attackers = sch_pos_attackers_to(pos, king, occ_after) & enemies;
    if (pt == SCH_KING) {
        if (attackers) {
            set_square_reason(why, SCH_EXPLAIN_ERR_KING_ATTACKED, to);
            return STAGE_KING_ATTACKED;
        }
    } else if (attackers & ~pos->checkers) {
        set_piece_reason(why, SCH_EXPLAIN_ERR_PINNED_PAWN + (int)pt, pt, from);
        return STAGE_PINNED;
    } else if (attackers) {
        SchSquare checker = sch_bb_lsb(attackers);
        SchPieceType ct = sch_piece_type(sch_pos_piece_on(pos, checker));
        set_piece_reason(why, SCH_EXPLAIN_ERR_CHECK_BY_PAWN + (int)ct, ct, checker);
        return STAGE_CHECK;
    }
    sch_move_explain(pos, from, to, promo, text, why);
    return STAGE_OTHER;
}

/* Whether the intent names castling by the king's squares: e1g1, e1c1, e1h1 (king takes own rook),
 * Ke1-g1, Kg1 — only while the own king stands on e1, or e1 is empty and named as the origin; in
 * Chess960 also the king taking its own rook from any square. */
static int castling_by_squares(const SchPosition *pos, const SchMoveText *in) {
    SchColor us = sch_pos_turn(pos);
    SchSquare home = sch_square_relative(us, SCH_SQ_E1);
    /* Chess960's form, the king taking its own rook on the back rank, from wherever the king stands. */
    SchSquare king = sch_pos_king(pos, us);
    if (pos->chess960 && in->from_file == sch_square_file(king) && in->from_rank == sch_square_rank(king) &&
        sch_square_rank(sch_square_relative(us, king)) == 0 && sch_square_rank(in->to) == sch_square_rank(king) &&
        sch_pos_piece_on(pos, in->to) == sch_piece_make(us, SCH_ROOK) && in->promo == SCH_PIECE_TYPE_NB)
        return in->to > king ? 1 : 2;
    if (in->promo != SCH_PIECE_TYPE_NB || (in->piece != SCH_PIECE_TYPE_NB && in->piece != SCH_KING))
        return 0;
    if (sch_square_rank(in->to) != sch_square_rank(home) ||
        (in->from_rank >= 0 && in->from_rank != sch_square_rank(home)) ||
        (in->from_file >= 0 && in->from_file != sch_square_file(home)))
        return 0;
    bool named = in->from_file >= 0 && in->from_rank >= 0;
    SchPiece on_home = sch_pos_piece_on(pos, home);
    if (on_home != sch_piece_make(us, SCH_KING) && !(named && on_home == SCH_NO_PIECE))
        return 0;
    if (!named && in->piece != SCH_KING)
        return 0;
    int file = sch_square_file(in->to);
    if (file == 6 || file == 2)
        return file == 6 ? 1 : 2;
    SchPiece target = sch_pos_piece_on(pos, in->to);
    if ((file == 7 || file == 0) &&
        (target == SCH_NO_PIECE || target == sch_piece_make(us, SCH_ROOK) || sch_piece_color(target) != us))
        return file == 7 ? 1 : 2;
    return 0;
}

/* Sets why for an intent that matches no legal move. parsed is the notation module's answer (may
 * be NULL), kept when it is more helpful than "no piece can reach". */
static void explain_intent(const SchGame *g, const SchMoveText *in, const char *text, const SchError *parsed,
                           SchError *why) {
    const SchPosition *pos = &g->pos;
    SchColor us = sch_pos_turn(pos);
    int castle = in->castle ? in->castle : castling_by_squares(pos, in);
    if (castle) {
        explain_castling(g, castle == 1, text, why);
        return;
    }
    SchPieceType want = in->piece == SCH_PIECE_TYPE_NB ? SCH_PAWN : in->piece;
    SchBitboard candidates;
    bool named = in->from_file >= 0 && in->from_rank >= 0;
    if (named) {
        SchSquare from = sch_square_make(in->from_file, in->from_rank);
        SchPiece p = sch_pos_piece_on(pos, from);
        if (p == SCH_NO_PIECE || sch_piece_color(p) != us) {
            set_square_reason(why, p == SCH_NO_PIECE ? SCH_MOVE_ERR_EMPTY_SQUARE : SCH_MOVE_ERR_WRONG_COLOR, from);
            return;
        }
        /* The board knows which piece it is; a wrong letter in "Bc1-f4" does not matter. */
        want = sch_piece_type(p);
        candidates = sch_bb_square(from);
    } else {
        candidates = sch_pos_pieces(pos, us, want);
        if (in->from_file >= 0)
            candidates &= SCH_BB_FILE_A << in->from_file;
        else if (want == SCH_PAWN)
            candidates &= SCH_BB_FILE_A << sch_square_file(in->to); /* "d5" is a push, never "exd5" */
        if (in->from_rank >= 0)
            candidates &= SCH_BB_RANK_1 << (8 * in->from_rank);
    }
    int best = -1;
    SchError one;
    while (candidates) {
        SchSquare from = sch_bb_pop(&candidates);
        sch_err_clear(&one);
        int stage = judge(pos, from, in->to, in->promo, named, text, &one);
        if (stage > best) {
            best = stage;
            *why = one;
        }
    }
    if (best < STAGE_OWN_PIECE && parsed && parsed->code == SCH_MOVE_ERR_DID_YOU_MEAN) {
        *why = *parsed;
        return;
    }
    if (best < 0)
        set_no_piece(why, want, in->to);
}

/* ---------------------------------------------------------------------------------------------- */

/* Notation's answers that already are the most specific reason. */
static bool keep_notation_reason(int code) {
    return code == SCH_MOVE_ERR_EMPTY || code == SCH_MOVE_ERR_AMBIGUOUS || code == SCH_MOVE_ERR_PROMOTION_MISSING ||
           code == SCH_MOVE_ERR_PROMOTION_BAD || code == SCH_MOVE_ERR_PROMOTION_PIECE;
}

SchMove sch_game_parse_move(const SchGame *g, const char *text, SchLang lang, SchError *err) {
    if (!g || !text)
        return sch_err_set(err, SCH_MOVE_ERR_EMPTY, NULL, NULL, NULL), SCH_MOVE_NONE;
    SchError parsed;
    sch_err_clear(&parsed);
    SchMove m = sch_move_parse(&g->pos, text, lang, &parsed);
    if (m != SCH_MOVE_NONE)
        return m;
    SchMoveText in;
    if (keep_notation_reason(parsed.code) || !sch_move_text_read(text, lang, &in)) {
        if (err)
            sch_err_set(err, parsed.code, parsed.args[0], parsed.args[1], parsed.args[2]);
        return SCH_MOVE_NONE;
    }
    SchError why;
    sch_err_clear(&why);
    explain_intent(g, &in, in.shown, &parsed, &why);
    if (err)
        sch_err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
    return SCH_MOVE_NONE;
}

bool sch_game_explain_move(const SchGame *g, SchSquare from, SchSquare to, SchPieceType promo, SchError *err) {
    if (!g || from >= SCH_SQ_NONE || to >= SCH_SQ_NONE || from == to)
        return sch_err_set(err, SCH_MOVE_ERR_ILLEGAL, "", NULL, NULL);
    char text[SCH_MOVE_TEXT_MAX];
    SchMove shape =
        promo >= SCH_KNIGHT && promo <= SCH_QUEEN ? sch_move_make_promotion(from, to, promo) : sch_move_make(from, to);
    sch_uci_write(&g->pos, shape, text, sizeof text);
    SchMoveText in = {.piece = SCH_PIECE_TYPE_NB,
                      .from_file = sch_square_file(from),
                      .from_rank = sch_square_rank(from),
                      .to = to,
                      .promo = (unsigned)promo > SCH_PIECE_TYPE_NB ? SCH_PIECE_TYPE_NB : promo};
    SchError why;
    sch_err_clear(&why);
    explain_intent(g, &in, text, NULL, &why);
    if (err)
        sch_err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
    return false;
}
