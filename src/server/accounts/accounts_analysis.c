/* The engine's analyses of finished games (docs/api.md "Analysis", issue 23), in the accounts room:
 * a request is checked and counted on the reads' lane (who asks: the session's account and the
 * address, each with its limit per day), and the analysis itself runs on workers of its own, a pool of
 * threads each with its engine and its connection, so it never slows the computer players (the
 * service's workers) or a request of this room. Any node may run an analysis: the store hands it to
 * one node at a time under a lease the node renews while it runs (AnalysisRow); a node that went down
 * leaves it to whichever node is asked about it next. The result is stored in both languages, so every
 * node answers it without the engine, and the game's watchers on the node that runs it hear of its
 * progress and its end over their WebSocket ({"type":"analysis",...}).
 *
 * The loop's side (handle, the answers, the progress relayed) and the workers' side (the checks on the
 * reads' lane, the runs on the analysis pool) are both here: one idea, one file. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts_internal.h"
#include "analysis.h"

/* A run holds its lease this long and renews it at least every ANALYSIS_RENEW_MS while it works. */
#define ANALYSIS_LEASE_MS 60000
#define ANALYSIS_RENEW_MS 2000
/* A queued analysis that no node took this long after it was asked for is taken by the node asked
 * about it next (its node went down before it ran). */
#define ANALYSIS_ORPHAN_MS 30000

/* What a worker thread tells the loop about its run. */
typedef struct ProgressSlot {
    char game[STORE_ID_LEN + 1]; /* "" while idle */
    int done, total;
    bool dirty;
} ProgressSlot;

struct AccAnalysis {
    Worker *worker;
    int threads;
    uint64_t nodes;
    int queue_max;
    char node[STORE_NODE_LEN + 1]; /* this process's name in the leases */
    StoreAccounts *db[ACCOUNTS_ANALYSIS_WORKERS_MAX];
    Analyser *engine[ACCOUNTS_ANALYSIS_WORKERS_MAX];
    pthread_mutex_t lock; /* the slots */
    ProgressSlot slot[ACCOUNTS_ANALYSIS_WORKERS_MAX];
    /* The loop's: the games submitted here and not back yet, oldest first (the place in the queue). */
    char (*local)[STORE_ID_LEN + 1];
    int nlocal;
    uint64_t runs_done; /* the loop's: runs this node finished (its result stored) */
    int lease_ms;       /* ANALYSIS_LEASE_MS; tests: SCHACH_ANALYSIS_LEASE_MS */
};

/* ------------------------------------------------------------------------------------ the loop */

static int local_index(const AccAnalysis *an, const char *game) {
    for (int i = 0; i < an->nlocal; i++)
        if (!strcmp(an->local[i], game))
            return i;
    return -1;
}

uint64_t accounts_analysis_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    AccAnalysis *an = a->analysis;
    if (!an || !a->service)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    /* A new analysis needs room in the queue: refused before anything is counted. */
    if (req->action == ACCOUNTS_ANALYSIS_POST && an->nlocal >= an->queue_max + an->threads &&
        local_index(an, req->seek ? req->seek : "") < 0)
        return accounts_answer_error(a, reply, ctx, ACC_E_BUSY, req->lang, NULL, 30);
    AccJob *j = accounts_job_new(a, req, reply, ctx);
    if (!j)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    snprintf(j->game_id, sizeof j->game_id, "%s", req->seek ? req->seek : "");
    snprintf(j->address, sizeof j->address, "%s", req->address ? req->address : "");
    if (!accounts_worker_submit(a, j)) {
        accounts_job_free(j);
        return accounts_answer_error(a, reply, ctx, ACC_E_BUSY, req->lang, NULL, 1);
    }
    return j->ticket;
}

/* {"type":"analysis","game":ID,"analysis":{"status","progress"}} to the game's watchers here. */
static void tell_watchers(Accounts *a, const char *game, const char *status, int done, int total) {
    json_t *o = json_pack("{s:s,s:s,s:{s:s,s:{s:i,s:i}}}", "type", "analysis", "game", game, "analysis", "status",
                          status, "progress", "done", done, "total", total);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (text)
        service_game_event(a->service, game, text, strlen(text));
    free(text);
    json_decref(o);
}

/* Starts a run of game here unless one is under way or queued here already; false when the queue is
 * full (the next request about it tries again). */
static bool submit_run(Accounts *a, const char *game) {
    AccAnalysis *an = a->analysis;
    if (local_index(an, game) >= 0)
        return true;
    if (an->nlocal >= an->queue_max + an->threads)
        return false;
    AccJob *j = calloc(1, sizeof *j);
    if (!j)
        return false;
    j->action = ACCOUNTS_ANALYSE;
    snprintf(j->game_id, sizeof j->game_id, "%s", game);
    if (!worker_submit(an->worker, j)) {
        accounts_job_free(j);
        return false;
    }
    snprintf(an->local[an->nlocal++], sizeof an->local[0], "%s", game);
    return true;
}

/* The answer to GET or POST: the row, and once done the result in the request's language (the stored
 * text holds both: {"en": ..., "de": ...}); the place in this node's queue while queued here. */
static char *view(const Accounts *a, const AccJob *j) {
    const AccAnalysis *an = a->analysis;
    const AnalysisRow *r = &j->analysis;
    json_t *o = json_pack("{s:s,s:s,s:{s:i,s:i}}", "game", r->game_id, "status", r->status, "progress", "done", r->done,
                          "total", r->total);
    if (!o)
        return NULL;
    int at = local_index(an, r->game_id);
    if (!strcmp(r->status, "queued") && at >= 0) {
        int place = at - an->threads + 1;
        json_object_set_new(o, "position", json_integer(place < 1 ? 1 : place));
    }
    if (!strcmp(r->status, "done") && j->analysis_result) {
        json_t *both = json_loads(j->analysis_result, 0, NULL);
        json_t *mine = json_object_get(both, j->lang == SCH_LANG_DE ? "de" : "en");
        if (json_is_object(mine))
            json_object_update(o, mine);
        json_decref(both);
    }
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

void accounts_analysis_metrics(const Accounts *a, AccountsAnalysisMetrics *out) {
    memset(out, 0, sizeof *out);
    if (!a || !a->analysis)
        return;
    out->done = a->analysis->runs_done;
    out->waiting = a->analysis->nlocal;
}

bool accounts_analysis_finish(Accounts *a, AccJob *j) {
    AccAnalysis *an = a->analysis;
    if (j->action == ACCOUNTS_ANALYSE) {
        an->runs_done += j->status == 200;
        int at = local_index(an, j->game_id);
        if (at >= 0)
            memmove(&an->local[at], &an->local[at + 1], (size_t)(an->nlocal - at - 1) * sizeof an->local[0]);
        an->nlocal -= at >= 0;
        if (j->status == 200)
            tell_watchers(a, j->game_id, "done", j->analysis.total, j->analysis.total);
        accounts_job_free(j);
        return true;
    }
    if (j->action != ACCOUNTS_ANALYSIS && j->action != ACCOUNTS_ANALYSIS_POST)
        return false;
    /* Run it here: asked for now, or left behind by a node that went down (its lease ended, or nobody
     * took it up). */
    if (j->analysis_run)
        submit_run(a, j->game_id);
    if (!j->cancelled && j->reply) {
        if (j->error != ACC_E_COUNT) {
            char *body = accounts_error_json(j->error, j->lang, NULL);
            AccountsAnswer ans = {.status = accounts_error_status(j->error),
                                  .body = body ? body : "{}",
                                  .len = body ? strlen(body) : 2,
                                  .retry_after = j->error == ACC_E_ANALYSIS_LIMIT ? 3600 : 0};
            j->reply(j->ctx, &ans);
            free(body);
        } else {
            char *body = view(a, j);
            AccountsAnswer ans = {
                .status = body ? j->status : 500, .body = body ? body : "{}", .len = body ? strlen(body) : 2};
            j->reply(j->ctx, &ans);
            free(body);
        }
    }
    accounts_job_free(j);
    return true;
}

void accounts_analysis_on_wake(Accounts *a) {
    AccAnalysis *an = a->analysis;
    if (!an || !a->service)
        return;
    ProgressSlot changed[ACCOUNTS_ANALYSIS_WORKERS_MAX];
    int n = 0;
    pthread_mutex_lock(&an->lock);
    for (int t = 0; t < an->threads; t++)
        if (an->slot[t].dirty && an->slot[t].game[0]) {
            changed[n++] = an->slot[t];
            an->slot[t].dirty = false;
        }
    pthread_mutex_unlock(&an->lock);
    for (int i = 0; i < n; i++)
        tell_watchers(a, changed[i].game, "running", changed[i].done, changed[i].total);
}

/* ---------------------------------------------------------------------- the reads' lane: requests */

static bool finished(const GameRecord *r) { return r->result[0] && strcmp(r->result, "*") != 0; }

typedef struct GameSeen {
    bool found;
    GameRecord rec;
    int moves;
} GameSeen;

static void seen(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    (void)moves;
    GameSeen *s = ctx;
    s->found = true;
    s->rec = *record;
    s->moves = count;
}

/* Whether a stored analysis that is not done waits for a node: queued long ago, or running under a
 * lease that ended. */
static bool orphaned(const AnalysisRow *r, int64_t now) {
    if (!strcmp(r->status, "queued"))
        return now - r->requested_ms >= ANALYSIS_ORPHAN_MS;
    return !strcmp(r->status, "running") && r->lease_until_ms < now;
}

void accounts_analysis_request(Accounts *a, AccJob *j) {
    char err[300] = "";
    int64_t now = accounts_now(a);
    if (j->action == ACCOUNTS_ANALYSIS) {
        StoreAccountResult r =
            j->db->vtbl->analysis_get(j->db, j->game_id, &j->analysis, &j->analysis_result, err, sizeof err);
        if (r != SA_OK) {
            accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_ANALYSIS, err);
            return;
        }
        j->analysis_run = orphaned(&j->analysis, now);
        j->status = 200;
        return;
    }
    AccountRow row;
    bool logged_in = accounts_session_account(a, j, &row, false);
    if (j->error != ACC_E_COUNT)
        return;
    GameSeen game = {0};
    int got = j->db->vtbl->game_get(j->db, j->game_id, seen, &game, err, sizeof err);
    if (got < 0) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    if (!game.found) {
        accounts_fail(j, ACC_E_NO_GAME, NULL);
        return;
    }
    if (!finished(&game.rec)) {
        accounts_fail(j, ACC_E_NOT_FINISHED, NULL);
        return;
    }
    char account[ACCOUNT_NAME_MAX + 3], address[LIMITS_ADDRESS_MAX + 3];
    snprintf(account, sizeof account, "a:%s", logged_in ? row.key : "");
    snprintf(address, sizeof address, "ip:%s", j->address);
    const char *requesters[2] = {logged_in ? account : NULL, a->cfg.address_limits ? address : NULL};
    const int per_day[2] = {a->cfg.analysis_per_day_account, a->cfg.analysis_per_day_address};
    StoreAccountResult r = j->db->vtbl->analysis_queue(j->db, j->game_id, game.moves + 1, requesters, per_day, now,
                                                       &j->analysis, err, sizeof err);
    if (r == SA_FAULT || r == SA_LIMITED || r == SA_NOT_FOUND) {
        accounts_fail(j, r == SA_LIMITED ? ACC_E_ANALYSIS_LIMIT : ACC_E_STORAGE, err);
        return;
    }
    if (r == SA_TAKEN) {
        /* Asked for before: as GET answers it (with the result once done). */
        r = j->db->vtbl->analysis_get(j->db, j->game_id, &j->analysis, &j->analysis_result, err, sizeof err);
        if (r != SA_OK) {
            accounts_fail(j, ACC_E_STORAGE, err);
            return;
        }
        j->analysis_run = orphaned(&j->analysis, now);
        j->status = 200;
        return;
    }
    j->analysis_run = true;
    j->status = 202;
}

/* ------------------------------------------------------------------------ the analysis pool: runs */

typedef struct RunCtx {
    Accounts *a;
    AccJob *j;
    int thread;
    int64_t renewed_ms;
} RunCtx;

static void set_slot(AccAnalysis *an, int thread, const char *game, int done, int total) {
    pthread_mutex_lock(&an->lock);
    snprintf(an->slot[thread].game, sizeof an->slot[thread].game, "%s", game);
    an->slot[thread].done = done;
    an->slot[thread].total = total;
    an->slot[thread].dirty = game[0] != '\0';
    pthread_mutex_unlock(&an->lock);
}

static void on_progress(int done, int total, void *ctx) {
    RunCtx *c = ctx;
    AccAnalysis *an = c->a->analysis;
    set_slot(an, c->thread, c->j->game_id, done, total);
    if (c->a->wake)
        c->a->wake(c->a->wake_ctx);
    int64_t now = accounts_now(c->a);
    if (now - c->renewed_ms < (an->lease_ms / 3 < ANALYSIS_RENEW_MS ? an->lease_ms / 3 : ANALYSIS_RENEW_MS) &&
        done < total)
        return;
    c->renewed_ms = now;
    char err[300] = "";
    StoreAccounts *db = an->db[c->thread];
    StoreAccountResult r =
        db->vtbl->analysis_progress(db, c->j->game_id, an->node, done, now, now + an->lease_ms, err, sizeof err);
    if (r == SA_NOT_FOUND) /* another node took it over: this run is no longer wanted */
        analyser_stop(an->engine[c->thread]);
    else if (r == SA_FAULT)
        log_event(LOG_WARN, "analysis_progress_failed", "game", c->j->game_id, "error", err, (char *)NULL);
}

/* The game as libschach plays it, from its stored start and moves (NULL with err when it cannot be). */
typedef struct GameBuild {
    SchGame *game;
    bool found, bad;
    GameRecord rec;    /* the stored game, for its PGN */
    StoredMove *moves; /* malloc'd copy */
    int count;
} GameBuild;

static void build(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    GameBuild *b = ctx;
    b->found = true;
    b->rec = *record;
    b->moves = count > 0 ? malloc(sizeof *moves * (size_t)count) : NULL;
    if (count > 0 && !b->moves) {
        b->bad = true;
        return;
    }
    if (count > 0)
        memcpy(b->moves, moves, sizeof *moves * (size_t)count);
    b->count = count;
    SchError e;
    sch_err_clear(&e);
    if (record->start_fen[0]) {
        if (!sch_game_init_fen(b->game, record->start_fen, &e)) {
            b->bad = true;
            return;
        }
        int number = sch_pos_chess960_number(&b->game->start);
        if (number != 518 && sch_pos_chess960_castles_like_standard(number))
            b->game->start.chess960 = b->game->pos.chess960 = 1;
    } else {
        sch_game_init(b->game);
    }
    for (int i = 0; i < count && !b->bad; i++) {
        SchMove m = sch_uci_parse(sch_game_position(b->game), moves[i].uci, &e);
        b->bad = m == SCH_MOVE_NONE || !sch_game_play(b->game, m, &e);
    }
}

/* The game's PGN as the site exports it (service_pgn_of_record), annotated with the analysis (the
 * evaluations, the judgements' NAGs and comments, the better lines): a new JSON string, or NULL. */
static json_t *annotated_pgn(const GameBuild *b, const AnalysisResult *res, SchLang lang) {
    char err[200];
    size_t len = 0;
    char *plain = service_pgn_of_record(&b->rec, b->moves, b->count, lang, &len, err, sizeof err);
    if (!plain)
        return NULL;
    SchError e;
    sch_err_clear(&e);
    SchPgnReader *r = sch_pgn_reader_from_buffer(plain, len, &e);
    SchPgnGame pg;
    sch_pgn_game_init(&pg);
    json_t *out = NULL;
    if (r && sch_pgn_read_game(r, &pg, &e) == 1 && analysis_annotate_pgn(&pg, res, lang)) {
        size_t n = 0;
        char *text = sch_pgn_write_string(&pg, lang, &n);
        out = text ? json_stringn(text, n) : NULL;
        sch_free(text);
    }
    sch_pgn_game_free(&pg);
    sch_pgn_reader_close(r);
    free(plain);
    return out;
}

/* {"en": ..., "de": ...}: the API's analysis in both languages, each with "pgn", the annotated PGN, as
 * one text (malloc'd), or NULL. */
static char *result_text(const GameBuild *b, const AnalysisResult *res) {
    json_t *o = json_object();
    char *text = NULL;
    bool ok = o != NULL;
    static const SchLang langs[2] = {SCH_LANG_EN, SCH_LANG_DE};
    for (int i = 0; i < 2 && ok; i++) {
        json_t *one = analysis_json(res, langs[i]);
        json_t *pgn = annotated_pgn(b, res, langs[i]);
        ok = one && pgn && json_object_set_new(one, "pgn", pgn) == 0 &&
             json_object_set_new(o, langs[i] == SCH_LANG_DE ? "de" : "en", one) == 0;
        if (!ok) {
            json_decref(one);
            if (!one)
                json_decref(pgn);
        }
    }
    if (ok)
        text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

static void run_hook(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)n;
    Accounts *a = owner;
    AccAnalysis *an = a->analysis;
    AccJob *j = jobs;
    StoreAccounts *db = an->db[thread];
    char err[300] = "";
    int64_t now = accounts_now(a);
    StoreAccountResult r = db->vtbl->analysis_claim(db, j->game_id, an->node, now, now + an->lease_ms, err, sizeof err);
    if (r != SA_OK) {
        if (r == SA_FAULT)
            log_event(LOG_WARN, "analysis_claim_failed", "game", j->game_id, "error", err, (char *)NULL);
        return; /* another node runs it, or it is done */
    }
    /* Tests only (SCHACH_ANALYSIS_HOLD): holds the run once claimed, before the engine starts, so a
     * test can fill the queue, or kill this node and see another take over, without counting on time. */
    accounts_test_hold(w, thread, "SCHACH_ANALYSIS_HOLD");
    if (worker_cancelled(w, thread))
        return;
    GameBuild b = {.game = malloc(sizeof(SchGame))};
    int got = b.game ? db->vtbl->game_get(db, j->game_id, build, &b, err, sizeof err) : -1;
    if (got != 1 || b.bad) {
        log_event(LOG_ERROR, "analysis_failed", "game", j->game_id, "error", got < 0 ? err : "the game cannot be read",
                  (char *)NULL);
        free(b.game);
        free(b.moves);
        return;
    }
    RunCtx c = {.a = a, .j = j, .thread = thread, .renewed_ms = now};
    AnalysisResult res;
    analyser_resume(an->engine[thread]);
    bool done = analyser_run(an->engine[thread], b.game, &res, on_progress, &c);
    set_slot(an, thread, "", 0, 0);
    char *text = done ? result_text(&b, &res) : NULL;
    free(b.game);
    free(b.moves);
    j->analysis.total = res.ply_count + 1;
    analysis_result_free(&res);
    if (!text)
        return; /* stopped (the node stops, or lost its lease) or out of memory: another run finishes it */
    r = db->vtbl->analysis_finish(db, j->game_id, an->node, text, accounts_now(a), err, sizeof err);
    free(text);
    if (r == SA_OK)
        j->status = 200;
    else if (r == SA_FAULT)
        log_event(LOG_WARN, "analysis_finish_failed", "game", j->game_id, "error", err, (char *)NULL);
}

/* The server stops (cancel_on_stop): the engine of a running analysis stops at once. */
static void cancel_hook(void *owner, void *job, WorkerState state, int thread) {
    (void)job;
    Accounts *a = owner;
    if (state == WORKER_RUNNING)
        analyser_stop(a->analysis->engine[thread]);
}

static void free_hook(void *job) { accounts_job_free(job); }

bool accounts_analysis_start(Accounts *a, Store *store, char *err, size_t err_size) {
    AccAnalysis *an = calloc(1, sizeof *an);
    if (!an) {
        snprintf(err, err_size, "%s", "out of memory");
        return false;
    }
    a->analysis = an;
    pthread_mutex_init(&an->lock, NULL);
    an->threads = a->cfg.analysis_workers;
    an->nodes = a->cfg.analysis_nodes;
    an->queue_max = a->cfg.analysis_queue;
    secret_random_id(an->node, 16);
    /* Tests only: a short lease, so that a node killed while it holds one is replaced soon. */
    const char *lease = getenv("SCHACH_ANALYSIS_LEASE_MS");
    an->lease_ms = lease && atoi(lease) >= 300 ? atoi(lease) : ANALYSIS_LEASE_MS;
    an->local = calloc((size_t)(an->queue_max + an->threads), sizeof *an->local);
    if (!an->local) {
        snprintf(err, err_size, "%s", "out of memory");
        return false;
    }
    AnalysisOptions opt;
    analysis_options_default(&opt);
    opt.nodes = an->nodes;
    for (int t = 0; t < an->threads; t++) {
        if (!(an->db[t] = store_accounts_open(store, err, err_size)))
            return false;
        if (!(an->engine[t] = analyser_new(&opt))) {
            snprintf(err, err_size, "%s", "cannot start the analysis engine (out of memory)");
            return false;
        }
    }
    WorkerConfig cfg = {.threads = an->threads,
                        .next_offset = offsetof(AccJob, next),
                        /* The bound is the loop's (nlocal: runs and queued ones together). A run handed
                         * over stays in the pool's queue until a thread takes it up, which on a busy
                         * machine may be after the next one is handed over: the pool must hold them all. */
                        .queue_max = an->queue_max + an->threads,
                        .hand_back = true,
                        .cancel_on_stop = true,
                        .done_to = a->lanes[LANE_READ].worker,
                        .owner = a,
                        .run = run_hook,
                        .cancel = cancel_hook,
                        .free_job = free_hook,
                        .wake = a->wake,
                        .wake_ctx = a->wake_ctx};
    char why[200];
    if (!(an->worker = worker_new(&cfg, why, sizeof why))) {
        snprintf(err, err_size, "cannot start the analysis threads: %s", why);
        return false;
    }
    return true;
}

void accounts_analysis_stop(Accounts *a) {
    AccAnalysis *an = a->analysis;
    if (!an)
        return;
    worker_free(an->worker);
    for (int t = 0; t < an->threads; t++) {
        analyser_free(an->engine[t]);
        store_accounts_close(an->db[t]);
    }
    pthread_mutex_destroy(&an->lock);
    free(an->local);
    free(an);
    a->analysis = NULL;
}
