/* Saturation (src/game/winnable_saturate.c): each rule on both sides — a position it proves
 * unwinnable and, beside it, one where the rule must not fire (there a helpmate exists, replayed
 * by the full analysis). Then the positions it settles through the full analysis and the quick
 * pass of a game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/winnable.h"
#include "test_helpers.h"
#include "winnable_internal.h"

typedef struct SatCase {
    const char *fen;
    SchColor color;
    SchWinnability saturate; /* what saturation alone says */
    SchWinnability full;     /* the full analysis (a helpmate replayed, or a proof) */
} SatCase;

static const SatCase cases[] = {
    /* Obstacles: the king h4 and the pawn h3 shut each other in (h6 is guarded by g7, g3-g6 are
     * its own pawns; the pawn may push to h4 only while the king stands on h5, and then it is
     * stuck below the king). The king's squares are never steady, so without the rule the pawn
     * would walk up the h-file and queen. */
    {"5b1k/4p1p1/4P1P1/6P1/6PK/6PP/8/8 w - -", SCH_WHITE, SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE},
    {"5b1k/4p1p1/4P1P1/6P1/6PK/6PP/8/8 w - -", SCH_BLACK, SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE},
    /* Without the pawn g3 the king walks out by g3, and the h-pawn queens behind it. */
    {"5b1k/4p1p1/4P1P1/6P1/6PK/7P/8/8 w - -", SCH_WHITE, SCH_WIN_UNDETERMINED, SCH_WIN_WINNABLE},
    /* The rook a3 and the king a5 shut each other in too, but the black king may take the rook
     * on a3 while the king stands on a5 — which stalemates White at once. Saturation does not
     * know that a capture stalemates; the exhaustive search does. */
    {"5k2/1p6/1P6/KP6/1P6/RP6/P7/8 b - -", SCH_WHITE, SCH_WIN_UNDETERMINED, SCH_WIN_UNWINNABLE},
    /* A piece on a square an enemy pawn attacks is no reason to give up: the knight takes a pawn,
     * the wall opens, and saturation must see it (sound: not unwinnable). */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1N5 w - -", SCH_WHITE, SCH_WIN_UNDETERMINED, SCH_WIN_WINNABLE},
    /* The pawns take what steps onto their squares: here the bishop may be taken on b6 or d6 by
     * the pawn c7, which then walks to c1 and queens — for Black; White's pieces stay shut in. */
    {"k7/2p5/p1P5/P7/8/8/8/K1B5 w - -", SCH_BLACK, SCH_WIN_UNDETERMINED, SCH_WIN_WINNABLE},
    /* Tempo: Black's king has no move and its pawns run out of moves; White cannot queen in
     * time without stalemating it, and the bishop never checks g8 (light squares). Saturation
     * cannot count tempi; the exhaustive search, which now also runs where the pawns are not
     * locked, proves it. */
    {"6k1/p5P1/2p3PB/6P1/8/8/PKP5/8 b - -", SCH_WHITE, SCH_WIN_UNDETERMINED, SCH_WIN_UNWINNABLE},
    {"6k1/p5P1/2p3PB/6P1/8/8/PKP5/8 b - -", SCH_BLACK, SCH_WIN_UNDETERMINED, SCH_WIN_UNWINNABLE},
};

static void test_rules_both_sides(void **state) {
    (void)state;
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SchPosition pos = parse_fen(cases[i].fen);
        SchWinReason why = SCH_WIN_REASON_NONE;
        SchWinnability s = sch_win_saturate(&pos, cases[i].color, &why);
        if (s != cases[i].saturate)
            fail_msg("%s, %s: saturation says %s", cases[i].fen, cases[i].color ? "black" : "white",
                     sch_win_verdict_name(s));
        if (s == SCH_WIN_UNWINNABLE)
            assert_int_equal(why, SCH_WIN_REASON_LOCKED);
        SchWinResult r;
        SchWinnability full = sch_can_checkmate(&pos, cases[i].color, NULL, work, &r);
        if (full != cases[i].full)
            fail_msg("%s, %s: the full analysis says %s", cases[i].fen, cases[i].color ? "black" : "white",
                     sch_win_verdict_name(full));
        if (full == SCH_WIN_WINNABLE)
            assert_helpmate(&pos, cases[i].color, &r);
    }
    sch_win_work_free(work);
}

/* Soundness on many positions: wherever a helpmate is found (and replayed), saturation must not
 * have said unwinnable. The positions: random games from locked walls, so that the rules fire
 * often; every position on the way is asked for both colours. */
static void test_never_against_a_helpmate(void **state) {
    (void)state;
    static const char *const starts[] = {
        "8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1N5 w - - 0 1",       "4k3/8/1p1p1p1p/1P1P1P1P/8/2B5/8/R3K3 w - - 0 1",
        "r3k3/2b5/p1p1p1p1/P1P1P1P1/8/5N2/8/4K2R b - - 0 1", "5k2/1p6/1P6/KP6/1P6/RP6/P7/8 b - - 0 1",
        "2k5/3p4/1p1P1p2/1P3P2/8/3B4/8/4K3 w - - 0 1",
    };
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    uint64_t seed = 12345;
    int checked = 0, proven = 0;
    for (size_t g = 0; g < sizeof starts / sizeof starts[0]; g++) {
        for (int game = 0; game < 8; game++) {
            SchPosition pos = parse_fen(starts[g]);
            for (int ply = 0; ply < 60; ply++) {
                for (int c = 0; c < 2; c++) {
                    SchWinReason why;
                    SchWinnability s = sch_win_saturate(&pos, (SchColor)c, &why);
                    SchWinLimits limits = {false, 20000};
                    SchWinResult r;
                    if (sch_can_checkmate(&pos, (SchColor)c, &limits, work, &r) == SCH_WIN_WINNABLE) {
                        assert_helpmate(&pos, (SchColor)c, &r);
                        if (s == SCH_WIN_UNWINNABLE) {
                            char fen[SCH_FEN_MAX];
                            sch_fen_write(&pos, fen, sizeof fen);
                            fail_msg("%s: saturation says %s cannot mate, yet a helpmate exists", fen,
                                     c ? "black" : "white");
                        }
                    }
                    checked++;
                    proven += s == SCH_WIN_UNWINNABLE;
                }
                if (!play_random_move(&pos, &seed))
                    break;
            }
        }
    }
    /* The walls must keep some positions proven, or this test would prove nothing. */
    assert_true(proven > 50);
    assert_true(checked > proven);
    sch_win_work_free(work);
}

/* A game ends the move such a position arises: the quick pass runs saturation where most pawns
 * stand head to head, and the full analysis where it cannot settle them. */
static void test_game_ends_at_once(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    /* h2-h3 shuts the king h5 in for good (the position of the first case, Black to move): the
     * quick pass (saturation, most pawns head to head) ends the game at once. */
    assert_true(sch_game_init_fen(&g, "5b1k/4p1p1/4P1P1/6PK/6P1/6P1/7P/8 w - - 0 1", &err));
    assert_false(sch_game_over(&g));
    play_line(&g, "h2h3");
    assert_true(sch_game_over(&g));
    assert_int_equal(g.outcome.termination, SCH_TERM_DEAD_POSITION);
    /* The quick pass alone settles it (no search needed). */
    static const SchWinLimits quick = {true, 0};
    assert_int_equal(sch_dead_position(&g.pos, &quick, NULL, NULL), SCH_WIN_UNWINNABLE);
    sch_game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_both_sides),
        cmocka_unit_test(test_never_against_a_helpmate),
        cmocka_unit_test(test_game_ends_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
