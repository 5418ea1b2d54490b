/* The game actions' one table (ServiceVerb, service.h): every action a game path names has one verb. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* ---- the table ---- */

static void test_verb_table(void **state) {
    (void)state;
    assert_true(service_verb_count >= 9);
    int verbs_of[ACTION_LEVELS + 1] = {0};
    for (size_t i = 0; i < service_verb_count; i++) {
        const ServiceVerb *v = &service_verbs[i];
        assert_ptr_equal(service_verb(v->name), v); /* each name once */
        assert_true((int)v->action <= ACTION_LEVELS);
        verbs_of[v->action]++;
        if (v->websocket)
            assert_true(v->change); /* a WebSocket message is a change, acknowledged */
    }
    /* The actions of /api/games/{id}/VERB have one verb each; the others (a game's state, creating and
     * listing games, the levels) have none. */
    const struct {
        ServiceAction action;
        const char *name;
        bool change, websocket;
    } want[] = {
        {ACTION_JOIN, "join", true, false},
        {ACTION_MOVE, "move", true, true},
        {ACTION_DRAW, "draw", true, true},
        {ACTION_CLAIM, "claim", true, true},
        {ACTION_RESIGN, "resign", true, true},
        {ACTION_ABORT, "abort", true, true},
        {ACTION_REMATCH, "rematch", true, true},
        {ACTION_PGN, "pgn", false, false},
        {ACTION_POSITIONS, "positions", false, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const ServiceVerb *v = service_verb(want[i].name);
        assert_non_null(v);
        assert_int_equal(v->action, want[i].action);
        assert_int_equal(v->change, want[i].change);
        assert_int_equal(v->websocket, want[i].websocket);
        assert_int_equal(verbs_of[want[i].action], 1);
    }
    const ServiceAction none[] = {ACTION_CREATE, ACTION_STATE, ACTION_LIST, ACTION_RECENT, ACTION_LEVELS};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_int_equal(verbs_of[none[i]], 0);
    const char *unknown[] = {"", "Move", "move ", "state", "ping", "subscribe", "create", "games", "fly", NULL};
    for (int i = 0; i < 10; i++)
        assert_null(service_verb(unknown[i]));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verb_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
