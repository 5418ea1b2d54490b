/* The PostgreSQL store: several `schach serve` nodes on one database. Three connections per node, each
 * with one owner: the writer thread's (group commit, store_pg_writer.c), the listener thread's (the
 * other nodes' announcements, store_pg_listen.c) and the event loop's for reads (store_pg_read.c).
 * This file opens and closes the store, makes connections, and holds the notices' queue (the ops' queue
 * is the writer's worker, worker.h).
 *
 * The conninfo may carry a password: it is handed to libpq and never written anywhere (messages name
 * the database as user@host:port/dbname). */
#define _POSIX_C_SOURCE 200809L /* gethostname, pipe, clock_gettime */

#include "store_pg_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Notices the loop has not taken yet: past this many it is not reading them (or cannot keep up), and
 * one resync notice says the same in less memory. */
#define PG_NOTICE_MAX 65536

#define PG_STR(x)  #x
#define PG_XSTR(x) PG_STR(x)

void store_pg_set_err(char *err, size_t size, const char *fmt, ...) {
    if (!err || size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
}

int64_t store_pg_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* libpq's messages span lines ("...failed: Connection refused\n\tIs the server running...") and start
 * with "ERROR:  " or "FATAL:  ": one line without the prefix and the DETAIL/HINT lines that follow. */
static void one_line(const char *msg, char *buf, size_t size) {
    if (size == 0)
        return;
    if (!msg || !*msg)
        msg = "unknown error";
    static const char *const prefixes[] = {"ERROR:  ", "FATAL:  ", "PANIC:  "};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(msg, prefixes[i], strlen(prefixes[i])) == 0)
            msg += strlen(prefixes[i]);
    size_t n = 0;
    bool space = false;
    for (const char *p = msg; *p && n + 1 < size; p++) {
        if (strncmp(p, "\nDETAIL:", 8) == 0 || strncmp(p, "\nHINT:", 6) == 0)
            break;
        if (*p == '\n' || *p == '\t' || *p == '\r') {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < size)
            buf[n++] = ' ';
        space = false;
        buf[n++] = *p;
    }
    buf[n] = '\0';
}

const char *store_pg_message(PGconn *conn, const PGresult *res, char *buf, size_t size) {
    const char *msg = res ? PQresultErrorMessage(res) : NULL;
    if ((!msg || !*msg) && conn)
        msg = PQerrorMessage(conn);
    one_line(msg, buf, size);
    return buf;
}

bool store_pg_exec(PGconn *conn, const char *sql, char *err, size_t err_size) {
    PGresult *res = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(res);
    bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok && err && err_size) {
        char buf[512];
        store_pg_set_err(err, err_size, "%s", store_pg_message(conn, res, buf, sizeof buf));
    }
    PQclear(res);
    return ok;
}

/* "user@host:port/dbname" of conn (which libpq knows after an attempt, also a failed one). */
static void describe(PGconn *conn, char *buf, size_t size) {
    const char *user = PQuser(conn), *host = PQhost(conn), *port = PQport(conn), *db = PQdb(conn);
    snprintf(buf, size, "%s@%s:%s/%s", user && *user ? user : "?", host && *host ? host : "localhost",
             port && *port ? port : "5432", db && *db ? db : "?");
}

/* What each kind of connection sets for its session. The writer's settings are the ones durability
 * rests on: synchronous_commit on (whatever the server's default), so COMMIT returns only once the
 * batch is flushed to disk. A statement, a lock or a transaction left open cannot stall a node for
 * long: another node's writer that stopped inside a transaction is ended by the server after the
 * idle timeout, which frees the rows it held. */
static const char *session_sql(PgConnRole role) {
    switch (role) {
        case PG_CONN_WRITER:
            return "SET synchronous_commit = on; SET statement_timeout = '30s'; SET lock_timeout = '10s';"
                   " SET idle_in_transaction_session_timeout = '30s'";
        case PG_CONN_READER:
            return "SET statement_timeout = " PG_XSTR(
                STORE_PG_READ_TIMEOUT_MS) "; SET default_transaction_read_only = on;"
                                          " SET idle_in_transaction_session_timeout = '30s'";
        case PG_CONN_LISTENER:
        case PG_CONN_PLAIN: break;
    }
    return NULL;
}

/* libpq prints the server's notices ("relation ... already exists, skipping") and errors that arrive
 * between queries (FATAL: terminating connection ...) on stderr; what matters of them reaches the
 * store as a failed call and is logged there. */
static void ignore_notice(void *arg, const char *message) { (void)arg, (void)message; }

PGconn *store_pg_connect(PgStore *s, PgConnRole role, char *err, size_t err_size) {
    /* Defaults before dbname: the conninfo (expanded in dbname's place) overrides any of them. The
     * keepalives and the TCP user timeout end a connection to a server that vanished from the network,
     * where a read would otherwise wait for hours. */
    static const char *const keys[] = {"connect_timeout",           "keepalives",       "keepalives_idle",
                                       "keepalives_interval",       "keepalives_count", "tcp_user_timeout",
                                       "fallback_application_name", "dbname",           NULL};
    const char *values[] = {STORE_PG_CONNECT_TIMEOUT, "1", "10", "5", "3", "15000", "schach", s->conninfo, NULL};
    PGconn *conn = PQconnectdbParams(keys, values, 1);
    if (!conn) {
        store_pg_set_err(err, err_size, "cannot connect to PostgreSQL at %s: out of memory", s->where);
        return NULL;
    }
    PQsetNoticeProcessor(conn, ignore_notice, NULL);
    char where[sizeof s->where], why[512];
    describe(conn, where, sizeof where);
    if (PQstatus(conn) != CONNECTION_OK) {
        store_pg_set_err(err, err_size, "cannot connect to PostgreSQL at %s: %s", where,
                         store_pg_message(conn, NULL, why, sizeof why));
        PQfinish(conn);
        return NULL;
    }
    const char *sql = session_sql(role);
    if (sql && !store_pg_exec(conn, sql, why, sizeof why)) {
        store_pg_set_err(err, err_size, "setting up a connection to PostgreSQL at %s: %s", where, why);
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

/* ---- the queues ---- */

void store_pg_queue_notice(PgStore *s, StoreNotice *n) {
    n->next = NULL;
    pthread_mutex_lock(&s->mutex);
    if (s->notice_count >= PG_NOTICE_MAX && !n->resync) {
        /* Nobody reads them: one resync says as much. */
        store_notices_free(s->notice_head);
        s->notice_head = s->notice_tail = NULL;
        s->notice_count = 0;
        memset(n, 0, sizeof *n);
        n->resync = true;
        n->sent_ms = store_pg_wall_ms();
    }
    if (s->notice_tail)
        s->notice_tail->next = n;
    else
        s->notice_head = n;
    s->notice_tail = n;
    s->notice_count++;
    pthread_mutex_unlock(&s->mutex);
    if (s->wake)
        s->wake(s->wake_ctx);
}

void store_pg_queue_resync(PgStore *s) {
    StoreNotice *n = calloc(1, sizeof *n);
    if (!n) {
        log_event(LOG_ERROR, "storage_notice_lost", "database", s->where, "error", "out of memory", (char *)NULL);
        return;
    }
    n->resync = true;
    n->sent_ms = store_pg_wall_ms();
    store_pg_queue_notice(s, n);
}

/* ---- the vtable ---- */

static void pg_submit(Store *store, StoreOp *op) {
    PgStore *s = (PgStore *)store;
    op->ok = op->fault = op->conflict = op->uncertain = false;
    op->error[0] = '\0';
    worker_submit(s->writer, op); /* no bound, and nobody submits once close began */
}

static StoreOp *pg_take_done(Store *store) { return worker_take_done(((PgStore *)store)->writer); }

static StoreNotice *pg_take_notices(Store *store) {
    PgStore *s = (PgStore *)store;
    if (s->notices_hold && access(s->notices_hold, F_OK) == 0)
        return NULL;
    pthread_mutex_lock(&s->mutex);
    StoreNotice *list = s->notice_head;
    s->notice_head = s->notice_tail = NULL;
    s->notice_count = 0;
    pthread_mutex_unlock(&s->mutex);
    return list;
}

static void pg_stats(Store *store, StoreStats *out) {
    PgStore *s = (PgStore *)store;
    pthread_mutex_lock(&s->mutex);
    *out = s->counters;
    out->connected = s->writer_ok && s->listener_ok;
    pthread_mutex_unlock(&s->mutex);
    out->queue_depth = worker_queued(s->writer);
    out->backend = "postgresql";
}

/* Stops the threads (the writer after everything queued) and frees the store. */
static void free_store(PgStore *s) {
    worker_free(s->writer);
    free(s->slots);
    if (s->stop_pipe[1] >= 0) {
        ssize_t w;
        do
            w = write(s->stop_pipe[1], "x", 1);
        while (w < 0 && errno == EINTR);
    }
    worker_free(s->listener);
    for (int i = 0; i < 2; i++)
        if (s->stop_pipe[i] >= 0)
            close(s->stop_pipe[i]);
    PQfinish(s->wconn);
    PQfinish(s->lconn);
    store_pg_read_close(s);
    store_notices_free(s->notice_head);
    pthread_mutex_destroy(&s->mutex);
    free(s->conninfo);
    free(s->notices_hold);
    free(s);
}

/* Ops submitted before close() are committed; ops still in the done list are not returned. */
static void pg_close(Store *store) { free_store((PgStore *)store); }

static const StoreVtbl pg_vtbl = {
    .load = store_pg_load,
    .get = store_pg_get,
    .recent = store_pg_recent,
    .submit = pg_submit,
    .take_done = pg_take_done,
    .close = pg_close,
    .take_notices = pg_take_notices,
    .revs = store_pg_revs,
    .ping = store_pg_ping,
    .stats = pg_stats,
    .scan = store_pg_scan,
    .accounts_open = store_pg_accounts_open,
};

/* ---- open ---- */

/* host:pid, the default node name: unique among the nodes of one site. */
static void default_node(char *node, size_t size) {
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0 || !host[0])
        snprintf(host, sizeof host, "%s", "node");
    host[sizeof host - 1] = '\0';
    char pid[24];
    int pid_len = snprintf(pid, sizeof pid, ":%ld", (long)getpid());
    /* Keep the pid whole when the host name is long. */
    int host_len = (int)strlen(host);
    if (host_len + pid_len >= (int)size)
        host_len = (int)size - 1 - pid_len;
    snprintf(node, size, "%.*s%s", host_len, host, pid);
}

/* Migrations on a connection of their own: a step may take longer than the writer's statement timeout
 * (an index over many games). */
static bool migrate(PgStore *s, char *err, size_t err_size) {
    PGconn *conn = store_pg_connect(s, PG_CONN_PLAIN, err, err_size);
    if (!conn)
        return false;
    describe(conn, s->where, sizeof s->where); /* the database's name for the log */
    char why[400];
    bool ok = store_pg_migrate(conn, why, sizeof why);
    if (!ok)
        store_pg_set_err(err, err_size, "PostgreSQL at %s: %s", s->where, why);
    PQfinish(conn);
    return ok;
}

static bool open_connections(PgStore *s, char *err, size_t err_size) {
    char why[400];
    if (!migrate(s, err, err_size))
        return false;
    s->wconn = store_pg_connect(s, PG_CONN_WRITER, err, err_size);
    if (!s->wconn)
        return false;
    if (!store_pg_prepare_writer(s->wconn, why, sizeof why)) {
        store_pg_set_err(err, err_size, "PostgreSQL at %s: %s", s->where, why);
        return false;
    }
    s->writer_pid = PQbackendPID(s->wconn);
    /* Listening before open returns: nothing another node commits from now on is missed. */
    s->lconn = store_pg_connect(s, PG_CONN_LISTENER, err, err_size);
    if (!s->lconn)
        return false;
    if (!store_pg_listen_on(s->lconn, why, sizeof why)) {
        store_pg_set_err(err, err_size, "PostgreSQL at %s: %s", s->where, why);
        return false;
    }
    s->writer_ok = s->listener_ok = true;
    return true;
}

Store *store_pg_open(const char *conninfo, const char *node, void (*wake)(void *), void *wake_ctx, char *err,
                     size_t err_size) {
    if (!conninfo) {
        store_pg_set_err(err, err_size, "no PostgreSQL connection string");
        return NULL;
    }
    /* libpq's own message about a malformed string may quote it, password included. */
    char *parse_err = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &parse_err);
    PQconninfoFree(opts);
    PQfreemem(parse_err);
    if (!opts) {
        store_pg_set_err(err, err_size, "cannot connect to PostgreSQL: the connection string is malformed");
        return NULL;
    }
    if (node && strlen(node) > STORE_NODE_LEN) {
        store_pg_set_err(err, err_size, "the node name is longer than %d characters", STORE_NODE_LEN);
        return NULL;
    }
    PgStore *s = calloc(1, sizeof *s);
    const char *hold = getenv("SCHACH_STORE_NOTICES_HOLD");
    if (!s || !(s->conninfo = strdup(conninfo)) || (hold && *hold && !(s->notices_hold = strdup(hold)))) {
        if (s)
            free(s->conninfo);
        free(s);
        store_pg_set_err(err, err_size, "out of memory");
        return NULL;
    }
    s->base.vtbl = &pg_vtbl;
    s->wake = wake;
    s->wake_ctx = wake_ctx;
    s->stop_pipe[0] = s->stop_pipe[1] = -1;
    snprintf(s->where, sizeof s->where, "%s", "PostgreSQL");
    if (node && *node)
        snprintf(s->node, sizeof s->node, "%s", node);
    else
        default_node(s->node, sizeof s->node);
    pthread_mutex_init(&s->mutex, NULL);

    bool ok = open_connections(s, err, err_size);
    if (ok && pipe(s->stop_pipe) != 0) {
        store_pg_set_err(err, err_size, "cannot make a pipe: %s", strerror(errno));
        s->stop_pipe[0] = s->stop_pipe[1] = -1;
        ok = false;
    }
    for (int i = 0; ok && i < 2; i++)
        fcntl(s->stop_pipe[i], F_SETFD, FD_CLOEXEC);
    ok = ok && store_pg_writer_start(s, err, err_size);
    char why[200];
    if (ok && !(s->listener = worker_start_task(store_pg_listener_main, s, why, sizeof why))) {
        store_pg_set_err(err, err_size, "cannot start the store's %s thread: %s", "listener", why);
        ok = false;
    }
    if (!ok) {
        free_store(s);
        return NULL;
    }
    return &s->base;
}
