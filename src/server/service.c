/* schach serve: the game service (service.h). Requests are validated at once against the game in
 * memory; a change is tried on the live game, its new record computed, and the game put back exactly
 * (a Position is a plain value), so the game in memory always shows what is committed. The change is
 * replayed on the game when the store hands the committed operation back, then answered and
 * broadcast. One change per game is in flight at a time; others get 409 busy. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, open_memstream, gmtime_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schach/explain.h"
#include "schach/fen.h"
#include "schach/pgn.h"
#include "computer.h"
#include "service_internal.h"

#define LIST_MAX 100 /* ids one list request may name */

typedef enum { CH_CREATE, CH_JOIN, CH_MOVE, CH_DRAW, CH_CLAIM, CH_RESIGN, CH_ABORT, CH_TIMEOUT } ChangeKind;
typedef enum { DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE } DrawAction;

/* A change on its way through the store; op must stay first so a returned StoreOp leads back here. */
typedef struct SvcPending {
    StoreOp op;
    ChangeKind kind;
    SvcGame *game;
    Color color;                      /* who acts */
    Move move;                        /* CH_MOVE */
    int claim;                        /* CH_MOVE with a claim, CH_CLAIM: CLAIM_* bits (0: any), -1: none */
    DrawAction draw;                  /* CH_DRAW */
    bool claim_rejected;              /* CH_MOVE: the claim with the move was incorrect */
    bool by_computer;                 /* the computer player's own change */
    Lang lang;                        /* of the requester, for a storage error */
    char secret[SVC_SECRET_LEN + 1];  /* CH_CREATE, CH_JOIN: the new secret of color */
    char secret2[SVC_SECRET_LEN + 1]; /* CH_CREATE local: the other side's */
    char invite[SVC_SECRET_LEN + 1];  /* CH_CREATE friend: the invitation */
    ServiceReply reply;               /* NULL: nobody waits (cancelled, or a timer's change) */
    void *ctx;
    uint64_t ticket;
    struct SvcPending *prev, *next; /* the service's list of changes in the store */
} SvcPending;

struct Service {
    Store *store;
    ServiceClock now_fn;
    void *now_ctx;
    SvcGame **games; /* registry: index -> game, never shrinks */
    uint32_t game_count, game_capacity;
    uint32_t *table; /* open addressing by id: index + 1, 0 empty */
    uint32_t table_capacity;
    SvcGame *timers;                 /* games whose clock or deadline runs */
    SvcGame *recent[SVC_RECENT_MAX]; /* finished games, newest first */
    int recent_count;
    SvcPending *pending; /* changes submitted and not yet back */
    uint64_t next_ticket;
    Computer *computer; /* the computer player's workers; NULL until service_computer_start */
    ServiceComputerConfig computer_cfg;
    uint64_t next_job; /* serial of the last search handed to the workers */
};

/* One request being answered. */
typedef struct Req {
    Service *svc;
    const ServiceRequest *in;
    Lang lang;
    ServiceReply reply;
    void *ctx;
    uint64_t ticket;
} Req;

/* ------------------------------------------------------------------------------------------------ */
/* Time, replies */

static int64_t real_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t svc_now(const Service *svc) { return svc->now_fn ? svc->now_fn(svc->now_ctx) : real_now(); }

static bool is_over(const SvcGame *g) { return g->aborted || game_over(&g->game); }

/* Calls reply, when somebody waits for it, with the answer's parts. */
static void deliver(ServiceReply reply, void *ctx, int status, const char *type, const char *body, size_t len, int ply,
                    bool duplicate, bool claim_rejected) {
    if (!reply)
        return;
    ServiceAnswer a = {status, type, body, len, ply, duplicate, claim_rejected};
    reply(ctx, &a);
}

/* Sends j (consumed) as the JSON reply; NULL j means out of memory. */
static void send_json(ServiceReply reply, void *ctx, int status, json_t *j) {
    if (!reply) {
        json_decref(j);
        return;
    }
    size_t len = 0;
    char *text = j ? svc_dump(j, &len) : NULL;
    json_decref(j);
    if (!text) {
        static const char oom[] = "{\"error\":{\"code\":\"storage\",\"message\":\"out of memory\"}}";
        deliver(reply, ctx, 500, "application/json", oom, sizeof oom - 1, -1, false, false);
        return;
    }
    deliver(reply, ctx, status, "application/json", text, len, -1, false, false);
    free(text);
}

static uint64_t reply_error(Req *r, SvcError e, const char *arg) {
    send_json(r->reply, r->ctx, svc_error_status(e), svc_error_json(e, r->lang, arg));
    return r->ticket;
}

/* Sends text (freed here; NULL means out of memory) as the JSON reply about a game at ply. */
static void send_text(ServiceReply reply, void *ctx, int status, char *text, size_t len, int ply, bool duplicate,
                      bool claim_rejected) {
    if (!text) {
        send_json(reply, ctx, status, NULL);
        return;
    }
    deliver(reply, ctx, status, "application/json", text, len, ply, duplicate, claim_rejected);
    free(text);
}

/* obj (consumed) with "state": the game's state, as text. */
static char *with_state(const Service *svc, const SvcGame *g, json_t *obj, size_t *len) {
    char *state = svc_state_text(g, svc_now(svc), NULL);
    char *text = state ? svc_json_with(obj, "state", state, len) : (json_decref(obj), NULL);
    free(state);
    return text;
}

/* ------------------------------------------------------------------------------------------------ */
/* Registry */

static uint32_t id_hash(const char *id) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static SvcGame *find_game(const Service *svc, const char *id) {
    if (!id || !svc->table_capacity || strlen(id) != STORE_ID_LEN)
        return NULL;
    uint32_t mask = svc->table_capacity - 1;
    for (uint32_t i = id_hash(id) & mask;; i = (i + 1) & mask) {
        uint32_t slot = svc->table[i];
        if (!slot)
            return NULL;
        if (strcmp(svc->games[slot - 1]->rec.id, id) == 0)
            return svc->games[slot - 1];
    }
}

static void table_put(uint32_t *table, uint32_t capacity, const char *id, uint32_t slot) {
    uint32_t mask = capacity - 1;
    uint32_t i = id_hash(id) & mask;
    while (table[i])
        i = (i + 1) & mask;
    table[i] = slot;
}

static bool register_game(Service *svc, SvcGame *g) {
    if (svc->game_count == svc->game_capacity) {
        uint32_t cap = svc->game_capacity ? svc->game_capacity * 2 : 64;
        SvcGame **games = realloc(svc->games, cap * sizeof *games);
        if (!games)
            return false;
        svc->games = games;
        svc->game_capacity = cap;
    }
    if ((svc->game_count + 1) * 2 > svc->table_capacity) {
        uint32_t cap = svc->table_capacity ? svc->table_capacity * 2 : 128;
        uint32_t *table = calloc(cap, sizeof *table);
        if (!table)
            return false;
        for (uint32_t i = 0; i < svc->game_count; i++)
            table_put(table, cap, svc->games[i]->rec.id, i + 1);
        free(svc->table);
        svc->table = table;
        svc->table_capacity = cap;
    }
    g->index = svc->game_count;
    svc->games[svc->game_count++] = g;
    table_put(svc->table, svc->table_capacity, g->rec.id, g->index + 1);
    return true;
}

static void game_entry_free(SvcGame *g) {
    if (!g)
        return;
    game_free(&g->game);
    free(g->moves_text);
    free(g->subs);
    free(g);
}

static void timer_update(Service *svc, SvcGame *g) {
    bool running = svc_clock_running(g);
    if (running == g->in_timer_list)
        return;
    if (running) {
        g->timer_prev = NULL;
        g->timer_next = svc->timers;
        if (svc->timers)
            svc->timers->timer_prev = g;
        svc->timers = g;
    } else {
        if (g->timer_prev)
            g->timer_prev->timer_next = g->timer_next;
        else
            svc->timers = g->timer_next;
        if (g->timer_next)
            g->timer_next->timer_prev = g->timer_prev;
        g->timer_prev = g->timer_next = NULL;
    }
    g->in_timer_list = running;
}

/* Keeps the SVC_RECENT_MAX most recently finished games, newest (largest updated_ms) first. */
static void recent_insert(Service *svc, SvcGame *g) {
    int at = 0;
    while (at < svc->recent_count && svc->recent[at]->rec.updated_ms > g->rec.updated_ms)
        at++;
    if (at >= SVC_RECENT_MAX)
        return;
    int keep = svc->recent_count < SVC_RECENT_MAX ? svc->recent_count : SVC_RECENT_MAX - 1;
    memmove(&svc->recent[at + 1], &svc->recent[at], (size_t)(keep - at) * sizeof svc->recent[0]);
    svc->recent[at] = g;
    svc->recent_count = keep + 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Changes: tried on the live game and put back, replayed after the commit */

typedef struct Snapshot {
    Position pos;
    int ply_count;
    Outcome outcome;
    int draw_offer;
    bool aborted;
} Snapshot;

static Snapshot snapshot_take(const SvcGame *g) {
    return (Snapshot){g->game.pos, g->game.ply_count, g->game.outcome, g->game.draw_offer, g->aborted};
}

static void snapshot_restore(SvcGame *g, const Snapshot *s) {
    g->game.pos = s->pos;
    g->game.ply_count = s->ply_count;
    g->game.outcome = s->outcome;
    g->game.draw_offer = s->draw_offer;
    g->aborted = s->aborted;
}

/* Performs p's action on the game; false with err when libschach refuses it. */
static bool change_run(SvcGame *g, SvcPending *p, SchError *err) {
    Game *game = &g->game;
    Color turn = pos_turn(game_position(game));
    switch (p->kind) {
        case CH_CREATE:
        case CH_JOIN: return true;
        case CH_MOVE:
            if (p->claim < 0)
                return game_play(game, p->move, err);
            p->claim_rejected = false;
            if (game_claim_with_move(game, p->move, p->claim, err))
                return true;
            if (err->code == GAME_ERR_CLAIM_REJECTED) {
                p->claim_rejected = true;
                return true;
            }
            return err->code == GAME_ERR_CLAIM_VOID;
        case CH_DRAW:
            if (p->draw == DRAW_OFFER)
                return game_offer_draw(game, p->color, err);
            if (p->draw == DRAW_ACCEPT)
                return game_accept_draw(game, p->color, err);
            return game_decline_draw(game, p->color, err);
        case CH_CLAIM: return game_claim(game, p->claim, err);
        case CH_RESIGN: return game_resign(game, p->color, err);
        case CH_ABORT: g->aborted = true; return true;
        case CH_TIMEOUT:
            if (strcmp(g->rec.time_type, "live") == 0)
                return game_time_forfeit(game, turn, err);
            return game_abandon(game, turn, err);
    }
    return false;
}

static void outcome_to_record(const SvcGame *g, GameRecord *rec) {
    if (g->aborted) {
        snprintf(rec->result, sizeof rec->result, "*");
        snprintf(rec->termination, sizeof rec->termination, "aborted");
    } else if (game_over(&g->game)) {
        snprintf(rec->result, sizeof rec->result, "%s", result_string(g->game.outcome.result));
        snprintf(rec->termination, sizeof rec->termination, "%s", termination_name(g->game.outcome.termination));
    }
}

/* Tries p on its game at now and fills p->op with the write it needs; the game is left as it was.
 * false with err when the change is refused. */
static bool change_prepare(SvcPending *p, int64_t now, SchError *err) {
    SvcGame *g = p->game;
    Snapshot before = snapshot_take(g);
    GameRecord rec = g->rec;
    GameRecord stopped = g->rec;
    svc_clock_stop(g, &stopped, now);
    int ply = g->game.ply_count;
    if (p->kind == CH_MOVE)
        svc_clock_after_move(g, &rec, ply + 1, now);
    err_clear(err);
    if (!change_run(g, p, err)) {
        snapshot_restore(g, &before);
        return false;
    }
    if (is_over(g)) {
        if (p->kind == CH_MOVE)
            rec.turn_started_ms = 0;
        else {
            memcpy(rec.clock_ms, stopped.clock_ms, sizeof rec.clock_ms);
            rec.turn_started_ms = 0;
        }
        outcome_to_record(g, &rec);
    }
    rec.draw_offer = is_over(g) ? -1 : g->game.draw_offer;
    snapshot_restore(g, &before);

    memset(&p->op, 0, sizeof p->op);
    p->op.user = p;
    if (p->kind == CH_MOVE) {
        p->op.append = true;
        p->op.ply = ply;
        uci_write(p->move, p->op.move.uci, sizeof p->op.move.uci);
        p->op.move.at_ms = now;
        /* A plain move writes only the move, unless it changed what the row holds. */
        p->op.update = strcmp(rec.result, g->rec.result) != 0 || rec.draw_offer != g->rec.draw_offer ||
                       rec.turn_started_ms != g->rec.turn_started_ms ||
                       memcmp(rec.clock_ms, g->rec.clock_ms, sizeof rec.clock_ms) != 0;
    } else {
        p->op.update = true;
    }
    if (p->op.update)
        rec.updated_ms = now;
    p->op.record = rec;
    return true;
}

static SvcPending *pending_new(Req *r, SvcGame *g, ChangeKind kind, Color color) {
    SvcPending *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = kind;
    p->game = g;
    p->color = color;
    p->claim = -1;
    if (r) {
        p->reply = r->reply;
        p->ctx = r->ctx;
        p->ticket = r->ticket;
        p->lang = r->lang;
    }
    return p;
}

static void pending_submit(Service *svc, SvcPending *p) {
    p->op.user = p;
    if (p->kind != CH_CREATE)
        p->game->pending = p;
    p->prev = NULL;
    p->next = svc->pending;
    if (svc->pending)
        svc->pending->prev = p;
    svc->pending = p;
    store_submit(svc->store, &p->op);
}

static void pending_unlink(Service *svc, SvcPending *p) {
    if (p->prev)
        p->prev->next = p->next;
    else
        svc->pending = p->next;
    if (p->next)
        p->next->prev = p->prev;
}

/* Prepares and submits a change; on refusal answers with the matching error. */
static uint64_t change_start(Req *r, SvcPending *p) {
    SchError err;
    if (!change_prepare(p, svc_now(r->svc), &err)) {
        SvcError e = err.code == GAME_ERR_NO_OFFER   ? SVC_E_NO_OFFER
                     : err.code == GAME_ERR_NO_CLAIM ? SVC_E_NO_CLAIM
                     : err.code == GAME_ERR_OVER     ? SVC_E_GAME_OVER
                                                     : SVC_E_INTERNAL;
        free(p);
        return reply_error(r, e, NULL);
    }
    pending_submit(r->svc, p);
    return r->ticket;
}

/* The side to move's flag fell (or its deadline passed) and no timer has ended the game yet. */
static bool time_is_up(const SvcGame *g, int64_t now) {
    int64_t left;
    return svc_expiry(g, now, &left) && left <= 0;
}

static void timeout_start(Service *svc, SvcGame *g, int64_t now) {
    SvcPending *p = pending_new(NULL, g, CH_TIMEOUT, pos_turn(game_position(&g->game)));
    SchError err;
    if (!p)
        return;
    if (!change_prepare(p, now, &err)) {
        free(p);
        g->flag_retry_ms = now + 1000;
        return;
    }
    pending_submit(svc, p);
}

/* ------------------------------------------------------------------------------------------------ */
/* Broadcasts */

/* The WebSocket message {"type":"state","game":…,"state":…} for state text. */
static char *state_message(const SvcGame *g, const char *state, size_t *len) {
    return svc_json_with(json_pack("{s:s, s:s}", "type", "state", "game", g->rec.id), "state", state, len);
}

/* Tells every subscriber of g its new state (text of the state object). */
static void broadcast(SvcGame *g, const char *state) {
    if (g->sub_count == 0 || !state)
        return;
    size_t len = 0;
    char *text = state_message(g, state, &len);
    if (!text)
        return;
    g->broadcasting++;
    int count = g->sub_count; /* who subscribes while we deliver got the state already */
    for (int i = 0; i < count; i++)
        if (g->subs[i].event)
            g->subs[i].event(g->subs[i].ctx, text, len);
    if (--g->broadcasting == 0) {
        int kept = 0;
        for (int i = 0; i < g->sub_count; i++)
            if (g->subs[i].event)
                g->subs[kept++] = g->subs[i];
        g->sub_count = kept;
    }
    free(text);
}

uint64_t service_subscribe(Service *svc, const char *game, ServiceEvent event, void *ctx) {
    SvcGame *g = find_game(svc, game);
    if (!g || !event)
        return 0;
    if (g->sub_count == g->sub_capacity) {
        int cap = g->sub_capacity ? g->sub_capacity * 2 : 4;
        SvcSub *subs = realloc(g->subs, (size_t)cap * sizeof *subs);
        if (!subs)
            return 0;
        g->subs = subs;
        g->sub_capacity = cap;
    }
    /* The id names the game in its upper half, so unsubscribing needs no search over games. */
    uint64_t id = ((uint64_t)(g->index + 1) << 32) | ++g->sub_serial;
    g->subs[g->sub_count++] = (SvcSub){id, event, ctx};
    size_t len = 0;
    char *state = svc_state_text(g, svc_now(svc), NULL);
    char *text = state ? state_message(g, state, &len) : NULL;
    free(state);
    if (text) {
        event(ctx, text, len);
        free(text);
    }
    return id;
}

void service_unsubscribe(Service *svc, uint64_t subscription) {
    uint64_t index = (subscription >> 32);
    if (index == 0 || index > svc->game_count)
        return;
    SvcGame *g = svc->games[index - 1];
    for (int i = 0; i < g->sub_count; i++) {
        if (g->subs[i].id != subscription)
            continue;
        if (g->broadcasting) {
            g->subs[i].event = NULL;
        } else {
            memmove(&g->subs[i], &g->subs[i + 1], (size_t)(g->sub_count - i - 1) * sizeof g->subs[0]);
            g->sub_count--;
        }
        return;
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Bodies: one JSON object with exactly the members an action names */

typedef struct Field {
    const char *name;
    char type; /* 's' string, 'i' integer, 'o' object, '*' anything */
    bool required;
} Field;

/* The WebSocket envelope and the language, accepted in every body. */
static const Field envelope[] = {{"type", 's', false}, {"game", 's', false}, {"id", '*', false}, {"lang", 's', false}};
enum { ENVELOPE_COUNT = sizeof envelope / sizeof envelope[0] };

#define ENVELOPE_FMT     "s?s, s?s, s?o, s?s !}"
#define ENVELOPE_ARGS(e) "type", &(e).type, "game", &(e).game, "id", &(e).id, "lang", &(e).lang

typedef struct Envelope {
    const char *type, *game, *lang;
    json_t *id;
} Envelope;

static const Field *field_find(const Field *fields, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

/* Checks members against fields (unknown, missing, wrong type): the message names the member.
 * prefix ("time.") qualifies nested names. Returns true or answers the error. */
static bool members_check(Req *r, json_t *obj, const Field *fields, size_t n, bool with_envelope, const char *prefix) {
    char name[96];
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        const Field *f = field_find(fields, n, key);
        if (!f && with_envelope)
            f = field_find(envelope, ENVELOPE_COUNT, key);
        snprintf(name, sizeof name, "%s%s", prefix, key);
        if (!f) {
            char shown[64];
            err_text_arg(key, strlen(key), shown, sizeof shown);
            snprintf(name, sizeof name, "%s%s", prefix, shown);
            reply_error(r, SVC_E_UNKNOWN, name);
            return false;
        }
        SvcError e = SVC_E_COUNT;
        if (f->type == 's' && !json_is_string(value))
            e = SVC_E_NOT_STRING;
        else if (f->type == 'i' && !json_is_integer(value))
            e = SVC_E_NOT_INTEGER;
        else if (f->type == 'o' && !json_is_object(value))
            e = SVC_E_NOT_OBJECT;
        if (e != SVC_E_COUNT) {
            reply_error(r, e, name);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (fields[i].required && !json_object_get(obj, fields[i].name)) {
            snprintf(name, sizeof name, "%s%s", prefix, fields[i].name);
            reply_error(r, SVC_E_MISSING, name);
            return false;
        }
    return true;
}

/* Parses r's body as an object with fields; NULL after answering the error. Sets r->lang from a
 * "lang" member unless the query chose the language. */
static json_t *body_parse(Req *r, const Field *fields, size_t n) {
    const char *body = r->in->body ? r->in->body : "";
    if (strlen(body) > SVC_BODY_MAX) {
        reply_error(r, SVC_E_TOO_LARGE, NULL);
        return NULL;
    }
    json_error_t jerr;
    json_t *obj = json_loads(body, JSON_REJECT_DUPLICATES, &jerr);
    if (!obj || !json_is_object(obj)) {
        json_decref(obj);
        reply_error(r, SVC_E_BAD_JSON, NULL);
        return NULL;
    }
    json_t *lang = json_object_get(obj, "lang");
    if (json_is_string(lang)) {
        const char *l = json_string_value(lang);
        if (strcmp(l, "de") != 0 && strcmp(l, "en") != 0) {
            reply_error(r, SVC_E_VALUE, "lang");
            json_decref(obj);
            return NULL;
        }
        if (!r->in->lang_explicit)
            r->lang = strcmp(l, "de") == 0 ? LANG_DE : LANG_EN;
    }
    if (!members_check(r, obj, fields, n, true, "")) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* The strict unpack after members_check cannot fail but for out-of-range integers jansson refuses. */
static bool unpack_failed(Req *r, json_t *obj, const json_error_t *jerr) {
    char shown[SCHACH_ERR_ARG_MAX];
    err_text_arg(jerr->text, strlen(jerr->text), shown, sizeof shown);
    reply_error(r, SVC_E_VALUE, shown);
    json_decref(obj);
    return false;
}

/* Which side secret belongs to, or -1 (also when it is missing: 403 like a wrong one, docs/api.md). */
static int secret_color(const SvcGame *g, const char *secret) {
    for (int c = WHITE; c <= BLACK; c++)
        if (secret_matches(secret, g->rec.secret_hash[c]))
            return c;
    return -1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Actions */

static SvcGame *game_new(void) {
    SvcGame *g = calloc(1, sizeof *g);
    if (g) {
        game_init(&g->game);
        g->computer = -1;
    }
    return g;
}

typedef struct TimeSpec {
    const char *type;
    json_int_t minutes, increment, days;
} TimeSpec;

static bool time_parse(Req *r, json_t *body, json_t *time, TimeSpec *t) {
    static const Field fields[] = {
        {"type", 's', true}, {"minutes", 'i', false}, {"increment", 'i', false}, {"days", 'i', false}};
    *t = (TimeSpec){"none", -1, -1, -1};
    if (!time)
        return true;
    if (!members_check(r, time, fields, sizeof fields / sizeof fields[0], false, "time."))
        return false;
    json_error_t jerr;
    if (json_unpack_ex(time, &jerr, 0, "{s:s, s?I, s?I, s?I !}", "type", &t->type, "minutes", &t->minutes, "increment",
                       &t->increment, "days", &t->days) != 0)
        return unpack_failed(r, json_incref(body), &jerr);
    const char *bad = NULL;
    if (strcmp(t->type, "none") == 0) {
        if (t->minutes >= 0 || t->increment >= 0 || t->days >= 0)
            bad = t->days >= 0 ? "time.days" : t->minutes >= 0 ? "time.minutes" : "time.increment";
    } else if (strcmp(t->type, "live") == 0) {
        if (t->days >= 0)
            bad = "time.days";
        else if (t->minutes < 1 || t->minutes > 180)
            bad = "time.minutes";
        else if (t->increment > 180)
            bad = "time.increment";
        if (t->increment < 0)
            t->increment = 0;
    } else if (strcmp(t->type, "correspondence") == 0) {
        if (t->minutes >= 0 || t->increment >= 0)
            bad = t->minutes >= 0 ? "time.minutes" : "time.increment";
        else if (t->days < 1 || t->days > 30)
            bad = "time.days";
    } else {
        bad = "time.type";
    }
    if (bad) {
        reply_error(r, SVC_E_VALUE, bad);
        return false;
    }
    return true;
}

static uint64_t action_create(Req *r) {
    static const Field fields[] = {
        {"mode", 's', false}, {"color", 's', false}, {"time", 'o', false}, {"fen", 's', false}, {"level", 's', false}};
    json_t *body = body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    const char *mode = "friend", *color_name = "white", *fen = NULL, *level_id = NULL;
    json_t *time = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s?s, s?o, s?s, s?s, " ENVELOPE_FMT, "mode", &mode, "color", &color_name,
                       "time", &time, "fen", &fen, "level", &level_id, ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    TimeSpec t;
    SvcError e = SVC_E_COUNT;
    const char *arg = NULL;
    bool computer = strcmp(mode, "computer") == 0;
    const EngineLevel *level = computer && level_id ? engine_level_find(level_id) : NULL;
    char shown_level[64];
    if (strcmp(mode, "friend") != 0 && strcmp(mode, "local") != 0 && !computer)
        e = SVC_E_VALUE, arg = "mode";
    else if (strcmp(color_name, "white") != 0 && strcmp(color_name, "black") != 0 && strcmp(color_name, "random") != 0)
        e = SVC_E_VALUE, arg = "color";
    else if (computer && !level_id)
        e = SVC_E_MISSING, arg = "level";
    else if (!computer && level_id)
        e = SVC_E_UNKNOWN, arg = "level"; /* only games against the computer have a level */
    else if (computer && !level) {
        err_text_arg(level_id, strlen(level_id), shown_level, sizeof shown_level);
        e = SVC_E_BAD_LEVEL, arg = shown_level;
    }
    if (e != SVC_E_COUNT || !time_parse(r, body, time, &t)) {
        if (e != SVC_E_COUNT)
            reply_error(r, e, arg);
        json_decref(body);
        return r->ticket;
    }

    SvcGame *g = game_new();
    SvcPending *p = g ? pending_new(r, g, CH_CREATE, WHITE) : NULL;
    if (!p) {
        game_entry_free(g);
        json_decref(body);
        return reply_error(r, SVC_E_INTERNAL, NULL);
    }
    if (fen) {
        SchError err;
        err_clear(&err);
        char message[256];
        if (!game_init_fen(&g->game, fen, &err)) {
            err_format(&err, r->lang, message, sizeof message);
            e = SVC_E_FEN, arg = message;
        } else if (game_over(&g->game)) {
            e = SVC_E_FEN_OVER;
        }
        if (e != SVC_E_COUNT) {
            reply_error(r, e, arg);
            free(p);
            game_entry_free(g);
            json_decref(body);
            return r->ticket;
        }
    }

    Service *svc = r->svc;
    int64_t now = svc_now(svc);
    GameRecord *rec = &g->rec;
    do
        secret_random_id(rec->id, STORE_ID_LEN);
    while (find_game(svc, rec->id));
    rec->created_ms = rec->updated_ms = now;
    char start[SCHACH_FEN_MAX], standard[SCHACH_FEN_MAX];
    Position std_pos;
    pos_set_start(&std_pos);
    fen_write(&g->game.start, start, sizeof start);
    fen_write(&std_pos, standard, sizeof standard);
    if (strcmp(start, standard) != 0)
        snprintf(rec->start_fen, sizeof rec->start_fen, "%s", start);
    snprintf(rec->mode, sizeof rec->mode, "%s", mode);
    snprintf(rec->time_type, sizeof rec->time_type, "%s", t.type);
    rec->minutes = t.minutes > 0 ? (int)t.minutes : 0;
    rec->increment = t.increment > 0 ? (int)t.increment : 0;
    rec->days = t.days > 0 ? (int)t.days : 0;
    if (strcmp(t.type, "live") == 0)
        rec->clock_ms[WHITE] = rec->clock_ms[BLACK] = (int64_t)rec->minutes * 60000;
    rec->draw_offer = -1;
    rec->invite_color = -1;
    Color color = strcmp(color_name, "black") == 0   ? BLACK
                  : strcmp(color_name, "white") == 0 ? WHITE
                                                     : (Color)secret_random_below(2);
    p->color = color;
    secret_new(p->secret, rec->secret_hash[color]);
    if (strcmp(mode, "local") == 0) {
        secret_new(p->secret2, rec->secret_hash[!color]);
    } else if (computer) {
        /* The computer's side has no secret: nobody can move for it, and there is nothing to join. */
        snprintf(rec->level, sizeof rec->level, "%s", level->id);
        g->level = level;
        g->computer = !color;
    } else {
        secret_new(p->invite, rec->invite_hash);
        rec->invite_color = !color;
    }
    json_decref(body);

    memset(&p->op, 0, sizeof p->op);
    p->op.create = true;
    p->op.record = *rec;
    pending_submit(svc, p);
    return r->ticket;
}

static uint64_t action_join(Req *r, SvcGame *g) {
    static const Field fields[] = {{"invite", 's', true}};
    json_t *body = body_parse(r, fields, 1);
    if (!body)
        return r->ticket;
    const char *invite = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s:s, " ENVELOPE_FMT, "invite", &invite, ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    bool valid = g->rec.invite_color >= 0 && secret_matches(invite, g->rec.invite_hash);
    json_decref(body);
    if (g->pending)
        return reply_error(r, SVC_E_BUSY, NULL);
    if (!valid)
        return reply_error(r, SVC_E_BAD_INVITE, NULL);
    Color color = (Color)g->rec.invite_color;
    SvcPending *p = pending_new(r, g, CH_JOIN, color);
    if (!p)
        return reply_error(r, SVC_E_INTERNAL, NULL);
    memset(&p->op, 0, sizeof p->op);
    p->op.update = true;
    p->op.record = g->rec;
    p->op.record.updated_ms = svc_now(r->svc);
    secret_new(p->secret, p->op.record.secret_hash[color]);
    memset(p->op.record.invite_hash, 0, STORE_HASH_LEN);
    p->op.record.invite_color = -1;
    pending_submit(r->svc, p);
    return r->ticket;
}

/* Whether text, read in the position before g's last move, is that move: a repeated request. */
static bool repeats_last_move(const SvcGame *g, const char *text, Lang lang) {
    int n = g->game.ply_count;
    if (n == 0)
        return false;
    const GamePly *last = &g->game.plies[n - 1];
    Position before = g->game.pos;
    pos_unmake(&before, last->move, &last->undo);
    return move_parse(&before, text, lang, NULL) == last->move;
}

/* Who holds secret in g, or -1 after answering 403; -1 after answering 409 busy while another change
 * of g is being committed. */
static int actor_check(Req *r, SvcGame *g, const char *secret) {
    int color = secret_color(g, secret);
    if (color < 0) {
        reply_error(r, SVC_E_BAD_SECRET, NULL);
        return -1;
    }
    if (g->pending) {
        reply_error(r, SVC_E_BUSY, NULL);
        return -1;
    }
    return color;
}

/* false after answering 409 game_over when g has ended, also when its time ran out but the timer has
 * not ended it yet: then the game is ended now instead of accepting a late change. */
static bool running_check(Req *r, SvcGame *g) {
    if (is_over(g)) {
        reply_error(r, SVC_E_GAME_OVER, NULL);
        return false;
    }
    int64_t now = svc_now(r->svc);
    if (time_is_up(g, now)) {
        if (now >= g->flag_retry_ms)
            timeout_start(r->svc, g, now);
        reply_error(r, SVC_E_GAME_OVER, NULL);
        return false;
    }
    return true;
}

/* Both checks, for actions other than moves. */
static int change_check(Req *r, SvcGame *g, const char *secret) {
    int color = actor_check(r, g, secret);
    return color >= 0 && running_check(r, g) ? color : -1;
}

static int claim_kind(const char *name) {
    if (strcmp(name, "threefold") == 0)
        return CLAIM_THREEFOLD;
    if (strcmp(name, "fifty") == 0)
        return CLAIM_FIFTY;
    if (strcmp(name, "any") == 0)
        return 0;
    return -1;
}

static uint64_t action_move(Req *r, SvcGame *g) {
    static const Field fields[] = {
        {"secret", 's', false}, {"ply", 'i', true}, {"move", 's', true}, {"claim", 's', false}};
    json_t *body = body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *text = NULL, *claim = NULL;
    json_int_t ply = 0;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s:I, s:s, s?s, " ENVELOPE_FMT, "secret", &secret, "ply", &ply, "move",
                       &text, "claim", &claim, ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    int kind = claim ? claim_kind(claim) : -1;
    if (claim && kind < 0) {
        json_decref(body);
        return reply_error(r, SVC_E_VALUE, "claim");
    }
    if (ply < 0 || ply > 1000000) {
        json_decref(body);
        return reply_error(r, SVC_E_VALUE, "ply");
    }
    int color = actor_check(r, g, secret);
    if (color < 0) {
        json_decref(body);
        return r->ticket;
    }
    int n = g->game.ply_count;
    if (ply == n - 1) {
        /* The mover of the last ply sends it again (a retry after a lost answer): same result. */
        Position before = g->game.pos;
        pos_unmake(&before, g->game.plies[n - 1].move, &g->game.plies[n - 1].undo);
        bool repeat = pos_turn(&before) == (Color)color && repeats_last_move(g, text, r->lang);
        json_decref(body);
        if (!repeat)
            return reply_error(r, SVC_E_STALE, NULL);
        size_t len = 0;
        char *reply = with_state(r->svc, g, json_pack("{s:b}", "duplicate", true), &len);
        send_text(r->reply, r->ctx, 200, reply, len, n, true, false);
        return r->ticket;
    }
    if (ply != n) {
        json_decref(body);
        return reply_error(r, SVC_E_STALE, NULL);
    }
    if (!running_check(r, g)) {
        json_decref(body);
        return r->ticket;
    }
    if ((Color)color != pos_turn(game_position(&g->game))) {
        json_decref(body);
        return reply_error(r, SVC_E_NOT_YOUR_TURN, NULL);
    }
    SchError err;
    err_clear(&err);
    Move m = game_parse_move(&g->game, text, r->lang, &err);
    json_decref(body);
    if (m == MOVE_NONE) {
        char message[512];
        err_format(&err, r->lang, message, sizeof message);
        return reply_error(r, SVC_E_ILLEGAL, message);
    }
    SvcPending *p = pending_new(r, g, CH_MOVE, (Color)color);
    if (!p || !svc_moves_reserve(g)) {
        free(p);
        return reply_error(r, SVC_E_INTERNAL, NULL);
    }
    p->move = m;
    p->claim = kind;
    return change_start(r, p);
}

static uint64_t action_draw(Req *r, SvcGame *g) {
    static const Field fields[] = {{"secret", 's', false}, {"action", 's', true}};
    json_t *body = body_parse(r, fields, 2);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *action = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s:s, " ENVELOPE_FMT, "secret", &secret, "action", &action,
                       ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    DrawAction d = strcmp(action, "offer") == 0     ? DRAW_OFFER
                   : strcmp(action, "accept") == 0  ? DRAW_ACCEPT
                   : strcmp(action, "decline") == 0 ? DRAW_DECLINE
                                                    : (DrawAction)-1;
    if ((int)d < 0) {
        json_decref(body);
        return reply_error(r, SVC_E_VALUE, "action");
    }
    int color = change_check(r, g, secret);
    json_decref(body);
    if (color < 0)
        return r->ticket;
    if (d != DRAW_OFFER && g->game.draw_offer != !color)
        return reply_error(r, SVC_E_NO_OFFER, NULL);
    SvcPending *p = pending_new(r, g, CH_DRAW, (Color)color);
    if (!p)
        return reply_error(r, SVC_E_INTERNAL, NULL);
    p->draw = d;
    return change_start(r, p);
}

static uint64_t action_claim(Req *r, SvcGame *g) {
    static const Field fields[] = {{"secret", 's', false}, {"kind", 's', true}};
    json_t *body = body_parse(r, fields, 2);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *kind_name = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s:s, " ENVELOPE_FMT, "secret", &secret, "kind", &kind_name,
                       ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    int kind = claim_kind(kind_name);
    if (kind < 0) {
        json_decref(body);
        return reply_error(r, SVC_E_VALUE, "kind");
    }
    int color = change_check(r, g, secret);
    json_decref(body);
    if (color < 0)
        return r->ticket;
    if ((Color)color != pos_turn(game_position(&g->game)))
        return reply_error(r, SVC_E_NOT_YOUR_TURN, NULL);
    /* An incorrect claim would count as a draw offer (9.1.2.4); here it is refused and changes nothing. */
    int holds = game_claims(&g->game);
    if (!(holds & (kind ? kind : CLAIM_THREEFOLD | CLAIM_FIFTY)))
        return reply_error(r, SVC_E_NO_CLAIM, NULL);
    SvcPending *p = pending_new(r, g, CH_CLAIM, (Color)color);
    if (!p)
        return reply_error(r, SVC_E_INTERNAL, NULL);
    p->claim = kind;
    return change_start(r, p);
}

/* resign and abort: a secret and nothing else. */
static uint64_t action_secret_only(Req *r, SvcGame *g, ChangeKind kind) {
    static const Field fields[] = {{"secret", 's', false}};
    json_t *body = body_parse(r, fields, 1);
    if (!body)
        return r->ticket;
    const char *secret = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, " ENVELOPE_FMT, "secret", &secret, ENVELOPE_ARGS(env)) != 0) {
        unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    int color = change_check(r, g, secret);
    json_decref(body);
    if (color < 0)
        return r->ticket;
    if (kind == CH_ABORT && g->game.ply_count >= 2)
        return reply_error(r, SVC_E_CANNOT_ABORT, NULL);
    SvcPending *p = pending_new(r, g, kind, (Color)color);
    if (!p)
        return reply_error(r, SVC_E_INTERNAL, NULL);
    return change_start(r, p);
}

static uint64_t action_pgn(Req *r, SvcGame *g) {
    PgnGame pg;
    pgn_game_init(&pg);
    game_free(&pg.game);
    char *text = NULL;
    size_t len = 0;
    bool ok = game_copy(&pg.game, &g->game);
    if (!ok)
        game_init(&pg.game);
    char date[16], tc[32];
    time_t secs = (time_t)(g->rec.created_ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    if (strcmp(g->rec.time_type, "live") == 0)
        snprintf(tc, sizeof tc, "%d+%d", g->rec.minutes * 60, g->rec.increment);
    else if (strcmp(g->rec.time_type, "correspondence") == 0)
        snprintf(tc, sizeof tc, "1/%lld", (long long)g->rec.days * 86400);
    else
        snprintf(tc, sizeof tc, "-");
    /* Against the computer its side is named with its level, e.g. "schach (Club player)". */
    char names[2][96] = {"?", "?"}, elo[16] = "";
    if (g->computer >= 0) {
        svc_computer_name(g->level, r->lang, names[g->computer], sizeof names[0]);
        if (g->level && g->level->elo > 0)
            snprintf(elo, sizeof elo, "%d", g->level->elo);
    }
    ok = ok && pgn_set_tag(&pg, "Event", "schach online") && pgn_set_tag(&pg, "Site", "?") &&
         pgn_set_tag(&pg, "Date", date) && pgn_set_tag(&pg, "Round", "-") && pgn_set_tag(&pg, "White", names[WHITE]) &&
         pgn_set_tag(&pg, "Black", names[BLACK]) && pgn_set_tag(&pg, "TimeControl", tc) &&
         (!g->aborted || pgn_set_tag(&pg, "Termination", "unterminated"));
    if (ok && g->computer >= 0) {
        ok = pgn_set_tag(&pg, "ComputerLevel", g->rec.level) &&
             (!elo[0] || pgn_set_tag(&pg, g->computer == WHITE ? "WhiteElo" : "BlackElo", elo));
    }
    if (ok) {
        FILE *f = open_memstream(&text, &len);
        ok = f && pgn_write(f, &pg, r->lang);
        if (f && fclose(f) != 0)
            ok = false;
    }
    pgn_game_free(&pg);
    if (!ok || !text) {
        free(text);
        return reply_error(r, SVC_E_INTERNAL, NULL);
    }
    deliver(r->reply, r->ctx, 200, "text/plain; charset=utf-8", text, len, g->game.ply_count, false, false);
    free(text);
    return r->ticket;
}

static uint64_t action_list(Req *r) {
    json_t *games = json_array();
    const char *p = r->in->ids ? r->in->ids : "";
    int listed = 0;
    while (*p && listed < LIST_MAX) {
        size_t n = strcspn(p, ",");
        if (n == STORE_ID_LEN) {
            char id[STORE_ID_LEN + 1];
            memcpy(id, p, n);
            id[n] = '\0';
            SvcGame *g = find_game(r->svc, id);
            if (g) {
                json_array_append_new(games, svc_summary_json(g));
                listed++;
            }
        }
        p += n;
        if (*p == ',')
            p++;
    }
    send_json(r->reply, r->ctx, 200, json_pack("{s:o}", "games", games));
    return r->ticket;
}

static uint64_t action_recent(Req *r) {
    json_t *games = json_array();
    for (int i = 0; i < r->svc->recent_count; i++)
        json_array_append_new(games, svc_summary_json(r->svc->recent[i]));
    send_json(r->reply, r->ctx, 200, json_pack("{s:o}", "games", games));
    return r->ticket;
}

uint64_t service_handle(Service *svc, const ServiceRequest *req, ServiceReply reply, void *ctx) {
    Req r = {svc, req, req->lang, reply, ctx, ++svc->next_ticket};
    if (r.ticket == 0)
        r.ticket = ++svc->next_ticket;
    switch (req->action) {
        case ACTION_CREATE: return action_create(&r);
        case ACTION_LIST: return action_list(&r);
        case ACTION_RECENT: return action_recent(&r);
        case ACTION_LEVELS: send_json(reply, ctx, 200, svc_levels_json()); return r.ticket;
        default: break;
    }
    SvcGame *g = find_game(svc, req->game);
    if (!g)
        return reply_error(&r, SVC_E_NOT_FOUND, NULL);
    switch (req->action) {
        case ACTION_JOIN: return action_join(&r, g);
        case ACTION_STATE: {
            size_t len = 0;
            char *state = svc_state_text(g, svc_now(svc), &len);
            send_text(reply, ctx, 200, state, len, g->game.ply_count, false, false);
            return r.ticket;
        }
        case ACTION_MOVE: return action_move(&r, g);
        case ACTION_DRAW: return action_draw(&r, g);
        case ACTION_CLAIM: return action_claim(&r, g);
        case ACTION_RESIGN: return action_secret_only(&r, g, CH_RESIGN);
        case ACTION_ABORT: return action_secret_only(&r, g, CH_ABORT);
        case ACTION_PGN: return action_pgn(&r, g);
        default: return reply_error(&r, SVC_E_NO_PATH, NULL);
    }
}

void service_cancel(Service *svc, uint64_t ticket) {
    for (SvcPending *p = svc->pending; p; p = p->next)
        if (p->ticket == ticket && p->reply) {
            p->reply = NULL;
            return;
        }
}

/* ------------------------------------------------------------------------------------------------ */
/* Commits */

static void computer_poke(Service *svc, SvcGame *g);

static char *create_reply(const SvcPending *p, const char *state, size_t *len) {
    const SvcGame *g = p->game;
    json_t *j = json_pack("{s:s, s:s, s:s, s:o}", "id", g->rec.id, "color", p->color == WHITE ? "white" : "black",
                          "secret", p->secret, "invite", p->invite[0] ? json_string(p->invite) : json_null());
    if (j && p->secret2[0]) {
        const char *white = p->color == WHITE ? p->secret : p->secret2;
        const char *black = p->color == WHITE ? p->secret2 : p->secret;
        json_object_set_new(j, "secrets", json_pack("{s:s, s:s}", "white", white, "black", black));
    }
    return svc_json_with(j, "state", state, len);
}

/* Applies a committed change to the game in memory and answers it. */
static void commit_apply(Service *svc, SvcPending *p) {
    SvcGame *g = p->game;
    size_t len = 0;
    if (p->kind == CH_CREATE) {
        if (!register_game(svc, g)) {
            /* Stored but not shown until the next start; the requester hears of the failure. */
            send_json(p->reply, p->ctx, 500, svc_error_json(SVC_E_INTERNAL, p->lang, NULL));
            game_entry_free(g);
            return;
        }
        char *state = svc_state_text(g, svc_now(svc), NULL);
        char *reply = state ? create_reply(p, state, &len) : NULL;
        send_text(p->reply, p->ctx, 201, reply, len, g->game.ply_count, false, false);
        free(state);
        computer_poke(svc, g); /* it may have the first move */
        return;
    }
    bool was_over = is_over(g);
    Position before = g->game.pos;
    SchError err;
    err_clear(&err);
    change_run(g, p, &err); /* succeeded on the same game before, and nothing changed it since */
    if (p->kind == CH_MOVE)
        svc_moves_append(g, &before, p->move); /* room reserved when the move was accepted */
    g->rec = p->op.record;
    g->pending = NULL;
    timer_update(svc, g);
    if (!was_over && is_over(g))
        recent_insert(svc, g);

    /* One state text for the answer and every subscriber. */
    char *state = svc_state_text(g, svc_now(svc), NULL);
    json_t *j;
    if (p->kind == CH_JOIN)
        j = json_pack("{s:s, s:s}", "color", p->color == WHITE ? "white" : "black", "secret", p->secret);
    else if (p->claim_rejected)
        j = json_pack("{s:b}", "claim_rejected", true);
    else
        j = json_object();
    char *reply = state ? svc_json_with(j, "state", state, &len) : (json_decref(j), NULL);
    send_text(p->reply, p->ctx, 200, reply, len, g->game.ply_count, false, p->claim_rejected);
    broadcast(g, state);
    free(state);
    computer_poke(svc, g);
}

static void commit_failed(Service *svc, SvcPending *p) {
    if (p->kind == CH_CREATE) {
        game_entry_free(p->game);
    } else {
        p->game->pending = NULL;
        if (p->kind == CH_TIMEOUT)
            p->game->flag_retry_ms = svc_now(svc) + 1000;
    }
    send_json(p->reply, p->ctx, 500, svc_error_json(SVC_E_STORAGE, p->lang, NULL));
    if (p->kind != CH_CREATE)
        computer_poke(svc, p->game); /* its own change failed: it thinks again */
}

/* ------------------------------------------------------------------------------------------------ */
/* The computer player: searches on the workers, results played through the normal change path */

/* Hands the workers a search for the computer's move in g. */
static void computer_think(Service *svc, SvcGame *g) {
    ComputerJob *job = computer_job_new(&g->game);
    if (!job)
        return; /* out of memory: the next change of the game tries again */
    job->serial = ++svc->next_job;
    snprintf(job->game_id, sizeof job->game_id, "%s", g->rec.id);
    job->ply = g->game.ply_count;
    svc_computer_limits(g, &svc->computer_cfg, svc_now(svc), &job->limits);
    job->skill = g->level ? g->level->skill : 20;
    job->delay_ms = svc->computer_cfg.delay_ms;
    g->job = job->serial;
    computer_submit(svc->computer, job);
}

/* Starts the computer's own change in g (no requester waits for it); false when it cannot. */
static bool computer_change(Service *svc, SvcGame *g, ChangeKind kind, Move move, int claim, DrawAction draw) {
    if (kind == CH_MOVE && !svc_moves_reserve(g))
        return false;
    SvcPending *p = pending_new(NULL, g, kind, (Color)g->computer);
    if (!p)
        return false;
    p->by_computer = true;
    p->move = move;
    p->claim = claim;
    p->draw = draw;
    SchError err;
    if (!change_prepare(p, svc_now(svc), &err)) {
        free(p);
        return false;
    }
    pending_submit(svc, p);
    return true;
}

/* Plays the search result waiting in g (its turn, nothing pending): a move, a claim or an accepted
 * draw offer. */
static void computer_act(Service *svc, SvcGame *g) {
    g->has_result = false;
    int64_t now = svc_now(svc);
    if (time_is_up(g, now)) {
        /* Its flag fell while it thought: the game ends like any other. */
        if (now >= g->flag_retry_ms)
            timeout_start(svc, g, now);
        return;
    }
    int claim = -1;
    SvcComputerAct act = svc_computer_choose(g, g->result.best, g->result.score, &claim);
    ChangeKind kind = act == SVC_ACT_ACCEPT_DRAW ? CH_DRAW : act == SVC_ACT_CLAIM ? CH_CLAIM : CH_MOVE;
    if (kind == CH_CLAIM)
        claim = 0;
    if (!computer_change(svc, g, kind, g->result.best, claim, DRAW_ACCEPT) && kind != CH_MOVE)
        computer_change(svc, g, CH_MOVE, g->result.best, -1, DRAW_ACCEPT);
}

/* Whatever the computer has to do in g now: answer a draw offer made on the opponent's turn, play a
 * search result that waited, or start thinking. Called after every change of a game against it. */
static void computer_poke(Service *svc, SvcGame *g) {
    if (!svc->computer || g->computer < 0 || is_over(g)) {
        if (svc->computer && g->job) /* the game ended while it thought: stop wasting a worker */
            computer_cancel(svc->computer, g->job);
        g->job = 0;
        g->has_result = false;
        return;
    }
    if (g->pending)
        return; /* called again when that change comes back */
    Color turn = pos_turn(game_position(&g->game));
    if ((int)turn != g->computer) {
        if (g->game.draw_offer == !g->computer)
            computer_change(svc, g, CH_DRAW, MOVE_NONE, -1, svc_computer_accepts_offer(g) ? DRAW_ACCEPT : DRAW_DECLINE);
        return;
    }
    if (g->has_result && g->result_ply == g->game.ply_count) {
        computer_act(svc, g);
        return;
    }
    if (!g->job)
        computer_think(svc, g);
}

/* A search came back: kept for its game when the game still waits for it, else dropped. */
static void computer_result(Service *svc, const ComputerJob *job) {
    SvcGame *g = find_game(svc, job->game_id);
    if (!g || g->job != job->serial)
        return;
    g->job = 0;
    if (job->cancelled || is_over(g) || g->game.ply_count != job->ply || job->result.best == MOVE_NONE) {
        computer_poke(svc, g);
        return;
    }
    g->has_result = true;
    g->result_ply = job->ply;
    g->result = job->result;
    g->has_score = true;
    g->score = job->result.score;
    computer_poke(svc, g);
}

void service_on_wake(Service *svc) {
    ComputerJob *job = svc->computer ? computer_take_done(svc->computer) : NULL;
    while (job) {
        ComputerJob *next = job->next;
        computer_result(svc, job);
        computer_job_free(job);
        job = next;
    }
    StoreOp *op = store_take_done(svc->store);
    while (op) {
        StoreOp *next = op->next;
        SvcPending *p = op->user;
        pending_unlink(svc, p);
        if (op->ok)
            commit_apply(svc, p);
        else
            commit_failed(svc, p);
        free(p);
        op = next;
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Timers */

int64_t service_next_timer_ms(Service *svc) {
    int64_t now = svc_now(svc), best = -1;
    for (SvcGame *g = svc->timers; g; g = g->timer_next) {
        int64_t left;
        if (g->pending || !svc_expiry(g, now, &left))
            continue; /* a committing change reschedules when it comes back */
        if (left < g->flag_retry_ms - now)
            left = g->flag_retry_ms - now;
        if (left < 0)
            left = 0;
        if (best < 0 || left < best)
            best = left;
    }
    return best;
}

void service_on_timer(Service *svc) {
    int64_t now = svc_now(svc);
    for (SvcGame *g = svc->timers; g; g = g->timer_next)
        if (!g->pending && now >= g->flag_retry_ms && time_is_up(g, now))
            timeout_start(svc, g, now);
}

/* ------------------------------------------------------------------------------------------------ */
/* Start and end */

typedef struct LoadCtx {
    Service *svc;
    bool failed;
    char *err;
    size_t err_size;
} LoadCtx;

static Termination termination_parse(const char *name) {
    for (int t = TERM_NONE + 1; t < TERM_NB; t++)
        if (termination_name((Termination)t) && strcmp(termination_name((Termination)t), name) == 0)
            return (Termination)t;
    return TERM_NONE;
}

/* Endings the rules do not derive from the moves (claims, resignation, agreement, time, abort)
 * come from the record. */
static void restore_outcome(SvcGame *g) {
    const GameRecord *rec = &g->rec;
    if (!rec->result[0]) {
        g->game.draw_offer = rec->draw_offer;
        return;
    }
    if (strcmp(rec->termination, "aborted") == 0) {
        g->aborted = true;
        return;
    }
    if (game_over(&g->game))
        return;
    Outcome o = {RESULT_DRAW, termination_parse(rec->termination), WHITE};
    if (strcmp(rec->result, "1-0") == 0)
        o.result = RESULT_WHITE_WINS;
    else if (strcmp(rec->result, "0-1") == 0) {
        o.result = RESULT_BLACK_WINS;
        o.winner = BLACK;
    }
    g->game.outcome = o;
    g->game.draw_offer = -1;
}

static void load_game(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    LoadCtx *lc = ctx;
    if (lc->failed)
        return;
    SvcGame *g = game_new();
    if (!g) {
        game_entry_free(g);
        snprintf(lc->err, lc->err_size, "out of memory loading games");
        lc->failed = true;
        return;
    }
    g->rec = *record;
    g->level = svc_computer_level(record);
    g->computer = svc_computer_color(record);
    SchError err;
    err_clear(&err);
    if (record->start_fen[0] && !game_init_fen(&g->game, record->start_fen, &err)) {
        snprintf(lc->err, lc->err_size, "game %s: stored start position is invalid", record->id);
        lc->failed = true;
        game_entry_free(g);
        return;
    }
    for (int i = 0; i < count; i++) {
        Move m = uci_parse(game_position(&g->game), moves[i].uci, &err);
        Position before = g->game.pos;
        if (m == MOVE_NONE || !svc_moves_reserve(g) || !game_play(&g->game, m, &err)) {
            snprintf(lc->err, lc->err_size, "game %s: stored move %d (%s) cannot be played", record->id, i + 1,
                     moves[i].uci);
            lc->failed = true;
            game_entry_free(g);
            return;
        }
        svc_moves_append(g, &before, m);
    }
    restore_outcome(g);
    if (!register_game(lc->svc, g)) {
        snprintf(lc->err, lc->err_size, "out of memory loading games");
        lc->failed = true;
        game_entry_free(g);
        return;
    }
    timer_update(lc->svc, g);
    if (is_over(g))
        recent_insert(lc->svc, g);
}

Service *service_create(Store *store, ServiceClock now, void *clock_ctx, char *err, size_t err_size) {
    if (!secret_init()) {
        snprintf(err, err_size, "libsodium cannot be initialised");
        return NULL;
    }
    Service *svc = calloc(1, sizeof *svc);
    if (!svc) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    svc->store = store;
    svc->now_fn = now;
    svc->now_ctx = clock_ctx;
    LoadCtx lc = {svc, false, err, err_size};
    if (!store_load(store, load_game, &lc, err, err_size) || lc.failed) {
        service_free(svc);
        return NULL;
    }
    return svc;
}

bool service_computer_start(Service *svc, const ServiceComputerConfig *cfg, void (*wake)(void *), void *wake_ctx,
                            char *err, size_t err_size) {
    if (svc->computer) {
        snprintf(err, err_size, "the computer player runs already");
        return false;
    }
    ServiceComputerConfig none = {0};
    svc->computer_cfg = cfg ? *cfg : none;
    svc->computer = computer_start(svc->computer_cfg.threads, svc->computer_cfg.hash_mb, wake, wake_ctx, err, err_size);
    if (!svc->computer)
        return false;
    /* After a restart: whatever the computer was doing when the server stopped, it does again. */
    for (uint32_t i = 0; i < svc->game_count; i++)
        computer_poke(svc, svc->games[i]);
    return true;
}

void service_free(Service *svc) {
    if (!svc)
        return;
    /* The workers first: no search result may arrive while the rest goes away. */
    computer_free(svc->computer);
    svc->computer = NULL;
    /* The store still owns the operations in flight: wait until it hands every one back. */
    while (svc->pending) {
        StoreOp *op = store_take_done(svc->store);
        if (!op) {
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
            continue;
        }
        while (op) {
            StoreOp *next = op->next;
            SvcPending *p = op->user;
            pending_unlink(svc, p);
            if (p->kind == CH_CREATE)
                game_entry_free(p->game);
            free(p);
            op = next;
        }
    }
    for (uint32_t i = 0; i < svc->game_count; i++)
        game_entry_free(svc->games[i]);
    free(svc->games);
    free(svc->table);
    free(svc);
}

/* Placeholders until the cache lands: every game stays in memory. */
void service_set_cache_max(Service *svc, int games) { (void)svc, (void)games; }

void service_stats(const Service *svc, ServiceStats *out) {
    memset(out, 0, sizeof *out);
    out->games_in_memory = (int)svc->game_count;
    for (uint32_t i = 0; i < svc->game_count; i++) {
        out->games_in_play += !is_over(svc->games[i]);
        out->subscriptions += svc->games[i]->sub_count;
    }
}
