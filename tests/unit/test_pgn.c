/* PGN: tolerant reading (annotations, variations, German letters, FEN starts, errors that name game,
 * line, column and token and let the next game be read), the export format, and round trips. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/pgn.h"
#include "schach/schach.h"

#include "pgn_test_helpers.h"
#include "util/error_internal.h"

#define MAX_GAMES 16

/* Every game of a file as the reader returned it, with the return code and error of each. */
typedef struct GameList {
    int count;
    SchPgnGame games[MAX_GAMES];
    int rc[MAX_GAMES];
    SchError err[MAX_GAMES];
} GameList;

static int setup(void **state) {
    (void)state;
    return 0;
}

static void read_all(SchPgnReader *r, GameList *list) {
    list->count = 0;
    for (;;) {
        assert_true(list->count < MAX_GAMES);
        int i = list->count;
        int rc = sch_pgn_read_game(r, &list->games[i], &list->err[i]);
        if (rc == 0)
            break;
        list->rc[i] = rc;
        list->count++;
    }
    /* At the end the reader stays at the end. */
    SchPgnGame extra;
    assert_int_equal(sch_pgn_read_game(r, &extra, NULL), 0);
    sch_pgn_reader_close(r);
}

static void read_text(const char *text, GameList *list) {
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, strlen(text), &err);
    assert_non_null(r);
    read_all(r, list);
}

static void read_path(const char *path, GameList *list) {
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    fclose(f);
    assert_non_null(r);
    read_all(r, list);
}

static void free_all(GameList *list) {
    for (int i = 0; i < list->count; i++)
        sch_pgn_game_free(&list->games[i]);
    list->count = 0;
}

/* The moves of a game in UCI form, space separated. */
static void uci_moves(const SchGame *g, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->ply_count; i++) {
        SchMove m = g->plies[i].move;
        char from[3], to[3];
        sch_square_name(sch_move_from(m), from);
        sch_square_name(sch_move_to(m), to);
        const char *promo = "";
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION)
            promo = (const char *[]){"n", "b", "r", "q"}[sch_move_promotion(m) - SCH_KNIGHT];
        n += (size_t)snprintf(buf + n, size - n, "%s%s%s%s", i ? " " : "", from, to, promo);
        assert_true(n < size);
    }
}

static void assert_moves(const SchPgnGame *g, const char *want) {
    char got[4096];
    uci_moves(&g->game, got, sizeof got);
    assert_string_equal(got, want);
}

static bool same_moves(const SchGame *a, const SchGame *b) {
    if (a->ply_count != b->ply_count)
        return false;
    for (int i = 0; i < a->ply_count; i++)
        if (a->plies[i].move != b->plies[i].move)
            return false;
    return true;
}

static void assert_error(const GameList *list, int i, int code, int line, int column, const char *token) {
    assert_int_equal(list->rc[i], -1);
    assert_int_equal(list->err[i].code, code);
    assert_int_equal(list->err[i].game, i + 1);
    assert_int_equal(list->games[i].number, i + 1);
    assert_int_equal(list->err[i].line, line);
    if (column >= 0)
        assert_int_equal(list->err[i].column, column);
    if (token)
        assert_string_equal(list->err[i].args[0], token);
}

/* Writes every game of list into one text (caller frees). */
static char *write_all(const GameList *list, SchLang lang) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    for (int i = 0; i < list->count; i++)
        assert_true(sch_pgn_write(f, &list->games[i], lang));
    fclose(f);
    /* A copy, so callers never hold the buffer whose address open_memstream kept: gcc 12 would
     * otherwise report their pointers into it as dangling. */
    char *copy = strdup(text);
    free(text);
    assert_non_null(copy);
    return copy;
}

static void assert_lines_fit(const char *text) {
    int line = 1;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        assert_non_null(end); /* every line ends with a newline */
        if (end - p > 80)
            fail_msg("line %d has %d characters", line, (int)(end - p));
        p = end + 1;
        line++;
    }
}

/* read -> write -> read keeps moves, tags and results, and writing again gives the same text. */
static void check_round_trip(const GameList *original, SchLang lang) {
    char *text = write_all(original, lang);
    assert_lines_fit(text);
    GameList again;
    read_text(text, &again);
    assert_int_equal(again.count, original->count);
    for (int i = 0; i < again.count; i++) {
        const SchPgnGame *a = &original->games[i], *b = &again.games[i];
        assert_int_equal(again.rc[i], 1);
        assert_true(same_moves(&a->game, &b->game));
        for (int t = 0; t < a->tag_count; t++) {
            const char *name = a->tags[t].name;
            if (strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0 || strcmp(name, "Result") == 0)
                continue; /* regenerated from the game */
            assert_non_null(sch_pgn_tag(b, name));
            assert_string_equal(sch_pgn_tag(b, name), a->tags[t].value);
        }
        SchResult want = sch_game_over(&a->game) ? a->game.outcome.result : a->result;
        assert_int_equal(b->result, want);
        assert_string_equal(sch_pgn_tag(b, "Result"), sch_result_string(want));
        assert_int_equal(b->game.outcome.result, a->game.outcome.result);
        assert_int_equal(b->game.outcome.termination, a->game.outcome.termination);
        for (int k = 0; k <= a->game.ply_count; k++) {
            const char *ca = sch_pgn_comment(a, k), *cb = sch_pgn_comment(b, k);
            assert_true((ca == NULL) == (cb == NULL));
            if (ca)
                assert_string_equal(ca, cb);
        }
        char fa[SCH_FEN_MAX], fb[SCH_FEN_MAX];
        sch_fen_write(&a->game.start, fa, sizeof fa);
        sch_fen_write(&b->game.start, fb, sizeof fb);
        assert_string_equal(fa, fb);
    }
    char *text2 = write_all(&again, lang);
    assert_string_equal(text, text2);
    free(text);
    free(text2);
    free_all(&again);
}

/* ------------------------------------------------------------------------------ the classics */

static void test_classics(void **state) {
    (void)state;
    GameList en, de;
    read_path(SCHACH_TEST_DATA "/classics.pgn", &en);
    read_path(SCHACH_TEST_DATA "/classics-de.pgn", &de);
    assert_int_equal(en.count, 3);
    assert_int_equal(de.count, 3);
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 2; k++) {
            const SchPgnGame *g = k ? &de.games[i] : &en.games[i];
            assert_int_equal(k ? de.rc[i] : en.rc[i], 1);
            assert_int_equal(g->number, i + 1);
            assert_int_equal(g->game.outcome.termination, SCH_TERM_CHECKMATE);
            assert_int_equal(g->game.outcome.result, SCH_RESULT_WHITE_WINS);
            assert_int_equal(g->result, SCH_RESULT_WHITE_WINS);
            assert_string_equal(sch_pgn_tag(g, "Result"), "1-0");
        }
        assert_true(en.games[i].game.ply_count > 30);
        assert_true(same_moves(&en.games[i].game, &de.games[i].game));
        assert_string_equal(sch_pgn_tag(&en.games[i], "White"), sch_pgn_tag(&de.games[i], "White"));
    }
    assert_string_equal(sch_pgn_tag(&en.games[0], "Black"), "Kieseritzky, Lionel");
    assert_int_equal(en.games[0].line, 1);
    assert_int_equal(en.games[1].line, 14);
    free_all(&en);
    free_all(&de);
}

static void test_classics_round_trip(void **state) {
    (void)state;
    const char *files[] = {SCHACH_TEST_DATA "/classics.pgn", SCHACH_TEST_DATA "/classics-de.pgn"};
    for (int f = 0; f < 2; f++) {
        GameList list;
        read_path(files[f], &list);
        check_round_trip(&list, SCH_LANG_EN);
        check_round_trip(&list, SCH_LANG_DE);
        free_all(&list);
    }
}

/* Collapses every run of blanks into one space, so that texts compare without their line breaks. */
static void squeeze(char *s) {
    char *d = s;
    for (const char *p = s; *p; p++) {
        bool blank = *p == ' ' || *p == '\n';
        if (!blank || (d > s && d[-1] != ' '))
            *d++ = blank ? ' ' : *p;
    }
    while (d > s && d[-1] == ' ')
        d--;
    *d = '\0';
}

/* Our export of the classics is the shared file (which follows the export format) token for token,
 * plus a Termination tag; only where lines break may differ. */
static void test_classics_export_text(void **state) {
    (void)state;
    const char *files[] = {SCHACH_TEST_DATA "/classics.pgn", SCHACH_TEST_DATA "/classics-de.pgn"};
    for (int f = 0; f < 2; f++) {
        GameList list;
        read_path(files[f], &list);
        char *text = write_all(&list, f ? SCH_LANG_DE : SCH_LANG_EN);
        FILE *in = fopen(files[f], "rb");
        assert_non_null(in);
        char want[8192];
        size_t n = fread(want, 1, sizeof want - 1, in);
        fclose(in);
        want[n] = '\0';
        /* Termination comes right after the roster; without it the text is the file's. */
        const char *term = "[Result \"1-0\"]\n[Termination \"normal\"]\n";
        int terminations = 0;
        for (char *at = strstr(text, term); at; at = strstr(at, term)) {
            memmove(at + 15, at + strlen(term), strlen(at + strlen(term)) + 1);
            terminations++;
        }
        assert_int_equal(terminations, 3);
        squeeze(text);
        squeeze(want);
        assert_string_equal(text, want);
        free(text);
        free_all(&list);
    }
}

/* ------------------------------------------------------------------------------ our own files */

static void test_annotations(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_annotated.pgn", &list);
    assert_int_equal(list.count, 2);

    const SchPgnGame *g = &list.games[0];
    assert_int_equal(list.rc[0], 1);
    assert_int_equal(g->line, 2); /* the % line before it is not part of the game */
    assert_string_equal(sch_pgn_tag(g, "Event"), "Annotated \"quotes\" and \\ backslash");
    assert_string_equal(sch_pgn_tag(g, "White"), "Müller, Jörg");
    assert_string_equal(sch_pgn_tag(g, "ECO"), "C20");
    assert_int_equal(g->tag_count, 8);
    assert_moves(g, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
    assert_int_equal(g->game.outcome.termination, SCH_TERM_CHECKMATE);
    assert_int_equal(g->result, SCH_RESULT_WHITE_WINS);
    /* Main-line comments stay with the ply they follow; the variation's comment is dropped. */
    assert_string_equal(sch_pgn_comment(g, 0), "An opening comment that spans { lines");
    assert_null(sch_pgn_comment(g, 1));
    assert_string_equal(sch_pgn_comment(g, 2), "a rest-of-line comment with { a brace");
    for (int k = 3; k <= 5; k++)
        assert_null(sch_pgn_comment(g, k));
    assert_string_equal(sch_pgn_comment(g, 6), ";not a comment start");
    assert_null(sch_pgn_comment(g, 7));
    assert_null(sch_pgn_comment(g, 8));
    assert_null(sch_pgn_comment(g, -1));

    /* German letters, a separate "e.p." and 0-0, ending with "*". */
    g = &list.games[1];
    assert_int_equal(list.rc[1], 1);
    assert_moves(g, "e2e4 g8f6 e4e5 d7d5 e5d6 e7d6 g1f3 f8e7 f1c4 e8g8 e1g1 b8c6 f1e1 c8g4 h2h3 d8d7");
    assert_int_equal(sch_move_kind(g->game.plies[4].move), SCH_MOVE_EN_PASSANT);
    assert_int_equal(g->result, SCH_RESULT_NONE);
    assert_false(sch_game_over(&g->game));

    check_round_trip(&list, SCH_LANG_EN);
    check_round_trip(&list, SCH_LANG_DE);
    free_all(&list);
}

static void test_setup(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_setup.pgn", &list);
    assert_int_equal(list.count, 4);

    assert_int_equal(list.rc[0], 1);
    assert_moves(&list.games[0], "a7a8q e8d7 a8b7");
    assert_int_equal(list.rc[1], 1);
    assert_moves(&list.games[1], "e8c8 e1g1 d8d2 a1a8 c8b7 a8a3");
    assert_int_equal(list.games[1].game.start.fullmove, 12);
    assert_int_equal(sch_pos_turn(&list.games[1].game.start), SCH_BLACK);

    /* An invalid FEN: the error points into the FEN tag's value; the game has no moves. */
    assert_error(&list, 2, SCH_PGN_ERR_FEN, 18, -1, NULL);
    assert_true(list.err[2].column >= 7); /* where the FEN value starts, plus where it went wrong */
    assert_int_equal(list.games[2].game.ply_count, 0);
    assert_string_equal(list.err[2].args[2], "8/8/8/8/8/8/8/8 w - - 0 1");
    assert_int_equal(list.rc[3], 1);
    assert_moves(&list.games[3], "d2d4 d7d5");

    /* Written: SetUp and FEN after the roster, and black's first move as "12...". */
    char *text = write_all(&list, SCH_LANG_EN);
    assert_non_null(strstr(text, "[Event \"Black to move first\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                                 "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
                                 "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12\"]\n\n12... O-O-O"));
    assert_non_null(strstr(text, "\n\n12... O-O-O 13. O-O Rd2 14. Ra8+ Kb7 15. Ra3 *\n\n"));
    assert_non_null(strstr(text, "\n\n1. a8=Q+ Kd7 2. Qb7+ *\n\n"));
    free(text);
    text = write_all(&list, SCH_LANG_DE);
    assert_non_null(strstr(text, "\n\n12... 0-0-0 13. 0-0 Td2 14. Ta8+ Kb7 15. Ta3 *\n\n"));
    assert_non_null(strstr(text, "\n\n1. a8=D+ Kd7 2. Db7+ *\n\n"));
    free(text);

    free_all(&list);
}

static void test_errors_file(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_errors.pgn", &list);
    assert_int_equal(list.count, 11);

    /* An illegal move: game, line, column and token; the moves before it are kept. */
    assert_error(&list, 0, SCH_PGN_ERR_MOVE, 4, 34, "Bxe8");
    assert_moves(&list.games[0], "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    char msg[256];
    sch_err_format(&list.err[0], SCH_LANG_EN, msg, sizeof msg);
    assert_non_null(strstr(msg, "move 'Bxe8' is not possible: "));
    sch_err_format(&list.err[0], SCH_LANG_DE, msg, sizeof msg);
    assert_non_null(strstr(msg, "Zug 'Bxe8' ist nicht möglich: "));

    /* The next game reads normally. */
    assert_int_equal(list.rc[1], 1);
    assert_int_equal(list.games[1].number, 2);
    assert_moves(&list.games[1], "f2f3 e7e5 g2g4 d8h4");
    assert_int_equal(list.games[1].game.outcome.termination, SCH_TERM_CHECKMATE);
    assert_int_equal(list.games[1].result, SCH_RESULT_BLACK_WINS);

    assert_error(&list, 2, SCH_PGN_ERR_TOKEN, 13, 7, "@@@");
    assert_error(&list, 3, SCH_PGN_ERR_MOVE, 17, 24, "a3"); /* after checkmate */
    assert_moves(&list.games[3], "f2f3 e7e5 g2g4 d8h4");
    assert_int_equal(list.rc[4], 1);
    assert_moves(&list.games[4], "d2d4 d7d5");
    assert_error(&list, 5, SCH_PGN_ERR_UNTERMINATED, 23, 8, "string");
    sch_err_format(&list.err[5], SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "Zeichenkette, begonnen mit '\"', wird nicht geschlossen");
    assert_error(&list, 6, SCH_PGN_ERR_VARIATION, 30, 7, ")");
    assert_error(&list, 7, SCH_PGN_ERR_VARIATION, 34, 7, "(");
    assert_moves(&list.games[7], "e2e4");
    /* A Result tag that contradicts the marker: the game is kept, the marker counts, a warning says it. */
    assert_int_equal(list.rc[8], 1);
    assert_int_equal(list.games[8].result, SCH_RESULT_BLACK_WINS);
    assert_int_equal(list.games[8].warning.code, SCH_PGN_WARN_RESULT);
    assert_int_equal(list.games[8].warning.line, 39);
    assert_int_equal(list.games[8].warning.column, 10);
    assert_int_equal(list.games[8].warning.game, 9);
    assert_string_equal(list.games[8].warning.args[0], "1-0");
    assert_string_equal(list.games[8].warning.args[1], "0-1");
    assert_moves(&list.games[8], "e2e4 e7e5");
    assert_int_equal(list.rc[9], 1); /* no marker: ends where the next tag section starts */
    assert_moves(&list.games[9], "c2c4 e7e5");
    assert_int_equal(list.games[9].result, SCH_RESULT_NONE);
    assert_int_equal(list.rc[10], 1);
    assert_string_equal(sch_pgn_tag(&list.games[10], "Event"), "Last");
    assert_int_equal(list.games[10].result, SCH_RESULT_DRAW);
    assert_int_equal(list.games[10].number, 11);

    /* Written, the games up to their errors read back without errors. */
    check_round_trip(&list, SCH_LANG_EN);
    free_all(&list);
}

static void test_unterminated_comment(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_unterminated.pgn", &list);
    assert_int_equal(list.count, 1);
    assert_error(&list, 0, SCH_PGN_ERR_UNTERMINATED, 3, 10, "comment");
    assert_string_equal(list.err[0].args[2], "{");
    assert_moves(&list.games[0], "e2e4 e7e5");
    free_all(&list);
}

static void test_empty(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_empty.pgn", &list);
    assert_int_equal(list.count, 0);
    read_text("  \n% escape only\n{ a comment } ; another\n\n", &list);
    assert_int_equal(list.count, 0);
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer("", 0, &err);
    assert_non_null(r);
    SchPgnGame g;
    assert_int_equal(sch_pgn_read_game(r, &g, &err), 0);
    sch_pgn_reader_close(r);
}

/* ------------------------------------------------------------------------------ small buffers */

static void expect_game(const char *text, const char *moves, SchResult result) {
    GameList list;
    read_text(text, &list);
    assert_int_equal(list.count, 1);
    if (list.rc[0] != 1)
        fail_msg("error %d at %d:%d '%s' in \"%s\"", list.err[0].code, list.err[0].line, list.err[0].column,
                 list.err[0].args[0], text);
    assert_moves(&list.games[0], moves);
    assert_int_equal(list.games[0].result, result);
    free_all(&list);
}

static void test_tokens(void **state) {
    (void)state;
    expect_game("1.e4 e5 2.Nf3", "e2e4 e7e5 g1f3", SCH_RESULT_NONE);
    expect_game("1.e4 1...e5 2 Nf3 *", "e2e4 e7e5 g1f3", SCH_RESULT_NONE);
    expect_game("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 0-1", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", SCH_RESULT_BLACK_WINS);
    expect_game("1. e4 ! e5 $2 $140 2. Nf3 ?? 1/2-1/2", "e2e4 e7e5 g1f3", SCH_RESULT_DRAW);
    expect_game("1. e4 ((1. d4) (1. c4 e5 (1... c5))) e5 ; ) unbalanced in a comment\n1-0", "e2e4 e7e5",
                SCH_RESULT_WHITE_WINS);
    expect_game("1. e4 d5 2. e5 f5 3. exf6e.p. *", "e2e4 d7d5 e4e5 f7f5 e5f6", SCH_RESULT_NONE);
    expect_game("1. e4 d5 2. e5 f5 3. exf6 e.p. *", "e2e4 d7d5 e4e5 f7f5 e5f6", SCH_RESULT_NONE);
    expect_game("\xEF\xBB\xBF[Event \"bom\"]\r\n\r\n1. e4 e5 *\r\n", "e2e4 e7e5", SCH_RESULT_NONE);
    /* German letters; a "B" stays an English bishop. */
    expect_game("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7 6. Te1 b5 7. Lb3 d6 *",
                "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6", SCH_RESULT_NONE);
    expect_game("1. e4 e5 2. Bc4 Nc6 3. Dh5 Sf6 4. Dxf7# 1-0", "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7",
                SCH_RESULT_WHITE_WINS);
    expect_game("1. d4 e5 2. dxe5 d6 3. exd6 Lxd6 4. Dd2 Dh4 5. Sf3 *", "d2d4 e7e5 d4e5 d7d6 e5d6 f8d6 d1d2 d8h4 g1f3",
                SCH_RESULT_NONE);
    /* A lone tag section at the end is a game without moves. */
    expect_game("[Event \"only tags\"]\n", "", SCH_RESULT_NONE);
}

/* Zero-castling glued to its move number ("5.0-0", "12...0-0-0"): the number ends at its periods,
 * so "5.0" is no number and the castling is read (the whole game was refused). */
static void test_zero_castling_glued(void **state) {
    (void)state;
    expect_game("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4.0-0 4...0-0 *", "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8",
                SCH_RESULT_NONE);
    expect_game("1.e4 e5 2.Nf3 Nf6 3.Bc4 Bc5 4.O-O O-O *", "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8", SCH_RESULT_NONE);
    expect_game("[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 5\"]\n\n5.0-0-0 5...0-0 6.Kb1 *",
                "e1c1 e8g8 c1b1", SCH_RESULT_NONE);
    expect_game("[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12\"]\n\n12...0-0 13.0-0-0 1-0", "e8g8 e1c1",
                SCH_RESULT_WHITE_WINS);
    /* A result right after a number is still a result. */
    expect_game("1. e4 e5 2.0-1", "e2e4 e7e5", SCH_RESULT_BLACK_WINS);
}

/* A null move in the main line is part of the record, which agrees with the tree through it (the
 * record stopped before the first null move). */
static void test_null_move_record(void **state) {
    (void)state;
    GameList list;
    read_text("[Event \"passes\"]\n\n1. e4 -- 2. d4 Z0 {passed} 3. Nf3 (3. c4 -- 4. Nc3) 3... -- 4. Bd3 {end} *",
              &list);
    assert_int_equal(list.rc[0], 1);
    const SchPgnGame *g = &list.games[0];
    assert_int_equal(g->game.ply_count, 7);
    assert_int_equal(g->game.plies[1].move, SCH_MOVE_NULL);
    assert_int_equal(g->game.plies[3].move, SCH_MOVE_NULL);
    assert_int_equal(g->game.plies[5].move, SCH_MOVE_NULL);
    assert_int_equal(sch_pos_turn(&g->game.pos), SCH_BLACK);
    assert_string_equal(sch_pgn_comment(g, 4), "passed");
    assert_string_equal(sch_pgn_comment(g, 7), "end");
    /* The record's position is the tree's. */
    const SchPgnNode *n = sch_pgn_root(g);
    while (n->main)
        n = n->main;
    SchPosition pos;
    assert_true(sch_pgn_node_position(g, n, &pos));
    char a[SCH_FEN_MAX], b[SCH_FEN_MAX];
    sch_fen_write(&pos, a, sizeof a);
    sch_fen_write(&g->game.pos, b, sizeof b);
    assert_string_equal(a, b);
    char *text = write_all(&list, SCH_LANG_EN);
    assert_non_null(strstr(text, "\n\n1. e4 -- 2. d4 -- {passed} 3. Nf3 (3. c4 -- 4. Nc3) 3... -- 4. Bd3 {end} *\n"));
    free(text);
    check_round_trip(&list, SCH_LANG_EN);
    check_round_trip(&list, SCH_LANG_DE);
    free_all(&list);

    /* After a null move the game ends by the rules as after any move; moves after that are errors. */
    read_text("[SetUp \"1\"]\n[FEN \"k7/2Q5/1K6/8/8/8/8/8 w - - 0 1\"]\n\n1. -- 1/2-1/2\n\n"
              "[SetUp \"1\"]\n[FEN \"k7/2Q5/1K6/8/8/8/8/8 w - - 0 1\"]\n\n1. -- Kb8 *\n",
              &list);
    assert_int_equal(list.count, 2);
    assert_int_equal(list.rc[0], 1);
    assert_int_equal(list.games[0].game.outcome.termination, SCH_TERM_STALEMATE);
    assert_error(&list, 1, SCH_PGN_ERR_MOVE, 9, 7, "Kb8");
    free_all(&list);
}

static void test_error_positions(void **state) {
    (void)state;
    GameList list;
    /* Columns count characters, not bytes: "ü" is one. */
    read_text("[White \"Müller\"]\n1. e4 e5\n2. Kxe8 *\n\n[Black \"ok\"]\n1. d4 *\n", &list);
    assert_int_equal(list.count, 2);
    assert_error(&list, 0, SCH_PGN_ERR_MOVE, 3, 4, "Kxe8");
    assert_int_equal(list.rc[1], 1);
    assert_string_equal(sch_pgn_tag(&list.games[1], "Black"), "ok");
    free_all(&list);

    read_text("[Event \"ä\" ü]\n[Site \"x\"]\n1. e4 *\n1. d4 *", &list);
    assert_int_equal(list.count, 2);
    assert_error(&list, 0, SCH_PGN_ERR_TAG, 1, 11, "ü"); /* right after the value */
    assert_moves(&list.games[1], "d2d4");
    free_all(&list);

    read_text("[Event \"x\"]\n1. e4 [ *\n[Event \"y\"]\n1. d4 *", &list);
    assert_int_equal(list.count, 2);
    assert_error(&list, 0, SCH_PGN_ERR_TOKEN, 2, 7, "[");
    assert_string_equal(sch_pgn_tag(&list.games[1], "Event"), "y");
    free_all(&list);

    read_text("1. e4 (1. d4", &list);
    assert_int_equal(list.count, 1);
    assert_error(&list, 0, SCH_PGN_ERR_VARIATION, 1, 7, "(");
    free_all(&list);

    read_text("1. e4 \"string\" *", &list);
    assert_error(&list, 0, SCH_PGN_ERR_TOKEN, 1, 7, "\"string\"");
    free_all(&list);

    /* A long token is still reported (truncated), and reading goes on. */
    char long_token[300];
    memset(long_token, 'x', sizeof long_token);
    memcpy(long_token, "1. ", 3);
    memcpy(long_token + sizeof long_token - 8, " 1-0\n*\n", 8);
    read_text(long_token, &list);
    assert_int_equal(list.count, 2);
    assert_int_equal(list.err[0].code, SCH_PGN_ERR_MOVE);
    assert_int_equal(strlen(list.err[0].args[0]), SCH_ERR_ARG_MAX - 1);
    assert_int_equal(list.rc[1], 1);
    free_all(&list);

    read_text("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1", &list);
    assert_error(&list, 0, SCH_PGN_ERR_RESULT, 1, 41, "0-1");
    assert_string_equal(list.err[0].args[1], "1-0");
    free_all(&list);
}

/* Reads text[0..len) from a heap copy of exactly len bytes, without a NUL after it, so that a
 * sanitizer catches any read past the end. */
static void read_exact(const char *text, size_t len, GameList *list) {
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_buffer(copy, len, &err);
    assert_non_null(r);
    read_all(r, list);
    free(copy);
}

/* sch_pgn_reader_from_buffer needs no NUL at text[len]: the reader never reads past len, whatever
 * the text ends with. */
static void test_buffer_without_nul(void **state) {
    (void)state;
    static const char *const endings[] = {"1. e4 e5 2. Nf3",
                                          "1. e4 e5 2. Nf3 {open comment",
                                          "1. e4 ; a comment",
                                          "[Event \"open string",
                                          "[Event",
                                          "1. e4 $1",
                                          "1. e4 !?",
                                          "1. e4 d5 2. e5 f5 3. exf6 e.p",
                                          "1. e4 d5 2. e5 f5 3. exf6 e.",
                                          "1.",
                                          "12...",
                                          "1. e4 e5 *",
                                          "1. e4 (1. d4",
                                          "1. e4 --",
                                          "% escape",
                                          "1. e4 \xC2\xBD-",
                                          "\xEF\xBB",
                                          "1. e4 @",
                                          "1-0",
                                          "1. e4 {[%clk 0:00:01",
                                          "1. O-O-",
                                          "1. e4 0"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        GameList list;
        read_exact(endings[i], strlen(endings[i]), &list);
        for (int k = 0; k < list.count; k++) {
            char *text = pgn_text(&list.games[k], SCH_LANG_EN);
            free(text);
        }
        free_all(&list);
    }
    GameList list;
    read_exact("1. e4 e5 2. Nf3 Nc6 *", 13, &list); /* "1. e4 e5 2. N": the move is cut */
    assert_int_equal(list.count, 1);
    assert_int_equal(list.rc[0], -1);
    assert_moves(&list.games[0], "e2e4 e7e5");
    free_all(&list);
    read_exact("1. e4 e5 2. Nf3 Nc6 *", 15, &list);
    assert_int_equal(list.rc[0], 1);
    assert_moves(&list.games[0], "e2e4 e7e5 g1f3");
    free_all(&list);
}

/* A NUL byte inside the text is a blank, like a space: between tokens, in comments and in tag values
 * (it cut a comment short). */
static void test_nul_byte_is_blank(void **state) {
    (void)state;
    static const char text[] = "[White \"A\0B\"]\0\n\n1.\0e4\0{one\0two}\0e5 2. Nf3\0*\0\n";
    GameList list;
    read_exact(text, sizeof text - 1, &list);
    assert_int_equal(list.count, 1);
    if (list.rc[0] != 1)
        fail_msg("error %d at %d:%d '%s'", list.err[0].code, list.err[0].line, list.err[0].column, list.err[0].args[0]);
    assert_moves(&list.games[0], "e2e4 e7e5 g1f3");
    assert_string_equal(sch_pgn_comment(&list.games[0], 1), "one two");
    assert_string_equal(sch_pgn_tag(&list.games[0], "White"), "A B");
    free_all(&list);
}

/* ------------------------------------------------------------------------------ writing */

static SchMove move_by_uci(const SchPosition *pos, const char *uci) {
    SchMoveList list;
    sch_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        char from[3], to[3];
        sch_square_name(sch_move_from(list.moves[i]), from);
        sch_square_name(sch_move_to(list.moves[i]), to);
        if (strncmp(uci, from, 2) == 0 && strncmp(uci + 2, to, 2) == 0)
            return list.moves[i];
    }
    fail_msg("no move %s", uci);
    return SCH_MOVE_NONE;
}

static void test_write_new_game(void **state) {
    (void)state;
    SchPgnGame g;
    sch_pgn_game_init(&g);
    char *text = pgn_text(&g, SCH_LANG_EN);
    assert_string_equal(text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                              "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n*\n\n");
    free(text);

    assert_true(sch_pgn_set_tag(&g, "Annotator", "me"));
    assert_true(sch_pgn_set_tag(&g, "White", "Weiß \"Wally\""));
    assert_true(sch_pgn_set_tag(&g, "Result", "0-1")); /* not trusted: the game decides */
    const char *moves[] = {"e2e4", "e7e5", "g1f3"};
    for (int i = 0; i < 3; i++)
        assert_true(sch_game_play(&g.game, move_by_uci(sch_game_position(&g.game), moves[i]), NULL));
    assert_true(sch_game_resign(&g.game, SCH_BLACK, NULL));
    text = pgn_text(&g, SCH_LANG_EN);
    assert_string_equal(text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                              "[White \"Weiß \\\"Wally\\\"\"]\n[Black \"?\"]\n[Result \"1-0\"]\n"
                              "[Termination \"normal\"]\n[Annotator \"me\"]\n\n1. e4 e5 2. Nf3 1-0\n\n");
    free(text);
    sch_pgn_game_free(&g);

    sch_pgn_game_init(&g);
    assert_true(sch_game_time_forfeit(&g.game, SCH_WHITE, NULL));
    text = pgn_text(&g, SCH_LANG_EN);
    assert_non_null(strstr(text, "[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n0-1\n\n"));
    free(text);
    sch_pgn_game_free(&g);
}

/* A long game wraps at 80 characters and reads back the same, in both languages. */
/* The tags come in a fixed order whatever the input's: the roster, Variant, SetUp, FEN, Termination,
 * then the others in their order. A game recognised as Chess960 by its castling rights got its
 * generated Variant tag before SetUp/FEN when first written, after them when that was written again. */
static void test_tag_order_is_stable(void **state) {
    (void)state;
    const char *input = "[SetUp \"1\"]\n[FEN \"3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n";
    const char *want = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
                       "[Black \"?\"]\n[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
                       "[FEN \"3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n\n";
    GameList list;
    read_text(input, &list);
    assert_int_equal(list.rc[0], 1);
    assert_true(list.games[0].game.start.chess960);
    char *first = write_all(&list, SCH_LANG_EN);
    free_all(&list);
    read_text(first, &list);
    char *second = write_all(&list, SCH_LANG_EN);
    free_all(&list);
    assert_string_equal(first, want);
    assert_string_equal(second, want);
    free(first);
    free(second);

    /* Any order in: the same order out. */
    read_text("[Annotator \"me\"]\n[Termination \"adjudication\"]\n[FEN \"3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n"
              "[Variant \"chess 960\"]\n[White \"W\"]\n[SetUp \"1\"]\n[ECO \"A00\"]\n[Event \"E\"]\n\n1. O-O *\n",
              &list);
    assert_int_equal(list.rc[0], 1);
    first = write_all(&list, SCH_LANG_EN);
    assert_string_equal(first, "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"W\"]\n"
                               "[Black \"?\"]\n[Result \"*\"]\n[Variant \"chess 960\"]\n[SetUp \"1\"]\n"
                               "[FEN \"3rk2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n[Termination \"adjudication\"]\n"
                               "[Annotator \"me\"]\n[ECO \"A00\"]\n\n1. O-O *\n\n");
    free_all(&list);
    free(first);
}

static void test_write_long_game(void **state) {
    (void)state;
    SchPgnGame g;
    sch_pgn_game_init(&g);
    /* A deterministic walk: always the legal move in the middle of the list. */
    for (int i = 0; i < 300 && !sch_game_over(&g.game); i++) {
        SchMoveList list;
        sch_gen_legal(sch_game_position(&g.game), &list);
        assert_true(sch_game_play(&g.game, list.moves[(list.count * 7 + i) % list.count], NULL));
    }
    assert_true(g.game.ply_count > 40);
    for (int lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
        char *text = pgn_text(&g, (SchLang)lang);
        assert_lines_fit(text);
        GameList list;
        read_text(text, &list);
        assert_int_equal(list.count, 1);
        assert_int_equal(list.rc[0], 1);
        assert_true(same_moves(&g.game, &list.games[0].game));
        assert_int_equal(list.games[0].game.outcome.result, g.game.outcome.result);
        free_all(&list);
        free(text);
    }
    sch_pgn_game_free(&g);
}

/* Comments: set, cleaned, joined when read, written in braces with Black's move number after them,
 * wrapped at 80 columns when long, trimmed after a take-back. */
static void test_comments(void **state) {
    (void)state;
    SchPgnGame g;
    sch_pgn_game_init(&g);
    assert_true(sch_pgn_set_comment(&g, 0, "  before\nthe first }move\t "));
    assert_string_equal(sch_pgn_comment(&g, 0), "before the first move");
    assert_false(sch_pgn_set_comment(&g, 1, "no ply 1 yet"));
    assert_false(sch_pgn_set_comment(&g, -1, "x"));
    const char *moves[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++)
        assert_true(sch_game_play(&g.game, move_by_uci(sch_game_position(&g.game), moves[i]), NULL));
    assert_true(sch_pgn_set_comment(&g, 1, "+0.30/12 0.100s"));
    assert_true(sch_pgn_set_comment(&g, 3, " \n "));
    assert_null(sch_pgn_comment(&g, 3)); /* nothing but blanks is no comment */
    assert_true(sch_pgn_set_comment(&g, 4, "last"));
    char *text = pgn_text(&g, SCH_LANG_EN);
    assert_non_null(strstr(text, "\n\n{before the first move} 1. e4 {+0.30/12 0.100s} 1... e5 2. Nf3 Nc6 {last} *\n"));
    free(text);

    /* Several comments after one ply are one; ';' comments end at the line's end. */
    GameList list;
    read_text("1. e4 {one} {two} ; three\n e5 *", &list);
    assert_int_equal(list.rc[0], 1);
    assert_string_equal(sch_pgn_comment(&list.games[0], 1), "one two three");
    free_all(&list);

    /* A take-back leaves comments the remaining moves cannot carry; trimming drops them. */
    assert_true(sch_game_undo(&g.game));
    sch_pgn_trim_comments(&g);
    assert_null(sch_pgn_comment(&g, 4));
    assert_string_equal(sch_pgn_comment(&g, 1), "+0.30/12 0.100s");
    assert_true(sch_pgn_set_comment(&g, 1, NULL));
    assert_null(sch_pgn_comment(&g, 1));

    /* A comment longer than a line wraps at its spaces and reads back the same. */
    char words[600] = "";
    for (int i = 0; i < 60; i++)
        strcat(words, i ? " word" : "word");
    assert_true(sch_pgn_set_comment(&g, 3, words));
    text = pgn_text(&g, SCH_LANG_DE);
    assert_lines_fit(text);
    read_text(text, &list);
    assert_int_equal(list.rc[0], 1);
    assert_true(same_moves(&g.game, &list.games[0].game));
    assert_string_equal(sch_pgn_comment(&list.games[0], 3), words);
    free_all(&list);
    free(text);

    /* A word longer than a line stays whole, alone on its line: a break would be a space. */
    const char *run = "https://example.org/a/very/long/address/that/no/line/of/eighty/characters/can/hold/whole";
    char both[256];
    snprintf(both, sizeof both, "see %s for more", run);
    assert_true(sch_pgn_set_comment(&g, 3, both));
    text = pgn_text(&g, SCH_LANG_EN);
    char own_line[160];
    snprintf(own_line, sizeof own_line, "\n%s\n", run);
    assert_non_null(strstr(text, own_line));
    read_text(text, &list);
    assert_int_equal(list.rc[0], 1);
    assert_string_equal(sch_pgn_comment(&list.games[0], 3), both);
    free_all(&list);
    free(text);

    /* The caller's Termination wins over the one a rule would give. */
    assert_true(sch_game_resign(&g.game, SCH_WHITE, NULL));
    assert_true(sch_pgn_set_tag(&g, "Termination", "rules infraction"));
    text = pgn_text(&g, SCH_LANG_EN);
    assert_non_null(strstr(text, "[Result \"0-1\"]\n[Termination \"rules infraction\"]\n\n"));
    assert_null(strstr(text, "normal"));
    free(text);
    sch_pgn_game_free(&g);
}

/* The tree is the only store of comments: sch_pgn_set_comment puts the record's plies into it as far
 * as needed, also for a game built by playing moves (null moves too). */
static void test_comment_store(void **state) {
    (void)state;
    SchPgnGame g;
    sch_pgn_game_init(&g);
    const char *moves[] = {"d2d4", NULL, "c2c4", "e7e5"};
    for (int i = 0; i < 4; i++) {
        SchMove m = moves[i] ? move_by_uci(sch_game_position(&g.game), moves[i]) : SCH_MOVE_NULL;
        assert_true(sch_game_play(&g.game, m, NULL));
    }
    assert_null(sch_pgn_root(&g));
    assert_true(sch_pgn_set_comment(&g, 3, NULL)); /* nothing to remove: no tree made for it */
    assert_null(sch_pgn_root(&g));
    assert_null(sch_pgn_comment(&g, 3));
    assert_true(sch_pgn_set_comment(&g, 2, "after the pass [%clk 0:01:00]"));
    assert_non_null(sch_pgn_root(&g));
    assert_int_equal(sch_pgn_node_count(&g), 2);
    const SchPgnNode *pass = sch_pgn_root(&g)->main->main;
    assert_int_equal(pass->move, SCH_MOVE_NULL);
    assert_string_equal(pass->comment, "after the pass");
    assert_int_equal(pass->clock_ms, 60000);
    assert_string_equal(sch_pgn_comment(&g, 2), "after the pass");
    char *text = pgn_text(&g, SCH_LANG_EN);
    assert_non_null(strstr(text, "\n\n1. d4 -- {[%clk 0:01:00] after the pass} 2. c4 e5 *\n"));
    free(text);
    sch_pgn_game_free(&g);

    /* A tree whose main line the record left (moves taken back, others played, no trimming): the
     * comment goes on the record's line, the old one is cut. */
    GameList list;
    read_text("1. e4 {a} e5 (1... c5) 2. Nf3 {b} *", &list);
    SchPgnGame *r = &list.games[0];
    assert_true(sch_game_undo(&r->game));
    assert_true(sch_game_undo(&r->game));
    assert_true(sch_game_play(&r->game, move_by_uci(sch_game_position(&r->game), "d7d5"), NULL));
    assert_null(sch_pgn_comment(r, 2));
    assert_string_equal(sch_pgn_comment(r, 1), "a");
    assert_true(sch_pgn_set_comment(r, 2, "x"));
    assert_int_equal(sch_pgn_node_count(r), 2);
    text = pgn_text(r, SCH_LANG_EN);
    assert_non_null(strstr(text, "\n\n1. e4 {a} 1... d5 {x} *\n"));
    free(text);
    free_all(&list);
}

/* A sink that keeps what it gets; it refuses the call after refuse_after accepted ones (never when
 * negative). */
typedef struct Collected {
    char text[65536];
    size_t len;
    int calls, refuse_after;
    bool refused;
} Collected;

static bool collect(const char *text, size_t len, void *ctx) {
    Collected *c = ctx;
    assert_false(c->refused); /* never called after refusing */
    assert_true(len > 0);
    if (c->refuse_after >= 0 && c->calls++ == c->refuse_after) {
        c->refused = true;
        return false;
    }
    assert_true(c->len + len < sizeof c->text);
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->calls += c->refuse_after < 0;
    return true;
}

/* Writing to a caller's sink and to a string gives what writing to a FILE gives. */
static void test_write_sink_and_string(void **state) {
    (void)state;
    GameList list;
    read_path(SCHACH_TEST_DATA "/pgn_tree.pgn", &list);
    for (int i = 0; i < list.count; i++) {
        const SchPgnGame *g = &list.games[i];
        for (int lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
            char *want = pgn_text(g, (SchLang)lang);
            Collected *c = calloc(1, sizeof *c);
            assert_non_null(c);
            c->refuse_after = -1;
            assert_true(sch_pgn_write_to(g, (SchLang)lang, collect, c));
            assert_int_equal(c->len, strlen(want));
            assert_memory_equal(c->text, want, c->len);
            size_t len = 0;
            char *text = sch_pgn_write_string(g, (SchLang)lang, &len);
            assert_non_null(text);
            assert_int_equal(len, strlen(text));
            assert_string_equal(text, want);
            sch_free(text);
            text = sch_pgn_write_string(g, (SchLang)lang, NULL);
            assert_string_equal(text, want);
            sch_free(text);
            free(c);
            free(want);
        }
    }
    free_all(&list);
    /* Longer than a chunk: several calls, the same text. */
    SchPgnGame g;
    sch_pgn_game_init(&g);
    char words[SCH_PGN_MAX_COMMENT];
    memset(words, 'w', sizeof words - 1);
    for (size_t i = 7; i < sizeof words - 1; i += 8)
        words[i] = ' ';
    words[sizeof words - 1] = '\0';
    assert_true(sch_pgn_set_comment(&g, 0, words));
    char *want = pgn_text(&g, SCH_LANG_EN);
    Collected *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->refuse_after = -1;
    assert_true(sch_pgn_write_to(&g, SCH_LANG_EN, collect, c));
    assert_true(c->calls > 1);
    assert_int_equal(c->len, strlen(want));
    assert_memory_equal(c->text, want, c->len);
    /* A sink that refuses stops the writing: false, and no call after the refusal. */
    memset(c, 0, sizeof *c);
    c->refuse_after = 1;
    assert_false(sch_pgn_write_to(&g, SCH_LANG_EN, collect, c));
    assert_int_equal(c->calls, 2);
    memset(c, 0, sizeof *c);
    c->refuse_after = 0;
    assert_false(sch_pgn_write_to(&g, SCH_LANG_EN, collect, c));
    assert_int_equal(c->len, 0);
    free(c);
    free(want);
    sch_pgn_game_free(&g);
    sch_free(NULL);
}

static void test_messages(void **state) {
    (void)state;
    for (int code = SCH_PGN_ERR_TOKEN; code <= SCH_PGN_ERR_VARIATION; code++) {
        assert_non_null(sch_pgn_error_template(code, SCH_LANG_EN));
        assert_non_null(sch_pgn_error_template(code, SCH_LANG_DE));
        assert_string_not_equal(sch_pgn_error_template(code, SCH_LANG_EN), sch_pgn_error_template(code, SCH_LANG_DE));
    }
    assert_null(sch_pgn_error_template(299, SCH_LANG_EN));
    SchError err;
    sch_err_clear(&err);
    sch_err_set(&err, SCH_PGN_ERR_TOKEN, "<>", NULL, NULL);
    char msg[128];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "unexpected token '<>'");
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "unerwartetes Symbol '<>'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classics),
        cmocka_unit_test(test_classics_round_trip),
        cmocka_unit_test(test_classics_export_text),
        cmocka_unit_test(test_annotations),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_errors_file),
        cmocka_unit_test(test_unterminated_comment),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_zero_castling_glued),
        cmocka_unit_test(test_null_move_record),
        cmocka_unit_test(test_error_positions),
        cmocka_unit_test(test_buffer_without_nul),
        cmocka_unit_test(test_nul_byte_is_blank),
        cmocka_unit_test(test_write_new_game),
        cmocka_unit_test(test_tag_order_is_stable),
        cmocka_unit_test(test_write_long_game),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_comment_store),
        cmocka_unit_test(test_write_sink_and_string),
        cmocka_unit_test(test_messages),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
