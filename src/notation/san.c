/* Standard and long algebraic notation: writing (English and German letters) and lenient parsing.
 *
 * The parser reads the text from the right: suffixes ("+", "#", "!?", "e.p."), then an optional
 * promotion, the target square, an optional capture or LAN separator, optional origin file and rank,
 * and an optional piece letter. The result is matched against the legal moves, so every form that
 * names exactly one legal move is accepted, and every other form gets a reason.
 */
#include "schach/notation.h"

#include <stdio.h>
#include <string.h>

#include "schach/movegen.h"

/* A piece of output that counts the full length like snprintf even when buf is too small. */
typedef struct TextOut {
    char *buf;
    size_t size;
    size_t len;
} TextOut;

static void out_char(TextOut *t, char c) {
    if (t->len + 1 < t->size)
        t->buf[t->len] = c;
    t->len++;
}

static void out_str(TextOut *t, const char *s) {
    while (*s)
        out_char(t, *s++);
}

static void out_square(TextOut *t, SchSquare s) {
    out_char(t, (char)('a' + sch_square_file(s)));
    out_char(t, (char)('1' + sch_square_rank(s)));
}

static size_t out_finish(TextOut *t) {
    if (t->size > 0)
        t->buf[t->len < t->size ? t->len : t->size - 1] = '\0';
    return t->len;
}

static const char EN_LETTERS[SCH_PIECE_TYPE_NB] = {'P', 'N', 'B', 'R', 'Q', 'K'};
static const char DE_LETTERS[SCH_PIECE_TYPE_NB] = {'B', 'S', 'L', 'T', 'D', 'K'};

static char letter_of(SchPieceType t, SchLang lang) { return lang == SCH_LANG_DE ? DE_LETTERS[t] : EN_LETTERS[t]; }

static bool is_capture(const SchPosition *pos, SchMove m) {
    return sch_move_kind(m) == SCH_MOVE_EN_PASSANT ||
           (sch_move_kind(m) != SCH_MOVE_CASTLING && sch_pos_piece_on(pos, sch_move_to(m)) != SCH_NO_PIECE);
}

/* '+', '#' or 0 for the position after m. */
static char check_mark(const SchPosition *pos, SchMove m) {
    SchPosition next = *pos;
    SchUndo undo;
    sch_pos_make(&next, m, &undo);
    if (!sch_pos_in_check(&next))
        return 0;
    return sch_gen_has_legal_move(&next) ? '+' : '#';
}

/* Origin file and/or rank, only when another piece of the same type can legally go to the same
 * square. The attack test is symmetric for N, B, R, Q and skips move generation in the usual case. */
static void out_disambiguation(TextOut *t, const SchPosition *pos, SchMove m, SchPieceType pt) {
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    SchBitboard rivals = sch_pos_pieces(pos, sch_pos_turn(pos), pt) & sch_bb_attacks(pt, to, sch_pos_occupied(pos)) &
                         ~sch_bb_square(from);
    if (!rivals)
        return;
    SchMove list[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, list);
    bool rival = false, same_file = false, same_rank = false;
    for (int i = 0; i < n; i++) {
        SchSquare f = sch_move_from(list[i]);
        if (sch_move_to(list[i]) != to || !(rivals & sch_bb_square(f)))
            continue;
        rival = true;
        same_file |= sch_square_file(f) == sch_square_file(from);
        same_rank |= sch_square_rank(f) == sch_square_rank(from);
    }
    if (!rival)
        return;
    if (!same_file || same_rank)
        out_char(t, (char)('a' + sch_square_file(from)));
    if (same_file)
        out_char(t, (char)('1' + sch_square_rank(from)));
}

static void out_castling(TextOut *t, SchMove m, SchLang lang) {
    const char *o = lang == SCH_LANG_DE ? "0" : "O";
    out_str(t, o);
    out_char(t, '-');
    out_str(t, o);
    if (sch_square_file(sch_move_to(m)) == 2) {
        out_char(t, '-');
        out_str(t, o);
    }
}

static void out_tail(TextOut *t, const SchPosition *pos, SchMove m, SchLang lang, bool marks) {
    if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
        out_char(t, '=');
        out_char(t, letter_of(sch_move_promotion(m), lang));
    }
    if (marks) {
        char c = check_mark(pos, m);
        if (c)
            out_char(t, c);
    }
    /* The check mark belongs to the move, "e.p." is a remark after it ("exd6+ e.p."), so the move
     * token stays standard SAN for any reader that splits at spaces. */
    if (sch_move_kind(m) == SCH_MOVE_EN_PASSANT && lang == SCH_LANG_DE)
        out_str(t, " e.p.");
}

/* A move that is not even a piece's move cannot be written as SAN; UCI keeps it readable. */
static void out_uci(TextOut *t, SchMove m) {
    out_square(t, sch_move_from(m));
    out_square(t, sch_move_to(m));
}

static void write_san(TextOut *t, const SchPosition *pos, SchMove m, SchLang lang, bool marks) {
    if (m == SCH_MOVE_NULL) { /* PGN's null move */
        out_str(t, "--");
        return;
    }
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    SchPiece p = sch_pos_piece_on(pos, from);
    /* Castling first: in Chess960 the king may castle without moving (from == to). */
    bool castles = sch_move_kind(m) == SCH_MOVE_CASTLING && p != SCH_NO_PIECE && sch_piece_type(p) == SCH_KING;
    if (p == SCH_NO_PIECE || (from == to && !castles)) {
        out_uci(t, m);
        return;
    }
    SchPieceType pt = sch_piece_type(p);
    if (castles) {
        out_castling(t, m, lang);
    } else if (pt == SCH_PAWN) {
        if (sch_square_file(from) != sch_square_file(to)) {
            out_char(t, (char)('a' + sch_square_file(from)));
            out_char(t, 'x');
        }
        out_square(t, to);
    } else {
        out_char(t, letter_of(pt, lang));
        if (pt != SCH_KING)
            out_disambiguation(t, pos, m, pt);
        if (is_capture(pos, m))
            out_char(t, 'x');
        out_square(t, to);
    }
    out_tail(t, pos, m, lang, marks);
}

size_t sch_san_write(const SchPosition *pos, SchMove m, SchLang lang, char *buf, size_t size) {
    TextOut t = {buf, size, 0};
    write_san(&t, pos, m, lang, true);
    return out_finish(&t);
}

size_t sch_lan_write(const SchPosition *pos, SchMove m, SchLang lang, char *buf, size_t size) {
    TextOut t = {buf, size, 0};
    if (m == SCH_MOVE_NULL) {
        out_str(&t, "--");
        return out_finish(&t);
    }
    SchSquare from = sch_move_from(m);
    SchPiece p = sch_pos_piece_on(pos, from);
    bool castles = sch_move_kind(m) == SCH_MOVE_CASTLING && p != SCH_NO_PIECE && sch_piece_type(p) == SCH_KING;
    if (p == SCH_NO_PIECE || (from == sch_move_to(m) && !castles)) {
        out_uci(&t, m);
        return out_finish(&t);
    }
    if (castles) {
        out_castling(&t, m, lang);
    } else {
        if (sch_piece_type(p) != SCH_PAWN)
            out_char(&t, letter_of(sch_piece_type(p), lang));
        out_square(&t, from);
        out_char(&t, is_capture(pos, m) ? 'x' : '-');
        out_square(&t, sch_move_to(m));
    }
    out_tail(&t, pos, m, lang, true);
    return out_finish(&t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Parsing                                                                                         */

static bool input_matches(const SchPosition *pos, const SchMoveText *in, SchPieceType want, SchMove m) {
    SchSquare from = sch_move_from(m);
    if (sch_move_to(m) != in->to || sch_piece_type(sch_pos_piece_on(pos, from)) != want)
        return false;
    if (in->from_file >= 0 && sch_square_file(from) != in->from_file)
        return false;
    if (in->from_rank >= 0 && sch_square_rank(from) != in->from_rank)
        return false;
    /* Without an origin file a pawn move is a push: "d5" never means "exd5". */
    if (want == SCH_PAWN && in->from_file < 0 && sch_square_file(from) != sch_square_file(in->to))
        return false;
    return true;
}

/* Appends the SAN of moves[0..n) (distinct from/to only) as "A, B" + last into a1 and a2. */
static void candidate_args(const SchPosition *pos, const SchMove *in, int n, SchLang lang, char *a1, size_t s1,
                           char *a2, size_t s2) {
    /* By origin square, so that the message does not depend on the generator's order. */
    SchMove moves[SCH_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && sch_move_from(moves[j - 1]) > sch_move_from(in[i]); j--)
            moves[j] = moves[j - 1];
        moves[j] = in[i];
    }
    TextOut first = {a1, s1, 0};
    for (int i = 0; i < n; i++) {
        char san[SCH_MOVE_TEXT_MAX];
        TextOut one = {san, sizeof san, 0};
        write_san(&one, pos, moves[i], lang, false);
        out_finish(&one);
        if (i == n - 1) {
            snprintf(a2, s2, "%s", san);
        } else {
            if (i > 0)
                out_str(&first, ", ");
            out_str(&first, san);
        }
    }
    out_finish(&first);
}

/* Keeps one move per (from, to), the queen promotion where there is a choice: four promotions of one
 * pawn are one suggestion in a message. */
static int unique_squares(const SchMove *in, int n, SchMove *out) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < k && (out[j] & 0xFFF) != (in[i] & 0xFFF))
            j++;
        if (j == k)
            out[k++] = in[i];
        else if (sch_move_kind(in[i]) == SCH_MOVE_PROMOTION && sch_move_promotion(in[i]) == SCH_QUEEN)
            out[j] = in[i];
    }
    return k;
}

static SchMove castle_parse(const SchPosition *pos, int castle, const char *arg, SchError *err) {
    SchMove list[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_QUIET, list);
    int file = castle == 1 ? 6 : 2;
    for (int i = 0; i < n; i++)
        if (sch_move_kind(list[i]) == SCH_MOVE_CASTLING && sch_square_file(sch_move_to(list[i])) == file)
            return list[i];
    sch_move_explain_castling(pos, castle == 1, arg, err);
    return SCH_MOVE_NONE;
}

/* Why no legal move fits: a piece that could go there but for check, a move the user probably meant
 * with a wrong origin, or simply no such piece. */
static SchMove explain_no_match(const SchPosition *pos, const SchMoveText *in, SchPieceType want, SchLang lang,
                                const char *arg, SchError *err) {
    SchColor us = sch_pos_turn(pos);
    SchBitboard own = sch_pos_pieces(pos, us, want);
    while (own) {
        SchSquare from = sch_bb_pop(&own);
        if ((in->from_file >= 0 && sch_square_file(from) != in->from_file) ||
            (in->from_rank >= 0 && sch_square_rank(from) != in->from_rank) ||
            (want == SCH_PAWN && in->from_file < 0 && sch_square_file(from) != sch_square_file(in->to)))
            continue;
        SchError why;
        sch_err_clear(&why);
        sch_move_explain(pos, from, in->to, in->promo, arg, &why);
        if (why.code != SCH_MOVE_ERR_ILLEGAL) {
            sch_err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
            return SCH_MOVE_NONE;
        }
    }
    if (in->from_file >= 0 || in->from_rank >= 0) {
        SchMoveText loose = *in;
        loose.from_file = loose.from_rank = -1;
        SchMove list[SCH_MAX_MOVES], found[SCH_MAX_MOVES], uniq[SCH_MAX_MOVES];
        int n = sch_gen_moves(pos, SCH_GEN_ALL, list), k = 0;
        for (int i = 0; i < n; i++)
            if (input_matches(pos, &loose, want, list[i]) ||
                (want == SCH_PAWN && sch_move_to(list[i]) == in->to &&
                 sch_piece_type(sch_pos_piece_on(pos, sch_move_from(list[i]))) == SCH_PAWN))
                found[k++] = list[i];
        k = unique_squares(found, k, uniq);
        if (k > 0) {
            char first[SCH_ERR_ARG_MAX], last[SCH_ERR_ARG_MAX], both[SCH_ERR_ARG_MAX];
            candidate_args(pos, uniq, k, lang, first, sizeof first, last, sizeof last);
            TextOut t = {both, sizeof both, 0};
            out_str(&t, first);
            out_str(&t, k > 1 ? " / " : "");
            out_str(&t, last);
            out_finish(&t);
            sch_err_set(err, SCH_MOVE_ERR_DID_YOU_MEAN, arg, both, NULL);
            return SCH_MOVE_NONE;
        }
    }
    char sq[3], letter[2] = {EN_LETTERS[want], '\0'};
    sch_square_name(in->to, sq);
    sch_err_set(err, SCH_MOVE_ERR_NO_PAWN + (int)want, letter, sq, NULL);
    return SCH_MOVE_NONE;
}

static SchMove resolve(const SchPosition *pos, const SchMoveText *in, SchLang lang, const char *arg, SchError *err) {
    if (in->castle)
        return castle_parse(pos, in->castle, arg, err);
    SchPieceType want = in->piece;
    if (want == SCH_PIECE_TYPE_NB) {
        if (in->from_file >= 0 && in->from_rank >= 0) { /* "g1f3", "g1-f3": the board says which piece */
            SchSquare from = sch_square_make(in->from_file, in->from_rank);
            SchPiece p = sch_pos_piece_on(pos, from);
            if (p == SCH_NO_PIECE || sch_piece_color(p) != sch_pos_turn(pos)) {
                char sq[3];
                sch_square_name(from, sq);
                sch_err_set(err, p == SCH_NO_PIECE ? SCH_MOVE_ERR_EMPTY_SQUARE : SCH_MOVE_ERR_WRONG_COLOR, sq, NULL,
                            NULL);
                return SCH_MOVE_NONE;
            }
            want = sch_piece_type(p);
        } else {
            want = SCH_PAWN;
        }
    }
    SchMove list[SCH_MAX_MOVES], found[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, list), k = 0;
    for (int i = 0; i < n; i++)
        if (input_matches(pos, in, want, list[i]))
            found[k++] = list[i];
    /* "Kg1" in Chess960 with the king on f1 is the king's step, not castling, which has O-O. */
    if (k > 1 && want == SCH_KING) {
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (sch_move_kind(found[i]) != SCH_MOVE_CASTLING)
                found[kept++] = found[i];
        k = kept;
    }
    if (k == 0)
        return explain_no_match(pos, in, want, lang, arg, err);
    bool promotes = sch_move_kind(found[0]) == SCH_MOVE_PROMOTION;
    if (in->promo != SCH_PIECE_TYPE_NB) {
        if (!promotes)
            return sch_err_set(err, SCH_MOVE_ERR_PROMOTION_BAD, arg, NULL, NULL), SCH_MOVE_NONE;
        if (in->promo == SCH_PAWN || in->promo == SCH_KING)
            return sch_err_set(err, SCH_MOVE_ERR_PROMOTION_PIECE, arg, NULL, NULL), SCH_MOVE_NONE;
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (sch_move_promotion(found[i]) == in->promo)
                found[kept++] = found[i];
        k = kept;
    } else if (promotes) {
        return sch_err_set(err, SCH_MOVE_ERR_PROMOTION_MISSING, arg, NULL, NULL), SCH_MOVE_NONE;
    }
    if (k == 1)
        return found[0];
    char first[SCH_ERR_ARG_MAX], last[SCH_ERR_ARG_MAX];
    candidate_args(pos, found, k, lang, first, sizeof first, last, sizeof last);
    sch_err_set(err, SCH_MOVE_ERR_AMBIGUOUS, first, last, NULL);
    return SCH_MOVE_NONE;
}

SchMove sch_san_parse(const SchPosition *pos, const char *text, SchLang lang, SchError *err) {
    SchMoveText in;
    bool read = sch_move_text_read(text, lang, &in);
    if (in.length == 0)
        return sch_err_set(err, SCH_MOVE_ERR_EMPTY, NULL, NULL, NULL), SCH_MOVE_NONE;
    /* The dash belongs to long algebraic notation only, which names the whole origin square. */
    if (!read || (in.separator == '-' && (in.from_file < 0 || in.from_rank < 0)))
        return sch_err_set(err, SCH_MOVE_ERR_SYNTAX, in.shown, NULL, NULL), SCH_MOVE_NONE;
    return resolve(pos, &in, lang, in.shown, err);
}
