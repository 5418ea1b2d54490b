/* The game service's computer player against the real SQLite store: creating games against it, its
 * answers (through the same change path as a person's), results dropped when the game moved on,
 * searches after a restart, and its draw decisions (the engine's draw policy). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* Starts the computer player: one worker thread (or synchronous searches with threads 0), depth 1 so
 * every search is quick, and delay_ms before each search (a search held back until cancelled). */
static void computer_on(Env *e, int threads, int delay_ms) {
    ServiceComputerConfig cfg = {.threads = threads, .hash_mb = 1, .depth = 1, .delay_ms = delay_ms};
    char err[256];
    if (!service_computer_start(e->svc, &cfg, env_wake, e, err, sizeof err))
        fail_msg("computer: %s", err);
}

/* A game against the computer; g->secret holds the person's side only. Returns the person's color. */
static int computer_game(Env *e, const char *body, Game2 *g) {
    json_t *j = request(e, ACTION_CREATE, NULL, body, SCH_LANG_EN, 201);
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", str(j, "id"));
    int color = strcmp(str(j, "color"), "white") == 0 ? 0 : 1;
    snprintf(g->secret[color], sizeof g->secret[0], "%s", str(j, "secret"));
    assert_true(json_is_null(get(j, "invite")));
    assert_null(get(j, "secrets"));
    json_decref(j);
    return color;
}

/* The first legal move of a state (a queen for a promotion), as UCI. */
static void first_legal(const json_t *state, char out[8]) {
    const char *from;
    const json_t *targets;
    json_object_foreach((json_t *)get(state, "legal"), from, targets) {
        snprintf(out, 8, "%s%s", from, json_string_value(json_array_get(targets, 0)));
        if (array_has(get(state, "promotions"), out))
            strcat(out, "q");
        return;
    }
    fail_msg("no legal move");
}

static void test_computer_create_validation(void **state) {
    Env *e = *state;
    expect_error(request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\"}", SCH_LANG_EN, 400), "bad_request");
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"grandmaster\"}", SCH_LANG_EN, 422);
    assert_non_null(strstr(str(j, "error.message"), "grandmaster"));
    expect_error(j, "unknown_level");
    j = request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"nope\",\"lang\":\"de\"}", SCH_LANG_EN, 422);
    assert_non_null(strstr(str(j, "error.message"), "Computerstufe"));
    expect_error(j, "unknown_level");
    expect_error(request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":7}", SCH_LANG_EN, 400),
                 "bad_request");
    expect_error(request(e, ACTION_CREATE, NULL, "{\"mode\":\"friend\",\"level\":\"club\"}", SCH_LANG_EN, 400),
                 "bad_request");
    expect_error(request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"club\",\"color\":\"green\"}",
                         SCH_LANG_EN, 400),
                 "bad_request");

    /* The levels, with both names. */
    j = request(e, ACTION_LEVELS, NULL, NULL, SCH_LANG_EN, 200);
    const json_t *levels = get(j, "levels");
    assert_true(json_array_size(levels) >= 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(levels, 0), "id")), "beginner");
    assert_non_null(json_object_get(json_array_get(levels, 0), "name_de"));
    json_decref(j);

    /* A good one (no computer started: it just does not move yet). The level id is case-insensitive. */
    j = request(e, ACTION_CREATE, NULL,
                "{\"mode\":\"computer\",\"level\":\"CLUB\",\"color\":\"black\",\"time\":{\"type\":\"none\"}}",
                SCH_LANG_EN, 201);
    assert_string_equal(str(j, "color"), "black");
    assert_string_equal(str(j, "state.mode"), "computer");
    assert_string_equal(str(j, "state.computer.color"), "white");
    assert_string_equal(str(j, "state.computer.level"), "club");
    assert_string_equal(str(j, "state.computer.name"), "Club player");
    assert_string_equal(str(j, "state.computer.name_de"), "Vereinsspieler");
    assert_true(json_is_false(get(j, "state.players.white")));
    assert_true(json_is_true(get(j, "state.players.black")));
    json_decref(j);
}

static void test_computer_answers(void **state) {
    Env *e = *state;
    computer_on(e, 1, 0);
    Game2 g;
    assert_int_equal(computer_game(e, "{\"mode\":\"computer\",\"level\":\"beginner\",\"color\":\"white\"}", &g), 0);
    Events ev = {0};
    uint64_t sub = service_subscribe(e->svc, g.id, on_event, &ev);
    json_decref(move_as(e, &g, 0, 0, "e4", NULL, SCH_LANG_EN, 200));
    json_t *j = wait_for_ply(e, g.id, 2);
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    assert_string_equal(str(j, "turn"), "white");
    assert_non_null(strstr(ev.last, "\"ply\":2")); /* subscribers saw its move */
    /* The person plays on (whatever is legal: the computer's moves depend on the engine), the computer
     * answers again. */
    char mv[8];
    first_legal(j, mv);
    json_decref(j);
    json_decref(move_as(e, &g, 0, 2, mv, NULL, SCH_LANG_EN, 200));
    j = wait_for_ply(e, g.id, 4);
    assert_int_equal(json_integer_value(get(j, "ply")), 4);
    first_legal(j, mv);
    json_decref(j);
    /* Moving for the computer is not possible: the person's secret is not its side's. */
    json_decref(move_as(e, &g, 0, 4, mv, NULL, SCH_LANG_EN, 200));
    expect_error(move_as(e, &g, 0, 5, "a6", NULL, SCH_LANG_EN, 409), "not_your_turn");
    j = wait_for_ply(e, g.id, 6);
    json_decref(j);
    char *pgn = pgn_of(e, g.id, SCH_LANG_EN);
    assert_non_null(strstr(pgn, "[White \"?\"]"));
    assert_non_null(strstr(pgn, "[Black \"schach (Beginner)\"]"));
    assert_non_null(strstr(pgn, "[ComputerLevel \"beginner\"]"));
    char elo_tag[48];
    snprintf(elo_tag, sizeof elo_tag, "[BlackElo \"%d\"]", engine_level_find("beginner")->elo);
    assert_non_null(strstr(pgn, elo_tag));
    free(pgn);
    pgn = pgn_of(e, g.id, SCH_LANG_DE);
    assert_non_null(strstr(pgn, "[Black \"schach (Anfänger)\"]"));
    free(pgn);

    /* Playing black, the person waits for the computer's first move. */
    Game2 h;
    assert_int_equal(computer_game(e, "{\"mode\":\"computer\",\"level\":\"max\",\"color\":\"black\"}", &h), 1);
    j = wait_for_ply(e, h.id, 1);
    assert_string_equal(str(j, "turn"), "black");
    assert_true(json_is_true(get(j, "can_abort")));
    json_decref(j);
    /* The person may still abort before making a move. */
    j = action_as(e, &h, ACTION_ABORT, 1, NULL, 200);
    assert_string_equal(str(j, "state.outcome.termination"), "aborted");
    json_decref(j);
    service_unsubscribe(e->svc, sub);
    free(ev.last);
}

/* A result that comes back after the game ended is dropped; a search held back is cut short by the
 * end of the game and by shutdown. */
static void test_computer_result_dropped(void **state) {
    Env *e = *state;
    /* Synchronous searches: the result is ready before the person's resignation is committed. */
    computer_on(e, 0, 0);
    Game2 g;
    computer_game(e, "{\"mode\":\"computer\",\"level\":\"beginner\",\"color\":\"white\"}", &g);
    Reply r = {0};
    char body[256];
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":0,\"move\":\"e4\"}", g.secret[0]);
    ServiceRequest req = {.action = ACTION_MOVE, .game = g.id, .body = body, .lang = SCH_LANG_EN};
    service_handle(e->svc, &req, on_reply, &r);
    settle(e, &r); /* the move is committed and the computer's search has already run */
    assert_int_equal(r.status, 200);
    free(r.body);
    json_t *j = action_as(e, &g, ACTION_RESIGN, 0, NULL, 200);
    assert_string_equal(str(j, "state.outcome.termination"), "resignation");
    assert_int_equal(json_integer_value(get(j, "state.ply")), 1);
    json_decref(j);
    for (int i = 0; i < 3; i++)
        service_on_wake(e->svc);
    char *text = state_text(e, g.id);
    assert_non_null(strstr(text, "\"ply\":1,"));
    free(text);

    /* A worker holding its search back: the person resigns meanwhile, and shutdown is prompt. */
    env_close(e);
    env_open(e);
    computer_on(e, 1, 3600 * 1000);
    Game2 h;
    computer_game(e, "{\"mode\":\"computer\",\"level\":\"max\",\"color\":\"white\"}", &h);
    json_decref(move_as(e, &h, 0, 0, "d4", NULL, SCH_LANG_EN, 200));
    j = action_as(e, &h, ACTION_RESIGN, 0, NULL, 200);
    assert_string_equal(str(j, "state.outcome.result"), "0-1");
    json_decref(j);
    env_close(e);
    env_open(e);
    text = state_text(e, h.id);
    assert_non_null(strstr(text, "\"ply\":1,"));
    assert_non_null(strstr(text, "\"termination\":\"resignation\""));
    free(text);
}

/* After a restart, a game in which the computer is to move gets a new search. */
static void test_computer_after_restart(void **state) {
    Env *e = *state;
    computer_on(e, 1, 3600 * 1000); /* it will not move before the restart */
    Game2 g;
    computer_game(e,
                  "{\"mode\":\"computer\",\"level\":\"novice\",\"color\":\"white\","
                  "\"time\":{\"type\":\"correspondence\",\"days\":3}}",
                  &g);
    json_decref(move_as(e, &g, 0, 0, "e4", NULL, SCH_LANG_EN, 200));
    env_close(e);
    env_open(e);
    computer_on(e, 1, 0);
    json_t *j = wait_for_ply(e, g.id, 2);
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    assert_true(json_is_integer(get(j, "clock.deadline"))); /* both have moved: the deadline runs */
    json_decref(j);
}

/* Draw offers and claims by the computer's evaluation. */
static void test_computer_draws(void **state) {
    Env *e = *state;
    computer_on(e, 1, 0);
    /* The computer (black) has a bare king against a queen: it accepts at once. */
    Game2 g;
    computer_game(e, "{\"mode\":\"computer\",\"level\":\"club\",\"fen\":\"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"}", &g);
    json_decref(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "agreement");
    json_decref(j);

    /* Against its extra queen the offer is declined, and the game goes on. */
    Game2 h;
    computer_game(e, "{\"mode\":\"computer\",\"level\":\"club\",\"fen\":\"3qk3/8/8/8/8/8/8/4K3 w - - 0 1\"}", &h);
    json_decref(action_as(e, &h, ACTION_DRAW, 0, ",\"action\":\"offer\"", 200));
    for (;;) {
        unsigned seen = wakes_now(e);
        service_on_wake(e->svc);
        char *text = state_text(e, h.id);
        bool declined = strstr(text, "\"draw_offer\":null") != NULL;
        assert_non_null(strstr(text, "\"outcome\":null"));
        free(text);
        if (declined)
            break;
        wait_wake_after(e, seen);
    }
    json_decref(move_as(e, &h, 0, 0, "Kf2", NULL, SCH_LANG_EN, 200));
    json_decref(wait_for_ply(e, h.id, 2));

    /* A rook down, on its turn with 50 moves without capture or pawn move behind it: it claims. */
    Game2 k;
    computer_game(e, "{\"mode\":\"computer\",\"level\":\"club\",\"fen\":\"4k3/8/8/8/8/8/8/R3K2b b - - 100 80\"}", &k);
    j = wait_for_end(e, k.id);
    assert_string_equal(str(j, "outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "outcome.termination"), "fifty_moves");
    json_decref(j);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_computer_create_validation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_result_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_after_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_draws, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
