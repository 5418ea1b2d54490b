/* Writing PGN in the export format (PGN standard, section 8). */
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "schach/fen.h"
#include "schach/notation.h"

#define PGN_LINE_MAX 80

static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
enum { ROSTER_COUNT = sizeof roster / sizeof roster[0] };

/* Where the text goes: the caller's sink, fed in chunks of up to OUT_CHUNK bytes. After the sink
 * refused or memory ran out (ok false) nothing more is handed to it. */
#define OUT_CHUNK 4096
typedef struct Out {
    SchPgnSink sink;
    void *ctx;
    bool ok;
    size_t len;
    char buf[OUT_CHUNK];
} Out;

static void out_flush(Out *o) {
    if (o->ok && o->len > 0 && !o->sink(o->buf, o->len, o->ctx))
        o->ok = false;
    o->len = 0;
}

static void out_put(Out *o, const char *text, size_t len) {
    while (o->ok && len > 0) {
        if (o->len == OUT_CHUNK)
            out_flush(o);
        size_t n = OUT_CHUNK - o->len < len ? OUT_CHUNK - o->len : len;
        memcpy(o->buf + o->len, text, n);
        o->len += n;
        text += n;
        len -= n;
    }
}

static void out_char(Out *o, char c) { out_put(o, &c, 1); }
static void out_str(Out *o, const char *s) { out_put(o, s, strlen(s)); }

/* Movetext is collected per line so that a token never crosses the 80-character limit. */
typedef struct LineWriter {
    Out *out;
    char line[PGN_LINE_MAX + 1];
    size_t len;
    int opens; /* parentheses that open a variation: written glued to the next piece */
} LineWriter;

static void line_flush(LineWriter *w) {
    if (w->len > 0) {
        out_put(w->out, w->line, w->len);
        out_char(w->out, '\n');
    }
    w->len = 0;
}

/* Adds len characters of text as one unit; one longer than a line gets a line of its own. Waiting
 * '(' go in front of it, a glued piece (")") follows the one before without a space unless a line
 * break comes between. */
static void line_piece(LineWriter *w, const char *text, size_t len, bool glue) {
    size_t opens = (size_t)w->opens, space = w->len > 0 && !glue ? 1 : 0;
    w->opens = 0;
    if (w->len > 0 && w->len + space + opens + len > PGN_LINE_MAX) {
        line_flush(w);
        space = 0;
    }
    if (opens + len > PGN_LINE_MAX) {
        for (size_t i = 0; i < opens; i++)
            out_char(w->out, '(');
        out_put(w->out, text, len);
        out_char(w->out, '\n');
        return;
    }
    if (space)
        w->line[w->len++] = ' ';
    memset(w->line + w->len, '(', opens);
    w->len += opens;
    memcpy(w->line + w->len, text, len);
    w->len += len;
}

/* Adds a token. One longer than a line (a long comment) is split at spaces; a word longer than a
 * line stays whole on a line of its own, because a break would put a space into it. */
static void line_put(LineWriter *w, const char *token) {
    size_t n = strlen(token);
    while (n > PGN_LINE_MAX) {
        size_t cut = PGN_LINE_MAX;
        while (cut > 0 && token[cut] != ' ')
            cut--;
        if (cut == 0) {
            const char *space = strchr(token, ' ');
            if (!space)
                break;
            cut = (size_t)(space - token);
        }
        line_piece(w, token, cut, false);
        token += cut + 1;
        n -= cut + 1;
    }
    line_piece(w, token, n, false);
}

static void write_tag(Out *out, const char *name, const char *value) {
    out_char(out, '[');
    out_str(out, name);
    out_str(out, " \"");
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        if (*c == '"' || *c == '\\')
            out_char(out, '\\');
        /* Export strings hold printing characters only; a line break would end the string. */
        out_char(out, *c < 0x20 || *c == 0x7F ? ' ' : (char)*c);
    }
    out_str(out, "\"]\n");
}

/* The export standard's Termination values for the rules' endings; the precise reason is left to
 * the moves and result. */
static const char *termination_value(SchTermination t) {
    switch (t) {
        case SCH_TERM_NONE: return NULL;
        case SCH_TERM_TIME_FORFEIT:
        case SCH_TERM_TIMEOUT_INSUFFICIENT:
        case SCH_TERM_TIMEOUT_UNWINNABLE: return "time forfeit";
        case SCH_TERM_ABANDONED: return "abandoned";
        default: return "normal";
    }
}

static const char *result_text(const SchPgnGame *g) {
    if (sch_game_over(&g->game))
        return sch_result_string(g->game.outcome.result);
    return sch_result_string(g->result);
}

static bool is_generated_tag(const char *name) {
    for (int i = 0; i < ROSTER_COUNT; i++)
        if (strcmp(name, roster[i]) == 0)
            return true;
    return strcmp(name, "Variant") == 0 || strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0 ||
           strcmp(name, "Termination") == 0;
}

/* The tags in a fixed order, whatever the order they were read or set in: the Seven Tag Roster,
 * Variant, SetUp, FEN, Termination, then the others in their order. */
static void write_tags(Out *out, const SchPgnGame *g) {
    for (int i = 0; i < ROSTER_COUNT; i++) {
        const char *value = sch_pgn_tag(g, roster[i]);
        if (i == ROSTER_COUNT - 1)
            value = result_text(g);
        else if (!value || !*value)
            value = strcmp(roster[i], "Date") == 0 ? "????.??.??" : "?";
        write_tag(out, roster[i], value);
    }

    SchPosition standard;
    sch_pos_set_start(&standard);
    char fen[SCH_FEN_MAX], start_fen[SCH_FEN_MAX];
    sch_fen_write(&g->game.start, fen, sizeof fen);
    sch_fen_write(&standard, start_fen, sizeof start_fen);
    /* X-FEN castling rights (KQkq with the king off the e-file) mean Chess960 only to a reader told so. */
    const char *variant = sch_pgn_tag(g, "Variant");
    if (!variant && g->game.start.chess960)
        variant = "Chess960";
    if (variant)
        write_tag(out, "Variant", variant);
    if (strcmp(fen, start_fen) != 0) {
        write_tag(out, "SetUp", "1");
        write_tag(out, "FEN", fen);
    }

    const char *termination = sch_pgn_tag(g, "Termination");
    if (!termination || !*termination)
        termination = termination_value(g->game.outcome.termination);
    if (termination)
        write_tag(out, "Termination", termination);

    for (int i = 0; i < g->tag_count; i++)
        if (!is_generated_tag(g->tags[i].name))
            write_tag(out, g->tags[i].name, g->tags[i].value);
}

static void put_comment(LineWriter *w, const char *text) {
    size_t n = strlen(text) + 3;
    char small[128], *braced = n <= sizeof small ? small : malloc(n);
    if (!braced) {
        w->out->ok = false; /* out of memory */
        return;
    }
    snprintf(braced, n, "{%s}", text);
    line_put(w, braced);
    if (braced != small)
        free(braced);
}

/* The comment after a move (or the root's): {[%clk ...] [%eval ...] other-commands text}, each part
 * when there is one. Returns whether there was a comment. */
static bool put_after(LineWriter *w, const SchPgnNode *n) {
    size_t size = 160 + (n->commands ? strlen(n->commands) : 0) + (n->comment ? strlen(n->comment) : 0);
    char *text = malloc(size);
    if (!text) {
        w->out->ok = false; /* out of memory */
        return false;
    }
    sch_pgn_node_commands(n, text, size);
    if (n->comment) {
        size_t len = strlen(text);
        snprintf(text + len, size - len, "%s%s", len ? " " : "", n->comment);
    }
    bool any = *text != '\0';
    if (any)
        put_comment(w, text);
    free(text);
    return any;
}

/* A move with its number when it needs one, NAGs and comments. Returns whether a comment follows it
 * (then a black move after it needs its number again). */
static bool put_move(LineWriter *w, const SchPosition *pos, const SchPgnNode *n, bool number, SchLang lang) {
    if (n->comment_before) {
        put_comment(w, n->comment_before);
        number = true;
    }
    char san[SCH_MOVE_TEXT_MAX], unit[SCH_MOVE_TEXT_MAX + 16];
    sch_san_write(pos, n->move, lang, san, sizeof san); /* "--" for a null move */
    if (sch_pos_turn(pos) == SCH_WHITE)
        snprintf(unit, sizeof unit, "%u. %s", (unsigned)pos->fullmove, san);
    else if (number)
        snprintf(unit, sizeof unit, "%u... %s", (unsigned)pos->fullmove, san);
    else
        snprintf(unit, sizeof unit, "%s", san);
    line_put(w, unit);
    for (int i = 0; i < n->nag_count; i++) {
        char nag[8];
        snprintf(nag, sizeof nag, "$%d", n->nags[i]);
        line_put(w, nag);
    }
    return put_after(w, n);
}

static bool put_variations(LineWriter *w, const SchPosition *pos, const SchPgnNode *n, SchLang lang);
static bool put_empty(LineWriter *w, const SchPgnNode *n);

/* The line that starts with n in parentheses; n's siblings are not part of it. */
static void put_variation(LineWriter *w, SchPosition pos, const SchPgnNode *n, SchLang lang) {
    w->opens++;
    bool number = true;
    for (bool first = true; n; n = n->main, first = false) {
        number = put_move(w, &pos, n, number, lang);
        if (first ? put_empty(w, n) : put_variations(w, &pos, n, lang))
            number = true;
        sch_pgn_play(&pos, n->move);
    }
    line_piece(w, ")", 1, true);
}

/* The empty variations "()" that replace n; returns whether there were any. */
static bool put_empty(LineWriter *w, const SchPgnNode *n) {
    for (int i = 0; i < n->empty_variations; i++)
        line_piece(w, "()", 2, false);
    return n->empty_variations > 0;
}

/* The variations that replace n (its later siblings), from pos, the position before n, then its empty
 * ones. Returns whether there were any. */
static bool put_variations(LineWriter *w, const SchPosition *pos, const SchPgnNode *n, SchLang lang) {
    for (const SchPgnNode *v = n->next; v; v = v->next)
        put_variation(w, *pos, v, lang);
    return put_empty(w, n) || n->next != NULL;
}

/* A move number stays on the line of its move: "8. Nh4" is one unit for wrapping. Black's move
 * gets its number "8..." when it opens the movetext or follows a comment or a variation. The main
 * line is the tree's as far as it agrees with the record, then the record's own plies. */
static void write_moves(Out *out, const SchPgnGame *g, SchLang lang) {
    LineWriter w = {.out = out, .len = 0};
    SchPosition pos = g->game.start;
    if (g->root)
        put_after(&w, g->root);
    bool number = true;
    SchPgnNode *last;
    bool rest;
    int covered = sch_pgn_main_cover(g, &last, &rest);
    const SchPgnNode *n = g->root ? g->root->main : NULL;
    for (int i = 0;; i++) {
        if (n && (i < covered || rest)) {
            number = put_move(&w, &pos, n, number, lang);
            if (put_variations(&w, &pos, n, lang))
                number = true;
            sch_pgn_play(&pos, n->move);
            n = n->main;
            continue;
        }
        if (i >= g->game.ply_count)
            break;
        /* A ply the tree does not hold has no comment (sch_pgn_set_comment puts it into the tree). */
        const SchPgnNode bare = {.move = g->game.plies[i].move, .clock_ms = SCH_PGN_NO_CLOCK};
        number = put_move(&w, &pos, &bare, number, lang);
        sch_pgn_play(&pos, bare.move);
    }
    line_put(&w, result_text(g));
    line_flush(&w);
}

bool sch_pgn_write_to(const SchPgnGame *g, SchLang lang, SchPgnSink sink, void *ctx) {
    Out out = {.sink = sink, .ctx = ctx, .ok = true, .len = 0};
    write_tags(&out, g);
    out_char(&out, '\n');
    write_moves(&out, g, lang);
    out_char(&out, '\n');
    out_flush(&out);
    return out.ok;
}

static bool file_sink(const char *text, size_t len, void *ctx) { return fwrite(text, 1, len, ctx) == len; }

bool sch_pgn_write(FILE *out, const SchPgnGame *g, SchLang lang) {
    return sch_pgn_write_to(g, lang, file_sink, out) && !ferror(out);
}

/* A string that grows as the writer hands it text. */
typedef struct Text {
    char *buf;
    size_t len;
    size_t cap;
} Text;

static bool text_sink(const char *text, size_t len, void *ctx) {
    Text *t = ctx;
    if (len >= t->cap - t->len) {
        size_t cap = t->cap;
        while (len >= cap - t->len) {
            if (cap > SIZE_MAX / 2)
                return false;
            cap *= 2;
        }
        char *grown = realloc(t->buf, cap);
        if (!grown)
            return false;
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, text, len);
    t->len += len;
    t->buf[t->len] = '\0';
    return true;
}

char *sch_pgn_write_string(const SchPgnGame *g, SchLang lang, size_t *len) {
    Text t = {.buf = malloc(1024), .len = 0, .cap = 1024};
    if (!t.buf)
        return NULL;
    t.buf[0] = '\0';
    if (!sch_pgn_write_to(g, lang, text_sink, &t)) {
        free(t.buf);
        return NULL;
    }
    if (len)
        *len = t.len;
    return t.buf;
}

void sch_free(void *p) { free(p); }
