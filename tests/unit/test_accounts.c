/* The accounts module (src/server/accounts/accounts.c) without HTTP, on a real SQLite store, so that the sanitizer
 * build sees its threads, its queue and its cancellations: sign-up, login, who am I, logout, a request
 * cancelled while the worker has it, seeks posted, listed and withdrawn, and freeing with requests
 * still queued. (The HTTP behaviour is tests/cli/server_accounts.sh and server_lobby.sh.) */
#define _GNU_SOURCE /* mkdtemp */

#include <jansson.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "accounts/account.h"
#include "accounts/accounts.h"
#include "accounts/password_policy.h"
#include "service/service.h"
#include "store/store.h"

typedef struct Waker {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned long calls;
} Waker;

static void on_wake(void *ctx) {
    Waker *w = ctx;
    pthread_mutex_lock(&w->mutex);
    w->calls++;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}

typedef struct Reply {
    int calls;
    int status;
    char body[2048];
    char cookie[256];
} Reply;

static void on_reply(void *ctx, const AccountsAnswer *a) {
    Reply *r = ctx;
    r->calls++;
    r->status = a->status;
    snprintf(r->body, sizeof r->body, "%.*s", (int)a->len, a->body);
    snprintf(r->cookie, sizeof r->cookie, "%s", a->set_cookie ? a->set_cookie : "");
}

typedef struct Fixture {
    char dir[64], db[128];
    Waker w;
    Store *store;
    Accounts *acc;
} Fixture;

static int setup(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/schach-accounts-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->db, sizeof f->db, "%s/a.db", f->dir);
    pthread_mutex_init(&f->w.mutex, NULL);
    pthread_cond_init(&f->w.cond, NULL);
    char err[256];
    f->store = store_open(f->db, "test", on_wake, &f->w, err, sizeof err);
    assert_non_null(f->store);
    /* Hashes at the least cost (account.h ACCOUNT_HASH_TEST): test_account checks the real one. */
    AccountsConfig cfg = {.address_limits = true, .hash_cost = ACCOUNT_HASH_TEST};
    f->acc = accounts_create(f->store, &cfg, NULL, NULL, on_wake, &f->w, err, sizeof err);
    if (!f->acc)
        fail_msg("accounts_create: %s", err);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    Fixture *f = *state;
    accounts_free(f->acc);
    store_close(f->store);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    assert_int_equal(system(cmd), 0);
    pthread_mutex_destroy(&f->w.mutex);
    pthread_cond_destroy(&f->w.cond);
    free(f);
    return 0;
}

static unsigned long wakes(Fixture *f) {
    pthread_mutex_lock(&f->w.mutex);
    unsigned long n = f->w.calls;
    pthread_mutex_unlock(&f->w.mutex);
    return n;
}

/* Turns the loop (waits for a wake after *seen, then hands the results out) until *done. */
static void turn_until(Fixture *f, const int *done, unsigned long seen) {
    while (!*done) {
        pthread_mutex_lock(&f->w.mutex);
        while (f->w.calls == seen)
            pthread_cond_wait(&f->w.cond, &f->w.mutex);
        seen = f->w.calls;
        pthread_mutex_unlock(&f->w.mutex);
        accounts_on_wake(f->acc);
    }
}

/* Waits for a wake after seen, hands the results out; the wakes seen now. */
static unsigned long turn_once(Fixture *f, unsigned long seen) {
    pthread_mutex_lock(&f->w.mutex);
    while (f->w.calls == seen)
        pthread_cond_wait(&f->w.cond, &f->w.mutex);
    seen = f->w.calls;
    pthread_mutex_unlock(&f->w.mutex);
    accounts_on_wake(f->acc);
    return seen;
}

/* Handles req and turns the loop until its reply came. */
static void call(Fixture *f, AccountsRequest req, Reply *r) {
    memset(r, 0, sizeof *r);
    if (!req.address)
        req.address = "127.0.0.1";
    unsigned long seen = wakes(f);
    accounts_handle(f->acc, &req, on_reply, r);
    turn_until(f, &r->calls, seen);
    assert_int_equal(r->calls, 1);
}

static void token_of(const Reply *r, char *out, size_t size) {
    assert_true(accounts_cookie_token(r->cookie, out, size));
}

static void sign_up_log_in_and_out(void **state) {
    Fixture *f = *state;
    Reply r;
    call(f, (AccountsRequest){.action = ACCOUNTS_SIGNUP, .body = "{\"username\":\"Anna\",\"password\":\"a good one\"}"},
         &r);
    assert_int_equal(r.status, 201);
    char token[64];
    token_of(&r, token, sizeof token);
    call(f, (AccountsRequest){.action = ACCOUNTS_ME, .token = token}, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"username\":\"Anna\""));
    call(f, (AccountsRequest){.action = ACCOUNTS_LOGIN, .body = "{\"username\":\"anna\",\"password\":\"wrong one!\"}"},
         &r);
    assert_int_equal(r.status, 401);
    call(f,
         (AccountsRequest){.action = ACCOUNTS_SIGNUP, .body = "{\"username\":\"ANNA\",\"password\":\"another one\"}"},
         &r);
    assert_int_equal(r.status, 409);
    call(f, (AccountsRequest){.action = ACCOUNTS_SIGNUP, .body = "{\"username\":\"x\",\"password\":\"another one\"}"},
         &r);
    assert_int_equal(r.status, 400);
    call(f, (AccountsRequest){.action = ACCOUNTS_LOGOUT, .token = token}, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.cookie, "Max-Age=0"));
    /* Nobody logged in: 200 {"username": null} (issue 24: no 401 in an anonymous page's console). */
    call(f, (AccountsRequest){.action = ACCOUNTS_ME, .token = token}, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "{\"username\":null}");
    call(f, (AccountsRequest){.action = ACCOUNTS_ME}, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "{\"username\":null}");
}

static void cancelled_requests_never_answer(void **state) {
    Fixture *f = *state;
    Reply r[8];
    memset(r, 0, sizeof r);
    uint64_t t[8];
    unsigned long seen = wakes(f);
    /* Several hashes queue behind each other; all but the last are cancelled, in the queue or running. */
    for (int i = 0; i < 8; i++) {
        char body[128], address[32];
        snprintf(body, sizeof body, "{\"username\":\"user%d\",\"password\":\"password %d\"}", i, i);
        snprintf(address, sizeof address, "10.0.0.%d", i + 1); /* each within its address's limit */
        AccountsRequest req = {.action = ACCOUNTS_SIGNUP, .body = body, .address = address};
        t[i] = accounts_handle(f->acc, &req, on_reply, &r[i]);
    }
    for (int i = 0; i < 7; i++)
        accounts_cancel(f->acc, t[i]);
    turn_until(f, &r[7].calls, seen);
    for (int i = 0; i < 7; i++)
        assert_int_equal(r[i].calls, 0);
    assert_int_equal(r[7].status, 201);
}

/* Posts a live 3+2 seek for white; its id and secret into id and secret. */
static void post_seek(Fixture *f, char id[16], char secret[64]) {
    Reply r;
    call(f,
         (AccountsRequest){.action = ACCOUNTS_SEEK_POST,
                           .body = "{\"time\":{\"type\":\"live\",\"minutes\":3,\"increment\":2},\"color\":\"white\"}"},
         &r);
    assert_int_equal(r.status, 201);
    json_t *seek = json_loads(r.body, 0, NULL);
    assert_non_null(seek);
    snprintf(id, 16, "%s", json_string_value(json_object_get(seek, "id")));
    snprintf(secret, 64, "%s", json_string_value(json_object_get(seek, "secret")));
    json_decref(seek);
}

static void seeks_without_a_service(void **state) {
    Fixture *f = *state;
    Reply r;
    char id[16], secret[64], body[128];
    post_seek(f, id, secret);
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEKS}, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, id));
    assert_null(strstr(r.body, secret));
    /* No service: an accept cannot make a game, and says so without touching the seek. */
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEK_ACCEPT, .seek = id, .body = "{}"}, &r);
    assert_int_equal(r.status, 500);
    snprintf(body, sizeof body, "{\"secret\":\"%s\"}", secret);
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEK_CANCEL, .seek = id, .body = body}, &r);
    assert_int_equal(r.status, 200);
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEK_CANCEL, .seek = id, .body = body}, &r);
    assert_int_equal(r.status, 404);
    call(f, (AccountsRequest){.action = ACCOUNTS_PLAYER, .seek = "nobody"}, &r);
    assert_int_equal(r.status, 404);
}

typedef struct Lobby {
    int events;
    char last[4096];
} Lobby;

static void on_lobby(void *ctx, const char *json, size_t len) {
    Lobby *l = ctx;
    l->events++;
    snprintf(l->last, sizeof l->last, "%.*s", (int)len, json);
}

/* The lobby live: a watcher gets the list, and a new one after a seek is posted and after its poster
 * left (accounts_seek_abandon); unwatching ends it (also freed while watched, in teardown). */
static void lobby_watchers(void **state) {
    Fixture *f = *state;
    Lobby l = {0}, other = {0};
    unsigned long seen = wakes(f);
    uint64_t w = accounts_lobby_watch(f->acc, on_lobby, &l);
    assert_true(w != 0);
    turn_until(f, &l.events, seen);
    assert_non_null(strstr(l.last, "\"type\":\"lobby\""));
    Reply r;
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEK_POST, .body = "{\"time\":{\"type\":\"live\",\"minutes\":5}}"},
         &r);
    assert_int_equal(r.status, 201);
    json_t *seek = json_loads(r.body, 0, NULL);
    char id[16], secret[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(seek, "id")));
    snprintf(secret, sizeof secret, "%s", json_string_value(json_object_get(seek, "secret")));
    json_decref(seek);
    int before = l.events;
    while (!strstr(l.last, id))
        seen = turn_once(f, seen);
    assert_true(l.events > before);
    uint64_t w2 = accounts_lobby_watch(f->acc, on_lobby, &other);
    assert_int_equal(other.events, 1); /* the list known: at once */
    assert_non_null(strstr(other.last, id));
    accounts_seek_abandon(f->acc, id, secret);
    while (strstr(l.last, id))
        seen = turn_once(f, seen);
    accounts_lobby_unwatch(f->acc, w);
    (void)w2; /* still watched when the module is freed */
}

static void freed_with_requests_queued(void **state) {
    Fixture *f = *state;
    Reply r[4];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 4; i++) {
        AccountsRequest req = {.action = ACCOUNTS_LOGIN,
                               .body = "{\"username\":\"nobody\",\"password\":\"some password\"}",
                               .address = "10.0.0.2"};
        accounts_handle(f->acc, &req, on_reply, &r[i]);
    }
    /* teardown frees the module now: the worker finishes what it runs, the rest is dropped unanswered
     * (the sanitizer build checks that nothing leaks or is used after it is freed). */
}

/* A seek accepted with a service: the accepter is answered with the new game's state. The service
 * answers a state request at once (the game is read from the store on the loop), so the job must
 * outlive its own answer until accounts_lobby_finish returns (it once wrote to the freed job). */
static void seek_accepted_with_a_service(void **state) {
    Fixture *f = *state;
    char err[256];
    Service *svc = service_create(f->store, NULL, NULL, err, sizeof err);
    if (!svc)
        fail_msg("service_create: %s", err);
    accounts_set_service(f->acc, svc);
    Reply r;
    char id[16], secret[64];
    post_seek(f, id, secret);
    /* From another address: an anonymous seek is its poster's by address (409 own_seek from there). */
    call(f, (AccountsRequest){.action = ACCOUNTS_SEEK_ACCEPT, .seek = id, .body = "{}", .address = "192.0.2.2"}, &r);
    assert_int_equal(r.status, 200);
    json_t *game = json_loads(r.body, 0, NULL);
    assert_non_null(game);
    assert_string_equal(json_string_value(json_object_get(game, "color")), "black");
    assert_true(json_is_object(json_object_get(game, "state")));
    const char *gid = json_string_value(json_object_get(game, "id"));
    assert_non_null(gid);
    assert_string_equal(json_string_value(json_object_get(json_object_get(game, "state"), "id")), gid);
    json_decref(game);
    accounts_free(f->acc);
    f->acc = NULL;
    service_free(svc);
}

/* NIST SP 800-63B's rules (issue 22): characters counted in NFC, white space alone and one character
 * repeated too weak, the common list compared without case; hashes compared in NFC. */
static void password_rules(void **state) {
    (void)state;
    char path[] = "/tmp/schach-common-XXXXXX", err[300];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char list[] = "#!comment: a test list\npassword\n12345678\nLetMeIn123\n";
    assert_int_equal(write(fd, list, sizeof list - 1), (ssize_t)(sizeof list - 1));
    close(fd);
    assert_true(password_policy_load(path, err, sizeof err));
    assert_int_equal(password_policy_count(), 3);
    unlink(path);
    assert_false(password_policy_load(path, err, sizeof err)); /* gone: says so, the list stays */
    assert_non_null(strstr(err, path));
    assert_int_equal(password_policy_count(), 3);
#define CHECK(pw) account_password_check(pw, strlen(pw), "anna")
    assert_int_equal(CHECK("password"), ACCOUNT_PASSWORD_COMMON);
    assert_int_equal(CHECK("PassWord"), ACCOUNT_PASSWORD_COMMON);
    assert_int_equal(CHECK("letmein123"), ACCOUNT_PASSWORD_COMMON);
    assert_int_equal(CHECK("12345678"), ACCOUNT_PASSWORD_COMMON);
    assert_int_equal(CHECK("        "), ACCOUNT_PASSWORD_BLANK);
    assert_int_equal(CHECK("\t \xc2\xa0\xe2\x80\x83    "), ACCOUNT_PASSWORD_BLANK);
    assert_int_equal(CHECK("zzzzzzzzzz"), ACCOUNT_PASSWORD_REPEATED);
    assert_int_equal(CHECK("cafe\xcc\x81"
                           "123"),
                     ACCOUNT_PASSWORD_LENGTH); /* 7 in NFC */
    assert_int_equal(CHECK("caf\xc3\xa9"
                           "1234"),
                     ACCOUNT_OK);
    assert_int_equal(CHECK("my cat sleeps"), ACCOUNT_OK);
    assert_int_equal(account_password_check("ANNAanna", 8, "annaanna"), ACCOUNT_PASSWORD_IS_NAME);
#undef CHECK
    const char nfc[] = "caf\xc3\xa9"
                       "caf\xc3\xa9",
               nfd[] = "cafe\xcc\x81"
                       "cafe\xcc\x81";
    char hash[ACCOUNT_HASH_LEN];
    assert_true(account_password_hash(nfd, strlen(nfd), ACCOUNT_HASH_TEST, hash));
    assert_true(account_password_verify(hash, nfc, strlen(nfc)));
    assert_true(account_password_verify(hash, nfd, strlen(nfd)));
    assert_false(account_password_verify(hash, "cafecafe", 8));
    /* A hash made before passwords were normalised (of the bytes as typed) still verifies them. */
    char legacy[ACCOUNT_HASH_LEN];
    assert_int_equal(crypto_pwhash_str(legacy, nfd, strlen(nfd), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                       crypto_pwhash_MEMLIMIT_INTERACTIVE),
                     0);
    assert_true(account_password_verify(legacy, nfd, strlen(nfd)));
    assert_false(account_password_verify(legacy, "cafecafe", 8));
    password_policy_free();
    assert_int_equal(password_policy_count(), 0);
    assert_int_equal(account_password_check("password", 8, NULL), ACCOUNT_OK); /* no list: nothing common */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(sign_up_log_in_and_out, setup, teardown),
        cmocka_unit_test_setup_teardown(cancelled_requests_never_answer, setup, teardown),
        cmocka_unit_test_setup_teardown(seeks_without_a_service, setup, teardown),
        cmocka_unit_test_setup_teardown(seek_accepted_with_a_service, setup, teardown),
        cmocka_unit_test_setup_teardown(lobby_watchers, setup, teardown),
        cmocka_unit_test_setup_teardown(freed_with_requests_queued, setup, teardown),
        cmocka_unit_test(password_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
