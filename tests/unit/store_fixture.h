/* The fixture of the store's unit tests (test_store.c, test_store_checks.c, test_store_pg.c): a fresh
 * temporary folder (or PostgreSQL database) per test, a wake callback that lets a test hold the writer
 * between batches, records and moves that differ per game and ply, and what load(), get() and recent()
 * hand out, copied. Stores are opened through fixture_open: SQLite unless the test program sets
 * fixture_open_fn, so the bodies in store_cases.h run against either backend. */
#ifndef SCHACH_TESTS_STORE_FIXTURE_H
#define SCHACH_TESTS_STORE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "store/store.h"

/* Only guards against a hung writer; no assertion depends on how long anything takes. */
#define HANG_GUARD_SECONDS 120

typedef struct TestDir {
    char root[256];
    char db[320];
} TestDir;

/* The wake callback's side: counts calls and, while the gate is closed, holds the writer thread
 * inside wake() so that everything submitted meanwhile lands in the next batch. */
typedef struct Waker {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned long calls;
    bool gate_closed;
} Waker;

static inline void waker_init(Waker *w) {
    pthread_mutex_init(&w->mutex, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->calls = 0;
    w->gate_closed = false;
}

static inline void waker_destroy(Waker *w) {
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mutex);
}

static inline void on_wake(void *ctx) {
    Waker *w = ctx;
    pthread_mutex_lock(&w->mutex);
    w->calls++;
    pthread_cond_broadcast(&w->cond);
    while (w->gate_closed)
        pthread_cond_wait(&w->cond, &w->mutex);
    pthread_mutex_unlock(&w->mutex);
}

static inline void waker_set_gate(Waker *w, bool closed) {
    pthread_mutex_lock(&w->mutex);
    w->gate_closed = closed;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}

static inline unsigned long waker_calls(Waker *w) {
    pthread_mutex_lock(&w->mutex);
    unsigned long calls = w->calls;
    pthread_mutex_unlock(&w->mutex);
    return calls;
}

/* Waits (without spinning) until the waker's call count differs from seen; false on the hang guard. */
static inline bool waker_wait_change(Waker *w, unsigned long seen) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += HANG_GUARD_SECONDS;
    bool changed = true;
    pthread_mutex_lock(&w->mutex);
    while (w->calls == seen) {
        if (pthread_cond_timedwait(&w->cond, &w->mutex, &deadline) == ETIMEDOUT) {
            changed = w->calls != seen;
            break;
        }
    }
    pthread_mutex_unlock(&w->mutex);
    return changed;
}

/* Takes finished ops until at least want have come back (whole take_done lists, at most max);
 * out receives them in the order take_done gave them. Returns how many came back: less than want
 * only if the writer hung, more than max (with the excess dropped) if more came back than expected. */
static inline int collect_some(Store *store, Waker *w, StoreOp **out, int want, int max) {
    int got = 0;
    while (got < want) {
        /* Read the count before taking: a batch finishing after take_done changes it. */
        unsigned long seen = waker_calls(w);
        for (StoreOp *op = store_take_done(store); op; op = op->next) {
            if (got < max)
                out[got] = op;
            got++;
        }
        if (got < want && !waker_wait_change(w, seen))
            break;
    }
    return got;
}

static inline int collect(Store *store, Waker *w, StoreOp **out, int want) {
    return collect_some(store, w, out, want, want);
}

/* Submits op and waits until it comes back, alone. */
static inline void submit_and_wait(Store *store, Waker *w, StoreOp *op) {
    StoreOp *back[1];
    store_submit(store, op);
    assert_int_equal(collect(store, w, back, 1), 1);
    assert_ptr_equal(back[0], op);
}

static inline void make_record(GameRecord *r, int n) {
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "g%011d", n);
    r->created_ms = 1700000000000 + (int64_t)n * 1000;
    r->updated_ms = r->created_ms + 5;
    if (n % 2)
        snprintf(r->start_fen, sizeof r->start_fen, "%s",
                 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    snprintf(r->mode, sizeof r->mode, "%s", n % 2 ? "local" : n % 4 == 2 ? "computer" : "friend");
    if (n % 4 == 2)
        snprintf(r->level, sizeof r->level, "%s", "club");
    r->time.type = n % 2 ? TIME_CORRESPONDENCE : TIME_LIVE;
    r->time.minutes = 5 + n;
    r->time.increment = 3;
    r->time.days = n % 2 ? 2 : 0;
    for (int i = 0; i < STORE_HASH_LEN; i++) {
        r->secret_hash[0][i] = (unsigned char)(n * 7 + i + 1);
        if (n % 2 == 0)
            r->secret_hash[1][i] = (unsigned char)(n * 11 + i * 3 + 2);
        if (n % 3 == 0)
            r->invite_hash[i] = (unsigned char)(0xA0 ^ i);
    }
    r->invite_color = n % 3 == 0 ? 1 : -1;
    if (n % 3 == 1) /* a text the store keeps as it is (the service writes winnable.h's reason names) */
        snprintf(r->reason, sizeof r->reason, "%s", "locked_pawns");
    r->plies = -1; /* unknown, as in rows from before schema 5: no check of the move count */
    r->draw_offer = -1;
    r->clock_ms[0] = 300000 - n;
    r->clock_ms[1] = 299000;
    r->turn_started_ms = r->created_ms + 1;
    if (n % 5 == 1) { /* players with accounts, rated with the ratings before and after */
        snprintf(r->account[0], sizeof r->account[0], "white_%d", n);
        snprintf(r->account[1], sizeof r->account[1], "black-%d", n);
        r->rated = 1;
        r->rating[0] = 1500 + n;
        r->rating[1] = 1480 - n;
        r->rating_diff[0] = -7;
        r->rating_diff[1] = 7;
        r->seat_epoch[0] = n; /* schema 14 */
        r->seat_epoch[1] = 2 * (int64_t)n;
        r->provisional[0] = n % 2; /* schema 18: one side's or both sides' ratings provisional */
        r->provisional[1] = 1;
    } else if (n % 5 == 2) { /* one side with an account, casual */
        snprintf(r->account[1], sizeof r->account[1], "someone%d", n);
    }
    if (n % 4 == 3) { /* a rematch offered, another refused, the new game made (schema 12) */
        r->rematch_offer = 1 + n % 2;
        r->rematch_decline = 2 - n % 2;
        snprintf(r->rematch_game, sizeof r->rematch_game, "rm%010d", n);
    }
}

/* A distinct, reproducible move text for each ply. */
static inline StoredMove move_for(int ply) {
    StoredMove m;
    memset(&m, 0, sizeof m);
    snprintf(m.uci, sizeof m.uci, "%c%c%c%c", 'a' + ply % 8, '1' + ply / 8 % 8, 'a' + ply / 3 % 8, '1' + ply % 7);
    m.at_ms = 1700000000000 + (int64_t)ply * 1234;
    return m;
}

static inline void set_create(StoreOp *op, int n) {
    memset(op, 0, sizeof *op);
    op->create = true;
    make_record(&op->record, n);
}

static inline void set_append(StoreOp *op, int n, int ply) {
    memset(op, 0, sizeof *op);
    op->append = true;
    snprintf(op->record.id, sizeof op->record.id, "g%011d", n);
    op->ply = ply;
    op->move = move_for(ply);
}

static inline void assert_records_equal(const GameRecord *a, const GameRecord *b) {
    assert_string_equal(a->id, b->id);
    assert_int_equal(a->created_ms, b->created_ms);
    assert_int_equal(a->updated_ms, b->updated_ms);
    assert_string_equal(a->start_fen, b->start_fen);
    assert_string_equal(a->mode, b->mode);
    assert_int_equal(a->time.type, b->time.type);
    assert_int_equal(a->time.minutes, b->time.minutes);
    assert_int_equal(a->time.increment, b->time.increment);
    assert_int_equal(a->time.days, b->time.days);
    assert_memory_equal(a->secret_hash, b->secret_hash, sizeof a->secret_hash);
    assert_memory_equal(a->invite_hash, b->invite_hash, sizeof a->invite_hash);
    assert_int_equal(a->invite_color, b->invite_color);
    assert_string_equal(a->result, b->result);
    assert_string_equal(a->termination, b->termination);
    assert_string_equal(a->reason, b->reason);
    assert_int_equal(a->draw_offer, b->draw_offer);
    assert_int_equal(a->clock_ms[0], b->clock_ms[0]);
    assert_int_equal(a->clock_ms[1], b->clock_ms[1]);
    assert_int_equal(a->turn_started_ms, b->turn_started_ms);
    assert_string_equal(a->level, b->level);
    assert_string_equal(a->account[0], b->account[0]);
    assert_string_equal(a->account[1], b->account[1]);
    assert_int_equal(a->rated, b->rated);
    assert_int_equal(a->rating[0], b->rating[0]);
    assert_int_equal(a->rating[1], b->rating[1]);
    assert_int_equal(a->rating_diff[0], b->rating_diff[0]);
    assert_int_equal(a->rating_diff[1], b->rating_diff[1]);
    assert_int_equal(a->rematch_offer, b->rematch_offer);
    assert_int_equal(a->rematch_decline, b->rematch_decline);
    assert_string_equal(a->rematch_game, b->rematch_game);
    assert_int_equal(a->seat_epoch[0], b->seat_epoch[0]);
    assert_int_equal(a->seat_epoch[1], b->seat_epoch[1]);
    assert_int_equal(a->provisional[0], b->provisional[0]);
    assert_int_equal(a->provisional[1], b->provisional[1]);
}

/* What load() handed out, copied. */
typedef struct Loaded {
    int count;
    GameRecord records[64];
    StoredMove *moves[64];
    int move_count[64];
} Loaded;

static inline void on_game(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    Loaded *l = ctx;
    assert_true(l->count < 64);
    l->records[l->count] = *record;
    l->moves[l->count] = malloc(sizeof *moves * (size_t)(count ? count : 1));
    assert_non_null(l->moves[l->count]);
    if (count)
        memcpy(l->moves[l->count], moves, sizeof *moves * (size_t)count);
    l->move_count[l->count] = count;
    l->count++;
}

static inline void loaded_free(Loaded *l) {
    for (int i = 0; i < l->count; i++)
        free(l->moves[i]);
    free(l);
}

/* How a test program opens a store on where (TestDir.db: a path, or a conninfo) with w as its wake-up;
 * NULL with err filled on failure. NULL here: SQLite at the path. */
typedef Store *(*FixtureOpenFn)(const char *where, Waker *w, char *err, size_t err_size);
static FixtureOpenFn fixture_open_fn;
/* Deletes the move at ply of game id behind the store's back (damage the database does not notice). */
typedef void (*FixtureDropMoveFn)(const char *where, const char *id, int ply);
static FixtureDropMoveFn fixture_drop_move_fn;

static inline Store *fixture_open(const char *where, Waker *w, char *err, size_t err_size) {
    if (fixture_open_fn)
        return fixture_open_fn(where, w, err, err_size);
    return store_sqlite_open(where, on_wake, w, err, err_size);
}

static inline void fixture_drop_move(const char *where, const char *id, int ply) {
    if (fixture_drop_move_fn) {
        fixture_drop_move_fn(where, id, ply);
        return;
    }
    sqlite3 *raw = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM moves WHERE game_id = '%s' AND ply = %d", id, ply);
    assert_int_equal(sqlite3_open(where, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_changes(raw), 1);
    sqlite3_close(raw);
}

/* Opens the store at db, loads everything, closes it again. */
static inline Loaded *reopen_and_load(const char *db) {
    char err[256] = "";
    Waker w;
    waker_init(&w);
    Store *store = fixture_open(db, &w, err, sizeof err);
    if (!store)
        fail_msg("reopen: %s", err);
    Loaded *l = calloc(1, sizeof *l);
    assert_non_null(l);
    if (!store_load(store, on_game, l, err, sizeof err))
        fail_msg("load: %s", err);
    store_close(store);
    waker_destroy(&w);
    return l;
}

static inline void assert_moves(const StoredMove *moves, int count) {
    for (int ply = 0; ply < count; ply++) {
        StoredMove want = move_for(ply);
        assert_string_equal(moves[ply].uci, want.uci);
        assert_int_equal(moves[ply].at_ms, want.at_ms);
    }
}

/* ---- fixture ---- */

static inline int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static inline int setup(void **state) {
    TestDir *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(d->root, sizeof d->root, "%s/schach-store-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d->root)) {
        free(d);
        return -1;
    }
    /* The store creates the missing folders itself. */
    snprintf(d->db, sizeof d->db, "%s/data/deeper/games.db", d->root);
    *state = d;
    return 0;
}

static inline int teardown(void **state) {
    TestDir *d = *state;
    int rc = nftw(d->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(d);
    return rc;
}

static inline int raw_int(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Opens the store at path with w (initialised here) as its wake-up; fails the test when it cannot. */
static inline Store *open_with_waker(const char *path, Waker *w) {
    char err[256] = "";
    waker_init(w);
    Store *store = fixture_open(path, w, err, sizeof err);
    if (!store)
        fail_msg("open: %s", err);
    return store;
}

#endif
