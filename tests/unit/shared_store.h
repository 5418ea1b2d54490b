/* Several server nodes on one store, without PostgreSQL: each node gets a Store of its own that hands
 * everything to ONE real SQLite store underneath, which decides the revs, conflicts and leases exactly
 * as store.h says. What PostgreSQL adds for a cluster is modelled here: every op is tagged with the
 * node that submitted it and comes back only to that node (take_done), and every op that committed
 * (not a claim) is announced to every OTHER node (take_notices), as NOTIFY does.
 *
 * The test steers what a real network makes uncertain: a node's announcements may be held back (a
 * slow NOTIFY) and dropped (lost ones), a resync notice injected (the listener's connection came back),
 * and a node's next submits failed as a storage fault. Everything but the inner store's writer thread
 * runs on the test's thread; the wake-ups of that thread and of the computer's workers are counted
 * under a mutex, so a test waits for them and never for time. */
#ifndef SCHACH_TEST_SHARED_STORE_H
#define SCHACH_TEST_SHARED_STORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

#define SHARED_NODES_MAX  4
#define SHARED_FLIGHT_MAX 256

typedef struct SharedStore SharedStore;

typedef struct NodeStore {
    Store base; /* first: the Store the node's service is given */
    SharedStore *shared;
    int index;
    StoreOp *done_head, *done_tail;         /* this node's ops back from the inner store */
    StoreNotice *notice_head, *notice_tail; /* announcements of the other nodes' commits */
    bool hold_notices;                      /* take_notices hands nothing out while set */
    int fail_submits;                       /* the next this many submits fail with fault set */
    bool fail_uncertain;                    /* ... and with uncertain set (broken during COMMIT) */
    /* What the node did through its store: */
    unsigned gets, revs_calls;
    unsigned submits, committed, conflicts, faults;
    unsigned claims_ok, claims_refused;
} NodeStore;

struct SharedStore {
    Store *inner;
    NodeStore nodes[SHARED_NODES_MAX];
    int node_count;
    struct {
        StoreOp *op;
        int node;
    } flight[SHARED_FLIGHT_MAX]; /* ops in the inner store, with who submitted them */
    int flight_count;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned wakes; /* every wake-up (inner store, computers), under mutex */
};

static inline NodeStore *shared_node_of(Store *s) { return (NodeStore *)s; }

/* The wake function of the inner store and of every node's computer. */
static inline void shared_wake(void *ctx) {
    SharedStore *sh = ctx;
    pthread_mutex_lock(&sh->mutex);
    sh->wakes++;
    pthread_cond_broadcast(&sh->cond);
    pthread_mutex_unlock(&sh->mutex);
}

static inline unsigned shared_wakes(SharedStore *sh) {
    pthread_mutex_lock(&sh->mutex);
    unsigned w = sh->wakes;
    pthread_mutex_unlock(&sh->mutex);
    return w;
}

static inline void shared_done_append(NodeStore *n, StoreOp *op) {
    op->next = NULL;
    if (n->done_tail)
        n->done_tail->next = op;
    else
        n->done_head = op;
    n->done_tail = op;
}

static inline void shared_notice_append(NodeStore *n, StoreNotice *notice) {
    notice->next = NULL;
    if (n->notice_tail)
        n->notice_tail->next = notice;
    else
        n->notice_head = notice;
    n->notice_tail = notice;
}

/* Announces a committed op of node `from` to every other node. */
static inline void shared_announce(SharedStore *sh, int from, const StoreOp *op) {
    for (int i = 0; i < sh->node_count; i++) {
        if (i == from)
            continue;
        StoreNotice *notice = calloc(1, sizeof *notice);
        if (!notice)
            abort();
        snprintf(notice->id, sizeof notice->id, "%s", op->record.id);
        notice->rev = op->record.rev;
        notice->ply = op->append ? op->ply + 1 : op->record.plies;
        shared_notice_append(&sh->nodes[i], notice);
    }
}

/* Takes everything the inner store finished and sorts it to the nodes that submitted it. */
static inline void shared_collect(SharedStore *sh) {
    StoreOp *op = store_take_done(sh->inner);
    while (op) {
        StoreOp *next = op->next;
        int node = -1;
        for (int i = 0; i < sh->flight_count; i++) {
            if (sh->flight[i].op == op) {
                node = sh->flight[i].node;
                sh->flight[i] = sh->flight[--sh->flight_count];
                break;
            }
        }
        if (node < 0)
            abort(); /* an op nobody submitted */
        NodeStore *n = &sh->nodes[node];
        if (op->claim) {
            n->claims_ok += op->ok;
            n->claims_refused += !op->ok;
        } else if (op->ok) {
            n->committed++;
            shared_announce(sh, node, op);
        } else {
            n->conflicts += op->conflict;
            n->faults += op->fault;
        }
        shared_done_append(n, op);
        op = next;
    }
}

/* ---- the node's Store ---- */

static inline bool shared_load(Store *s, StoreEachGame each, void *ctx, char *err, size_t n) {
    return store_load(shared_node_of(s)->shared->inner, each, ctx, err, n);
}

static inline int shared_get(Store *s, const char *id, StoreEachGame each, void *ctx, char *err, size_t n) {
    NodeStore *node = shared_node_of(s);
    node->gets++;
    return store_get(node->shared->inner, id, each, ctx, err, n);
}

static inline int shared_recent(Store *s, int max, StoreEachGame each, void *ctx, char *err, size_t n) {
    return store_recent(shared_node_of(s)->shared->inner, max, each, ctx, err, n);
}

static inline void shared_submit(Store *s, StoreOp *op) {
    NodeStore *node = shared_node_of(s);
    SharedStore *sh = node->shared;
    node->submits++;
    if (node->fail_submits > 0) {
        /* The connection broke: nothing reached the database. */
        node->fail_submits--;
        op->ok = false;
        op->fault = true;
        op->conflict = false;
        op->uncertain = node->fail_uncertain;
        snprintf(op->error, sizeof op->error, "storage: injected fault");
        node->faults++;
        shared_done_append(node, op);
        shared_wake(sh);
        return;
    }
    if (sh->flight_count == SHARED_FLIGHT_MAX)
        abort();
    sh->flight[sh->flight_count].op = op;
    sh->flight[sh->flight_count].node = node->index;
    sh->flight_count++;
    store_submit(sh->inner, op);
}

static inline StoreOp *shared_take_done(Store *s) {
    NodeStore *node = shared_node_of(s);
    shared_collect(node->shared);
    StoreOp *done = node->done_head;
    node->done_head = node->done_tail = NULL;
    return done;
}

static inline void shared_close(Store *s) { (void)s; /* the inner store is closed by shared_close_all */ }

static inline StoreNotice *shared_take_notices(Store *s) {
    NodeStore *node = shared_node_of(s);
    if (node->hold_notices)
        return NULL;
    StoreNotice *list = node->notice_head;
    node->notice_head = node->notice_tail = NULL;
    return list;
}

static inline int shared_revs(Store *s, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                              size_t n) {
    NodeStore *node = shared_node_of(s);
    node->revs_calls++;
    return store_revs(node->shared->inner, ids, count, each, ctx, err, n);
}

static inline int shared_scan(Store *s, const char *after, int max, StoreEachGame each, void *ctx, char *err,
                              size_t n) {
    return store_scan(shared_node_of(s)->shared->inner, after, max, each, ctx, err, n);
}

static const StoreVtbl shared_vtbl = {
    .load = shared_load,
    .get = shared_get,
    .recent = shared_recent,
    .submit = shared_submit,
    .take_done = shared_take_done,
    .close = shared_close,
    .take_notices = shared_take_notices,
    .revs = shared_revs,
    .scan = shared_scan,
};

/* ---- the test's side ---- */

/* Opens the SQLite store at path under `nodes` node stores; false with err filled. */
static inline bool shared_open(SharedStore *sh, const char *path, int nodes, char *err, size_t err_size) {
    memset(sh, 0, sizeof *sh);
    pthread_mutex_init(&sh->mutex, NULL);
    pthread_cond_init(&sh->cond, NULL);
    sh->inner = store_sqlite_open(path, shared_wake, sh, err, err_size);
    if (!sh->inner)
        return false;
    sh->node_count = nodes;
    for (int i = 0; i < nodes; i++) {
        sh->nodes[i].base.vtbl = &shared_vtbl;
        sh->nodes[i].shared = sh;
        sh->nodes[i].index = i;
    }
    return true;
}

static inline Store *shared_node(SharedStore *sh, int i) { return &sh->nodes[i].base; }

/* Drops a node's announcements not yet taken (they were lost). */
static inline void shared_drop_notices(SharedStore *sh, int i) {
    store_notices_free(sh->nodes[i].notice_head);
    sh->nodes[i].notice_head = sh->nodes[i].notice_tail = NULL;
}

/* Queues a resync notice for node i (its listener lost the connection and got it back). */
static inline void shared_resync(SharedStore *sh, int i) {
    StoreNotice *notice = calloc(1, sizeof *notice);
    if (!notice)
        abort();
    notice->resync = true;
    shared_notice_append(&sh->nodes[i], notice);
    shared_wake(sh);
}

/* Closes the inner store (after every node's service was freed) and frees what is left. */
static inline void shared_close_all(SharedStore *sh) {
    if (sh->inner)
        store_close(sh->inner);
    sh->inner = NULL;
    for (int i = 0; i < sh->node_count; i++)
        shared_drop_notices(sh, i);
    pthread_mutex_destroy(&sh->mutex);
    pthread_cond_destroy(&sh->cond);
}

#endif
