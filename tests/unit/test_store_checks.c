/* The SQLite store against damaged and failing files: the WAL validator on crash images (intact, a
 * torn tail, a damaged frame with commits after it, a damaged header), quick_check on a page that lies
 * about its cells, a second open of one database, the database deleted under a running store, writes
 * failing at a file-size limit and recovering by themselves, and online backups over the socket
 * (also when the socket's path is longer than sun_path) and directly. */
#define _GNU_SOURCE /* mkdtemp, nftw, setrlimit */

#include "store_fixture.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/log.h"
#include "store/sqlite/store_sqlite_internal.h"

#define PAGE      4096
#define FRAME     (24 + PAGE)
#define WAL_TXNS  6 /* transactions in a crash image, each a commit of its own */
#define ROWS_EACH 3

static void copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

static void flip_byte(const char *path, long offset) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    int c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ 0xff, f);
    assert_int_equal(fclose(f), 0);
}

/* A crash image at d->db (and its -wal): the store's schema plus WAL_TXNS committed transactions
 * still in the WAL, as a server killed with kill -9 leaves them. Returns the frames in the WAL. */
static long make_crash_image(TestDir *d) {
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    store_close(store);
    waker_destroy(&w);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(d->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA wal_autocheckpoint = 0; PRAGMA journal_mode = WAL", NULL, NULL, NULL),
                     SQLITE_OK);
    for (int t = 0; t < WAL_TXNS; t++) {
        char sql[300];
        snprintf(sql, sizeof sql,
                 "INSERT INTO games VALUES ('crash%07d', 1, 2, '', 'friend', 'none', 0, 0, 0, NULL, NULL, NULL,"
                 " -1, '', '', -1, 0, 0, 0, '', -1, '', 1, '', 0, 0, '', '', 0, 0, 0, 0, 0, 0, 0, '', 0, 0, 0, 0)",
                 t);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    /* Copied while the connection is open: what a crash leaves on disk. */
    char image[400], wal[400], image_wal[400];
    snprintf(image, sizeof image, "%s.image", d->db);
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    snprintf(image_wal, sizeof image_wal, "%s.image-wal", d->db);
    copy_file(d->db, image);
    copy_file(wal, image_wal);
    sqlite3_close(db);
    assert_int_equal(rename(image, d->db), 0);
    assert_int_equal(rename(image_wal, wal), 0);
    struct stat st;
    assert_int_equal(stat(wal, &st), 0);
    return (long)((st.st_size - 32) / FRAME);
}

static bool read_file(void *ctx, uint64_t offset, void *buf, size_t len) {
    return pread(*(int *)ctx, buf, len, (off_t)offset) == (ssize_t)len;
}

static StoreWalScan scan_wal(const char *db) {
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", db);
    int fd = open(wal, O_RDONLY);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    StoreWalScan scan;
    store_wal_scan((uint64_t)st.st_size, read_file, &fd, &scan);
    close(fd);
    return scan;
}

static int count_games(const char *db) {
    Loaded *l = reopen_and_load(db);
    int n = l->count;
    loaded_free(l);
    return n;
}

/* The intact image and one with a torn tail open, and every committed game is there. */
static void test_wal_intact_and_torn_tail(void **state) {
    TestDir *d = *state;
    long frames = make_crash_image(d);
    assert_true(frames >= WAL_TXNS);
    StoreWalScan scan = scan_wal(d->db);
    assert_int_equal(scan.verdict, STORE_WAL_OK);
    assert_int_equal(scan.valid_frames, frames);
    assert_int_equal(scan.committed_frames, frames);

    /* The last transaction's commit frame half written: normal after a crash, that one is lost. */
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    assert_int_equal(truncate(wal, 32 + (frames - 1) * FRAME + FRAME / 2), 0);
    scan = scan_wal(d->db);
    assert_int_equal(scan.verdict, STORE_WAL_OK);
    assert_int_equal(count_games(d->db), WAL_TXNS - 1);
}

/* A damaged frame with committed transactions after it: refused, with what to do. */
static void test_wal_damaged_frame_refused(void **state) {
    TestDir *d = *state;
    long frames = make_crash_image(d);
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    flip_byte(wal, 32 + 1 * FRAME + 24 + 100); /* in the page of frame 2 */
    StoreWalScan scan = scan_wal(d->db);
    assert_int_equal(scan.verdict, STORE_WAL_LOST_COMMITS);
    assert_int_equal(scan.break_frame, 1);
    assert_true(scan.commits_after >= 1 && (long)scan.commits_after <= frames - 2);
    char err[1024] = "";
    assert_null(store_sqlite_open(d->db, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "damaged at frame 2"));
    assert_non_null(strstr(err, "schach backup"));
    assert_non_null(strstr(err, "wal_checkpoint(TRUNCATE)"));
}

/* The damage in the very last frame looks like a torn tail: accepted (nothing after it is lost). */
static void test_wal_damaged_last_frame_accepted(void **state) {
    TestDir *d = *state;
    long frames = make_crash_image(d);
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    flip_byte(wal, 32 + (frames - 1) * FRAME + 24 + 100);
    StoreWalScan scan = scan_wal(d->db);
    assert_int_equal(scan.verdict, STORE_WAL_OK);
    assert_int_equal(scan.valid_frames, frames - 1);
}

/* A damaged header with frames after it: refused. A header alone, damaged, holds nothing: accepted. */
static void test_wal_damaged_header(void **state) {
    TestDir *d = *state;
    make_crash_image(d);
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    flip_byte(wal, 20); /* the second salt: the header's checksum no longer matches */
    assert_int_equal(scan_wal(d->db).verdict, STORE_WAL_BAD_HEADER);
    char err[1024] = "";
    assert_null(store_sqlite_open(d->db, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "its header is invalid"));
    assert_int_equal(truncate(wal, 32), 0);
    assert_int_equal(scan_wal(d->db).verdict, STORE_WAL_OK);
}

/* A page whose header claims half its cells: reads return games cut short; quick_check refuses. */
static void test_quick_check_refuses_bit_rot(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[41], *back[41];
    set_create(&ops[0], 50);
    for (int i = 1; i < 41; i++)
        set_append(&ops[i], 50, i - 1);
    for (int i = 0; i < 41; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, 41), 41);
    store_close(store);
    waker_destroy(&w);
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(d->db, &raw), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(raw, "SELECT rootpage FROM sqlite_master WHERE name = 'moves'", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long root = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(raw);
    FILE *f = fopen(d->db, "r+b");
    assert_non_null(f);
    unsigned char cells[2];
    assert_int_equal(fseek(f, (root - 1) * PAGE + 3, SEEK_SET), 0);
    assert_int_equal(fread(cells, 1, 2, f), 2);
    int half = (cells[0] << 8 | cells[1]) / 2;
    assert_true(half > 0);
    cells[0] = (unsigned char)(half >> 8);
    cells[1] = (unsigned char)half;
    assert_int_equal(fseek(f, (root - 1) * PAGE + 3, SEEK_SET), 0);
    assert_int_equal(fwrite(cells, 1, 2, f), 2);
    assert_int_equal(fclose(f), 0);
    char err[1024] = "";
    assert_null(store_sqlite_open(d->db, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "is damaged (PRAGMA quick_check"));
}

/* One database, one store per process: the second open is refused and leaves the first working. */
static void test_second_open_refused(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[512] = "";
    assert_null(store_sqlite_open(d->db, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "already open"));
    StoreOp op;
    set_create(&op, 60);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    char shm[400];
    snprintf(shm, sizeof shm, "%s-shm", d->db);
    assert_int_equal(access(shm, F_OK), -1); /* unix-excl: no -shm file to map */
    store_close(store);
    waker_destroy(&w);
}

/* The log's lines, written to a temporary file while a test runs. */
static FILE *log_capture(void) {
    FILE *f = tmpfile();
    assert_non_null(f);
    log_set_output(f);
    return f;
}

static bool log_has(FILE *f, const char *text) {
    fflush(f);
    rewind(f);
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    fseek(f, 0, SEEK_END);
    return found;
}

/* Deleting the database under a running store fails every later write, logged, until a restart. */
static void test_deleted_database_fails_writes(void **state) {
    TestDir *d = *state;
    FILE *log = log_capture();
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 70);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(unlink(d->db), 0);
    for (int ply = 0; ply < 2; ply++) {
        set_append(&op, 70, ply);
        submit_and_wait(store, &w, &op);
        assert_false(op.ok);
        assert_true(op.fault);
        assert_non_null(strstr(op.error, "was deleted"));
    }
    store_close(store);
    waker_destroy(&w);
    assert_true(log_has(log, "storage_fault"));
    log_set_output(NULL);
    fclose(log);
}

/* A file-size limit (EFBIG) fails the batch, logged as storage_fault; lifting it lets the next batch
 * commit (storage_recovered) on the same connection; the failed op left nothing behind. */
static void test_write_fault_recovers(void **state) {
    TestDir *d = *state;
    FILE *log = log_capture();
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 80);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    char wal[400];
    snprintf(wal, sizeof wal, "%s-wal", d->db);
    struct stat st;
    assert_int_equal(stat(wal, &st), 0);
    struct rlimit old, low;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    low = old;
    low.rlim_cur = (rlim_t)st.st_size;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &low), 0);
    set_append(&op, 80, 0);
    submit_and_wait(store, &w, &op);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    assert_false(op.ok);
    assert_true(op.fault);
    assert_true(log_has(log, "storage_fault"));
    set_append(&op, 80, 0);
    submit_and_wait(store, &w, &op);
    if (!op.ok)
        fail_msg("after the fault: %s", op.error);
    assert_true(log_has(log, "storage_recovered"));
    store_close(store);
    waker_destroy(&w);
    log_set_output(NULL);
    fclose(log);
    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->move_count[0], 1);
    assert_moves(l->moves[0], 1);
    loaded_free(l);
}

static int raw_count(const char *path, const char *sql) {
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(raw, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(raw);
    return n;
}

/* Backs up the store at db (open, over its socket) into dest, then with the store closed (directly). */
static void backup_both_ways(const char *db, const char *dest) {
    Waker w;
    Store *store = open_with_waker(db, &w);
    StoreOp op;
    set_create(&op, 90);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    char err[1024] = "";
    if (!store_sqlite_backup(db, dest, err, sizeof err))
        fail_msg("backup over the socket: %s", err);
    assert_int_equal(raw_count(dest, "SELECT count(*) FROM games"), 1);
    assert_false(store_sqlite_backup(db, db, err, sizeof err)); /* never over the database itself */
    assert_non_null(strstr(err, "database itself"));
    set_create(&op, 91);
    submit_and_wait(store, &w, &op);
    store_close(store);
    waker_destroy(&w);
    char sock[600];
    snprintf(sock, sizeof sock, "%s.sock", db);
    assert_int_equal(access(sock, F_OK), -1); /* removed at close */
    if (!store_sqlite_backup(db, dest, err, sizeof err))
        fail_msg("direct backup: %s", err);
    assert_int_equal(raw_count(dest, "SELECT count(*) FROM games"), 2);
}

static void test_backup(void **state) {
    TestDir *d = *state;
    char dest[400];
    snprintf(dest, sizeof dest, "%s/copy.db", d->root);
    backup_both_ways(d->db, dest);
    char err[512] = "";
    snprintf(dest, sizeof dest, "%s/none.db", d->root);
    assert_false(store_sqlite_backup(dest, d->db, err, sizeof err));
    assert_non_null(strstr(err, "no database"));
}

/* A database whose socket path does not fit sun_path (107 bytes) is reached through its folder. */
static void test_backup_long_path(void **state) {
    TestDir *d = *state;
    char dir[400], db[500], dest[500];
    snprintf(dir, sizeof dir, "%s/a-folder-with-a-rather-long-name-for-the-socket-path-to-exceed-sun-path", d->root);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(db, sizeof db, "%s/games.db", dir);
    assert_true(strlen(db) + 5 >= sizeof(((struct sockaddr_un *)0)->sun_path));
    snprintf(dest, sizeof dest, "%s/copy.db", d->root);
    backup_both_ways(db, dest);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_wal_intact_and_torn_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wal_damaged_frame_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wal_damaged_last_frame_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wal_damaged_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quick_check_refuses_bit_rot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_second_open_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deleted_database_fails_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_fault_recovers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backup_long_path, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
