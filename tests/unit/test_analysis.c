/* Game analysis (src/analysis): the winning chances, judgements and accuracy against values worked
 * out by hand from lichess's formulas (lila's WinPercent and AccuracyPercent, transcribed into a few
 * lines of Python for the long sums), the summary of a made-up analysis, and the analyser on a real
 * game: a missed mate in one is a blunder whose better move is the mate. Budgets are tiny so that
 * the test stays quick under sanitizers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "schach/notation.h"
#include "schach/schach.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_winning_chances(void **state) {
    (void)state;
    NEAR(analysis_winning_chances(0), 0.0);
    /* 2 / (1 + e^-0.368208) - 1 */
    NEAR(analysis_winning_chances(100), 0.182051794383);
    NEAR(analysis_winning_chances(-250), -0.430296094872);
    NEAR(analysis_winning_chances(1000), 0.950894872683);
    /* cp clamped to ±1000; a mate counts as ±1000 */
    NEAR(analysis_winning_chances(1500), 0.950894872683);
    NEAR(analysis_winning_chances(-4000), -0.950894872683);
    NEAR(analysis_winning_chances(ENGINE_MATE - 7), 0.950894872683);
    NEAR(analysis_winning_chances(-ENGINE_MATE), -0.950894872683);
    NEAR(analysis_win_percent(100), 59.102589719161);
    assert_int_equal(analysis_clamp_cp(ENGINE_MATE_BOUND), 1000);
    assert_int_equal(analysis_clamp_cp(-ENGINE_MATE_BOUND), -1000);
    assert_int_equal(analysis_clamp_cp(999), 999);
    assert_int_equal(analysis_clamp_cp(-1001), -1000);
}

static void test_judgements(void **state) {
    (void)state;
    assert_int_equal(analysis_judge(0.3), ANALYSIS_BLUNDER);
    assert_int_equal(analysis_judge(1.9), ANALYSIS_BLUNDER);
    assert_int_equal(analysis_judge(0.2999), ANALYSIS_MISTAKE);
    assert_int_equal(analysis_judge(0.2), ANALYSIS_MISTAKE);
    assert_int_equal(analysis_judge(0.1999), ANALYSIS_INACCURACY);
    assert_int_equal(analysis_judge(0.1), ANALYSIS_INACCURACY);
    assert_int_equal(analysis_judge(0.0999), ANALYSIS_GOOD);
    assert_int_equal(analysis_judge(-0.5), ANALYSIS_GOOD);
    assert_string_equal(analysis_judgement_name(ANALYSIS_BLUNDER), "blunder");
    assert_string_equal(analysis_judgement_name(ANALYSIS_MISTAKE), "mistake");
    assert_string_equal(analysis_judgement_name(ANALYSIS_INACCURACY), "inaccuracy");
    assert_null(analysis_judgement_name(ANALYSIS_GOOD));
}

static void test_mate_moves(void **state) {
    (void)state;
    bool mate;
    assert_int_equal(analysis_mate_moves(ENGINE_MATE - 1, &mate), 1); /* White mates with its move */
    assert_true(mate);
    assert_int_equal(analysis_mate_moves(ENGINE_MATE - 3, &mate), 2);
    assert_int_equal(analysis_mate_moves(-(ENGINE_MATE - 2), &mate), -1); /* White moves, Black mates */
    assert_int_equal(analysis_mate_moves(-(ENGINE_MATE - 1), &mate), -1); /* Black mates with its move */
    assert_int_equal(analysis_mate_moves(ENGINE_MATE, &mate), 0);         /* mate on the board */
    assert_true(mate);
    assert_int_equal(analysis_mate_moves(250, &mate), 0);
    assert_false(mate);
    json_t *e = analysis_eval_json(-(ENGINE_MATE - 5));
    assert_int_equal(json_integer_value(json_object_get(e, "mate")), -3);
    json_decref(e);
    e = analysis_eval_json(-35);
    assert_int_equal(json_integer_value(json_object_get(e, "cp")), -35);
    assert_null(json_object_get(e, "mate"));
    json_decref(e);
}

static void test_move_accuracy(void **state) {
    (void)state;
    NEAR(analysis_move_accuracy(60, 60), 100.0);
    NEAR(analysis_move_accuracy(40, 70), 100.0);
    NEAR(analysis_move_accuracy(50, 40), 64.579828453721); /* 103.1668 e^-0.4354 - 3.1669 + 1 */
    NEAR(analysis_move_accuracy(80, 10), 2.728281572609);
    NEAR(analysis_move_accuracy(100, 0), 0.0); /* clamped at 0 */
}

static void test_game_accuracy(void **state) {
    (void)state;
    double acc[2];
    /* 10 moves (window 2), mates among the last scores */
    static const int s1[] = {20, 30, 25, -300, -280, -290, 500, 480, 31900, 31999, 32000};
    analysis_game_accuracy(s1, 10, SCH_WHITE, acc);
    assert_true(fabs(acc[SCH_WHITE] - 52.91285702923828) < 1e-9);
    assert_true(fabs(acc[SCH_BLACK] - 25.14419745194715) < 1e-9);
    /* 35 moves: window 3, so the first window counts twice */
    int s3[36];
    for (int i = 0; i < 36; i++)
        s3[i] = (i * 37) % 400 - 200;
    analysis_game_accuracy(s3, 35, SCH_WHITE, acc);
    assert_true(fabs(acc[SCH_WHITE] - 74.46545895513263) < 1e-9);
    assert_true(fabs(acc[SCH_BLACK] - 88.75081107962589) < 1e-9);
    /* 89 moves: window 8; and the same scores with Black moving first */
    int s4[90];
    for (int i = 0; i < 90; i++)
        s4[i] = (i * 53) % 900 - 450;
    analysis_game_accuracy(s4, 89, SCH_WHITE, acc);
    assert_true(fabs(acc[SCH_WHITE] - 65.25152179958151) < 1e-9);
    assert_true(fabs(acc[SCH_BLACK] - 85.10144664234627) < 1e-9);
    analysis_game_accuracy(s4, 89, SCH_BLACK, acc);
    assert_true(fabs(acc[SCH_WHITE] - 71.04378157921575) < 1e-9);
    assert_true(fabs(acc[SCH_BLACK] - 85.37519869790714) < 1e-9);
    /* one move by Black: White has none */
    static const int s5[] = {15, -600};
    analysis_game_accuracy(s5, 1, SCH_BLACK, acc);
    assert_true(acc[SCH_WHITE] < 0);
    NEAR(acc[SCH_BLACK], 100.0);
    analysis_game_accuracy(s5, 0, SCH_WHITE, acc);
    assert_true(acc[SCH_WHITE] < 0 && acc[SCH_BLACK] < 0);
}

/* A made-up analysis of four moves: a blunder, a best move that the next search scores badly (never
 * judged), an inaccuracy, and a move into a mate for the mover. */
static void test_summary(void **state) {
    (void)state;
    AnalysisPosition pos[5];
    AnalysisMove moves[4];
    memset(pos, 0, sizeof pos);
    memset(moves, 0, sizeof moves);
    static const int scores[] = {30, -300, 400, 250, -(ENGINE_MATE - 3)};
    static const SchMove best[] = {101, 202, 303, 404, SCH_MOVE_NONE};
    static const SchMove played[] = {111, 202, 333, 444};
    for (int i = 0; i < 5; i++) {
        pos[i].score = scores[i];
        pos[i].best = best[i];
    }
    for (int i = 0; i < 4; i++)
        moves[i].move = played[i];
    AnalysisResult r = {4, SCH_WHITE, pos, moves, {{0}}};
    analysis_summarise(&r);
    assert_int_equal(moves[0].judgement, ANALYSIS_BLUNDER); /* 0.0551 - (-0.5023) = 0.557 */
    NEAR(moves[0].drop, 0.557426109661705);
    assert_int_equal(moves[0].cp_loss, 330);
    assert_true(moves[1].best_played);
    assert_int_equal(moves[1].judgement, ANALYSIS_GOOD); /* lost 700 cp, but it was the best move */
    assert_int_equal(moves[1].cp_loss, 0);
    assert_int_equal(moves[2].judgement, ANALYSIS_INACCURACY); /* 0.6297 - 0.4303 = 0.1967 */
    NEAR(moves[2].drop, 0.19667881413137978);
    assert_int_equal(moves[3].judgement, ANALYSIS_GOOD); /* Black walks into Black's own mate */
    assert_true(moves[3].drop < 0);
    assert_int_equal(moves[3].cp_loss, 0);
    assert_int_equal(moves[3].eval, -(ENGINE_MATE - 3));
    assert_int_equal(r.side[SCH_WHITE].moves, 2);
    assert_int_equal(r.side[SCH_WHITE].blunder, 1);
    assert_int_equal(r.side[SCH_WHITE].inaccuracy, 1);
    assert_int_equal(r.side[SCH_WHITE].mistake, 0);
    assert_int_equal(r.side[SCH_WHITE].acpl, 240);
    assert_int_equal(r.side[SCH_BLACK].acpl, 0);
    assert_int_equal(r.side[SCH_BLACK].blunder + r.side[SCH_BLACK].mistake + r.side[SCH_BLACK].inaccuracy, 0);
    assert_true(fabs(r.side[SCH_WHITE].accuracy - 39.37047035687428) < 1e-9);
    assert_true(fabs(r.side[SCH_BLACK].accuracy - 32.90895263374534) < 1e-9);
}

static void play_san(SchGame *g, const char *const *moves, int count) {
    for (int i = 0; i < count; i++) {
        SchError err;
        SchMove m = sch_san_parse(sch_game_position(g), moves[i], SCH_LANG_EN, &err);
        assert_int_not_equal(m, SCH_MOVE_NONE);
        assert_true(sch_game_play(g, m, &err));
    }
}

typedef struct Progress {
    int calls, last_done, total;
    bool out_of_order;
} Progress;

static void count_progress(int done, int total, void *ctx) {
    Progress *p = ctx;
    p->calls++; /* maybe on another thread: checked afterwards */
    p->out_of_order |= done != p->last_done + 1;
    p->last_done = done;
    p->total = total;
}

/* 4. Nc3?? misses 4. Qxf7#; 3... Nf6?? allowed it. With one engine and with two. */
static void test_analyser_missed_mate(void **state) {
    (void)state;
    static const char *const moves[] = {"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Nc3", "Nxh5"};
    SchGame g;
    sch_game_init(&g);
    play_san(&g, moves, 8);
    for (int threads = 1; threads <= 2; threads++) {
        AnalysisOptions opt;
        analysis_options_default(&opt);
        opt.nodes = 3000;
        opt.threads = threads;
        opt.hash_mb = 1;
        Analyser *a = analyser_new(&opt);
        assert_non_null(a);
        AnalysisResult r;
        Progress p = {0, 0, 0, false};
        assert_true(analyser_run(a, &g, &r, count_progress, &p));
        assert_int_equal(p.calls, 9);
        assert_int_equal(p.total, 9);
        assert_false(p.out_of_order);
        assert_int_equal(r.ply_count, 8);
        const AnalysisMove *m = &r.moves[6];
        assert_string_equal(m->san[SCH_LANG_EN], "Nc3");
        assert_string_equal(m->san[SCH_LANG_DE], "Sc3");
        assert_int_equal(m->judgement, ANALYSIS_BLUNDER);
        assert_string_equal(r.positions[6].best_uci, "h5f7");
        assert_string_equal(r.positions[6].best_san[SCH_LANG_EN], "Qxf7#");
        assert_string_equal(r.positions[6].best_san[SCH_LANG_DE], "Dxf7#");
        bool mate;
        assert_int_equal(analysis_mate_moves(r.positions[6].score, &mate), 1);
        assert_int_equal(r.moves[5].judgement, ANALYSIS_BLUNDER); /* 3... Nf6 allowed the mate */
        assert_true(r.side[SCH_WHITE].blunder >= 1 && r.side[SCH_BLACK].blunder >= 1);
        json_t *j = analysis_json(&r, SCH_LANG_DE);
        json_t *jm = json_array_get(json_object_get(j, "moves"), 6);
        assert_string_equal(json_string_value(json_object_get(jm, "san")), "Sc3");
        assert_string_equal(json_string_value(json_object_get(jm, "best_san")), "Dxf7#");
        assert_string_equal(json_string_value(json_object_get(jm, "judgement")), "blunder");
        json_decref(j);
        analysis_result_free(&r);
        /* stopped before it starts: nothing is done */
        analyser_stop(a);
        Progress q = {0, 0, 0, false};
        assert_false(analyser_run(a, &g, &r, count_progress, &q));
        assert_int_equal(q.calls, 0);
        analysis_result_free(&r);
        analyser_resume(a);
        assert_true(analyser_run(a, &g, &r, NULL, NULL));
        analysis_result_free(&r);
        analyser_free(a);
    }
    sch_game_free(&g);
}

/* A game the rules ended: the last position is not searched; an empty game has one position. */
static void test_analyser_ends(void **state) {
    (void)state;
    static const char *const moves[] = {"f3", "e5", "g4", "Qh4#"};
    SchGame g;
    sch_game_init(&g);
    play_san(&g, moves, 4);
    AnalysisOptions opt;
    analysis_options_default(&opt);
    opt.depth = 2;
    opt.hash_mb = 1;
    Analyser *a = analyser_new(&opt);
    AnalysisResult r;
    assert_true(analyser_run(a, &g, &r, NULL, NULL));
    assert_int_equal(r.positions[4].score, -ENGINE_MATE);
    assert_int_equal(r.positions[4].best, SCH_MOVE_NONE);
    assert_true(r.moves[3].best_played);
    assert_int_equal(r.moves[2].judgement, ANALYSIS_BLUNDER); /* 2. g4?? */
    analysis_result_free(&r);
    sch_game_free(&g);
    sch_game_init(&g);
    assert_true(analyser_run(a, &g, &r, NULL, NULL));
    assert_int_equal(r.ply_count, 0);
    assert_int_not_equal(r.positions[0].best, SCH_MOVE_NONE);
    assert_true(r.side[SCH_WHITE].accuracy < 0 && r.side[SCH_BLACK].accuracy < 0);
    analysis_result_free(&r);
    sch_game_free(&g);
    analyser_free(a);
    opt.threads = 0;
    assert_null(analyser_new(&opt));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_winning_chances),      cmocka_unit_test(test_judgements),
        cmocka_unit_test(test_mate_moves),           cmocka_unit_test(test_move_accuracy),
        cmocka_unit_test(test_game_accuracy),        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_analyser_missed_mate), cmocka_unit_test(test_analyser_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
