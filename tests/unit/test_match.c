/* The match runner's pure parts: Elo, error margins, LOS, SPRT, openings, adjudication, options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "match.h"
#include "match_adjudicate.h"
#include "match_openings.h"
#include "match_internal.h"
#include "match_stats.h"
#include "schach/bitboard.h"
#include "schach/fen.h"
#include "schach/schach.h"

#define NEAR(a, b, eps) assert_true((a) > (b) - (eps) && (a) < (b) + (eps))

/* ---- statistics (expected values computed by hand from the formulas in match_stats.h) ---- */

static void test_elo_from_score(void **state) {
    (void)state;
    NEAR(stats_elo_from_score(0.6), 70.4365, 1e-3); /* -400 log10(1/0.6 - 1) */
    NEAR(stats_elo_from_score(0.5), 0.0, 1e-12);
    NEAR(stats_elo_from_score(0.25), -190.8485, 1e-3);
    assert_true(stats_elo_from_score(1.0) > 1e300);
    assert_true(stats_elo_from_score(0.0) < -1e300);
    NEAR(stats_score_from_elo(70.4365), 0.6, 1e-6);
    NEAR(stats_score_from_elo(0.0), 0.5, 1e-12);
}

static void test_trinomial(void **state) {
    (void)state;
    /* 5 wins, 3 losses, 2 draws: s = 0.6, per-game variance 0.19, 95% interval s +- 1.96 sqrt(0.019). */
    EloEstimate e = stats_elo_trinomial(5, 3, 2);
    NEAR(e.score, 0.6, 1e-12);
    NEAR(e.elo, 70.44, 0.01);
    NEAR(e.margin, 226.82, 0.01);
    assert_int_equal(e.observations, 10);
    e = stats_elo_trinomial(60, 40, 0);
    NEAR(e.margin, 70.57, 0.01);
    e = stats_elo_trinomial(30, 10, 60); /* same score, many draws: a narrower interval */
    NEAR(e.elo, 70.44, 0.01);
    NEAR(e.margin, 42.80, 0.01);
    e = stats_elo_trinomial(0, 0, 0);
    NEAR(e.elo, 0.0, 1e-12);
    assert_true(e.margin > 1e300);
    e = stats_elo_trinomial(3, 0, 0); /* all won: unbounded */
    assert_true(e.elo > 1e300 && e.margin > 1e300);
}

static void test_pentanomial(void **state) {
    (void)state;
    const int pairs[STATS_PENTA] = {1, 4, 10, 6, 2};
    EloEstimate e = stats_elo_pentanomial(pairs);
    NEAR(e.score, 0.5434783, 1e-6);
    NEAR(e.elo, 30.29, 0.01);
    NEAR(e.margin, 69.79, 0.01);
    assert_int_equal(e.observations, 23);
}

static void test_los(void **state) {
    (void)state;
    NEAR(stats_los(5, 3), 0.76025, 1e-5); /* 0.5 (1 + erf(2 / sqrt(16))) */
    NEAR(stats_los(3, 5), 0.23975, 1e-5);
    NEAR(stats_los(0, 0), 0.5, 1e-12);
    NEAR(stats_los(10, 10), 0.5, 1e-12);
}

static void test_sprt(void **state) {
    (void)state;
    double lower, upper;
    stats_sprt_bounds(0.05, 0.05, &lower, &upper);
    NEAR(lower, -2.944439, 1e-6);
    NEAR(upper, 2.944439, 1e-6);
    /* LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var) */
    NEAR(stats_llr_trinomial(330, 300, 400, 0, 5), 0.532186, 1e-5);
    const int pairs[STATS_PENTA] = {10, 40, 100, 50, 12};
    NEAR(stats_llr_pentanomial(pairs, 0, 5), 0.377276, 1e-5);
    const int none[STATS_PENTA] = {0, 0, 0, 0, 0};
    NEAR(stats_llr_pentanomial(none, 0, 5), 0.0, 1e-12);
    /* Losing more than elo0 predicts: a negative LLR. */
    assert_true(stats_llr_trinomial(100, 300, 100, 0, 5) < lower);
    const int won[STATS_PENTA] = {0, 0, 0, 0, 40}; /* regularised zero counts: finite and large */
    assert_true(stats_llr_pentanomial(won, 0, 5) > upper);
}

/* One lost pair is no evidence: the regularised variance of a single pair is tiny, so its LLR
 * (about -3.9 for elo0 0, elo1 10) crossed the bound and the SPRT accepted H0 after two games. No
 * decision before MATCH_SPRT_MIN_PAIRS pairs; after them the same result decides. */
static void test_sprt_waits_for_pairs(void **state) {
    (void)state;
    MatchConfig cfg = {.sprt_on = true, .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
    Tally t = {0};
    double llr = 0;
    t.penta[0] = 1; /* both games of one pair lost */
    assert_int_equal(match_sprt_decision(&cfg, &t, &llr), 0);
    t.penta[0] = 1;
    t.penta[4] = 0;
    for (int i = 1; i < MATCH_SPRT_MIN_PAIRS - 1; i++)
        t.penta[i % 2 ? 0 : 1]++;
    assert_int_equal(match_sprt_decision(&cfg, &t, &llr), 0); /* one pair short */
    t.penta[0] += 40;
    t.penta[1] += 40;
    assert_int_equal(match_sprt_decision(&cfg, &t, &llr), -1); /* plenty of losses: H0 */
}

/* ---- openings ---- */

static void test_openings_pgn(void **state) {
    (void)state;
    const char *text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                       "[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n";
    OpeningSet set;
    char why[256] = "";
    assert_true(openings_parse_pgn(&set, text, strlen(text), SCH_LANG_EN, why, sizeof why));
    assert_int_equal(set.count, 2);
    assert_string_equal(set.items[0].fen, SCH_FEN_START);
    assert_int_equal(set.items[0].ply_count, 4);
    assert_int_equal(set.items[0].moves[2], sch_move_make(SCH_SQ_G1, SCH_SQ_F3));
    assert_string_equal(set.items[1].fen, "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    SchGame g;
    assert_true(openings_start_game(&set.items[1], &g));
    assert_int_equal(g.ply_count, 2);
    assert_int_equal(sch_pos_turn(sch_game_position(&g)), SCH_WHITE);
    sch_game_free(&g);
    openings_free(&set);

    /* A PGN record holds null moves ("--"); engines get real moves only: the line ends before one. */
    const char *passing = "1. e4 e5 2. Nf3 -- 3. Bc4 *\n";
    assert_true(openings_parse_pgn(&set, passing, strlen(passing), SCH_LANG_EN, why, sizeof why));
    assert_int_equal(set.count, 1);
    assert_int_equal(set.items[0].ply_count, 3);
    openings_free(&set);
}

static void test_openings_pgn_errors(void **state) {
    (void)state;
    OpeningSet set;
    char why[256] = "";
    const char *illegal = "1. e4 e5 *\n\n1. e4 Ke7 2. Ke3 *\n";
    assert_false(openings_parse_pgn(&set, illegal, strlen(illegal), SCH_LANG_EN, why, sizeof why));
    assert_non_null(strstr(why, "game 2, line 3"));
    assert_int_equal(set.count, 0);
    const char *mate = "1. f3 e5 2. g4 Qh4# 0-1\n";
    assert_false(openings_parse_pgn(&set, mate, strlen(mate), SCH_LANG_DE, why, sizeof why));
    assert_non_null(strstr(why, "Partie 1"));
    assert_false(openings_parse_pgn(&set, "", 0, SCH_LANG_EN, why, sizeof why));
}

static void test_openings_epd(void **state) {
    (void)state;
    OpeningSet set;
    char why[256] = "";
    const char *text = "# balanced\n"
                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Nf3; id \"open\";\n"
                       "\n"
                       "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\r\n";
    assert_true(openings_parse_epd(&set, text, SCH_LANG_EN, why, sizeof why));
    assert_int_equal(set.count, 2);
    assert_string_equal(set.items[0].fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    assert_string_equal(set.items[1].fen, "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40");
    assert_int_equal(set.items[1].ply_count, 0);
    openings_free(&set);
    assert_false(openings_parse_epd(&set, "8/8/8/8/8/8/8/8 w - -\n", SCH_LANG_EN, why, sizeof why));
    assert_non_null(strstr(why, "line 1"));
    assert_false(openings_parse_epd(&set, "# nothing\n", SCH_LANG_EN, why, sizeof why));
}

static void test_openings_shuffle_and_shipped(void **state) {
    (void)state;
    OpeningSet a, b;
    char why[256] = "";
    assert_true(openings_load(&a, SCHACH_TEST_DATA "/../../data/openings.pgn", SCH_LANG_EN, why, sizeof why));
    assert_true(a.count >= 50 && a.count <= 100);
    for (int i = 0; i < a.count; i++)
        assert_true(a.items[i].ply_count >= 4 && a.items[i].ply_count <= 10);
    assert_true(openings_load(&b, SCHACH_TEST_DATA "/../../data/openings.pgn", SCH_LANG_EN, why, sizeof why));
    openings_shuffle(&a, 7);
    openings_shuffle(&b, 7);
    int moved = 0;
    for (int i = 0; i < a.count; i++) {
        assert_int_equal(a.items[i].moves[0], b.items[i].moves[0]); /* same seed, same order */
        assert_int_equal(a.items[i].ply_count, b.items[i].ply_count);
    }
    OpeningSet c;
    assert_true(openings_load(&c, SCHACH_TEST_DATA "/../../data/openings.pgn", SCH_LANG_EN, why, sizeof why));
    for (int i = 0; i < a.count; i++)
        moved += a.items[i].moves != NULL && memcmp(a.items[i].moves, c.items[i].moves, sizeof(SchMove) * 4) != 0;
    assert_true(moved > 0);
    openings_free(&a);
    openings_free(&b);
    openings_free(&c);
    assert_false(openings_load(&a, "/nonexistent/openings.pgn", SCH_LANG_EN, why, sizeof why));
    assert_non_null(strstr(why, "cannot read"));
}

/* ---- adjudication ---- */

static void init_fen(SchGame *g, const char *fen) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, fen, &err))
        fail_msg("bad test FEN %s", fen);
}

static void test_adjudicate_rules(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play_line(&g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_false(adjudicate_rules(&g)); /* the start position has occurred twice, now black moves */
    play_line(&g, "f6g8");
    assert_true(adjudicate_rules(&g)); /* third occurrence: claimed at once */
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    assert_int_equal(g.outcome.termination, SCH_TERM_THREEFOLD_REPETITION);
    sch_game_free(&g);

    init_fen(&g, "4k3/8/8/8/8/8/4P3/4K2R w K - 99 80");
    assert_false(adjudicate_rules(&g));
    play_line(&g, "h1h2");
    assert_true(adjudicate_rules(&g));
    assert_int_equal(g.outcome.termination, SCH_TERM_FIFTY_MOVES);
    sch_game_free(&g);

    sch_game_init(&g);
    play_line(&g, "f2f3 e7e5 g2g4 d8h4");
    assert_true(adjudicate_rules(&g)); /* over already: checkmate stays */
    assert_int_equal(g.outcome.termination, SCH_TERM_CHECKMATE);
    sch_game_free(&g);
}

static void test_time_forfeit_insufficient(void **state) {
    (void)state;
    /* The runner's forfeit: a loss, but a draw when the opponent has a bare king (FIDE 6.9). */
    SchGame g;
    SchError err;
    init_fen(&g, "4k3/8/8/8/8/8/8/3QK3 w - - 0 60");
    assert_true(sch_game_time_forfeit(&g, SCH_BLACK, &err));
    assert_int_equal(g.outcome.result, SCH_RESULT_WHITE_WINS);
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/8/8/8/8/3QK3 w - - 0 60");
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    assert_int_equal(g.outcome.termination, SCH_TERM_TIMEOUT_INSUFFICIENT);
    sch_game_free(&g);
}

static void test_adjudicate_scores(void **state) {
    (void)state;
    MatchConfig cfg;
    match_config_init(&cfg);
    cfg.resign_on = true, cfg.resign_moves = 3, cfg.resign_score = 500;
    cfg.draw_on = true, cfg.draw_start = 30, cfg.draw_moves = 2, cfg.draw_score = 10;
    AdjudicationState st = {{0, 0}, 0};
    SchGame g;
    init_fen(&g, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 20");
    SchColor loser = SCH_WHITE;
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -600, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, true, 600, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -500, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, false, 0, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -ADJ_MATE_SCORE, &loser), ADJ_RESIGN);
    assert_int_equal(loser, SCH_BLACK);
    /* A better score in between starts the count again. */
    st = (AdjudicationState){{0, 0}, 0};
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -600, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -100, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -600, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -600, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -600, &loser), ADJ_RESIGN);
    assert_true(adjudicate_apply(&g, ADJ_RESIGN, loser));
    assert_int_equal(g.outcome.result, SCH_RESULT_WHITE_WINS);
    sch_game_free(&g);

    /* Draw: not before move 30; then 4 quiet plies in a row. */
    st = (AdjudicationState){{0, 0}, 0};
    init_fen(&g, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 29");
    for (int i = 0; i < 6; i++)
        assert_int_equal(adjudicate_scores(&cfg, &st, &g, (SchColor)(i & 1), true, 0, &loser), ADJ_NONE);
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 30");
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, true, 5, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -10, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, true, 11, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, 0, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, true, 0, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, 0, &loser), ADJ_NONE);
    assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_WHITE, true, 0, &loser), ADJ_DRAW);
    assert_true(adjudicate_apply(&g, ADJ_DRAW, loser));
    assert_int_equal(g.outcome.result, SCH_RESULT_DRAW);
    sch_game_free(&g);

    /* Off by default. */
    match_config_init(&cfg);
    st = (AdjudicationState){{0, 0}, 0};
    sch_game_init(&g);
    for (int i = 0; i < 20; i++)
        assert_int_equal(adjudicate_scores(&cfg, &st, &g, SCH_BLACK, true, -ADJ_MATE_SCORE, &loser), ADJ_NONE);
    sch_game_free(&g);
}

/* ---- options ---- */

static void test_parse_tc(void **state) {
    (void)state;
    int64_t base, inc;
    assert_true(match_parse_tc("10+0.1", &base, &inc));
    assert_int_equal(base, 10000);
    assert_int_equal(inc, 100);
    assert_true(match_parse_tc("60", &base, &inc));
    assert_int_equal(base, 60000);
    assert_int_equal(inc, 0);
    assert_true(match_parse_tc("1:30+1", &base, &inc));
    assert_int_equal(base, 90000);
    assert_int_equal(inc, 1000);
    assert_true(match_parse_tc("0.5+0.005", &base, &inc));
    assert_int_equal(base, 500);
    assert_int_equal(inc, 5);
    assert_false(match_parse_tc("", &base, &inc));
    assert_false(match_parse_tc("0+1", &base, &inc));
    assert_false(match_parse_tc("10+", &base, &inc));
    assert_false(match_parse_tc("ten", &base, &inc));
    assert_false(match_parse_tc("10+0.1s", &base, &inc));
}

static void test_parse_engine(void **state) {
    (void)state;
    char w0[] = "arg=--x y", w1[] = "cmd=gnuchess --uci", w2[] = "name=GNU", w3[] = "option.UCI_Elo=1500",
         w4[] = "dir=/tmp";
    char *words[] = {w0, w1, w2, w3, w4};
    EngineSpec spec;
    const char *bad = NULL;
    assert_true(match_parse_engine(words, 5, &spec, &bad));
    assert_int_equal(spec.argc, 3);
    assert_string_equal(spec.argv[0], "gnuchess");
    assert_string_equal(spec.argv[1], "--uci");
    assert_string_equal(spec.argv[2], "--x y");
    assert_null(spec.argv[3]);
    assert_string_equal(spec.name, "GNU");
    assert_string_equal(spec.dir, "/tmp");
    assert_int_equal(spec.option_count, 1);
    assert_string_equal(spec.options[0].name, "UCI_Elo");
    assert_string_equal(spec.options[0].value, "1500");

    char b0[] = "name=x", b1[] = "colour=white";
    char *no_cmd[] = {b0};
    assert_false(match_parse_engine(no_cmd, 1, &spec, &bad));
    assert_null(bad);
    char *unknown[] = {w1, b1};
    assert_false(match_parse_engine(unknown, 2, &spec, &bad));
    assert_string_equal(bad, "colour=white");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_from_score),
        cmocka_unit_test(test_trinomial),
        cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_los),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_sprt_waits_for_pairs),
        cmocka_unit_test(test_openings_pgn),
        cmocka_unit_test(test_openings_pgn_errors),
        cmocka_unit_test(test_openings_epd),
        cmocka_unit_test(test_openings_shuffle_and_shipped),
        cmocka_unit_test(test_adjudicate_rules),
        cmocka_unit_test(test_time_forfeit_insufficient),
        cmocka_unit_test(test_adjudicate_scores),
        cmocka_unit_test(test_parse_tc),
        cmocka_unit_test(test_parse_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
