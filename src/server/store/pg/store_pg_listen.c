/* The PostgreSQL store's listener: a thread with a connection of its own that LISTENs for the changes
 * every node announces after its commits (NOTIFY, delivered only once the announcing transaction
 * committed) and queues them for the loop's take_notices().
 *
 * Announcements are not stored anywhere: those sent while the connection was down are lost. So after
 * a lost connection comes back the listener queues one resync notice, and the loop compares every game
 * it holds with the store. The thread waits on its socket and on the store's stop pipe, so close never
 * waits for an announcement or a reconnect. */
#define _POSIX_C_SOURCE 200809L /* poll */

#include "store_pg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How long the listener waits between attempts to connect again. */
#define PG_LISTEN_RETRY_MS 500

bool store_pg_listen_on(PGconn *conn, char *err, size_t err_size) {
    return store_pg_exec(conn, "LISTEN " STORE_PG_CHANNEL, err, err_size);
}

/* Reads a decimal number ending at a space or the end; false when there is none or it is out of range. */
static bool parse_number(const char **p, long long min, long long max, long long *out) {
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || v < min || v > max || (*end != ' ' && *end != '\0'))
        return false;
    *out = v;
    *p = *end == ' ' ? end + 1 : end;
    return true;
}

void store_pg_format_payload(char out[STORE_PG_PAYLOAD_MAX], const char *id, int64_t rev, int ply, int64_t sent_ms,
                             const char *node, const char *note) {
    snprintf(out, STORE_PG_PAYLOAD_MAX, "%s %lld %d %lld %s\t%s", id, (long long)rev, ply, (long long)sent_ms, node,
             note);
}

bool store_pg_parse_payload(const char *payload, StoreNotice *n, char *node) {
    memset(n, 0, sizeof *n);
    const char *p = payload;
    size_t id_len = 0;
    while (p[id_len] && p[id_len] != ' ') {
        unsigned char c = (unsigned char)p[id_len];
        if (!isalnum(c) && c != '-' && c != '_')
            return false;
        id_len++;
    }
    if (id_len == 0 || id_len > STORE_ID_LEN || p[id_len] != ' ')
        return false;
    memcpy(n->id, p, id_len);
    n->id[id_len] = '\0';
    p += id_len + 1;
    long long rev, ply, sent;
    if (!parse_number(&p, 1, INT64_MAX, &rev) || !parse_number(&p, 0, 1000000, &ply) ||
        !parse_number(&p, 0, INT64_MAX, &sent))
        return false;
    const char *tab = strchr(p, '\t');
    size_t node_len = tab ? (size_t)(tab - p) : strlen(p);
    if (node_len == 0 || node_len > STORE_NODE_LEN || (tab && strlen(tab + 1) > STORE_NOTE_LEN))
        return false;
    memcpy(node, p, node_len);
    node[node_len] = '\0';
    if (tab)
        memcpy(n->note, tab + 1, strlen(tab + 1) + 1);
    n->rev = rev;
    n->ply = (int)ply;
    n->sent_ms = sent;
    return true;
}

/* Queues the announcements libpq has read; false when the connection broke. */
static bool drain(PgStore *s, PGconn *conn) {
    if (PQconsumeInput(conn) != 1)
        return false;
    PGnotify *note;
    while ((note = PQnotifies(conn)) != NULL) {
        pthread_mutex_lock(&s->mutex);
        bool own = note->be_pid == s->writer_pid;
        pthread_mutex_unlock(&s->mutex);
        StoreNotice parsed;
        char node[STORE_NODE_LEN + 1];
        /* This node's own commits are known to it already. */
        if (!own && strcmp(note->relname, STORE_PG_CHANNEL) == 0 &&
            store_pg_parse_payload(note->extra, &parsed, node) &&
            !(store_notice_is_analysis(&parsed) && strcmp(node, s->node) == 0)) {
            StoreNotice *n = malloc(sizeof *n);
            if (n) {
                *n = parsed;
                int64_t lag = store_pg_wall_ms() - parsed.sent_ms;
                pthread_mutex_lock(&s->mutex);
                s->counters.notices++;
                store_histogram_add(&s->counters.notice_lag_ms, lag > 0 ? (double)lag : 0.0);
                pthread_mutex_unlock(&s->mutex);
                store_pg_queue_notice(s, n);
            } else {
                /* Lost for want of memory: the loop must look itself. */
                store_pg_queue_resync(s);
            }
        }
        PQfreemem(note);
    }
    return PQstatus(conn) == CONNECTION_OK;
}

/* Waits for conn's socket (fd >= 0) or the stop pipe, at most timeout_ms (-1: no limit). Returns 1 when
 * the socket is readable, 0 on timeout, -1 when the store is stopping. */
static int wait_for(PgStore *s, int fd, int timeout_ms) {
    struct pollfd fds[2] = {{.fd = s->stop_pipe[0], .events = POLLIN}, {.fd = fd, .events = POLLIN}};
    for (;;) {
        int rc = poll(fds, fd >= 0 ? 2 : 1, timeout_ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0 || fds[0].revents)
            return -1;
        return rc > 0 ? 1 : 0;
    }
}

static void set_listening(PgStore *s, bool up) {
    pthread_mutex_lock(&s->mutex);
    s->listener_ok = up;
    pthread_mutex_unlock(&s->mutex);
}

/* Connects and listens again, every PG_LISTEN_RETRY_MS until it works; false when the store stops. */
static bool reconnect(PgStore *s) {
    for (;;) {
        if (wait_for(s, -1, PG_LISTEN_RETRY_MS) < 0)
            return false;
        char why[512];
        PGconn *conn = store_pg_connect(s, PG_CONN_LISTENER, why, sizeof why);
        if (conn && store_pg_listen_on(conn, why, sizeof why)) {
            s->lconn = conn;
            set_listening(s, true);
            log_event(LOG_INFO, "storage_listen_recovered", "database", s->where, (char *)NULL);
            pthread_mutex_lock(&s->mutex);
            s->counters.reconnects++;
            pthread_mutex_unlock(&s->mutex);
            /* What was announced while the connection was down is lost. */
            store_pg_queue_resync(s);
            return true;
        }
        PQfinish(conn);
        log_event_limited(&s->listen_log, LOG_ERROR, "storage_listen_fault", "database", s->where, "error", why,
                          (char *)NULL);
    }
}

void store_pg_listener_main(void *arg) {
    PgStore *s = arg;
    for (;;) {
        int fd = PQsocket(s->lconn);
        int ready = fd >= 0 ? wait_for(s, fd, -1) : 0;
        if (ready < 0)
            break;
        if (fd >= 0 && drain(s, s->lconn))
            continue;
        char why[512];
        store_pg_message(s->lconn, NULL, why, sizeof why);
        log_event_limited(&s->listen_log, LOG_ERROR, "storage_listen_fault", "database", s->where, "error", why,
                          (char *)NULL);
        set_listening(s, false);
        PQfinish(s->lconn);
        s->lconn = NULL;
        if (!reconnect(s))
            break;
    }
}
