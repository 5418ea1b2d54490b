/* Reading PGN: a tokenizer over the whole text and a tolerant parser that replays each game.
 *
 * The tokenizer hides % escape lines, and comments ({...} and ; to end of line) except in the main
 * line's movetext, where the parser keeps them with the ply they follow. It reports every
 * token with its line and column (in characters, so UTF-8 names do not shift columns). The parser
 * reads one game per call; after an error it skips to the end of the broken game (its termination
 * marker, or the next '[' that starts a line) so that the next call starts cleanly.
 */
#include "schach/pgn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schach/notation.h"

typedef struct Cursor {
    size_t pos;
    int line;
    int column;
    bool line_start; /* nothing but blanks so far on this line */
} Cursor;

struct PgnReader {
    const char *text;
    size_t len;
    char *owned; /* the contents of a file; NULL for a caller's buffer */
    Cursor cur;
    int games; /* games started so far, for numbering */
};

typedef enum {
    TOK_EOF,
    TOK_LBRACKET,
    TOK_RBRACKET,
    TOK_STRING,
    TOK_SYMBOL,
    TOK_MOVE_NUMBER, /* "12." or "12..." */
    TOK_PERIOD,
    TOK_NAG,
    TOK_SUFFIX, /* "!", "?", "!!", "??", "!?", "?!" */
    TOK_EP,     /* "e.p." after an en passant capture */
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_STAR,
    TOK_COMMENT,     /* only when asked for: the text inside {...} or after ; */
    TOK_GARBAGE,     /* characters that start no PGN token */
    TOK_UNTERMINATED /* a comment or string that does not end */
} TokKind;

/* Constructs that can be left open, for PGN_ERR_UNTERMINATED. */
typedef enum { OPEN_COMMENT, OPEN_STRING } Open;

static const char *const open_name_en[] = {"comment", "string"};
static const char *const open_name_de[] = {"Kommentar", "Zeichenkette"};
static const char *const open_token[] = {"{", "\""};

typedef struct Token {
    TokKind kind;
    const char *text;
    size_t len;
    int line;
    int column;
    bool line_start; /* first token on its line */
    Open open;       /* for TOK_UNTERMINATED */
} Token;

/* ---------------------------------------------------------------- characters */

static bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_symbol_char(int c) { return is_alnum(c) || (c != 0 && strchr("_+#=:-/", c) != NULL); }
/* Characters that end a run of garbage because they start a token of their own. */
static bool is_delimiter(int c) { return is_blank(c) || (c != 0 && strchr("[](){};\"", c) != NULL); }

static int char_at(const PgnReader *r, size_t pos) { return pos < r->len ? (unsigned char)r->text[pos] : -1; }
static int peek(const PgnReader *r) { return char_at(r, r->cur.pos); }

static void advance(PgnReader *r) {
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

static bool starts_ep(const PgnReader *r, size_t pos) {
    return char_at(r, pos) == 'e' && char_at(r, pos + 1) == '.' && char_at(r, pos + 2) == 'p';
}

/* ---------------------------------------------------------------- tokenizer */

static void token_begin(const PgnReader *r, Token *t, TokKind kind) {
    t->kind = kind;
    t->text = r->text + r->cur.pos;
    t->len = 0;
    t->line = r->cur.line;
    t->column = r->cur.column;
    t->line_start = r->cur.line_start;
    t->open = OPEN_COMMENT;
}

static void token_end(const PgnReader *r, Token *t) { t->len = (size_t)(r->text + r->cur.pos - t->text); }

static void skip_line(PgnReader *r) {
    while (peek(r) >= 0 && peek(r) != '\n')
        advance(r);
}

/* Skips blanks, escape lines and, unless keep, comments. Returns false when *t is a token already:
 * a comment that is kept, or an unterminated brace comment. */
static bool skip_ignored(PgnReader *r, Token *t, bool keep) {
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

static void lex_string(PgnReader *r, Token *t) {
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

static void lex_symbol(PgnReader *r) {
    size_t start = r->cur.pos;
    while (is_symbol_char(peek(r)) && !(r->cur.pos > start && starts_ep(r, r->cur.pos)))
        advance(r);
}

/* A token that starts with a letter or digit: a symbol (move, result, tag name), a move number, or
 * "e.p.". */
static TokKind lex_word(PgnReader *r) {
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
        while (is_digit(peek(r)) || peek(r) == '.')
            advance(r);
        return TOK_MOVE_NUMBER;
    }
    lex_symbol(r);
    return TOK_SYMBOL;
}

/* Consumes the current character and every following one in chars; returns kind. */
static TokKind lex_run(PgnReader *r, const char *chars, TokKind kind) {
    advance(r);
    while (peek(r) > 0 && strchr(chars, peek(r)) != NULL)
        advance(r);
    return kind;
}

/* The next token; comments are tokens only when keep_comments. */
static void lex_token(PgnReader *r, Token *t, bool keep_comments) {
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

static void lex(PgnReader *r, Token *t) { lex_token(r, t, false); }

/* The token's text as a C string, truncated to fit. */
static void token_copy(const Token *t, char *buf, size_t size) {
    size_t n = t->len < size - 1 ? t->len : size - 1;
    memcpy(buf, t->text, n);
    buf[n] = '\0';
}

static bool token_is(const Token *t, const char *s) { return t->len == strlen(s) && memcmp(t->text, s, t->len) == 0; }

/* The game termination marker a token stands for, or NULL when it is none. */
static const char *token_result(const Token *t) {
    static const char *const markers[] = {"1-0", "0-1", "1/2-1/2", "*"};
    if (t->kind == TOK_STAR)
        return "*";
    if (t->kind == TOK_SYMBOL)
        for (int i = 0; i < 3; i++)
            if (token_is(t, markers[i]))
                return markers[i];
    return NULL;
}

static Result result_from_text(const char *s) {
    if (strcmp(s, "1-0") == 0)
        return RESULT_WHITE_WINS;
    if (strcmp(s, "0-1") == 0)
        return RESULT_BLACK_WINS;
    if (strcmp(s, "1/2-1/2") == 0)
        return RESULT_DRAW;
    return RESULT_NONE;
}

static bool is_result_text(const char *s) { return result_from_text(s) != RESULT_NONE || strcmp(s, "*") == 0; }

/* ---------------------------------------------------------------- readers */

static PgnReader *reader_new(const char *text, size_t len, SchError *err) {
    PgnReader *r = calloc(1, sizeof *r);
    if (!r) {
        err_set(err, ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
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

PgnReader *pgn_reader_from_buffer(const char *text, size_t len, SchError *err) {
    err_clear(err);
    return reader_new(text, len, err);
}

PgnReader *pgn_reader_from_file(FILE *f, SchError *err) {
    err_clear(err);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            err_set(err, ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
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
        err_set(err, ERR_IO, strerror(errno), NULL, NULL);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    PgnReader *r = reader_new(buf, len, err);
    if (!r) {
        free(buf);
        return NULL;
    }
    r->owned = buf;
    return r;
}

void pgn_reader_close(PgnReader *r) {
    if (!r)
        return;
    free(r->owned);
    free(r);
}

/* ---------------------------------------------------------------- the parser */

typedef enum { PHASE_TAGS, PHASE_MOVES, PHASE_DONE } Phase;

typedef struct Parse {
    PgnReader *r;
    PgnGame *g;
    SchError *err;
    Phase phase;  /* where an error leaves the reader; PHASE_DONE: the game's end is consumed */
    Lang lang;    /* piece letters this game uses, found from its moves */
    int fen_line; /* where the FEN tag's value starts */
    int fen_column;
} Parse;

static bool fail_at(Parse *p, int line, int column, int code, const char *a1, const char *a2, const char *a3) {
    err_set(p->err, code, a1, a2, a3);
    err_at(p->err, line, column);
    p->err->game = p->g->number;
    return false;
}

static bool fail(Parse *p, const Token *t, int code, const char *a2, const char *a3) {
    char text[SCHACH_ERR_ARG_MAX];
    if (t->kind == TOK_EOF)
        snprintf(text, sizeof text, "EOF");
    else
        token_copy(t, text, sizeof text);
    return fail_at(p, t->line, t->column, code, text, a2, a3);
}

static bool fail_open(Parse *p, const Token *t, Open what) {
    return fail_at(p, t->line, t->column, PGN_ERR_UNTERMINATED, open_name_en[what], open_name_de[what],
                   open_token[what]);
}

/* Unquotes a string token into a new heap string; NULL when out of memory. */
static char *string_value(const Token *t) {
    char *s = malloc(t->len);
    if (!s)
        return NULL;
    size_t n = 0;
    for (size_t i = 1; i + 1 < t->len; i++) {
        if (t->text[i] == '\\' && i + 2 < t->len && (t->text[i + 1] == '"' || t->text[i + 1] == '\\'))
            i++;
        s[n++] = t->text[i];
    }
    s[n] = '\0';
    return s;
}

/* One tag pair after its '['. On a malformed pair the offending token is left unread, so that
 * skipping the broken game starts from it. */
static bool read_tag(Parse *p, const Token *open) {
    PgnReader *r = p->r;
    Token name, value, close;
    Cursor before = r->cur;
    lex(r, &name);
    if (name.kind == TOK_UNTERMINATED)
        return fail_open(p, &name, name.open);
    if (name.kind != TOK_SYMBOL) {
        r->cur = before;
        return fail(p, name.kind == TOK_EOF ? open : &name, PGN_ERR_TAG, NULL, NULL);
    }
    before = r->cur;
    lex(r, &value);
    if (value.kind == TOK_UNTERMINATED)
        return fail_open(p, &value, value.open);
    if (value.kind != TOK_STRING) {
        r->cur = before;
        return fail(p, value.kind == TOK_EOF ? &name : &value, PGN_ERR_TAG, NULL, NULL);
    }
    before = r->cur;
    lex(r, &close);
    if (close.kind == TOK_UNTERMINATED)
        return fail_open(p, &close, close.open);
    if (close.kind != TOK_RBRACKET) {
        r->cur = before;
        /* Point just after the value: that is where the ']' is missing. */
        char text[SCHACH_ERR_ARG_MAX];
        token_copy(&close, text, sizeof text);
        return fail_at(p, before.line, before.column, PGN_ERR_TAG, close.kind == TOK_EOF ? "EOF" : text, NULL, NULL);
    }
    char *n = malloc(name.len + 1), *v = string_value(&value);
    bool ok = n && v;
    if (ok) {
        token_copy(&name, n, name.len + 1);
        ok = pgn_set_tag(p->g, n, v);
        if (strcmp(n, "FEN") == 0) {
            p->fen_line = value.line;
            p->fen_column = value.column + 1;
        }
    }
    free(n);
    free(v);
    return ok ? true : fail(p, open, ERR_OUT_OF_MEMORY, NULL, NULL);
}

static bool read_tags(Parse *p) {
    for (;;) {
        Cursor before = p->r->cur;
        Token t;
        lex(p->r, &t);
        if (t.kind != TOK_LBRACKET) {
            p->r->cur = before;
            return true;
        }
        if (!read_tag(p, &t))
            return false;
    }
}

/* Starts the game from the FEN tag, unless SetUp says "0". */
static bool start_position(Parse *p) {
    const char *fen = pgn_tag(p->g, "FEN"), *setup = pgn_tag(p->g, "SetUp");
    if (!fen || (setup && strcmp(setup, "0") == 0))
        return true;
    SchError why;
    err_clear(&why);
    game_free(&p->g->game);
    if (game_init_fen_mode(&p->g->game, fen, GAME_DEAD_MATERIAL_ONLY, &why)) /* as in pgn_game_init */
        return true;
    char en[SCHACH_ERR_ARG_MAX], de[SCHACH_ERR_ARG_MAX];
    err_format(&why, LANG_EN, en, sizeof en);
    err_format(&why, LANG_DE, de, sizeof de);
    int column = p->fen_column + (why.column > 0 ? why.column - 1 : 0);
    return fail_at(p, p->fen_line, column, PGN_ERR_FEN, en, de, fen);
}

/* Skips a variation after its '('. Variations are not replayed, only checked for balance. */
static bool skip_variation(Parse *p, const Token *open) {
    int depth = 1;
    for (;;) {
        Cursor before = p->r->cur;
        Token t;
        lex(p->r, &t);
        if (t.kind == TOK_UNTERMINATED)
            return fail_open(p, &t, t.open);
        if (t.kind == TOK_LPAREN) {
            depth++;
        } else if (t.kind == TOK_RPAREN) {
            if (--depth == 0)
                return true;
        } else if (t.kind == TOK_EOF || (t.kind == TOK_LBRACKET && t.line_start) || token_result(&t)) {
            if (t.kind == TOK_LBRACKET)
                p->r->cur = before;
            else if (t.kind != TOK_EOF)
                p->phase = PHASE_DONE;
            return fail(p, open, PGN_ERR_VARIATION, NULL, NULL);
        }
    }
}

static bool play_token(Parse *p, const Token *t) {
    Game *game = &p->g->game;
    char text[64];
    SchError why;
    err_clear(&why);
    Move m = MOVE_NONE;
    token_copy(t, text, sizeof text);
    if (game_over(game)) {
        err_set(&why, GAME_ERR_OVER, NULL, NULL, NULL);
    } else if (t->len >= sizeof text) {
        err_set(&why, MOVE_ERR_SYNTAX, text, NULL, NULL);
    } else {
        m = san_parse(game_position(game), text, p->lang, &why);
        if (m == MOVE_NONE) {
            /* The game may use the other language's letters; 'B' is where they differ. */
            Lang other = p->lang == LANG_EN ? LANG_DE : LANG_EN;
            SchError ignored;
            err_clear(&ignored);
            m = san_parse(game_position(game), text, other, &ignored);
            if (m != MOVE_NONE)
                p->lang = other;
        }
        if (m != MOVE_NONE && strchr("DTLS", text[0]) != NULL) /* only German uses these letters */
            p->lang = LANG_DE;
    }
    if (m != MOVE_NONE && game_play(game, m, &why))
        return true;
    if (why.code == ERR_OUT_OF_MEMORY)
        return fail(p, t, ERR_OUT_OF_MEMORY, NULL, NULL);
    char en[SCHACH_ERR_ARG_MAX], de[SCHACH_ERR_ARG_MAX];
    err_format(&why, LANG_EN, en, sizeof en);
    err_format(&why, LANG_DE, de, sizeof de);
    return fail(p, t, PGN_ERR_MOVE, en, de);
}

/* Accepts the termination marker if it agrees with the Result tag and with an ending by the rules. */
static bool finish(Parse *p, const Token *t, const char *marker) {
    p->phase = PHASE_DONE;
    p->g->result = result_from_text(marker);
    const char *tag = pgn_tag(p->g, "Result");
    if (tag && is_result_text(tag) && strcmp(tag, marker) != 0)
        return fail(p, t, PGN_ERR_RESULT, tag, NULL);
    const Outcome *o = &p->g->game.outcome;
    if (o->result != RESULT_NONE && p->g->result != RESULT_NONE && o->result != p->g->result)
        return fail(p, t, PGN_ERR_RESULT, result_string(o->result), NULL);
    return true;
}

static bool is_number(const Token *t) {
    for (size_t i = 0; i < t->len; i++)
        if (!is_digit((unsigned char)t->text[i]))
            return false;
    return true;
}

/* A comment joins the one already after the same ply, if any. */
static bool keep_comment(Parse *p, const Token *t) {
    int ply = p->g->game.ply_count;
    const char *had = pgn_comment(p->g, ply);
    size_t had_len = had ? strlen(had) + 1 : 0;
    char *text = malloc(had_len + t->len + 1);
    if (!text)
        return fail(p, t, ERR_OUT_OF_MEMORY, NULL, NULL);
    if (had) {
        memcpy(text, had, had_len - 1);
        text[had_len - 1] = ' ';
    }
    memcpy(text + had_len, t->text, t->len);
    text[had_len + t->len] = '\0';
    bool ok = pgn_set_comment(p->g, ply, text);
    free(text);
    return ok || fail(p, t, ERR_OUT_OF_MEMORY, NULL, NULL);
}

static bool read_movetext(Parse *p) {
    for (;;) {
        Cursor before = p->r->cur;
        Token t;
        lex_token(p->r, &t, true);
        const char *marker = token_result(&t);
        if (marker)
            return finish(p, &t, marker);
        switch (t.kind) {
            case TOK_EOF: return true; /* tolerated: no termination marker */
            case TOK_LBRACKET:
                if (!t.line_start)
                    return fail(p, &t, PGN_ERR_TOKEN, NULL, NULL);
                p->r->cur = before; /* the next game's tags: this one had no termination marker */
                return true;
            case TOK_MOVE_NUMBER:
            case TOK_PERIOD:
            case TOK_NAG:
            case TOK_SUFFIX:
            case TOK_EP: break;
            case TOK_LPAREN:
                if (!skip_variation(p, &t))
                    return false;
                break;
            case TOK_RPAREN: return fail(p, &t, PGN_ERR_VARIATION, NULL, NULL);
            case TOK_UNTERMINATED: return fail_open(p, &t, t.open);
            case TOK_COMMENT:
                if (!keep_comment(p, &t))
                    return false;
                break;
            case TOK_SYMBOL:
                if (is_number(&t)) /* a move number without its period */
                    break;
                if (!play_token(p, &t))
                    return false;
                break;
            default: return fail(p, &t, PGN_ERR_TOKEN, NULL, NULL);
        }
    }
}

/* Skips the rest of a broken game: to its termination marker (consumed) or to the next line that
 * starts with '[' (left for the next game). Broken tag sections are skipped line by line first. */
static void skip_game(PgnReader *r, Phase phase) {
    bool in_tags = phase == PHASE_TAGS;
    int depth = 0;
    if (phase == PHASE_DONE)
        return;
    for (;;) {
        Cursor before = r->cur;
        Token t;
        lex(r, &t);
        if (t.kind == TOK_EOF)
            return;
        if (in_tags) {
            if (!t.line_start || t.kind == TOK_LBRACKET)
                continue;
            in_tags = false;
        }
        if (t.kind == TOK_LBRACKET && t.line_start) {
            r->cur = before;
            return;
        }
        if (t.kind == TOK_LPAREN)
            depth++;
        else if (t.kind == TOK_RPAREN && depth > 0)
            depth--;
        else if (depth == 0 && token_result(&t))
            return;
    }
}

int pgn_read_game(PgnReader *r, PgnGame *out, SchError *err) {
    SchError local;
    if (!err)
        err = &local;
    err_clear(err);
    Cursor start = r->cur;
    Token first;
    lex(r, &first);
    r->cur = start;
    if (first.kind == TOK_EOF)
        return 0;

    pgn_game_init(out);
    out->number = ++r->games;
    out->line = first.line;
    Parse p = {.r = r, .g = out, .err = err, .phase = PHASE_TAGS, .lang = LANG_EN};
    bool ok = read_tags(&p);
    if (ok) {
        p.phase = PHASE_MOVES;
        ok = start_position(&p) && read_movetext(&p);
    }
    if (ok)
        return 1;
    skip_game(r, p.phase);
    return -1;
}
