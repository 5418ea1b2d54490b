/* UCI move notation ("e2e4", "e7e8q"), and move_parse, which accepts every notation we know. */
#include "schach/notation.h"

#include <string.h>

#include "schach/movegen.h"

/* Longer text is not UCI; the limit keeps error arguments short. */
#define UCI_ARG_MAX 40

static const char PROMO_LETTERS[] = "nbrq";

size_t uci_write(Move m, char *buf, size_t size) {
    char text[6];
    size_t n = 0;
    if (m == MOVE_NONE) {
        memcpy(text, "0000", 4);
        n = 4;
    } else {
        square_name(move_from(m), text);
        square_name(move_to(m), text + 2);
        n = 4;
        if (move_kind(m) == MOVE_PROMOTION)
            text[n++] = PROMO_LETTERS[move_promotion(m) - KNIGHT];
    }
    if (size > 0) {
        size_t k = n < size ? n : size - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    return n;
}

size_t uci_write_pos(const Position *pos, Move m, char *buf, size_t size) {
    if (pos->chess960 && move_kind(m) == MOVE_CASTLING)
        m = move_make(move_from(m), pos_castling_rook(pos, m));
    return uci_write(m, buf, size);
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
static bool is_square(const char *s) { return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'; }

/* Promotion letter of either case, including the invalid k and p (reported as a bad promotion). */
static PieceType promo_of(char c) {
    switch (c) {
        case 'n':
        case 'N': return KNIGHT;
        case 'b':
        case 'B': return BISHOP;
        case 'r':
        case 'R': return ROOK;
        case 'q':
        case 'Q': return QUEEN;
        case 'k':
        case 'K': return KING;
        case 'p':
        case 'P': return PAWN;
        default: return PIECE_TYPE_NB;
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
    return (n == 4 || n == 5) && is_square(s) && is_square(s + 2) && (n == 4 || promo_of(s[4]) != PIECE_TYPE_NB);
}

Move uci_parse(const Position *pos, const char *text, SchError *err) {
    if (!text)
        return err_set(err, MOVE_ERR_EMPTY, NULL, NULL, NULL), MOVE_NONE;
    size_t len;
    text = trim(text, &len);
    char arg[UCI_ARG_MAX + 1];
    err_text_arg(text, len < UCI_ARG_MAX ? len : UCI_ARG_MAX, arg, sizeof arg);
    if (len == 0)
        return err_set(err, MOVE_ERR_EMPTY, NULL, NULL, NULL), MOVE_NONE;
    if (!uci_shape(text, len))
        return err_set(err, MOVE_ERR_SYNTAX, arg, NULL, NULL), MOVE_NONE;
    Square from = square_make(text[0] - 'a', text[1] - '1');
    Square to = square_make(text[2] - 'a', text[3] - '1');
    PieceType promo = len == 5 ? promo_of(text[4]) : PIECE_TYPE_NB;
    Move list[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, list);
    /* A plain move first: in Chess960 "f1g1" is the king's step even when castling also puts the
     * king on g1; that castling is written f1h1. */
    Move castle = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = list[i];
        if (move_kind(m) == MOVE_CASTLING) {
            /* The king's target ("e1g1") or its own rook ("e1h1", UCI_Chess960), never promoting. */
            if (move_from(m) == from && promo == PIECE_TYPE_NB && (move_to(m) == to || pos_castling_rook(pos, m) == to))
                castle = m;
            continue;
        }
        if (move_from(m) != from || move_to(m) != to)
            continue;
        bool promotes = move_kind(m) == MOVE_PROMOTION;
        if (promotes ? move_promotion(m) == promo : promo == PIECE_TYPE_NB)
            return m;
    }
    if (castle != MOVE_NONE)
        return castle;
    /* The king taking its own rook is a castling attempt; move_explain says why it fails. */
    move_explain(pos, from, to, promo, arg, err);
    return MOVE_NONE;
}

Move move_parse(const Position *pos, const char *text, Lang lang, SchError *err) {
    if (!text)
        return err_set(err, MOVE_ERR_EMPTY, NULL, NULL, NULL), MOVE_NONE;
    size_t len;
    const char *t = trim(text, &len);
    /* UCI text is also LAN without a dash, but uci_parse knows the king-takes-rook castling and
     * explains refusals by squares, which is the most helpful answer for that shape. */
    if (uci_shape(t, len))
        return uci_parse(pos, t, err);
    return san_parse(pos, text, lang, err);
}
