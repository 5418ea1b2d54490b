/* Winnability (winnable.h): verdicts with reasons and proofs, and the game endings built on them
 * (5.2.2 dead position, 6.9 flag fall). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/winnable.h"

typedef struct Case {
    const char *fen;
    SchWinnability white, black;
    SchWinReason white_reason, black_reason; /* for unwinnable verdicts */
} Case;

static const Case cases[] = {
    /* Kings behind a locked wall: b4/d4/f4/h4 and b5/d5/f5/h5 are pawn-guarded. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_LOCKED,
     SCH_WIN_REASON_LOCKED},
    /* The same with a light-squared bishop: it never reaches the dark pawns or the black king. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/KB6 w - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_LOCKED,
     SCH_WIN_REASON_LOCKED},
    /* A dark-squared bishop takes a pawn and the wall opens: both can mate. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1B5 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_WINNABLE, 0, 0},
    /* Black's dark bishop in White's camp gives checks but never mates: the exhaustive search. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1b5 w - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_LOCKED,
     SCH_WIN_REASON_LOCKED},
    {"8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_UNWINNABLE, 0,
     SCH_WIN_REASON_MATERIAL},                                                      /* K+N v K+Q */
    {"8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_WINNABLE, 0, 0}, /* K+N v K+R */
    {"8/8/8/4k1b1/8/8/8/R3K3 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_UNWINNABLE, 0,
     SCH_WIN_REASON_MATERIAL},                                                       /* K+B v K+R */
    {"8/8/8/4k1n1/8/8/4P3/4K3 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_WINNABLE, 0, 0}, /* K+N v K+P */
    {"8/8/8/4k3/8/8/8/4K2N w - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_MATERIAL,
     SCH_WIN_REASON_BARE_KING},
    {"k7/8/8/8/8/8/8/KNN5 w - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_UNWINNABLE, 0, SCH_WIN_REASON_BARE_KING},
    {"8/8/8/8/8/8/8/k1K1B1b1 w - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_MATERIAL,
     SCH_WIN_REASON_MATERIAL},
    /* Checkmate and stalemate on the board. */
    {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", SCH_WIN_WINNABLE, SCH_WIN_UNWINNABLE, 0, SCH_WIN_REASON_CHECKMATED},
    {"7k/8/6QK/8/8/8/8/8 b - - 0 1", SCH_WIN_UNWINNABLE, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_STALEMATE,
     SCH_WIN_REASON_STALEMATE},
    /* The opening position: both can mate (fool's mate and its mirror). */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", SCH_WIN_WINNABLE, SCH_WIN_WINNABLE, 0, 0},
};

static void test_verdicts(void **state) {
    (void)state;
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SchPosition pos = parse_fen(cases[i].fen);
        for (int c = 0; c < 2; c++) {
            SchWinnability want = c == SCH_WHITE ? cases[i].white : cases[i].black;
            SchWinResult r;
            SchWinnability got = sch_can_checkmate(&pos, (SchColor)c, NULL, work, &r);
            if (got != want)
                fail_msg("%s, %s: %s, expected %s", cases[i].fen, c == SCH_WHITE ? "white" : "black",
                         sch_win_verdict_name(got), sch_win_verdict_name(want));
            assert_int_equal(r.verdict, got);
            if (got == SCH_WIN_WINNABLE)
                assert_helpmate(&pos, (SchColor)c, &r);
            if (got == SCH_WIN_UNWINNABLE)
                assert_int_equal(r.reason, c == SCH_WHITE ? cases[i].white_reason : cases[i].black_reason);
            /* Quick mode is sound too: never unwinnable where the full mode found a helpmate. */
            SchWinLimits quick = {true, 0};
            SchWinnability q = sch_can_checkmate(&pos, (SchColor)c, &quick, NULL, &r);
            if (want == SCH_WIN_WINNABLE)
                assert_int_not_equal(q, SCH_WIN_UNWINNABLE);
            if (q == SCH_WIN_WINNABLE)
                assert_helpmate(&pos, (SchColor)c, &r);
        }
    }
    sch_win_work_free(work);
}

/* The quick mode's mate in one, found by every kind of mating move and for both colours: it looks
 * at the moves only when one of them may give check, so each way a move gives check is here. */
static void test_quick_mate_in_one(void **state) {
    (void)state;
    static const char *const fens[] = {
        "7k/5K1p/6P1/8/8/8/8/8 w - - 0 1",      /* a pawn's push: g7 */
        "8/8/8/8/8/6p1/5k1P/7K b - - 0 1",      /* ... g2 */
        "4N1bk/6pp/5P2/8/8/8/8/K7 w - - 0 1",   /* a pawn's capture: fxg7 */
        "k7/8/8/8/8/5p2/6PP/4n1BK b - - 0 1",   /* ... fxg2 */
        "RN5k/6pp/8/8/8/8/8/7K w - - 0 1",      /* a knight uncovers the rook */
        "7k/8/8/8/8/8/6PP/rn5K b - - 0 1",      /* ... */
        "6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1",     /* smothered: Nf7 */
        "k7/8/8/8/6n1/8/6PP/6RK b - - 0 1",     /* ... Nf2 */
        "7k/P7/6K1/8/8/8/8/8 w - - 0 1",        /* a promotion: a8=Q */
        "8/8/8/8/8/6k1/p7/7K b - - 0 1",        /* ... a1=Q */
        "8/8/8/8/5pp1/3Bpkp1/8/4K2R w K - 0 1", /* castling: O-O (Rf1 lets the king out to g2) */
        "3k4/8/3K4/8/8/8/8/Q7 w - - 0 1",       /* a queen on the back rank: Qa8 */
        "8/8/8/8/8/4NN2/8/R3K2k w Q - 0 1",     /* O-O-O: Rd1 mates along the rank the king left */
        "r3k2K/8/4nn2/8/8/8/8/8 b q - 0 1",     /* ... O-O-O */
        "k7/8/8/8/8/8/P7/K7 w - - 0 1",         /* no move gives check: undetermined */
    };
    /* A mate in one that is not a move: the smothering knight is pinned (Bh6, Kd2). */
    SchWinLimits quick_pinned = {true, 0};
    SchPosition pinned = parse_fen("6rk/6pp/7b/6N1/8/8/3K4/8 w - - 0 1");
    assert_int_equal(sch_can_checkmate(&pinned, SCH_WHITE, &quick_pinned, NULL, NULL), SCH_WIN_UNDETERMINED);
    SchWinLimits quick = {true, 0};
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        SchPosition pos = parse_fen(fens[i]);
        SchColor mover = sch_pos_turn(&pos);
        SchWinResult r;
        SchWinnability v = sch_can_checkmate(&pos, mover, &quick, NULL, &r);
        bool last = i + 1 == sizeof fens / sizeof fens[0];
        if (v != (last ? SCH_WIN_UNDETERMINED : SCH_WIN_WINNABLE))
            fail_msg("%s: %s", fens[i], sch_win_verdict_name(v));
        if (!last) {
            assert_int_equal(r.line_len, 1);
            assert_helpmate(&pos, mover, &r);
        }
    }
}

static void test_reason_words(void **state) {
    (void)state;
    for (int w = SCH_WIN_REASON_NONE + 1; w < SCH_WIN_REASON_NB; w++) {
        assert_non_null(sch_win_reason_name((SchWinReason)w));
        assert_true(strlen(sch_win_reason_text((SchWinReason)w, SCH_LANG_EN)) > 5);
        assert_true(strlen(sch_win_reason_text((SchWinReason)w, SCH_LANG_DE)) > 5);
    }
    assert_null(sch_win_reason_name(SCH_WIN_REASON_NONE));
    assert_string_equal(sch_win_verdict_name(SCH_WIN_UNWINNABLE), "unwinnable");
}

static SchMove uci_move(const SchPosition *pos, const char *uci) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (sch_move_from(moves[i]) == sch_square_parse(uci) && sch_move_to(moves[i]) == sch_square_parse(uci + 2))
            return moves[i];
    fail_msg("no move %s", uci);
    return SCH_MOVE_NONE;
}

/* 5.2.2: the move that locks the last pawn ends the game, with the reason in words. */
static void test_game_dead_position(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    assert_true(sch_game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1", &err));
    assert_false(sch_game_over(&g));
    assert_true(sch_game_play(&g, uci_move(&g.pos, "g3g4"), &err));
    assert_true(sch_game_over(&g));
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    assert_int_equal(g.outcome.termination, SCH_TERM_DEAD_POSITION);
    assert_string_equal(sch_termination_name(g.outcome.termination), "dead_position");
    char text[200];
    sch_outcome_describe(&g.outcome, SCH_LANG_DE, text, sizeof text);
    assert_string_equal(text, "Remis: tote Stellung – die Bauernketten sind blockiert, keine Figur kann "
                              "durchbrechen, kein Matt ist mehr möglich");
    /* An automatic ending: undo takes it back. */
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    sch_game_free(&g);

    /* A bishop that gives checks but can never mate (the white king always keeps a light flight
     * square no black man can reach): the quick pass settles it at once, deferred or not. */
    assert_true(sch_game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1b5 b - - 0 1", &err));
    assert_int_equal(g.outcome.termination, SCH_TERM_DEAD_POSITION);
    sch_game_free(&g);
    assert_true(sch_game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1b5 w - - 0 1", &err));
    sch_game_defer_dead_analysis(&g, true);
    assert_true(sch_game_play(&g, uci_move(&g.pos, "g3g4"), &err));
    assert_true(sch_game_over(&g));
    assert_false(sch_game_dead_pending(&g));
    sch_game_free(&g);

    /* Deferred: the game only says the full analysis is due (the quick pass cannot settle a white
     * bishop that may give itself up on g7 or e7, where a pawn takes it); the caller settles it. */
    const char *bishop_inside = "b1bk1B2/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/1K6/8 w - - 0 1";
    assert_true(sch_game_init_fen_mode(&g, bishop_inside, SCH_GAME_DEAD_INLINE, &err));
    assert_int_equal(g.outcome.termination, SCH_TERM_DEAD_POSITION); /* not deferred: decided at once */
    sch_game_free(&g);
    assert_true(sch_game_init_fen_mode(&g, bishop_inside, SCH_GAME_DEAD_DEFER, &err));
    assert_false(sch_game_over(&g));
    assert_true(sch_game_dead_pending(&g));
    SchWinResult res[2];
    static const SchWinLimits full = {false, SCH_GAME_DEAD_NODES};
    assert_int_equal(sch_dead_position(&g.pos, &full, NULL, res), SCH_WIN_UNWINNABLE);
    assert_true(sch_game_settle_dead(&g, g.ply_count, res));
    assert_int_equal(g.outcome.termination, SCH_TERM_DEAD_POSITION);
    assert_false(sch_game_dead_pending(&g));
    sch_game_free(&g);
}

/* 6.9: a flag fall where the opponent has mating material but no mate: a draw with its own name;
 * where material shows it, the old name; where a mate exists, the flag loses. */
static void test_flag_fall(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    /* K+N v K+Q: material shows the knight cannot mate. */
    assert_true(sch_game_init_fen(&g, "8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", &err));
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    assert_int_equal(g.outcome.termination, SCH_TERM_TIMEOUT_INSUFFICIENT);
    sch_game_free(&g);

    /* K+N v K+R: the rook may block a flight square, so the knight can mate: the flag loses. */
    assert_true(sch_game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_int_equal(g.outcome.result, SCH_RESULT_BLACK_WINS);
    assert_int_equal(g.outcome.termination, SCH_TERM_TIME_FORFEIT);
    sch_game_free(&g);

    /* A verdict from elsewhere (a worker thread): unwinnable for a reason beyond material. */
    assert_true(sch_game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    SchWinResult judged = {.verdict = SCH_WIN_UNWINNABLE, .reason = SCH_WIN_REASON_LOCKED};
    assert_true(sch_game_time_forfeit_judged(&g, SCH_WHITE, &judged, &err));
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    assert_int_equal(g.outcome.termination, SCH_TERM_TIMEOUT_UNWINNABLE);
    assert_string_equal(sch_termination_name(g.outcome.termination), "timeout_unwinnable");
    char text[200];
    sch_outcome_describe(&g.outcome, SCH_LANG_EN, text, sizeof text);
    assert_string_equal(text, "Time ran out, but the opponent cannot checkmate (the pawns are locked and no piece "
                              "can break through) – draw");
    /* Undetermined: the flag loses, as it always did. */
    sch_game_free(&g);
    assert_true(sch_game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    SchWinResult unknown = {.verdict = SCH_WIN_UNDETERMINED};
    assert_true(sch_game_time_forfeit_judged(&g, SCH_WHITE, &unknown, &err));
    assert_int_equal(g.outcome.termination, SCH_TERM_TIME_FORFEIT);
    sch_game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),     cmocka_unit_test(test_quick_mate_in_one),
        cmocka_unit_test(test_reason_words), cmocka_unit_test(test_game_dead_position),
        cmocka_unit_test(test_flag_fall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
