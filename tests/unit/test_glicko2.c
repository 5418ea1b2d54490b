/* Glicko-2 (src/server/glicko2.c) against the worked example of Glickman's "Example of the Glicko-2
 * system": a player of 1500 (RD 200, volatility 0.06, tau 0.5) beats a 1400 (RD 30) and loses to a 1550
 * (RD 100) and a 1700 (RD 300); the paper's result is 1464.06, RD 151.52, volatility 0.05999. Then the
 * game-by-game use with its bounds, and inputs that are refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/glicko2.h"
#include "base/rating.h"

#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void the_papers_example(void **state) {
    (void)state;
    Glicko2 player = {1500, 200, 0.06}, out;
    Glicko2Result games[] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    assert_true(glicko2_rate_period(&player, games, 3, 0.5, &out));
    /* The paper rounds its intermediate values; unrounded arithmetic gives 1464.0507, 151.5165,
     * 0.059996 (as other implementations do). */
    assert_near(out.rating, 1464.06, 0.015);
    assert_near(out.rd, 151.52, 0.005);
    assert_near(out.volatility, 0.05999, 0.00001);
}

static void a_period_without_games_widens_the_deviation(void **state) {
    (void)state;
    Glicko2 player = {1500, 200, 0.06}, out;
    assert_true(glicko2_rate_period(&player, NULL, 0, 0.5, &out));
    assert_near(out.rating, 1500, 1e-9);
    /* phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale. */
    assert_near(out.rd, sqrt(pow(200 / 173.7178, 2) + 0.06 * 0.06) * 173.7178, 1e-9);
    assert_near(out.volatility, 0.06, 1e-12);
}

static void one_game_moves_both_players_the_right_way(void **state) {
    (void)state;
    Glicko2 a = glicko2_new(), b = glicko2_new(), a2, b2;
    Glicko2Result vs_b = {b.rating, b.rd, 1}, vs_a = {a.rating, a.rd, 0};
    assert_true(glicko2_rate_game(&a, &vs_b, 0, &a2));
    assert_true(glicko2_rate_game(&b, &vs_a, 0, &b2));
    assert_true(a2.rating > 1500 && b2.rating < 1500);
    /* Equal players: what one wins the other loses. */
    assert_near(a2.rating - 1500, 1500 - b2.rating, 1e-6);
    assert_true(a2.rd < 350 && b2.rd < 350);
    assert_true(glicko2_provisional(&a2));
    /* A draw between equals changes neither rating. */
    Glicko2Result draw = {1500, 350, 0.5};
    assert_true(glicko2_rate_game(&a, &draw, 0, &a2));
    assert_near(a2.rating, 1500, 1e-6);
    /* Beating a stronger player gains more than beating a weaker one. */
    Glicko2 strong_win, weak_win;
    Glicko2Result strong = {1800, 80, 1}, weak = {1200, 80, 1};
    assert_true(glicko2_rate_game(&a, &strong, 0, &strong_win));
    assert_true(glicko2_rate_game(&a, &weak, 0, &weak_win));
    assert_true(strong_win.rating > weak_win.rating);
}

static void bounds_and_idle_periods(void **state) {
    (void)state;
    /* Many games against settled opponents: the deviation settles where each game's information
     * balances the volatility's growth (about 60 here), the rating is no longer provisional. */
    Glicko2 g = glicko2_new();
    for (int i = 0; i < 400; i++) {
        Glicko2Result r = {1500, 50, i % 2 ? 1.0 : 0.0};
        assert_true(glicko2_rate_game(&g, &r, 0, &g));
    }
    assert_true(g.rd >= GLICKO2_MIN_RD && g.rd < 70);
    assert_false(glicko2_provisional(&g));
    assert_true(g.volatility <= GLICKO2_MAX_VOLATILITY);
    /* A long absence brings the deviation back towards the newcomer's, never past it. */
    Glicko2 back;
    Glicko2Result r = {1500, 50, 0.5};
    assert_true(glicko2_rate_game(&g, &r, 1000000, &back));
    assert_true(back.rd <= GLICKO2_DEFAULT_RD && back.rd > g.rd);
}

static void bad_inputs_are_refused(void **state) {
    (void)state;
    Glicko2 ok = glicko2_new(), out = {1, 2, 3};
    Glicko2Result good = {1500, 100, 1};
    Glicko2Result bad_score = {1500, 100, 1.5}, nan_rating = {NAN, 100, 1}, zero_rd = {1500, 0, 1};
    assert_false(glicko2_rate_game(&ok, &bad_score, 0, &out));
    assert_false(glicko2_rate_game(&ok, &nan_rating, 0, &out));
    assert_false(glicko2_rate_game(&ok, &zero_rd, 0, &out));
    Glicko2 inf = {INFINITY, 100, 0.06}, no_vol = {1500, 100, 0};
    assert_false(glicko2_rate_game(&inf, &good, 0, &out));
    assert_false(glicko2_rate_game(&no_vol, &good, 0, &out));
    assert_false(glicko2_rate_period(&ok, &good, 1, 0, &out));
    assert_near(out.rating, 1, 0); /* untouched */
    /* Extreme but valid ratings stay finite. */
    Glicko2 high = {4000, 45, 0.1};
    Glicko2Result low = {-1000, 350, 0};
    assert_true(glicko2_rate_game(&high, &low, 0, &out));
    assert_true(isfinite(out.rating) && out.rating < 4000);
}

/* A standard game's category (timecontrol.h). */
static int category(TimeType type, int minutes, int increment) {
    TimeControl tc = {type, minutes, increment, 0};
    return rating_category(&tc, VARIANT_STANDARD);
}

/* rating.h, timecontrol.h: categories by estimated duration, and a game's effect on both players. */
static void categories_and_games(void **state) {
    (void)state;
    assert_int_equal(category(TIME_LIVE, 1, 0), RATING_BULLET);
    assert_int_equal(category(TIME_LIVE, 2, 1), RATING_BULLET);  /* 160 s */
    assert_int_equal(category(TIME_LIVE, 3, 0), RATING_BLITZ);   /* 180 s */
    assert_int_equal(category(TIME_LIVE, 3, 2), RATING_BLITZ);   /* 260 s */
    assert_int_equal(category(TIME_LIVE, 5, 3), RATING_BLITZ);   /* 420 s */
    assert_int_equal(category(TIME_LIVE, 8, 0), RATING_RAPID);   /* 480 s */
    assert_int_equal(category(TIME_LIVE, 15, 10), RATING_RAPID); /* 1300 s */
    assert_int_equal(category(TIME_LIVE, 25, 0), RATING_CLASSICAL);
    assert_int_equal(category(TIME_CORRESPONDENCE, 0, 0), RATING_CORRESPONDENCE);
    assert_int_equal(category(TIME_NONE, 0, 0), -1);
    assert_string_equal(rating_category_name(RATING_BLITZ), "blitz");
    assert_int_equal(rating_category_of("classical"), RATING_CLASSICAL);
    assert_int_equal(rating_category_of("chess960"), RATING_CHESS960);
    assert_string_equal(rating_category_name(RATING_CHESS960), "chess960");
    assert_null(rating_category_name(RATING_COUNT));

    RatingRow w = {glicko2_new(), 0, 0}, b = {glicko2_new(), 0, 0};
    assert_false(rating_apply(&w, &b, "*", 1000));
    assert_true(w.g.rating == 1500 && w.games == 0); /* untouched */
    assert_true(rating_apply(&w, &b, "0-1", 1000));
    assert_true(w.g.rating < 1500 && b.g.rating > 1500);
    assert_int_equal(w.games, 1);
    assert_true(w.updated_ms == 1000);
    /* A year away widens the deviation before the next game. */
    RatingRow w2 = w, b2 = b;
    RatingRow w3 = w, b3 = b;
    assert_true(rating_apply(&w2, &b2, "1/2-1/2", 1000 + 86400000LL));
    assert_true(rating_apply(&w3, &b3, "1/2-1/2", 1000 + 365 * 86400000LL));
    assert_true(w3.g.rd > w2.g.rd);
}

/* timecontrol.h: the names of types and variants both ways, the categories' rule as data (what the web
 * page is told) agreeing with rating_category, and Chess960 games in a category of their own whatever the
 * time control (issue 24). */
static void time_controls_and_variants(void **state) {
    (void)state;
    const char *names[] = {"none", "live", "correspondence"};
    for (int t = TIME_NONE; t <= TIME_CORRESPONDENCE; t++) {
        TimeType back = TIME_NONE;
        assert_string_equal(time_type_name((TimeType)t), names[t]);
        assert_true(time_type_of(names[t], &back));
        assert_int_equal(back, t);
    }
    TimeType untouched = TIME_LIVE;
    assert_false(time_type_of("Live", &untouched));
    assert_false(time_type_of("", &untouched));
    assert_false(time_type_of(NULL, &untouched));
    assert_int_equal(untouched, TIME_LIVE);
    assert_null(time_type_name((TimeType)3));
    Variant v = VARIANT_STANDARD;
    assert_true(variant_of("chess960", &v) && v == VARIANT_CHESS960);
    assert_true(variant_of("standard", &v) && v == VARIANT_STANDARD);
    assert_false(variant_of("Chess960", &v));
    assert_string_equal(variant_name(VARIANT_CHESS960), "chess960");
    assert_null(variant_name((Variant)2));

    /* Every live control up to 180+180: the first live category whose bound its estimate is below. */
    for (int m = 0; m <= 180; m++)
        for (int i = 0; i <= 180; i++) {
            TimeControl tc = {TIME_LIVE, m, i, 0};
            long seconds = time_control_seconds(&tc);
            assert_int_equal(seconds, m * 60 + 40 * i);
            int want = -1;
            for (int c = 0; c < RATING_COUNT && want < 0; c++)
                if (rating_category_time(c) == TIME_LIVE && rating_category_variant(c) == VARIANT_STANDARD &&
                    (rating_category_below(c) == 0 || seconds < rating_category_below(c)))
                    want = c;
            assert_int_equal(rating_category(&tc, VARIANT_STANDARD), want);
            assert_int_equal(rating_category(&tc, VARIANT_CHESS960), RATING_CHESS960);
        }
    TimeControl corr = {TIME_CORRESPONDENCE, 0, 0, 3}, none = {TIME_NONE, 5, 3, 0};
    assert_int_equal(rating_category(&corr, VARIANT_CHESS960), RATING_CHESS960);
    assert_int_equal(rating_category(&corr, VARIANT_STANDARD), RATING_CORRESPONDENCE);
    assert_int_equal(rating_category_time(RATING_CHESS960), TIME_NONE);
    assert_int_equal(rating_category_variant(RATING_CHESS960), VARIANT_CHESS960);
    assert_int_equal(rating_category_variant(RATING_CORRESPONDENCE), VARIANT_STANDARD);
    assert_int_equal(rating_category(&none, VARIANT_CHESS960), -1);
    assert_int_equal(rating_category(NULL, VARIANT_STANDARD), -1);
    assert_int_equal(rating_category_time(RATING_CORRESPONDENCE), TIME_CORRESPONDENCE);
    assert_int_equal(rating_category_below(RATING_BULLET), 180);
    assert_int_equal(rating_category_below(RATING_BLITZ), 480);
    assert_int_equal(rating_category_below(RATING_RAPID), 1500);
    assert_int_equal(rating_category_below(RATING_CLASSICAL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_papers_example),
        cmocka_unit_test(a_period_without_games_widens_the_deviation),
        cmocka_unit_test(one_game_moves_both_players_the_right_way),
        cmocka_unit_test(bounds_and_idle_periods),
        cmocka_unit_test(bad_inputs_are_refused),
        cmocka_unit_test(categories_and_games),
        cmocka_unit_test(time_controls_and_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
