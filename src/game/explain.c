/* Why a typed move is refused, in the words of the rules.
 *
 * The text is read leniently into what the player meant (piece, origin, target, promotion or
 * castling) by move_text_read, the same reader the SAN parser uses. Every own piece that fits is then taken through the rules in a fixed order: can it go
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

static const char *const PIECE_WORDS[PIECE_TYPE_NB] = {"@pawn", "@knight", "@bishop", "@rook", "@queen", "@king"};

/* ---------------------------------------------------------------------------------------------- */
/* Reasons                                                                                         */

static Square bb_msb(Bitboard b) { return (Square)(63 - __builtin_clzll(b)); }

static void set_square_reason(SchError *why, int code, Square s) {
    char sq[3];
    square_name(s, sq);
    err_set(why, code, sq, NULL, NULL);
}

static void set_piece_reason(SchError *why, int code, PieceType pt, Square s) {
    char sq[3];
    square_name(s, sq);
    err_set(why, code, PIECE_WORDS[pt], sq, NULL);
}

static void set_no_piece(SchError *why, PieceType pt, Square to) {
    char sq[3], letter[2] = {piece_letter(pt, LANG_EN), '\0'};
    square_name(to, sq);
    err_set(why, MOVE_ERR_NO_PAWN + (int)pt, letter, sq, NULL);
}

static int castle_right(Color us, bool king_side) {
    return us == WHITE ? (king_side ? CASTLE_WK : CASTLE_WQ) : (king_side ? CASTLE_BK : CASTLE_BQ);
}

/* Which move of the game took the right away: replays the history from the start. */
static int lost_right_reason(const Game *g, int right, Square king_home, Square rook_home) {
    if (!(g->start.castling & right))
        return EXPLAIN_ERR_CASTLE_NO_RIGHT;
    Position p = g->start;
    for (int i = 0; i < g->ply_count && g->plies; i++) {
        Move m = g->plies[i].move;
        if (!gen_is_legal(&p, m))
            break; /* a damaged history: never make a move that is not legal */
        Undo undo;
        pos_make(&p, m, &undo);
        if (p.castling & right)
            continue;
        if (move_from(m) == king_home)
            return EXPLAIN_ERR_CASTLE_KING_MOVED;
        if (move_from(m) == rook_home)
            return EXPLAIN_ERR_CASTLE_ROOK_MOVED;
        if (move_to(m) == rook_home)
            return EXPLAIN_ERR_CASTLE_ROOK_GONE;
        break;
    }
    /* The history does not say (a game whose moves were not recorded): the king is the sure answer
     * when it has left its square, otherwise the position simply has no right. */
    return pos_piece_on(&g->pos, king_home) == piece_make(pos_turn(&g->pos), KING) ? EXPLAIN_ERR_CASTLE_NO_RIGHT
                                                                                   : EXPLAIN_ERR_CASTLE_KING_MOVED;
}

/* The blocker a player sees first looking from the king towards the castling side (in Chess960 the
 * rook's target may also lie behind the king). */
static Square nearest_blocker(Bitboard blockers, Square king, bool king_side) {
    Bitboard above = blockers & ~((bb_square(king) << 1) - 1), below = blockers & (bb_square(king) - 1);
    if (king_side)
        return above ? bb_lsb(above) : bb_msb(below);
    return below ? bb_msb(below) : bb_lsb(above);
}

/* By the Chess960 rule, of which standard chess is a case: the king and the right's rook may start on
 * any files; every square either crosses or lands on must be empty but for the two of them, and no
 * square the king crosses or lands on may be attacked once both have left their squares. */
static void explain_castling(const Game *g, bool king_side, const char *text, SchError *why) {
    const Position *pos = &g->pos;
    Color us = pos_turn(pos), them = (Color)!us;
    int right = castle_right(us, king_side), index = 2 * (int)us + !king_side;
    Square king = pos_king(pos, us);
    Square rook = (Square)pos->castle_rook[index];
    Square target = square_relative(us, king_side ? SQ_G1 : SQ_C1);
    Square rook_target = square_relative(us, king_side ? SQ_F1 : SQ_D1);
    if (!(pos->castling & right)) {
        /* Where king and rook stood at the start of the game (the rights there name the rook). */
        Square king_home = pos_king(&g->start, us), rook_home = (Square)g->start.castle_rook[index];
        int code = lost_right_reason(g, right, king_home, rook_home);
        if (code == EXPLAIN_ERR_CASTLE_KING_MOVED || code == EXPLAIN_ERR_CASTLE_NO_RIGHT)
            err_set(why, code, NULL, NULL, NULL);
        else
            set_square_reason(why, code, rook_home);
        return;
    }
    if (pos_in_check(pos)) {
        err_set(why, EXPLAIN_ERR_CASTLE_IN_CHECK, NULL, NULL, NULL);
        return;
    }
    Bitboard occ = pos_occupied(pos) ^ bb_square(king) ^ bb_square(rook);
    Bitboard crossed =
        (bb_between(king, target) | bb_square(target) | bb_between(rook, rook_target) | bb_square(rook_target)) & occ;
    if (crossed) {
        set_square_reason(why, EXPLAIN_ERR_CASTLE_OCCUPIED, nearest_blocker(crossed, king, king_side));
        return;
    }
    int step = target > king ? 1 : -1;
    for (int s = king == target ? (int)king : (int)king + step;; s += step) {
        if (pos_attackers_to(pos, (Square)s, occ) & pos->by_color[them]) {
            set_square_reason(why, EXPLAIN_ERR_CASTLE_ATTACKED, (Square)s);
            return;
        }
        if (s == (int)target)
            break;
    }
    move_explain(pos, king, target, PIECE_TYPE_NB, text, why);
}

/* Pawn steps on an empty board: one ahead, two from the start rank, one diagonally ahead. */
typedef enum { PAWN_NONE, PAWN_PUSH, PAWN_DOUBLE, PAWN_DIAGONAL } PawnStep;

static PawnStep pawn_step(Color us, Square from, Square to) {
    int df = square_file(to) - square_file(from);
    int dr = (square_rank(to) - square_rank(from)) * (us == WHITE ? 1 : -1);
    if (df == 0 && dr == 1)
        return PAWN_PUSH;
    if (df == 0 && dr == 2 && square_rank(square_relative(us, from)) == 1)
        return PAWN_DOUBLE;
    if ((df == 1 || df == -1) && dr == 1)
        return PAWN_DIAGONAL;
    return PAWN_NONE;
}

static int judge_geometry(const Position *pos, Square from, Square to, PieceType pt, bool from_named, SchError *why) {
    Color us = pos_turn(pos);
    if (pt == PAWN) {
        if (pawn_step(us, from, to) != PAWN_NONE)
            return -1;
        int df = square_file(to) - square_file(from), dr = square_rank(to) - square_rank(from);
        if (from_named || (df >= -1 && df <= 1 && dr >= -2 && dr <= 2)) {
            char a[3], b[3];
            square_name(from, a);
            square_name(to, b);
            err_set(why, EXPLAIN_ERR_PAWN_MOVE, a, b, NULL);
            return STAGE_PAWN_RULE;
        }
    } else {
        Bitboard reach = pt == KING ? bb_king_attacks(from) : bb_attacks(pt, from, 0);
        if (reach & bb_square(to))
            return -1;
    }
    set_no_piece(why, pt, to);
    return STAGE_UNREACHABLE;
}

/* The own piece on from moves to to: the first rule (in the order of the stages) that forbids it.
 * Returns the stage and sets why. */
static int judge(const Position *pos, Square from, Square to, PieceType promo, bool from_named, const char *text,
                 SchError *why) {
    Color us = pos_turn(pos), them = (Color)!us;
    PieceType pt = piece_type(pos_piece_on(pos, from));
    int stage = judge_geometry(pos, from, to, pt, from_named, why);
    if (stage >= 0)
        return stage;
    Bitboard occ = pos_occupied(pos);
    Piece target = pos_piece_on(pos, to);
    if (target != NO_PIECE && piece_color(target) == us) {
        char sq[3];
        square_name(to, sq);
        err_set(why, EXPLAIN_ERR_OWN_PIECE, sq, PIECE_WORDS[piece_type(target)], NULL);
        return STAGE_OWN_PIECE;
    }
    Square captured = to;
    Bitboard path = 0;
    if (pt == PAWN) {
        PawnStep step = pawn_step(us, from, to);
        if (step != PAWN_DIAGONAL)
            path = (bb_between(from, to) | bb_square(to)) & occ;
        else if (target == NO_PIECE) {
            Square behind = (Square)(us == WHITE ? to - 8 : to + 8);
            bool enemy_pawn_behind =
                pos_piece_on(pos, behind) == piece_make(them, PAWN) && square_rank(square_relative(us, to)) == 5;
            if (to == pos->ep && enemy_pawn_behind) {
                captured = behind;
            } else if (enemy_pawn_behind) {
                set_square_reason(why, EXPLAIN_ERR_EP_TOO_LATE, to);
                return STAGE_EN_PASSANT;
            } else {
                char a[3], b[3];
                square_name(from, a);
                square_name(to, b);
                err_set(why, EXPLAIN_ERR_PAWN_MOVE, a, b, NULL);
                return STAGE_BLOCKED;
            }
        }
    } else if (pt != KNIGHT && pt != KING) {
        path = bb_between(from, to) & occ;
    }
    if (path) {
        char sq[3], blocker[3];
        square_name(from, sq);
        square_name(to > from ? bb_lsb(path) : bb_msb(path), blocker);
        err_set(why, EXPLAIN_ERR_BLOCKED, PIECE_WORDS[pt], sq, blocker);
        return STAGE_BLOCKED;
    }
    bool last_rank = pt == PAWN && square_rank(square_relative(us, to)) == 7;
    if (promo != PIECE_TYPE_NB || last_rank) {
        int code = !last_rank                       ? MOVE_ERR_PROMOTION_BAD
                   : promo == PIECE_TYPE_NB         ? MOVE_ERR_PROMOTION_MISSING
                   : promo == PAWN || promo == KING ? MOVE_ERR_PROMOTION_PIECE
                                                    : 0;
        if (code) {
            err_set(why, code, text, NULL, NULL);
            return STAGE_PROMOTION;
        }
    }
    /* The board after the move, as far as attacks on the own king are concerned. */
    Bitboard occ_after = (occ & ~bb_square(from) & ~bb_square(captured)) | bb_square(to);
    Bitboard enemies = pos->by_color[them] & ~bb_square(captured);
    Square king = pt == KING ? to : pos_king(pos, us);
    Bitboard attackers = pos_attackers_to(pos, king, occ_after) & enemies;
    if (pt == KING) {
        if (attackers) {
            set_square_reason(why, EXPLAIN_ERR_KING_ATTACKED, to);
            return STAGE_KING_ATTACKED;
        }
    } else if (attackers & ~pos->checkers) {
        set_piece_reason(why, EXPLAIN_ERR_PINNED_PAWN + (int)pt, pt, from);
        return STAGE_PINNED;
    } else if (attackers) {
        Square checker = bb_lsb(attackers);
        PieceType ct = piece_type(pos_piece_on(pos, checker));
        set_piece_reason(why, EXPLAIN_ERR_CHECK_BY_PAWN + (int)ct, ct, checker);
        return STAGE_CHECK;
    }
    move_explain(pos, from, to, promo, text, why);
    return STAGE_OTHER;
}

/* Whether the intent names castling by the king's squares: e1g1, e1c1, e1h1 (king takes own rook),
 * Ke1-g1, Kg1 — only while the own king stands on e1, or e1 is empty and named as the origin; in
 * Chess960 also the king taking its own rook from any square. */
static int castling_by_squares(const Position *pos, const MoveText *in) {
    Color us = pos_turn(pos);
    Square home = square_relative(us, SQ_E1);
    /* Chess960's form, the king taking its own rook on the back rank, from wherever the king stands. */
    Square king = pos_king(pos, us);
    if (pos->chess960 && in->from_file == square_file(king) && in->from_rank == square_rank(king) &&
        square_rank(square_relative(us, king)) == 0 && square_rank(in->to) == square_rank(king) &&
        pos_piece_on(pos, in->to) == piece_make(us, ROOK) && in->promo == PIECE_TYPE_NB)
        return in->to > king ? 1 : 2;
    if (in->promo != PIECE_TYPE_NB || (in->piece != PIECE_TYPE_NB && in->piece != KING))
        return 0;
    if (square_rank(in->to) != square_rank(home) || (in->from_rank >= 0 && in->from_rank != square_rank(home)) ||
        (in->from_file >= 0 && in->from_file != square_file(home)))
        return 0;
    bool named = in->from_file >= 0 && in->from_rank >= 0;
    Piece on_home = pos_piece_on(pos, home);
    if (on_home != piece_make(us, KING) && !(named && on_home == NO_PIECE))
        return 0;
    if (!named && in->piece != KING)
        return 0;
    int file = square_file(in->to);
    if (file == 6 || file == 2)
        return file == 6 ? 1 : 2;
    Piece target = pos_piece_on(pos, in->to);
    if ((file == 7 || file == 0) && (target == NO_PIECE || target == piece_make(us, ROOK) || piece_color(target) != us))
        return file == 7 ? 1 : 2;
    return 0;
}

/* Sets why for an intent that matches no legal move. parsed is the notation module's answer (may
 * be NULL), kept when it is more helpful than "no piece can reach". */
static void explain_intent(const Game *g, const MoveText *in, const char *text, const SchError *parsed, SchError *why) {
    const Position *pos = &g->pos;
    Color us = pos_turn(pos);
    int castle = in->castle ? in->castle : castling_by_squares(pos, in);
    if (castle) {
        explain_castling(g, castle == 1, text, why);
        return;
    }
    PieceType want = in->piece == PIECE_TYPE_NB ? PAWN : in->piece;
    Bitboard candidates;
    bool named = in->from_file >= 0 && in->from_rank >= 0;
    if (named) {
        Square from = square_make(in->from_file, in->from_rank);
        Piece p = pos_piece_on(pos, from);
        if (p == NO_PIECE || piece_color(p) != us) {
            set_square_reason(why, p == NO_PIECE ? MOVE_ERR_EMPTY_SQUARE : MOVE_ERR_WRONG_COLOR, from);
            return;
        }
        /* The board knows which piece it is; a wrong letter in "Bc1-f4" does not matter. */
        want = piece_type(p);
        candidates = bb_square(from);
    } else {
        candidates = pos_pieces(pos, us, want);
        if (in->from_file >= 0)
            candidates &= BB_FILE_A << in->from_file;
        else if (want == PAWN)
            candidates &= BB_FILE_A << square_file(in->to); /* "d5" is a push, never "exd5" */
        if (in->from_rank >= 0)
            candidates &= BB_RANK_1 << (8 * in->from_rank);
    }
    int best = -1;
    SchError one;
    while (candidates) {
        Square from = bb_pop(&candidates);
        err_clear(&one);
        int stage = judge(pos, from, in->to, in->promo, named, text, &one);
        if (stage > best) {
            best = stage;
            *why = one;
        }
    }
    if (best < STAGE_OWN_PIECE && parsed && parsed->code == MOVE_ERR_DID_YOU_MEAN) {
        *why = *parsed;
        return;
    }
    if (best < 0)
        set_no_piece(why, want, in->to);
}

/* ---------------------------------------------------------------------------------------------- */

/* Notation's answers that already are the most specific reason. */
static bool keep_notation_reason(int code) {
    return code == MOVE_ERR_EMPTY || code == MOVE_ERR_AMBIGUOUS || code == MOVE_ERR_PROMOTION_MISSING ||
           code == MOVE_ERR_PROMOTION_BAD || code == MOVE_ERR_PROMOTION_PIECE;
}

Move game_parse_move(const Game *g, const char *text, Lang lang, SchError *err) {
    if (!g || !text)
        return err_set(err, MOVE_ERR_EMPTY, NULL, NULL, NULL), MOVE_NONE;
    SchError parsed;
    err_clear(&parsed);
    Move m = move_parse(&g->pos, text, lang, &parsed);
    if (m != MOVE_NONE)
        return m;
    MoveText in;
    if (keep_notation_reason(parsed.code) || !move_text_read(text, lang, &in)) {
        if (err)
            err_set(err, parsed.code, parsed.args[0], parsed.args[1], parsed.args[2]);
        return MOVE_NONE;
    }
    SchError why;
    err_clear(&why);
    explain_intent(g, &in, in.shown, &parsed, &why);
    if (err)
        err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
    return MOVE_NONE;
}

bool game_explain_move(const Game *g, Square from, Square to, PieceType promo, SchError *err) {
    if (!g || from >= SQ_NONE || to >= SQ_NONE || from == to)
        return err_set(err, MOVE_ERR_ILLEGAL, "", NULL, NULL);
    char text[SCHACH_MOVE_TEXT_MAX];
    Move shape = promo >= KNIGHT && promo <= QUEEN ? move_make_promotion(from, to, promo) : move_make(from, to);
    uci_write(shape, text, sizeof text);
    MoveText in = {.piece = PIECE_TYPE_NB,
                   .from_file = square_file(from),
                   .from_rank = square_rank(from),
                   .to = to,
                   .promo = (unsigned)promo > PIECE_TYPE_NB ? PIECE_TYPE_NB : promo};
    SchError why;
    err_clear(&why);
    explain_intent(g, &in, text, NULL, &why);
    if (err)
        err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
    return false;
}
