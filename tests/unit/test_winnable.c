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

/* The proof replays: legal moves ending in mate of !color. */
static void assert_proof(const Position *start, Color color, const WinResult *r) {
    Position pos = *start;
    assert_true(r->line_len >= 0 && r->line_len <= WIN_LINE_MAX);
    for (int i = 0; i < r->line_len; i++) {
        if (!gen_is_legal(&pos, r->line[i]))
            fail_msg("proof move %d is illegal", i);
        Undo u;
        pos_make(&pos, r->line[i], &u);
    }
    assert_int_equal(pos_turn(&pos), !color);
    assert_true(pos_in_check(&pos));
    assert_false(gen_has_legal_move(&pos));
}

typedef struct Case {
    const char *fen;
    Winnability white, black;
    WinReason white_reason, black_reason; /* for unwinnable verdicts */
} Case;

static const Case cases[] = {
    /* Kings behind a locked wall: b4/d4/f4/h4 and b5/d5/f5/h5 are pawn-guarded. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_LOCKED, WIN_REASON_LOCKED},
    /* The same with a light-squared bishop: it never reaches the dark pawns or the black king. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/KB6 w - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_LOCKED,
     WIN_REASON_LOCKED},
    /* A dark-squared bishop takes a pawn and the wall opens: both can mate. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1B5 w - - 0 1", WIN_WINNABLE, WIN_WINNABLE, 0, 0},
    /* Black's dark bishop in White's camp gives checks but never mates: the exhaustive search. */
    {"8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1b5 w - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_LOCKED,
     WIN_REASON_LOCKED},
    {"8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", WIN_WINNABLE, WIN_UNWINNABLE, 0, WIN_REASON_MATERIAL}, /* K+N v K+Q */
    {"8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", WIN_WINNABLE, WIN_WINNABLE, 0, 0},                     /* K+N v K+R */
    {"8/8/8/4k1b1/8/8/8/R3K3 w - - 0 1", WIN_WINNABLE, WIN_UNWINNABLE, 0, WIN_REASON_MATERIAL}, /* K+B v K+R */
    {"8/8/8/4k1n1/8/8/4P3/4K3 w - - 0 1", WIN_WINNABLE, WIN_WINNABLE, 0, 0},                    /* K+N v K+P */
    {"8/8/8/4k3/8/8/8/4K2N w - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_MATERIAL, WIN_REASON_BARE_KING},
    {"k7/8/8/8/8/8/8/KNN5 w - - 0 1", WIN_WINNABLE, WIN_UNWINNABLE, 0, WIN_REASON_BARE_KING},
    {"8/8/8/8/8/8/8/k1K1B1b1 w - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_MATERIAL, WIN_REASON_MATERIAL},
    /* Checkmate and stalemate on the board. */
    {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", WIN_WINNABLE, WIN_UNWINNABLE, 0, WIN_REASON_CHECKMATED},
    {"7k/8/6QK/8/8/8/8/8 b - - 0 1", WIN_UNWINNABLE, WIN_UNWINNABLE, WIN_REASON_STALEMATE, WIN_REASON_STALEMATE},
    /* The opening position: both can mate (fool's mate and its mirror). */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", WIN_WINNABLE, WIN_WINNABLE, 0, 0},
};

static void test_verdicts(void **state) {
    (void)state;
    WinWork *work = win_work_new(0);
    assert_non_null(work);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos = parse_fen(cases[i].fen);
        for (int c = 0; c < 2; c++) {
            Winnability want = c == WHITE ? cases[i].white : cases[i].black;
            WinResult r;
            Winnability got = can_checkmate(&pos, (Color)c, NULL, work, &r);
            if (got != want)
                fail_msg("%s, %s: %s, expected %s", cases[i].fen, c == WHITE ? "white" : "black", win_verdict_name(got),
                         win_verdict_name(want));
            assert_int_equal(r.verdict, got);
            if (got == WIN_WINNABLE)
                assert_proof(&pos, (Color)c, &r);
            if (got == WIN_UNWINNABLE)
                assert_int_equal(r.reason, c == WHITE ? cases[i].white_reason : cases[i].black_reason);
            /* Quick mode is sound too: never unwinnable where the full mode found a helpmate. */
            WinLimits quick = {true, 0};
            Winnability q = can_checkmate(&pos, (Color)c, &quick, NULL, &r);
            if (want == WIN_WINNABLE)
                assert_int_not_equal(q, WIN_UNWINNABLE);
            if (q == WIN_WINNABLE)
                assert_proof(&pos, (Color)c, &r);
        }
    }
    win_work_free(work);
}

static void test_reason_words(void **state) {
    (void)state;
    for (int w = WIN_REASON_NONE + 1; w < WIN_REASON_NB; w++) {
        assert_non_null(win_reason_name((WinReason)w));
        assert_true(strlen(win_reason_text((WinReason)w, LANG_EN)) > 5);
        assert_true(strlen(win_reason_text((WinReason)w, LANG_DE)) > 5);
    }
    assert_null(win_reason_name(WIN_REASON_NONE));
    assert_string_equal(win_verdict_name(WIN_UNWINNABLE), "unwinnable");
}

static Move uci_move(const Position *pos, const char *uci) {
    Move moves[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (move_from(moves[i]) == square_parse(uci) && move_to(moves[i]) == square_parse(uci + 2))
            return moves[i];
    fail_msg("no move %s", uci);
    return MOVE_NONE;
}

/* 5.2.2: the move that locks the last pawn ends the game, with the reason in words. */
static void test_game_dead_position(void **state) {
    (void)state;
    Game g;
    SchError err;
    assert_true(game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1", &err));
    assert_false(game_over(&g));
    assert_true(game_play(&g, uci_move(&g.pos, "g3g4"), &err));
    assert_true(game_over(&g));
    assert_int_equal(g.outcome.result, RESULT_DRAW);
    assert_int_equal(g.outcome.termination, TERM_DEAD_POSITION);
    assert_string_equal(termination_name(g.outcome.termination), "dead_position");
    char text[200];
    outcome_describe(&g.outcome, LANG_DE, text, sizeof text);
    assert_string_equal(text, "Remis: tote Stellung – die Bauernketten sind blockiert, keine Figur kann "
                              "durchbrechen, kein Matt ist mehr möglich");
    /* An automatic ending: undo takes it back. */
    assert_true(game_undo(&g));
    assert_false(game_over(&g));
    game_free(&g);

    /* Deferred: the game only says the full analysis is due (the quick pass cannot settle a
     * bishop that gives checks); the caller settles it. */
    assert_true(game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K1b5 b - - 0 1", &err));
    assert_int_equal(g.outcome.termination, TERM_DEAD_POSITION); /* not deferred: decided at once */
    game_free(&g);
    assert_true(game_init_fen(&g, "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1b5 w - - 0 1", &err));
    game_defer_dead_analysis(&g, true);
    assert_true(game_play(&g, uci_move(&g.pos, "g3g4"), &err));
    assert_false(game_over(&g));
    assert_true(game_dead_pending(&g));
    WinResult res[2];
    static const WinLimits full = {false, GAME_DEAD_NODES};
    assert_int_equal(dead_position(&g.pos, &full, NULL, res), WIN_UNWINNABLE);
    assert_true(game_settle_dead(&g, g.ply_count, res));
    assert_int_equal(g.outcome.termination, TERM_DEAD_POSITION);
    assert_false(game_dead_pending(&g));
    game_free(&g);
}

/* 6.9: a flag fall where the opponent has mating material but no mate: a draw with its own name;
 * where material shows it, the old name; where a mate exists, the flag loses. */
static void test_flag_fall(void **state) {
    (void)state;
    Game g;
    SchError err;
    /* K+N v K+Q: material shows the knight cannot mate. */
    assert_true(game_init_fen(&g, "8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", &err));
    assert_true(game_time_forfeit(&g, WHITE, &err));
    assert_int_equal(g.outcome.result, RESULT_DRAW);
    assert_int_equal(g.outcome.termination, TERM_TIMEOUT_INSUFFICIENT);
    game_free(&g);

    /* K+N v K+R: the rook may block a flight square, so the knight can mate: the flag loses. */
    assert_true(game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    assert_true(game_time_forfeit(&g, WHITE, &err));
    assert_int_equal(g.outcome.result, RESULT_BLACK_WINS);
    assert_int_equal(g.outcome.termination, TERM_TIME_FORFEIT);
    game_free(&g);

    /* A verdict from elsewhere (a worker thread): unwinnable for a reason beyond material. */
    assert_true(game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    WinResult judged = {.verdict = WIN_UNWINNABLE, .reason = WIN_REASON_LOCKED};
    assert_true(game_time_forfeit_judged(&g, WHITE, &judged, &err));
    assert_int_equal(g.outcome.result, RESULT_DRAW);
    assert_int_equal(g.outcome.termination, TERM_TIMEOUT_UNWINNABLE);
    assert_string_equal(termination_name(g.outcome.termination), "timeout_unwinnable");
    char text[200];
    outcome_describe(&g.outcome, LANG_EN, text, sizeof text);
    assert_string_equal(text, "Time ran out, but the opponent cannot checkmate (the pawns are locked and no piece "
                              "can break through) – draw");
    /* Undetermined: the flag loses, as it always did. */
    game_free(&g);
    assert_true(game_init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", &err));
    WinResult unknown = {.verdict = WIN_UNDETERMINED};
    assert_true(game_time_forfeit_judged(&g, WHITE, &unknown, &err));
    assert_int_equal(g.outcome.termination, TERM_TIME_FORFEIT);
    game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_reason_words),
        cmocka_unit_test(test_game_dead_position),
        cmocka_unit_test(test_flag_fall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
