/* The SQLite store against a real database file in a fresh temporary folder: schema and migrations,
 * round trips through close and reopen, load / get / recent, ordering and group commit under many queued ops, a failing op
 * rolled back alone inside its batch (those in store_cases.h, shared with the PostgreSQL store's
 * tests), and durability of acknowledged ops across a SIGKILL. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, fdopen, kill */

#include "store_fixture.h"

#include "store_cases.h" /* the tests every backend passes */

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* The number of migration steps in store_sqlite.c: bump it when a step is appended. */
#define EXPECTED_SCHEMA_VERSION 18

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

/* Schema 14 on a database whose accounts already hold two names with one confusable skeleton: both
 * keep their names, the older one the skeleton (the other's has its key appended), and a new look-alike
 * is refused. */
static void test_migration_14_keeps_lookalike_names(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    store_close(store);
    waker_destroy(&w);
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(raw,
                     "ALTER TABLE games DROP COLUMN provisional_white;" /* schema 18 */
                     "ALTER TABLE games DROP COLUMN provisional_black;"
                     "ALTER TABLE seeks DROP COLUMN variant;"             /* schema 17 */
                     "ALTER TABLE seeks DROP COLUMN provisional;"         /* schema 16 */
                     "DROP TABLE analysis_requests; DROP TABLE analyses;" /* schema 15 */
                     "DROP INDEX accounts_by_skeleton;"
                     "ALTER TABLE accounts DROP COLUMN skeleton;"
                     "ALTER TABLE accounts DROP COLUMN seat_epoch;"
                     "ALTER TABLE games DROP COLUMN seat_epoch_white;"
                     "ALTER TABLE games DROP COLUMN seat_epoch_black;"
                     "INSERT INTO accounts (key, name, password_hash, created_ms) VALUES"
                     " ('alice01', 'alice01', 'x', 5), ('aiice01', 'aIice01', 'x', 3), ('bob', 'bob', 'x', 1);"
                     "PRAGMA user_version = 13;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(raw);
    store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    assert_non_null(a);
    AccountRow row = {.key = "al1ce01", .name = "AL1CE01", .password_hash = "y", .created_ms = 9};
    assert_int_equal(a->vtbl->create(a, &row, err, sizeof err), SA_CONFUSABLE);
    AccountRow got;
    assert_int_equal(a->vtbl->get(a, "alice01", &got, err, sizeof err), SA_OK);
    assert_int_equal(got.seat_epoch, 0);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(raw_int(raw, "PRAGMA user_version"), EXPECTED_SCHEMA_VERSION);
    assert_int_equal(raw_int(raw, "SELECT count(*) FROM accounts WHERE key = 'aiice01' AND skeleton = 'allceol'"), 1);
    assert_int_equal(
        raw_int(raw, "SELECT count(*) FROM accounts WHERE key = 'alice01' AND skeleton = 'allceol:alice01'"), 1);
    assert_int_equal(raw_int(raw, "SELECT count(*) FROM accounts WHERE key = 'bob' AND skeleton = 'bob'"), 1);
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

/* ---- an account's games are read through the indexes (issue 22) ---- */

/* EXPLAIN QUERY PLAN of sql: true when no step of it scans the games table (every step on games is a
 * SEARCH through an index); plan gets the whole plan for the failure's message. */
static bool plan_uses_indexes(sqlite3 *db, const char *sql, char *plan, size_t size) {
    char explain[3000];
    snprintf(explain, sizeof explain, "EXPLAIN QUERY PLAN %s", sql);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, explain, -1, &st, NULL) != SQLITE_OK)
        fail_msg("prepare %s: %s", sql, sqlite3_errmsg(db));
    bool ok = true;
    size_t used = 0;
    plan[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 3);
        used += (size_t)snprintf(plan + used, used < size ? size - used : 0, "%s | ", line ? line : "");
        if (used >= size)
            used = size - 1;
        /* "SCAN g", "SCAN games", also "SCAN g USING INDEX x": every row of the table read (an index
         * read in full for its order is no better). Through an index the plan says SEARCH. */
        if (line && (!strcmp(line, "SCAN g") || !strncmp(line, "SCAN g ", 7) || !strncmp(line, "SCAN games", 10) ||
                     !strncmp(line, "SCAN TABLE games", 16)))
            ok = false;
    }
    sqlite3_finalize(st);
    return ok;
}

static void test_account_queries_use_indexes(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    store_close(store);
    waker_destroy(&w);
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open_v2(d->db, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    char sql[3000], plan[3000];
    const PlayedFilter filters[] = {PLAYED_ALL, PLAYED_WON, PLAYED_LOST, PLAYED_DRAWN};
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++) {
        store_played_sql(filters[i], "?1", " ORDER BY created_ms DESC, id LIMIT ?3 OFFSET ?2", sql, sizeof sql);
        if (!plan_uses_indexes(raw, sql, plan, sizeof plan))
            fail_msg("a player page (filter %d) scans the games: %s", (int)filters[i], plan);
    }
    store_playing_sql("?1", " ORDER BY updated_ms DESC LIMIT ?2", sql, sizeof sql);
    if (!plan_uses_indexes(raw, sql, plan, sizeof plan))
        fail_msg("the games in play scan the games: %s", plan);
    store_player_games_sql("SELECT id, created_ms FROM games g", "?1", " ORDER BY created_ms DESC, id DESC LIMIT ?2",
                           sql, sizeof sql);
    if (!plan_uses_indexes(raw, sql, plan, sizeof plan))
        fail_msg("the PGN export scans the games: %s", plan);
    /* The check itself sees a scan: the old query, one OR over both sides. */
    assert_false(plan_uses_indexes(raw,
                                   "SELECT id FROM games g WHERE (account_white = ?1 OR account_black = ?1)"
                                   " AND result <> '' ORDER BY created_ms DESC LIMIT 20",
                                   plan, sizeof plan));
    sqlite3_close(raw);
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
        cmocka_unit_test_setup_teardown(test_accounts_and_sessions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_revoke_access_and_skeletons, setup, teardown),
        cmocka_unit_test_setup_teardown(test_analyses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migration_14_keeps_lookalike_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seeks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ratings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_account_queries_use_indexes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
