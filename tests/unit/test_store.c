/* The SQLite store against a real database file in a fresh temporary folder: schema and migrations,
 * round trips through close and reopen, load / get / recent, ordering and group commit under many queued ops, a failing op
 * rolled back alone inside its batch, and durability of acknowledged ops across a SIGKILL. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, fdopen, kill */

#include "store_fixture.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* The number of migration steps in store_sqlite.c: bump it when a step is appended. */
#define EXPECTED_SCHEMA_VERSION 7

/* ---- tests ---- */

static void test_open_creates_folder_and_schema(void **state) {
    TestDir *d = *state;
    char err[256] = "";
    Waker w;
    waker_init(&w);
    Store *store = store_sqlite_open(d->db, on_wake, &w, err, sizeof err);
    if (!store)
        fail_msg("open: %s", err);
    assert_null(store_take_done(store));
    StoreOp op;
    set_create(&op, 1);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    store_close(store);

    struct stat sb;
    assert_int_equal(stat(d->db, &sb), 0);
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(raw_int(raw, "PRAGMA user_version"), EXPECTED_SCHEMA_VERSION);
    assert_int_equal(raw_int(raw, "SELECT count(*) FROM sqlite_master WHERE name IN"
                                  " ('games', 'moves', 'games_finished_by_update')"),
                     3);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(raw);

    /* Reopening applies no step again (a second CREATE TABLE would fail) and keeps the data. */
    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], &op.record);
    assert_int_equal(l->move_count[0], 0);
    loaded_free(l);
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(raw_int(raw, "PRAGMA user_version"), EXPECTED_SCHEMA_VERSION);

    /* A database from a newer program is refused rather than misread. */
    assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    err[0] = '\0';
    assert_null(store_sqlite_open(d->db, on_wake, &w, err, sizeof err));
    assert_non_null(strstr(err, "newer"));
    waker_destroy(&w);
}

/* A database of schema version 1 (before games against the computer) is migrated in place: its
 * games keep everything and get an empty level; new games store theirs. */
static void test_migration_from_version_1(void **state) {
    TestDir *d = *state;
    char dir[400];
    snprintf(dir, sizeof dir, "%s/data", d->root);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(dir, sizeof dir, "%s/data/deeper", d->root);
    assert_int_equal(mkdir(dir, 0700), 0);
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(raw,
                     "CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, created_ms INTEGER NOT NULL,"
                     " updated_ms INTEGER NOT NULL, start_fen TEXT NOT NULL, mode TEXT NOT NULL,"
                     " time_type TEXT NOT NULL, minutes INTEGER NOT NULL, increment INTEGER NOT NULL,"
                     " days INTEGER NOT NULL, secret_hash_white BLOB, secret_hash_black BLOB, invite_hash BLOB,"
                     " invite_color INTEGER NOT NULL, result TEXT NOT NULL, termination TEXT NOT NULL,"
                     " draw_offer INTEGER NOT NULL, clock_white_ms INTEGER NOT NULL,"
                     " clock_black_ms INTEGER NOT NULL, turn_started_ms INTEGER NOT NULL);"
                     "CREATE INDEX games_finished_by_update ON games(updated_ms) WHERE result <> '';"
                     "CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
                     " ply INTEGER NOT NULL CHECK (ply >= 0), uci TEXT NOT NULL, at_ms INTEGER NOT NULL,"
                     " PRIMARY KEY (game_id, ply)) WITHOUT ROWID;"
                     "INSERT INTO games VALUES ('old000000001', 1, 2, '', 'friend', 'none', 0, 0, 0, NULL, NULL,"
                     " NULL, -1, '', '', -1, 0, 0, 0);"
                     "INSERT INTO moves VALUES ('old000000001', 0, 'e2e4', 3);"
                     "PRAGMA user_version = 1;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(raw);

    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 2); /* a computer game */
    assert_string_equal(op.record.level, "club");
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 2);
    assert_string_equal(l->records[0].id, "old000000001"); /* created first */
    assert_string_equal(l->records[0].mode, "friend");
    assert_string_equal(l->records[0].level, "");
    assert_string_equal(l->records[0].reason, ""); /* schema 6: rows from before have no reason */
    assert_int_equal(l->move_count[0], 1);
    assert_records_equal(&l->records[1], &op.record);
    loaded_free(l);
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(raw_int(raw, "PRAGMA user_version"), EXPECTED_SCHEMA_VERSION);
    sqlite3_close(raw);
}

static void test_open_fails_with_message(void **state) {
    TestDir *d = *state;
    char path[400], err[256] = "";
    /* A regular file where the folder should be. */
    snprintf(path, sizeof path, "%s/file", d->root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/file/games.db", d->root);
    assert_null(store_sqlite_open(path, NULL, NULL, err, sizeof err));
    assert_true(strlen(err) > 0);
}

static void test_round_trip(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);

    /* Game 2 starts with a move in the same op; game 3 has no moves. */
    StoreOp ops[12], *back[12];
    int n = 0;
    set_create(&ops[n++], 2);
    ops[n - 1].append = true;
    ops[n - 1].ply = 0;
    ops[n - 1].move = move_for(0);
    set_create(&ops[n++], 3);
    for (int ply = 1; ply < 6; ply++)
        set_append(&ops[n++], 2, ply);
    /* The outcome: an update together with the last move. */
    set_append(&ops[n++], 2, 6);
    ops[n - 1].update = true;
    make_record(&ops[n - 1].record, 2);
    GameRecord *final2 = &ops[n - 1].record;
    snprintf(final2->result, sizeof final2->result, "%s", "1-0");
    snprintf(final2->termination, sizeof final2->termination, "%s", "checkmate");
    final2->updated_ms += 60000;
    final2->draw_offer = 1;
    memset(final2->invite_hash, 0, sizeof final2->invite_hash);
    final2->invite_color = -1;
    final2->turn_started_ms = 0;
    final2->plies = 7;
    for (int i = 0; i < n; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, n), n);
    for (int i = 0; i < n; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    store_close(store);
    assert_true(waker_calls(&w) >= 1);
    waker_destroy(&w);

    /* Game 2 is finished: load() leaves it on disk, get() reads it. */
    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], &ops[1].record);
    assert_int_equal(l->move_count[0], 0);
    loaded_free(l);
    store = open_with_waker(d->db, &w);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    char err[256] = "";
    assert_int_equal(store_get(store, final2->id, on_game, l, err, sizeof err), 1);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], final2);
    assert_int_equal(l->move_count[0], 7);
    assert_moves(l->moves[0], 7);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);

    /* Damage SQLite does not see (here: a move row gone) no longer serves the game cut short: its row
     * says it ended at ply 7, so the read fails (the server answers 503 storage). */
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(d->db, &raw), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(raw, "DELETE FROM moves WHERE game_id = 'g00000000002' AND ply = 6", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    store = open_with_waker(d->db, &w);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    err[0] = '\0';
    assert_int_equal(store_get(store, final2->id, on_game, l, err, sizeof err), -1);
    assert_non_null(strstr(err, "damaged: game g00000000002 has 6 moves stored, but its row was written at ply 7"));
    assert_int_equal(l->count, 0);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

/* Sets op to finish game n with result at updated_ms. */
static void set_finish(StoreOp *op, int n, const char *result, int64_t updated_ms) {
    memset(op, 0, sizeof *op);
    op->update = true;
    make_record(&op->record, n);
    snprintf(op->record.result, sizeof op->record.result, "%s", result);
    snprintf(op->record.termination, sizeof op->record.termination, "%s", "resignation");
    op->record.updated_ms = updated_ms;
}

/* load() hands out the games in play only (oldest first), get() any game by id and 0 for an unknown
 * one, recent() the finished games with the newest update first, at most max of them. */
static void test_load_get_recent(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { GAMES = 6 };
    StoreOp ops[GAMES + 4], *back[GAMES + 4];
    int n = 0;
    for (int g = 0; g < GAMES; g++)
        set_create(&ops[n++], 40 + g);
    set_append(&ops[n++], 41, 0);
    /* Finished in an order that is neither creation nor id order. */
    set_finish(&ops[n++], 41, "1-0", 1800000000300);
    set_finish(&ops[n++], 43, "0-1", 1800000000100);
    set_finish(&ops[n++], 44, "1/2-1/2", 1800000000200);
    for (int i = 0; i < n; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, n), n);
    for (int i = 0; i < n; i++)
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 3);
    assert_string_equal(l->records[0].id, ops[0].record.id);
    assert_string_equal(l->records[1].id, ops[2].record.id);
    assert_string_equal(l->records[2].id, ops[5].record.id);
    loaded_free(l);

    store = open_with_waker(d->db, &w);
    char err[256] = "";
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(store_recent(store, 10, on_game, l, err, sizeof err), 3);
    assert_records_equal(&l->records[0], &ops[GAMES + 1].record); /* 41, updated last */
    assert_int_equal(l->move_count[0], 1);
    assert_moves(l->moves[0], 1);
    assert_records_equal(&l->records[1], &ops[GAMES + 3].record); /* 44 */
    assert_records_equal(&l->records[2], &ops[GAMES + 2].record); /* 43 */
    loaded_free(l);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(store_recent(store, 2, on_game, l, err, sizeof err), 2);
    assert_string_equal(l->records[1].id, ops[GAMES + 3].record.id);
    assert_int_equal(store_get(store, ops[GAMES + 2].record.id, on_game, l, err, sizeof err), 1); /* finished */
    assert_int_equal(store_get(store, ops[0].record.id, on_game, l, err, sizeof err), 1);         /* in play */
    assert_int_equal(l->count, 4);
    assert_records_equal(&l->records[2], &ops[GAMES + 2].record);
    assert_records_equal(&l->records[3], &ops[0].record);
    assert_int_equal(store_get(store, "nosuchgame00", on_game, l, err, sizeof err), 0);
    assert_int_equal(l->count, 4);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

/* Single ops, each awaited before the next: one batch, one wake each. */
static void test_wake_once_per_batch(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[5], *back[1];
    set_create(&ops[0], 4);
    for (int i = 1; i < 5; i++)
        set_append(&ops[i], 4, i - 1);
    for (int i = 0; i < 5; i++) {
        store_submit(store, &ops[i]);
        assert_int_equal(collect(store, &w, back, 1), 1);
        assert_ptr_equal(back[0], &ops[i]);
        assert_true(ops[i].ok);
    }
    assert_null(store_take_done(store));
    store_close(store); /* joins the writer: every wake has returned */
    assert_int_equal(waker_calls(&w), 5);
    waker_destroy(&w);
}

#define MANY_GAMES 10
#define MANY_PLIES 100
#define MANY_OPS   (MANY_GAMES + MANY_GAMES * MANY_PLIES)

/* 1010 ops, submitted in two waves while the writer commits: all ok, back in submission order. */
static void test_many_ops_in_order(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp *ops = calloc(MANY_OPS, sizeof *ops);
    StoreOp **back = calloc(MANY_OPS, sizeof *back);
    assert_non_null(ops);
    assert_non_null(back);
    int n = 0;
    for (int g = 0; g < MANY_GAMES; g++)
        set_create(&ops[n++], 100 + g);
    for (int ply = 0; ply < MANY_PLIES; ply++)
        for (int g = 0; g < MANY_GAMES; g++)
            set_append(&ops[n++], 100 + g, ply);
    assert_int_equal(n, MANY_OPS);

    int half = MANY_OPS / 2;
    for (int i = 0; i < half; i++)
        store_submit(store, &ops[i]);
    int got = collect_some(store, &w, back, 100, MANY_OPS);
    for (int i = half; i < MANY_OPS; i++)
        store_submit(store, &ops[i]);
    got += collect(store, &w, back + got, MANY_OPS - got);
    assert_int_equal(got, MANY_OPS);
    for (int i = 0; i < MANY_OPS; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    assert_null(store_take_done(store));
    store_close(store);
    assert_true(waker_calls(&w) >= 1);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, MANY_GAMES);
    for (int g = 0; g < MANY_GAMES; g++) {
        assert_records_equal(&l->records[g], &ops[g].record);
        assert_int_equal(l->move_count[g], MANY_PLIES);
        assert_moves(l->moves[g], MANY_PLIES);
    }
    loaded_free(l);
    free(back);
    free(ops);
}

/* 1000 ops queued while the writer is held inside the first batch's wake: they can form at most two
 * batches, so one batch carries at least 500 ops (one wake per batch). */
static void test_batches_group(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { N = 1000 };
    StoreOp *ops = calloc(N, sizeof *ops);
    StoreOp **back = calloc(N, sizeof *back);
    assert_non_null(ops);
    assert_non_null(back);
    set_create(&ops[0], 7);
    for (int i = 1; i < N; i++)
        set_append(&ops[i], 7, i - 1);

    waker_set_gate(&w, true);
    for (int i = 0; i < N; i++)
        store_submit(store, &ops[i]);
    waker_set_gate(&w, false);
    assert_int_equal(collect(store, &w, back, N), N);
    for (int i = 0; i < N; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    store_close(store);
    unsigned long batches = waker_calls(&w);
    assert_true(batches >= 1 && batches <= 2);
    assert_true(N / batches > 1);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->move_count[0], N - 1);
    assert_moves(l->moves[0], N - 1);
    loaded_free(l);
    free(back);
    free(ops);
}

/* In one batch: a duplicate ply, an update combined with a duplicate ply, and a second create of a
 * game fail alone (each rolled back whole); the ops around them commit. */
static void test_failing_op_rolled_back_alone(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp first[2], *back[2];
    set_create(&first[0], 8);
    set_append(&first[1], 8, 0);
    store_submit(store, &first[0]);
    store_submit(store, &first[1]);
    assert_int_equal(collect(store, &w, back, 2), 2);
    assert_true(first[0].ok && first[1].ok);

    StoreOp ops[7];
    set_append(&ops[0], 8, 1); /* ok */
    set_append(&ops[1], 8, 0); /* duplicate ply */
    ops[1].move.at_ms = 42;
    snprintf(ops[1].move.uci, sizeof ops[1].move.uci, "%s", "h7h8q");
    set_append(&ops[2], 8, 2); /* ok: follows ply 1 */
    set_append(&ops[3], 8, 1); /* duplicate again, with an update that must not stay */
    ops[3].update = true;
    make_record(&ops[3].record, 8);
    snprintf(ops[3].record.result, sizeof ops[3].record.result, "%s", "0-1");
    set_create(&ops[4], 8);    /* the game exists */
    set_append(&ops[5], 8, 9); /* a gap */
    set_create(&ops[6], 9);    /* ok */
    /* Held in wake: the seven ops form at most two batches, and every failing one shares its batch with
     * an op that commits. */
    waker_set_gate(&w, true);
    StoreOp barrier;
    set_append(&barrier, 8, 1000); /* a gap, fails too */
    store_submit(store, &barrier);
    for (int i = 0; i < 7; i++)
        store_submit(store, &ops[i]);
    waker_set_gate(&w, false);
    StoreOp *all[8];
    assert_int_equal(collect(store, &w, all, 8), 8);
    assert_false(barrier.ok);
    assert_true(ops[0].ok);
    assert_false(ops[1].ok);
    assert_false(ops[1].fault); /* the op's own failure, not the storage's */
    assert_non_null(strstr(ops[1].error, "ply 0"));
    assert_true(ops[2].ok);
    assert_false(ops[3].ok);
    assert_true(strlen(ops[3].error) > 0);
    assert_false(ops[4].ok);
    assert_false(ops[4].fault);
    assert_non_null(strstr(ops[4].error, "UNIQUE"));
    assert_false(ops[5].ok);
    assert_true(ops[6].ok);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 2);
    assert_records_equal(&l->records[0], &first[0].record); /* result still "" */
    assert_int_equal(l->move_count[0], 3);
    assert_moves(l->moves[0], 3);
    assert_records_equal(&l->records[1], &ops[6].record);
    loaded_free(l);
}

/* An update of a game that does not exist fails; so does an op that names no write. */
static void test_update_missing_game(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[2], *back[2];
    memset(ops, 0, sizeof ops);
    ops[0].update = true;
    make_record(&ops[0].record, 11);
    make_record(&ops[1].record, 11);
    store_submit(store, &ops[0]);
    store_submit(store, &ops[1]);
    assert_int_equal(collect(store, &w, back, 2), 2);
    assert_false(ops[0].ok);
    assert_non_null(strstr(ops[0].error, "no such game"));
    assert_false(ops[1].ok);
    assert_true(strlen(ops[1].error) > 0);
    store_close(store);
    waker_destroy(&w);
}

static off_t file_size(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : -1;
}

/* Commits land in the WAL; only a checkpoint copies them into the database file. Enough single-op
 * batches to pass the checkpoint threshold (1000 WAL pages) must make the file grow while the store
 * stays open. */
static void test_wal_checkpointed_while_open(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    off_t before = file_size(d->db);
    enum { PLIES = 1500 };
    StoreOp op;
    set_create(&op, 30);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    for (int ply = 0; ply < PLIES; ply++) {
        set_append(&op, 30, ply);
        submit_and_wait(store, &w, &op);
        if (!op.ok)
            fail_msg("ply %d: %s", ply, op.error);
    }
    /* The checkpoint runs on its own thread: poll, with a guard against hanging. */
    const struct timespec pause_ts = {0, 10 * 1000 * 1000};
    for (int i = 0; i < HANG_GUARD_SECONDS * 100 && file_size(d->db) <= before; i++)
        nanosleep(&pause_ts, NULL);
    assert_true(file_size(d->db) > before);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->move_count[0], PLIES);
    assert_moves(l->moves[0], PLIES);
    loaded_free(l);
}

#define CRASH_BATCH      8
#define CRASH_KILL_AFTER 400

/* The child: appends moves to one game, CRASH_BATCH at a time, and reports each acknowledged count
 * through the pipe, until it is killed. */
static void crash_child(const char *db, int fd) {
    char err[256] = "";
    Waker w;
    waker_init(&w);
    Store *store = store_sqlite_open(db, on_wake, &w, err, sizeof err);
    if (!store)
        _exit(2);
    StoreOp ops[CRASH_BATCH + 1], *back[CRASH_BATCH + 1];
    set_create(&ops[0], 20);
    store_submit(store, &ops[0]);
    if (collect(store, &w, back, 1) != 1 || !ops[0].ok)
        _exit(3);
    for (int ply = 0;; ply += CRASH_BATCH) {
        if (ply > 1000000)
            pause(); /* the parent kills long before; never run away */
        for (int i = 0; i < CRASH_BATCH; i++) {
            set_append(&ops[i], 20, ply + i);
            store_submit(store, &ops[i]);
        }
        if (collect(store, &w, back, CRASH_BATCH) != CRASH_BATCH)
            _exit(4);
        for (int i = 0; i < CRASH_BATCH; i++)
            if (!ops[i].ok)
                _exit(5);
        char line[32];
        int len = snprintf(line, sizeof line, "acked %d\n", ply + CRASH_BATCH);
        if (write(fd, line, (size_t)len) != len)
            _exit(6);
    }
}

static void test_acked_ops_survive_sigkill(void **state) {
    TestDir *d = *state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        crash_child(d->db, fds[1]);
        _exit(7);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    assert_non_null(in);
    char line[64];
    int acked = 0;
    bool killed = false;
    /* Every line counts, also those written just before the kill; EOF comes when the child is gone. */
    while (fgets(line, sizeof line, in)) {
        int n = 0;
        if (sscanf(line, "acked %d", &n) == 1 && n > acked)
            acked = n;
        if (!killed && acked >= CRASH_KILL_AFTER) {
            assert_int_equal(kill(pid, SIGKILL), 0);
            killed = true;
        }
    }
    fclose(in);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!killed)
        fail_msg("the child ended before it was killed (status %d)", status);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    GameRecord want;
    make_record(&want, 20);
    assert_records_equal(&l->records[0], &want);
    assert_true(l->move_count[0] >= acked);
    assert_moves(l->moves[0], l->move_count[0]);
    print_message("acked %d before SIGKILL, %d found after reopening\n", acked, l->move_count[0]);
    loaded_free(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_open_creates_folder_and_schema, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migration_from_version_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_fails_with_message, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_get_recent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wake_once_per_batch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_ops_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batches_group, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failing_op_rolled_back_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_missing_game, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wal_checkpointed_while_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_acked_ops_survive_sigkill, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
