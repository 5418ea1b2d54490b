/* libFuzzer harness for PGN: arbitrary bytes, in a buffer of exactly their size (no NUL after them),
 * are read as a PGN file. Every game (also one that stopped at an error) must have a record that
 * agrees with the tree's main line move for move (null moves included), and is written in English and
 * in German to a string (sch_pgn_write_string) and read again: the copy must read without error and
 * have the same start, moves, comments, result and tree (variations, empty variations, NAGs, comments
 * before and after moves, clk/eval and the other commands, null moves), and writing the copy to a
 * FILE must give the same text again. The walk API must visit every node of the tree. Errors must
 * carry a game number, a position and messages in both languages. Build with -DSCHACH_FUZZ=ON
 * (clang); see fuzz/CMakeLists.txt. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "schach/bitboard.h"
#include "schach/error.h"
#include "schach/fen.h"
#include "schach/pgn.h"
#include "schach/schach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Enough for a few games with tags, comments and variations; longer inputs only repeat. */
#define INPUT_MAX 4096

static void check_error(const SchError *err, const SchPgnGame *g) {
    char msg[512];
    CHECK(err->code != SCH_ERR_NONE, "game %d failed without an error code", g->number);
    CHECK(err->game == g->number, "error names game %d, read game %d", err->game, g->number);
    CHECK(err->code == SCH_ERR_OUT_OF_MEMORY || (err->line >= 1 && err->column >= 1),
          "error %d without a position (%d:%d)", err->code, err->line, err->column);
    for (int lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++)
        CHECK(sch_err_format(err, (SchLang)lang, msg, sizeof msg) > 0, "empty message for code %d", err->code);
}

/* The record is the tree's main line (a game read has both, up to an error too). */
static void check_record(const SchPgnGame *g) {
    const SchPgnNode *n = sch_pgn_root(g);
    CHECK(n != NULL, "a game read without a tree");
    int k = 0;
    for (n = n->main; n; n = n->main, k++)
        CHECK(k < g->game.ply_count && g->game.plies[k].move == n->move, "record and tree differ at ply %d", k);
    CHECK(k == g->game.ply_count, "the record has %d plies, the tree's main line %d", g->game.ply_count, k);
}

static void check_round_trip(const SchPgnGame *g, SchLang lang) {
    size_t len = 0;
    char *text = sch_pgn_write_string(g, lang, &len);
    CHECK(text != NULL && strlen(text) == len, "pgn_write_string failed");

    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, len, &err);
    CHECK(r != NULL, "reader");
    SchPgnGame copy;
    int rc = sch_pgn_read_game(r, &copy, &err);
    CHECK(rc == 1, "own output (lang %d) read with rc %d, error %d at %d:%d '%s':\n%s", lang, rc, err.code, err.line,
          err.column, err.args[0], text);
    CHECK(copy.game.ply_count == g->game.ply_count, "%d plies, re-read %d:\n%s", g->game.ply_count, copy.game.ply_count,
          text);
    for (int i = 0; i < g->game.ply_count; i++)
        CHECK(copy.game.plies[i].move == g->game.plies[i].move, "ply %d differs:\n%s", i, text);
    for (int k = 0; k <= g->game.ply_count; k++) {
        const char *was = sch_pgn_comment(g, k), *is = sch_pgn_comment(&copy, k);
        CHECK((was == NULL) == (is == NULL) && (!was || strcmp(was, is) == 0),
              "comment after ply %d: '%s', re-read '%s'", k, was ? was : "(none)", is ? is : "(none)");
    }
    char a[SCH_FEN_MAX], b[SCH_FEN_MAX];
    sch_fen_write(&g->game.start, a, sizeof a);
    sch_fen_write(&copy.game.start, b, sizeof b);
    CHECK(strcmp(a, b) == 0, "start %s, re-read %s", a, b);
    SchResult want = sch_game_over(&g->game) ? g->game.outcome.result : g->result;
    CHECK(copy.result == want, "result %d, re-read %d:\n%s", want, copy.result, text);
    CHECK(copy.game.outcome.termination == g->game.outcome.termination ||
              g->game.outcome.termination > SCH_TERM_SEVENTYFIVE_MOVES, /* claims and decisions are not in the moves */
          "termination %d, re-read %d", g->game.outcome.termination, copy.game.outcome.termination);
    CHECK(sch_pgn_tree_equal(sch_pgn_root(g), sch_pgn_root(&copy)), "tree differs after the round trip:\n%s", text);
    CHECK(sch_pgn_node_count(&copy) == sch_pgn_node_count(g), "%d nodes, re-read %d", sch_pgn_node_count(g),
          sch_pgn_node_count(&copy));
    char *again = NULL;
    size_t again_len = 0;
    FILE *f = open_memstream(&again, &again_len);
    CHECK(f != NULL && sch_pgn_write(f, &copy, lang), "pgn_write of the copy failed");
    fclose(f);
    CHECK(again_len == len && memcmp(again, text, len) == 0, "second writing differs:\n%s\n----\n%s", text, again);
    free(again);
    SchPgnGame extra;
    CHECK(sch_pgn_read_game(r, &extra, &err) == 0, "more than one game in own output:\n%s", text);
    sch_pgn_game_free(&copy);
    sch_pgn_reader_close(r);
    sch_free(text);
}

static bool count_node(const SchPgnNode *n, const SchPosition *before, int depth, void *ctx) {
    CHECK(n->move != SCH_MOVE_NONE && depth >= 0 && depth <= SCH_PGN_MAX_DEPTH, "walk: node without a move or depth %d",
          depth);
    CHECK(before != NULL, "walk: no position");
    ++*(int *)ctx;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INPUT_MAX)
        return 0;
    char *text = malloc(size ? size : 1); /* no NUL after the text: the reader must not need one */
    if (!text)
        return 0;
    memcpy(text, data, size);

    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, size, &err);
    CHECK(r != NULL, "reader");
    SchPgnGame g;
    int rc, number = 0;
    while ((rc = sch_pgn_read_game(r, &g, &err)) != 0) {
        CHECK(g.number == ++number, "game number %d, expected %d", g.number, number);
        if (rc < 0)
            check_error(&err, &g);
        else
            CHECK(rc == 1 && err.code == SCH_ERR_NONE, "rc %d with error %d", rc, err.code);
        check_record(&g);
        int walked = 0;
        CHECK(sch_pgn_walk(&g, count_node, &walked) && walked == sch_pgn_node_count(&g), "walk visited %d of %d nodes",
              walked, sch_pgn_node_count(&g));
        check_round_trip(&g, SCH_LANG_EN);
        check_round_trip(&g, SCH_LANG_DE);
        sch_pgn_game_free(&g);
    }
    sch_pgn_reader_close(r);
    free(text);
    return 0;
}
