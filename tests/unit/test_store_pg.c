/* The PostgreSQL store against a real PostgreSQL 15 that the group setup starts for this program alone
 * (scripts/pg-temp, in a temporary folder, on a free port) and the teardown stops and removes. Each test
 * gets a database of its own. The cases every backend passes (store_cases.h) run here too; the rest is
 * what several servers on one database need: the schema and its migration lock, two stores racing for
 * the same move, announcements between stores, a database that goes away and comes back, and what an
 * acknowledgement promises after a crash of the database. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, popen */

#include "store_fixture.h"

#include "store_cases.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXPECTED_SCHEMA_VERSION 19

static char pg_dir[256];     /* the cluster's folder */
static char pg_base[256];    /* its URI up to the database name: postgresql://schach@127.0.0.1:PORT/ */
static int pg_databases;     /* created so far */
static int watchdog_fd = -1; /* the write end of the watchdog's pipe */
static pid_t watchdog_pid;

/* ---- the cluster ---- */

/* Runs scripts/pg-temp command on the cluster's folder; its one line of output (if any) into out. */
static bool pg_temp(const char *command, char *out, size_t size) {
    char cmd[800];
    snprintf(cmd, sizeof cmd, "'%s/scripts/pg-temp' %s '%s'", SCHACH_SOURCE_DIR, command, pg_dir);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    if (!p)
        return false;
    char line[512] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    int status = pclose(p);
    if (out)
        snprintf(out, size, "%s", line);
    return status == 0;
}

static void pg_temp_or_fail(const char *command) {
    if (!pg_temp(command, NULL, 0))
        fail_msg("scripts/pg-temp %s failed", command);
}

/* A process that outlives this one if it dies without cleaning up (a crash, an abort, a timeout, a
 * SIGKILL): when the pipe closes without the word that all is done, it stops the cluster and removes
 * its folder, so no PostgreSQL is left running on the machine. */
static bool start_watchdog(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL);
    watchdog_pid = fork();
    if (watchdog_pid < 0)
        return false;
    if (watchdog_pid == 0) {
        close(fds[1]);
        char word;
        if (read(fds[0], &word, 1) == 1)
            _exit(0); /* the group teardown cleaned up */
        char cmd[800];
        snprintf(cmd, sizeof cmd, "'%s/scripts/pg-temp' kill '%s' >/dev/null 2>&1; rm -rf '%s'", SCHACH_SOURCE_DIR,
                 pg_dir, pg_dir);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    /* Nothing started from here on may hold the pipe open (the server's processes least of all). */
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    watchdog_fd = fds[1];
    return true;
}

static void stop_watchdog(void) {
    if (watchdog_fd < 0)
        return;
    if (write(watchdog_fd, "x", 1) != 1)
        perror("watchdog");
    close(watchdog_fd);
    waitpid(watchdog_pid, NULL, 0);
    watchdog_fd = -1;
}

static int group_setup(void **state) {
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(pg_dir, sizeof pg_dir, "%s/schach-pg-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(pg_dir) || !start_watchdog())
        return -1;
    char uri[256];
    if (!pg_temp("start", uri, sizeof uri) || strncmp(uri, "postgresql://", 13) != 0) {
        fprintf(stderr, "scripts/pg-temp start %s failed (output: %s)\n", pg_dir, uri);
        return -1;
    }
    char *slash = strrchr(uri, '/');
    slash[1] = '\0';
    snprintf(pg_base, sizeof pg_base, "%s", uri);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    bool stopped = pg_temp("stop", NULL, 0);
    int rc = nftw(pg_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    stop_watchdog();
    return stopped && rc == 0 ? 0 : -1;
}

/* ---- raw access, behind the store's back ---- */

static PGconn *raw_connect(const char *conninfo) {
    PGconn *conn = PQconnectdb(conninfo);
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("connecting to %s: %s", conninfo, PQerrorMessage(conn));
    return conn;
}

static void raw_exec(PGconn *conn, const char *sql) {
    PGresult *res = PQexec(conn, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(conn));
    PQclear(res);
}

/* The first column of the first row of sql, as a number. */
static long long raw_value(PGconn *conn, const char *sql) {
    PGresult *res = PQexec(conn, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) < 1)
        fail_msg("%s: %s", sql, PQerrorMessage(conn));
    long long v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return v;
}

/* The same through a connection of its own. */
static long long fresh_value(const char *conninfo, const char *sql) {
    PGconn *conn = raw_connect(conninfo);
    long long v = raw_value(conn, sql);
    PQfinish(conn);
    return v;
}

static void pg_drop_move(const char *where, const char *id, int ply) {
    char sql[160];
    snprintf(sql, sizeof sql, "DELETE FROM moves WHERE game_id = '%s' AND ply = %d", id, ply);
    PGconn *conn = raw_connect(where);
    PGresult *res = PQexec(conn, sql);
    assert_int_equal(PQresultStatus(res), PGRES_COMMAND_OK);
    assert_string_equal(PQcmdTuples(res), "1");
    PQclear(res);
    PQfinish(conn);
}

/* ---- per test: a fresh database ---- */

static Store *open_pg_node(const char *where, const char *node, Waker *w, char *err, size_t err_size) {
    return store_pg_open(where, node, on_wake, w, err, err_size);
}

static Store *open_pg(const char *where, Waker *w, char *err, size_t err_size) {
    return open_pg_node(where, "node-a", w, err, err_size);
}

/* Opens a second node on the same database; fails the test when it cannot. */
static Store *open_node_with_waker(const char *where, const char *node, Waker *w) {
    char err[256] = "";
    waker_init(w);
    Store *store = open_pg_node(where, node, w, err, sizeof err);
    if (!store)
        fail_msg("open %s: %s", node, err);
    return store;
}

static int pg_setup(void **state) {
    TestDir *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    char name[64], sql[128], admin[300];
    snprintf(name, sizeof name, "t%ld_%d", (long)getpid(), ++pg_databases);
    snprintf(admin, sizeof admin, "%sschach", pg_base);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    PGconn *conn = PQconnectdb(admin);
    PGresult *res = PQexec(conn, sql);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
    PQclear(res);
    PQfinish(conn);
    snprintf(d->db, sizeof d->db, "%s%s", pg_base, name);
    *state = d;
    return ok ? 0 : -1;
}

/* Drops the test's database, ending the connections of whatever a failed test left open: those stores'
 * threads can never connect again, so they never call their wake function, whose waker lived on the
 * failed test's stack. */
static int pg_teardown(void **state) {
    TestDir *d = *state;
    char admin[300], sql[128];
    snprintf(admin, sizeof admin, "%sschach", pg_base);
    snprintf(sql, sizeof sql, "DROP DATABASE %s WITH (FORCE)", strrchr(d->db, '/') + 1);
    PGconn *conn = PQconnectdb(admin);
    PGresult *res = PQexec(conn, sql);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
    PQclear(res);
    PQfinish(conn);
    free(d);
    return ok ? 0 : -1;
}

/* ---- the schema ---- */

static void test_schema_created_once(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 1);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    store_close(store);
    waker_destroy(&w);

    PGconn *raw = raw_connect(d->db);
    assert_int_equal(raw_value(raw, "SELECT version FROM schach_schema"), EXPECTED_SCHEMA_VERSION);
    assert_int_equal(raw_value(raw, "SELECT count(*) FROM pg_class WHERE relname IN ('games', 'moves', 'store_meta',"
                                    " 'games_in_play', 'games_finished_by_update')"),
                     5);
    /* The partial indexes are partial, and schema 7's columns are there. */
    assert_int_equal(raw_value(raw, "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                                    " WHERE c.relname IN ('games_in_play', 'games_finished_by_update')"
                                    " AND i.indpred IS NOT NULL"),
                     2);
    assert_int_equal(raw_value(raw, "SELECT count(*) FROM information_schema.columns WHERE table_name = 'games'"
                                    " AND column_name IN ('rev', 'lease_node', 'lease_until_ms', 'plies', 'reason',"
                                    " 'level')"),
                     6);

    /* Opening again applies no step (a second CREATE TABLE would fail) and keeps the data. */
    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], &op.record);
    assert_int_equal(l->records[0].rev, 1);
    loaded_free(l);
    assert_int_equal(raw_value(raw, "SELECT version FROM schach_schema"), EXPECTED_SCHEMA_VERSION);
    assert_int_equal(raw_value(raw, "SELECT count(*) FROM schach_schema"), 1);

    /* A database from a newer program is refused rather than misread. */
    raw_exec(raw, "UPDATE schach_schema SET version = 99");
    char err[256] = "";
    waker_init(&w);
    assert_null(store_pg_open(d->db, NULL, on_wake, &w, err, sizeof err));
    assert_non_null(strstr(err, "schema version 99, newer than this program's 19"));
    waker_destroy(&w);
    PQfinish(raw);
}

typedef struct Opener {
    const char *where;
    Store *store;
    char err[256];
} Opener;

static void *open_in_thread(void *arg) {
    Opener *o = arg;
    o->store = store_pg_open(o->where, NULL, NULL, NULL, o->err, sizeof o->err);
    return NULL;
}

/* Nodes that start together on an empty database migrate it once (the advisory lock), and all open. */
static void test_nodes_migrate_together(void **state) {
    TestDir *d = *state;
    enum { NODES = 4 };
    Opener openers[NODES];
    pthread_t threads[NODES];
    for (int i = 0; i < NODES; i++) {
        openers[i] = (Opener){.where = d->db};
        assert_int_equal(pthread_create(&threads[i], NULL, open_in_thread, &openers[i]), 0);
    }
    for (int i = 0; i < NODES; i++) {
        pthread_join(threads[i], NULL);
        if (!openers[i].store)
            fail_msg("node %d: %s", i, openers[i].err);
    }
    for (int i = 0; i < NODES; i++)
        store_close(openers[i].store);
    assert_int_equal(fresh_value(d->db, "SELECT version FROM schach_schema"), EXPECTED_SCHEMA_VERSION);
}

/* An unreachable database: a clear message that names it, without the password. */
static void test_connect_error_message(void **state) {
    (void)state;
    char err[256] = "";
    assert_null(store_pg_open("postgresql://schach:s3cretpw@127.0.0.1:1/games", NULL, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "cannot connect to PostgreSQL at schach@127.0.0.1:1/games: "));
    assert_null(strstr(err, "s3cretpw"));
    assert_null(strchr(err, '\n'));
    err[0] = '\0';
    assert_null(store_pg_open("host=127.0.0.1 port=1 password=s3cretpw dbname", NULL, NULL, NULL, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_null(strstr(err, "s3cretpw"));
}

/* An op that raises an error (text that is not UTF-8: PostgreSQL refuses it) among others in one batch:
 * the transaction is rolled back and run again without it, so it fails alone, and the ops before it
 * are applied once, not twice. */
static void test_erroring_op_fails_alone(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp barrier, ops[6], *back[7];
    set_create(&barrier, 120);
    set_create(&ops[0], 121);
    set_append(&ops[1], 121, 0);
    memset(&ops[2], 0, sizeof ops[2]);
    ops[2].update = true;
    make_record(&ops[2].record, 121);
    snprintf(ops[2].record.level, sizeof ops[2].record.level, "%s", "bad\xff");
    set_append(&ops[3], 121, 1);
    set_create(&ops[4], 122);
    set_append(&ops[5], 120, 0);
    /* One batch: the writer is held in wake after the barrier's. */
    waker_set_gate(&w, true);
    unsigned long seen = waker_calls(&w);
    store_submit(store, &barrier);
    assert_true(waker_wait_change(&w, seen));
    for (int i = 0; i < 6; i++)
        store_submit(store, &ops[i]);
    waker_set_gate(&w, false);
    assert_int_equal(collect(store, &w, back, 7), 7);
    assert_true(barrier.ok);
    for (int i = 0; i < 6; i++) {
        if (i == 2)
            continue;
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    assert_false(ops[2].ok);
    assert_false(ops[2].fault);
    assert_false(ops[2].conflict);
    assert_non_null(strstr(ops[2].error, "update of game g00000000121: invalid byte sequence"));
    assert_int_equal(ops[3].record.rev, 3);
    assert_int_equal(ops[5].record.rev, 2);
    StoreStats stats;
    store_stats(store, &stats);
    assert_int_equal(stats.batches, 2);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 3);
    assert_string_equal(l->records[1].id, "g00000000121");
    assert_int_equal(l->records[1].rev, 3);
    assert_string_equal(l->records[1].level, "");
    assert_int_equal(l->move_count[1], 2);
    assert_moves(l->moves[1], 2);
    assert_int_equal(l->move_count[0], 1);
    loaded_free(l);
}

/* ---- two nodes ---- */

/* Waits (without spinning on the database) until count sessions of this database wait for a lock. */
static void wait_for_lock_waiters(PGconn *raw, int count) {
    const struct timespec pause_ts = {0, 10 * 1000 * 1000};
    for (int i = 0; i < HANG_GUARD_SECONDS * 100; i++) {
        if (raw_value(raw, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND wait_event_type = 'Lock'") >= count)
            return;
        nanosleep(&pause_ts, NULL);
    }
    fail_msg("the writers never queued for the game's row");
}

/* Two nodes submit the same ply made on the same rev while a third session holds the game's row, so
 * both writers wait on it and go at the same moment: exactly one applies, and the move is stored once.
 * With a rev check the other conflicts; without one (base_rev 0) the moves' key refuses it, and it
 * fails alone in its batch. */
static void race_same_append(TestDir *d, bool with_rev) {
    Waker wa, wb;
    Store *a = open_node_with_waker(d->db, "node-a", &wa);
    Store *b = open_node_with_waker(d->db, "node-b", &wb);
    StoreOp create;
    set_create(&create, 80);
    create.append = true;
    create.ply = 0;
    create.move = move_for(0);
    submit_and_wait(a, &wa, &create);
    assert_true(create.ok);
    assert_int_equal(create.record.rev, 1);

    PGconn *raw = raw_connect(d->db);
    raw_exec(raw, "BEGIN");
    raw_exec(raw, "SELECT 1 FROM games WHERE id = 'g00000000080' FOR UPDATE");
    StoreOp op_a, op_b;
    set_append(&op_a, 80, 1);
    set_append(&op_b, 80, 1);
    snprintf(op_b.move.uci, sizeof op_b.move.uci, "%s", "h2h4");
    op_a.base_rev = op_b.base_rev = with_rev ? 1 : 0;
    store_submit(a, &op_a);
    store_submit(b, &op_b);
    wait_for_lock_waiters(raw, 2);
    raw_exec(raw, "COMMIT");
    StoreOp *back[1];
    assert_int_equal(collect(a, &wa, back, 1), 1);
    assert_int_equal(collect(b, &wb, back, 1), 1);

    assert_true(op_a.ok != op_b.ok);
    StoreOp *winner = op_a.ok ? &op_a : &op_b, *loser = op_a.ok ? &op_b : &op_a;
    assert_int_equal(winner->record.rev, 2);
    assert_false(loser->fault);
    assert_int_equal(loser->conflict, with_rev);
    assert_true(strlen(loser->error) > 0);
    assert_int_equal(raw_value(raw, "SELECT count(*) FROM moves WHERE game_id = 'g00000000080'"), 2);
    assert_int_equal(raw_value(raw, "SELECT rev FROM games WHERE id = 'g00000000080'"), 2);
    PGresult *res = PQexec(raw, "SELECT uci FROM moves WHERE game_id = 'g00000000080' AND ply = 1");
    assert_int_equal(PQntuples(res), 1);
    assert_string_equal(PQgetvalue(res, 0, 0), winner->move.uci);
    PQclear(res);
    PQfinish(raw);
    store_close(a);
    store_close(b);
    waker_destroy(&wa);
    waker_destroy(&wb);
}

static void test_race_same_append_with_rev(void **state) { race_same_append(*state, true); }
static void test_race_same_append_without_rev(void **state) { race_same_append(*state, false); }

/* The notices a test has seen, copied. */
typedef struct NoticeLog {
    int count;
    StoreNotice seen[64];
} NoticeLog;

static bool notice_matches(const StoreNotice *n, const char *id, int64_t rev) {
    return id ? !n->resync && strcmp(n->id, id) == 0 && n->rev == rev : n->resync;
}

/* Takes store's notices into log until one for id at rev (id NULL: a resync) is in it; false on the
 * hang guard. */
static bool wait_notice(Store *store, Waker *w, NoticeLog *log, const char *id, int64_t rev) {
    for (int i = 0; i < log->count; i++)
        if (notice_matches(&log->seen[i], id, rev))
            return true;
    for (;;) {
        unsigned long seen = waker_calls(w);
        bool found = false;
        StoreNotice *list = store_take_notices(store);
        for (StoreNotice *n = list; n; n = n->next) {
            assert_true(log->count < 64);
            log->seen[log->count++] = *n;
            found = found || notice_matches(n, id, rev);
        }
        store_notices_free(list);
        if (found)
            return true;
        if (!waker_wait_change(w, seen))
            return false;
    }
}

static const StoreNotice *find_notice(const NoticeLog *log, const char *id, int64_t rev) {
    for (int i = 0; i < log->count; i++)
        if (!log->seen[i].resync && strcmp(log->seen[i].id, id) == 0 && log->seen[i].rev == rev)
            return &log->seen[i];
    return NULL;
}

/* What node A commits reaches node B's take_notices (B is woken for it): the game, its rev and ply
 * count, one announcement per game and batch. */
static void test_notices_between_nodes(void **state) {
    TestDir *d = *state;
    Waker wa, wb;
    Store *a = open_node_with_waker(d->db, "node-a", &wa);
    Store *b = open_node_with_waker(d->db, "node-b", &wb);
    NoticeLog *log = calloc(1, sizeof *log);
    assert_non_null(log);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t before = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;

    StoreOp create;
    set_create(&create, 90);
    submit_and_wait(a, &wa, &create);
    assert_true(create.ok);
    assert_true(wait_notice(b, &wb, log, "g00000000090", 1));
    const StoreNotice *n = find_notice(log, "g00000000090", 1);
    assert_int_equal(n->ply, 0);
    assert_true(n->sent_ms >= before);

    /* Two moves and another game in one batch: the writer is held in wake after the barrier's batch. */
    StoreOp ops[3], barrier, *back[4];
    set_create(&barrier, 92);
    set_append(&ops[0], 90, 0);
    set_append(&ops[1], 90, 1);
    set_create(&ops[2], 91);
    waker_set_gate(&wa, true);
    unsigned long seen = waker_calls(&wa);
    store_submit(a, &barrier);
    assert_true(waker_wait_change(&wa, seen));
    for (int i = 0; i < 3; i++)
        store_submit(a, &ops[i]);
    waker_set_gate(&wa, false);
    assert_int_equal(collect(a, &wa, back, 4), 4);
    for (int i = 0; i < 3; i++)
        assert_true(ops[i].ok);
    assert_int_equal(ops[1].record.rev, 3);
    assert_true(wait_notice(b, &wb, log, "g00000000090", 3));
    assert_true(wait_notice(b, &wb, log, "g00000000091", 1));
    assert_int_equal(find_notice(log, "g00000000090", 3)->ply, 2);
    assert_null(find_notice(log, "g00000000090", 2)); /* the batch's last change speaks for it */
    for (int i = 0; i < log->count; i++)
        assert_false(log->seen[i].resync);

    StoreStats stats;
    store_stats(b, &stats);
    assert_true(stats.notices >= 4);
    assert_int_equal(stats.notice_lag_ms.count, stats.notices);
    /* A's own commits are not announced to A. */
    store_stats(a, &stats);
    assert_int_equal(stats.notices, 0);
    free(log);
    store_close(a);
    store_close(b);
    waker_destroy(&wa);
    waker_destroy(&wb);
}

/* ---- the database goes away ---- */

/* Polls ping until it answers (the listener reconnects on its own schedule); false on the hang guard. */
static bool wait_ping(Store *store) {
    const struct timespec pause_ts = {0, 20 * 1000 * 1000};
    for (int i = 0; i < HANG_GUARD_SECONDS * 50; i++) {
        if (store_ping(store))
            return true;
        nanosleep(&pause_ts, NULL);
    }
    return false;
}

/* While the database is down, writes come back with fault set and ping says false; once it is back,
 * writes succeed again, reads too, and every node is told to resync. A restart between two batches
 * costs nothing: the writer finds its connection broken before COMMIT and uses a new one. */
static void test_database_restart(void **state) {
    TestDir *d = *state;
    Waker wa, wb;
    Store *a = open_node_with_waker(d->db, "node-a", &wa);
    Store *b = open_node_with_waker(d->db, "node-b", &wb);
    NoticeLog *log = calloc(1, sizeof *log);
    assert_non_null(log);
    StoreOp op;
    set_create(&op, 95);
    submit_and_wait(a, &wa, &op);
    assert_true(op.ok);
    assert_true(store_ping(a));

    pg_temp_or_fail("stop");
    set_append(&op, 95, 0);
    submit_and_wait(a, &wa, &op);
    assert_false(op.ok);
    assert_true(op.fault);
    assert_false(op.conflict);
    assert_false(op.uncertain); /* nothing reached a database: surely not committed */
    assert_non_null(strstr(op.error, "storage"));
    assert_false(store_ping(a));
    StoreStats stats;
    store_stats(a, &stats);
    assert_false(stats.connected);
    char err[256] = "";
    Loaded *l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(store_get(b, "g00000000095", on_game, l, err, sizeof err), -1);
    assert_int_equal(l->count, 0);

    pg_temp_or_fail("start");
    set_append(&op, 95, 0);
    submit_and_wait(a, &wa, &op);
    if (!op.ok)
        fail_msg("after the restart: %s", op.error);
    assert_true(wait_notice(b, &wb, log, NULL, 0));
    assert_true(wait_ping(a));
    assert_int_equal(store_get(b, "g00000000095", on_game, l, err, sizeof err), 1);
    assert_int_equal(l->move_count[0], 1);
    store_stats(a, &stats);
    assert_true(stats.reconnects >= 2); /* the writer's and the listener's connections */
    assert_true(stats.connected);

    /* A restart while the writer idles: the next batch just works, and B resyncs again. */
    log->count = 0;
    pg_temp_or_fail("restart");
    set_append(&op, 95, 1);
    submit_and_wait(a, &wa, &op);
    if (!op.ok)
        fail_msg("after the second restart: %s", op.error);
    assert_false(op.fault);
    assert_true(wait_notice(b, &wb, log, NULL, 0));
    assert_int_equal(store_get(b, "g00000000095", on_game, l, err, sizeof err), 1);
    assert_int_equal(l->move_count[1], 2);
    loaded_free(l);
    free(log);
    store_close(a);
    store_close(b);
    waker_destroy(&wa);
    waker_destroy(&wb);
}

/* An op acknowledged ok is in the database, seen through a connection of its own, also after the
 * database crashed (an immediate shutdown: no checkpoint, recovery from the WAL). */
static void test_acked_ops_survive_crash(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { BATCHES = 20, PER_BATCH = 10 };
    StoreOp ops[PER_BATCH], *back[PER_BATCH];
    set_create(&ops[0], 96);
    submit_and_wait(store, &w, &ops[0]);
    assert_true(ops[0].ok);
    for (int b = 0; b < BATCHES; b++) {
        for (int i = 0; i < PER_BATCH; i++) {
            set_append(&ops[i], 96, b * PER_BATCH + i);
            store_submit(store, &ops[i]);
        }
        assert_int_equal(collect(store, &w, back, PER_BATCH), PER_BATCH);
        for (int i = 0; i < PER_BATCH; i++)
            if (!ops[i].ok)
                fail_msg("batch %d op %d: %s", b, i, ops[i].error);
    }
    assert_int_equal(fresh_value(d->db, "SELECT count(*) FROM moves WHERE game_id = 'g00000000096'"),
                     BATCHES * PER_BATCH);
    pg_temp_or_fail("kill");
    pg_temp_or_fail("start");
    assert_int_equal(fresh_value(d->db, "SELECT count(*) FROM moves WHERE game_id = 'g00000000096'"),
                     BATCHES * PER_BATCH);
    assert_int_equal(fresh_value(d->db, "SELECT rev FROM games WHERE id = 'g00000000096'"), BATCHES * PER_BATCH + 1);
    store_close(store);
    waker_destroy(&w);
}

/* The counters for GET /metrics. */
static void test_stats(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 97);
    submit_and_wait(store, &w, &op);
    set_append(&op, 97, 0);
    op.base_rev = 1;
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    set_append(&op, 97, 1);
    op.base_rev = 1; /* stale */
    submit_and_wait(store, &w, &op);
    assert_true(op.conflict);
    set_append(&op, 97, 5); /* a gap */
    submit_and_wait(store, &w, &op);
    assert_false(op.ok);
    StoreStats stats;
    store_stats(store, &stats);
    assert_string_equal(stats.backend, "postgresql");
    assert_true(stats.connected);
    assert_int_equal(stats.queue_depth, 0);
    assert_int_equal(stats.batches, 4);
    assert_int_equal(stats.ops_committed, 2);
    assert_int_equal(stats.ops_failed, 2);
    assert_int_equal(stats.conflicts, 1);
    assert_int_equal(stats.reconnects, 0);
    assert_int_equal(stats.commit_ms.count, 4);
    uint64_t in_buckets = 0;
    for (int i = 0; i < STORE_HIST_BUCKETS; i++)
        in_buckets += stats.commit_ms.counts[i];
    assert_int_equal(in_buckets, 4);
    assert_true(stats.commit_ms.sum_ms > 0);
    store_close(store);
    waker_destroy(&w);
}

/* ---- an account's games are read through the indexes (issue 22) ---- */

/* EXPLAIN of sql as the server runs it (a prepared statement's generic plan: the name is a parameter,
 * so a partial index helps only when the query itself proves its condition), with sequential scans
 * off: a plan scans the games in full only when no index can answer it. true when every scan of the
 * games goes through an account's index; plan gets the plan for the failure's message. */
static bool pg_plan_uses_indexes(PGconn *raw, const char *sql, int nparams, char *plan, size_t size) {
    char prepare[3500];
    snprintf(prepare, sizeof prepare, "PREPARE account_query AS %s", sql);
    PQclear(PQexec(raw, "DEALLOCATE ALL"));
    PQclear(PQexec(raw, "SET plan_cache_mode = force_generic_plan"));
    PQclear(PQexec(raw, "SET enable_seqscan = off"));
    PGresult *res = PQexec(raw, prepare);
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(raw));
    PQclear(res);
    res = PQexec(raw, nparams == 3 ? "EXPLAIN EXECUTE account_query('alice', 0, 20)"
                                   : "EXPLAIN EXECUTE account_query('alice', 20)");
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        fail_msg("EXPLAIN %s: %s", sql, PQerrorMessage(raw));
    bool ok = true;
    size_t used = 0;
    plan[0] = '\0';
    for (int i = 0; i < PQntuples(res); i++) {
        const char *line = PQgetvalue(res, i, 0);
        int n = snprintf(plan + used, size - used, "%s\n", line);
        used = n > 0 && used + (size_t)n < size ? used + (size_t)n : size - 1;
        /* A scan of the games, or an index of the games other than an account's (read in full). */
        bool games_index = strstr(line, "Index") && (strstr(line, "on games") || strstr(line, "using games"));
        if (strstr(line, "Seq Scan on games") ||
            (games_index && !strstr(line, "games_by_white_account") && !strstr(line, "games_by_black_account")))
            ok = false;
    }
    PQclear(res);
    return ok;
}

static void test_account_queries_use_indexes(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    store_close(store);
    waker_destroy(&w);
    PGconn *raw = raw_connect(d->db);
    char sql[3000], plan[4000];
    const PlayedFilter filters[] = {PLAYED_ALL, PLAYED_WON, PLAYED_LOST, PLAYED_DRAWN};
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++) {
        store_played_sql(filters[i], "$1", " ORDER BY created_ms DESC, id LIMIT $3::int OFFSET $2::int", sql,
                         sizeof sql);
        if (!pg_plan_uses_indexes(raw, sql, 3, plan, sizeof plan))
            fail_msg("a player page (filter %d) scans the games:\n%s", (int)filters[i], plan);
    }
    store_playing_sql("$1", " ORDER BY updated_ms DESC LIMIT $2::int", sql, sizeof sql);
    if (!pg_plan_uses_indexes(raw, sql, 2, plan, sizeof plan))
        fail_msg("the games in play scan the games:\n%s", plan);
    store_player_games_sql("SELECT id, created_ms FROM games g", "$1",
                           " ORDER BY created_ms DESC, id DESC LIMIT $2::int", sql, sizeof sql);
    if (!pg_plan_uses_indexes(raw, sql, 2, plan, sizeof plan))
        fail_msg("the PGN export scans the games:\n%s", plan);
    /* The check itself sees a scan: the old query, one OR over both sides. */
    assert_false(pg_plan_uses_indexes(raw,
                                      "SELECT id FROM games g WHERE (account_white = $1 OR account_black = $1)"
                                      " AND result <> '' ORDER BY created_ms DESC LIMIT $2::int",
                                      2, plan, sizeof plan));
    PQfinish(raw);
}

#define PG_TEST(name) cmocka_unit_test_setup_teardown(name, pg_setup, pg_teardown)

int main(void) {
    fixture_open_fn = open_pg;
    fixture_drop_move_fn = pg_drop_move;
    const struct CMUnitTest tests[] = {
        PG_TEST(test_schema_created_once),
        PG_TEST(test_nodes_migrate_together),
        PG_TEST(test_connect_error_message),
        /* store_cases.h */
        PG_TEST(test_round_trip),
        PG_TEST(test_load_get_recent),
        PG_TEST(test_wake_once_per_batch),
        PG_TEST(test_many_ops_in_order),
        PG_TEST(test_batches_group),
        PG_TEST(test_failing_op_rolled_back_alone),
        PG_TEST(test_update_missing_game),
        PG_TEST(test_rev_counts_and_conflicts),
        PG_TEST(test_claim_leases),
        PG_TEST(test_scan_pages),
        PG_TEST(test_revs_lookup),
        PG_TEST(test_accounts_and_sessions),
        PG_TEST(test_revoke_access_and_skeletons),
        PG_TEST(test_analyses),
        PG_TEST(test_seeks),
        PG_TEST(test_ratings),
        PG_TEST(test_account_queries_use_indexes),
        /* several nodes */
        PG_TEST(test_erroring_op_fails_alone),
        PG_TEST(test_race_same_append_with_rev),
        PG_TEST(test_race_same_append_without_rev),
        PG_TEST(test_notices_between_nodes),
        PG_TEST(test_database_restart),
        PG_TEST(test_acked_ops_survive_crash),
        PG_TEST(test_stats),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
