/* The PGN game tree: building it, walking it, comparing it, and the [%clk]/[%eval] commands. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "schach/movegen.h"

SchPgnNode *sch_pgn_node_new(SchPgnGame *g, SchPgnNode *parent, SchMove m, bool *limit) {
    *limit = parent && g->node_count >= SCH_PGN_MAX_NODES;
    if (*limit)
        return NULL;
    SchPgnNode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->move = m;
    n->clock_ms = SCH_PGN_NO_CLOCK;
    n->parent = parent;
    if (!parent)
        return n;
    if (parent->last)
        parent->last->next = n;
    else
        parent->main = n;
    parent->last = n;
    g->node_count++;
    return n;
}

static void node_free(SchPgnNode *n) {
    free(n->comment_before);
    free(n->comment);
    free(n->commands);
    free(n);
}

/* Iterative along main lines, recursive only into variations, so a long game does not use the stack
 * a deep recursion would. */
void sch_pgn_tree_free(SchPgnNode *n) {
    while (n) {
        SchPgnNode *main = n->main;
        for (SchPgnNode *v = main ? main->next : NULL; v;) {
            SchPgnNode *next = v->next;
            v->next = NULL;
            sch_pgn_tree_free(v);
            v = next;
        }
        node_free(n);
        n = main;
    }
}

/* Nodes in n's subtree, n included, its siblings not: iterative along main lines like sch_pgn_tree_free. */
static int count_subtree(const SchPgnNode *n) {
    int count = 0;
    while (n) {
        count++;
        const SchPgnNode *main = n->main;
        for (const SchPgnNode *v = main ? main->next : NULL; v; v = v->next)
            count += count_subtree(v);
        n = main;
    }
    return count;
}

void sch_pgn_node_cut(SchPgnGame *g, SchPgnNode *n) {
    for (SchPgnNode *c = n->main; c;) {
        SchPgnNode *next = c->next;
        g->node_count -= count_subtree(c);
        c->next = NULL;
        sch_pgn_tree_free(c);
        c = next;
    }
    n->main = NULL;
    n->last = NULL;
}

const SchPgnNode *sch_pgn_root(const SchPgnGame *g) { return g->root; }

SchPgnNode *sch_pgn_tree_root(SchPgnGame *g) {
    bool limit;
    if (!g->root)
        g->root = sch_pgn_node_new(g, NULL, SCH_MOVE_NONE, &limit);
    return g->root;
}

int sch_pgn_node_ply(const SchPgnNode *n) {
    int ply = 0;
    for (; n && n->parent; n = n->parent)
        ply++;
    return ply;
}

void sch_pgn_play(SchPosition *pos, SchMove m) {
    SchUndo undo;
    sch_game_make_ply(pos, m, &undo);
}

bool sch_pgn_node_position(const SchPgnGame *g, const SchPgnNode *n, SchPosition *out) {
    int ply = sch_pgn_node_ply(n);
    SchMove *moves = malloc((size_t)(ply > 0 ? ply : 1) * sizeof *moves);
    if (!moves)
        return false;
    for (int i = ply - 1; i >= 0; i--, n = n->parent)
        moves[i] = n->move;
    *out = g->game.start;
    for (int i = 0; i < ply; i++)
        sch_pgn_play(out, moves[i]);
    free(moves);
    return true;
}

SchPgnNode *sch_pgn_node_add(SchPgnGame *g, SchPgnNode *parent, SchMove m, SchError *err) {
    sch_err_clear(err);
    SchPosition pos;
    if (!sch_pgn_node_position(g, parent, &pos)) {
        sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
        return NULL;
    }
    bool legal = m == SCH_MOVE_NULL ? !sch_pos_in_check(&pos) : sch_gen_is_legal(&pos, m);
    if (!legal) {
        char text[8];
        snprintf(text, sizeof text, "%d", m);
        sch_err_set(err, SCH_GAME_ERR_ILLEGAL, text, NULL, NULL);
        return NULL;
    }
    bool limit;
    SchPgnNode *n = sch_pgn_node_new(g, parent, m, &limit);
    if (!n) {
        char max[16];
        snprintf(max, sizeof max, "%d", SCH_PGN_MAX_NODES);
        if (limit)
            sch_err_set(err, SCH_PGN_ERR_LIMIT, "moves in one game", "Züge in einer Partie", max);
        else
            sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
    }
    return n;
}

char *sch_pgn_comment_text(const char *text, bool *oom) {
    size_t n = strlen(text);
    char *c = malloc(n + 1), *end = c;
    *oom = c == NULL;
    if (!c)
        return NULL;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        bool blank = *s < 0x20 || *s == 0x7F || *s == ' ' || *s == '}';
        if (!blank)
            *end++ = (char)*s;
        else if (end > c && end[-1] != ' ')
            *end++ = ' ';
    }
    while (end > c && end[-1] == ' ')
        end--;
    *end = '\0';
    if (end == c) {
        free(c);
        return NULL;
    }
    return c;
}

bool sch_pgn_node_set_comment(SchPgnNode *n, bool before, const char *text) {
    bool oom = false;
    char *c = text ? sch_pgn_comment_text(text, &oom) : NULL;
    if (oom)
        return false;
    if (c && strlen(c) > SCH_PGN_MAX_COMMENT) {
        free(c);
        return false;
    }
    if (before || !c) {
        char **slot = before ? &n->comment_before : &n->comment;
        free(*slot);
        *slot = c;
        return true;
    }
    /* The commands go to the fields and to commands, as when reading; the fields it does not set stay. */
    SchPgnNode parts = {.clock_ms = SCH_PGN_NO_CLOCK};
    bool ok = sch_pgn_split_commands(&parts, c);
    free(c);
    if (!ok)
        return false;
    free(n->comment);
    n->comment = parts.comment;
    if (parts.commands) {
        free(n->commands);
        n->commands = parts.commands;
    }
    if (parts.clock_ms != SCH_PGN_NO_CLOCK)
        n->clock_ms = parts.clock_ms;
    if (parts.has_eval) {
        n->has_eval = true;
        n->eval_mate = parts.eval_mate;
        n->eval = parts.eval;
        n->eval_depth = parts.eval_depth;
    }
    return true;
}

bool sch_pgn_node_add_nag(SchPgnNode *n, int nag) {
    if (nag < 0 || nag > 255 || n->nag_count >= SCH_PGN_MAX_NAGS)
        return false;
    n->nags[n->nag_count++] = (uint8_t)nag;
    return true;
}

int sch_pgn_node_count(const SchPgnGame *g) { return g->root ? g->node_count : 0; }

/* Visits the line that starts with n (n's siblings are not part of it). */
static bool walk_line(const SchPgnNode *n, SchPosition pos, int depth, SchPgnVisitor visit, void *ctx,
                      bool first_is_variation) {
    for (bool first = true; n; n = n->main, first = false) {
        if (!visit(n, &pos, depth, ctx))
            return false;
        if (!(first && first_is_variation))
            for (const SchPgnNode *v = n->next; v; v = v->next)
                if (!walk_line(v, pos, depth + 1, visit, ctx, true))
                    return false;
        sch_pgn_play(&pos, n->move);
    }
    return true;
}

bool sch_pgn_walk(const SchPgnGame *g, SchPgnVisitor visit, void *ctx) {
    if (!g->root)
        return true;
    return walk_line(g->root->main, g->game.start, 0, visit, ctx, false);
}

static bool same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static bool same_node(const SchPgnNode *a, const SchPgnNode *b) {
    return a->move == b->move && a->nag_count == b->nag_count && memcmp(a->nags, b->nags, a->nag_count) == 0 &&
           a->empty_variations == b->empty_variations && same_text(a->comment_before, b->comment_before) &&
           same_text(a->comment, b->comment) && same_text(a->commands, b->commands) && a->clock_ms == b->clock_ms &&
           a->has_eval == b->has_eval &&
           (!a->has_eval || (a->eval_mate == b->eval_mate && a->eval == b->eval && a->eval_depth == b->eval_depth));
}

/* Compares the subtrees of a and b (not their siblings): iterative along the main line, recursive into
 * variations only. */
bool sch_pgn_tree_equal(const SchPgnNode *a, const SchPgnNode *b) {
    while (a && b) {
        if (!same_node(a, b) || (a->main == NULL) != (b->main == NULL))
            return false;
        const SchPgnNode *va = a->main ? a->main->next : NULL, *vb = b->main ? b->main->next : NULL;
        for (; va && vb; va = va->next, vb = vb->next)
            if (!sch_pgn_tree_equal(va, vb))
                return false;
        if (va || vb)
            return false;
        a = a->main;
        b = b->main;
    }
    return !a && !b;
}

/* ---------------------------------------------------------------- [%clk] and [%eval] */

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

/* Up to max digits as a number; *s advanced. -1 when there is none. */
static long digits(const char **s, int max) {
    long v = 0;
    int n = 0;
    while (is_digit(**s) && n < max) {
        v = v * 10 + (**s - '0');
        (*s)++, n++;
    }
    return n > 0 ? v : -1;
}

/* "h:mm:ss" with an optional fraction of up to three digits; s points after "[%clk", end at ']'. */
static bool parse_clock(const char *s, const char *end, int64_t *ms) {
    while (s < end && *s == ' ')
        s++;
    long h = digits(&s, 6);
    if (h < 0 || *s++ != ':')
        return false;
    long m = digits(&s, 2);
    if (m < 0 || m > 59 || *s++ != ':')
        return false;
    long sec = digits(&s, 2);
    if (sec < 0 || sec > 59)
        return false;
    long frac = 0;
    if (*s == '.') {
        s++;
        const char *f = s;
        frac = digits(&s, 3);
        if (frac < 0)
            return false;
        for (long k = s - f; k < 3; k++)
            frac *= 10;
    }
    while (s < end && *s == ' ')
        s++;
    if (s != end)
        return false;
    *ms = ((int64_t)h * 3600 + m * 60 + sec) * 1000 + frac;
    return true;
}

/* "1.23", "-0.5", "#3", "#-2", each optionally followed by ",depth". */
static bool parse_eval(const char *s, const char *end, SchPgnNode *n) {
    while (s < end && *s == ' ')
        s++;
    bool mate = *s == '#';
    if (mate)
        s++;
    bool negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    long whole = digits(&s, 6), value;
    if (whole < 0)
        return false;
    if (mate) {
        value = whole;
    } else {
        long hundredths = 0;
        if (*s == '.') {
            s++;
            const char *f = s;
            hundredths = digits(&s, 2);
            if (hundredths < 0)
                return false;
            if (s - f == 1)
                hundredths *= 10;
            while (is_digit(*s)) /* more precision than centipawns: dropped */
                s++;
        }
        value = whole * 100 + hundredths;
    }
    long depth = 0;
    if (*s == ',') {
        s++;
        depth = digits(&s, 4);
        if (depth < 0)
            return false;
    }
    while (s < end && *s == ' ')
        s++;
    if (s != end)
        return false;
    n->has_eval = true;
    n->eval_mate = mate;
    n->eval = (int)(negative ? -value : value);
    n->eval_depth = (int)depth;
    return true;
}

/* Reads one command "[%name ...]" (s at '[', end at its ']') into n's field when it is a well-formed
 * [%clk] or [%eval] and that field is not set yet. */
static bool read_known(SchPgnNode *n, const char *s, const char *end) {
    if (strncmp(s, "[%clk ", 6) == 0 && n->clock_ms == SCH_PGN_NO_CLOCK) {
        int64_t ms;
        if (!parse_clock(s + 6, end, &ms))
            return false;
        n->clock_ms = ms;
        return true;
    }
    if (strncmp(s, "[%eval ", 7) == 0 && !n->has_eval)
        return parse_eval(s + 7, end, n);
    return false;
}

bool sch_pgn_split_commands(SchPgnNode *n, const char *text) {
    size_t len = strlen(text);
    char *rest = malloc(len + 1), *other = malloc(2 * len + 1); /* a space between commands, at most one each */
    bool ok = rest && other;
    size_t nr = 0, no = 0;
    for (const char *s = text; ok && *s;) {
        const char *end = s[0] == '[' && s[1] == '%' ? strchr(s, ']') : NULL;
        if (!end) {
            rest[nr++] = *s++;
            continue;
        }
        if (!read_known(n, s, end)) {
            if (no)
                other[no++] = ' ';
            memcpy(other + no, s, (size_t)(end + 1 - s));
            no += (size_t)(end + 1 - s);
        }
        rest[nr++] = ' '; /* a command parts the words around it */
        s = end + 1;
    }
    char *comment = NULL;
    if (ok) {
        rest[nr] = '\0';
        other[no] = '\0';
        bool oom;
        comment = sch_pgn_comment_text(rest, &oom);
        ok = !oom;
    }
    free(rest);
    if (!ok || no == 0) {
        free(other);
        other = NULL;
    }
    if (!ok)
        return false;
    free(n->comment);
    n->comment = comment;
    free(n->commands);
    n->commands = other;
    return true;
}

/* Splits n's comment when it holds a command. */
static bool split_node(SchPgnNode *n) {
    char *text = n->comment;
    if (!text || !strstr(text, "[%"))
        return true;
    n->comment = NULL;
    if (!sch_pgn_split_commands(n, text)) {
        n->comment = text;
        return false;
    }
    free(text);
    return true;
}

/* Splits the comments of the line that starts with n (not n's siblings), its variations included. */
static bool commands_line(SchPgnNode *n) {
    for (; n; n = n->main) {
        if (!split_node(n))
            return false;
        for (SchPgnNode *v = n->main ? n->main->next : NULL; v; v = v->next)
            if (!split_node(v) || !commands_line(v->main))
                return false;
    }
    return true;
}

bool sch_pgn_tree_commands(SchPgnNode *root) { return commands_line(root); }

/* Appends text to buf (size bytes, len used), truncated to fit; returns the new length. */
static size_t append_text(char *buf, size_t size, size_t len, const char *text) {
    int w = snprintf(buf + len, size - len, "%s%s", len ? " " : "", text);
    return w > 0 && (size_t)w < size - len ? len + (size_t)w : size - 1;
}

void sch_pgn_node_commands(const SchPgnNode *n, char *buf, size_t size) {
    size_t len = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    if (n->clock_ms != SCH_PGN_NO_CLOCK && n->clock_ms >= 0) {
        int64_t ms = n->clock_ms, s = ms / 1000;
        int frac = (int)(ms % 1000);
        char fraction[8] = "", clock[64];
        if (frac % 100 == 0 && frac)
            snprintf(fraction, sizeof fraction, ".%d", frac / 100);
        else if (frac)
            snprintf(fraction, sizeof fraction, ".%03d", frac);
        snprintf(clock, sizeof clock, "[%%clk %" PRId64 ":%02d:%02d%s]", s / 3600, (int)(s / 60 % 60), (int)(s % 60),
                 fraction);
        len = append_text(buf, size, len, clock);
    }
    if (n->has_eval) {
        char depth[16] = "", eval[64];
        if (n->eval_depth > 0)
            snprintf(depth, sizeof depth, ",%d", n->eval_depth);
        int v = n->eval < 0 ? -n->eval : n->eval;
        const char *sign = n->eval < 0 ? "-" : "";
        if (n->eval_mate)
            snprintf(eval, sizeof eval, "[%%eval #%s%d%s]", sign, v, depth);
        else
            snprintf(eval, sizeof eval, "[%%eval %s%d.%02d%s]", sign, v / 100, v % 100, depth);
        len = append_text(buf, size, len, eval);
    }
    if (n->commands)
        append_text(buf, size, len, n->commands);
}
