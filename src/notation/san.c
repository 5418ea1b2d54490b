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

static void out_square(TextOut *t, Square s) {
    out_char(t, (char)('a' + square_file(s)));
    out_char(t, (char)('1' + square_rank(s)));
}

static size_t out_finish(TextOut *t) {
    if (t->size > 0)
        t->buf[t->len < t->size ? t->len : t->size - 1] = '\0';
    return t->len;
}

static const char EN_LETTERS[PIECE_TYPE_NB] = {'P', 'N', 'B', 'R', 'Q', 'K'};
static const char DE_LETTERS[PIECE_TYPE_NB] = {'B', 'S', 'L', 'T', 'D', 'K'};

static char letter_of(PieceType t, Lang lang) { return lang == LANG_DE ? DE_LETTERS[t] : EN_LETTERS[t]; }

static bool is_capture(const Position *pos, Move m) {
    return move_kind(m) == MOVE_EN_PASSANT ||
           (move_kind(m) != MOVE_CASTLING && pos_piece_on(pos, move_to(m)) != NO_PIECE);
}

/* '+', '#' or 0 for the position after m. */
static char check_mark(const Position *pos, Move m) {
    Position next = *pos;
    Undo undo;
    pos_make(&next, m, &undo);
    if (!pos_in_check(&next))
        return 0;
    return gen_has_legal_move(&next) ? '+' : '#';
}

/* Origin file and/or rank, only when another piece of the same type can legally go to the same
 * square. The attack test is symmetric for N, B, R, Q and skips move generation in the usual case. */
static void out_disambiguation(TextOut *t, const Position *pos, Move m, PieceType pt) {
    Square from = move_from(m), to = move_to(m);
    Bitboard rivals = pos_pieces(pos, pos_turn(pos), pt) & bb_attacks(pt, to, pos_occupied(pos)) & ~bb_square(from);
    if (!rivals)
        return;
    Move list[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, list);
    bool rival = false, same_file = false, same_rank = false;
    for (int i = 0; i < n; i++) {
        Square f = move_from(list[i]);
        if (move_to(list[i]) != to || !(rivals & bb_square(f)))
            continue;
        rival = true;
        same_file |= square_file(f) == square_file(from);
        same_rank |= square_rank(f) == square_rank(from);
    }
    if (!rival)
        return;
    if (!same_file || same_rank)
        out_char(t, (char)('a' + square_file(from)));
    if (same_file)
        out_char(t, (char)('1' + square_rank(from)));
}

static void out_castling(TextOut *t, Move m, Lang lang) {
    const char *o = lang == LANG_DE ? "0" : "O";
    out_str(t, o);
    out_char(t, '-');
    out_str(t, o);
    if (square_file(move_to(m)) == 2) {
        out_char(t, '-');
        out_str(t, o);
    }
}

static void out_tail(TextOut *t, const Position *pos, Move m, Lang lang, bool marks) {
    if (move_kind(m) == MOVE_PROMOTION) {
        out_char(t, '=');
        out_char(t, letter_of(move_promotion(m), lang));
    }
    if (marks) {
        char c = check_mark(pos, m);
        if (c)
            out_char(t, c);
    }
    /* The check mark belongs to the move, "e.p." is a remark after it ("exd6+ e.p."), so the move
     * token stays standard SAN for any reader that splits at spaces. */
    if (move_kind(m) == MOVE_EN_PASSANT && lang == LANG_DE)
        out_str(t, " e.p.");
}

/* A move that is not even a piece's move cannot be written as SAN; UCI keeps it readable. */
static void out_uci(TextOut *t, Move m) {
    out_square(t, move_from(m));
    out_square(t, move_to(m));
}

static void write_san(TextOut *t, const Position *pos, Move m, Lang lang, bool marks) {
    Square from = move_from(m), to = move_to(m);
    Piece p = pos_piece_on(pos, from);
    /* Castling first: in Chess960 the king may castle without moving (from == to). */
    bool castles = move_kind(m) == MOVE_CASTLING && p != NO_PIECE && piece_type(p) == KING;
    if (p == NO_PIECE || (from == to && !castles)) {
        out_uci(t, m);
        return;
    }
    PieceType pt = piece_type(p);
    if (castles) {
        out_castling(t, m, lang);
    } else if (pt == PAWN) {
        if (square_file(from) != square_file(to)) {
            out_char(t, (char)('a' + square_file(from)));
            out_char(t, 'x');
        }
        out_square(t, to);
    } else {
        out_char(t, letter_of(pt, lang));
        if (pt != KING)
            out_disambiguation(t, pos, m, pt);
        if (is_capture(pos, m))
            out_char(t, 'x');
        out_square(t, to);
    }
    out_tail(t, pos, m, lang, marks);
}

size_t san_write(const Position *pos, Move m, Lang lang, char *buf, size_t size) {
    TextOut t = {buf, size, 0};
    write_san(&t, pos, m, lang, true);
    return out_finish(&t);
}

size_t lan_write(const Position *pos, Move m, Lang lang, char *buf, size_t size) {
    TextOut t = {buf, size, 0};
    Square from = move_from(m);
    Piece p = pos_piece_on(pos, from);
    bool castles = move_kind(m) == MOVE_CASTLING && p != NO_PIECE && piece_type(p) == KING;
    if (p == NO_PIECE || (from == move_to(m) && !castles)) {
        out_uci(&t, m);
        return out_finish(&t);
    }
    if (castles) {
        out_castling(&t, m, lang);
    } else {
        if (piece_type(p) != PAWN)
            out_char(&t, letter_of(piece_type(p), lang));
        out_square(&t, from);
        out_char(&t, is_capture(pos, m) ? 'x' : '-');
        out_square(&t, move_to(m));
    }
    out_tail(&t, pos, m, lang, true);
    return out_finish(&t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Parsing                                                                                         */

static bool input_matches(const Position *pos, const MoveText *in, PieceType want, Move m) {
    Square from = move_from(m);
    if (move_to(m) != in->to || piece_type(pos_piece_on(pos, from)) != want)
        return false;
    if (in->from_file >= 0 && square_file(from) != in->from_file)
        return false;
    if (in->from_rank >= 0 && square_rank(from) != in->from_rank)
        return false;
    /* Without an origin file a pawn move is a push: "d5" never means "exd5". */
    if (want == PAWN && in->from_file < 0 && square_file(from) != square_file(in->to))
        return false;
    return true;
}

/* Appends the SAN of moves[0..n) (distinct from/to only) as "A, B" + last into a1 and a2. */
static void candidate_args(const Position *pos, const Move *in, int n, Lang lang, char *a1, size_t s1, char *a2,
                           size_t s2) {
    /* By origin square, so that the message does not depend on the generator's order. */
    Move moves[SCHACH_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && move_from(moves[j - 1]) > move_from(in[i]); j--)
            moves[j] = moves[j - 1];
        moves[j] = in[i];
    }
    TextOut first = {a1, s1, 0};
    for (int i = 0; i < n; i++) {
        char san[SCHACH_MOVE_TEXT_MAX];
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
static int unique_squares(const Move *in, int n, Move *out) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < k && (out[j] & 0xFFF) != (in[i] & 0xFFF))
            j++;
        if (j == k)
            out[k++] = in[i];
        else if (move_kind(in[i]) == MOVE_PROMOTION && move_promotion(in[i]) == QUEEN)
            out[j] = in[i];
    }
    return k;
}

static Move castle_parse(const Position *pos, int castle, const char *arg, SchError *err) {
    Move list[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_QUIET, list);
    int file = castle == 1 ? 6 : 2;
    for (int i = 0; i < n; i++)
        if (move_kind(list[i]) == MOVE_CASTLING && square_file(move_to(list[i])) == file)
            return list[i];
    move_explain_castling(pos, castle == 1, arg, err);
    return MOVE_NONE;
}

/* Why no legal move fits: a piece that could go there but for check, a move the user probably meant
 * with a wrong origin, or simply no such piece. */
static Move explain_no_match(const Position *pos, const MoveText *in, PieceType want, Lang lang, const char *arg,
                             SchError *err) {
    Color us = pos_turn(pos);
    Bitboard own = pos_pieces(pos, us, want);
    while (own) {
        Square from = bb_pop(&own);
        if ((in->from_file >= 0 && square_file(from) != in->from_file) ||
            (in->from_rank >= 0 && square_rank(from) != in->from_rank) ||
            (want == PAWN && in->from_file < 0 && square_file(from) != square_file(in->to)))
            continue;
        SchError why;
        err_clear(&why);
        move_explain(pos, from, in->to, in->promo, arg, &why);
        if (why.code != MOVE_ERR_ILLEGAL) {
            err_set(err, why.code, why.args[0], why.args[1], why.args[2]);
            return MOVE_NONE;
        }
    }
    if (in->from_file >= 0 || in->from_rank >= 0) {
        MoveText loose = *in;
        loose.from_file = loose.from_rank = -1;
        Move list[SCHACH_MAX_MOVES], found[SCHACH_MAX_MOVES], uniq[SCHACH_MAX_MOVES];
        int n = gen_moves(pos, GEN_ALL, list), k = 0;
        for (int i = 0; i < n; i++)
            if (input_matches(pos, &loose, want, list[i]) ||
                (want == PAWN && move_to(list[i]) == in->to &&
                 piece_type(pos_piece_on(pos, move_from(list[i]))) == PAWN))
                found[k++] = list[i];
        k = unique_squares(found, k, uniq);
        if (k > 0) {
            char first[SCHACH_ERR_ARG_MAX], last[SCHACH_ERR_ARG_MAX], both[SCHACH_ERR_ARG_MAX];
            candidate_args(pos, uniq, k, lang, first, sizeof first, last, sizeof last);
            TextOut t = {both, sizeof both, 0};
            out_str(&t, first);
            out_str(&t, k > 1 ? " / " : "");
            out_str(&t, last);
            out_finish(&t);
            err_set(err, MOVE_ERR_DID_YOU_MEAN, arg, both, NULL);
            return MOVE_NONE;
        }
    }
    char sq[3], letter[2] = {EN_LETTERS[want], '\0'};
    square_name(in->to, sq);
    err_set(err, MOVE_ERR_NO_PAWN + (int)want, letter, sq, NULL);
    return MOVE_NONE;
}

static Move resolve(const Position *pos, const MoveText *in, Lang lang, const char *arg, SchError *err) {
    if (in->castle)
        return castle_parse(pos, in->castle, arg, err);
    PieceType want = in->piece;
    if (want == PIECE_TYPE_NB) {
        if (in->from_file >= 0 && in->from_rank >= 0) { /* "g1f3", "g1-f3": the board says which piece */
            Square from = square_make(in->from_file, in->from_rank);
            Piece p = pos_piece_on(pos, from);
            if (p == NO_PIECE || piece_color(p) != pos_turn(pos)) {
                char sq[3];
                square_name(from, sq);
                err_set(err, p == NO_PIECE ? MOVE_ERR_EMPTY_SQUARE : MOVE_ERR_WRONG_COLOR, sq, NULL, NULL);
                return MOVE_NONE;
            }
            want = piece_type(p);
        } else {
            want = PAWN;
        }
    }
    Move list[SCHACH_MAX_MOVES], found[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, list), k = 0;
    for (int i = 0; i < n; i++)
        if (input_matches(pos, in, want, list[i]))
            found[k++] = list[i];
    /* "Kg1" in Chess960 with the king on f1 is the king's step, not castling, which has O-O. */
    if (k > 1 && want == KING) {
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (move_kind(found[i]) != MOVE_CASTLING)
                found[kept++] = found[i];
        k = kept;
    }
    if (k == 0)
        return explain_no_match(pos, in, want, lang, arg, err);
    bool promotes = move_kind(found[0]) == MOVE_PROMOTION;
    if (in->promo != PIECE_TYPE_NB) {
        if (!promotes)
            return err_set(err, MOVE_ERR_PROMOTION_BAD, arg, NULL, NULL), MOVE_NONE;
        if (in->promo == PAWN || in->promo == KING)
            return err_set(err, MOVE_ERR_PROMOTION_PIECE, arg, NULL, NULL), MOVE_NONE;
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (move_promotion(found[i]) == in->promo)
                found[kept++] = found[i];
        k = kept;
    } else if (promotes) {
        return err_set(err, MOVE_ERR_PROMOTION_MISSING, arg, NULL, NULL), MOVE_NONE;
    }
    if (k == 1)
        return found[0];
    char first[SCHACH_ERR_ARG_MAX], last[SCHACH_ERR_ARG_MAX];
    candidate_args(pos, found, k, lang, first, sizeof first, last, sizeof last);
    err_set(err, MOVE_ERR_AMBIGUOUS, first, last, NULL);
    return MOVE_NONE;
}

Move san_parse(const Position *pos, const char *text, Lang lang, SchError *err) {
    MoveText in;
    bool read = move_text_read(text, lang, &in);
    if (in.length == 0)
        return err_set(err, MOVE_ERR_EMPTY, NULL, NULL, NULL), MOVE_NONE;
    /* The dash belongs to long algebraic notation only, which names the whole origin square. */
    if (!read || (in.separator == '-' && (in.from_file < 0 || in.from_rank < 0)))
        return err_set(err, MOVE_ERR_SYNTAX, in.shown, NULL, NULL), MOVE_NONE;
    return resolve(pos, &in, lang, in.shown, err);
}
