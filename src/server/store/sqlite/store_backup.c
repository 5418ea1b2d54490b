/* Online backups of the SQLite store (`schach backup`).
 *
 * A running server holds its database exclusively (unix-excl), so no other process can read it: the
 * copy is made by the server itself. It listens on a Unix socket beside the database (path + ".sock",
 * owner only); `schach backup` sends one line, "backup DEST\n", and reads one back, "ok\n" or
 * "error MESSAGE\n". The copy runs on the socket's thread with SQLite's backup API in a single step,
 * that is in one read transaction on a connection of its own: a consistent snapshot that never blocks
 * the writer. When no server holds the database, `schach backup` copies it directly.
 *
 * Either way the copy is written to a temporary file beside DEST, synced, renamed over DEST, and the
 * folder synced: DEST is the complete new copy or untouched, also after kill -9 at any moment (a
 * leftover DEST.tmp-XXXXXX is all a kill can leave behind).
 *
 * sun_path holds 107 bytes: a longer socket path is reached as /proc/self/fd/N/NAME.sock through a
 * descriptor of its folder; when even that is too long there is no socket (logged at start), and
 * `schach backup` says so. */
#define _GNU_SOURCE /* accept4, SO_PEERCRED, O_PATH */

#include "store_sqlite_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define BACKUP_REQUEST_MAX 4200 /* "backup " and a path */

struct StoreBackupServer {
    char *db_path;
    char *sock_path;
    int listen_fd;
    int stop_pipe[2];
    Worker *thread; /* one task: the socket's loop (worker_start_task) */
};

/* ---- the copy ---- */

static bool fsync_path(const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0;
    close(fd);
    return ok;
}

/* The folder part of path ("." when there is none). */
static char *folder_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(len + 1);
    if (dir) {
        memcpy(dir, path, len);
        dir[len] = '\0';
    }
    return dir;
}

/* Copies src (an open connection) into dest through a temporary file beside it. */
static bool backup_copy(sqlite3 *src, const char *src_path, const char *dest, char *err, size_t err_size) {
    struct stat a, b;
    if (stat(src_path, &a) == 0 && stat(dest, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
        store_set_err(err, err_size, "%s is the database itself", dest);
        return false;
    }
    size_t len = strlen(dest);
    char *tmp = malloc(len + 12), *dir = folder_of(dest);
    if (!tmp || !dir) {
        free(tmp);
        free(dir);
        store_set_err(err, err_size, "out of memory");
        return false;
    }
    snprintf(tmp, len + 12, "%s.tmp-XXXXXX", dest);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        store_set_err(err, err_size, "cannot create a file beside %s: %s", dest, strerror(errno));
        free(tmp);
        free(dir);
        return false;
    }
    close(fd);
    sqlite3 *dst = NULL;
    bool ok = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK &&
              sqlite3_exec(dst, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_backup *bk = ok ? sqlite3_backup_init(dst, "main", src, "main") : NULL;
    if (!bk) {
        store_set_err(err, err_size, "cannot start the copy into %s: %s", tmp, dst ? sqlite3_errmsg(dst) : "no memory");
        ok = false;
    } else {
        /* One step for everything: one read transaction, so the copy is one consistent snapshot. */
        int rc = sqlite3_backup_step(bk, -1);
        sqlite3_backup_finish(bk);
        ok = rc == SQLITE_DONE;
        if (!ok)
            store_set_err(err, err_size, "copying into %s: %s", tmp, sqlite3_errstr(rc));
    }
    sqlite3_close(dst);
    if (ok && !fsync_path(tmp, O_RDWR)) {
        store_set_err(err, err_size, "cannot sync %s: %s", tmp, strerror(errno));
        ok = false;
    }
    if (ok && rename(tmp, dest) != 0) {
        store_set_err(err, err_size, "cannot rename %s to %s: %s", tmp, dest, strerror(errno));
        ok = false;
    }
    if (ok && !fsync_path(dir, O_RDONLY | O_DIRECTORY)) {
        store_set_err(err, err_size, "cannot sync the folder %s: %s", dir, strerror(errno));
        ok = false;
    }
    if (!ok)
        unlink(tmp);
    free(tmp);
    free(dir);
    return ok;
}

/* A snapshot of db_path, read on a connection of this process. */
static bool backup_from(const char *db_path, const char *dest, char *err, size_t err_size) {
    sqlite3 *src = store_open_connection(db_path, SQLITE_OPEN_READONLY, err, err_size);
    if (!src)
        return false;
    bool ok = backup_copy(src, db_path, dest, err, err_size);
    sqlite3_close(src);
    return ok;
}

/* ---- the socket ---- */

/* The socket's address; *dir_fd is a descriptor of its folder when the path is too long for sun_path
 * (close it after bind or connect), else -1. */
static bool socket_address(const char *sock_path, struct sockaddr_un *addr, int *dir_fd, char *err, size_t err_size) {
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    *dir_fd = -1;
    if (strlen(sock_path) < sizeof addr->sun_path) {
        memcpy(addr->sun_path, sock_path, strlen(sock_path) + 1);
        return true;
    }
    char *dir = folder_of(sock_path);
    const char *name = strrchr(sock_path, '/');
    if (dir && name)
        *dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (*dir_fd >= 0 && (size_t)snprintf(addr->sun_path, sizeof addr->sun_path, "/proc/self/fd/%d/%s", *dir_fd,
                                         name + 1) < sizeof addr->sun_path)
        return true;
    if (*dir_fd >= 0)
        close(*dir_fd);
    *dir_fd = -1;
    store_set_err(err, err_size, "the socket path %s is too long for a Unix socket (at most %zu bytes)", sock_path,
                  sizeof addr->sun_path - 1);
    return false;
}

static void send_all(int fd, const char *text) {
    for (size_t done = 0, len = strlen(text); done < len;) {
        ssize_t n = send(fd, text + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += (size_t)n;
    }
}

/* Reads one line (without its newline) into buf; false on EOF, error or an overlong line. */
static bool read_line(int fd, char *buf, size_t size) {
    size_t len = 0;
    while (len + 1 < size) {
        ssize_t n = read(fd, buf + len, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        if (buf[len] == '\n') {
            buf[len] = '\0';
            return true;
        }
        len++;
    }
    return false;
}

static void serve_client(StoreBackupServer *b, int fd) {
    /* Owner-only socket, and the peer must be this user (or root) as well. */
    struct ucred cred;
    socklen_t cred_len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 || (cred.uid != getuid() && cred.uid != 0)) {
        send_all(fd, "error permission denied\n");
        return;
    }
    struct timeval timeout = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    char *line = malloc(BACKUP_REQUEST_MAX);
    if (!line)
        return;
    char err[600] = "", answer[700];
    if (!read_line(fd, line, BACKUP_REQUEST_MAX) || strncmp(line, "backup /", 8) != 0) {
        snprintf(answer, sizeof answer, "error %s\n", "bad request (want \"backup /ABSOLUTE/PATH\")");
    } else if (backup_from(b->db_path, line + 7, err, sizeof err)) {
        log_event(LOG_INFO, "backup", "path", b->db_path, "to", line + 7, (char *)NULL);
        snprintf(answer, sizeof answer, "ok\n");
    } else {
        log_event(LOG_WARN, "backup_failed", "path", b->db_path, "to", line + 7, "error", err, (char *)NULL);
        for (char *p = err; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(answer, sizeof answer, "error %s\n", err);
    }
    send_all(fd, answer);
    free(line);
}

static void backup_main(void *arg) {
    StoreBackupServer *b = arg;
    for (;;) {
        struct pollfd fds[2] = {{.fd = b->listen_fd, .events = POLLIN}, {.fd = b->stop_pipe[0], .events = POLLIN}};
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        if (fds[1].revents || (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)))
            break; /* stopping (or the socket was shut down) */
        if (!(fds[0].revents & POLLIN))
            continue;
        int fd = accept4(b->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        serve_client(b, fd);
        close(fd);
    }
}

static void backup_server_free(StoreBackupServer *b) {
    if (b->listen_fd >= 0)
        close(b->listen_fd);
    for (int i = 0; i < 2; i++)
        if (b->stop_pipe[i] >= 0)
            close(b->stop_pipe[i]);
    free(b->sock_path);
    free(b->db_path);
    free(b);
}

/* The socket's path, path + ".sock", newly allocated. */
static char *socket_path(const char *db_path) {
    size_t len = strlen(db_path);
    char *p = malloc(len + 6);
    if (p)
        snprintf(p, len + 6, "%s.sock", db_path);
    return p;
}

StoreBackupServer *store_backup_server_start(const char *db_path) {
    StoreBackupServer *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->listen_fd = b->stop_pipe[0] = b->stop_pipe[1] = -1;
    char err[300] = "out of memory";
    struct sockaddr_un addr;
    int dir_fd = -1;
    bool ok = (b->db_path = strdup(db_path)) && (b->sock_path = socket_path(db_path)) &&
              socket_address(b->sock_path, &addr, &dir_fd, err, sizeof err);
    if (ok) {
        /* This process holds the database exclusively, so a socket already there is a dead server's. */
        unlink(b->sock_path);
        b->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        /* Owner only; until the chmod, serve_client's peer check turns other users away. */
        ok = b->listen_fd >= 0 && bind(b->listen_fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
             chmod(b->sock_path, 0600) == 0 && listen(b->listen_fd, 4) == 0 && pipe2(b->stop_pipe, O_CLOEXEC) == 0;
        if (!ok)
            snprintf(err, sizeof err, "cannot listen on %s: %s", b->sock_path, strerror(errno));
    }
    if (dir_fd >= 0)
        close(dir_fd);
    if (ok) {
        char why[200];
        ok = (b->thread = worker_start_task(backup_main, b, why, sizeof why)) != NULL;
        if (!ok)
            snprintf(err, sizeof err, "cannot start the backup thread");
    }
    if (!ok) {
        log_event(LOG_WARN, "backup_socket_unavailable", "path", db_path, "error", err, (char *)NULL);
        if (b->listen_fd >= 0 && b->sock_path)
            unlink(b->sock_path);
        backup_server_free(b);
        return NULL;
    }
    return b;
}

void store_backup_server_stop(StoreBackupServer *b) {
    if (!b)
        return;
    /* The thread finishes a backup in progress before it sees this. */
    if (write(b->stop_pipe[1], "x", 1) != 1)
        shutdown(b->listen_fd, SHUT_RDWR); /* cannot happen with an empty pipe; wakes poll all the same */
    worker_free(b->thread);
    unlink(b->sock_path);
    backup_server_free(b);
}

/* ---- the client ---- */

/* dest as an absolute path (the server's working folder is not ours). */
static char *absolute(const char *dest) {
    if (dest[0] == '/')
        return strdup(dest);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    size_t len = strlen(cwd) + strlen(dest) + 2;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", cwd, dest);
    return p;
}

/* Asks the server holding db_path for the copy. 1: done (or refused: err says why, *ok false), 0: no
 * server listens, -1: error talking to it. */
static int backup_through_server(const char *sock_path, const char *dest, bool *ok, char *err, size_t err_size) {
    struct sockaddr_un addr;
    int dir_fd;
    if (!socket_address(sock_path, &addr, &dir_fd, err, err_size))
        return 0;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int rc = fd >= 0 ? connect(fd, (struct sockaddr *)&addr, sizeof addr) : -1;
    int connect_errno = errno;
    if (dir_fd >= 0)
        close(dir_fd);
    if (rc != 0) {
        if (fd >= 0)
            close(fd);
        if (connect_errno == ENOENT || connect_errno == ECONNREFUSED)
            return 0;
        store_set_err(err, err_size, "cannot reach the server at %s: %s", sock_path, strerror(connect_errno));
        return -1;
    }
    size_t len = strlen(dest) + 9;
    char *request = malloc(len), answer[800];
    if (request) {
        snprintf(request, len, "backup %s\n", dest);
        send_all(fd, request);
    }
    free(request);
    bool answered = read_line(fd, answer, sizeof answer);
    close(fd);
    if (!answered) {
        store_set_err(err, err_size, "the server stopped before the copy was done; %s is unchanged", dest);
        return -1;
    }
    *ok = strcmp(answer, "ok") == 0;
    if (!*ok)
        store_set_err(err, err_size, "%s", strncmp(answer, "error ", 6) == 0 ? answer + 6 : answer);
    return 1;
}

bool store_sqlite_backup(const char *db_path, const char *dest, char *err, size_t err_size) {
    if (!db_path || !*db_path || !dest || !*dest) {
        store_set_err(err, err_size, "no database or no backup file named");
        return false;
    }
    if (strchr(dest, '\n')) {
        store_set_err(err, err_size, "the backup file's name contains a line break");
        return false;
    }
    char *abs_dest = absolute(dest), *sock = socket_path(db_path);
    bool ok = false;
    int via = abs_dest && sock ? backup_through_server(sock, abs_dest, &ok, err, err_size) : -1;
    if (!abs_dest || !sock) {
        store_set_err(err, err_size, "out of memory");
    } else if (via == 0) {
        struct stat st;
        if (stat(db_path, &st) != 0)
            store_set_err(err, err_size, "no database at %s: %s", db_path, strerror(errno));
        else if (store_open_in_process(db_path))
            store_set_err(err, err_size, "the database %s is open in this process without a backup socket", db_path);
        else if (!store_check_not_held(db_path, err, err_size))
            store_set_err(err, err_size,
                          "another process holds %s but does not answer on %s (a server started with another"
                          " spelling of the path, or an older schach serve?): give --db exactly as the server got it",
                          db_path, sock);
        else
            ok = store_check_wal(db_path, err, err_size) && backup_from(db_path, abs_dest, err, err_size);
    }
    free(abs_dest);
    free(sock);
    return ok;
}
