/* Reading a move text into its parts before any position is consulted. Shared by the SAN parser,
 * which matches the parts against the legal moves, and by the explainer, which matches them against
 * the pieces on the board to say why no legal move fits.
 *
 * The text is read from the right: suffixes ("+", "#", "!?", "e.p."), then an optional promotion,
 * the target square, an optional capture mark or long-algebraic dash, an optional origin file and
 * rank, and an optional piece letter. */
#include <string.h>

#include "schach/notation.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
static bool is_file(char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(char c) { return c >= '1' && c <= '8'; }

/* An uppercase letter of either language; only 'B' depends on lang (bishop, or Bauer in German). */
static SchPieceType piece_of_upper(char c, SchLang lang) {
    switch (c) {
        case 'P': return SCH_PAWN;
        case 'N':
        case 'S': return SCH_KNIGHT;
        case 'B': return lang == SCH_LANG_DE ? SCH_PAWN : SCH_BISHOP;
        case 'L': return SCH_BISHOP;
        case 'R':
        case 'T': return SCH_ROOK;
        case 'Q':
        case 'D': return SCH_QUEEN;
        case 'K': return SCH_KING;
        default: return SCH_PIECE_TYPE_NB;
    }
}

/* A promotion letter: uppercase as a piece letter of lang, lowercase as UCI writes it ("e7e8b" is a
 * bishop in any language) or as a German letter typed small. Pawn and king are read so that the
 * caller can say why they are refused. */
static SchPieceType promotion_of(char c, SchLang lang) {
    switch (c) {
        case 'n':
        case 's': return SCH_KNIGHT;
        case 'b':
        case 'l': return SCH_BISHOP;
        case 'r':
        case 't': return SCH_ROOK;
        case 'q':
        case 'd': return SCH_QUEEN;
        case 'k': return SCH_KING;
        case 'p': return SCH_PAWN;
        default: return piece_of_upper(c, lang);
    }
}

static bool ends_with_ep(const char *s, size_t n) {
    return n >= 4 && (s[n - 4] == 'e' || s[n - 4] == 'E') && s[n - 3] == '.' && (s[n - 2] == 'p' || s[n - 2] == 'P') &&
           s[n - 1] == '.';
}

/* Drops whitespace, check marks (right or wrong), annotations and an en passant remark from the end. */
static size_t strip_suffixes(const char *s, size_t n) {
    for (;;) {
        if (n > 0 && (is_space(s[n - 1]) || strchr("+#!?", s[n - 1])))
            n--;
        else if (ends_with_ep(s, n))
            n -= 4;
        else if (n >= 3 && (s[n - 2] == 'e' || s[n - 2] == 'E') && (s[n - 1] == 'p' || s[n - 1] == 'P') &&
                 is_space(s[n - 3]))
            n -= 2; /* "exd6 ep" */
        else
            return n;
    }
}

/* "O-O", "0-0", "o-o", with or without dashes: 1 king side, 2 queen side, 0 not castling. */
static int read_castling(const char *s, size_t n) {
    int os = 0;
    for (size_t i = 0; i < n; i++) {
        bool o = s[i] == 'O' || s[i] == 'o' || s[i] == '0';
        if (o && (i == 0 || s[i - 1] == '-' || s[i - 1] == s[i]))
            os++;
        else if (!(s[i] == '-' && i > 0 && i + 1 < n && s[i - 1] != '-'))
            return 0;
    }
    return os == 2 ? 1 : os == 3 ? 2 : 0;
}

static bool read_body(const char *s, size_t n, SchLang lang, SchMoveText *in) {
    in->castle = read_castling(s, n);
    if (in->castle)
        return true;
    if (n >= 3 && s[n - 1] == ')' && s[n - 3] == '(') { /* "e8(Q)" */
        in->promo = promotion_of(s[n - 2], lang);
        n -= 3;
    } else if (n > 0 && !is_rank(s[n - 1])) { /* "e8=Q", "e8Q", "e8/Q", "e7e8q" */
        in->promo = promotion_of(s[n - 1], lang);
        n--;
        if (n > 0 && (s[n - 1] == '=' || s[n - 1] == '/'))
            n--;
    }
    if (in->promo == SCH_PIECE_TYPE_NB && n > 0 && !is_rank(s[n - 1]))
        return false;
    if (n < 2 || !is_file(s[n - 2]) || !is_rank(s[n - 1]))
        return false;
    in->to = sch_square_make(s[n - 2] - 'a', s[n - 1] - '1');
    n -= 2;
    if (n > 1 && strchr("xX:-", s[n - 1])) { /* a capture mark needs something that captures */
        char separator = s[--n];
        in->separator = separator == 'X' ? 'x' : separator;
    }
    if (n > 0 && is_rank(s[n - 1]))
        in->from_rank = s[--n] - '1';
    if (n > 0 && is_file(s[n - 1]))
        in->from_file = s[--n] - 'a';
    if (n == 1) {
        char c = s[0];
        /* A lowercase letter names a piece only where it cannot be a file ("nf3", not "bxc3"). */
        if (is_file(c))
            return false;
        in->piece = piece_of_upper(c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c, lang);
        if (in->piece == SCH_PIECE_TYPE_NB)
            return false;
        n--;
    }
    return n == 0;
}

bool sch_move_text_read(const char *text, SchLang lang, SchMoveText *out) {
    memset(out, 0, sizeof *out);
    out->piece = out->promo = SCH_PIECE_TYPE_NB;
    out->from_file = out->from_rank = -1;
    out->to = SCH_SQ_NONE;
    if (!text)
        return false;
    while (is_space(*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && is_space(text[len - 1]))
        len--;
    out->length = len;
    sch_err_text_arg(text, len < SCH_MOVE_INPUT_MAX ? len : SCH_MOVE_INPUT_MAX, out->shown, sizeof out->shown);
    return len > 0 && len <= SCH_MOVE_INPUT_MAX && read_body(text, strip_suffixes(text, len), lang, out);
}
