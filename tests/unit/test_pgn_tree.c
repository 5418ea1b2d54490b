/* PGN game tree: variations checked like the main line, NAGs, comments before and after moves,
 * [%clk]/[%eval], null moves, the walk API, limits and errors with their positions, the round trip
 * read -> write -> read over every file in tests/data, and the defects found with real files. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/notation.h"
#include "schach/pgn.h"
#include "schach/schach.h"

#include "pgn_test_helpers.h"

static int setup(void **state) {
    (void)state;
    return 0;
}

/* Reads the one game of text; rc is sch_pgn_read_game's. */
static int read_one(const char *text, SchPgnGame *g, SchError *err) {
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, strlen(text), err);
    assert_non_null(r);
    int rc = sch_pgn_read_game(r, g, err);
    assert_int_not_equal(rc, 0);
    sch_pgn_reader_close(r);
    return rc;
}

static void read_ok(const char *text, SchPgnGame *g) {
    SchError err;
    if (read_one(text, g, &err) != 1)
        fail_msg("error %d at %d:%d '%s' '%s' in \"%s\"", err.code, err.line, err.column, err.args[0], err.args[1],
                 text);
}

/* The movetext of g as written (the part after the tag section), in a static buffer. */
static const char *movetext(const SchPgnGame *g, SchLang lang) {
    static char buf[8192];
    char *text = pgn_text(g, lang);
    const char *body = strstr(text, "\n\n");
    assert_non_null(body);
    snprintf(buf, sizeof buf, "%s", body + 2);
    free(text);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    return buf;
}

/* Written in lang and read again, g gives the same tree, record and result. */
static void assert_round_trip(const SchPgnGame *g, SchLang lang) {
    char *text = pgn_text(g, lang);
    SchPgnGame copy;
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, strlen(text), &err);
    assert_non_null(r);
    int rc = sch_pgn_read_game(r, &copy, &err);
    if (rc != 1)
        fail_msg("own output read with error %d at %d:%d '%s':\n%s", err.code, err.line, err.column, err.args[0], text);
    if (!sch_pgn_tree_equal(sch_pgn_root(g), sch_pgn_root(&copy)))
        fail_msg("tree differs after the round trip:\n%s", text);
    assert_int_equal(copy.game.ply_count, g->game.ply_count);
    for (int i = 0; i < g->game.ply_count; i++)
        assert_int_equal(copy.game.plies[i].move, g->game.plies[i].move);
    assert_int_equal(copy.result, sch_game_over(&g->game) ? g->game.outcome.result : g->result);
    /* The second writing is the first, byte for byte. */
    char *again = pgn_text(&copy, lang);
    assert_string_equal(again, text);
    free(again);
    sch_pgn_game_free(&copy);
    sch_pgn_reader_close(r);
    free(text);
}

static void assert_error_at(const char *text, int code, int line, int column) {
    SchPgnGame g;
    SchError err;
    assert_int_equal(read_one(text, &g, &err), -1);
    if (err.code != code || err.line != line || err.column != column)
        fail_msg("expected error %d at %d:%d, got %d at %d:%d '%s' in \"%s\"", code, line, column, err.code, err.line,
                 err.column, err.args[0], text);
    char msg[256];
    assert_true(sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg) > 0);
    assert_true(sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg) > 0);
    /* What was read up to the error still writes and reads back. */
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
}

static SchMove uci(const SchPgnGame *g, const SchPgnNode *after, const char *text) {
    SchPosition pos;
    assert_true(sch_pgn_node_position(g, after, &pos));
    SchMove m = sch_uci_parse(&pos, text, NULL);
    assert_int_not_equal(m, SCH_MOVE_NONE);
    return m;
}

static char *repeat(const char *head, const char *unit, int n, const char *tail);

/* ------------------------------------------------------------------------------ the tree */

static void test_variations(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *", &g);
    const SchPgnNode *root = sch_pgn_root(&g);
    assert_non_null(root);
    assert_int_equal(root->move, SCH_MOVE_NONE);
    const SchPgnNode *e4 = root->main, *e5 = e4->main;
    assert_int_equal(e4->move, uci(&g, root, "e2e4"));
    assert_int_equal(e5->move, uci(&g, e4, "e7e5"));
    assert_null(e4->next);
    /* Variations to e5 are its siblings, in file order; each starts from the position before e5. */
    const SchPgnNode *c5 = e5->next, *e6 = c5->next;
    assert_int_equal(c5->move, uci(&g, e4, "c7c5"));
    assert_int_equal(e6->move, uci(&g, e4, "e7e6"));
    assert_null(e6->next);
    assert_ptr_equal(c5->parent, e4);
    const SchPgnNode *nf3 = c5->main, *c3 = nf3->next;
    assert_int_equal(c3->move, uci(&g, c5, "c2c3"));
    assert_int_equal(c3->main->move, uci(&g, c3, "d7d5"));
    assert_int_equal(nf3->main->move, uci(&g, nf3, "d7d6"));
    assert_int_equal(sch_pgn_node_count(&g), 9);
    assert_int_equal(sch_pgn_node_ply(c3->main), 4);
    /* The record is the main line. */
    assert_int_equal(g.game.ply_count, 3);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *");
    assert_round_trip(&g, SCH_LANG_EN);
    assert_round_trip(&g, SCH_LANG_DE);
    sch_pgn_game_free(&g);
}

/* An empty variation "()" is kept (it was dropped when written): as a count on the move it would
 * replace, written after that move's other variations. */
static void test_empty_variations(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 e5 () 2. Nf3 (2. Nc3) () Nc6 *", &g);
    const SchPgnNode *e5 = sch_pgn_root(&g)->main->main;
    assert_int_equal(e5->empty_variations, 1);
    assert_null(e5->next);
    assert_int_equal(e5->main->empty_variations, 1);
    assert_int_equal(sch_pgn_node_count(&g), 5);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 e5 () 2. Nf3 (2. Nc3) () 2... Nc6 *");
    assert_round_trip(&g, SCH_LANG_EN);
    assert_round_trip(&g, SCH_LANG_DE);
    sch_pgn_game_free(&g);

    /* In a variation, after its first move and later; one before the first move of a variation
     * replaces the same move as that variation; a comment inside is dropped with it. */
    read_ok("1. e4 e5 (1... c5 () 2. Nf3 () ({x}) 2... d6) (() 1... e6) *", &g);
    e5 = sch_pgn_root(&g)->main->main;
    assert_int_equal(e5->empty_variations, 1);
    assert_int_equal(e5->next->empty_variations, 1);
    assert_int_equal(e5->next->main->empty_variations, 2);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 e5 (1... c5 () 2. Nf3 () () 2... d6) (1... e6) () *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);

    /* Built by hand, and unequal trees. */
    SchPgnGame h;
    read_ok("1. e4 e5 *", &h);
    read_ok("1. e4 e5 () *", &g);
    assert_false(sch_pgn_tree_equal(sch_pgn_root(&g), sch_pgn_root(&h)));
    sch_pgn_root(&h)->main->main->empty_variations = 1;
    assert_true(sch_pgn_tree_equal(sch_pgn_root(&g), sch_pgn_root(&h)));
    sch_pgn_game_free(&g);
    sch_pgn_game_free(&h);

    /* At most SCH_PGN_MAX_EMPTY to one move. */
    char *text = repeat("1. e4 ", "() ", SCH_PGN_MAX_EMPTY, "*");
    read_ok(text, &g);
    assert_int_equal(sch_pgn_root(&g)->main->empty_variations, SCH_PGN_MAX_EMPTY);
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
    free(text);
    text = repeat("1. e4 ", "() ", SCH_PGN_MAX_EMPTY + 1, "*");
    assert_error_at(text, SCH_PGN_ERR_LIMIT, 1, 7 + 3 * SCH_PGN_MAX_EMPTY + 1);
    free(text);
}

static void test_variation_legality(void **state) {
    (void)state;
    /* A variation replaces the move it follows: it starts before that move. */
    assert_error_at("1. e4 e5 (1... e4) *", SCH_PGN_ERR_MOVE, 1, 16);
    /* Continuing from after the move is not a variation of it. */
    assert_error_at("1. e4 e5 (2. Nf3) *", SCH_PGN_ERR_MOVE, 1, 14);
    /* Deep inside, checked just as well. */
    assert_error_at("1. e4 e5 2. Nf3 (2. Bc4 Nf6 (2... Bc5 3. Qh5 (3. Qxf7)))", SCH_PGN_ERR_MOVE, 1, 50);
    /* A variation before any move, and unbalanced ones. */
    assert_error_at("(1. d4) 1. e4 *", SCH_PGN_ERR_VARIATION, 1, 1);
    assert_error_at("1. e4 (1. d4 *", SCH_PGN_ERR_VARIATION, 1, 7);
    assert_error_at("1. e4 e5) *", SCH_PGN_ERR_VARIATION, 1, 9);
}

static void test_nags(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $0 $255 $14 {c} $32 *", &g);
    const SchPgnNode *n = sch_pgn_root(&g)->main;
    for (int want = 1; want <= 6; want++, n = n->main) {
        assert_int_equal(n->nag_count, 1);
        assert_int_equal(n->nags[0], want);
    }
    assert_int_equal(n->nag_count, 4);
    assert_int_equal(n->nags[0], 0);
    assert_int_equal(n->nags[1], 255);
    assert_int_equal(n->nags[3], 32);
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $0 $255 $14 $32 {c} *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
    assert_error_at("1. e4 $256 *", SCH_PGN_ERR_NAG, 1, 7);
}

static void test_comments_everywhere(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("{start} 1. e4 {after e4} e5 ({before c5} 1... c5 {after c5}) {before Nf3} 2. Nf3 ; to the end\n"
            "Nc6 ({a} {b} 2... d6) {end} *",
            &g);
    const SchPgnNode *root = sch_pgn_root(&g), *e4 = root->main, *e5 = e4->main, *c5 = e5->next, *nf3 = e5->main;
    assert_string_equal(root->comment, "start");
    assert_string_equal(sch_pgn_comment(&g, 0), "start");
    assert_string_equal(e4->comment, "after e4");
    assert_string_equal(sch_pgn_comment(&g, 1), "after e4");
    assert_string_equal(c5->comment_before, "before c5");
    assert_string_equal(c5->comment, "after c5");
    assert_string_equal(nf3->comment_before, "before Nf3");
    assert_string_equal(nf3->comment, "to the end");
    const SchPgnNode *nc6 = nf3->main, *d6 = nc6->next;
    assert_string_equal(d6->comment_before, "a b");
    /* A comment after a variation at the end of the game follows the last move. */
    assert_string_equal(nc6->comment, "end");
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "{start} 1. e4 {after e4} 1... e5 ({before c5} 1... c5 {after c5}) {before Nf3}\n"
                        "2. Nf3 {to the end} 2... Nc6 {end} ({a b} 2... d6) *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);

    /* A game with nothing but a comment. */
    read_ok("{only a comment} 1-0", &g);
    assert_string_equal(sch_pgn_comment(&g, 0), "only a comment");
    assert_int_equal(g.result, SCH_RESULT_WHITE_WINS);
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
}

static void test_clock_and_eval(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 {[%clk 1:30:00] [%eval 0.25]} e5 {[%clk 0:00:59.9]} 2. Nf3 {[%eval #-3]} Nc6 "
            "{[%eval -1.5,22] [%clk 0:01:02]} 3. Bb5 {[%clk 0:10:00] a good move [%eval 0.30]} a6 {[%csl Ga6]} *",
            &g);
    const SchPgnNode *n = sch_pgn_root(&g)->main;
    assert_int_equal(n->clock_ms, 5400000);
    assert_true(n->has_eval && !n->eval_mate);
    assert_int_equal(n->eval, 25);
    assert_null(n->comment); /* nothing else in it */
    n = n->main;
    assert_int_equal(n->clock_ms, 59900);
    assert_false(n->has_eval);
    n = n->main;
    assert_true(n->has_eval && n->eval_mate);
    assert_int_equal(n->eval, -3);
    assert_int_equal(n->clock_ms, SCH_PGN_NO_CLOCK);
    n = n->main;
    assert_int_equal(n->eval, -150);
    assert_int_equal(n->eval_depth, 22);
    assert_int_equal(n->clock_ms, 62000);
    n = n->main;
    /* With other text the commands are read and the text keeps only the rest. */
    assert_int_equal(n->clock_ms, 600000);
    assert_int_equal(n->eval, 30);
    assert_string_equal(n->comment, "a good move");
    assert_null(n->commands);
    n = n->main;
    assert_int_equal(n->clock_ms, SCH_PGN_NO_CLOCK);
    assert_null(n->comment);
    assert_string_equal(n->commands, "[%csl Ga6]");
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "1. e4 {[%clk 1:30:00] [%eval 0.25]} 1... e5 {[%clk 0:00:59.9]} 2. Nf3\n"
                        "{[%eval #-3]} 2... Nc6 {[%clk 0:01:02] [%eval -1.50,22]} 3. Bb5\n"
                        "{[%clk 0:10:00] [%eval 0.30] a good move} 3... a6 {[%csl Ga6]} *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);

    /* Malformed commands, and a second [%clk], are kept verbatim with the other commands. */
    read_ok("1. e4 {[%clk 1:75:00]} e5 {[%eval x] text} 2. Nf3 {[%clk 0:01:00] [%clk 0:02:00]} *", &g);
    n = sch_pgn_root(&g)->main;
    assert_int_equal(n->clock_ms, SCH_PGN_NO_CLOCK);
    assert_null(n->comment);
    assert_string_equal(n->commands, "[%clk 1:75:00]");
    assert_false(n->main->has_eval);
    assert_string_equal(n->main->commands, "[%eval x]");
    assert_string_equal(n->main->comment, "text");
    assert_int_equal(n->main->main->clock_ms, 60000);
    assert_string_equal(n->main->main->commands, "[%clk 0:02:00]");
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "1. e4 {[%clk 1:75:00]} 1... e5 {[%eval x] text} 2. Nf3\n{[%clk 0:01:00] [%clk 0:02:00]} *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);

    /* The root's comment (before the first move) follows the same rule. */
    read_ok("{[%evp 0,10] start [%clk 1:00:00]} 1. e4 *", &g);
    const SchPgnNode *root = sch_pgn_root(&g);
    assert_string_equal(root->comment, "start");
    assert_string_equal(root->commands, "[%evp 0,10]");
    assert_int_equal(root->clock_ms, 3600000);
    assert_string_equal(sch_pgn_comment(&g, 0), "start");
    assert_string_equal(movetext(&g, SCH_LANG_EN), "{[%clk 1:00:00] [%evp 0,10] start} 1. e4 *");
    char commands[128];
    sch_pgn_node_commands(root, commands, sizeof commands);
    assert_string_equal(commands, "[%clk 1:00:00] [%evp 0,10]");
    sch_pgn_node_commands(root, commands, 10);
    assert_string_equal(commands, "[%clk 1:0");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);

    /* Set by the caller: the text's commands are taken out of it just so. */
    sch_pgn_game_init(&g);
    SchPgnNode *top = sch_pgn_tree_root(&g);
    assert_non_null(top);
    assert_true(sch_pgn_node_set_comment(top, false, "see [%cal Ge2e4]\nhere [%eval -0.5] [%clk 0:00:09]"));
    assert_string_equal(top->comment, "see here");
    assert_string_equal(top->commands, "[%cal Ge2e4]");
    assert_int_equal(top->eval, -50);
    assert_int_equal(top->clock_ms, 9000);
    assert_true(sch_pgn_node_set_comment(top, false, "[%clk 0:00:08] plain"));
    assert_int_equal(top->clock_ms, 8000);
    assert_int_equal(top->eval, -50);
    assert_string_equal(top->commands, "[%cal Ge2e4]");
    assert_string_equal(top->comment, "plain");
    assert_true(sch_pgn_node_set_comment(top, false, NULL));
    assert_null(top->comment);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "{[%clk 0:00:08] [%eval -0.50] [%cal Ge2e4]} *");
    sch_pgn_game_free(&g);
}

/* A [%clk] or [%eval] glued to the command before it ("[%ts 1][%clk 0:14:46]") is read into its field
 * (it was left in the text). */
static void test_glued_commands(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 {[%ts 1][%clk 0:14:46]} e5 {[%cal Ge2e4][%eval 0.3]} 2. Nf3 {[%clk 0:14:40][%eval #2]} *", &g);
    const SchPgnNode *n = sch_pgn_root(&g)->main;
    assert_int_equal(n->clock_ms, 886000);
    n = n->main;
    assert_true(n->has_eval);
    assert_int_equal(n->eval, 30);
    n = n->main;
    assert_int_equal(n->clock_ms, 880000);
    assert_true(n->has_eval && n->eval_mate);
    assert_int_equal(n->eval, 2);
    assert_null(n->comment);
    assert_null(n->commands);
    assert_string_equal(sch_pgn_root(&g)->main->commands, "[%ts 1]");
    assert_null(sch_pgn_root(&g)->main->comment);
    assert_string_equal(sch_pgn_root(&g)->main->main->commands, "[%cal Ge2e4]");
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "1. e4 {[%clk 0:14:46] [%ts 1]} 1... e5 {[%eval 0.30] [%cal Ge2e4]} 2. Nf3\n"
                        "{[%clk 0:14:40] [%eval #2]} *");
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
}

static void test_null_moves(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 -- 2. d4 Z0 3. Nf3 (3. c4 -- 4. Nc3) 3... -- 4. Bd3 *", &g);
    const SchPgnNode *e4 = sch_pgn_root(&g)->main, *null = e4->main;
    assert_int_equal(null->move, SCH_MOVE_NULL);
    /* The position after a null move: the other side to move, no en passant square, the clocks on. */
    SchPosition pos;
    assert_true(sch_pgn_node_position(&g, null, &pos));
    char fen[SCH_FEN_MAX];
    sch_fen_write(&pos, fen, sizeof fen);
    assert_string_equal(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    /* The record holds the null moves of the main line too. */
    assert_int_equal(g.game.ply_count, 7);
    assert_int_equal(g.game.plies[3].move, SCH_MOVE_NULL);
    assert_int_equal(sch_pgn_node_count(&g), 10);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 -- 2. d4 -- 3. Nf3 (3. c4 -- 4. Nc3) 3... -- 4. Bd3 *");
    assert_round_trip(&g, SCH_LANG_EN);
    assert_round_trip(&g, SCH_LANG_DE);
    sch_pgn_game_free(&g);
    /* A move that the null move made illegal, and a null move in check. */
    assert_error_at("1. e4 -- 2. e5 e5 *", SCH_PGN_ERR_MOVE, 1, 16);
    assert_error_at("1. e4 f5 2. Qh5+ -- *", SCH_PGN_ERR_MOVE, 1, 18);
}

struct Walked {
    int moves, max_depth;
    char san[512];
};

static bool visit(const SchPgnNode *n, const SchPosition *before, int depth, void *ctx) {
    struct Walked *w = ctx;
    char san[SCH_MOVE_TEXT_MAX];
    if (n->move == SCH_MOVE_NULL)
        snprintf(san, sizeof san, "--");
    else
        sch_san_write(before, n->move, SCH_LANG_EN, san, sizeof san);
    size_t len = strlen(w->san);
    snprintf(w->san + len, sizeof w->san - len, "%s%s/%d", len ? " " : "", san, depth);
    w->moves++;
    if (depth > w->max_depth)
        w->max_depth = depth;
    return true;
}

static bool stop_at_third(const SchPgnNode *n, const SchPosition *before, int depth, void *ctx) {
    (void)n, (void)before, (void)depth;
    return ++*(int *)ctx < 3;
}

static void test_walk_and_build(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *", &g);
    struct Walked w = {0};
    assert_true(sch_pgn_walk(&g, visit, &w));
    assert_int_equal(w.moves, sch_pgn_node_count(&g));
    assert_int_equal(w.max_depth, 2);
    assert_string_equal(w.san, "e4/0 e5/0 c5/1 Nf3/1 c3/2 Nf3/0");
    int seen = 0;
    assert_false(sch_pgn_walk(&g, stop_at_third, &seen));
    assert_int_equal(seen, 3);
    sch_pgn_game_free(&g);

    /* Building a tree by hand: moves are checked, then written like read ones. */
    sch_pgn_game_init(&g);
    SchPgnNode *root = sch_pgn_tree_root(&g);
    assert_non_null(root);
    SchError err;
    SchPgnNode *d4 = sch_pgn_node_add(&g, root, uci(&g, root, "d2d4"), &err);
    assert_non_null(d4);
    assert_non_null(sch_pgn_node_add(&g, root, uci(&g, root, "c2c4"), &err));
    assert_null(sch_pgn_node_add(&g, d4, sch_move_make(SCH_SQ_D4, SCH_SQ_D5), &err));
    assert_int_equal(err.code, SCH_GAME_ERR_ILLEGAL);
    SchPgnNode *nf6 = sch_pgn_node_add(&g, d4, uci(&g, d4, "g8f6"), &err);
    assert_true(sch_pgn_node_add_nag(nf6, 10));
    assert_false(sch_pgn_node_add_nag(nf6, 256));
    assert_true(sch_pgn_node_set_comment(nf6, false, "Indian"));
    assert_true(sch_pgn_node_set_comment(d4, true, "ignored\nbreaks"));
    nf6->clock_ms = 61500;
    assert_string_equal(movetext(&g, SCH_LANG_EN),
                        "{ignored breaks} 1. d4 (1. c4) 1... Nf6 $10 {[%clk 0:01:01.5] Indian} *");
    sch_pgn_game_free(&g);
}

static void test_game_record_after_reading(void **state) {
    (void)state;
    /* A game read and then played on (schach play loads games so): the tree as far as the record
     * agrees, then the record's moves; taking moves back drops what hangs on them. */
    SchPgnGame g;
    read_ok("1. e4 {a} e5 (1... c5) 2. Nf3 {b} *", &g);
    SchError err;
    assert_true(sch_game_play(&g.game, uci(&g, sch_pgn_root(&g)->main->main->main, "b8c6"), &err));
    assert_true(sch_pgn_set_comment(&g, 4, "played later"));
    assert_string_equal(sch_pgn_comment(&g, 3), "b");
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 {a} 1... e5 (1... c5) 2. Nf3 {b} 2... Nc6 {played later} *");
    assert_true(sch_game_undo(&g.game));
    assert_true(sch_game_undo(&g.game));
    assert_true(sch_game_undo(&g.game));
    sch_pgn_trim_comments(&g);
    assert_int_equal(sch_pgn_node_count(&g), 1);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 {a} *");
    sch_pgn_game_free(&g);
}

/* ------------------------------------------------------------------------------ limits */

static char *repeat(const char *head, const char *unit, int n, const char *tail) {
    size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(tail) + 1;
    char *s = malloc(len);
    assert_non_null(s);
    /* Each piece copied at the end so far: strcat's scan from the start made the 100,000 units of the
     * limits' test quadratic (36 s of make test's ASan stage). */
    size_t at = 0, unit_len = strlen(unit);
    memcpy(s, head, strlen(head));
    at += strlen(head);
    for (int i = 0; i < n; i++, at += unit_len)
        memcpy(s + at, unit, unit_len);
    memcpy(s + at, tail, strlen(tail) + 1);
    return s;
}

static void test_limits(void **state) {
    (void)state;
    /* Nesting: SCH_PGN_MAX_DEPTH variations inside each other read, one more is an error at its '('. */
    char *deep = repeat("1. e4 ", "(1. d4 ", SCH_PGN_MAX_DEPTH, "");
    char *text = repeat(deep, ")", SCH_PGN_MAX_DEPTH, " *");
    SchPgnGame g;
    read_ok(text, &g);
    assert_int_equal(sch_pgn_node_count(&g), SCH_PGN_MAX_DEPTH + 1);
    assert_round_trip(&g, SCH_LANG_EN);
    sch_pgn_game_free(&g);
    free(text);
    free(deep);
    deep = repeat("1. e4 ", "(1. d4 ", SCH_PGN_MAX_DEPTH + 1, "");
    text = repeat(deep, ")", SCH_PGN_MAX_DEPTH + 1, " *");
    SchError err;
    assert_int_equal(read_one(text, &g, &err), -1);
    assert_int_equal(err.code, SCH_PGN_ERR_LIMIT);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 7 + 7 * SCH_PGN_MAX_DEPTH);
    char msg[256];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "too many nested variations (at most 64)");
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "zu viele verschachtelte Varianten (höchstens 64)");
    sch_pgn_game_free(&g);
    free(text);
    free(deep);

    /* Moves: as many variations to the first move as it takes. */
    text = repeat("1. e4 ", "(1. d4) ", SCH_PGN_MAX_NODES, "*");
    assert_int_equal(read_one(text, &g, &err), -1);
    assert_int_equal(err.code, SCH_PGN_ERR_LIMIT);
    assert_int_equal(sch_pgn_node_count(&g), SCH_PGN_MAX_NODES);
    assert_int_equal(err.column, 11 + 8 * (SCH_PGN_MAX_NODES - 1));
    sch_pgn_game_free(&g);
    free(text);

    /* The limit reached by a main-line move: the record stops where the tree does (it held the move
     * the tree refused). */
    text = repeat("1. e4 ", "(1. d4) ", SCH_PGN_MAX_NODES - 1, "e5 *");
    assert_int_equal(read_one(text, &g, &err), -1);
    assert_int_equal(err.code, SCH_PGN_ERR_LIMIT);
    assert_int_equal(sch_pgn_node_count(&g), SCH_PGN_MAX_NODES);
    assert_int_equal(g.game.ply_count, 1);
    assert_int_equal(sch_pos_turn(&g.game.pos), SCH_BLACK);
    sch_pgn_game_free(&g);
    free(text);

    /* A comment, also one joined from several. */
    text = repeat("1. e4 {", "x", SCH_PGN_MAX_COMMENT, "} *");
    read_ok(text, &g);
    sch_pgn_game_free(&g);
    free(text);
    text = repeat("1. e4 {", "x", SCH_PGN_MAX_COMMENT + 1, "} *");
    assert_error_at(text, SCH_PGN_ERR_LIMIT, 1, 7);
    free(text);
    text = repeat("1. e4 {", "x", SCH_PGN_MAX_COMMENT - 2, "} {yy} *");
    assert_error_at(text, SCH_PGN_ERR_LIMIT, 1, 7 + SCH_PGN_MAX_COMMENT - 2 + 3);
    free(text);

    /* NAGs on one move. */
    text = repeat("1. e4", " $1", SCH_PGN_MAX_NAGS, " *");
    read_ok(text, &g);
    sch_pgn_game_free(&g);
    free(text);
    text = repeat("1. e4", " $1", SCH_PGN_MAX_NAGS + 1, " *");
    assert_error_at(text, SCH_PGN_ERR_LIMIT, 1, 6 + 3 * SCH_PGN_MAX_NAGS + 1);
    free(text);
}

/* ------------------------------------------------------------------------------ the defects */

static void test_defect_result_tag_contradicts_marker(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("[Result \"1-0\"]\n\n1. e4 e5 0-1\n", &g);
    assert_int_equal(g.game.ply_count, 2);
    assert_int_equal(g.result, SCH_RESULT_BLACK_WINS);
    assert_int_equal(g.warning.code, SCH_PGN_WARN_RESULT);
    assert_int_equal(g.warning.line, 3);
    assert_int_equal(g.warning.column, 10);
    char msg[256];
    sch_err_format(&g.warning, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "the Result tag '1-0' contradicts the result '0-1' after the moves, which counts");
    char *text = pgn_text(&g, SCH_LANG_EN);
    assert_non_null(strstr(text, "[Result \"0-1\"]"));
    free(text);
    sch_pgn_game_free(&g);
}

static void test_defect_no_marker_keeps_result(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6\n", &g);
    assert_int_equal(g.result, SCH_RESULT_WHITE_WINS);
    assert_int_equal(g.warning.code, SCH_ERR_NONE);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 1-0");
    sch_pgn_game_free(&g);
}

static void test_defect_check_sign_apart(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 # 1-0", &g);
    assert_int_equal(g.game.outcome.termination, SCH_TERM_CHECKMATE);
    sch_pgn_game_free(&g);
    read_ok("1. e4 f5 2. Qh5 + g6 *", &g);
    assert_int_equal(g.game.ply_count, 4);
    sch_pgn_game_free(&g);
}

static void test_half_point_marker(void **state) {
    (void)state;
    SchPgnGame g;
    read_ok("[Result \"\xC2\xBD-\xC2\xBD\"]\n\n1. Nf3 Nf6 \xC2\xBD-\xC2\xBD", &g);
    assert_int_equal(g.result, SCH_RESULT_DRAW);
    assert_int_equal(g.warning.code, SCH_ERR_NONE);
    assert_string_equal(movetext(&g, SCH_LANG_EN), "1. Nf3 Nf6 1/2-1/2");
    sch_pgn_game_free(&g);
}

/* ------------------------------------------------------------------------------ round trip */

static void round_trip_file(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    fclose(f);
    assert_non_null(r);
    SchPgnGame g;
    int rc, games = 0;
    while ((rc = sch_pgn_read_game(r, &g, &err)) != 0) {
        assert_round_trip(&g, SCH_LANG_EN);
        assert_round_trip(&g, SCH_LANG_DE);
        sch_pgn_game_free(&g);
        games++;
    }
    sch_pgn_reader_close(r);
}

static void test_round_trip_data(void **state) {
    (void)state;
    DIR *dir = opendir(SCHACH_TEST_DATA);
    assert_non_null(dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".pgn") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SCHACH_TEST_DATA, e->d_name);
        round_trip_file(path);
        files++;
    }
    closedir(dir);
    assert_true(files >= 9);
}

static void test_tree_file(void **state) {
    (void)state;
    FILE *f = fopen(SCHACH_TEST_DATA "/pgn_tree.pgn", "rb");
    assert_non_null(f);
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    fclose(f);
    SchPgnGame g;
    assert_int_equal(sch_pgn_read_game(r, &g, &err), 1);
    assert_int_equal(sch_pgn_node_count(&g), 36);
    assert_int_equal(g.game.ply_count, 13); /* null moves included */
    struct Walked w = {0};
    sch_pgn_walk(&g, visit, &w);
    assert_int_equal(w.max_depth, 3);
    sch_pgn_game_free(&g);
    for (int i = 2; i <= 7; i++) {
        assert_int_equal(sch_pgn_read_game(r, &g, &err), 1);
        sch_pgn_game_free(&g);
    }
    assert_int_equal(sch_pgn_read_game(r, &g, &err), 0);
    sch_pgn_reader_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variations),
        cmocka_unit_test(test_empty_variations),
        cmocka_unit_test(test_variation_legality),
        cmocka_unit_test(test_nags),
        cmocka_unit_test(test_comments_everywhere),
        cmocka_unit_test(test_clock_and_eval),
        cmocka_unit_test(test_glued_commands),
        cmocka_unit_test(test_null_moves),
        cmocka_unit_test(test_walk_and_build),
        cmocka_unit_test(test_game_record_after_reading),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_defect_result_tag_contradicts_marker),
        cmocka_unit_test(test_defect_no_marker_keeps_result),
        cmocka_unit_test(test_defect_check_sign_apart),
        cmocka_unit_test(test_half_point_marker),
        cmocka_unit_test(test_round_trip_data),
        cmocka_unit_test(test_tree_file),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
