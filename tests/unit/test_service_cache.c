/* The service's memory: games in play live in memory, finished games only in a bounded cache (or
 * while something holds them) and are read from the store again when asked for; subscriptions stay
 * right when games leave memory and their slots are reused; start-up reads only the games in play and
 * the recent list. Also the service's checks on joining (issue 10, item 8). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

static ServiceStats stats(Env *e) {
    ServiceStats s;
    service_stats(e->svc, &s);
    return s;
}

/* A friend game created, joined, played a little and resigned by black; returns its final state. */
static char *finished_game(Env *e, Game2 *g) {
    new_game(e, "{}", g);
    play(e, g, 0, "e4 e5 Nf3");
    json_decref(action_as(e, g, ACTION_RESIGN, 1, NULL, 200));
    return state_text(e, g->id);
}

static void test_finished_games_leave_memory_and_come_back(void **state) {
    Env *e = *state;
    service_set_cache_max(e->svc, 2);
    enum { N = 6 };
    Game2 g[N];
    char *final[N];
    for (int i = 0; i < N; i++)
        final[i] = finished_game(e, &g[i]);
    ServiceStats s = stats(e);
    assert_int_equal(s.games_in_play, 0);
    assert_int_equal(s.games_in_memory, 2); /* the cache's size, not the games played */

    /* Every game is served as it was, from the store: state, PGN, refusals of changes. */
    for (int i = 0; i < N; i++) {
        char *now = state_text(e, g[i].id);
        assert_string_equal(now, final[i]);
        free(now);
        free(final[i]);
        expect_error(move_as(e, &g[i], 1, 3, "Nc6", NULL, SCH_LANG_EN, 409), "game_over");
        expect_error(action_as(e, &g[i], ACTION_RESIGN, 0, NULL, 409), "game_over");
        assert_true(stats(e).games_in_memory <= 2);
    }
    Reply r = {0};
    ServiceRequest req = {.action = ACTION_PGN, .game = g[0].id, .lang = SCH_LANG_EN};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "1. e4 e5 2. Nf3 {")); /* then what ended it in words, and 1-0 */
    assert_non_null(strstr(r.body, "} 1-0"));
    free(r.body);

    /* The browser's list reads the games it names, wherever they are. */
    char ids[128];
    snprintf(ids, sizeof ids, "%s,%s,nosuchgame00", g[0].id, g[N - 1].id);
    Reply l = {0};
    ServiceRequest list = {.action = ACTION_LIST, .ids = ids};
    service_handle(e->svc, &list, on_reply, &l);
    json_t *j = json_loads(l.body, 0, NULL);
    free(l.body);
    assert_int_equal(json_array_size(get(j, "games")), 2);
    assert_string_equal(str(json_array_get(get(j, "games"), 0), "id"), g[0].id);
    assert_int_equal(json_integer_value(get(json_array_get(get(j, "games"), 0), "moves")), 3);
    assert_string_equal(str(json_array_get(get(j, "games"), 0), "outcome.termination"), "resignation");
    json_decref(j);
    assert_true(stats(e).games_in_memory <= 2);

    /* A smaller cache frees at once; games in play never leave. */
    Game2 live;
    new_game(e, "{}", &live);
    service_set_cache_max(e->svc, 0);
    s = stats(e);
    assert_int_equal(s.games_in_memory, 1);
    assert_int_equal(s.games_in_play, 1);
    play(e, &live, 0, "d4");
}

static void test_subscriptions_across_eviction(void **state) {
    Env *e = *state;
    service_set_cache_max(e->svc, 0);
    Game2 a, b, c;
    free(finished_game(e, &a));
    free(finished_game(e, &b));
    free(finished_game(e, &c));
    assert_int_equal(stats(e).games_in_memory, 0);

    /* A watcher holds a finished game in memory; when it leaves, the game goes. */
    Events ea = {0}, eb = {0}, ec = {0};
    uint64_t sub_a = service_subscribe(e->svc, a.id, on_event, &ea);
    assert_true(sub_a != 0);
    assert_int_equal(ea.count, 1);
    assert_non_null(strstr(ea.last, "\"termination\":\"resignation\""));
    assert_int_equal(stats(e).games_in_memory, 1);
    uint64_t sub_b = service_subscribe(e->svc, b.id, on_event, &eb);
    assert_int_equal(stats(e).games_in_memory, 2);
    service_unsubscribe(e->svc, sub_b);
    assert_int_equal(stats(e).games_in_memory, 1);

    /* c takes the slot b had: b's old subscription id must not reach c's watcher. */
    uint64_t sub_c = service_subscribe(e->svc, c.id, on_event, &ec);
    assert_true(sub_c != 0 && sub_c != sub_b);
    service_unsubscribe(e->svc, sub_b);
    ServiceStats s = stats(e);
    assert_int_equal(s.subscriptions, 2);
    assert_int_equal(s.games_in_memory, 2);
    service_unsubscribe(e->svc, sub_c);
    service_unsubscribe(e->svc, sub_a);
    s = stats(e);
    assert_int_equal(s.subscriptions, 0);
    assert_int_equal(s.games_in_memory, 0);
    assert_int_equal(service_subscribe(e->svc, "nosuchgame00", on_event, &ec), 0);

    /* A watched game that ends stays while watched, and its watcher hears the end. */
    Game2 d;
    new_game(e, "{}", &d);
    Events ed = {0};
    uint64_t sub_d = service_subscribe(e->svc, d.id, on_event, &ed);
    json_decref(action_as(e, &d, ACTION_RESIGN, 0, NULL, 200));
    assert_int_equal(ed.count, 2);
    assert_non_null(strstr(ed.last, "\"result\":\"0-1\""));
    assert_int_equal(stats(e).games_in_memory, 1);
    service_unsubscribe(e->svc, sub_d);
    assert_int_equal(stats(e).games_in_memory, 0);
    free(ea.last);
    free(eb.last);
    free(ec.last);
    free(ed.last);
}

/* Writes count finished games straight through the store (one group commit), updated at T0 + i s. */
static void store_finished_games(Env *e, int count) {
    StoreOp *ops = calloc((size_t)count, sizeof *ops);
    unsigned seen = wakes_now(e);
    for (int i = 0; i < count; i++) {
        GameRecord *rec = &ops[i].record;
        snprintf(rec->id, sizeof rec->id, "old%09d", i);
        rec->created_ms = T0;
        rec->updated_ms = T0 + (int64_t)i * 1000;
        snprintf(rec->mode, sizeof rec->mode, "local");
        rec->time.type = TIME_NONE;
        rec->invite_color = -1;
        rec->draw_offer = -1;
        snprintf(rec->result, sizeof rec->result, "1-0");
        snprintf(rec->termination, sizeof rec->termination, "resignation");
        ops[i].create = true;
        store_submit(e->store, &ops[i]);
    }
    int back = 0;
    while (back < count) {
        for (StoreOp *op = store_take_done(e->store); op; op = op->next, back++)
            assert_true(op->ok);
        if (back < count) {
            wait_wake_after(e, seen);
            seen = wakes_now(e);
        }
    }
    free(ops);
}

static void test_start_reads_games_in_play_only(void **state) {
    Env *e = *state;
    enum { FINISHED = 3000 };
    store_finished_games(e, FINISHED);
    Game2 live[3];
    for (int i = 0; i < 3; i++)
        new_game(e, "{}", &live[i]);
    play(e, &live[1], 0, "e4");
    env_close(e);
    env_open(e);
    ServiceStats s = stats(e);
    assert_int_equal(s.games_in_play, 3);
    assert_int_equal(s.games_in_memory, 3);

    /* The recent list came from the store: the 20 newest, newest first. */
    json_t *j = request(e, ACTION_RECENT, NULL, NULL, SCH_LANG_EN, 200);
    const json_t *games = get(j, "games");
    assert_int_equal(json_array_size(games), 20);
    assert_string_equal(str(json_array_get(games, 0), "id"), "old000002999");
    assert_string_equal(str(json_array_get(games, 19), "id"), "old000002980");
    assert_string_equal(str(json_array_get(games, 0), "outcome.result"), "1-0");
    json_decref(j);

    /* The oldest game is read when asked for; the games in play go on. */
    char *old = state_text(e, "old000000000");
    assert_non_null(strstr(old, "\"termination\":\"resignation\""));
    free(old);
    assert_int_equal(stats(e).games_in_memory, 4);
    play(e, &live[1], 1, "e5");

    /* A game that finishes now leads the list (its time is later than every stored one). */
    e->now = T0 + (int64_t)FINISHED * 1000;
    json_decref(action_as(e, &live[0], ACTION_RESIGN, 0, NULL, 200));
    j = request(e, ACTION_RECENT, NULL, NULL, SCH_LANG_EN, 200);
    assert_string_equal(str(json_array_get(get(j, "games"), 0), "id"), live[0].id);
    assert_int_equal(json_array_size(get(j, "games")), 20);
    json_decref(j);
}

/* The invitation is checked first: without a valid one the answer is 403 whatever the game does;
 * with one, an ended game takes nobody in (409 sch_game_over), and a change in flight asks for patience. */
static void test_join_checks(void **state) {
    Env *e = *state;
    json_t *j = request(e, ACTION_CREATE, NULL, "{}", SCH_LANG_EN, 201);
    Game2 g = {0};
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.secret[0], sizeof g.secret[0], "%s", str(j, "secret"));
    char good[128], bad[128];
    snprintf(good, sizeof good, "{\"invite\":\"%s\"}", str(j, "invite"));
    snprintf(bad, sizeof bad, "{\"invite\":\"%43s\"}", "x");
    json_decref(j);

    /* White moves before black has joined; while that move is being committed: */
    Reply r = {0};
    char body[256];
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":0,\"move\":\"e4\"}", g.secret[0]);
    ServiceRequest req = {.action = ACTION_MOVE, .game = g.id, .body = body};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.calls, 0);
    Reply jb = {0}, jg = {0};
    ServiceRequest join_bad = {.action = ACTION_JOIN, .game = g.id, .body = bad};
    ServiceRequest join_good = {.action = ACTION_JOIN, .game = g.id, .body = good};
    service_handle(e->svc, &join_bad, on_reply, &jb);
    service_handle(e->svc, &join_good, on_reply, &jg);
    assert_int_equal(jb.status, 403);
    assert_non_null(strstr(jb.body, "bad_invite"));
    assert_int_equal(jg.status, 409);
    assert_non_null(strstr(jg.body, "busy"));
    free(jb.body);
    free(jg.body);
    settle(e, &r);
    assert_int_equal(r.status, 200);
    free(r.body);

    /* The game ends before anybody joined: the invitation no longer takes anybody in. */
    json_decref(action_as(e, &g, ACTION_RESIGN, 0, NULL, 200));
    char *before = state_text(e, g.id);
    expect_error(request(e, ACTION_JOIN, g.id, good, SCH_LANG_EN, 409), "game_over");
    expect_error(request(e, ACTION_JOIN, g.id, bad, SCH_LANG_EN, 403), "bad_invite");
    /* Also after a restart, and once the game was read back from the store. */
    env_close(e);
    env_open(e);
    expect_error(request(e, ACTION_JOIN, g.id, good, SCH_LANG_EN, 409), "game_over");
    char *after = state_text(e, g.id);
    assert_string_equal(before, after);
    assert_non_null(strstr(after, "\"players\":{\"white\":true,\"black\":false}"));
    free(before);
    free(after);
}

/* Every time member out of its range or out of place is refused and names itself; nothing is made. */
static void test_time_members(void **state) {
    Env *e = *state;
    static const char *const bad[][2] = {
        {"{\"type\":\"live\",\"minutes\":5,\"increment\":-1}", "time.increment"},
        {"{\"type\":\"live\",\"minutes\":5,\"increment\":181}", "time.increment"},
        {"{\"type\":\"live\",\"minutes\":-1}", "time.minutes"},
        {"{\"type\":\"live\"}", "time.minutes"},
        {"{\"type\":\"none\",\"increment\":-1}", "time.increment"},
        {"{\"type\":\"none\",\"days\":0}", "time.days"},
        {"{\"type\":\"correspondence\",\"days\":2,\"minutes\":-1}", "time.minutes"},
        {"{\"type\":\"correspondence\"}", "time.days"},
        {"{\"type\":\"correspondence\",\"days\":-2}", "time.days"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[256];
        snprintf(body, sizeof body, "{\"mode\":\"local\",\"time\":%s}", bad[i][0]);
        json_t *j = request(e, ACTION_CREATE, NULL, body, SCH_LANG_EN, 400);
        if (!strstr(str(j, "error.message"), bad[i][1]))
            fail_msg("%s: %s does not name %s", bad[i][0], str(j, "error.message"), bad[i][1]);
        expect_error(j, "bad_request");
    }
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"time\":{\"type\":\"live\",\"minutes\":3}}", SCH_LANG_EN, 201);
    assert_int_equal(json_integer_value(get(j, "state.time.increment")), 0);
    json_decref(j);
    assert_int_equal(stats(e).games_in_memory, 1);
}

static void test_list_recent(void **state) {
    Env *e = *state;
    Game2 g[3];
    for (int i = 0; i < 3; i++)
        new_game(e, "{}", &g[i]);
    play(e, &g[1], 0, "e4 e5 Qh5");
    char ids[128];
    snprintf(ids, sizeof ids, "%s,nosuchgame00,%s,,x", g[1].id, g[0].id);
    Reply r = {0};
    ServiceRequest req = {.action = ACTION_LIST, .ids = ids};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.status, 200);
    json_t *j = json_loads(r.body, 0, NULL);
    free(r.body);
    const json_t *games = get(j, "games");
    assert_int_equal(json_array_size(games), 2);
    const json_t *s = json_array_get(games, 0);
    assert_string_equal(str(s, "id"), g[1].id);
    assert_int_equal(json_integer_value(get(s, "moves")), 3);
    assert_string_equal(str(s, "mode"), "friend");
    assert_string_equal(str(s, "time.type"), "none");
    assert_true(json_is_null(get(s, "outcome")));
    assert_true(json_is_true(get(s, "white")) && json_is_true(get(s, "black")));
    assert_int_equal(json_integer_value(get(s, "created")), T0);
    json_decref(j);

    /* Finished games, newest first. */
    for (int i = 0; i < 3; i++) {
        e->now += 1000;
        json_decref(action_as(e, &g[i], ACTION_RESIGN, i % 2, NULL, 200));
    }
    for (int pass = 0; pass < 2; pass++) {
        j = request(e, ACTION_RECENT, NULL, NULL, SCH_LANG_EN, 200);
        games = get(j, "games");
        assert_int_equal(json_array_size(games), 3);
        for (int i = 0; i < 3; i++)
            assert_string_equal(str(json_array_get(games, (size_t)i), "id"), g[2 - i].id);
        assert_string_equal(str(json_array_get(games, 1), "outcome.termination"), "resignation");
        json_decref(j);
        env_close(e);
        env_open(e);
    }
    /* An aborted game is not a finished one: not listed. */
    Game2 aborted;
    new_game(e, "{}", &aborted);
    e->now += 1000;
    json_decref(action_as(e, &aborted, ACTION_ABORT, 0, NULL, 200));
    j = request(e, ACTION_RECENT, NULL, NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_array_size(get(j, "games")), 3);
    json_decref(j);
    /* Only the 20 newest. */
    for (int i = 0; i < 21; i++) {
        Game2 x;
        new_game(e, "{}", &x);
        e->now += 1000;
        json_decref(action_as(e, &x, ACTION_RESIGN, 0, NULL, 200));
    }
    j = request(e, ACTION_RECENT, NULL, NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_array_size(get(j, "games")), 20);
    json_decref(j);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_finished_games_leave_memory_and_come_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_subscriptions_across_eviction, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_reads_games_in_play_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_join_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_time_members, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_recent, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
