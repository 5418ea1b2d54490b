/* The registry: which games live in memory, found by id (a chained hash) and by slot (a subscription id
 * names its game's slot, and slots are reused, so ids also carry a service-wide serial). Games in play
 * stay; a finished game stays while something holds it, then joins the cache of finished games (least
 * recently touched first out), and is read from the store again when it is asked for after that.
 * Every table here is sized by the games in memory (the slots: at the busiest moment so far), never by
 * the games ever played. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_state.h"

#define BUCKETS_MIN 64

SvcGame *svc_game_new(void) {
    SvcGame *g = calloc(1, sizeof *g);
    if (g) {
        sch_game_init(&g->game);
        /* The full dead-position analysis runs on a worker (service_rules.c). */
        sch_game_set_dead_mode(&g->game, SCH_GAME_DEAD_DEFER);
        g->computer = -1;
    }
    return g;
}

void svc_game_free(SvcGame *g) {
    if (!g)
        return;
    sch_game_free(&g->game);
    free(g->moves_text);
    free(g->subs);
    free(g);
}

bool svc_game_pinned(const SvcGame *g) {
    return !svc_is_over(g) || g->sub_count > 0 || g->pending || g->job || g->has_result || g->broadcasting > 0 ||
           g->claiming;
}

/* ------------------------------------------------------------------------------------------------ */
/* By id and by slot */

static uint32_t id_hash(const char *id) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

SvcGame *svc_find(const Service *svc, const char *id) {
    if (!id || !svc->bucket_count || strlen(id) != STORE_ID_LEN)
        return NULL;
    for (SvcGame *g = svc->buckets[id_hash(id) & (svc->bucket_count - 1)]; g; g = g->hash_next)
        if (strcmp(g->rec.id, id) == 0)
            return g;
    return NULL;
}

SvcGame *svc_slot_game(const Service *svc, uint32_t slot) { return slot < svc->slot_count ? svc->slots[slot] : NULL; }

/* Rehashes into count buckets (a power of two); false when out of memory (the old table stays). */
static bool buckets_resize(Service *svc, uint32_t count) {
    SvcGame **buckets = calloc(count, sizeof *buckets);
    if (!buckets)
        return false;
    for (uint32_t i = 0; i < svc->bucket_count; i++) {
        SvcGame *g = svc->buckets[i];
        while (g) {
            SvcGame *next = g->hash_next;
            uint32_t b = id_hash(g->rec.id) & (count - 1);
            g->hash_next = buckets[b];
            buckets[b] = g;
            g = next;
        }
    }
    free(svc->buckets);
    svc->buckets = buckets;
    svc->bucket_count = count;
    return true;
}

bool svc_register(Service *svc, SvcGame *g) {
    if (svc->game_count + 1 > svc->bucket_count &&
        !buckets_resize(svc, svc->bucket_count ? svc->bucket_count * 2 : BUCKETS_MIN))
        return false;
    uint32_t slot;
    if (svc->free_count) {
        slot = svc->free_slots[--svc->free_count];
    } else {
        if (svc->slot_count == svc->slot_capacity) {
            uint32_t cap = svc->slot_capacity ? svc->slot_capacity * 2 : BUCKETS_MIN;
            SvcGame **slots = realloc(svc->slots, cap * sizeof *slots);
            if (!slots)
                return false;
            svc->slots = slots;
            uint32_t *free_slots = realloc(svc->free_slots, cap * sizeof *free_slots);
            if (!free_slots)
                return false;
            svc->free_slots = free_slots;
            svc->slot_capacity = cap;
        }
        slot = svc->slot_count++;
    }
    g->slot = slot;
    svc->slots[slot] = g;
    uint32_t b = id_hash(g->rec.id) & (svc->bucket_count - 1);
    g->hash_next = svc->buckets[b];
    svc->buckets[b] = g;
    svc->game_count++;
    svc_unstarted_update(svc, g);
    return true;
}

static void lru_remove(Service *svc, SvcGame *g) {
    if (!g->in_lru)
        return;
    if (g->lru_prev)
        g->lru_prev->lru_next = g->lru_next;
    else
        svc->lru_head = g->lru_next;
    if (g->lru_next)
        g->lru_next->lru_prev = g->lru_prev;
    else
        svc->lru_tail = g->lru_prev;
    g->lru_prev = g->lru_next = NULL;
    g->in_lru = false;
    svc->lru_count--;
}

/* ------------------------------------------------------------------------------------------------ */
/* Games nobody began: two lists ordered by each game's last change, so the next to expire is a head */

static int unstarted_kind(const SvcGame *g) {
    return g->rec.time.type == TIME_LIVE ? SVC_UNSTARTED_LIVE : SVC_UNSTARTED_SLOW;
}

bool svc_unstarted(const SvcGame *g) { return !svc_is_over(g) && g->game.ply_count < 2; }

static void unstarted_remove(Service *svc, SvcGame *g) {
    if (!g->in_unstarted)
        return;
    int k = unstarted_kind(g);
    if (g->unstarted_prev)
        g->unstarted_prev->unstarted_next = g->unstarted_next;
    else
        svc->unstarted_head[k] = g->unstarted_next;
    if (g->unstarted_next)
        g->unstarted_next->unstarted_prev = g->unstarted_prev;
    else
        svc->unstarted_tail[k] = g->unstarted_prev;
    g->unstarted_prev = g->unstarted_next = NULL;
    g->in_unstarted = false;
}

/* Puts g into its list at its place (from the tail: a change is almost always the newest). */
static void unstarted_insert(Service *svc, SvcGame *g) {
    int k = unstarted_kind(g);
    g->unstarted_since = g->rec.updated_ms;
    SvcGame *after = svc->unstarted_tail[k];
    while (after && after->unstarted_since > g->unstarted_since)
        after = after->unstarted_prev;
    g->unstarted_prev = after;
    g->unstarted_next = after ? after->unstarted_next : svc->unstarted_head[k];
    if (g->unstarted_next)
        g->unstarted_next->unstarted_prev = g;
    else
        svc->unstarted_tail[k] = g;
    if (after)
        after->unstarted_next = g;
    else
        svc->unstarted_head[k] = g;
    g->in_unstarted = true;
}

void svc_unstarted_update(Service *svc, SvcGame *g) {
    if (svc->loading)
        return; /* svc_registry_load sorts them in once all are read */
    bool want = svc_unstarted(g);
    if (want && g->in_unstarted && g->unstarted_since == g->rec.updated_ms)
        return;
    unstarted_remove(svc, g);
    if (want)
        unstarted_insert(svc, g);
}

static int by_last_change(const void *a, const void *b) {
    int64_t x = (*(SvcGame *const *)a)->rec.updated_ms, y = (*(SvcGame *const *)b)->rec.updated_ms;
    return (x > y) - (x < y);
}

/* After the load: every game in play nobody began, oldest change first, appended to its list. */
static bool unstarted_load(Service *svc) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < svc->slot_count; i++)
        n += svc->slots[i] && svc_unstarted(svc->slots[i]);
    SvcGame **games = n ? malloc(n * sizeof *games) : NULL;
    if (n && !games)
        return false;
    n = 0;
    for (uint32_t i = 0; i < svc->slot_count; i++)
        if (svc->slots[i] && svc_unstarted(svc->slots[i]))
            games[n++] = svc->slots[i];
    if (n) /* qsort's array must not be NULL, even for no elements */
        qsort(games, n, sizeof *games, by_last_change);
    for (uint32_t i = 0; i < n; i++)
        unstarted_insert(svc, games[i]); /* each at the tail */
    free(games);
    return true;
}

/* Takes g out of memory and frees it: only finished games nothing holds. */
static void unregister(Service *svc, SvcGame *g) {
    lru_remove(svc, g);
    unstarted_remove(svc, g);
    SvcGame **link = &svc->buckets[id_hash(g->rec.id) & (svc->bucket_count - 1)];
    while (*link != g)
        link = &(*link)->hash_next;
    *link = g->hash_next;
    svc->slots[g->slot] = NULL;
    svc->free_slots[svc->free_count++] = g->slot; /* room: free_slots has the slots' capacity */
    svc->game_count--;
    svc_game_free(g);
    /* After a crowd of games in play has gone, the table shrinks with them. */
    if (svc->bucket_count > BUCKETS_MIN && svc->game_count * 4 < svc->bucket_count)
        buckets_resize(svc, svc->bucket_count / 2);
}

/* ------------------------------------------------------------------------------------------------ */
/* The cache */

void svc_touch(Service *svc, SvcGame *g) {
    if (svc_game_pinned(g)) {
        lru_remove(svc, g);
        return;
    }
    if (g->forget) { /* an expired game: first out, when the outermost call ends */
        if (svc->lru_tail == g)
            return;
        lru_remove(svc, g);
        g->lru_next = NULL;
        g->lru_prev = svc->lru_tail;
        if (svc->lru_tail)
            svc->lru_tail->lru_next = g;
        else
            svc->lru_head = g;
        svc->lru_tail = g;
        g->in_lru = true;
        svc->lru_count++;
        return;
    }
    if (svc->lru_head == g)
        return;
    lru_remove(svc, g);
    g->lru_prev = NULL;
    g->lru_next = svc->lru_head;
    if (svc->lru_head)
        svc->lru_head->lru_prev = g;
    else
        svc->lru_tail = g;
    svc->lru_head = g;
    g->in_lru = true;
    svc->lru_count++;
}

void svc_enter(Service *svc) { svc->depth++; }

void svc_leave(Service *svc) {
    if (--svc->depth > 0)
        return;
    while (svc->lru_count > svc->cache_max || (svc->lru_tail && svc->lru_tail->forget)) {
        SvcGame *g = svc->lru_tail;
        if (svc_game_pinned(g)) { /* held again since it was touched: not the cache's any more */
            lru_remove(svc, g);
            continue;
        }
        unregister(svc, g);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Games from the store */

static SchTermination termination_parse(const char *name) {
    for (int t = SCH_TERM_NONE + 1; t < SCH_TERM_NB; t++)
        if (sch_termination_name((SchTermination)t) && strcmp(sch_termination_name((SchTermination)t), name) == 0)
            return (SchTermination)t;
    return SCH_TERM_NONE;
}

/* The SchWinReason a stored reason names (SCH_WIN_REASON_NONE for "" and for a name this program does not
 * know). */
static int reason_parse(const char *name) {
    for (int r = SCH_WIN_REASON_NONE + 1; r < SCH_WIN_REASON_NB; r++)
        if (sch_win_reason_name((SchWinReason)r) && strcmp(sch_win_reason_name((SchWinReason)r), name) == 0)
            return r;
    return SCH_WIN_REASON_NONE;
}

/* Endings the rules do not derive from the moves (claims, resignation, agreement, time, abort, and
 * the dead positions and 6.9 draws the workers decided, with their reasons) come from the record. */
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
    if (sch_game_over(&g->game))
        return;
    SchOutcome o = {SCH_RESULT_DRAW, termination_parse(rec->termination), SCH_WHITE, reason_parse(rec->reason)};
    if (strcmp(rec->result, "1-0") == 0)
        o.result = SCH_RESULT_WHITE_WINS;
    else if (strcmp(rec->result, "0-1") == 0) {
        o.result = SCH_RESULT_BLACK_WINS;
        o.winner = SCH_BLACK;
    }
    g->game.outcome = o;
    g->game.draw_offer = -1;
}

bool svc_game_start(SvcGame *g, const char *fen, SchGameDeadMode mode, SchError *err) {
    if (!sch_game_init_fen_mode(&g->game, fen, mode, err))
        return false;
    /* A Chess960 start array is a Chess960 game also where its castling looks standard (king on e1,
     * rooks on a1 and h1; the rules agree there, and the FEN alone does not say Chess960): so it is
     * named, written (UCI king takes rook, the PGN's Variant) and read back the same. Every other start
     * array's FEN says Chess960 by itself. The standard array (518) stays a standard game. */
    int number = sch_pos_chess960_number(&g->game.start);
    if (number != 518 && sch_pos_chess960_castles_like_standard(number))
        g->game.start.chess960 = g->game.pos.chess960 = 1;
    return true;
}

Variant svc_game_variant(const SvcGame *g) { return g->game.start.chess960 ? VARIANT_CHESS960 : VARIANT_STANDARD; }

SvcGame *svc_game_build(const GameRecord *record, const StoredMove *moves, int count, char *err, size_t err_size) {
    SvcGame *g = svc_game_new();
    if (!g) {
        snprintf(err, err_size, "out of memory reading games");
        return NULL;
    }
    g->rec = *record;
    g->level = svc_computer_level(record);
    g->computer = svc_computer_color(record);
    SchError e;
    sch_err_clear(&e);
    /* Stored moves are replayed as they were played: a game an older server let go on past a dead
     * position reads back whole (svc_rules_loaded then ends it). */
    sch_game_set_dead_mode(&g->game, SCH_GAME_DEAD_MATERIAL_ONLY);
    if (record->start_fen[0] && !svc_game_start(g, record->start_fen, SCH_GAME_DEAD_MATERIAL_ONLY, &e)) {
        snprintf(err, err_size, "game %s: stored start position is invalid", record->id);
        svc_game_free(g);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        SchMove m = sch_uci_parse(sch_game_position(&g->game), moves[i].uci, &e);
        SchPosition before = g->game.pos;
        if (m == SCH_MOVE_NONE || !svc_moves_reserve(g) || !sch_game_play(&g->game, m, &e)) {
            snprintf(err, err_size, "game %s: stored move %d (%s) cannot be played", record->id, i + 1, moves[i].uci);
            svc_game_free(g);
            return NULL;
        }
        svc_moves_append(g, &before, m, moves[i].at_ms);
    }
    restore_outcome(g);
    svc_rules_loaded(g);
    return g;
}

typedef struct ReadCtx {
    SvcGame *game; /* get(): the game read */
    Service *svc;  /* load(): where games in play go */
    bool failed;
    char err[256];
} ReadCtx;

/* The game of one stored record, built for a read; NULL when an earlier record of the read failed or
 * this one cannot be replayed (then rc->failed, with the reason in rc->err). */
static SvcGame *read_build(ReadCtx *rc, const GameRecord *record, const StoredMove *moves, int count) {
    if (rc->failed)
        return NULL;
    SvcGame *g = svc_game_build(record, moves, count, rc->err, sizeof rc->err);
    rc->failed = !g;
    return g;
}

static void read_one(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    ReadCtx *rc = ctx;
    if (!rc->game)
        rc->game = read_build(rc, record, moves, count);
}

SvcGame *svc_fetch(Service *svc, const char *id, SvcError *err) {
    SvcGame *g = svc_find(svc, id);
    if (g && svc_game_stale(g) && !g->pending && !svc_refresh(svc, g)) {
        *err = SVC_E_READ; /* another node changed it, and the store cannot be read now */
        return NULL;
    }
    if (g)
        return g;
    *err = SVC_E_NOT_FOUND;
    if (!id || strlen(id) != STORE_ID_LEN)
        return NULL;
    ReadCtx rc = {0};
    char store_err[256];
    int found = store_get(svc->store, id, read_one, &rc, store_err, sizeof store_err);
    if (found < 0 || rc.failed) {
        /* The store logs its own faults; a game that cannot be replayed is a fault of the data. */
        *err = found < 0 ? SVC_E_READ : SVC_E_INTERNAL;
        svc_game_free(rc.game);
        return NULL;
    }
    if (found == 0 || !rc.game)
        return NULL;
    g = rc.game;
    g->store_rev = g->rec.rev;
    if (!svc_register(svc, g)) {
        svc_game_free(g);
        *err = SVC_E_INTERNAL;
        return NULL;
    }
    /* A game in play is in memory from the start; one found here was stored while memory ran out. */
    if (!svc_is_over(g)) {
        svc_timer_update(svc, g);
        svc_rules_poke(svc, g);
        svc_computer_poke(svc, g);
    }
    return g;
}

/* ------------------------------------------------------------------------------------------------ */
/* The recently finished games */

/* An aborted game never began (result "*"): it is no finished game, so the list leaves it out. */
static bool recent_wanted(const json_t *summary) {
    const char *term = json_string_value(json_object_get(json_object_get(summary, "outcome"), "termination"));
    return !term || strcmp(term, "aborted") != 0;
}

static void recent_put(Service *svc, json_t *summary, int64_t updated_ms) {
    if (summary && !recent_wanted(summary)) {
        json_decref(summary);
        return;
    }
    int at = 0;
    while (at < svc->recent_count && svc->recent[at].updated_ms > updated_ms)
        at++;
    if (at >= SVC_RECENT_MAX || !summary) {
        json_decref(summary);
        return;
    }
    if (svc->recent_count == SVC_RECENT_MAX)
        json_decref(svc->recent[--svc->recent_count].summary);
    memmove(&svc->recent[at + 1], &svc->recent[at], (size_t)(svc->recent_count - at) * sizeof svc->recent[0]);
    svc->recent[at] = (SvcRecent){summary, updated_ms};
    svc->recent_count++;
}

void svc_recent_insert(Service *svc, const SvcGame *g) { recent_put(svc, svc_summary_json(g), g->rec.updated_ms); }

static void load_recent(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    ReadCtx *rc = ctx;
    SvcGame *g = read_build(rc, record, moves, count);
    if (!g)
        return;
    recent_put(rc->svc, svc_summary_json(g), record->updated_ms);
    svc_game_free(g); /* the summary is all the list needs */
}

/* ------------------------------------------------------------------------------------------------ */
/* Timers, start and end */

void svc_timer_update(Service *svc, SvcGame *g) {
    /* A finished game is never in the list: the cache may free it (unregister does not look here). */
    if (svc_is_over(g))
        g->claim_retry_ms = 0;
    bool running = svc_clock_running(g) || g->claim_retry_ms > 0;
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
    svc_unstarted_update(svc, g);
}

static void load_in_play(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    ReadCtx *rc = ctx;
    SvcGame *g = read_build(rc, record, moves, count);
    if (!g)
        return;
    if (!svc_register(rc->svc, g)) {
        snprintf(rc->err, sizeof rc->err, "out of memory loading games");
        svc_game_free(g);
        rc->failed = true;
        return;
    }
    svc_timer_update(rc->svc, g);
    svc_touch(rc->svc, g); /* a record that says "in play" but whose moves ended it: cached */
}

bool svc_registry_load(Service *svc, char *err, size_t err_size) {
    ReadCtx rc = {.svc = svc};
    svc->loading = true;
    bool loaded = store_load(svc->store, load_in_play, &rc, err, err_size);
    svc->loading = false;
    if (!loaded)
        return false;
    if (!rc.failed && !unstarted_load(svc)) {
        snprintf(err, err_size, "out of memory loading games");
        return false;
    }
    if (!rc.failed && store_recent(svc->store, SVC_RECENT_MAX, load_recent, &rc, err, err_size) < 0)
        return false;
    if (rc.failed) {
        snprintf(err, err_size, "%s", rc.err);
        return false;
    }
    return true;
}

void svc_registry_free(Service *svc) {
    for (uint32_t i = 0; i < svc->slot_count; i++)
        svc_game_free(svc->slots[i]);
    for (int i = 0; i < svc->recent_count; i++)
        json_decref(svc->recent[i].summary);
    free(svc->slots);
    free(svc->free_slots);
    free(svc->buckets);
}
