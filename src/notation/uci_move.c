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

/* The legal castling move of the king on from towards file side (6 or 2), or MOVE_NONE. */
static Move castling_move(const Position *pos, Square from, int file) {
    Move list[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_QUIET, list);
    for (int i = 0; i < n; i++)
        if (move_kind(list[i]) == MOVE_CASTLING && move_from(list[i]) == from && square_file(move_to(list[i])) == file)
            return list[i];
    return MOVE_NONE;
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
    Color us = pos_turn(pos);
    /* Some programs send castling as the king capturing its own rook. */
    if (pos_piece_on(pos, from) == piece_make(us, KING) && pos_piece_on(pos, to) == piece_make(us, ROOK) &&
        from == square_relative(us, SQ_E1) && (to == square_relative(us, SQ_H1) || to == square_relative(us, SQ_A1)) &&
        promo == PIECE_TYPE_NB) {
        int file = to > from ? 6 : 2;
        Move m = castling_move(pos, from, file);
        if (m != MOVE_NONE)
            return m;
        move_explain(pos, from, square_make(file, square_rank(from)), promo, arg, err);
        return MOVE_NONE;
    }
    Move list[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, list);
    for (int i = 0; i < n; i++) {
        Move m = list[i];
        if (move_from(m) != from || move_to(m) != to)
            continue;
        bool promotes = move_kind(m) == MOVE_PROMOTION;
        if (promotes ? move_promotion(m) == promo : promo == PIECE_TYPE_NB)
            return m;
    }
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
