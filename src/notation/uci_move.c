/* UCI move notation ("e2e4", "e7e8q"), and sch_move_parse, which accepts every notation we know. */
#include "schach/notation.h"

#include <string.h>

#include "schach/movegen.h"

/* Longer text is not UCI; the limit keeps error arguments short. */
#define UCI_ARG_MAX 40

static const char PROMO_LETTERS[] = "nbrq";

/* The text of a move's squares and promotion, which is all UCI says outside Chess960 castling. */
static size_t write_squares(SchMove m, char *buf, size_t size) {
    char text[6];
    size_t n = 0;
    if (m == SCH_MOVE_NONE || m == SCH_MOVE_NULL) { /* UCI writes the null move as "0000" too */
        memcpy(text, "0000", 4);
        n = 4;
    } else {
        sch_square_name(sch_move_from(m), text);
        sch_square_name(sch_move_to(m), text + 2);
        n = 4;
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION)
            text[n++] = PROMO_LETTERS[sch_move_promotion(m) - SCH_KNIGHT];
    }
    if (size > 0) {
        size_t k = n < size ? n : size - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    return n;
}

size_t sch_uci_write(const SchPosition *pos, SchMove m, char *buf, size_t size) {
    if (pos->chess960 && sch_move_kind(m) == SCH_MOVE_CASTLING)
        m = sch_move_make(sch_move_from(m), sch_pos_castling_rook(pos, m));
    return write_squares(m, buf, size);
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
static bool is_square(const char *s) { return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'; }

/* Promotion letter of either case, including the invalid k and p (reported as a bad promotion). */
static SchPieceType promo_of(char c) {
    switch (c) {
        case 'n':
        case 'N': return SCH_KNIGHT;
        case 'b':
        case 'B': return SCH_BISHOP;
        case 'r':
        case 'R': return SCH_ROOK;
        case 'q':
        case 'Q': return SCH_QUEEN;
        case 'k':
        case 'K': return SCH_KING;
        case 'p':
        case 'P': return SCH_PAWN;
        default: return SCH_PIECE_TYPE_NB;
    }
}

/* Trims whitespace; returns the start and sets *len. */
static const char *trim(const char *text, size_t *len) {
    while (is_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && is_space(text[n - 1]))
        n--;
    *len = n;
    return text;
}

static bool uci_shape(const char *s, size_t n) {
    return (n == 4 || n == 5) && is_square(s) && is_square(s + 2) && (n == 4 || promo_of(s[4]) != SCH_PIECE_TYPE_NB);
}

SchMove sch_uci_parse(const SchPosition *pos, const char *text, SchError *err) {
    if (!text)
        return sch_err_set(err, SCH_MOVE_ERR_EMPTY, NULL, NULL, NULL), SCH_MOVE_NONE;
    size_t len;
    text = trim(text, &len);
    char arg[UCI_ARG_MAX + 1];
    sch_err_text_arg(text, len < UCI_ARG_MAX ? len : UCI_ARG_MAX, arg, sizeof arg);
    if (len == 0)
        return sch_err_set(err, SCH_MOVE_ERR_EMPTY, NULL, NULL, NULL), SCH_MOVE_NONE;
    if (!uci_shape(text, len))
        return sch_err_set(err, SCH_MOVE_ERR_SYNTAX, arg, NULL, NULL), SCH_MOVE_NONE;
    SchSquare from = sch_square_make(text[0] - 'a', text[1] - '1');
    SchSquare to = sch_square_make(text[2] - 'a', text[3] - '1');
    SchPieceType promo = len == 5 ? promo_of(text[4]) : SCH_PIECE_TYPE_NB;
    SchMove list[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, list);
    /* A plain move first: in Chess960 "f1g1" is the king's step even when castling also puts the
     * king on g1; that castling is written f1h1. */
    SchMove castle = SCH_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        SchMove m = list[i];
        if (sch_move_kind(m) == SCH_MOVE_CASTLING) {
            /* The king's target ("e1g1") or its own rook ("e1h1", UCI_Chess960), never promoting. */
            if (sch_move_from(m) == from && promo == SCH_PIECE_TYPE_NB &&
                (sch_move_to(m) == to || sch_pos_castling_rook(pos, m) == to))
                castle = m;
            continue;
        }
        if (sch_move_from(m) != from || sch_move_to(m) != to)
            continue;
        bool promotes = sch_move_kind(m) == SCH_MOVE_PROMOTION;
        if (promotes ? sch_move_promotion(m) == promo : promo == SCH_PIECE_TYPE_NB)
            return m;
    }
    if (castle != SCH_MOVE_NONE)
        return castle;
    /* The king taking its own rook is a castling attempt; sch_move_explain says why it fails. */
    sch_move_explain(pos, from, to, promo, arg, err);
    return SCH_MOVE_NONE;
}

SchMove sch_move_parse(const SchPosition *pos, const char *text, SchLang lang, SchError *err) {
    if (!text)
        return sch_err_set(err, SCH_MOVE_ERR_EMPTY, NULL, NULL, NULL), SCH_MOVE_NONE;
    size_t len;
    const char *t = trim(text, &len);
    /* UCI text is also LAN without a dash, but sch_uci_parse knows the king-takes-rook castling and
     * explains refusals by squares, which is the most helpful answer for that shape. */
    if (uci_shape(t, len))
        return sch_uci_parse(pos, t, err);
    return sch_san_parse(pos, text, lang, err);
}
