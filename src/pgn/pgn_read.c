/* Reading PGN: a tolerant parser over the tokenizer (pgn_lex.c) that builds each game's tree and
 * replays its main line into the game record.
 *
 * It reads one game per call; after an error it skips to the end of the broken game (its
 * termination marker, or the next '[' that starts a line) so that the next call starts cleanly.
 * Every line of the movetext (the main line, each variation) is a frame on a stack with its own
 * position, so moves in variations are checked like main-line moves.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn_internal.h"
#include "pgn_lex.h"
#include "schach/notation.h"

static const char *const open_name_en[] = {"comment", "string"};
static const char *const open_name_de[] = {"Kommentar", "Zeichenkette"};
static const char *const open_token[] = {"{", "\""};

static void lex(SchPgnReader *r, Token *t) { sch_lex_token(r, t, false); }

/* ---------------------------------------------------------------- the parser */

typedef enum { PHASE_TAGS, PHASE_MOVES, PHASE_DONE } Phase;

/* One line of the movetext: the main line or a variation being read. */
typedef struct Frame {
    SchPgnNode *cur;      /* the last move of this line (the next move hangs under it) */
    SchPgnNode *replaces; /* the move this variation replaces (NULL for the main line) */
    SchPosition pos;      /* the position after cur */
    SchPosition before;   /* the position before cur's move: where a variation to it starts */
    bool has_move;        /* this line has a move */
    bool after_move;      /* nothing but NAGs and comments since that move */
    char *pending;        /* comment before the next move */
    int open_line;        /* where the variation's '(' is */
    int open_column;
} Frame;

typedef struct Parse {
    SchPgnReader *r;
    SchPgnGame *g;
    SchError *err;
    Phase phase;  /* where an error leaves the reader; PHASE_DONE: the game's end is consumed */
    SchLang lang; /* piece letters this game uses, found from its moves */
    int fen_line; /* where the FEN tag's value starts */
    int fen_column;
    Frame *frames; /* frames[0] the main line, frames[depth] the line being read */
    int depth;
} Parse;

static bool fail_at(Parse *p, int line, int column, int code, const char *a1, const char *a2, const char *a3) {
    sch_err_set(p->err, code, a1, a2, a3);
    sch_err_at(p->err, line, column);
    p->err->game = p->g->number;
    return false;
}

static bool fail(Parse *p, const Token *t, int code, const char *a2, const char *a3) {
    char text[SCH_ERR_ARG_MAX];
    if (t->kind == TOK_EOF)
        snprintf(text, sizeof text, "EOF");
    else
        sch_token_copy(t, text, sizeof text);
    return fail_at(p, t->line, t->column, code, text, a2, a3);
}

static bool fail_open(Parse *p, const Token *t, Open what) {
    return fail_at(p, t->line, t->column, SCH_PGN_ERR_UNTERMINATED, open_name_en[what], open_name_de[what],
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
        s[n++] = t->text[i] ? t->text[i] : ' '; /* a NUL byte is a blank */
    }
    s[n] = '\0';
    return s;
}

/* One tag pair after its '['. On a malformed pair the offending token is left unread, so that
 * skipping the broken game starts from it. */
static bool read_tag(Parse *p, const Token *open) {
    SchPgnReader *r = p->r;
    Token name, value, close;
    Cursor before = r->cur;
    lex(r, &name);
    if (name.kind == TOK_UNTERMINATED)
        return fail_open(p, &name, name.open);
    if (name.kind != TOK_SYMBOL) {
        r->cur = before;
        return fail(p, name.kind == TOK_EOF ? open : &name, SCH_PGN_ERR_TAG, NULL, NULL);
    }
    before = r->cur;
    lex(r, &value);
    if (value.kind == TOK_UNTERMINATED)
        return fail_open(p, &value, value.open);
    if (value.kind != TOK_STRING) {
        r->cur = before;
        return fail(p, value.kind == TOK_EOF ? &name : &value, SCH_PGN_ERR_TAG, NULL, NULL);
    }
    before = r->cur;
    lex(r, &close);
    if (close.kind == TOK_UNTERMINATED)
        return fail_open(p, &close, close.open);
    if (close.kind != TOK_RBRACKET) {
        r->cur = before;
        /* Point just after the value: that is where the ']' is missing. */
        char text[SCH_ERR_ARG_MAX];
        sch_token_copy(&close, text, sizeof text);
        return fail_at(p, before.line, before.column, SCH_PGN_ERR_TAG, close.kind == TOK_EOF ? "EOF" : text, NULL,
                       NULL);
    }
    char *n = malloc(name.len + 1), *v = string_value(&value);
    bool ok = n && v;
    if (ok) {
        sch_token_copy(&name, n, name.len + 1);
        ok = sch_pgn_set_tag(p->g, n, v);
        if (strcmp(n, "FEN") == 0) {
            p->fen_line = value.line;
            p->fen_column = value.column + 1;
        }
    }
    free(n);
    free(v);
    return ok ? true : fail(p, open, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
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
/* [Variant "Chess960"] (also the older names of the variant, in any case). */
static bool is_chess960(const SchPgnGame *g) {
    const char *v = sch_pgn_tag(g, "Variant");
    if (!v)
        return false;
    static const char *const names[] = {"chess960", "chess 960", "fischerandom", "fischer random", "fischerrandom"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(v, names[i]))
            return true;
    return false;
}

/* A Chess960 game castles by the Chess960 rule and writes its castling as such (O-O, king takes rook
 * in UCI) even from a position whose castling field looks standard (KQkq): the Variant tag says so. */
static void mark_chess960(Parse *p) {
    if (is_chess960(p->g))
        p->g->game.start.chess960 = p->g->game.pos.chess960 = 1;
}

static bool start_position(Parse *p) {
    const char *fen = sch_pgn_tag(p->g, "FEN"), *setup = sch_pgn_tag(p->g, "SetUp");
    if (!fen || (setup && strcmp(setup, "0") == 0)) {
        mark_chess960(p);
        return true;
    }
    SchError why;
    sch_err_clear(&why);
    sch_game_free(&p->g->game);
    if (sch_game_init_fen_mode(&p->g->game, fen, SCH_GAME_DEAD_MATERIAL_ONLY, &why)) { /* as in sch_pgn_game_init */
        mark_chess960(p);
        return true;
    }
    char en[SCH_ERR_ARG_MAX], de[SCH_ERR_ARG_MAX];
    sch_err_format(&why, SCH_LANG_EN, en, sizeof en);
    sch_err_format(&why, SCH_LANG_DE, de, sizeof de);
    int column = p->fen_column + (why.column > 0 ? why.column - 1 : 0);
    return fail_at(p, p->fen_line, column, SCH_PGN_ERR_FEN, en, de, fen);
}

static bool fail_limit(Parse *p, const Token *t, const char *en, const char *de, int limit) {
    char text[SCH_ERR_ARG_MAX], max[16];
    sch_token_copy(t, text, sizeof text);
    snprintf(max, sizeof max, "%d", limit);
    return fail_at(p, t->line, t->column, SCH_PGN_ERR_LIMIT, en, de, max);
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool is_null_token(const Token *t) { return sch_token_is(t, "--") || sch_token_is(t, "Z0"); }

/* The move of a token in f's position, or SCH_MOVE_NONE with why set. */
static SchMove parse_move(Parse *p, const Frame *f, const Token *t, SchError *why) {
    char text[64];
    sch_token_copy(t, text, sizeof text);
    if (t->len >= sizeof text) {
        sch_err_set(why, SCH_MOVE_ERR_SYNTAX, text, NULL, NULL);
        return SCH_MOVE_NONE;
    }
    SchMove m = sch_san_parse(&f->pos, text, p->lang, why);
    if (m == SCH_MOVE_NONE) {
        /* The game may use the other language's letters; 'B' is where they differ. */
        SchLang other = p->lang == SCH_LANG_EN ? SCH_LANG_DE : SCH_LANG_EN;
        SchError ignored;
        sch_err_clear(&ignored);
        m = sch_san_parse(&f->pos, text, other, &ignored);
        if (m != SCH_MOVE_NONE)
            p->lang = other;
    }
    if (m != SCH_MOVE_NONE && strchr("DTLS", text[0]) != NULL) /* only German uses these letters */
        p->lang = SCH_LANG_DE;
    return m;
}

static bool fail_move(Parse *p, const Token *t, const SchError *why) {
    if (why->code == SCH_ERR_OUT_OF_MEMORY)
        return fail(p, t, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
    char en[SCH_ERR_ARG_MAX], de[SCH_ERR_ARG_MAX];
    sch_err_format(why, SCH_LANG_EN, en, sizeof en);
    sch_err_format(why, SCH_LANG_DE, de, sizeof de);
    return fail(p, t, SCH_PGN_ERR_MOVE, en, de);
}

/* A move (or null move) of the line being read: checked in its position, added to the tree, and on
 * the main line played into the record too, so that record and tree agree. */
static bool play_token(Parse *p, const Token *t) {
    Frame *f = &p->frames[p->depth];
    SchGame *game = &p->g->game;
    bool record = p->depth == 0;
    SchError why;
    sch_err_clear(&why);
    SchMove m = SCH_MOVE_NONE;
    if (record && sch_game_over(game)) {
        sch_err_set(&why, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
        return fail_move(p, t, &why);
    }
    if (is_null_token(t)) {
        if (sch_pos_in_check(&f->pos)) {
            sch_err_set(&why, SCH_GAME_ERR_NULL_IN_CHECK, NULL, NULL, NULL);
            return fail_move(p, t, &why);
        }
        m = SCH_MOVE_NULL;
    } else {
        m = parse_move(p, f, t, &why);
        if (m == SCH_MOVE_NONE)
            return fail_move(p, t, &why);
    }
    if (record && !sch_game_play(game, m, &why))
        return fail_move(p, t, &why);
    bool limit;
    SchPgnNode *n = sch_pgn_node_new(p->g, f->cur, m, &limit);
    if (!n && record)
        sch_game_undo(game); /* the record stops where the tree does */
    if (!n && limit)
        return fail_limit(p, t, "moves in one game", "Züge in einer Partie", SCH_PGN_MAX_NODES);
    if (!n)
        return fail(p, t, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
    n->comment_before = f->pending;
    f->pending = NULL;
    f->before = f->pos;
    SchUndo undo;
    sch_game_make_ply(&f->pos, m, &undo);
    f->cur = n;
    f->has_move = true;
    f->after_move = true;
    return true;
}

/* Appends text (len bytes) to *slot, a space between, blanks joined; false when the result is
 * longer than SCH_PGN_MAX_COMMENT (*too_long) or out of memory. */
static bool join_comment(char **slot, const char *text, size_t len, bool *too_long) {
    size_t had = *slot ? strlen(*slot) + 1 : 0;
    *too_long = had + len > SCH_PGN_MAX_COMMENT + 1;
    if (*too_long)
        return false;
    char *raw = malloc(had + len + 1);
    if (!raw)
        return false;
    if (had) {
        memcpy(raw, *slot, had - 1);
        raw[had - 1] = ' ';
    }
    for (size_t i = 0; i < len; i++) /* a NUL byte is a blank */
        raw[had + i] = text[i] ? text[i] : ' ';
    raw[had + len] = '\0';
    bool oom;
    char *c = sch_pgn_comment_text(raw, &oom);
    free(raw);
    if (oom)
        return false;
    *too_long = c && strlen(c) > SCH_PGN_MAX_COMMENT;
    if (*too_long) {
        free(c);
        return false;
    }
    free(*slot);
    *slot = c;
    return true;
}

/* A comment follows the move before it, or at the start of the main line the root; one after a
 * variation or at the start of one comes before the next move. Comments in a row are joined. */
static bool keep_comment(Parse *p, const Token *t) {
    Frame *f = &p->frames[p->depth];
    bool after = f->after_move || (p->depth == 0 && !f->has_move);
    bool too_long;
    if (join_comment(after ? &f->cur->comment : &f->pending, t->text, t->len, &too_long))
        return true;
    if (too_long)
        return fail_limit(p, t, "characters in a comment", "Zeichen in einem Kommentar", SCH_PGN_MAX_COMMENT);
    return fail(p, t, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
}

/* A comment left waiting for a move at the end of a line follows the line's last move. */
static bool flush_pending(Parse *p, Frame *f, const Token *t) {
    if (!f->pending)
        return true;
    char *text = f->pending;
    f->pending = NULL;
    bool too_long, ok = !f->has_move && p->depth > 0; /* an empty variation: dropped with it */
    if (!ok)
        ok = join_comment(&f->cur->comment, text, strlen(text), &too_long);
    free(text);
    if (ok)
        return true;
    if (too_long)
        return fail_limit(p, t, "characters in a comment", "Zeichen in einem Kommentar", SCH_PGN_MAX_COMMENT);
    return fail(p, t, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
}

static int suffix_nag(const Token *t) {
    static const char *const suffixes[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int i = 0; i < 6; i++)
        if (sch_token_is(t, suffixes[i]))
            return i + 1;
    return -1; /* other runs such as "!!!" are not in the standard: left out */
}

/* A NAG follows the last move of the line; before the first one it has nothing to annotate. */
static bool keep_nag(Parse *p, const Token *t) {
    Frame *f = &p->frames[p->depth];
    int nag = -1;
    if (t->kind == TOK_SUFFIX) {
        nag = suffix_nag(t);
    } else {
        nag = 0;
        for (size_t i = 1; i < t->len && nag <= 255; i++)
            nag = nag * 10 + (t->text[i] - '0');
        if (nag > 255)
            return fail(p, t, SCH_PGN_ERR_NAG, NULL, NULL);
    }
    if (nag < 0 || !f->has_move)
        return true;
    if (!sch_pgn_node_add_nag(f->cur, nag))
        return fail_limit(p, t, "NAGs on one move", "NAGs an einem Zug", SCH_PGN_MAX_NAGS);
    return true;
}

static bool open_variation(Parse *p, const Token *t) {
    Frame *f = &p->frames[p->depth];
    if (!f->has_move && p->depth == 0)
        return fail(p, t, SCH_PGN_ERR_VARIATION, NULL, NULL);
    if (p->depth == SCH_PGN_MAX_DEPTH)
        return fail_limit(p, t, "nested variations", "verschachtelte Varianten", SCH_PGN_MAX_DEPTH);
    Frame *v = &p->frames[++p->depth];
    /* A variation that opens another before its first move, "((1. d4) ...)", branches where it
     * does: both replace the same move. */
    if (f->has_move)
        *v = (Frame){.cur = f->cur->parent, .replaces = f->cur, .pos = f->before};
    else
        *v = (Frame){.cur = f->cur, .replaces = f->replaces, .pos = f->pos};
    v->open_line = t->line;
    v->open_column = t->column;
    return true;
}

static bool close_variation(Parse *p, const Token *t) {
    if (p->depth == 0)
        return fail(p, t, SCH_PGN_ERR_VARIATION, NULL, NULL);
    Frame *v = &p->frames[p->depth];
    if (!flush_pending(p, v, t))
        return false;
    if (!v->has_move) { /* "()": counted on the move it replaces */
        if (v->replaces->empty_variations == SCH_PGN_MAX_EMPTY)
            return fail_limit(p, t, "empty variations to one move", "leere Varianten zu einem Zug", SCH_PGN_MAX_EMPTY);
        v->replaces->empty_variations++;
    }
    p->depth--;
    p->frames[p->depth].after_move = false;
    return true;
}

/* The end of the movetext inside a variation: the '(' is not matched. */
static bool fail_open_variation(Parse *p) {
    const Frame *v = &p->frames[p->depth];
    return fail_at(p, v->open_line, v->open_column, SCH_PGN_ERR_VARIATION, "(", NULL, NULL);
}

/* Accepts the termination marker if it agrees with an ending by the rules. A Result tag that says
 * otherwise gives a warning: the marker, at the end of the moves, counts. */
static bool finish(Parse *p, const Token *t, const char *marker) {
    p->phase = PHASE_DONE;
    if (p->depth > 0)
        return fail_open_variation(p);
    if (!flush_pending(p, &p->frames[0], t))
        return false;
    p->g->result = sch_result_from_text(marker);
    const char *tag = sch_pgn_tag(p->g, "Result");
    if (tag && sch_is_result_text(tag) && sch_result_from_text(tag) != p->g->result) {
        sch_err_set(&p->g->warning, SCH_PGN_WARN_RESULT, tag, marker, NULL);
        sch_err_at(&p->g->warning, t->line, t->column);
        p->g->warning.game = p->g->number;
    }
    const SchOutcome *o = &p->g->game.outcome;
    if (o->result != SCH_RESULT_NONE && p->g->result != SCH_RESULT_NONE && o->result != p->g->result)
        return fail(p, t, SCH_PGN_ERR_RESULT, sch_result_string(o->result), NULL);
    return true;
}

/* The movetext ends without a termination marker (tolerated): the Result tag gives the result. */
static bool finish_unmarked(Parse *p, const Token *t) {
    if (p->depth > 0)
        return fail_open_variation(p);
    if (!flush_pending(p, &p->frames[0], t))
        return false;
    const char *tag = sch_pgn_tag(p->g, "Result");
    if (tag)
        p->g->result = sch_result_from_text(tag);
    return true;
}

static bool is_number(const Token *t) {
    for (size_t i = 0; i < t->len; i++)
        if (!is_digit((unsigned char)t->text[i]))
            return false;
    return true;
}

/* "+" or "#" written apart from its move ("Qxf7 #"): the move already says it. */
static bool is_check_sign(const Token *t) {
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] != '+' && t->text[i] != '#')
            return false;
    return t->len > 0;
}

static bool movetext_token(Parse *p, const Token *t, const Cursor *before) {
    const char *marker = sch_token_result(t);
    if (marker)
        return finish(p, t, marker);
    switch (t->kind) {
        case TOK_EOF: return finish_unmarked(p, t);
        case TOK_LBRACKET:
            if (!t->line_start)
                return fail(p, t, SCH_PGN_ERR_TOKEN, NULL, NULL);
            p->r->cur = *before; /* the next game's tags: this one had no termination marker */
            return finish_unmarked(p, t);
        case TOK_MOVE_NUMBER:
        case TOK_PERIOD:
        case TOK_EP: return true;
        case TOK_NAG:
        case TOK_SUFFIX: return keep_nag(p, t);
        case TOK_LPAREN: return open_variation(p, t);
        case TOK_RPAREN: return close_variation(p, t);
        case TOK_UNTERMINATED: return fail_open(p, t, t->open);
        case TOK_COMMENT: return keep_comment(p, t);
        case TOK_SYMBOL:
            if (is_number(t) || is_check_sign(t)) /* a move number without its period */
                return true;
            return play_token(p, t);
        case TOK_GARBAGE:
            if (is_null_token(t))
                return play_token(p, t);
            if (is_check_sign(t))
                return true;
            return fail(p, t, SCH_PGN_ERR_TOKEN, NULL, NULL);
        default: return fail(p, t, SCH_PGN_ERR_TOKEN, NULL, NULL);
    }
}

static bool read_movetext(Parse *p) {
    p->frames = malloc((SCH_PGN_MAX_DEPTH + 1) * sizeof *p->frames);
    if (!p->frames) {
        Token none = {.kind = TOK_EOF, .line = p->r->cur.line, .column = p->r->cur.column};
        return fail(p, &none, SCH_ERR_OUT_OF_MEMORY, NULL, NULL);
    }
    p->frames[0] = (Frame){.cur = p->g->root, .pos = p->g->game.start};
    p->depth = 0;
    bool ok = true, end = false;
    while (ok && !end) {
        Cursor before = p->r->cur;
        Token t;
        sch_lex_token(p->r, &t, true);
        ok = movetext_token(p, &t, &before);
        end = t.kind == TOK_EOF || sch_token_result(&t) || (t.kind == TOK_LBRACKET && t.line_start);
    }
    for (int i = 0; i <= p->depth; i++)
        free(p->frames[i].pending);
    free(p->frames);
    p->frames = NULL;
    return ok;
}

/* Skips the rest of a broken game: to its termination marker (consumed) or to the next line that
 * starts with '[' (left for the next game). Broken tag sections are skipped line by line first. */
static void skip_game(SchPgnReader *r, Phase phase) {
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
        else if (depth == 0 && sch_token_result(&t))
            return;
    }
}

int sch_pgn_read_game(SchPgnReader *r, SchPgnGame *out, SchError *err) {
    SchError local;
    if (!err)
        err = &local;
    sch_err_clear(err);
    Cursor start = r->cur;
    Token first;
    lex(r, &first);
    r->cur = start;
    if (first.kind == TOK_EOF)
        return 0;

    sch_pgn_game_init(out);
    out->number = ++r->games;
    out->line = first.line;
    Parse p = {.r = r, .g = out, .err = err, .phase = PHASE_TAGS, .lang = SCH_LANG_EN};
    bool ok = sch_pgn_tree_root(out) != NULL;
    if (!ok) {
        sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
        err->game = out->number;
    }
    ok = ok && read_tags(&p);
    if (ok) {
        p.phase = PHASE_MOVES;
        ok = start_position(&p) && read_movetext(&p);
    }
    if (!sch_pgn_tree_commands(out->root) && ok) {
        sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
        err->game = out->number;
        ok = false;
    }
    if (ok)
        return 1;
    skip_game(r, p.phase);
    return -1;
}
