/* Where a repeated position stood (game.h: sch_game_repetition_plies, sch_game_repetition_describe):
 * the plies and the move numbers an arbiter asks for at a threefold repetition claim, with and
 * without the move that makes it, and positions that differ only in castling or en passant rights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schach/game.h"
#include "schach/notation.h"

/* Plays the SAN moves (English letters, separated by spaces) into g. */
static void play(SchGame *g, const char *moves) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        SchError e;
        sch_err_clear(&e);
        SchMove m = sch_san_parse(sch_game_position(g), tok, SCH_LANG_EN, &e);
        assert_int_not_equal(m, SCH_MOVE_NONE);
        assert_true(sch_game_play(g, m, &e));
    }
}

static SchMove san(const SchGame *g, const char *text) {
    SchError e;
    sch_err_clear(&e);
    SchMove m = sch_san_parse(sch_game_position(g), text, SCH_LANG_EN, &e);
    assert_int_not_equal(m, SCH_MOVE_NONE);
    return m;
}

static void expect_plies(const SchGame *g, SchMove m, int n, const int *want) {
    int got[8];
    assert_int_equal(sch_game_repetition_plies(g, m, got, 8), n);
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

static void expect_text(const SchGame *g, SchMove m, SchLang lang, const char *want) {
    char buf[256];
    size_t len = sch_game_repetition_describe(g, m, lang, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(len, strlen(want));
}

/* The position after 2…Nf6 stood again after 4…Nf6 and 6…Nf6: a threefold repetition on the board. */
static void test_position_on_the_board(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play(&g, "e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
    assert_true(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    expect_plies(&g, SCH_MOVE_NONE, 3, (const int[]){4, 8, 12});
    assert_int_equal(sch_game_repetition_plies(&g, SCH_MOVE_NONE, NULL, 0), sch_game_repetitions(&g));
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 2…Nf6 stood after 4…Nf6 and 6…Nf6");
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_DE, "dieselbe Stellung nach 2. … Sf6, 4. … Sf6 und 6. … Sf6");
    /* White's moves are numbered "3. Ng1"; the claim granted keeps the final position's plies. */
    SchError e;
    sch_err_clear(&e);
    assert_true(sch_game_claim(&g, SCH_CLAIM_THREEFOLD, &e));
    expect_plies(&g, SCH_MOVE_NONE, 3, (const int[]){4, 8, 12});
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 2…Nf6 stood after 4…Nf6 and 6…Nf6");
    /* Once over, no move can be announced. */
    assert_int_equal(sch_game_repetition_plies(&g, san(&g, "Ng1"), NULL, 0), 0);
    sch_game_free(&g);

    sch_game_init(&g);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3");
    expect_plies(&g, SCH_MOVE_NONE, 3, (const int[]){1, 5, 9});
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 1. Nf3 stood after 3. Nf3 and 5. Nf3");
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_DE, "dieselbe Stellung nach 1. Sf3, 3. Sf3 und 5. Sf3");
    sch_game_free(&g);
}

/* A position that never repeated: one occurrence, no text. */
static void test_no_repetition(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    expect_plies(&g, SCH_MOVE_NONE, 1, (const int[]){0});
    char buf[64] = "x";
    assert_int_equal(sch_game_repetition_describe(&g, SCH_MOVE_NONE, SCH_LANG_EN, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    play(&g, "e4 e5 Nf3 Nf6 Ng1 Ng8");
    /* Twice: listed, not yet claimable. */
    expect_plies(&g, SCH_MOVE_NONE, 2, (const int[]){2, 6});
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 1…e5 stood after 3…Ng8");
    sch_game_free(&g);
}

/* A claim announced with the move that makes the repetition (9.2.1.1): the position stood at the
 * start and after 2…Ng8; 4…Ng8 would make it the third time. */
static void test_claim_with_a_move(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play(&g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_false(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    SchMove back = san(&g, "Ng8");
    assert_true(sch_game_claims_with_move(&g, back) & SCH_CLAIM_THREEFOLD);
    expect_plies(&g, back, 3, (const int[]){0, 4, 8});
    expect_text(&g, back, SCH_LANG_EN, "the starting position stood after 2…Ng8 and 4…Ng8");
    expect_text(&g, back, SCH_LANG_DE, "dieselbe Stellung zu Beginn, nach 2. … Sg8 und 4. … Sg8");
    /* Another move makes a position that stood once before (after 1…Nc6? never): one occurrence. */
    expect_plies(&g, san(&g, "Nc6"), 1, (const int[]){8});
    /* Only legal moves can be announced. */
    SchMove illegal = sch_move_make(SCH_SQ_E2, SCH_SQ_E4);
    assert_int_equal(sch_game_repetition_plies(&g, illegal, NULL, 0), 0);
    char buf[32];
    assert_int_equal(sch_game_repetition_describe(&g, illegal, SCH_LANG_EN, buf, sizeof buf), 0);
    /* Claimed with the move: the game ends, and the final position tells the same. */
    SchError e;
    sch_err_clear(&e);
    assert_true(sch_game_claim_with_move(&g, back, SCH_CLAIM_THREEFOLD, &e));
    expect_plies(&g, SCH_MOVE_NONE, 3, (const int[]){0, 4, 8});
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the starting position stood after 2…Ng8 and 4…Ng8");
    /* A short buffer gets a NUL-terminated start; the length is the whole text's. */
    char small[10];
    size_t len = sch_game_repetition_describe(&g, SCH_MOVE_NONE, SCH_LANG_EN, small, sizeof small);
    assert_int_equal(len, strlen("the starting position stood after 2…Ng8 and 4…Ng8"));
    assert_int_equal(strlen(small), sizeof small - 1);
    sch_game_free(&g);
}

/* The same pieces on the same squares with castling rights lost are another position (9.2.2). */
static void test_castling_rights_differ(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play(&g, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Rg1 Rg8 Rh1 Rh8");
    /* After 1…Nf6 (ply 2) both could castle; after 3…Rh8 and 5…Rh8 neither can on the king's side. */
    expect_plies(&g, SCH_MOVE_NONE, 2, (const int[]){6, 10});
    assert_false(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 3…Rh8 stood after 5…Rh8");
    sch_game_free(&g);
}

/* An en passant capture possible after 1…d5 makes that position differ from the same pieces later;
 * an en passant square whose capture is impossible does not. */
static void test_en_passant_rights_differ(void **state) {
    (void)state;
    SchGame g;
    SchError e;
    sch_err_clear(&e);
    assert_true(sch_game_init_fen(&g, "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &e));
    play(&g, "d5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    expect_plies(&g, SCH_MOVE_NONE, 2, (const int[]){5, 9});
    assert_false(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    sch_game_free(&g);

    /* The same without the white pawn beside d5: the en passant square gives no capture. */
    assert_true(sch_game_init_fen(&g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &e));
    play(&g, "d5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    expect_plies(&g, SCH_MOVE_NONE, 3, (const int[]){1, 5, 9});
    assert_true(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_EN, "the position after 1…d5 stood after 3…Ng8 and 5…Ng8");
    expect_text(&g, SCH_MOVE_NONE, SCH_LANG_DE, "dieselbe Stellung nach 1. … d5, 3. … Sg8 und 5. … Sg8");
    sch_game_free(&g);
}

/* A pawn move cannot be undone: positions before it never count. */
static void test_irreversible_moves_cut(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play(&g, "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8");
    expect_plies(&g, SCH_MOVE_NONE, 2, (const int[]){6, 10});
    sch_game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_on_the_board),    cmocka_unit_test(test_no_repetition),
        cmocka_unit_test(test_claim_with_a_move),        cmocka_unit_test(test_castling_rights_differ),
        cmocka_unit_test(test_en_passant_rights_differ), cmocka_unit_test(test_irreversible_moves_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
