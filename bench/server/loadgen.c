/* schach_loadgen: load generator for `schach serve` (docs/api.md), a benchmark, not a test.
 *
 *   schach_loadgen games [options]   simulated players play many games at once over WebSocket:
 *                                    accepted moves per second and the latency from sending a move
 *                                    to the opponent receiving the new state
 *   schach_loadgen conns [options]   holds many WebSocket connections subscribed to a few games and
 *                                    checks that one move in each game reaches every one of them
 *
 * Everything runs on one libwebsockets event loop (client side): HTTP POST for creating and joining
 * games (the API creates games over HTTP only), WebSocket for subscribing and moving. Game lines come
 * from PGN files (real games) and from random legal games made with libschach from a fixed seed, so
 * every move sent is legal and a run can be repeated.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sysconf */

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "schach/bitboard.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/pgn.h"
#include "schach/schach.h"

#define MAX_PLIES 4000 /* a message id carries generation * ID_STRIDE + ply */
#define ID_STRIDE 4096
#define ID_RESIGN (ID_STRIDE - 1)
#define MAX_CODES 16

/* ------------------------------------------------------------------------------------------------ */
/* Options, clock, statistics */

typedef enum { MODE_GAMES, MODE_CONNS } Mode;

typedef struct Options {
    Mode mode;
    const char *host;
    int port;
    int games;        /* games mode: concurrent games; conns mode: games the watchers subscribe to */
    int spectators;   /* games mode: extra watchers per game */
    double warmup;    /* seconds before measuring */
    double duration;  /* seconds measured */
    int conns;        /* conns mode: connections to hold */
    int pending_max;  /* conns mode: handshakes in flight at once */
    double hold;      /* conns mode: seconds to hold before the broadcast check */
    int random_lines; /* random legal game lines */
    int line_plies;   /* length of a random line */
    unsigned seed;
    int server_pid;     /* for the server's CPU time, 0 when unknown */
    const char *evlib;  /* "uv" or "poll": lws's event loop */
    const char *pgn[8]; /* PGN files with real games */
    int pgn_count;
    double rate;      /* games mode: moves per second offered; 0: as fast as the server answers */
    double min_moves; /* targets */
    double max_p99_ms;
    const char *trace; /* file for one line per latency sample: sent (us since start), latency (us) */
    int sources;       /* conns mode: spread connections over 127.0.0.1 .. 127.0.0.N (each address has
                        * only ~28,000 ephemeral ports towards one server port) */
} Options;

static Options opt = {
    .mode = MODE_GAMES,
    .host = "127.0.0.1",
    .port = 0,
    .games = 500,
    .spectators = 0,
    .warmup = 3,
    .duration = 20,
    .conns = 10000,
    .pending_max = 200,
    .hold = 10,
    .random_lines = 64,
    .line_plies = 80,
    .seed = 20240601,
    .evlib = "uv",
    .min_moves = 5000,
    .max_p99_ms = 20,
    .sources = 1,
};

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

typedef struct Samples {
    uint32_t *v; /* microseconds */
    size_t n, cap;
} Samples;

static void samples_add(Samples *s, int64_t us) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 65536;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) {
            fputs("schach_loadgen: out of memory\n", stderr);
            exit(2);
        }
    }
    s->v[s->n++] = us < 0 ? 0 : (uint32_t)us;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile in milliseconds (samples sorted). */
static double samples_ms(const Samples *s, double pct) {
    if (!s->n)
        return 0;
    size_t k = (size_t)(pct / 100.0 * (double)s->n + 0.999999);
    if (k < 1)
        k = 1;
    if (k > s->n)
        k = s->n;
    return s->v[k - 1] / 1000.0;
}

typedef struct Stats {
    int64_t moves_sent, moves_acked, moves_dup, resigns, games_created, games_finished, states, bytes_in;
    int64_t http_fail, ws_fail, ws_closed;
    struct {
        char code[32];
        int64_t n;
    } errors[MAX_CODES];
    Samples latency;
} Stats;

static Stats stats;
static FILE *trace_file;
static bool measuring;
static bool stopping; /* the run is over: closing connections starts nothing new */

static void stats_error(const char *code) {
    for (int i = 0; i < MAX_CODES; i++) {
        if (!stats.errors[i].code[0])
            snprintf(stats.errors[i].code, sizeof stats.errors[i].code, "%s", code);
        if (!strcmp(stats.errors[i].code, code)) {
            stats.errors[i].n++;
            return;
        }
    }
}

static int64_t errors_total(void) {
    int64_t n = stats.http_fail + stats.ws_fail;
    for (int i = 0; i < MAX_CODES; i++)
        n += stats.errors[i].n;
    return n;
}

/* CPU seconds used so far by this process and by the server (when its pid is known). */
static double cpu_self(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

static double cpu_pid(int pid) {
    if (pid <= 0)
        return 0;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* Fields after the parenthesised command name, which may contain spaces: utime is field 14. */
    char *p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return 0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* ------------------------------------------------------------------------------------------------ */
/* Game lines */

typedef struct Line {
    char (*uci)[6];
    int plies;
    bool over; /* the line ends the game by the rules (mate, stalemate, ...) */
} Line;

static Line *lines;
static int line_count;

static void line_from_game(const SchGame *g) {
    /* The server takes real moves only: a line ends before a null move ("--" in the PGN). */
    int plies = 0;
    while (plies < g->ply_count && g->plies[plies].move != SCH_MOVE_NULL)
        plies++;
    if (plies == 0 || plies > MAX_PLIES)
        return;
    lines = realloc(lines, (size_t)(line_count + 1) * sizeof *lines);
    Line *l = &lines[line_count++];
    l->plies = plies;
    l->uci = malloc((size_t)plies * sizeof *l->uci);
    if (!lines || !l->uci) {
        fputs("schach_loadgen: out of memory\n", stderr);
        exit(2);
    }
    SchPosition walk = g->start;
    for (int i = 0; i < plies; i++) {
        SchUndo undo;
        sch_uci_write(&walk, g->plies[i].move, l->uci[i], sizeof l->uci[i]);
        sch_pos_make(&walk, g->plies[i].move, &undo);
    }
    l->over = sch_game_over(g) && plies == g->ply_count;
}

static bool lines_from_pgn(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "schach_loadgen: %s: %s\n", path, strerror(errno));
        return false;
    }
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    if (!r) {
        fclose(f);
        return false;
    }
    SchPgnGame pg;
    int rc;
    while ((rc = sch_pgn_read_game(r, &pg, &err)) != 0) {
        /* A game read only up to an error is still a legal line; real games from the start only. */
        if (sch_pgn_tag(&pg, "FEN") == NULL)
            line_from_game(&pg.game);
        sch_pgn_game_free(&pg);
    }
    sch_pgn_reader_close(r);
    fclose(f);
    return true;
}

static uint64_t rng_state;

static uint64_t rng_next(void) { /* xorshift64*: a fixed seed gives the same lines every run */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/* Lengths spread evenly over plies/2 .. 3*plies/2 (mean plies): with one length for all, the games
 * started together would also end together, and hundreds of games would be over and created anew in
 * the same 100 ms, again every few seconds: a load no set of human players makes. */
static void lines_random(int count, int plies) {
    rng_state = 0x9E3779B97F4A7C15ULL ^ opt.seed;
    for (int i = 0; i < count; i++) {
        SchGame g;
        sch_game_init(&g);
        int length = plies / 2 + (int)(rng_next() % (uint64_t)(plies + 1));
        for (int p = 0; p < length && !sch_game_over(&g); p++) {
            SchMoveList list;
            sch_gen_legal(sch_game_position(&g), &list);
            if (!sch_game_play(&g, list.moves[rng_next() % (uint64_t)list.count], NULL))
                break;
        }
        line_from_game(&g);
        sch_game_free(&g);
    }
}

/* The server's resident memory in kB (VmRSS), 0 when unknown. */
static long rss_kb_pid(int pid) {
    if (pid <= 0)
        return 0;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

/* ------------------------------------------------------------------------------------------------ */
/* Connections: outgoing message queues, incoming message assembly */

typedef struct OutMsg {
    struct OutMsg *next;
    size_t len;
    bool is_move; /* stamp the send time when it is written */
    unsigned char buf[];
} OutMsg;

typedef enum { KIND_HTTP, KIND_PLAYER, KIND_WATCHER } ConnKind;

typedef struct Slot Slot;

typedef struct Conn {
    ConnKind kind;
    struct lws *wsi;
    bool open;
    OutMsg *out_head, *out_tail;
    char *rx;
    size_t rx_len, rx_cap;
    Slot *slot; /* players and game-mode spectators */
    int color;  /* players: 0 white, 1 black */
    int watch;  /* conns mode: index of the watched game */
    int last_ply;
    bool subscribed, got_broadcast, failed;
} Conn;

typedef struct HttpReq HttpReq;
typedef void (*HttpDone)(HttpReq *req, int status, json_t *body);

struct HttpReq {
    ConnKind kind; /* KIND_HTTP: first member, like Conn's, so the callback can tell them apart */
    struct lws *wsi;
    char path[160];
    char *body;
    size_t body_len;
    char *resp;
    size_t resp_len, resp_cap;
    int status;
    bool done;
    HttpDone cb;
    void *ctx;
};

static struct lws_context *context;
static uv_loop_t uv_loop;
static bool use_uv;

static void buf_append(char **buf, size_t *len, size_t *cap, const void *data, size_t n) {
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1)
            c *= 2;
        char *b = realloc(*buf, c);
        if (!b) {
            fputs("schach_loadgen: out of memory\n", stderr);
            exit(2);
        }
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = '\0';
}

static void conn_send(Conn *c, bool is_move, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    OutMsg *m = malloc(sizeof *m + LWS_PRE + (size_t)n);
    if (!m || n < 0 || (size_t)n >= sizeof text) {
        fputs("schach_loadgen: message too long or out of memory\n", stderr);
        exit(2);
    }
    m->next = NULL;
    m->len = (size_t)n;
    m->is_move = is_move;
    memcpy(m->buf + LWS_PRE, text, (size_t)n);
    if (c->out_tail)
        c->out_tail->next = m;
    else
        c->out_head = m;
    c->out_tail = m;
    if (c->open)
        lws_callback_on_writable(c->wsi);
}

static void conn_drop_queue(Conn *c) {
    while (c->out_head) {
        OutMsg *m = c->out_head;
        c->out_head = m->next;
        free(m);
    }
    c->out_tail = NULL;
}

static Conn *watchers; /* conns mode: the held connections */

/* The loopback source address of connection number n (conns mode), into buf. */
static const char *source_address(int n, char *buf, size_t size) {
    snprintf(buf, size, "127.0.0.%d", 1 + n % opt.sources);
    return buf;
}

static bool conn_connect(Conn *c) {
    struct lws_client_connect_info i;
    char source[32];
    memset(&i, 0, sizeof i);
    if (opt.sources > 1 && c->kind == KIND_WATCHER && !c->slot)
        i.iface = source_address((int)(c - watchers), source, sizeof source);
    i.context = context;
    i.address = opt.host;
    i.port = opt.port;
    i.path = "/ws";
    i.host = opt.host;
    i.origin = opt.host;
    i.protocol = "schach";
    i.local_protocol_name = "schach";
    i.userdata = c;
    i.pwsi = &c->wsi;
    return lws_client_connect_via_info(&i) != NULL;
}

static void http_finish(HttpReq *r);
static void http_free(HttpReq *r);
static HttpReq *http_connecting; /* the request inside lws_client_connect_via_info */

/* Posts body to path on a new connection; cb runs exactly once, with status 0 when it failed. */
static void http_post(const char *path, const char *body, HttpDone cb, void *ctx) {
    HttpReq *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("schach_loadgen: out of memory\n", stderr);
        exit(2);
    }
    r->kind = KIND_HTTP;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->body_len = strlen(body);
    r->body = malloc(LWS_PRE + r->body_len + 1);
    memcpy(r->body + LWS_PRE, body, r->body_len + 1);
    r->cb = cb;
    r->ctx = ctx;
    struct lws_client_connect_info i;
    memset(&i, 0, sizeof i);
    i.context = context;
    i.address = opt.host;
    i.port = opt.port;
    i.path = r->path;
    i.host = opt.host;
    i.origin = opt.host;
    i.method = "POST";
    i.local_protocol_name = "schach";
    i.userdata = r;
    i.pwsi = &r->wsi;
    HttpReq *outer = http_connecting;
    http_connecting = r;
    struct lws *wsi = lws_client_connect_via_info(&i);
    http_connecting = outer;
    if (!wsi) {
        /* lws may or may not have reported CONNECTION_ERROR already; either way the wsi is gone. */
        http_finish(r);
        http_free(r);
    }
}

/* Calls the request's callback once (status 0 when the connection failed) and frees it. */
static void http_finish(HttpReq *r) {
    if (r->done)
        return;
    r->done = true;
    if (stopping)
        return;
    json_t *body = NULL;
    if (r->status && r->resp)
        body = json_loadb(r->resp, r->resp_len, 0, NULL);
    if (!r->status || !body)
        stats.http_fail++;
    r->cb(r, body ? r->status : 0, body);
    json_decref(body);
}

static void http_free(HttpReq *r) {
    free(r->body);
    free(r->resp);
    free(r);
}

/* ------------------------------------------------------------------------------------------------ */
/* Games mode: a slot is one game at a time with its two players (and spectators) */

struct Slot {
    int index;
    Conn player[2];
    Conn *watchers;
    char game[32];
    char secret[2][64];
    const Line *line;
    int gen;         /* games played in this slot; message ids carry it */
    int ready;       /* players that have received the new game's first state */
    int sent_ply;    /* the last ply a move was sent for, -1 before the first */
    int queued_ply;  /* the ply waiting in the pacing queue (only ever one per game) */
    int64_t sent_at; /* when that move was written */
    bool sampled;    /* the opponent's receipt of it was measured */
    bool resign_sent, finishing, creating;
    int64_t last_progress;
};

static Slot *slots;
static int next_line;

static void slot_new_game(Slot *s);

static void slot_join_done(HttpReq *r, int status, json_t *body) {
    Slot *s = r->ctx;
    const char *secret = NULL;
    if (status != 200 || json_unpack(body, "{s:s}", "secret", &secret) != 0) {
        s->creating = false;
        slot_new_game(s);
        return;
    }
    snprintf(s->secret[1], sizeof s->secret[1], "%s", secret);
    s->creating = false;
    s->gen++;
    s->ready = 0;
    s->sent_ply = -1;
    s->queued_ply = -1;
    s->sampled = true;
    s->resign_sent = s->finishing = false;
    s->line = &lines[next_line++ % line_count];
    s->last_progress = now_us();
    s->player[0].last_ply = s->player[1].last_ply = -1;
    if (measuring)
        stats.games_created++;
    for (int p = 0; p < 2; p++)
        conn_send(&s->player[p], false, "{\"type\":\"subscribe\",\"game\":\"%s\"}", s->game);
    for (int w = 0; w < opt.spectators; w++)
        conn_send(&s->watchers[w], false, "{\"type\":\"subscribe\",\"game\":\"%s\"}", s->game);
}

static void slot_create_done(HttpReq *r, int status, json_t *body) {
    Slot *s = r->ctx;
    const char *id = NULL, *secret = NULL, *invite = NULL;
    if (status != 201 || json_unpack(body, "{s:s, s:s, s:s}", "id", &id, "secret", &secret, "invite", &invite) != 0) {
        s->creating = false;
        slot_new_game(s);
        return;
    }
    /* Unsubscribe from the previous game before the new one is known to the players. */
    if (s->game[0]) {
        for (int p = 0; p < 2; p++)
            conn_send(&s->player[p], false, "{\"type\":\"unsubscribe\",\"game\":\"%s\"}", s->game);
        for (int w = 0; w < opt.spectators; w++)
            conn_send(&s->watchers[w], false, "{\"type\":\"unsubscribe\",\"game\":\"%s\"}", s->game);
    }
    snprintf(s->game, sizeof s->game, "%s", id);
    snprintf(s->secret[0], sizeof s->secret[0], "%s", secret);
    char path[160], req[256];
    snprintf(path, sizeof path, "/api/games/%s/join", id);
    snprintf(req, sizeof req, "{\"invite\":\"%s\"}", invite);
    http_post(path, req, slot_join_done, s);
}

static void slot_new_game(Slot *s) {
    if (s->creating || stopping)
        return;
    if (stats.http_fail > 1000) {
        fputs("schach_loadgen: more than 1000 failed HTTP requests; is the server running?\n", stderr);
        exit(1);
    }
    s->creating = true;
    s->finishing = true;
    http_post("/api/games", "{\"mode\":\"friend\",\"color\":\"white\",\"time\":{\"type\":\"none\"}}", slot_create_done,
              s);
}

static void player_send_move(Slot *s, int ply) {
    Conn *c = &s->player[ply % 2];
    if (measuring)
        stats.moves_sent++;
    s->sent_ply = ply;
    s->sampled = false;
    conn_send(c, true, "{\"type\":\"move\",\"game\":\"%s\",\"secret\":\"%s\",\"ply\":%d,\"move\":\"%s\",\"id\":%d}",
              s->game, s->secret[ply % 2], ply, s->line->uci[ply], s->gen * ID_STRIDE + ply);
}

/* Pacing. Without --rate the players answer at once (a closed loop: the most moves per second the
 * server manages, and latency = games / rate by Little's law). With --rate R the moves the players
 * want to make wait in one queue that releases R per second, evenly: the latency of a server under a
 * known load. The time in the queue is the players' thinking time, not latency. */
typedef struct Ready {
    Slot *slot;
    int gen, ply;
} Ready;

static Ready *ready_queue;
static int ready_head, ready_count;
static int64_t pace_start, pace_released;

static void player_want_move(Slot *s, int ply) {
    if (opt.rate <= 0) {
        player_send_move(s, ply);
        return;
    }
    if (s->queued_ply == ply)
        return;
    s->queued_ply = ply;
    ready_queue[(ready_head + ready_count++) % opt.games] = (Ready){s, s->gen, ply};
}

static void on_pace(void) {
    int64_t allowed = (now_us() - pace_start) * (int64_t)opt.rate / 1000000;
    if (ready_count == 0 && pace_released < allowed)
        pace_released = allowed; /* nobody was ready: no credit for a burst later */
    while (ready_count > 0 && pace_released < allowed) {
        Ready r = ready_queue[ready_head];
        ready_head = (ready_head + 1) % opt.games;
        ready_count--;
        if (r.gen == r.slot->gen && r.slot->sent_ply == r.ply - 1) {
            player_send_move(r.slot, r.ply);
            pace_released++;
        }
    }
}

/* A state of the slot's current game reached player c (or a spectator when c->kind says so). */
static void slot_on_state(Slot *s, Conn *c, int ply, bool over, int64_t t) {
    if (c->kind == KIND_PLAYER && ply == 0 && c->last_ply < 0) {
        c->last_ply = 0;
        if (++s->ready == 2 && s->sent_ply < 0)
            player_want_move(s, 0);
        return;
    }
    c->last_ply = ply;
    if (c->kind != KIND_PLAYER)
        return;
    /* The opponent of the mover measures: the move of ply-1 arrived. */
    if (ply == s->sent_ply + 1 && !s->sampled && (ply - 1) % 2 != c->color) {
        s->sampled = true;
        s->last_progress = t;
        if (measuring) {
            samples_add(&stats.latency, t - s->sent_at);
            if (trace_file)
                fprintf(trace_file, "%lld %lld\n", (long long)s->sent_at, (long long)(t - s->sent_at));
        }
    }
    if (over) {
        if (!s->finishing) {
            if (measuring)
                stats.games_finished++;
            slot_new_game(s);
        }
        return;
    }
    if (ply % 2 != c->color || ply != s->sent_ply + 1 || s->ready < 2)
        return;
    if (ply >= s->line->plies) {
        if (!s->resign_sent) {
            s->resign_sent = true;
            conn_send(c, false, "{\"type\":\"resign\",\"game\":\"%s\",\"secret\":\"%s\",\"id\":%d}", s->game,
                      s->secret[c->color], s->gen * ID_STRIDE + ID_RESIGN);
        }
        return;
    }
    player_want_move(s, ply);
}

static void slot_on_reply(Slot *s, const char *type, json_t *msg) {
    json_int_t id = -1;
    json_unpack(msg, "{s?I}", "id", &id);
    if (id < 0 || id / ID_STRIDE != s->gen)
        return; /* about an earlier game of this slot */
    if (!strcmp(type, "ack")) {
        int dup = 0;
        json_unpack(msg, "{s?b}", "duplicate", &dup);
        if (measuring) {
            if (id % ID_STRIDE == ID_RESIGN)
                stats.resigns++;
            else if (dup)
                stats.moves_dup++;
            else
                stats.moves_acked++;
        }
        return;
    }
    const char *code = "unknown";
    json_unpack(msg, "{s:{s:s}}", "error", "code", &code);
    stats_error(code);
    static int shown;
    if (shown++ < 5)
        fprintf(stderr, "schach_loadgen: game %s: error %s (message id %" JSON_INTEGER_FORMAT ")\n", s->game, code, id);
    /* Start over with a fresh game rather than guessing what the server thinks. */
    if (!s->finishing)
        slot_new_game(s);
}

/* ------------------------------------------------------------------------------------------------ */
/* Conns mode */

typedef struct Watched {
    char game[32];
    char secret[64];
    bool ready;
    int64_t moved_at;
} Watched;

static Watched *watched;
static int conns_started, conns_pending, conns_open, conns_subscribed, conns_broadcast, conns_failed;
static Samples fanout;

static void watcher_start_more(void) {
    while (conns_started < opt.conns && conns_pending < opt.pending_max) {
        Conn *c = &watchers[conns_started++];
        conns_pending++;
        if (!conn_connect(c) && !c->failed) {
            c->failed = true; /* lws gave up before reporting CONNECTION_ERROR */
            conns_pending--;
            conns_failed++;
            stats.ws_fail++;
        }
    }
}

static void watched_create_done(HttpReq *r, int status, json_t *body);

static void watched_join_done(HttpReq *r, int status, json_t *body) {
    (void)body;
    Watched *w = r->ctx;
    if (status == 200)
        w->ready = true;
    else
        fprintf(stderr, "schach_loadgen: joining game %s failed (HTTP %d)\n", w->game, status);
}

static void watched_create_done(HttpReq *r, int status, json_t *body) {
    Watched *w = r->ctx;
    const char *id, *secret, *invite;
    if (status != 201 || json_unpack(body, "{s:s, s:s, s:s}", "id", &id, "secret", &secret, "invite", &invite) != 0) {
        fprintf(stderr, "schach_loadgen: creating a game failed (HTTP %d)\n", status);
        return;
    }
    snprintf(w->game, sizeof w->game, "%s", id);
    snprintf(w->secret, sizeof w->secret, "%s", secret);
    char path[160], req[256];
    snprintf(path, sizeof path, "/api/games/%s/join", id);
    snprintf(req, sizeof req, "{\"invite\":\"%s\"}", invite);
    http_post(path, req, watched_join_done, w);
}

static void watched_move_done(HttpReq *r, int status, json_t *body) {
    (void)body;
    Watched *w = r->ctx;
    if (status != 200)
        fprintf(stderr, "schach_loadgen: the move in game %s failed (HTTP %d)\n", w->game, status);
}

static void watcher_on_state(Conn *c, int ply, int64_t t) {
    if (ply == 0 && !c->subscribed) {
        c->subscribed = true;
        conns_subscribed++;
    } else if (ply == 1 && !c->got_broadcast) {
        c->got_broadcast = true;
        conns_broadcast++;
        samples_add(&fanout, t - watched[c->watch].moved_at);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* The one callback for every connection */

/* Reading state messages.
 *
 * Parsing every state with jansson cost the load generator about two thirds of its CPU (measured with
 * perf: 65% in jansson and malloc at 7,000 moves/s), CPU the server then lacks on a shared machine.
 * A state message needs only its game, ply and whether outcome is null, and in the schema of
 * docs/api.md the members "game", "ply" and "outcome" occur exactly once in a state message and no
 * string value can contain a quote, so finding them is exact. To keep that claim honest, every
 * VERIFY_EVERY-th state is also parsed with jansson and the run stops on any disagreement. */
#define VERIFY_EVERY 64

typedef struct StateInfo {
    char game[32];
    int ply;
    bool over;
} StateInfo;

static const char *mem_find(const char *p, const char *end, const char *needle, size_t n) {
    for (; p + n <= end; p++) {
        p = memchr(p, needle[0], (size_t)(end - p));
        if (!p || p + n > end)
            return NULL;
        if (!memcmp(p, needle, n))
            return p;
    }
    return NULL;
}

/* The start of the value of the next member named key (with its quotes) from p on; NULL if none. */
static const char *scan_member(const char *p, const char *end, const char *key) {
    size_t n = strlen(key);
    while ((p = mem_find(p, end, key, n)) != NULL) {
        const char *v = p + n;
        while (v < end && (*v == ' ' || *v == '\n'))
            v++;
        if (v < end && *v == ':') {
            for (v++; v < end && (*v == ' ' || *v == '\n'); v++)
                ;
            return v;
        }
        p += n;
    }
    return NULL;
}

static bool value_is(const char *v, const char *end, const char *text) {
    size_t n = strlen(text);
    return v && (size_t)(end - v) >= n && !memcmp(v, text, n);
}

/* true when text is a state message; fills *st. */
static bool scan_state(const char *text, size_t len, StateInfo *st) {
    const char *end = text + len, *v = text;
    bool is_state = false;
    while (!is_state && (v = scan_member(v, end, "\"type\"")) != NULL)
        is_state = value_is(v, end, "\"state\"");
    if (!is_state)
        return false;
    const char *g = scan_member(text, end, "\"game\""), *p = scan_member(text, end, "\"ply\""),
               *o = scan_member(text, end, "\"outcome\"");
    if (!g || *g != '"' || !p || !o)
        return false;
    size_t i = 0;
    for (g++; g < end && *g != '"' && i + 1 < sizeof st->game; g++)
        st->game[i++] = *g;
    st->game[i] = '\0';
    st->ply = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++)
        st->ply = st->ply * 10 + (*p - '0');
    st->over = !value_is(o, end, "null");
    return true;
}

static void verify_state(const char *text, size_t len, const StateInfo *st) {
    json_t *msg = json_loadb(text, len, 0, NULL), *outcome = NULL;
    const char *type = NULL, *game = NULL;
    int ply = -1;
    if (!msg ||
        json_unpack(msg, "{s:s, s:s, s:{s:i, s:o}}", "type", &type, "game", &game, "state", "ply", &ply, "outcome",
                    &outcome) != 0 ||
        strcmp(type, "state") || strcmp(game, st->game) || ply != st->ply || json_is_null(outcome) == st->over) {
        fprintf(stderr, "schach_loadgen: a state message was misread (game %s ply %d over %d): %.300s\n", st->game,
                st->ply, st->over, text);
        exit(2);
    }
    json_decref(msg);
}

static void on_message(Conn *c, const char *text, size_t len) {
    int64_t t = now_us();
    static unsigned state_count;
    if (measuring)
        stats.bytes_in += (int64_t)len;
    StateInfo st;
    if (scan_state(text, len, &st)) {
        if (++state_count % VERIFY_EVERY == 0)
            verify_state(text, len, &st);
        if (measuring)
            stats.states++;
        if (c->kind == KIND_WATCHER && !c->slot)
            watcher_on_state(c, st.ply, t);
        else if (!strcmp(st.game, c->slot->game))
            slot_on_state(c->slot, c, st.ply, st.over, t);
        return;
    }
    /* Everything else is small: jansson reads it. */
    json_t *msg = json_loadb(text, len, 0, NULL);
    const char *type = NULL;
    if (!msg || json_unpack(msg, "{s:s}", "type", &type) != 0) {
        fprintf(stderr, "schach_loadgen: unreadable message: %.200s\n", text);
        json_decref(msg);
        return;
    }
    if ((!strcmp(type, "ack") || !strcmp(type, "error")) && c->kind == KIND_PLAYER) {
        slot_on_reply(c->slot, type, msg);
    } else if (!strcmp(type, "error")) {
        const char *code = "unknown";
        json_unpack(msg, "{s:{s:s}}", "error", "code", &code);
        stats_error(code);
    } else if (!strcmp(type, "state")) {
        fprintf(stderr, "schach_loadgen: a state message without game, ply or outcome: %.200s\n", text);
    }
    json_decref(msg);
}

static int on_http(struct lws *wsi, enum lws_callback_reasons reason, HttpReq *r, void *in, size_t len) {
    switch (reason) {
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: {
            unsigned char **p = (unsigned char **)in, *end = (*p) + len;
            if (lws_add_http_header_content_length(wsi, r->body_len, p, end) ||
                lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
                                             (const unsigned char *)"application/json", 16, p, end))
                return -1;
            lws_client_http_body_pending(wsi, 1);
            lws_callback_on_writable(wsi);
            return 0;
        }
        case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
            if (lws_write(wsi, (unsigned char *)r->body + LWS_PRE, r->body_len, LWS_WRITE_HTTP_FINAL) < 0)
                return -1;
            lws_client_http_body_pending(wsi, 0);
            return 0;
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP: r->status = (int)lws_http_client_http_response(wsi); return 0;
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ: buf_append(&r->resp, &r->resp_len, &r->resp_cap, in, len); return 0;
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
            char buffer[4096 + LWS_PRE];
            char *px = buffer + LWS_PRE;
            int lenx = (int)sizeof buffer - LWS_PRE;
            if (lws_http_client_read(wsi, &px, &lenx) < 0)
                return -1;
            return 0;
        }
        case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
            http_finish(r);
            return -1; /* one request per connection: close it now */
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            if (!r->done) {
                static int shown;
                if (!stopping && shown++ < 5)
                    fprintf(stderr, "schach_loadgen: POST %s: %s\n", r->path,
                            in ? (const char *)in : "connection error");
                r->status = 0;
                http_finish(r);
            }
            return 0;
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
            if (!r->done) {
                r->status = 0;
                http_finish(r);
            }
            return 0;
        case LWS_CALLBACK_WSI_DESTROY:
            /* The last callback of every wsi. Inside lws_client_connect_via_info, http_post frees it. */
            if (!r->done) {
                r->status = 0;
                http_finish(r);
            }
            if (r != http_connecting)
                http_free(r);
            return 0;
        default: return 0;
    }
}

static int on_ws(struct lws *wsi, enum lws_callback_reasons reason, Conn *c, void *in, size_t len) {
    switch (reason) {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            c->open = true;
            if (c->kind == KIND_WATCHER && !c->slot) {
                conns_pending--;
                conns_open++;
                conn_send(c, false, "{\"type\":\"subscribe\",\"game\":\"%s\"}", watched[c->watch].game);
            }
            if (c->out_head)
                lws_callback_on_writable(wsi);
            return 0;
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            stats.ws_fail++;
            {
                static int shown;
                if (!stopping && shown++ < 5)
                    fprintf(stderr, "schach_loadgen: WebSocket: %s\n", in ? (const char *)in : "connection error");
            }
            c->wsi = NULL;
            c->failed = true;
            if (c->kind == KIND_WATCHER && !c->slot) {
                conns_pending--;
                conns_failed++;
            }
            return 0;
        case LWS_CALLBACK_CLIENT_CLOSED:
            if (c->open)
                stats.ws_closed++;
            if (c->kind == KIND_WATCHER && !c->slot && c->open)
                conns_open--;
            c->open = false;
            c->wsi = NULL;
            conn_drop_queue(c);
            return 0;
        case LWS_CALLBACK_CLIENT_RECEIVE: {
            bool whole = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
            if (whole && c->rx_len == 0) {
                on_message(c, in, len); /* the usual case: the message came in one piece */
                return 0;
            }
            buf_append(&c->rx, &c->rx_len, &c->rx_cap, in, len);
            if (whole) {
                on_message(c, c->rx, c->rx_len);
                c->rx_len = 0;
            }
            return 0;
        }
        case LWS_CALLBACK_CLIENT_WRITEABLE: {
            OutMsg *m = c->out_head;
            if (!m)
                return 0;
            c->out_head = m->next;
            if (!c->out_head)
                c->out_tail = NULL;
            if (m->is_move)
                c->slot->sent_at = now_us();
            int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
            free(m);
            if (n < 0)
                return -1;
            if (c->out_head)
                lws_callback_on_writable(wsi);
            return 0;
        }
        default: return 0;
    }
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    if (!user)
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    if (*(ConnKind *)user == KIND_HTTP)
        return on_http(wsi, reason, user, in, len);
    return on_ws(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"schach", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ------------------------------------------------------------------------------------------------ */
/* Main */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
    if (context)
        lws_cancel_service(context);
}

/* Repeating timers. Under libuv they are uv timers: lws's own timers round the remaining time down
 * to whole milliseconds for uv, so the loop spins through the last millisecond of each (perf: a
 * quarter of the load generator's CPU in clock_gettime with a 1 ms pacing timer). */
typedef struct Timer {
    uv_timer_t uv;
    lws_sorted_usec_list_t sul;
    void (*fn)(void);
    int ms;
} Timer;

static Timer tick_timer, pace_timer;

static void timer_uv_fired(uv_timer_t *t) { ((Timer *)t)->fn(); }

static void timer_sul_fired(lws_sorted_usec_list_t *sul) {
    Timer *t = lws_container_of(sul, Timer, sul);
    t->fn();
    lws_sul_schedule(context, 0, &t->sul, timer_sul_fired, (lws_usec_t)t->ms * LWS_US_PER_MS);
}

static void timer_every(Timer *t, int ms, void (*fn)(void)) {
    t->fn = fn;
    t->ms = ms;
    if (use_uv) {
        uv_timer_init(&uv_loop, &t->uv);
        uv_timer_start(&t->uv, timer_uv_fired, (uint64_t)ms, (uint64_t)ms);
    } else {
        lws_sul_schedule(context, 0, &t->sul, timer_sul_fired, (lws_usec_t)ms * LWS_US_PER_MS);
    }
}

static void on_tick(void) { /* wakes the loop so that serve_for sees its deadline */
}

static void raise_fd_limit(int need) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    if ((long long)rl.rlim_max < need)
        fprintf(stderr, "schach_loadgen: the open-files limit (%llu) is below the %d connections needed\n",
                (unsigned long long)rl.rlim_max, need);
}

static void serve_for(double seconds, bool (*until)(void)) {
    int64_t end = now_us() + (int64_t)(seconds * 1e6);
    while (!interrupted && now_us() < end && !(until && until())) {
        if (use_uv)
            uv_run(&uv_loop, UV_RUN_ONCE); /* the 50 ms tick makes sure it returns */
        else
            lws_service(context, 0);
    }
}

static const char *pass(bool ok) { return ok ? "PASS" : "FAIL"; }

static int run_games(void) {
    slots = calloc((size_t)opt.games, sizeof *slots);
    ready_queue = calloc((size_t)opt.games, sizeof *ready_queue);
    for (int i = 0; i < opt.games; i++) {
        Slot *s = &slots[i];
        s->index = i;
        s->sent_ply = s->queued_ply = -1;
        for (int p = 0; p < 2; p++) {
            s->player[p] = (Conn){.kind = KIND_PLAYER, .slot = s, .color = p, .last_ply = -1};
            conn_connect(&s->player[p]);
        }
        s->watchers = calloc((size_t)opt.spectators + 1, sizeof *s->watchers);
        for (int w = 0; w < opt.spectators; w++) {
            s->watchers[w] = (Conn){.kind = KIND_WATCHER, .slot = s, .last_ply = -1};
            conn_connect(&s->watchers[w]);
        }
        slot_new_game(s);
    }
    if (opt.rate > 0) {
        pace_start = now_us();
        timer_every(&pace_timer, 1, on_pace);
    }
    long plies = 0;
    for (int i = 0; i < line_count; i++)
        plies += lines[i].plies;
    int nconn = opt.games * (2 + opt.spectators);
    char load[64];
    if (opt.rate > 0)
        snprintf(load, sizeof load, "%.0f moves/s offered", opt.rate);
    else
        snprintf(load, sizeof load, "closed loop, no thinking time");
    printf("games mode: %d games (%s), %d WebSocket connections, %d lines (%d plies on average); warm-up %.0f s, "
           "measuring %.0f s\n",
           opt.games, load, nconn, line_count, (int)(plies / line_count), opt.warmup, opt.duration);
    serve_for(opt.warmup, NULL);
    measuring = true;
    /* The window starts now: bench/cluster.sh reads the nodes' counters when it sees this line and
     * again at "measured". */
    printf("measuring %.0f s\n", opt.duration);
    double cpu0 = cpu_self(), srv0 = cpu_pid(opt.server_pid);
    int64_t t0 = now_us();
    serve_for(opt.duration, NULL);
    int64_t t1 = now_us();
    measuring = false;
    double secs = (double)(t1 - t0) / 1e6;
    double cpu_lg = (cpu_self() - cpu0) / secs * 100, cpu_srv = (cpu_pid(opt.server_pid) - srv0) / secs * 100;

    int stalled = 0;
    for (int i = 0; i < opt.games; i++)
        if (t1 - slots[i].last_progress > 5000000)
            stalled++;
    qsort(stats.latency.v, stats.latency.n, sizeof *stats.latency.v, cmp_u32);
    double rate = (double)stats.moves_acked / secs;
    double p50 = samples_ms(&stats.latency, 50), p90 = samples_ms(&stats.latency, 90),
           p99 = samples_ms(&stats.latency, 99), pmax = samples_ms(&stats.latency, 100);
    /* Closed loop: the rate is the figure. Paced: the server must keep up (99% of the offered load
     * acknowledged: games that end and start again lose a little) and answer fast. */
    bool ok_rate = opt.rate > 0 ? rate >= 0.99 * opt.rate && rate >= opt.min_moves * 0.99 : rate >= opt.min_moves;
    bool ok_p99 = stats.latency.n > 0 && p99 <= opt.max_p99_ms;

    printf("measured %.1f s: %" PRId64 " moves sent, %" PRId64 " acknowledged (%.0f/s), %" PRId64
           " duplicates; %" PRId64 " games started, %" PRId64 " finished (%" PRId64
           " of them resigned at the end of their line)\n",
           secs, stats.moves_sent, stats.moves_acked, rate, stats.moves_dup, stats.games_created, stats.games_finished,
           stats.resigns);
    printf("latency move sent -> opponent has the state (%zu samples): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, "
           "max %.2f ms\n",
           stats.latency.n, p50, p90, p99, pmax);
    printf("received %" PRId64 " state messages (%.1f MB/s)\n", stats.states, (double)stats.bytes_in / secs / 1e6);
    printf("errors during the whole run: %" PRId64 " (HTTP failures %" PRId64 ", WebSocket connect failures %" PRId64
           ", connections closed %" PRId64,
           errors_total(), stats.http_fail, stats.ws_fail, stats.ws_closed);
    for (int i = 0; i < MAX_CODES && stats.errors[i].code[0]; i++)
        printf(", %s %" PRId64, stats.errors[i].code, stats.errors[i].n);
    printf("); games without progress for 5 s at the end: %d\n", stalled);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (opt.server_pid)
        printf("CPU (of one core): server %.0f%%, load generator %.0f%% -- both share this machine's %ld cores\n",
               cpu_srv, cpu_lg, cores);
    else
        printf("CPU (of one core): load generator %.0f%% -- it shares this machine's %ld cores with the server\n",
               cpu_lg, cores);
    if (opt.rate > 0)
        printf("target: the offered %.0f moves/s acknowledged: %s; p99 <= %.0f ms: %s\n", opt.rate, pass(ok_rate),
               opt.max_p99_ms, pass(ok_p99));
    else
        printf("target: >= %.0f moves/s: %s (latency in a closed loop is games / rate; see the paced run)\n",
               opt.min_moves, pass(ok_rate));

    char cpu[64] = "";
    if (opt.server_pid)
        snprintf(cpu, sizeof cpu, "; CPU server %.0f%%, load generator %.0f%%", cpu_srv, cpu_lg);
    if (opt.rate > 0) {
        printf("| Moves at %.0f/s offered (%d games, %d connections%s) | %.0f/s acknowledged | %.0f/s | %s |\n",
               opt.rate, opt.games, nconn, cpu, rate, opt.rate, pass(ok_rate));
        printf(
            "| Latency at %.0f moves/s, p50 / p90 / p99 / max | %.2f / %.2f / %.2f / %.2f ms | p99 <= %.0f ms | %s |\n",
            opt.rate, p50, p90, p99, pmax, opt.max_p99_ms, pass(ok_p99));
        return ok_rate && ok_p99 && errors_total() == 0 ? 0 : 1;
    }
    printf("| Most durable moves per second (%d games, no thinking time%s) | %.0f/s (p50 %.1f ms) | >= %.0f/s | %s |\n",
           opt.games, cpu, rate, p50, opt.min_moves, pass(ok_rate));
    return ok_rate && errors_total() == 0 ? 0 : 1;
}

static bool all_watched_ready(void) {
    for (int i = 0; i < opt.games; i++)
        if (!watched[i].ready)
            return false;
    return true;
}

static bool all_opened(void) {
    watcher_start_more();
    return conns_started == opt.conns && conns_pending == 0 && conns_subscribed >= conns_open;
}

static bool all_broadcast(void) { return conns_broadcast >= conns_subscribed; }

static int run_conns(void) {
    watched = calloc((size_t)opt.games, sizeof *watched);
    watchers = calloc((size_t)opt.conns, sizeof *watchers);
    for (int i = 0; i < opt.games; i++)
        http_post("/api/games", "{\"mode\":\"friend\",\"color\":\"white\",\"time\":{\"type\":\"none\"}}",
                  watched_create_done, &watched[i]);
    serve_for(30, all_watched_ready);
    if (!all_watched_ready()) {
        fputs("schach_loadgen: could not create the games to watch\n", stderr);
        return 2;
    }
    for (int i = 0; i < opt.conns; i++)
        watchers[i] = (Conn){.kind = KIND_WATCHER, .watch = i % opt.games, .last_ply = -1};
    printf("conns mode: %d WebSocket connections over %d games from %d source address(es), at most %d "
           "handshakes at a time\n",
           opt.conns, opt.games, opt.sources, opt.pending_max);
    long rss_before = rss_kb_pid(opt.server_pid);
    int64_t t0 = now_us();
    serve_for(300, all_opened);
    double open_s = (double)(now_us() - t0) / 1e6;
    printf("opened %d and subscribed %d of %d connections in %.2f s (%d failed)\n", conns_open, conns_subscribed,
           opt.conns, open_s, conns_failed);

    serve_for(opt.hold, NULL);
    int held = conns_open;
    long rss_held = rss_kb_pid(opt.server_pid);
    printf("after holding them %.0f s: %d open, %" PRId64 " closed\n", opt.hold, held, stats.ws_closed);
    if (rss_held > 0)
        printf("server memory (VmRSS): %.1f MB before, %.1f MB holding them (%.1f kB per connection)\n",
               rss_before / 1024.0, rss_held / 1024.0, held > 0 ? (double)(rss_held - rss_before) / held : 0.0);

    /* One move in each game must reach every subscriber. */
    for (int i = 0; i < opt.games; i++) {
        char path[160], body[256];
        snprintf(path, sizeof path, "/api/games/%s/move", watched[i].game);
        snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":0,\"move\":\"e2e4\"}", watched[i].secret);
        watched[i].moved_at = now_us();
        http_post(path, body, watched_move_done, &watched[i]);
    }
    int64_t tb = now_us();
    serve_for(60, all_broadcast);
    double bc_s = (double)(now_us() - tb) / 1e6;
    qsort(fanout.v, fanout.n, sizeof *fanout.v, cmp_u32);
    bool ok = conns_broadcast == opt.conns && held == opt.conns;
    printf("the move in each game reached %d of %d connections in %.2f s (fan-out latency p50 %.1f ms, p99 %.1f ms, "
           "max %.1f ms)\n",
           conns_broadcast, opt.conns, bc_s, samples_ms(&fanout, 50), samples_ms(&fanout, 99),
           samples_ms(&fanout, 100));
    printf("target: %d concurrent WebSocket connections held and reached: %s\n", opt.conns, pass(ok));
    printf("| Concurrent WebSocket connections held (opened in %.1f s) | %d | %d | %s |\n", open_s, held, opt.conns,
           pass(held == opt.conns));
    if (rss_held > 0)
        printf("| Server memory with %d idle WebSockets (VmRSS) | %.0f MB (%.0f MB before; %.1f kB each) | - | |\n",
               held, rss_held / 1024.0, rss_before / 1024.0, held > 0 ? (double)(rss_held - rss_before) / held : 0.0);
    printf("| One move reaches all %d subscribers (%d games): p50 / p99 / max | %.0f / %.0f / %.0f ms | all reached | "
           "%s |\n",
           opt.conns, opt.games, samples_ms(&fanout, 50), samples_ms(&fanout, 99), samples_ms(&fanout, 100),
           pass(conns_broadcast == opt.conns));
    return ok ? 0 : 1;
}

static void usage(FILE *out) {
    fputs("Usage: schach_loadgen games|conns --port PORT [options]\n"
          "  --host ADDR        server address (127.0.0.1)\n"
          "  --games N          games mode: concurrent games (500); conns mode: games to watch (10)\n"
          "  --spectators N     games mode: extra watchers per game (0)\n"
          "  --warmup S         games mode: seconds before measuring (3)\n"
          "  --duration S       games mode: seconds measured (20)\n"
          "  --rate R           games mode: offer R moves per second in all (default 0: every player\n"
          "                     answers at once, a closed loop that finds the most moves per second)\n"
          "  --conns N          conns mode: connections to hold (10000)\n"
          "  --pending N        conns mode: handshakes in flight at once (200)\n"
          "  --hold S           conns mode: seconds to hold them (10)\n"
          "  --sources N        conns mode: connect from 127.0.0.1 .. 127.0.0.N (1)\n"
          "  --pgn FILE         real games to replay (repeatable)\n"
          "  --random N         random legal lines to add (64), --plies N their mean length (80), --seed N\n"
          "  --evlib uv|poll    the load generator's event loop under lws (uv: libuv, epoll)\n"
          "  --server-pid PID   report the server's CPU use\n"
          "  --trace FILE       games mode: write each latency sample (sent at, latency; microseconds)\n"
          "  --min-moves N      target moves per second (5000), --max-p99 MS target p99 (20)\n",
          out);
}

static bool parse_args(int argc, char **argv) {
    if (argc < 2)
        return false;
    if (!strcmp(argv[1], "games"))
        opt.mode = MODE_GAMES;
    else if (!strcmp(argv[1], "conns")) {
        opt.mode = MODE_CONNS;
        opt.games = 10;
    } else
        return false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return false;
        i++;
        if (!strcmp(a, "--host"))
            opt.host = v;
        else if (!strcmp(a, "--port"))
            opt.port = atoi(v);
        else if (!strcmp(a, "--games"))
            opt.games = atoi(v);
        else if (!strcmp(a, "--spectators"))
            opt.spectators = atoi(v);
        else if (!strcmp(a, "--warmup"))
            opt.warmup = atof(v);
        else if (!strcmp(a, "--duration"))
            opt.duration = atof(v);
        else if (!strcmp(a, "--conns"))
            opt.conns = atoi(v);
        else if (!strcmp(a, "--pending"))
            opt.pending_max = atoi(v);
        else if (!strcmp(a, "--sources"))
            opt.sources = atoi(v);
        else if (!strcmp(a, "--hold"))
            opt.hold = atof(v);
        else if (!strcmp(a, "--pgn") && opt.pgn_count < 8)
            opt.pgn[opt.pgn_count++] = v;
        else if (!strcmp(a, "--random"))
            opt.random_lines = atoi(v);
        else if (!strcmp(a, "--plies"))
            opt.line_plies = atoi(v);
        else if (!strcmp(a, "--seed"))
            opt.seed = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--server-pid"))
            opt.server_pid = atoi(v);
        else if (!strcmp(a, "--evlib"))
            opt.evlib = v;
        else if (!strcmp(a, "--trace"))
            opt.trace = v;
        else if (!strcmp(a, "--rate"))
            opt.rate = atof(v);
        else if (!strcmp(a, "--min-moves"))
            opt.min_moves = atof(v);
        else if (!strcmp(a, "--max-p99"))
            opt.max_p99_ms = atof(v);
        else
            return false;
    }
    if (strcmp(opt.evlib, "uv") && strcmp(opt.evlib, "poll"))
        return false;
    use_uv = !strcmp(opt.evlib, "uv");
    return opt.port > 0 && opt.games > 0 && opt.conns > 0 && opt.pending_max > 0 && opt.spectators >= 0 &&
           opt.line_plies > 0 && opt.line_plies < MAX_PLIES * 2 / 3;
}

int main(int argc, char **argv) {
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (!parse_args(argc, argv)) {
        usage(stderr);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (opt.trace && !(trace_file = fopen(opt.trace, "w"))) {
        fprintf(stderr, "schach_loadgen: cannot write %s\n", opt.trace);
        return 2;
    }
    for (int i = 0; i < opt.pgn_count; i++)
        if (!lines_from_pgn(opt.pgn[i]))
            return 2;
    lines_random(opt.random_lines, opt.line_plies);
    if (line_count == 0 && opt.mode == MODE_GAMES) {
        fputs("schach_loadgen: no game lines (give --pgn or --random)\n", stderr);
        return 2;
    }

    int need =
        opt.mode == MODE_CONNS ? opt.conns + opt.games * 2 + 64 : opt.games * (2 + opt.spectators) + opt.games * 2 + 64;
    raise_fd_limit(need);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR, NULL);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.fd_limit_per_thread = (unsigned)need + 64;
    info.connect_timeout_secs = 30;
    /* lws's own loop is poll(): every wake-up walks all descriptors, which with a thousand
     * connections cost the load generator over half its CPU. libuv uses epoll. Our loop, so that
     * serve_for can run it one round at a time. */
    static void *foreign[1];
    if (use_uv) {
        uv_loop_init(&uv_loop);
        foreign[0] = &uv_loop;
        info.foreign_loops = foreign;
        info.options |= LWS_SERVER_OPTION_LIBUV;
    }
    info.timeout_secs = 30;
    context = lws_create_context(&info);
    if (!context) {
        fputs("schach_loadgen: lws_create_context failed\n", stderr);
        return 2;
    }
    timer_every(&tick_timer, 50, on_tick);
    int rc = opt.mode == MODE_GAMES ? run_games() : run_conns();
    stopping = true;
    if (trace_file)
        fclose(trace_file);
    /* Under libuv the loop would have to run on until lws closed every handle; the process ends
     * anyway, and the kernel closes the sockets. */
    if (!use_uv)
        lws_context_destroy(context);
    return rc;
}
