/* The PGN part of the WebAssembly API (wasm_api.h): a PGN text read by libschach's reader into a JSON
 * tree, and a tree (in the line format of docs/wasm.md) written by libschach's writer. */
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/pgn.h"
#include "wasm_internal.h"

/* ---- reading: the tree as JSON ---- */

static void line_json(JsonOut *j, const SchPgnNode *first, SchPosition pos, bool variation);

static void node_json(JsonOut *j, const SchPgnNode *n, const SchPosition *before, bool with_variations) {
    char text[SCH_MOVE_TEXT_MAX], fen[SCH_FEN_MAX];
    SchPosition after = *before;
    SchUndo undo;
    jo_raw(j, "{\"uci\":");
    if (n->move == SCH_MOVE_NULL) {
        jo_str(j, "0000");
        jo_raw(j, ",\"san\":\"--\",\"san_de\":\"--\"");
        sch_pos_make_null(&after, &undo);
    } else {
        sch_uci_write(before, n->move, text, sizeof text);
        jo_str(j, text);
        jo_key(j, "san");
        sch_san_write(before, n->move, SCH_LANG_EN, text, sizeof text);
        jo_str(j, text);
        jo_key(j, "san_de");
        sch_san_write(before, n->move, SCH_LANG_DE, text, sizeof text);
        jo_str(j, text);
        sch_pos_make(&after, n->move, &undo);
    }
    sch_fen_write(&after, fen, sizeof fen);
    jo_key(j, "fen");
    jo_str(j, fen);
    jo_key(j, "comment");
    jo_str(j, n->comment);
    char commands[1024];
    sch_pgn_node_commands(n, commands, sizeof commands);
    jo_key(j, "commands");
    jo_str(j, *commands ? commands : NULL);
    jo_key(j, "comment_before");
    jo_str(j, n->comment_before);
    jo_key(j, "nags");
    jo_raw(j, "[");
    for (int i = 0; i < n->nag_count; i++) {
        jo_sep(j);
        jo_int(j, n->nags[i]);
    }
    jo_raw(j, "]");
    jo_key(j, "variations");
    jo_raw(j, "[");
    if (with_variations)
        for (const SchPgnNode *v = n->next; v; v = v->next) {
            jo_sep(j);
            line_json(j, v, *before, true);
        }
    jo_raw(j, "]}");
}

/* The line that starts with first (played from pos): first, first->main, ...; each move's
 * variations are its siblings, except for the first move of a variation (its siblings belong to the
 * line above). */
static void line_json(JsonOut *j, const SchPgnNode *first, SchPosition pos, bool variation) {
    jo_raw(j, "[");
    for (const SchPgnNode *n = first; n; n = n->main) {
        jo_sep(j);
        node_json(j, n, &pos, !(variation && n == first));
        SchUndo undo;
        if (n->move == SCH_MOVE_NULL)
            sch_pos_make_null(&pos, &undo);
        else
            sch_pos_make(&pos, n->move, &undo);
    }
    jo_raw(j, "]");
}

SCH_WASM_EXPORT(sch_wasm_pgn_parse) const char *sch_wasm_pgn_parse(const char *text, size_t len) {
    SchError err;
    sch_err_clear(&err);
    SchPgnReader *r = sch_pgn_reader_from_buffer(text ? text : "", text ? len : 0, &err);
    if (!r) {
        wasm_error(&wasm_out, &err, -1);
        return jo_finish(&wasm_out);
    }
    SchPgnGame g;
    int got = sch_pgn_read_game(r, &g, &err);
    sch_pgn_reader_close(r);
    if (got <= 0) {
        if (got == 0) {
            jo_reset(&wasm_out);
            jo_raw(&wasm_out, "{\"ok\":false,\"error\":{\"code\":0,\"name\":\"no_game\",\"en\":\"no game in the text\","
                              "\"de\":\"keine Partie im Text\"}}");
        } else {
            wasm_error(&wasm_out, &err, -1);
            sch_pgn_game_free(&g);
        }
        return jo_finish(&wasm_out);
    }
    JsonOut *j = &wasm_out;
    char fen[SCH_FEN_MAX];
    sch_fen_write(&g.game.start, fen, sizeof fen);
    jo_reset(j);
    jo_raw(j, "{\"ok\":true,\"tags\":[");
    for (int i = 0; i < g.tag_count; i++) {
        jo_sep(j);
        jo_raw(j, "[");
        jo_str(j, g.tags[i].name);
        jo_raw(j, ",");
        jo_str(j, g.tags[i].value);
        jo_raw(j, "]");
    }
    jo_raw(j, "]");
    jo_key(j, "fen");
    jo_str(j, fen);
    jo_key(j, "chess960");
    jo_bool(j, g.game.start.chess960 != 0);
    jo_key(j, "result");
    jo_str(j, sch_result_string(sch_game_over(&g.game) ? g.game.outcome.result : g.result));
    const SchPgnNode *root = sch_pgn_root(&g);
    jo_key(j, "comment");
    jo_str(j, root ? root->comment : NULL);
    jo_key(j, "moves");
    if (root && root->main)
        line_json(j, root->main, g.game.start, false);
    else
        jo_raw(j, "[]");
    jo_raw(j, "}");
    sch_pgn_game_free(&g);
    return jo_finish(j);
}

/* ---- writing: the line format to a tree, then PGN ---- */

typedef struct Frame {
    SchPgnNode *cur;    /* the last move of this line (the line's start node before its first move) */
    SchPosition pos;    /* the position after cur */
    SchPosition before; /* the position before cur's move */
    bool has_move;      /* cur is a move of this line */
} Frame;

#define WRITE_MAX_NESTING 64

/* The text of a line after its tag, unescaped in place (\n, \t, \\). */
static char *unescape(char *s) {
    char *w = s;
    for (char *p = s; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            *w++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
        } else {
            *w++ = *p;
        }
    }
    *w = 0;
    return s;
}

static const char *write_fail(int line, const char *en, const char *de) {
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":false,\"error\":{\"code\":0,\"line\":");
    jo_int(&wasm_out, line);
    jo_key(&wasm_out, "en");
    jo_str(&wasm_out, en);
    jo_key(&wasm_out, "de");
    jo_str(&wasm_out, de);
    jo_raw(&wasm_out, "}}");
    return jo_finish(&wasm_out);
}

static SchResult result_of(const char *s) {
    return !strcmp(s, "1-0")       ? SCH_RESULT_WHITE_WINS
           : !strcmp(s, "0-1")     ? SCH_RESULT_BLACK_WINS
           : !strcmp(s, "1/2-1/2") ? SCH_RESULT_DRAW
                                   : SCH_RESULT_NONE;
}

/* Builds g from ops; NULL on success, else the error answer. */
static const char *build_tree(SchPgnGame *g, char *ops) {
    static Frame frames[WRITE_MAX_NESTING];
    int depth = 0, line_no = 0;
    SchPgnNode *root = NULL;
    SchError err;
    sch_err_clear(&err);
    for (char *line = ops; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        line_no++;
        char kind = line[0];
        char *arg = line[0] && line[1] == '\t' ? unescape(line + 2) : line + 1;
        if (kind == 'T' || kind == 'F' || kind == 'X') {
            if (root)
                return write_fail(line_no, "tags and the start position come before the moves",
                                  "Tags und Ausgangsstellung stehen vor den Zügen");
            if (kind == 'T') {
                char *tab = strchr(arg, '\t');
                if (!tab)
                    return write_fail(line_no, "a tag needs a name and a value", "ein Tag braucht Namen und Wert");
                *tab = 0;
                if (!sch_pgn_set_tag(g, arg, tab + 1))
                    return write_fail(line_no, "out of memory", "kein Speicher mehr");
            } else if (kind == 'F') {
                sch_game_free(&g->game);
                if (!sch_game_init_fen(&g->game, arg, &err)) {
                    sch_game_init(&g->game);
                    wasm_error(&wasm_out, &err, -1);
                    return jo_finish(&wasm_out);
                }
            } else {
                g->game.start.chess960 = g->game.pos.chess960 = 1;
            }
        } else if (kind == 'R') {
            g->result = result_of(arg);
        } else if (kind) {
            if (!root) {
                root = sch_pgn_tree_root(g);
                if (!root)
                    return write_fail(line_no, "out of memory", "kein Speicher mehr");
                frames[0] = (Frame){.cur = root, .pos = g->game.start, .has_move = false};
            }
            Frame *f = &frames[depth];
            switch (kind) {
                case 'C':
                    if (!sch_pgn_node_set_comment(root, false, arg))
                        return write_fail(line_no, "comment too long", "Kommentar zu lang");
                    break;
                case 'M': {
                    SchMove m =
                        strcmp(arg, "--") && strcmp(arg, "0000") ? wasm_parse_move(&f->pos, arg, &err) : SCH_MOVE_NULL;
                    if (m == SCH_MOVE_NONE) {
                        wasm_error(&wasm_out, &err, -1);
                        return jo_finish(&wasm_out);
                    }
                    SchPgnNode *n = sch_pgn_node_add(g, f->cur, m, &err);
                    if (!n) {
                        wasm_error(&wasm_out, &err, -1);
                        return jo_finish(&wasm_out);
                    }
                    f->before = f->pos;
                    SchUndo undo;
                    if (m == SCH_MOVE_NULL)
                        sch_pos_make_null(&f->pos, &undo);
                    else
                        sch_pos_make(&f->pos, m, &undo);
                    f->cur = n;
                    f->has_move = true;
                    break;
                }
                case 'c':
                case 'b':
                case 'n':
                    if (!f->has_move)
                        return write_fail(line_no, "a comment or NAG without a move", "Kommentar oder NAG ohne Zug");
                    if (kind == 'n' ? !sch_pgn_node_add_nag(f->cur, atoi(arg))
                                    : !sch_pgn_node_set_comment(f->cur, kind == 'b', arg))
                        return write_fail(line_no, "bad comment or NAG", "ungültiger Kommentar oder NAG");
                    break;
                case '(':
                    if (!f->has_move || depth + 1 >= WRITE_MAX_NESTING)
                        return write_fail(line_no, "a variation needs a move to replace",
                                          "eine Variante braucht einen Zug, den sie ersetzt");
                    frames[depth + 1] = (Frame){.cur = f->cur->parent, .pos = f->before, .has_move = false};
                    depth++;
                    break;
                case ')':
                    if (depth == 0)
                        return write_fail(line_no, "')' without '('", "')' ohne '('");
                    if (!frames[depth].has_move)
                        return write_fail(line_no, "an empty variation", "eine leere Variante");
                    depth--;
                    break;
                default: return write_fail(line_no, "unknown line", "unbekannte Zeile");
            }
        }
        line = end ? end + 1 : NULL;
    }
    if (depth)
        return write_fail(line_no, "a variation is not closed", "eine Variante ist nicht geschlossen");
    return NULL;
}

SCH_WASM_EXPORT(sch_wasm_pgn_write) const char *sch_wasm_pgn_write(const char *ops, int lang) {
    char *copy = strdup(ops ? ops : "");
    if (!copy)
        return write_fail(0, "out of memory", "kein Speicher mehr");
    SchPgnGame g;
    sch_pgn_game_init(&g);
    const char *fail = build_tree(&g, copy);
    free(copy);
    if (fail) {
        sch_pgn_game_free(&g);
        return fail;
    }
    size_t len = 0;
    char *pgn = sch_pgn_write_string(&g, lang == 1 ? SCH_LANG_DE : SCH_LANG_EN, &len);
    sch_pgn_game_free(&g);
    if (!pgn)
        return write_fail(0, "out of memory", "kein Speicher mehr");
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"pgn\":");
    jo_str(&wasm_out, pgn);
    jo_raw(&wasm_out, "}");
    sch_free(pgn);
    return jo_finish(&wasm_out);
}
