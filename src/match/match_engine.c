/* UCI engines as child processes (see match_engine.h). */
#define _GNU_SOURCE /* pipe2 */
#include "match_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Waits in slices so that a stop request (Ctrl-C) is seen within this time. */
#define POLL_SLICE_MS 100

int64_t match_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void log_line(EngineProc *p, const char *dir, const char *text, size_t n) {
    MatchLog *log = p->log;
    if (!log || !log->file)
        return;
    pthread_mutex_lock(&log->lock);
    int64_t ms = (match_now_us() - log->start_us) / 1000;
    fprintf(log->file, "%lld.%03lld %s %s %.*s\n", (long long)(ms / 1000), (long long)(ms % 1000), p->label, dir,
            (int)n, text);
    fflush(log->file);
    pthread_mutex_unlock(&log->lock);
}

/* The program's path: as given when it has a '/', else the first executable file in PATH. Done
 * before fork so that the child only calls async-signal-safe functions. */
static bool resolve(const char *prog, char *out, size_t size) {
    if (strchr(prog, '/'))
        return snprintf(out, size, "%s", prog) < (int)size;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        size_t n = strcspn(p, ":");
        if (snprintf(out, size, "%.*s%s%s", (int)n, p, n ? "/" : "", prog) < (int)size) {
            struct stat st;
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
                return true;
        }
        if (!p[n])
            return false;
        p += n + 1;
    }
}

/* In the child: own process group, pipes on 0 and 1, /dev/null on 2, then exec. On failure the
 * errno goes through the close-on-exec report pipe. */
static void child(const char *path, const EngineSpec *spec, int in_fd, int out_fd, int null_fd, int report_fd) {
    setpgid(0, 0);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || (null_fd >= 0 && dup2(null_fd, 2) < 0) ||
        fcntl(0, F_SETFD, 0) < 0 || fcntl(1, F_SETFD, 0) < 0 || (spec->dir && chdir(spec->dir) < 0)) {
        int e = errno;
        (void)!write(report_fd, &e, sizeof e);
        _exit(127);
    }
    execv(path, (char *const *)spec->argv);
    int e = errno;
    (void)!write(report_fd, &e, sizeof e);
    _exit(127);
}

static void close_fd(int *fd) {
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

bool eproc_start(EngineProc *p, const EngineSpec *spec, MatchLog *log, const char *label, char *why, size_t why_size) {
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    p->log = log;
    snprintf(p->label, sizeof p->label, "%s", label);
    char path[4096];
    if (!resolve(spec->argv[0], path, sizeof path)) {
        snprintf(why, why_size, "%s: %s", spec->argv[0], strerror(ENOENT));
        return false;
    }
    int to[2], from[2], report[2];
    if (pipe2(to, O_CLOEXEC) < 0)
        goto fail_errno;
    if (pipe2(from, O_CLOEXEC) < 0) {
        close(to[0]), close(to[1]);
        goto fail_errno;
    }
    if (pipe2(report, O_CLOEXEC) < 0) {
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        goto fail_errno;
    }
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t pid = fork();
    if (pid == 0)
        child(path, spec, to[0], from[1], null_fd, report[1]);
    int fork_errno = errno;
    if (pid > 0)
        setpgid(pid, pid); /* also here, so that a kill of the group cannot come before the child's */
    close(to[0]), close(from[1]), close(report[1]);
    if (null_fd >= 0)
        close(null_fd);
    int child_errno = 0;
    bool exec_failed = pid > 0 && read(report[0], &child_errno, sizeof child_errno) == (ssize_t)sizeof child_errno;
    close(report[0]);
    if (pid < 0 || exec_failed) {
        close(to[1]), close(from[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        snprintf(why, why_size, "%s: %s", spec->argv[0], strerror(pid < 0 ? fork_errno : child_errno));
        return false;
    }
    p->pid = pid;
    p->to_fd = to[1];
    p->from_fd = from[0];
    fcntl(p->to_fd, F_SETFL, fcntl(p->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->from_fd, F_SETFL, fcntl(p->from_fd, F_GETFL) | O_NONBLOCK);
    return true;
fail_errno:
    snprintf(why, why_size, "%s: %s", spec->argv[0], strerror(errno));
    return false;
}

static int slice_ms(int64_t deadline_us) {
    int64_t left = (deadline_us - match_now_us() + 999) / 1000;
    if (left < 0)
        left = 0;
    return left > POLL_SLICE_MS ? POLL_SLICE_MS : (int)left;
}

bool eproc_send(EngineProc *p, const char *line, int64_t deadline_us) {
    if (p->to_fd < 0)
        return false;
    log_line(p, "<", line, strlen(line));
    size_t n = strlen(line), done = 0;
    char *msg = malloc(n + 1);
    if (!msg)
        return false;
    memcpy(msg, line, n);
    msg[n++] = '\n';
    while (done < n) {
        ssize_t w = write(p->to_fd, msg + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR)
            break; /* EPIPE: the engine is gone (SIGPIPE is ignored by the runner) */
        if (match_now_us() >= deadline_us)
            break;
        struct pollfd pfd = {.fd = p->to_fd, .events = POLLOUT};
        poll(&pfd, 1, slice_ms(deadline_us));
    }
    free(msg);
    return done == n;
}

/* Takes one complete line out of the buffer; a line longer than ENGINE_LINE_MAX is cut. */
static bool take_line(EngineProc *p, char *line, size_t size) {
    char *nl = memchr(p->buf, '\n', p->len);
    size_t n = nl ? (size_t)(nl - p->buf) : p->len;
    if (!nl && p->len < ENGINE_LINE_MAX && !(p->eof && p->len > 0))
        return false;
    size_t consumed = nl ? n + 1 : n;
    if (n > 0 && p->buf[n - 1] == '\r')
        n--;
    size_t copy = n < size - 1 ? n : size - 1;
    memcpy(line, p->buf, copy);
    line[copy] = '\0';
    memmove(p->buf, p->buf + consumed, p->len - consumed);
    p->len -= consumed;
    log_line(p, ">", line, copy);
    return true;
}

ReadStatus eproc_read_line(EngineProc *p, char *line, size_t size, int64_t deadline_us, const atomic_int *stop) {
    for (;;) {
        if (take_line(p, line, size))
            return READ_LINE;
        if (p->eof || p->from_fd < 0)
            return READ_EOF;
        if (stop && atomic_load(stop))
            return READ_STOPPED;
        ssize_t r = read(p->from_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (r > 0) {
            p->len += (size_t)r;
            continue;
        }
        if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
            p->eof = true;
            continue;
        }
        if (match_now_us() >= deadline_us)
            return READ_TIMEOUT;
        struct pollfd pfd = {.fd = p->from_fd, .events = POLLIN};
        poll(&pfd, 1, slice_ms(deadline_us));
    }
}

/* Reads until a line equal to want (first word), remembering "id name". */
static ReadStatus wait_for(EngineProc *p, const char *want, int64_t deadline_us, const atomic_int *stop) {
    char line[ENGINE_LINE_MAX];
    size_t n = strlen(want);
    for (;;) {
        ReadStatus st = eproc_read_line(p, line, sizeof line, deadline_us, stop);
        if (st != READ_LINE)
            return st;
        const char *s = line + strspn(line, " \t");
        if (!strncmp(s, "id name ", 8))
            snprintf(p->id_name, sizeof p->id_name, "%s", s + 8);
        if (!strncmp(s, want, n) && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t'))
            return READ_LINE;
    }
}

static void set_why(char *why, size_t size, ReadStatus st, const char *what, SchLang lang) {
    if (lang == SCH_LANG_DE)
        snprintf(why, size, st == READ_EOF ? "beendet vor %s" : "keine Antwort %s in der Zeit", what);
    else
        snprintf(why, size, st == READ_EOF ? "exited before %s" : "timed out waiting for %s", what);
}

bool eproc_sync(EngineProc *p, int64_t timeout_us, const atomic_int *stop) {
    int64_t deadline = match_now_us() + timeout_us;
    return eproc_send(p, "isready", deadline) && wait_for(p, "readyok", deadline, stop) == READ_LINE;
}

bool eproc_handshake(EngineProc *p, const EngineSpec *spec, int64_t timeout_us, const atomic_int *stop, SchLang lang,
                     char *why, size_t why_size) {
    int64_t deadline = match_now_us() + timeout_us;
    ReadStatus st = READ_EOF;
    if (!eproc_send(p, "uci", deadline) || (st = wait_for(p, "uciok", deadline, stop)) != READ_LINE) {
        set_why(why, why_size, st, "uciok", lang);
        return false;
    }
    for (int i = 0; i < spec->option_count; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", spec->options[i].name, spec->options[i].value);
        if (!eproc_send(p, cmd, deadline)) {
            set_why(why, why_size, READ_EOF, "setoption", lang);
            return false;
        }
    }
    deadline = match_now_us() + timeout_us;
    if (!eproc_send(p, "isready", deadline) || (st = wait_for(p, "readyok", deadline, stop)) != READ_LINE) {
        set_why(why, why_size, st, "readyok", lang);
        return false;
    }
    return true;
}

void eproc_close(EngineProc *p, int64_t grace_us) {
    if (p->pid > 0) {
        if (!p->eof)
            eproc_send(p, "quit", match_now_us() + grace_us);
        int64_t deadline = match_now_us() + grace_us;
        bool reaped = false;
        while (!reaped) {
            pid_t r = waitpid(p->pid, NULL, WNOHANG);
            reaped = r == p->pid || (r < 0 && errno != EINTR);
            if (reaped || match_now_us() >= deadline)
                break;
            struct timespec ts = {0, 5 * 1000000};
            nanosleep(&ts, NULL);
        }
        /* The whole group, so that helpers the engine started go too. */
        kill(-p->pid, SIGKILL);
        if (!reaped)
            waitpid(p->pid, NULL, 0);
    }
    close_fd(&p->to_fd);
    close_fd(&p->from_fd);
    p->pid = 0;
}
