/* The game service's dead positions (FIDE 5.2.2) and flag falls (6.9) beyond material, against the
 * real SQLite store: the full analyses run on the computer's worker thread, never in the request;
 * their verdicts end games through the store, survive restarts and reach subscribers. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* One worker thread: the analyses' home. */
static void workers_on(Env *e) {
    ServiceComputerConfig cfg = {.threads = 1, .hash_mb = 1, .depth = 1};
    char err[256];
    if (!service_computer_start(e->svc, &cfg, env_wake, e, err, sizeof err))
        fail_msg("computer: %s", err);
}

/* A wall of kings and pawns the move g4 locks: the quick pass proves it at once, in the request. */
static void test_dead_at_once(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1\"}", &g);
    json_t *j = move_as(e, &g, 0, 0, "g4", NULL, LANG_EN, 200);
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "state.outcome.termination"), "dead_position");
    assert_string_equal(str(j, "state.outcome.reason"), "locked_pawns");
    assert_true(json_is_null(get(j, "state.outcome.winner")));
    json_decref(j);
    expect_error(move_as(e, &g, 1, 1, "Kb6", NULL, LANG_EN, 409), "game_over");
}

/* Black's bishop gives checks in White's camp but can never mate: only the full analysis (an
 * exhaustive search) shows it. The move is answered at once; the worker's verdict ends the game
 * through the store, and the ending survives a restart. */
static void test_dead_by_worker(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1b5 w - - 0 1\"}", &g);
    Events ev = {0};
    service_subscribe(e->svc, g.id, on_event, &ev);
    json_t *j = move_as(e, &g, 0, 0, "g4", NULL, LANG_EN, 200);
    json_decref(j);
    j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    assert_string_equal(str(j, "outcome.reason"), "locked_pawns");
    assert_int_equal(json_integer_value(get(j, "ply")), 1);
    json_decref(j);
    assert_true(ev.count >= 2); /* the move, then the ending */
    free(ev.last);
    env_close(e);
    env_open(e);
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"termination\":\"dead_position\""));
    free(s);
}

/* The same without workers (a service whose computer never started): the analysis runs inline. */
static void test_dead_without_workers(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1b5 w - - 0 1\"}", &g);
    json_decref(move_as(e, &g, 0, 0, "g4", NULL, LANG_EN, 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    json_decref(j);
}

/* Flag falls judged on the worker: K+N v K+R, White's flag: the knight can mate (the rook blocks a
 * flight square), so Black wins; K+N v K+Q: the knight never mates the queen's king, a draw. A move
 * after the flag fell is refused while the verdict is on its way. */
static void test_flag_fall_judged(void **state) {
    Env *e = *state;
    workers_on(e);
    static const struct {
        const char *fen, *result, *termination;
    } cases[] = {
        {"8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", "0-1", "time_forfeit"},
        {"8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", "1/2-1/2", "timeout_insufficient_material"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game2 g;
        char body[256];
        snprintf(body, sizeof body, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0},\"fen\":\"%s\"}",
                 cases[i].fen);
        new_game(e, body, &g);
        play(e, &g, 0, "Ke2 Nf3");
        e->now += 60001;
        expect_error(move_as(e, &g, 0, 2, "Kxf3", NULL, LANG_EN, 409), "game_over");
        json_t *j = wait_for_end(e, g.id);
        assert_string_equal(str(j, "outcome.result"), cases[i].result);
        assert_string_equal(str(j, "outcome.termination"), cases[i].termination);
        assert_int_equal(json_integer_value(get(j, "ply")), 2);
        json_decref(j);
    }
}

/* A stored game an older server let go on past a dead position is read back whole and ended. */
static void test_loaded_dead_game_ends(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1\"}", &g);
    /* Two king moves: the wall stays open on the g-file. */
    play(e, &g, 0, "Kb1 Kb6");
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"outcome\":null"));
    free(s);
    env_close(e);
    env_open(e);
    workers_on(e);
    json_decref(move_as(e, &g, 0, 2, "g4", NULL, LANG_EN, 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    json_decref(j);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dead_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dead_by_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dead_without_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flag_fall_judged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loaded_dead_game_ends, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
