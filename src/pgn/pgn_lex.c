/* Reading PGN, the tokenizer: it hides % escape lines, and comments ({...} and ; to end of line)
 * unless asked for them, and reports every token with its line and column (in characters, so UTF-8
 * names do not shift columns). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_lex.h"

#define HALF "\xC2\xBD" /* '½' in UTF-8, as in the draw marker "½-½" some programs write */

/* ---------------------------------------------------------------- characters */

/* A NUL byte is a blank too (pgn.h): a caller's buffer may hold one anywhere. */
static bool is_blank(int c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == 0;
}
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_symbol_char(int c) { return is_alnum(c) || (c != 0 && strchr("_+#=:-/", c) != NULL); }
/* Characters that end a run of garbage because they start a token of their own. */
static bool is_delimiter(int c) { return is_blank(c) || (c != 0 && strchr("[](){};\"", c) != NULL); }

static int char_at(const SchPgnReader *r, size_t pos) { return pos < r->len ? (unsigned char)r->text[pos] : -1; }
static int peek(const SchPgnReader *r) { return char_at(r, r->cur.pos); }

static void advance(SchPgnReader *r) {
    unsigned char c = (unsigned char)r->text[r->cur.pos++];
    if (c == '\n') {
        r->cur.line++;
        r->cur.column = 1;
        r->cur.line_start = true;
        return;
    }
    if ((c & 0xC0) != 0x80) /* UTF-8 continuation bytes belong to the previous character */
        r->cur.column++;
    if (!is_blank(c))
        r->cur.line_start = false;
}

static bool starts_ep(const SchPgnReader *r, size_t pos) {
    return char_at(r, pos) == 'e' && char_at(r, pos + 1) == '.' && char_at(r, pos + 2) == 'p';
}

/* ---------------------------------------------------------------- tokenizer */

static void token_begin(const SchPgnReader *r, Token *t, TokKind kind) {
    t->kind = kind;
    t->text = r->text + r->cur.pos;
    t->len = 0;
    t->line = r->cur.line;
    t->column = r->cur.column;
    t->line_start = r->cur.line_start;
    t->open = OPEN_COMMENT;
}

static void token_end(const SchPgnReader *r, Token *t) { t->len = (size_t)(r->text + r->cur.pos - t->text); }

static void skip_line(SchPgnReader *r) {
    while (peek(r) >= 0 && peek(r) != '\n')
        advance(r);
}

/* Skips blanks, escape lines and, unless keep, comments. Returns false when *t is a token already:
 * a comment that is kept, or an unterminated brace comment. */
static bool skip_ignored(SchPgnReader *r, Token *t, bool keep) {
    for (;;) {
        int c = peek(r);
        if (c < 0)
            return true;
        if (is_blank(c)) {
            advance(r);
        } else if (c == '%' && r->cur.column == 1) {
            skip_line(r);
        } else if (c == ';') {
            token_begin(r, t, TOK_COMMENT);
            advance(r);
            t->text++;
            skip_line(r);
            if (keep) {
                token_end(r, t);
                return false;
            }
        } else if (c == '{') {
            token_begin(r, t, TOK_UNTERMINATED);
            while (peek(r) >= 0 && peek(r) != '}')
                advance(r);
            if (peek(r) < 0) {
                t->len = 1;
                t->open = OPEN_COMMENT;
                return false;
            }
            if (keep) {
                t->kind = TOK_COMMENT;
                t->text++;
                token_end(r, t);
                advance(r);
                return false;
            }
            advance(r);
        } else {
            return true;
        }
    }
}

static void lex_string(SchPgnReader *r, Token *t) {
    advance(r);
    for (;;) {
        int c = peek(r);
        if (c < 0 || c == '\n') { /* PGN strings never span lines */
            t->kind = TOK_UNTERMINATED;
            t->open = OPEN_STRING;
            break;
        }
        advance(r);
        if (c == '"')
            break;
        if (c == '\\' && (peek(r) == '"' || peek(r) == '\\'))
            advance(r);
    }
}

static void lex_symbol(SchPgnReader *r) {
    size_t start = r->cur.pos;
    while (is_symbol_char(peek(r)) && !(r->cur.pos > start && starts_ep(r, r->cur.pos)))
        advance(r);
}

/* A token that starts with a letter or digit: a symbol (move, result, tag name), a move number, or
 * "e.p.". */
static TokKind lex_word(SchPgnReader *r) {
    if (starts_ep(r, r->cur.pos)) {
        advance(r), advance(r), advance(r);
        if (peek(r) == '.')
            advance(r);
        return TOK_EP;
    }
    size_t end = r->cur.pos;
    while (is_digit(char_at(r, end)))
        end++;
    if (end > r->cur.pos && char_at(r, end) == '.') {
        /* The number, then its periods only: in "5.0-0" the castling starts after "5.". */
        while (is_digit(peek(r)))
            advance(r);
        while (peek(r) == '.')
            advance(r);
        return TOK_MOVE_NUMBER;
    }
    lex_symbol(r);
    return TOK_SYMBOL;
}

/* Consumes the current character and every following one in chars; returns kind. */
static TokKind lex_run(SchPgnReader *r, const char *chars, TokKind kind) {
    advance(r);
    while (peek(r) > 0 && strchr(chars, peek(r)) != NULL)
        advance(r);
    return kind;
}

void sch_lex_token(SchPgnReader *r, Token *t, bool keep_comments) {
    static const char singles[] = "[]()*";
    static const TokKind single_kinds[] = {TOK_LBRACKET, TOK_RBRACKET, TOK_LPAREN, TOK_RPAREN, TOK_STAR};
    if (!skip_ignored(r, t, keep_comments))
        return;
    token_begin(r, t, TOK_EOF);
    int c = peek(r);
    if (c < 0)
        return;
    const char *single = c != 0 ? strchr(singles, c) : NULL;
    if (single) {
        t->kind = single_kinds[single - singles];
        advance(r);
    } else if (c == '"') {
        t->kind = TOK_STRING;
        lex_string(r, t);
    } else if (c == '.') {
        t->kind = lex_run(r, ".", TOK_PERIOD);
    } else if (c == '!' || c == '?') {
        t->kind = lex_run(r, "!?", TOK_SUFFIX);
    } else if (c == '$') {
        advance(r);
        t->kind = is_digit(peek(r)) ? lex_run(r, "0123456789", TOK_NAG) : TOK_GARBAGE;
    } else if (is_alnum(c)) {
        t->kind = lex_word(r);
    } else {
        t->kind = TOK_GARBAGE;
        do
            advance(r);
        while (peek(r) >= 0 && !is_delimiter(peek(r)));
    }
    token_end(r, t);
}

void sch_token_copy(const Token *t, char *buf, size_t size) {
    size_t n = t->len < size - 1 ? t->len : size - 1;
    memcpy(buf, t->text, n);
    buf[n] = '\0';
}

bool sch_token_is(const Token *t, const char *s) { return t->len == strlen(s) && memcmp(t->text, s, t->len) == 0; }

const char *sch_token_result(const Token *t) {
    static const char *const markers[] = {"1-0", "0-1", "1/2-1/2", "*"};
    if (t->kind == TOK_STAR)
        return "*";
    if (t->kind == TOK_SYMBOL)
        for (int i = 0; i < 3; i++)
            if (sch_token_is(t, markers[i]))
                return markers[i];
    if (t->kind == TOK_GARBAGE && sch_token_is(t, HALF "-" HALF))
        return markers[2];
    return NULL;
}

SchResult sch_result_from_text(const char *s) {
    if (strcmp(s, "1-0") == 0)
        return SCH_RESULT_WHITE_WINS;
    if (strcmp(s, "0-1") == 0)
        return SCH_RESULT_BLACK_WINS;
    if (strcmp(s, "1/2-1/2") == 0 || strcmp(s, HALF "-" HALF) == 0)
        return SCH_RESULT_DRAW;
    return SCH_RESULT_NONE;
}

bool sch_is_result_text(const char *s) { return sch_result_from_text(s) != SCH_RESULT_NONE || strcmp(s, "*") == 0; }

/* ---------------------------------------------------------------- readers */

static SchPgnReader *reader_new(const char *text, size_t len, SchError *err) {
    SchPgnReader *r = calloc(1, sizeof *r);
    if (!r) {
        sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
        return NULL;
    }
    r->text = text;
    r->len = len;
    r->cur.line = 1;
    r->cur.column = 1;
    r->cur.line_start = true;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark */
        r->cur.pos = 3;
    return r;
}

SchPgnReader *sch_pgn_reader_from_buffer(const char *text, size_t len, SchError *err) {
    sch_err_clear(err);
    return reader_new(text, len, err);
}

SchPgnReader *sch_pgn_reader_from_file(FILE *f, SchError *err) {
    sch_err_clear(err);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
            return NULL;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
        if (len + 1 == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        sch_err_set(err, SCH_ERR_IO, strerror(errno), NULL, NULL);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    SchPgnReader *r = reader_new(buf, len, err);
    if (!r) {
        free(buf);
        return NULL;
    }
    r->owned = buf;
    return r;
}

void sch_pgn_reader_close(SchPgnReader *r) {
    if (!r)
        return;
    free(r->owned);
    free(r);
}
