/* Internal to the PGN module: the tokenizer the reader's parser works on. */
#ifndef SCHACH_PGN_LEX_H
#define SCHACH_PGN_LEX_H

#include "schach/pgn.h"

typedef struct Cursor {
    size_t pos;
    int line;
    int column;
    bool line_start; /* nothing but blanks so far on this line */
} Cursor;

struct SchPgnReader {
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

/* Constructs that can be left open, for SCH_PGN_ERR_UNTERMINATED. */
typedef enum { OPEN_COMMENT, OPEN_STRING } Open;

typedef struct Token {
    TokKind kind;
    const char *text;
    size_t len;
    int line;
    int column;
    bool line_start; /* first token on its line */
    Open open;       /* for TOK_UNTERMINATED */
} Token;

/* The next token; comments are tokens only when keep_comments. */
void sch_lex_token(SchPgnReader *r, Token *t, bool keep_comments);
/* The token's text as a C string, truncated to fit. */
void sch_token_copy(const Token *t, char *buf, size_t size);
bool sch_token_is(const Token *t, const char *s);
/* The game termination marker a token stands for ("1-0", "0-1", "1/2-1/2", "*"; "½-½" is
 * "1/2-1/2"), or NULL when it is none. */
const char *sch_token_result(const Token *t);
/* The Result of a marker or tag value (also "½-½"); SCH_RESULT_NONE for "*" and anything else. */
SchResult sch_result_from_text(const char *s);
bool sch_is_result_text(const char *s);

#endif
