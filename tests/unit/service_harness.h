/* The plumbing of the service's unit tests (test_service.c, test_service_cache.c): a real SQLite
 * store in a temporary folder, an injected clock, requests answered after the store's wake-ups, and
 * helpers that play games. Included by one test program each; not every program uses every helper. */
#ifndef SCHACH_TEST_SERVICE_HARNESS_H
#define SCHACH_TEST_SERVICE_HARNESS_H

#define HARNESS static __attribute__((unused))

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "service/service.h"
#include "store/store.h"

#define T0           1763800000000LL /* the injected clock starts here */
#define WAIT_SECONDS 120             /* the store answers within this, or the test fails (a busy machine) */

typedef struct Reply {
    int calls;
    int status;
    int ply; /* the answer's facts, which transports use instead of parsing the body */
    bool duplicate;
    char content_type[64];
    char *body;
} Reply;

typedef struct Events {
    int count;
    char *last;
} Events;

typedef struct Env {
    char dir[64];
    char path[128];
    Store *store;
    Service *svc;
    int64_t now;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned wakes;
} Env;

/* ---- plumbing ---- */

HARNESS int64_t env_clock(void *ctx) { return ((Env *)ctx)->now; }

HARNESS void env_wake(void *ctx) {
    Env *e = ctx;
    pthread_mutex_lock(&e->mutex);
    e->wakes++;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->mutex);
}

HARNESS void on_reply(void *ctx, const ServiceAnswer *a) {
    Reply *r = ctx;
    r->calls++;
    r->status = a->status;
    r->ply = a->ply;
    r->duplicate = a->duplicate;
    snprintf(r->content_type, sizeof r->content_type, "%s", a->content_type);
    free(r->body);
    r->body = malloc(a->len + 1);
    memcpy(r->body, a->body, a->len);
    r->body[a->len] = '\0';
}

HARNESS void on_event(void *ctx, const char *json, size_t len) {
    Events *ev = ctx;
    ev->count++;
    free(ev->last);
    ev->last = malloc(len + 1);
    memcpy(ev->last, json, len);
    ev->last[len] = '\0';
}

HARNESS double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits until the store has woken the loop more often than `seen` times. */
HARNESS void wait_wake_after(Env *e, unsigned seen) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    pthread_mutex_lock(&e->mutex);
    while (e->wakes == seen) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&e->cond, &e->mutex, &ts);
        if (monotonic_seconds() > deadline) {
            pthread_mutex_unlock(&e->mutex);
            fail_msg("the store did not answer within %d s", WAIT_SECONDS);
        }
    }
    pthread_mutex_unlock(&e->mutex);
}

HARNESS unsigned wakes_now(Env *e) {
    pthread_mutex_lock(&e->mutex);
    unsigned w = e->wakes;
    pthread_mutex_unlock(&e->mutex);
    return w;
}

/* Delivers committed changes until r has its answer. */
HARNESS void settle(Env *e, Reply *r) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    while (r->calls == 0) {
        unsigned seen = wakes_now(e);
        service_on_wake(e->svc);
        if (r->calls)
            break;
        if (monotonic_seconds() > deadline)
            fail_msg("no reply within %d s", WAIT_SECONDS);
        wait_wake_after(e, seen);
    }
}

/* Delivers everything the store has finished, waiting for at least one batch. */
HARNESS void settle_timer(Env *e, unsigned seen) {
    wait_wake_after(e, seen);
    service_on_wake(e->svc);
}

HARNESS void env_open(Env *e) {
    char err[256];
    e->store = store_sqlite_open(e->path, env_wake, e, err, sizeof err);
    if (!e->store)
        fail_msg("store: %s", err);
    e->svc = service_create(e->store, env_clock, e, err, sizeof err);
    if (!e->svc)
        fail_msg("service: %s", err);
}

HARNESS void env_close(Env *e) {
    service_free(e->svc);
    store_close(e->store);
    e->svc = NULL;
    e->store = NULL;
}

HARNESS int setup(void **state) {
    Env *e = calloc(1, sizeof *e);
    snprintf(e->dir, sizeof e->dir, "/tmp/schach-service-XXXXXX");
    if (!mkdtemp(e->dir))
        return -1;
    snprintf(e->path, sizeof e->path, "%s/games.db", e->dir);
    e->now = T0;
    pthread_mutex_init(&e->mutex, NULL);
    pthread_cond_init(&e->cond, NULL);
    env_open(e);
    *state = e;
    return 0;
}

HARNESS int teardown(void **state) {
    Env *e = *state;
    env_close(e);
    char file[160];
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(file, sizeof file, "%s%s", e->path, suffixes[i]);
        unlink(file);
    }
    rmdir(e->dir);
    pthread_mutex_destroy(&e->mutex);
    pthread_cond_destroy(&e->cond);
    free(e);
    return 0;
}

/* ---- requests ---- */

/* Sends a request, waits for its answer, checks the status, returns the body (NULL when not JSON). */
HARNESS json_t *request(Env *e, ServiceAction action, const char *game, const char *body, SchLang lang, int status) {
    Reply r = {0};
    ServiceRequest req = {.action = action, .game = game, .body = body, .lang = lang};
    uint64_t ticket = service_handle(e->svc, &req, on_reply, &r);
    assert_true(ticket != 0);
    settle(e, &r);
    assert_int_equal(r.calls, 1);
    if (r.status != status)
        fail_msg("expected status %d, got %d: %s", status, r.status, r.body);
    json_error_t jerr;
    json_t *j = json_loads(r.body, 0, &jerr);
    free(r.body);
    return j;
}

/* The member at "a.b.c" through objects, or NULL. */
HARNESS const json_t *get(const json_t *j, const char *path) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *cur = j;
    for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, "."))
        cur = json_object_get(cur, tok);
    return cur;
}

HARNESS const char *str(const json_t *j, const char *path) { return json_string_value(get(j, path)); }

HARNESS void expect_error(json_t *j, const char *code) {
    assert_non_null(j);
    const char *got = str(j, "error.code");
    if (!got || strcmp(got, code) != 0)
        fail_msg("expected error %s, got %s", code, got ? got : "(none)");
    assert_non_null(str(j, "error.message"));
    assert_true(strlen(str(j, "error.message")) > 0);
    json_decref(j);
}

/* The current state as text: what "no error changed anything" compares. */
HARNESS char *state_text(Env *e, const char *id) {
    Reply r = {0};
    ServiceRequest req = {.action = ACTION_STATE, .game = id};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.status, 200);
    return r.body;
}

/* The current state, parsed (json_decref it). */
HARNESS json_t *state_json(Env *e, const char *id) {
    char *text = state_text(e, id);
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(j);
    return j;
}

/* A new service over the reopened database shows game id exactly as the running one did. */
HARNESS void assert_state_survives_restart(Env *e, const char *id) {
    char *before = state_text(e, id);
    env_close(e);
    env_open(e);
    char *restored = state_text(e, id);
    assert_string_equal(before, restored);
    free(before);
    free(restored);
}

/* The state once the game has reached ply or ended (the workers' results and the store's commits
 * delivered meanwhile). */
HARNESS json_t *wait_for_ply(Env *e, const char *id, int ply) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    for (;;) {
        unsigned seen = wakes_now(e);
        service_on_wake(e->svc);
        char *text = state_text(e, id);
        json_t *j = json_loads(text, 0, NULL);
        free(text);
        if (json_integer_value(get(j, "ply")) >= ply || !json_is_null(get(j, "outcome")))
            return j;
        json_decref(j);
        if (monotonic_seconds() > deadline)
            fail_msg("the game did not reach ply %d within %d s", ply, WAIT_SECONDS);
        wait_wake_after(e, seen);
    }
}

/* Delivers wake-ups until the game has an outcome. */
HARNESS json_t *wait_for_end(Env *e, const char *id) { return wait_for_ply(e, id, 100000); }

typedef struct Game2 {
    char id[16];
    char secret[2][64]; /* white, black */
} Game2;

/* A friend game (creator white unless color says otherwise), joined by the other side. */
HARNESS void new_game(Env *e, const char *body, Game2 *g) {
    json_t *j = request(e, ACTION_CREATE, NULL, body, SCH_LANG_EN, 201);
    snprintf(g->id, sizeof g->id, "%s", str(j, "id"));
    int creator = strcmp(str(j, "color"), "white") == 0 ? 0 : 1;
    snprintf(g->secret[creator], sizeof g->secret[0], "%s", str(j, "secret"));
    if (json_is_string(get(j, "invite"))) {
        char join[128];
        snprintf(join, sizeof join, "{\"invite\":\"%s\"}", str(j, "invite"));
        json_t *k = request(e, ACTION_JOIN, g->id, join, SCH_LANG_EN, 200);
        assert_string_equal(str(k, "color"), creator ? "white" : "black");
        snprintf(g->secret[!creator], sizeof g->secret[0], "%s", str(k, "secret"));
        json_decref(k);
    } else {
        snprintf(g->secret[0], sizeof g->secret[0], "%s", str(j, "secrets.white"));
        snprintf(g->secret[1], sizeof g->secret[1], "%s", str(j, "secrets.black"));
    }
    json_decref(j);
}

HARNESS json_t *move_as(Env *e, const Game2 *g, int color, int ply, const char *move, const char *extra, SchLang lang,
                        int status) {
    char body[512];
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":%d,\"move\":\"%s\"%s}", g->secret[color], ply, move,
             extra ? extra : "");
    return request(e, ACTION_MOVE, g->id, body, lang, status);
}

/* Plays space-separated moves alternately from ply `ply`, white first when ply is even. */
HARNESS int play(Env *e, const Game2 *g, int ply, const char *line) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        json_t *j = move_as(e, g, ply % 2, ply, tok, NULL, SCH_LANG_EN, 200);
        assert_int_equal(json_integer_value(get(j, "state.ply")), ply + 1);
        json_decref(j);
        ply++;
    }
    return ply;
}

HARNESS json_t *action_as(Env *e, const Game2 *g, ServiceAction a, int color, const char *extra, int status) {
    char body[512];
    snprintf(body, sizeof body, "{\"secret\":\"%s\"%s}", g->secret[color], extra ? extra : "");
    return request(e, a, g->id, body, SCH_LANG_EN, status);
}

HARNESS bool array_has(const json_t *a, const char *s) {
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) if (json_is_string(v) && strcmp(json_string_value(v), s) == 0) return true;
    return false;
}

/* The PGN of a game, answered 200 as text. */
HARNESS char *pgn_of(Env *e, const char *id, SchLang lang) {
    Reply r = {0};
    ServiceRequest req = {.action = ACTION_PGN, .game = id, .lang = lang};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "text/plain; charset=utf-8");
    return r.body;
}

#endif
