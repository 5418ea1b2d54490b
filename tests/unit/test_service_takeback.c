/* Takebacks and premoves in the service (service_takeback.c, service_premove.c) with the injected clock,
 * so the clocks are compared to the millisecond: a takeback leaves the game exactly as it was before the
 * move taken back (clocks and whose clock runs, the moves with their times, the repetition history, no
 * draw offer) and survives a restart; a premove is played at the opponent's commit with no time charged
 * beyond the service's (none, with a clock that stands still), and one that is not legal then is dropped
 * and only its player's subscribers hear of it. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

#define LIVE "{\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":3}}"

static json_t *takeback(Env *e, const Game2 *g, int color, const char *action, int status) {
    char extra[64];
    snprintf(extra, sizeof extra, ",\"action\":\"%s\"", action);
    return action_as(e, g, ACTION_TAKEBACK, color, extra, status);
}

static void move_at(Env *e, const Game2 *g, int64_t at, int ply, const char *move) {
    e->now = T0 + at;
    json_decref(move_as(e, g, ply % 2, ply, move, NULL, SCH_LANG_EN, 200));
}

static int64_t clock_of(const json_t *state, const char *color) {
    char path[32];
    snprintf(path, sizeof path, "clock.%s", color);
    return json_integer_value(get(state, path));
}

static void test_takeback_restores_clocks_and_moves(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, LIVE, &g);
    move_at(e, &g, 1000, 0, "e4");
    move_at(e, &g, 3000, 1, "e5"); /* both have moved: white's clock runs from here */
    move_at(e, &g, 10000, 2, "Nf3");
    move_at(e, &g, 20000, 3, "Nc6");
    json_t *at4 = state_json(e, g.id); /* white to move at 20 s */
    assert_int_equal(clock_of(at4, "white"), 300000 - 7000 + 3000);
    assert_int_equal(clock_of(at4, "black"), 300000 - 10000 + 3000);
    move_at(e, &g, 25000, 4, "Bc4");
    json_decref(action_as(e, &g, ACTION_DRAW, 1, ",\"action\":\"offer\"", 200));

    /* White asks at 30 s, black accepts at 40 s: one ply (white moved last). */
    e->now = T0 + 30000;
    json_t *asked = takeback(e, &g, 0, "offer", 200);
    assert_string_equal(str(asked, "state.takeback_offer"), "white");
    json_decref(asked);
    expect_error(takeback(e, &g, 0, "accept", 409), "no_takeback_offer");
    e->now = T0 + 40000;
    json_t *done = takeback(e, &g, 1, "accept", 200);
    const json_t *s = get(done, "state");
    assert_int_equal(json_integer_value(get(s, "ply")), 4);
    assert_true(json_is_null(get(s, "takeback_offer")));
    assert_true(json_is_null(get(s, "draw_offer")));
    assert_string_equal(str(s, "clock.running"), "white");
    /* The clocks as at ply 4, white's turn counted from Nc6 (20 s) as if Bc4 had never been made. */
    assert_int_equal(clock_of(s, "black"), clock_of(at4, "black"));
    assert_int_equal(clock_of(s, "white"), clock_of(at4, "white") - 20000);
    assert_true(json_equal(get(s, "moves"), get(at4, "moves"))); /* with their "at" times */
    assert_string_equal(str(s, "fen"), str(at4, "fen"));
    json_decref(done);
    json_decref(at4);
    assert_state_survives_restart(e, g.id);

    /* Black asks for Nc6: one ply, black's turn counted from Nf3 (10 s), black's clock as then. */
    e->now = T0 + 50000;
    json_decref(takeback(e, &g, 1, "offer", 200));
    json_t *t = takeback(e, &g, 0, "accept", 200);
    assert_int_equal(json_integer_value(get(t, "state.ply")), 3);
    assert_int_equal(clock_of(get(t, "state"), "black"), 300000 - 40000);
    assert_int_equal(clock_of(get(t, "state"), "white"), 300000 - 7000 + 3000);
    json_decref(t);

    /* Black, to move, asks for e5: two plies (Nf3 and e5); before both sides moved no clock runs. */
    json_decref(takeback(e, &g, 1, "offer", 200));
    t = takeback(e, &g, 0, "accept", 200);
    assert_int_equal(json_integer_value(get(t, "state.ply")), 1);
    assert_string_equal(str(t, "state.turn"), "black");
    assert_true(json_is_null(get(t, "state.clock.running")));
    assert_int_equal(clock_of(get(t, "state"), "white"), 300000);
    assert_int_equal(clock_of(get(t, "state"), "black"), 300000);
    assert_int_equal(json_integer_value(get(json_array_get(get(t, "state.moves"), 0), "at")), T0 + 1000);
    json_decref(t);
    assert_state_survives_restart(e, g.id);
    /* And on from there: the store has exactly one move. */
    move_at(e, &g, 60000, 1, "c5");
    assert_state_survives_restart(e, g.id);
}

static void test_takeback_repetition_history(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    int ply = play(e, &g, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    json_t *s = state_json(e, g.id);
    assert_true(array_has(get(s, "claims"), "threefold_repetition"));
    json_decref(s);
    /* White asks for Ng1 (black replied): Ng8 and Ng1 go; the position after 3...Nf6 stood twice. */
    json_decref(takeback(e, &g, 0, "offer", 200));
    json_t *t = takeback(e, &g, 1, "accept", 200);
    assert_int_equal(json_integer_value(get(t, "state.ply")), ply - 2);
    assert_false(array_has(get(t, "state.claims"), "threefold_repetition"));
    json_decref(t);
    play(e, &g, ply - 2, "Ng1 Ng8");
    s = state_json(e, g.id);
    assert_true(array_has(get(s, "claims"), "threefold_repetition")); /* the history counts as before */
    json_decref(s);
}

static void test_takeback_refusals(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    expect_error(takeback(e, &g, 0, "offer", 409), "no_takeback");
    play(e, &g, 0, "e4");
    char *before = state_text(e, g.id);
    expect_error(takeback(e, &g, 1, "offer", 409), "no_takeback");
    expect_error(takeback(e, &g, 1, "accept", 409), "no_takeback_offer");
    expect_error(takeback(e, &g, 0, "later", 400), "bad_request");
    char *after = state_text(e, g.id);
    assert_string_equal(before, after);
    free(before);
    free(after);
    /* A move lets a request lapse. */
    json_decref(takeback(e, &g, 0, "offer", 200));
    play(e, &g, 1, "e5");
    expect_error(takeback(e, &g, 1, "accept", 409), "no_takeback_offer");
    json_t *german = request(e, ACTION_TAKEBACK, g.id, "{\"secret\":\"nope\",\"action\":\"offer\"}", SCH_LANG_DE, 403);
    expect_error(german, "bad_secret");
}

static void test_premove_played_at_the_commit(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, LIVE, &g);
    move_at(e, &g, 1000, 0, "e4");
    move_at(e, &g, 2000, 1, "e5");
    json_t *q = action_as(e, &g, ACTION_PREMOVE, 1, ",\"ply\":3,\"move\":\"g8f6\"", 200);
    assert_string_equal(str(q, "premove.move"), "g8f6");
    assert_null(get(q, "state.premove")); /* in no state */
    json_decref(q);
    e->now = T0 + 9000;
    json_decref(move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200));
    json_t *s = wait_for_ply(e, g.id, 4);
    assert_string_equal(str(s, "last_move"), "g8f6");
    /* Played at the same instant as Nf3 (the clock stands still here): black charged nothing. */
    assert_int_equal(clock_of(s, "black"), 300000 + 3000);
    assert_int_equal(clock_of(s, "white"), 300000 - 7000 + 3000);
    json_decref(s);
    assert_state_survives_restart(e, g.id);
}

static void test_premove_dropped_and_cancelled(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, LIVE, &g);
    play(e, &g, 0, "e4 e5");
    Events w = {0}, b = {0};
    bool bad = false;
    uint64_t sw = service_subscribe_as(e->svc, g.id, g.secret[0], on_event, &w, &bad);
    uint64_t sb = service_subscribe_as(e->svc, g.id, g.secret[1], on_event, &b, &bad);
    assert_true(sw && sb);
    /* Black queues exd4, white plays Nf3: nothing on d4 to take. */
    json_decref(action_as(e, &g, ACTION_PREMOVE, 1, ",\"ply\":3,\"move\":\"e5d4\"", 200));
    int w_before = w.count;
    json_decref(move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200));
    assert_non_null(strstr(b.last, "\"dropped\":\"e5d4\""));
    assert_int_equal(w.count, w_before + 1); /* white got the state, not black's premove */
    assert_null(strstr(w.last, "e5d4"));
    json_t *s = state_json(e, g.id);
    assert_int_equal(json_integer_value(get(s, "ply")), 3);
    json_decref(s);
    /* Queued and cancelled: nothing is played for black. */
    play(e, &g, 3, "Nc6");
    json_decref(action_as(e, &g, ACTION_PREMOVE, 1, ",\"ply\":5,\"move\":\"g8f6\"", 200));
    json_t *c = action_as(e, &g, ACTION_PREMOVE, 1, "", 200);
    assert_true(json_is_null(get(c, "premove")));
    json_decref(c);
    play(e, &g, 4, "Bc4 Bc5");
    /* Refusals: no clock, a later ply, not UCI. */
    expect_error(action_as(e, &g, ACTION_PREMOVE, 1, ",\"ply\":9,\"move\":\"g8f6\"", 409), "stale_ply");
    expect_error(action_as(e, &g, ACTION_PREMOVE, 1, ",\"ply\":7,\"move\":\"Nf6\"", 400), "bad_request");
    Game2 slow;
    new_game(e, "{}", &slow);
    play(e, &slow, 0, "e4");
    expect_error(action_as(e, &slow, ACTION_PREMOVE, 0, ",\"ply\":2,\"move\":\"g1f3\"", 409), "no_premove");
    service_unsubscribe(e->svc, sw);
    service_unsubscribe(e->svc, sb);
    free(w.last);
    free(b.last);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_takeback_restores_clocks_and_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_takeback_repetition_history, setup, teardown),
        cmocka_unit_test_setup_teardown(test_takeback_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_premove_played_at_the_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_premove_dropped_and_cancelled, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
