/* The game service when the store fails: a write that cannot be committed is answered 503 storage
 * and changes nothing (no broadcast either), a game that cannot be read is 503 storage too, and the
 * service goes on as soon as the store works again. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* A store that fails chosen writes on the way to the real one, as a full disk would. */
typedef struct FailStore {
    Store base;
    Store *inner;
    Env *env;
    bool fail;       /* writes fail */
    bool fail_reads; /* get() fails */
    StoreOp *failed;
} FailStore;

static bool fail_load(Store *s, StoreEachGame each, void *ctx, char *err, size_t n) {
    return store_load(((FailStore *)s)->inner, each, ctx, err, n);
}

static int fail_get(Store *s, const char *id, StoreEachGame each, void *ctx, char *err, size_t n) {
    if (((FailStore *)s)->fail_reads) {
        snprintf(err, n, "disk I/O error");
        return -1;
    }
    return store_get(((FailStore *)s)->inner, id, each, ctx, err, n);
}

static int fail_recent(Store *s, int max, StoreEachGame each, void *ctx, char *err, size_t n) {
    return store_recent(((FailStore *)s)->inner, max, each, ctx, err, n);
}

static void fail_submit(Store *s, StoreOp *op) {
    FailStore *f = (FailStore *)s;
    if (!f->fail) {
        store_submit(f->inner, op);
        return;
    }
    op->ok = false;
    snprintf(op->error, sizeof op->error, "disk full");
    op->next = f->failed;
    f->failed = op;
    env_wake(f->env);
}

static StoreOp *fail_take_done(Store *s) {
    FailStore *f = (FailStore *)s;
    StoreOp *done = f->failed;
    f->failed = NULL;
    if (!done)
        return store_take_done(f->inner);
    StoreOp *last = done;
    while (last->next)
        last = last->next;
    last->next = store_take_done(f->inner);
    return done;
}

static void fail_close(Store *s) { store_close(((FailStore *)s)->inner); }

static const StoreVtbl fail_vtbl = {
    .load = fail_load,
    .get = fail_get,
    .recent = fail_recent,
    .submit = fail_submit,
    .take_done = fail_take_done,
    .close = fail_close,
};

static void test_storage_failure(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"time\":{\"type\":\"live\",\"minutes\":5}}", &g);
    play(e, &g, 0, "e4 e5");
    service_free(e->svc);
    FailStore f = {{&fail_vtbl}, e->store, e, false, false, NULL};
    char err[256];
    e->svc = service_create(&f.base, env_clock, e, err, sizeof err);
    assert_non_null(e->svc);
    Events ev = {0};
    service_subscribe(e->svc, g.id, on_event, &ev);
    char *before = state_text(e, g.id);
    f.fail = true;
    expect_error(move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_DE, 503), "storage");
    expect_error(action_as(e, &g, ACTION_RESIGN, 1, NULL, 503), "storage");
    expect_error(request(e, ACTION_CREATE, NULL, "{}", SCH_LANG_EN, 503), "storage");
    char *after = state_text(e, g.id);
    assert_string_equal(before, after);
    assert_int_equal(ev.count, 1); /* nothing was broadcast */
    free(after);
    f.fail = false;
    json_decref(move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200));
    assert_int_equal(ev.count, 2);
    service_free(e->svc);
    e->svc = service_create(e->store, env_clock, e, err, sizeof err);
    after = state_text(e, g.id);
    assert_non_null(strstr(after, "\"ply\":3"));
    free(after);
    free(before);
    free(ev.last);
}

/* A finished game that is not in memory and cannot be read: 503 storage, for the state, the PGN, the
 * browser's list and a subscription alike; once the store reads again, everything is there. */
static void test_read_failure(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    play(e, &g, 0, "e4 e5");
    json_decref(action_as(e, &g, ACTION_RESIGN, 0, NULL, 200));
    char *before = state_text(e, g.id);
    service_free(e->svc);
    FailStore f = {{&fail_vtbl}, e->store, e, false, true, NULL};
    char err[256];
    e->svc = service_create(&f.base, env_clock, e, err, sizeof err);
    assert_non_null(e->svc);
    expect_error(request(e, ACTION_STATE, g.id, NULL, SCH_LANG_EN, 503), "storage");
    json_t *j = request(e, ACTION_PGN, g.id, NULL, SCH_LANG_DE, 503);
    assert_non_null(strstr(str(j, "error.message"), "gelesen"));
    expect_error(j, "storage");
    Reply r = {0};
    ServiceRequest list = {.action = ACTION_LIST, .ids = g.id};
    service_handle(e->svc, &list, on_reply, &r);
    assert_int_equal(r.status, 503);
    free(r.body);
    Events ev = {0};
    assert_int_equal(service_subscribe(e->svc, g.id, on_event, &ev), 0);
    f.fail_reads = false;
    char *after = state_text(e, g.id);
    assert_string_equal(before, after);
    free(before);
    free(after);
    service_free(e->svc);
    e->svc = service_create(e->store, env_clock, e, err, sizeof err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_storage_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_failure, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
