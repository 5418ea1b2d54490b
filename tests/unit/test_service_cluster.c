/* The game service on several nodes that share one store (service_cluster.c), without PostgreSQL: each
 * node is a Service of its own over a node store of shared_store.h, and all of them write through ONE
 * real SQLite store, which decides revs, conflicts and leases. The announcements PostgreSQL would send
 * (NOTIFY) are the wrapper's, so the test holds them back, drops them or resyncs as it likes; clocks are
 * injected and every wait is for a wake-up, never for time. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"
#include "shared_store.h"

#define A 0
#define B 1
#define C 2

typedef struct Cluster {
    char dir[64];
    char path[128];
    SharedStore sh;
    Service *svc[SHARED_NODES_MAX];
    int nodes;
    int64_t now;
} Cluster;

static int64_t cl_clock(void *ctx) { return ((Cluster *)ctx)->now; }

static NodeStore *node(Cluster *c, int i) { return &c->sh.nodes[i]; }

static Cluster *cluster_new(int nodes) {
    Cluster *c = calloc(1, sizeof *c);
    assert_non_null(c);
    snprintf(c->dir, sizeof c->dir, "/tmp/schach-cluster-XXXXXX");
    assert_non_null(mkdtemp(c->dir));
    snprintf(c->path, sizeof c->path, "%s/games.db", c->dir);
    c->now = T0;
    c->nodes = nodes;
    char err[256];
    if (!shared_open(&c->sh, c->path, nodes, err, sizeof err))
        fail_msg("store: %s", err);
    for (int i = 0; i < nodes; i++) {
        c->svc[i] = service_create(shared_node(&c->sh, i), cl_clock, c, err, sizeof err);
        if (!c->svc[i])
            fail_msg("service: %s", err);
        char name[16];
        snprintf(name, sizeof name, "node%c", 'A' + i);
        service_set_cluster(c->svc[i], name);
    }
    return c;
}

static void cluster_free(Cluster *c) {
    for (int i = 0; i < c->nodes; i++)
        service_free(c->svc[i]);
    shared_close_all(&c->sh);
    char file[160];
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(file, sizeof file, "%s%s", c->path, suffixes[i]);
        unlink(file);
    }
    rmdir(c->dir);
    free(c);
}

static int setup2(void **state) {
    *state = cluster_new(2);
    return 0;
}

static int setup3(void **state) {
    *state = cluster_new(3);
    return 0;
}

static int teardown_cluster(void **state) {
    cluster_free(*state);
    return 0;
}

/* The computer player on every node: synchronous searches (threads 0) of depth 1, so a search and the
 * rules' analyses run inside the service's own calls and hand their results back through a wake-up. */
static void computers_on(Cluster *c) {
    ServiceComputerConfig cfg = {.threads = 0, .hash_mb = 1, .depth = 1};
    char err[256];
    for (int i = 0; i < c->nodes; i++)
        if (!service_computer_start(c->svc[i], &cfg, shared_wake, &c->sh, err, sizeof err))
            fail_msg("computer: %s", err);
}

/* ---- waiting ---- */

static void cl_wait_after(Cluster *c, unsigned seen) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    pthread_mutex_lock(&c->sh.mutex);
    while (c->sh.wakes == seen) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&c->sh.cond, &c->sh.mutex, &ts);
        if (monotonic_seconds() > deadline) {
            pthread_mutex_unlock(&c->sh.mutex);
            fail_msg("the store did not answer within %d s", WAIT_SECONDS);
        }
    }
    pthread_mutex_unlock(&c->sh.mutex);
}

/* Wakes node i until r has its answer (the other nodes are left alone). */
static void cl_settle(Cluster *c, int i, Reply *r) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    while (r->calls == 0) {
        unsigned seen = shared_wakes(&c->sh);
        service_on_wake(c->svc[i]);
        if (r->calls)
            break;
        if (node(c, i)->done_head)
            continue;
        if (monotonic_seconds() > deadline)
            fail_msg("no reply within %d s", WAIT_SECONDS);
        cl_wait_after(c, seen);
    }
}

/* Wakes every node until nothing is in the store and no wake-up is left unanswered (announcements a
 * node holds back stay held). */
static void cl_drain(Cluster *c) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    for (;;) {
        unsigned seen = shared_wakes(&c->sh);
        int pending = 0;
        bool ready = false;
        for (int i = 0; i < c->nodes; i++)
            service_on_wake(c->svc[i]);
        for (int i = 0; i < c->nodes; i++) {
            pending += service_pending_count(c->svc[i]);
            ready |= node(c, i)->done_head != NULL;
            ready |= !node(c, i)->hold_notices && node(c, i)->notice_head != NULL;
        }
        if (monotonic_seconds() > deadline)
            fail_msg("the nodes did not settle within %d s", WAIT_SECONDS);
        if (ready)
            continue;
        if (pending == 0 && shared_wakes(&c->sh) == seen)
            return;
        if (pending > 0)
            cl_wait_after(c, seen);
    }
}

/* Waits until the store has finished an op of node i (taken into the node's list, not handed out). */
static void cl_wait_done(Cluster *c, int i) {
    double deadline = monotonic_seconds() + WAIT_SECONDS;
    for (;;) {
        unsigned seen = shared_wakes(&c->sh);
        shared_collect(&c->sh);
        if (node(c, i)->done_head)
            return;
        if (monotonic_seconds() > deadline)
            fail_msg("node %c: nothing came back within %d s", 'A' + i, WAIT_SECONDS);
        cl_wait_after(c, seen);
    }
}

/* ---- requests ---- */

static uint64_t cl_send(Cluster *c, int i, ServiceAction action, const char *game, const char *body, Reply *r) {
    memset(r, 0, sizeof *r);
    ServiceRequest req = {.action = action, .game = game, .body = body, .lang = SCH_LANG_EN};
    uint64_t ticket = service_handle(c->svc[i], &req, on_reply, r);
    assert_true(ticket != 0);
    return ticket;
}

/* The answer's body as JSON (freed with the reply's text). */
static json_t *reply_json(Reply *r) {
    json_t *j = json_loads(r->body, 0, NULL);
    free(r->body);
    r->body = NULL;
    assert_non_null(j);
    return j;
}

static json_t *cl_request(Cluster *c, int i, ServiceAction action, const char *game, const char *body, int status) {
    Reply r;
    cl_send(c, i, action, game, body, &r);
    cl_settle(c, i, &r);
    assert_int_equal(r.calls, 1);
    if (r.status != status)
        fail_msg("node %c: expected status %d, got %d: %s", 'A' + i, status, r.status, r.body);
    return reply_json(&r);
}

/* A friend game created on node `on` and joined on node `join` (white: the creator). */
static void cl_new_game(Cluster *c, int on, int join, const char *body, Game2 *g) {
    json_t *j = cl_request(c, on, ACTION_CREATE, NULL, body, 201);
    snprintf(g->id, sizeof g->id, "%s", str(j, "id"));
    snprintf(g->secret[0], sizeof g->secret[0], "%s", str(j, "secret"));
    char text[128];
    snprintf(text, sizeof text, "{\"invite\":\"%s\"}", str(j, "invite"));
    json_decref(j);
    j = cl_request(c, join, ACTION_JOIN, g->id, text, 200);
    snprintf(g->secret[1], sizeof g->secret[1], "%s", str(j, "secret"));
    json_decref(j);
}

static void move_body(char *out, size_t size, const Game2 *g, int color, int ply, const char *move) {
    snprintf(out, size, "{\"secret\":\"%s\",\"ply\":%d,\"move\":\"%s\"}", g->secret[color], ply, move);
}

static uint64_t cl_send_move(Cluster *c, int i, const Game2 *g, int ply, const char *move, char *body, size_t size,
                             Reply *r) {
    move_body(body, size, g, ply % 2, ply, move);
    return cl_send(c, i, ACTION_MOVE, g->id, body, r);
}

/* Plays move at ply on node i and checks the answer: 200, no duplicate, the game at ply + 1. */
static void cl_move(Cluster *c, int i, const Game2 *g, int ply, const char *move) {
    char body[256];
    Reply r;
    cl_send_move(c, i, g, ply, move, body, sizeof body, &r);
    cl_settle(c, i, &r);
    if (r.status != 200)
        fail_msg("node %c, ply %d, %s: %d %s", 'A' + i, ply, move, r.status, r.body);
    assert_false(r.duplicate);
    assert_int_equal(r.ply, ply + 1);
    free(r.body);
}

static json_t *cl_action(Cluster *c, int i, const Game2 *g, ServiceAction a, int color, const char *extra, int status) {
    char body[256];
    snprintf(body, sizeof body, "{\"secret\":\"%s\"%s}", g->secret[color], extra ? extra : "");
    return cl_request(c, i, a, g->id, body, status);
}

/* The state node i shows, as text and as JSON. */
static char *cl_state_text(Cluster *c, int i, const char *id) {
    Reply r;
    cl_send(c, i, ACTION_STATE, id, NULL, &r);
    assert_int_equal(r.calls, 1);
    if (r.status != 200)
        fail_msg("node %c: state of %s: %d %s", 'A' + i, id, r.status, r.body);
    return r.body;
}

static json_t *cl_state(Cluster *c, int i, const char *id) {
    char *text = cl_state_text(c, i, id);
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(j);
    return j;
}

static ServiceMetrics metrics(Cluster *c, int i) {
    ServiceMetrics m;
    service_metrics(c->svc[i], &m);
    return m;
}

/* What the database holds for a game (read past every node). */
typedef struct Stored {
    int found;
    GameRecord rec;
    int count;
    char uci[128][8];
} Stored;

static void stored_each(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    Stored *s = ctx;
    s->rec = *record;
    s->count = count;
    for (int i = 0; i < count && i < 128; i++)
        snprintf(s->uci[i], sizeof s->uci[i], "%s", moves[i].uci);
}

static Stored stored(Cluster *c, const char *id) {
    Stored s;
    memset(&s, 0, sizeof s);
    char err[256];
    s.found = store_get(c->sh.inner, id, stored_each, &s, err, sizeof err);
    assert_int_equal(s.found, 1);
    return s;
}

static void hold(Cluster *c, bool on) {
    for (int i = 0; i < c->nodes; i++)
        node(c, i)->hold_notices = on;
}

/* The state every node shows of a game agree (after all announcements were handled). */
static void all_agree(Cluster *c, const char *id) {
    char *first = cl_state_text(c, A, id);
    for (int i = 1; i < c->nodes; i++) {
        char *other = cl_state_text(c, i, id);
        if (strcmp(first, other) != 0)
            fail_msg("node A and node %c disagree:\n%s\n%s", 'A' + i, first, other);
        free(other);
    }
    free(first);
}

/* ---- tests ---- */

/* A capture, en passant, a promotion with capture, castling: every move goes to the node that has not
 * heard of the one before it (announcements held back), and every one is played. */
static const char *const LINE_SAN[] = {"e4",     "d5",   "exd5", "e5",  "dxe6", "Bd6", "exf7+", "Ke7",
                                       "fxg8=Q", "Rxg8", "Nf3",  "Nc6", "Be2",  "Bg4", "O-O"};
static const char *const LINE_UCI[] = {"e2e4",  "d7d5", "e4d5", "e7e5", "d5e6", "f8d6", "e6f7", "e8e7",
                                       "f7g8q", "h8g8", "g1f3", "b8c6", "f1e2", "c8g4", "e1g1"};
#define LINE_LEN ((int)(sizeof LINE_SAN / sizeof LINE_SAN[0]))

static void test_any_node_serves_any_game(void **state) {
    Cluster *c = *state;
    hold(c, true);
    Game2 g;
    /* Created on A, joined on B: A has not heard of the join when White's first move arrives there. */
    cl_new_game(c, A, B, "{}", &g);
    for (int ply = 0; ply < LINE_LEN; ply++)
        cl_move(c, ply % 2 == 0 ? A : B, &g, ply, LINE_SAN[ply]);
    /* A's first move was made on a copy before the join: the store refused it, and it was played
     * once more on the game read again. Every later move named a ply the node had not heard of. */
    assert_int_equal(metrics(c, A).conflicts, 1);
    assert_int_equal(metrics(c, B).conflicts, 0);
    assert_int_equal(metrics(c, A).moves_committed, 8);
    assert_int_equal(metrics(c, B).moves_committed, 7);
    Stored s = stored(c, g.id);
    assert_int_equal(s.count, LINE_LEN);
    for (int i = 0; i < LINE_LEN; i++)
        assert_string_equal(s.uci[i], LINE_UCI[i]);
    hold(c, false);
    cl_drain(c);
    all_agree(c, g.id);
    json_t *j = cl_state(c, B, g.id);
    assert_int_equal(json_integer_value(get(j, "ply")), LINE_LEN);
    assert_string_equal(str(j, "last_move"), "e1g1");
    assert_true(json_is_null(get(j, "outcome")));
    json_decref(j);
}

/* The same with three nodes, in turn, none of which has heard of the last two moves. */
static void test_three_nodes_in_turn(void **state) {
    Cluster *c = *state;
    hold(c, true);
    Game2 g;
    cl_new_game(c, A, C, "{}", &g);
    for (int ply = 0; ply < LINE_LEN; ply++)
        cl_move(c, ply % 3, &g, ply, LINE_SAN[ply]);
    Stored s = stored(c, g.id);
    assert_int_equal(s.count, LINE_LEN);
    hold(c, false);
    cl_drain(c);
    all_agree(c, g.id);
}

/* Two nodes on the same rev get a move for the same ply at once: the store takes one; the same move
 * again is answered as the duplicate it is, another move 409 stale_ply. Nothing forks. */
static void test_same_ply_at_once(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id)); /* B holds it too, at the same rev */

    char body_a[256], body_b[256];
    Reply ra, rb;
    cl_send_move(c, A, &g, 0, "e4", body_a, sizeof body_a, &ra);
    cl_send_move(c, B, &g, 0, "e2e4", body_b, sizeof body_b, &rb);
    assert_int_equal(ra.calls + rb.calls, 0); /* both in the store */
    cl_settle(c, A, &ra);
    cl_settle(c, B, &rb);
    assert_int_equal(ra.calls, 1);
    assert_int_equal(rb.calls, 1);
    assert_int_equal(ra.status, 200);
    assert_int_equal(rb.status, 200);
    assert_int_equal(ra.duplicate + rb.duplicate, 1);
    assert_int_equal(ra.ply, 1);
    assert_int_equal(rb.ply, 1);
    json_t *ja = reply_json(&ra), *jb = reply_json(&rb);
    assert_int_equal(json_integer_value(get(ja, "state.ply")), 1);
    assert_int_equal(json_integer_value(get(jb, "state.ply")), 1);
    assert_true(json_is_true(get(ra.duplicate ? ja : jb, "duplicate")));
    json_decref(ja);
    json_decref(jb);
    assert_int_equal(stored(c, g.id).count, 1);
    assert_int_equal(metrics(c, A).conflicts + metrics(c, B).conflicts, 1);

    /* Two different moves for ply 1. */
    cl_send_move(c, A, &g, 1, "e5", body_a, sizeof body_a, &ra);
    cl_send_move(c, B, &g, 1, "c5", body_b, sizeof body_b, &rb);
    cl_settle(c, A, &ra);
    cl_settle(c, B, &rb);
    assert_int_equal(ra.calls, 1);
    assert_int_equal(rb.calls, 1);
    Reply *won = ra.status == 200 ? &ra : &rb, *lost = ra.status == 200 ? &rb : &ra;
    assert_int_equal(won->status, 200);
    assert_false(won->duplicate);
    assert_int_equal(lost->status, 409);
    expect_error(reply_json(lost), "stale_ply");
    json_decref(reply_json(won));
    Stored s = stored(c, g.id);
    assert_int_equal(s.count, 2);
    assert_string_equal(s.uci[1], won == &ra ? "e7e5" : "c7c5");
    cl_drain(c);
    all_agree(c, g.id);
    json_t *j = cl_state(c, B, g.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    json_decref(j);
}

/* A resignation on B while A's move of the same game is in the store: B's copy is behind when the
 * store answers, so the resignation is handled once more on the game with the move, and stands. */
static void test_resign_while_move_in_flight(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    char body_a[256], body_b[256];
    Reply ra, rb;
    cl_send_move(c, A, &g, 0, "e4", body_a, sizeof body_a, &ra);
    snprintf(body_b, sizeof body_b, "{\"secret\":\"%s\"}", g.secret[1]);
    cl_send(c, B, ACTION_RESIGN, g.id, body_b, &rb);
    cl_settle(c, A, &ra);
    cl_settle(c, B, &rb);
    assert_int_equal(ra.status, 200);
    assert_int_equal(rb.status, 200);
    assert_int_equal(rb.ply, 1);
    json_t *j = reply_json(&rb);
    assert_int_equal(json_integer_value(get(j, "state.ply")), 1);
    assert_string_equal(str(j, "state.outcome.result"), "1-0");
    assert_string_equal(str(j, "state.outcome.termination"), "resignation");
    json_decref(j);
    free(ra.body);
    assert_int_equal(metrics(c, B).conflicts, 1);
    Stored s = stored(c, g.id);
    assert_int_equal(s.count, 1);
    assert_string_equal(s.rec.result, "1-0");
    assert_string_equal(s.rec.termination, "resignation");
    cl_drain(c);
    all_agree(c, g.id);
    expect_error(cl_action(c, A, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 409), "game_over");
}

/* The same with the resignation's body handed over parsed (ServiceRequest.json, as the WebSocket does)
 * and released by the caller at once: the service keeps its own reference to handle it once more. */
static void test_parsed_body_handled_again(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    char body_a[256];
    Reply ra, rb;
    cl_send_move(c, A, &g, 0, "e4", body_a, sizeof body_a, &ra);
    memset(&rb, 0, sizeof rb);
    json_t *body = json_pack("{s:s, s:s}", "secret", g.secret[1], "lang", "de");
    ServiceRequest req = {.action = ACTION_RESIGN, .game = g.id, .json = body, .lang = SCH_LANG_EN};
    assert_true(service_handle(c->svc[B], &req, on_reply, &rb) != 0);
    json_decref(body);
    cl_settle(c, A, &ra);
    cl_settle(c, B, &rb);
    assert_int_equal(ra.status, 200);
    assert_int_equal(rb.status, 200);
    assert_int_equal(rb.ply, 1);
    json_t *j = reply_json(&rb);
    assert_string_equal(str(j, "state.outcome.termination"), "resignation");
    json_decref(j);
    free(ra.body);
    assert_int_equal(metrics(c, B).conflicts, 1);
    cl_drain(c);
    all_agree(c, g.id);
}

/* A watcher on B sees A's move as soon as B handles the announcement, within that wake-up; a game
 * nobody watches on B is only marked, and read again when B next serves it. */
static void test_watchers_and_marks(void **state) {
    Cluster *c = *state;
    Game2 g, h;
    cl_new_game(c, A, A, "{}", &g);
    cl_new_game(c, A, A, "{}", &h);
    Events ev = {0};
    uint64_t sub = service_subscribe(c->svc[B], g.id, on_event, &ev);
    assert_true(sub != 0);
    assert_int_equal(ev.count, 1);
    json_decref(cl_state(c, B, h.id)); /* B holds h, unwatched */
    ServiceMetrics before = metrics(c, B);
    unsigned gets = node(c, B)->gets;

    node(c, B)->hold_notices = true;
    cl_move(c, A, &g, 0, "e4");
    assert_int_equal(ev.count, 1); /* not heard of yet */
    node(c, B)->hold_notices = false;
    service_on_wake(c->svc[B]);
    assert_int_equal(ev.count, 2);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_string_equal(str(msg, "game"), g.id);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 1);
    assert_string_equal(str(msg, "state.last_move"), "e2e4");
    json_decref(msg);
    assert_int_equal(metrics(c, B).refreshes, before.refreshes + 1);
    assert_int_equal(metrics(c, B).notices, before.notices + 1);
    assert_int_equal(node(c, B)->gets, gets + 1);

    /* h: marked only, no read until B serves it. */
    cl_move(c, A, &h, 0, "d4");
    cl_drain(c);
    assert_int_equal(metrics(c, B).notices, before.notices + 2);
    assert_int_equal(metrics(c, B).refreshes, before.refreshes + 1);
    assert_int_equal(node(c, B)->gets, gets + 1);
    assert_int_equal(ev.count, 2);
    json_t *j = cl_state(c, B, h.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 1);
    json_decref(j);
    assert_int_equal(metrics(c, B).refreshes, before.refreshes + 2);
    assert_int_equal(node(c, B)->gets, gets + 2);
    /* Served again: nothing new, nothing read. */
    json_decref(cl_state(c, B, h.id));
    assert_int_equal(node(c, B)->gets, gets + 2);

    /* B's own move of the watched game: the watcher hears it once, B reads nothing. */
    cl_move(c, B, &g, 1, "e5");
    assert_int_equal(ev.count, 3);
    cl_drain(c);
    assert_int_equal(ev.count, 3);
    assert_int_equal(node(c, B)->gets, gets + 2);
    service_unsubscribe(c->svc[B], sub);
    free(ev.last);
}

/* A live game's flag falls while both nodes hold it: both timers try to end it, the rev lets exactly
 * one succeed, and both nodes show the same ending. */
static void test_flag_falls_once(void **state) {
    Cluster *c = *state;
    computers_on(c); /* the 6.9 verdict comes from the (synchronous) workers */
    Game2 g;
    cl_new_game(c, A, A, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0}}", &g);
    cl_move(c, A, &g, 0, "e4");
    cl_move(c, A, &g, 1, "e5");
    json_decref(cl_state(c, B, g.id));
    assert_true(service_next_timer_ms(c->svc[A]) > 0);
    assert_true(service_next_timer_ms(c->svc[B]) > 0);
    ServiceMetrics ma = metrics(c, A), mb = metrics(c, B);
    c->now += 60001;
    assert_int_equal(service_next_timer_ms(c->svc[A]), 0);
    service_on_timer(c->svc[A]);
    service_on_timer(c->svc[B]);
    cl_drain(c);
    ServiceMetrics na = metrics(c, A), nb = metrics(c, B);
    assert_int_equal(na.changes_committed - ma.changes_committed + nb.changes_committed - mb.changes_committed, 1);
    assert_int_equal(na.conflicts - ma.conflicts + nb.conflicts - mb.conflicts, 1);
    assert_int_equal(node(c, A)->conflicts + node(c, B)->conflicts, 1);
    Stored s = stored(c, g.id);
    assert_string_equal(s.rec.result, "0-1");
    assert_string_equal(s.rec.termination, "time_forfeit");
    assert_int_equal(s.count, 2);
    for (int i = A; i <= B; i++) {
        json_t *j = cl_state(c, i, g.id);
        assert_string_equal(str(j, "outcome.result"), "0-1");
        assert_string_equal(str(j, "outcome.termination"), "time_forfeit");
        json_decref(j);
        assert_int_equal(service_next_timer_ms(c->svc[i]), -1);
    }
    /* Later timers change nothing. */
    c->now += 5000;
    service_on_timer(c->svc[A]);
    service_on_timer(c->svc[B]);
    cl_drain(c);
    assert_int_equal(node(c, A)->conflicts + node(c, B)->conflicts, 1);
    all_agree(c, g.id);
}

/* The same when B has not heard of the last move: its timer sees a flag that did not fall on the
 * game the store has (Black's clock runs there), and its attempt is refused. */
static void test_flag_on_stale_copy(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0}}", &g);
    cl_move(c, A, &g, 0, "e4");
    cl_move(c, A, &g, 1, "e5");
    json_decref(cl_state(c, B, g.id));
    node(c, B)->hold_notices = true;
    c->now += 59000;
    cl_move(c, A, &g, 2, "Nf3"); /* White in time, 1 s left */
    c->now += 1500;              /* White's flag would have fallen on B's copy; Black has 59 s */
    service_on_timer(c->svc[B]);
    cl_drain(c);
    Stored s = stored(c, g.id);
    assert_string_equal(s.rec.result, "");
    assert_int_equal(s.count, 3);
    node(c, B)->hold_notices = false;
    cl_drain(c);
    json_t *j = cl_state(c, B, g.id);
    assert_true(json_is_null(get(j, "outcome")));
    assert_int_equal(json_integer_value(get(j, "ply")), 3);
    json_decref(j);
    all_agree(c, g.id);
}

/* After a resync notice (announcements may have been lost) every copy is compared with the store: a
 * watched one that is behind is read and pushed at once, any other one marked. */
static void test_resync(void **state) {
    Cluster *c = *state;
    Game2 g, h, k;
    cl_new_game(c, A, A, "{}", &g);
    cl_new_game(c, A, A, "{}", &h);
    cl_new_game(c, A, A, "{}", &k);
    Events ev = {0};
    service_subscribe(c->svc[B], g.id, on_event, &ev);
    json_decref(cl_state(c, B, h.id));
    json_decref(cl_state(c, B, k.id));
    node(c, B)->hold_notices = true;
    cl_move(c, A, &g, 0, "e4");
    cl_move(c, A, &h, 0, "e4");
    shared_drop_notices(&c->sh, B); /* lost */
    node(c, B)->hold_notices = false;
    ServiceMetrics before = metrics(c, B);
    unsigned gets = node(c, B)->gets, revs = node(c, B)->revs_calls;
    shared_resync(&c->sh, B);
    service_on_wake(c->svc[B]);
    assert_int_equal(node(c, B)->revs_calls, revs + 1);
    assert_int_equal(ev.count, 2);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 1);
    json_decref(msg);
    assert_int_equal(metrics(c, B).refreshes, before.refreshes + 1);
    assert_int_equal(node(c, B)->gets, gets + 1);
    /* h was marked: read when served; k was current: not read. */
    json_t *j = cl_state(c, B, h.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 1);
    json_decref(j);
    assert_int_equal(node(c, B)->gets, gets + 2);
    json_decref(cl_state(c, B, k.id));
    assert_int_equal(node(c, B)->gets, gets + 2);
    assert_int_equal(metrics(c, B).refreshes, before.refreshes + 2);
    free(ev.last);
}

/* The announcement of a move on A has not reached B (held): a read of the state or the PGN on B and a
 * new watcher's first state there show the move all the same, each asking the store for the game's rev
 * once (a page that reconnects after its node went away comes exactly then). A move needs no such read:
 * the store's rev check covers it. */
static void test_reads_catch_up(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id)); /* B holds g at ply 0 */
    node(c, B)->hold_notices = true;
    cl_move(c, A, &g, 0, "e4");
    unsigned revs = node(c, B)->revs_calls;
    json_t *j = cl_state(c, B, g.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 1);
    json_decref(j);
    assert_int_equal(node(c, B)->revs_calls, revs + 1);

    cl_move(c, A, &g, 1, "e5");
    Reply r;
    cl_send(c, B, ACTION_PGN, g.id, NULL, &r);
    cl_settle(c, B, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "1. e4 e5"));
    free(r.body);

    cl_move(c, A, &g, 2, "Nf3");
    Events ev = {0};
    assert_true(service_subscribe(c->svc[B], g.id, on_event, &ev) != 0);
    assert_int_equal(ev.count, 1);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 3);
    assert_string_equal(str(msg, "state.last_move"), "g1f3");
    json_decref(msg);
    assert_int_equal(node(c, B)->revs_calls, revs + 3);

    /* The held announcements come: nothing new for the watcher; B's own move asks for no rev. */
    node(c, B)->hold_notices = false;
    service_on_wake(c->svc[B]);
    assert_int_equal(ev.count, 1);
    cl_move(c, B, &g, 3, "Nc6");
    assert_int_equal(node(c, B)->revs_calls, revs + 3);
    assert_int_equal(ev.count, 2);
    free(ev.last);
}

/* A storage fault in cluster mode whose outcome is unknown (the connection broke during COMMIT): the
 * copy is read again before it is next used. */
static void test_fault_marks_stale(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    node(c, B)->fail_submits = 1;
    node(c, B)->fail_uncertain = true;
    char body[256];
    Reply r;
    cl_send_move(c, B, &g, 0, "e4", body, sizeof body, &r);
    cl_settle(c, B, &r);
    assert_int_equal(r.status, 503);
    expect_error(reply_json(&r), "storage");
    unsigned gets = node(c, B)->gets;
    json_t *j = cl_state(c, B, g.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 0);
    json_decref(j);
    assert_int_equal(node(c, B)->gets, gets + 1);
    json_decref(cl_state(c, B, g.id));
    assert_int_equal(node(c, B)->gets, gets + 1); /* once */
    cl_move(c, B, &g, 0, "e4");
    assert_int_equal(stored(c, g.id).count, 1);
}

/* A fault that surely changed nothing (the database could not be reached): the copy stays in use, so
 * a node whose database is away still serves the games it holds (their states, their watchers) without
 * a read that would fail; the move is refused and can be made again. */
static void test_fault_before_commit_keeps_copy(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    node(c, B)->fail_submits = 1;
    char body[256];
    Reply r;
    cl_send_move(c, B, &g, 0, "e4", body, sizeof body, &r);
    cl_settle(c, B, &r);
    assert_int_equal(r.status, 503);
    expect_error(reply_json(&r), "storage");
    free(r.body);
    unsigned gets = node(c, B)->gets;
    json_t *j = cl_state(c, B, g.id);
    assert_int_equal(json_integer_value(get(j, "ply")), 0);
    json_decref(j);
    assert_int_equal(node(c, B)->gets, gets); /* served from memory */
    cl_move(c, B, &g, 0, "e4");
    assert_int_equal(stored(c, g.id).count, 1);
}

/* The same when the commit did happen (the connection broke during COMMIT): the player's retry of the
 * move is answered as a duplicate from the game read again. */
static void test_fault_after_commit(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    char body[256];
    Reply r;
    cl_send_move(c, B, &g, 0, "e4", body, sizeof body, &r);
    cl_wait_done(c, B); /* committed; reported as a fault instead */
    StoreOp *op = node(c, B)->done_head;
    assert_true(op->ok);
    op->ok = false;
    op->fault = true;
    op->uncertain = true;
    snprintf(op->error, sizeof op->error, "storage: connection lost during COMMIT");
    cl_settle(c, B, &r);
    assert_int_equal(r.status, 503);
    expect_error(reply_json(&r), "storage");
    cl_send_move(c, B, &g, 0, "e4", body, sizeof body, &r);
    cl_settle(c, B, &r);
    assert_int_equal(r.status, 200);
    assert_true(r.duplicate);
    free(r.body);
    assert_int_equal(stored(c, g.id).count, 1);
}

/* A request whose requester went away while its change was refused by the store: the change still
 * happens (service.h), it is handled once more without an answer. */
static void test_cancelled_conflict_still_happens(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    char body_a[256], body_b[256];
    Reply ra, rb;
    cl_send_move(c, A, &g, 0, "e4", body_a, sizeof body_a, &ra);
    snprintf(body_b, sizeof body_b, "{\"secret\":\"%s\"}", g.secret[1]);
    uint64_t ticket = cl_send(c, B, ACTION_RESIGN, g.id, body_b, &rb);
    service_cancel(c->svc[B], ticket);
    cl_settle(c, A, &ra);
    free(ra.body);
    cl_drain(c);
    assert_int_equal(rb.calls, 0);
    Stored s = stored(c, g.id);
    assert_string_equal(s.rec.result, "1-0");
    assert_string_equal(s.rec.termination, "resignation");
    cl_drain(c);
    all_agree(c, g.id);

    /* Cancelled after the refusal, while the change is in the store once more: still no answer. */
    Game2 h;
    cl_new_game(c, A, A, "{}", &h);
    json_decref(cl_state(c, B, h.id));
    cl_send_move(c, A, &h, 0, "e4", body_a, sizeof body_a, &ra);
    snprintf(body_b, sizeof body_b, "{\"secret\":\"%s\"}", h.secret[1]);
    ticket = cl_send(c, B, ACTION_RESIGN, h.id, body_b, &rb);
    cl_wait_done(c, B);
    assert_int_equal(node(c, B)->conflicts, 2);
    service_on_wake(c->svc[B]); /* the refusal: handled once more, in the store again */
    assert_int_equal(rb.calls, 0);
    assert_int_equal(service_pending_count(c->svc[B]), 1);
    service_cancel(c->svc[B], ticket);
    cl_drain(c);
    assert_int_equal(rb.calls, 0);
    assert_string_equal(stored(c, h.id).rec.termination, "resignation");
    free(ra.body);

    /* A change still in the store when the service is freed: taken back and freed with its request. */
    Game2 k;
    cl_new_game(c, A, A, "{}", &k);
    json_decref(cl_state(c, B, k.id));
    cl_send_move(c, A, &k, 0, "e4", body_a, sizeof body_a, &ra);
    cl_send_move(c, B, &k, 0, "d4", body_b, sizeof body_b, &rb);
}

/* A game against the computer on both nodes: the node that holds the lease thinks and moves, once;
 * the other one's claim is refused and it does not think. Once the game moved on, the other node
 * may take the lease. */
static void test_lease_one_thinker(void **state) {
    Cluster *c = *state;
    computers_on(c);
    json_t *j =
        cl_request(c, A, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"club\",\"color\":\"white\"}", 201);
    Game2 g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.secret[0], sizeof g.secret[0], "%s", str(j, "secret"));
    json_decref(j);
    Events ev = {0};
    service_subscribe(c->svc[B], g.id, on_event, &ev); /* B holds it and hears of every change */

    cl_move(c, A, &g, 0, "e4");
    cl_drain(c);
    Stored s = stored(c, g.id);
    assert_int_equal(s.count, 2); /* the computer answered, once */
    assert_int_equal(node(c, A)->claims_ok, 1);
    assert_int_equal(node(c, B)->claims_ok, 0);
    assert_int_equal(node(c, B)->claims_refused, 1);
    assert_int_equal(node(c, B)->submits, 1); /* the claim, nothing else: B did not move */
    assert_int_equal(metrics(c, A).moves_committed, 2);
    assert_int_equal(metrics(c, B).moves_committed, 0);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 2);
    json_decref(msg);

    /* The next move on B: B claims at the new rev, which A's old lease does not cover, and thinks. */
    cl_move(c, B, &g, 2, "d4");
    cl_drain(c);
    s = stored(c, g.id);
    assert_int_equal(s.count, 4);
    assert_int_equal(node(c, B)->claims_ok, 1);
    assert_int_equal(metrics(c, B).moves_committed, 2);
    assert_int_equal(metrics(c, A).moves_committed, 2);
    all_agree(c, g.id);
    free(ev.last);
}

/* The node that took the lease is gone (it never wakes again): the other node asks again every few
 * seconds and takes over once the lease ran out, so the game waits no longer than the lease. */
static void test_lease_expires_when_holder_is_gone(void **state) {
    Cluster *c = *state;
    computers_on(c);
    json_t *j =
        cl_request(c, A, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"club\",\"color\":\"white\"}", 201);
    Game2 g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.secret[0], sizeof g.secret[0], "%s", str(j, "secret"));
    json_decref(j);
    Events ev = {0};
    service_subscribe(c->svc[B], g.id, on_event, &ev);
    cl_move(c, A, &g, 0, "e4"); /* A claims the lease in the same wake-up, and is never woken again */
    cl_wait_done(c, A);         /* A's claim is through */
    assert_int_equal(node(c, A)->claims_ok, 1);
    service_on_wake(c->svc[B]); /* the announcement: B reads the game and claims */
    cl_wait_done(c, B);
    service_on_wake(c->svc[B]);
    assert_int_equal(node(c, B)->claims_refused, 1);
    assert_int_equal(service_next_timer_ms(c->svc[B]), 5000);
    for (int i = 0; i < 2; i++) { /* asked again while A's lease holds: refused */
        c->now += 5000;
        service_on_timer(c->svc[B]);
        cl_wait_done(c, B);
        service_on_wake(c->svc[B]);
        assert_int_equal(node(c, B)->claims_refused, 2 + i);
    }
    c->now += 600000; /* far beyond any search's time plus the slack */
    service_on_timer(c->svc[B]);
    for (int n = 0; n < 100 && stored(c, g.id).count < 2; n++) {
        unsigned seen = shared_wakes(&c->sh);
        service_on_wake(c->svc[B]);
        if (!node(c, B)->done_head && stored(c, g.id).count < 2)
            cl_wait_after(c, seen);
    }
    service_on_wake(c->svc[B]);
    assert_int_equal(node(c, B)->claims_ok, 1);
    assert_int_equal(stored(c, g.id).count, 2);
    assert_int_equal(metrics(c, B).moves_committed, 1);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 2);
    json_decref(msg);
    free(ev.last);
}

/* A watcher on B whose own change is in the store when the announcement of a later change by A
 * arrives: once B's change is back, the watcher gets A's change too. */
static void test_watcher_notice_during_own_change(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    Events ev = {0};
    service_subscribe(c->svc[B], g.id, on_event, &ev);
    char body[256];
    Reply rb;
    /* B's move goes into the store; A plays the answer on top of it before B has seen its own commit. */
    cl_send_move(c, B, &g, 0, "e4", body, sizeof body, &rb);
    node(c, B)->hold_notices = true;
    cl_wait_done(c, B);
    cl_move(c, A, &g, 1, "e5"); /* A reads the game again: the ply is later than its copy */
    /* B hears of A's move while its own is still on its way (its result not taken yet): the store's
     * listener and writer are threads of their own, so the announcement may come first. */
    StoreOp *mine = node(c, B)->done_head;
    node(c, B)->done_head = node(c, B)->done_tail = NULL;
    assert_non_null(mine);
    node(c, B)->hold_notices = false;
    service_on_wake(c->svc[B]);
    assert_int_equal(rb.calls, 0);
    node(c, B)->done_head = node(c, B)->done_tail = mine;
    service_on_wake(c->svc[B]);
    assert_int_equal(rb.calls, 1);
    assert_int_equal(rb.status, 200);
    free(rb.body);
    assert_int_equal(ev.count, 3); /* at subscribing, B's move, A's move */
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 2);
    json_decref(msg);
    free(ev.last);
    cl_drain(c);
    all_agree(c, g.id);
}

/* A draw offered on A is accepted on B, which has not heard of the offer yet; and declined likewise. */
static void test_draw_across_nodes(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    json_decref(cl_state(c, B, g.id));
    node(c, B)->hold_notices = true;
    json_decref(cl_action(c, A, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 200));
    json_t *j = cl_action(c, B, &g, ACTION_DRAW, 1, ",\"action\":\"accept\"", 200);
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "state.outcome.termination"), "agreement");
    json_decref(j);
    node(c, B)->hold_notices = false;
    cl_drain(c);
    all_agree(c, g.id);

    /* Offered on B, which A has not heard of, declined on A; then the game goes on. */
    Game2 h;
    cl_new_game(c, A, A, "{}", &h);
    json_decref(cl_state(c, B, h.id));
    node(c, A)->hold_notices = true;
    json_decref(cl_action(c, B, &h, ACTION_DRAW, 1, ",\"action\":\"offer\"", 200));
    j = cl_action(c, A, &h, ACTION_DRAW, 0, ",\"action\":\"decline\"", 200);
    assert_true(json_is_null(get(j, "state.outcome")));
    assert_true(json_is_null(get(j, "state.draw_offer")));
    json_decref(j);
    cl_move(c, A, &h, 0, "d4");
    node(c, A)->hold_notices = false;
    cl_drain(c);
    all_agree(c, h.id);
}

/* The secret of a side is given out on the node that took the join; another node that has not heard
 * of the join yet still knows that player by it. */
static void test_secret_from_another_node(void **state) {
    Cluster *c = *state;
    hold(c, true);
    Game2 g;
    cl_new_game(c, A, B, "{}", &g);
    cl_move(c, B, &g, 0, "e4");
    cl_move(c, A, &g, 1, "e5"); /* Black's secret: A never heard of the join */
    Game2 h;
    cl_new_game(c, A, B, "{}", &h);
    json_t *j = cl_action(c, A, &h, ACTION_RESIGN, 1, NULL, 200);
    assert_string_equal(str(j, "state.outcome.result"), "1-0");
    json_decref(j);
    /* A secret nobody was given is still refused, also while an invitation is open. */
    json_t *k = cl_request(c, A, ACTION_CREATE, NULL, "{}", 201);
    char body[128];
    snprintf(body, sizeof body, "{\"secret\":\"%s\"}", "nobody-was-given-this-secret-000000000000000");
    expect_error(cl_request(c, B, ACTION_RESIGN, str(k, "id"), body, 403), "bad_secret");
    json_decref(k);
    hold(c, false);
    cl_drain(c);
    all_agree(c, g.id);
    all_agree(c, h.id);
}

/* A threefold repetition completed on A is claimed on B, which has not heard of the last move yet (on
 * its copy it is not even the claimant's turn). */
static void test_claim_across_nodes(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{}", &g);
    static const char *const moves[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"};
    for (int ply = 0; ply < 7; ply++)
        cl_move(c, B, &g, ply, moves[ply]);
    node(c, B)->hold_notices = true;
    cl_move(c, A, &g, 7, moves[7]);
    json_t *j = cl_action(c, B, &g, ACTION_CLAIM, 0, ",\"kind\":\"threefold\"", 200);
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "state.outcome.termination"), "threefold_repetition");
    assert_int_equal(json_integer_value(get(j, "state.ply")), 8);
    json_decref(j);
    /* Without a repetition, the claim is still refused (after one look at the store). */
    Game2 h;
    cl_new_game(c, A, A, "{}", &h);
    unsigned revs = node(c, B)->revs_calls;
    expect_error(cl_action(c, B, &h, ACTION_CLAIM, 0, ",\"kind\":\"threefold\"", 409), "no_claim");
    assert_int_equal(node(c, B)->revs_calls, revs + 1);
    node(c, B)->hold_notices = false;
    cl_drain(c);
    all_agree(c, g.id);
}

/* A live game whose flag fell on B's copy, but not on the game the store has (White moved on A in
 * time): Black's draw offer on B is taken, not answered sch_game_over. */
static void test_request_on_stale_flag(void **state) {
    Cluster *c = *state;
    Game2 g;
    cl_new_game(c, A, A, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0}}", &g);
    cl_move(c, A, &g, 0, "e4");
    cl_move(c, A, &g, 1, "e5");
    json_decref(cl_state(c, B, g.id));
    node(c, B)->hold_notices = true;
    c->now += 59000;
    cl_move(c, A, &g, 2, "Nf3");
    c->now += 1500;
    json_t *j = cl_action(c, B, &g, ACTION_DRAW, 1, ",\"action\":\"offer\"", 200);
    assert_true(json_is_null(get(j, "state.outcome")));
    assert_string_equal(str(j, "state.draw_offer"), "black");
    json_decref(j);
    cl_drain(c);
    Stored s = stored(c, g.id);
    assert_string_equal(s.rec.result, "");
    assert_int_equal(s.rec.draw_offer, 1);
    node(c, B)->hold_notices = false;
    cl_drain(c);
    all_agree(c, g.id);
}

/* A game against the computer ends on A while B waits to ask for the lease again: B's copy, read
 * again and finished, leaves the timers, and may leave memory once nobody watches it. */
static void test_finished_game_leaves_lease_timer(void **state) {
    Cluster *c = *state;
    computers_on(c);
    service_set_cache_max(c->svc[B], 0); /* finished games nothing holds leave B's memory at once */
    json_t *j =
        cl_request(c, A, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"club\",\"color\":\"white\"}", 201);
    Game2 g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.secret[0], sizeof g.secret[0], "%s", str(j, "secret"));
    json_decref(j);
    Events ev = {0};
    uint64_t sub = service_subscribe(c->svc[B], g.id, on_event, &ev);
    cl_move(c, A, &g, 0, "e4"); /* A claims the lease */
    cl_wait_done(c, A);
    service_on_wake(c->svc[B]); /* B reads the move and claims too: refused */
    cl_wait_done(c, B);
    service_on_wake(c->svc[B]);
    assert_int_equal(node(c, B)->claims_refused, 1);
    assert_int_equal(service_next_timer_ms(c->svc[B]), 5000);
    /* The person resigns on A before A's computer moved. */
    json_decref(cl_action(c, A, &g, ACTION_RESIGN, 0, NULL, 200));
    service_on_wake(c->svc[B]);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_string_equal(str(msg, "state.outcome.termination"), "resignation");
    json_decref(msg);
    free(ev.last);
    service_unsubscribe(c->svc[B], sub);
    ServiceStats st;
    service_stats(c->svc[B], &st);
    assert_int_equal(st.games_in_memory, 0);
    assert_int_equal(service_next_timer_ms(c->svc[B]), -1);
    c->now += 10000;
    service_on_timer(c->svc[B]);
    cl_drain(c);
    assert_int_equal(stored(c, g.id).count, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_any_node_serves_any_game, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_three_nodes_in_turn, setup3, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_same_ply_at_once, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_resign_while_move_in_flight, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_parsed_body_handled_again, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_watchers_and_marks, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_flag_falls_once, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_flag_on_stale_copy, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_resync, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_reads_catch_up, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_fault_marks_stale, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_fault_after_commit, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_fault_before_commit_keeps_copy, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_cancelled_conflict_still_happens, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_lease_one_thinker, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_lease_expires_when_holder_is_gone, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_finished_game_leaves_lease_timer, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_watcher_notice_during_own_change, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_draw_across_nodes, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_secret_from_another_node, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_claim_across_nodes, setup2, teardown_cluster),
        cmocka_unit_test_setup_teardown(test_request_on_stale_flag, setup2, teardown_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
