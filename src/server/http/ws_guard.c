/* schach serve: recv() as libwebsockets sees it, with WebSocket frame checks (why and how: ws_guard.h).
 *
 * The table has one slot per descriptor number. Only the loop thread writes slots, and only for the
 * connections lws accepted; recv() on any other thread only loads the mode byte of its descriptor
 * (atomically) and finds GUARD_NONE. A WebSocket's slot is forgotten when it closes (its owner pointer with it);
 * a plain HTTP connection's slot stays in GUARD_HANDSHAKE until the next accept that gets the number
 * resets it. That is harmless: no other part of the process calls recv() (the store uses pread, lws's
 * wake-up pipe read), and on a stream socket GUARD_HANDSHAKE only makes some reads shorter. */
#undef _FORTIFY_SOURCE /* this file defines recv() itself */
#define _GNU_SOURCE    /* ssize_t recv() as glibc declares it */

#include "ws_guard.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

enum {
    GUARD_NONE = 0,  /* not ours: straight through */
    GUARD_HANDSHAKE, /* HTTP: hand out request heads up to their end */
    GUARD_FRAMES,    /* WebSocket: every byte through WsFrames */
    GUARD_FAILED,    /* broken framing: drained, nothing handed out */
    GUARD_PLAIN,     /* HTTP that split too often: straight through, can no longer become a WebSocket */
};

/* Each read cut short at an empty line costs the loop one more turn; a client could make every byte
 * one (a body of line feeds). After this many on one connection it is read as it comes. Every
 * WebSocket handshake needs one at most; browsers open a new connection for each WebSocket. */
enum { GUARD_SHORT_READS_MAX = 64 };

/* cmd_serve.c keeps connections below a million; a descriptor beyond the table is refused. */
enum { GUARD_TABLE_MIN = 1024, GUARD_TABLE_MAX = 1 << 20 };

typedef struct GuardSlot {
    _Atomic uint8_t mode;
    uint8_t short_reads; /* reads cut short at an empty line (GUARD_HANDSHAKE) */
    WsHandshake head;
    WsFrames frames;
    void *owner;
} GuardSlot;

static GuardSlot *_Atomic guard_table;
static _Atomic size_t guard_size;
static WsGuardViolation guard_violation;

bool ws_guard_init(WsGuardViolation on_violation) {
    guard_violation = on_violation;
    if (atomic_load(&guard_table))
        return true;
    struct rlimit rl;
    size_t n = GUARD_TABLE_MIN;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        n = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > GUARD_TABLE_MAX ? GUARD_TABLE_MAX : (size_t)rl.rlim_cur;
    if (n < GUARD_TABLE_MIN)
        n = GUARD_TABLE_MIN;
    /* Zeroed pages that are never touched cost no memory: only descriptors in use do. */
    GuardSlot *t = calloc(n, sizeof *t);
    if (!t)
        return false;
    atomic_store(&guard_size, n);
    atomic_store(&guard_table, t);
    return true;
}

/* The slot of fd, or NULL when fd is not in the table. */
static GuardSlot *slot(int fd) {
    GuardSlot *t = atomic_load_explicit(&guard_table, memory_order_acquire);
    if (!t || fd < 0 || (size_t)fd >= atomic_load_explicit(&guard_size, memory_order_relaxed))
        return NULL;
    return &t[fd];
}

bool ws_guard_track(int fd) {
    GuardSlot *s = slot(fd);
    if (!s)
        return false;
    ws_handshake_init(&s->head);
    ws_frames_init(&s->frames);
    s->short_reads = 0;
    s->owner = NULL;
    atomic_store_explicit(&s->mode, GUARD_HANDSHAKE, memory_order_release);
    return true;
}

bool ws_guard_websocket(int fd, void *owner) {
    GuardSlot *s = slot(fd);
    if (!s)
        return false;
    /* lws found the end of the handshake in what it was handed; the last read ended at the end of a
     * head, so nothing after the handshake was handed out, unless lws ends heads somewhere the
     * scanner does not (then refuse rather than let frames through unchecked). */
    bool clean = atomic_load_explicit(&s->mode, memory_order_relaxed) == GUARD_HANDSHAKE && s->head.at_end;
    ws_frames_init(&s->frames);
    s->owner = owner;
    atomic_store_explicit(&s->mode, clean ? GUARD_FRAMES : GUARD_FAILED, memory_order_release);
    return clean;
}

void ws_guard_forget(int fd) {
    GuardSlot *s = slot(fd);
    if (!s)
        return;
    atomic_store_explicit(&s->mode, GUARD_NONE, memory_order_release);
    s->owner = NULL;
}

/* HTTP: peek, then take only up to the end of the first request head in what came. */
static ssize_t handshake_recv(GuardSlot *s, int fd, void *buf, size_t len, int flags) {
    ssize_t n = recvfrom(fd, buf, len, flags | MSG_PEEK, NULL, NULL);
    if (n <= 0)
        return n;
    WsHandshake next = s->head;
    size_t take = ws_handshake_take(&next, buf, (size_t)n);
    if (take < (size_t)n && ++s->short_reads > GUARD_SHORT_READS_MAX) {
        atomic_store_explicit(&s->mode, GUARD_PLAIN, memory_order_relaxed);
        return recvfrom(fd, buf, len, flags, NULL, NULL);
    }
    ssize_t got = recvfrom(fd, buf, take, flags, NULL, NULL);
    if (got == (ssize_t)take)
        s->head = next;
    else if (got > 0)
        ws_handshake_take(&s->head, buf, (size_t)got); /* fewer (never seen): the state for those */
    return got;
}

/* Broken framing: drain what comes so the loop does not spin on a readable socket, hand out nothing.
 * The end of the stream and errors still go through, so lws notices a client that hangs up. */
static ssize_t failed_recv(int fd, void *buf, size_t len, int flags) {
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (n <= 0)
        return n;
    errno = EAGAIN;
    return -1;
}

static ssize_t frames_recv(GuardSlot *s, int fd, void *buf, size_t len, int flags) {
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (n <= 0)
        return n;
    WsFrameError e = ws_frames_feed(&s->frames, buf, (size_t)n);
    if (!e)
        return n;
    atomic_store_explicit(&s->mode, GUARD_FAILED, memory_order_relaxed);
    if (guard_violation && s->owner)
        guard_violation(s->owner, e);
    errno = EAGAIN;
    return -1;
}

/* The interposed recv(): exported from the executable, so libwebsockets.so calls this one. */
__attribute__((visibility("default"))) ssize_t recv(int fd, void *buf, size_t len, int flags) {
    GuardSlot *s = slot(fd);
    int mode = s && !(flags & MSG_PEEK) ? atomic_load_explicit(&s->mode, memory_order_acquire) : GUARD_NONE;
    switch (mode) {
        case GUARD_HANDSHAKE: return handshake_recv(s, fd, buf, len, flags);
        case GUARD_FRAMES: return frames_recv(s, fd, buf, len, flags);
        case GUARD_FAILED: return failed_recv(fd, buf, len, flags);
        default: return recvfrom(fd, buf, len, flags, NULL, NULL);
    }
}
