/* A finished game's rematch in the service, against the real SQLite store: the new game's secrets are
 * derived from the site key (never stored in the clear), so the same ones come back after a restart
 * and with another key they would not; the old game's row names the new game; presence counts the
 * subscribers holding a side's secret. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service/secret.h"
#include "service_harness.h"

static const unsigned char KEY[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static void test_rematch_secrets_survive_a_restart(void **state) {
    Env *e = *state;
    service_set_site_key(e->svc, KEY);
    Game2 g;
    new_game(e, "{\"time\":{\"type\":\"live\",\"minutes\":3,\"increment\":2}}", &g);
    expect_error(action_as(e, &g, ACTION_REMATCH, 0, NULL, 409), "not_over");
    json_decref(action_as(e, &g, ACTION_RESIGN, 1, NULL, 200));
    json_t *j = action_as(e, &g, ACTION_REMATCH, 0, NULL, 200);
    assert_string_equal(str(j, "state.rematch.offered_by"), "white");
    json_decref(j);
    j = action_as(e, &g, ACTION_REMATCH, 1, ",\"action\":\"offer\"", 200);
    char id[16], secret[64];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(secret, sizeof secret, "%s", str(j, "secret"));
    assert_string_equal(str(j, "color"), "white");
    assert_int_equal(json_integer_value(get(j, "state.time.minutes")), 3);
    json_decref(j);

    /* Derived from the key, the new game and the hash of black's old secret: nothing else. */
    unsigned char old_hash[STORE_HASH_LEN];
    secret_hash(g.secret[1], old_hash);
    char expected[SECRET_LEN + 1], other_key[SECRET_LEN + 1];
    secret_rematch(KEY, id, 0, old_hash, expected);
    assert_string_equal(secret, expected);
    unsigned char key2[32];
    memcpy(key2, KEY, sizeof key2);
    key2[0] ^= 1;
    secret_rematch(key2, id, 0, old_hash, other_key);
    assert_string_not_equal(secret, other_key);

    /* After a restart the service recomputes the same secret from the stored hash. */
    env_close(e);
    env_open(e);
    service_set_site_key(e->svc, KEY);
    j = action_as(e, &g, ACTION_REMATCH, 1, NULL, 200);
    assert_string_equal(str(j, "id"), id);
    assert_string_equal(str(j, "secret"), secret);
    json_decref(j);
    Game2 n;
    snprintf(n.id, sizeof n.id, "%s", id);
    snprintf(n.secret[0], sizeof n.secret[0], "%s", secret);
    snprintf(n.secret[1], sizeof n.secret[1], "%s", g.secret[0]); /* the old white secret: not black's */
    json_decref(move_as(e, &n, 0, 0, "e4", NULL, SCH_LANG_EN, 200));
    expect_error(move_as(e, &n, 1, 1, "e5", NULL, SCH_LANG_EN, 403), "bad_secret");
}

static void test_presence_counts_sides(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    Events w = {0}, b = {0}, s = {0};
    bool bad = false;
    uint64_t spectator = service_subscribe_as(e->svc, g.id, NULL, on_event, &s, &bad);
    assert_true(spectator != 0);
    uint64_t white = service_subscribe_as(e->svc, g.id, g.secret[0], on_event, &w, &bad);
    assert_true(white != 0);
    assert_false(bad);
    assert_int_equal(s.count, 2); /* its first state, then white came */
    assert_int_equal(w.count, 1); /* white's first state, once */
    assert_non_null(strstr(s.last, "\"online\":{\"white\":true,\"black\":false}"));
    assert_int_equal(service_subscribe_as(e->svc, g.id, "not a secret", on_event, &b, &bad), 0);
    assert_true(bad);
    char *text = state_text(e, g.id);
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    assert_true(json_is_true(get(j, "online.white")));
    assert_true(json_is_false(get(j, "online.black")));
    json_decref(j);
    service_unsubscribe(e->svc, white);
    assert_int_equal(s.count, 3); /* white went */
    assert_non_null(strstr(s.last, "\"online\":{\"white\":false,\"black\":false}"));
    text = state_text(e, g.id);
    j = json_loads(text, 0, NULL);
    free(text);
    assert_true(json_is_false(get(j, "online.white")));
    json_decref(j);
    service_unsubscribe(e->svc, spectator);
    free(w.last);
    free(b.last);
    free(s.last);
}

/* A local game: one person holds both sides at one screen, and the page subscribes with one secret;
 * both sides are present while it watches (the page showed Black offline beside White). */
static void test_presence_local_game(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"mode\":\"local\"}", &g);
    Events w = {0};
    bool bad = false;
    uint64_t page = service_subscribe_as(e->svc, g.id, g.secret[0], on_event, &w, &bad);
    assert_true(page != 0);
    json_t *j = state_json(e, g.id);
    assert_true(json_is_true(get(j, "online.white")));
    assert_true(json_is_true(get(j, "online.black")));
    json_decref(j);
    service_unsubscribe(e->svc, page);
    j = state_json(e, g.id);
    assert_true(json_is_false(get(j, "online.white")));
    assert_true(json_is_false(get(j, "online.black")));
    json_decref(j);
    free(w.last);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rematch_secrets_survive_a_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_presence_counts_sides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_presence_local_game, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
