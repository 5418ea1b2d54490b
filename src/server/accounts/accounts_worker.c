/* The accounts' worker thread (a worker, worker.h): password hashes and the store's accounts
 * connection, one request at a time (accounts.h says why). */
#include <jansson.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "accounts_internal.h"
#include "base/base.h"

void accounts_set_body(AccJob *j, int status, json_t *o) {
    j->status = status;
    j->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!j->body)
        j->error = ACC_E_INTERNAL;
}

void accounts_fail(AccJob *j, AccError e, const char *why) {
    j->error = e;
    if (e == ACC_E_STORAGE && why)
        log_event(LOG_ERROR, "accounts_storage", "error", why, (char *)NULL);
}

/* A new session for key: the token goes into the job's cookie, only its hash into the store. */
static bool new_session(Accounts *a, AccJob *j, const char *key) {
    char token[ACC_TOKEN_LEN + 1], err[300] = "";
    unsigned char hash[STORE_HASH_LEN];
    secret_new(token, hash);
    int64_t now = accounts_now(a);
    StoreAccountResult r = j->db->vtbl->session_create(
        j->db, key, hash, now, now + (int64_t)ACCOUNTS_SESSION_DAYS * 86400000, err, sizeof err);
    if (r != SA_OK) {
        sodium_memzero(token, sizeof token);
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_BAD_LOGIN, err);
        return false;
    }
    accounts_set_cookie(token, j->secure, j->cookie, sizeof j->cookie);
    sodium_memzero(token, sizeof token);
    return true;
}

static void signup(Accounts *a, AccJob *j) {
    AccountRow row = {.created_ms = accounts_now(a)};
    char err[300] = "";
    if (!account_name_key(j->username, row.key)) {
        accounts_fail(j, ACC_E_BAD_NAME, NULL);
        return;
    }
    snprintf(row.name, sizeof row.name, "%s", j->username);
    char hash[ACCOUNT_HASH_LEN];
    if (!account_password_hash(j->password, j->password_len, a->cfg.hash_cost, hash)) {
        accounts_fail(j, ACC_E_INTERNAL, NULL);
        return;
    }
    snprintf(row.password_hash, sizeof row.password_hash, "%s", hash);
    StoreAccountResult r = j->db->vtbl->create(j->db, &row, err, sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_TAKEN ? ACC_E_TAKEN : r == SA_CONFUSABLE ? ACC_E_CONFUSABLE : ACC_E_STORAGE, err);
        return;
    }
    if (new_session(a, j, row.key))
        accounts_set_body(j, 201, json_pack("{s:s}", "username", row.name));
}

static void login(Accounts *a, AccJob *j) {
    AccountRow row;
    char err[300] = "";
    StoreAccountResult r = j->key[0] ? j->db->vtbl->get(j->db, j->key, &row, err, sizeof err) : SA_NOT_FOUND;
    if (r == SA_FAULT) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    /* An unknown name costs the same hash as a known one: the time does not tell which names exist. */
    const char *hash = r == SA_OK ? row.password_hash : a->dummy_hash;
    bool match = account_password_verify(hash, j->password, j->password_len) && r == SA_OK && !j->never_matches;
    if (!match) {
        accounts_fail(j, ACC_E_BAD_LOGIN, NULL);
        return;
    }
    if (new_session(a, j, row.key))
        accounts_set_body(j, 200, json_pack("{s:s}", "username", row.name));
}

/* "Log out everywhere" (DELETE /api/sessions): every session of the account ends, this one too, and
 * every seat secret of its games handed out before stops working (store_accounts.h revoke_access). */
static void logout_all(Accounts *a, AccJob *j) {
    AccountRow row;
    if (!accounts_session_account(a, j, &row, true))
        return;
    char err[300] = "";
    int ended = 0;
    StoreAccountResult r = j->db->vtbl->revoke_access(j->db, row.key, NULL, NULL, &ended, err, sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NOT_LOGGED_IN, err);
        return;
    }
    snprintf(j->revoked, sizeof j->revoked, "%s", row.name);
    accounts_clear_cookie(j->secure, j->cookie, sizeof j->cookie);
    accounts_set_body(j, 200, json_pack("{s:i}", "ended", ended));
}

static void logout(Accounts *a, AccJob *j) {
    (void)a;
    char err[300] = "";
    StoreAccountResult r = j->db->vtbl->session_delete(j->db, j->session_hash, err, sizeof err);
    if (r == SA_FAULT) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    accounts_clear_cookie(j->secure, j->cookie, sizeof j->cookie);
    accounts_set_body(j, 200, json_object());
}

/* The session's account; false (and, when required, the job's error set) when there is none. */
bool accounts_session_account(Accounts *a, AccJob *j, AccountRow *row, bool required) {
    char err[300] = "";
    if (!j->has_session) {
        if (required)
            accounts_fail(j, ACC_E_NOT_LOGGED_IN, NULL);
        return false;
    }
    StoreAccountResult r = j->db->vtbl->session_get(j->db, j->session_hash, accounts_now(a), row, err, sizeof err);
    if (r == SA_OK)
        return true;
    if (r == SA_FAULT || required)
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NOT_LOGGED_IN, err);
    if (r == SA_NOT_FOUND && required)
        accounts_clear_cookie(j->secure, j->cookie, sizeof j->cookie);
    return false;
}

/* {"blitz": {"rating", "rd", "games", "provisional"}, ...}: the categories the account has played. */
json_t *accounts_ratings_json(StoreAccounts *db, const char *key, char *err, size_t err_size) {
    RatingRow rows[RATING_COUNT];
    bool have[RATING_COUNT];
    if (db->vtbl->ratings_of(db, key, rows, have, err, err_size) != SA_OK)
        return NULL;
    json_t *o = json_object();
    for (int c = 0; c < RATING_COUNT; c++)
        if (have[c])
            json_object_set_new(o, rating_category_name(c),
                                json_pack("{s:i,s:i,s:i,s:b}", "rating", (int)(rows[c].g.rating + 0.5), "rd",
                                          (int)(rows[c].g.rd + 0.5), "games", rows[c].games, "provisional",
                                          glicko2_provisional(&rows[c].g)));
    return o;
}

/* Who plays the other side of a game in play, for "your turn" (issue 24): {"name", "rating",
 * "provisional", "level"}: an account's name, and its rating (the one a rated game began with, else its
 * current one in the game's category; null when it has none) with whether that is (or was as the rated
 * game began) provisional (null without a rating); the computer's level; null for an anonymous opponent
 * or nobody yet. */
static json_t *opponent_json(StoreAccounts *db, const PlayingGame *g) {
    if (g->level[0])
        return json_pack("{s:n,s:n,s:n,s:s}", "name", "rating", "provisional", "level", g->level);
    if (!g->opponent[0])
        return json_null();
    json_t *rating = json_null(), *provisional = json_null();
    char key[ACCOUNT_NAME_MAX + 1], err[300];
    RatingRow rows[RATING_COUNT];
    bool have[RATING_COUNT];
    int category = rating_category(&g->time, VARIANT_STANDARD);
    if (g->rated && g->opponent_rating > 0) {
        rating = json_integer(g->opponent_rating);
        provisional = json_boolean(g->opponent_provisional);
    } else if (category >= 0 && category < RATING_COUNT && account_name_key(g->opponent, key) &&
               db->vtbl->ratings_of(db, key, rows, have, err, sizeof err) == SA_OK && have[category]) {
        rating = json_integer((int)(rows[category].g.rating + 0.5));
        provisional = json_boolean(glicko2_provisional(&rows[category].g));
    }
    return json_pack("{s:s,s:o,s:o,s:n}", "name", g->opponent, "rating", rating, "provisional", provisional, "level");
}

static void me(Accounts *a, AccJob *j) {
    AccountRow row;
    if (!accounts_session_account(a, j, &row, false)) {
        if (j->error != ACC_E_COUNT)
            return; /* the store failed */
        /* Nobody (the session ended or never was): 200, so that an anonymous page logs no error; the
         * browser's stale cookie is cleared. */
        accounts_clear_cookie(j->secure, j->cookie, sizeof j->cookie);
        accounts_set_body(j, 200, json_pack("{s:n}", "username"));
        return;
    }
    char err[300] = "";
    json_t *ratings = accounts_ratings_json(j->db, row.key, err, sizeof err);
    if (!ratings) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    /* The games in play, each with the secret of the account's side: any browser of the account can go
     * on playing them. */
    enum { PLAYING_MAX = 100 };
    PlayingGame *games = malloc(sizeof *games * PLAYING_MAX);
    int n = games ? j->db->vtbl->playing(j->db, row.name, games, PLAYING_MAX, err, sizeof err) : -1;
    if (n < 0) {
        free(games);
        json_decref(ratings);
        accounts_fail(j, games ? ACC_E_STORAGE : ACC_E_INTERNAL, err);
        return;
    }
    json_t *playing = json_array();
    for (int i = 0; i < n; i++) {
        char secret[SECRET_LEN + 1];
        if (!accounts_side_secret(a, j, games[i].id, games[i].color, games[i].seat_epoch, secret)) {
            free(games);
            json_decref(ratings);
            json_decref(playing);
            return;
        }
        /* Whose turn: White's at the standard start, else the start position's side, then every ply. */
        const char *side = games[i].start_fen[0] ? strchr(games[i].start_fen, ' ') : NULL;
        int first = side && side[1] == 'b' ? 1 : 0;
        bool my_turn = (first + games[i].moves) % 2 == games[i].color;
        json_array_append_new(playing, json_pack("{s:s,s:s,s:s,s:b,s:s,s:o}", "id", games[i].id, "color",
                                                 games[i].color == 0 ? "white" : "black", "secret", secret, "my_turn",
                                                 my_turn, "time", time_type_name(games[i].time.type), "opponent",
                                                 opponent_json(j->db, &games[i])));
        sodium_memzero(secret, sizeof secret);
    }
    free(games);
    accounts_set_body(j, 200, json_pack("{s:s,s:o,s:o}", "username", row.name, "ratings", ratings, "playing", playing));
}

static void change_password(Accounts *a, AccJob *j) {
    AccountRow row;
    if (!accounts_session_account(a, j, &row, true))
        return;
    if (j->never_matches || !account_password_verify(row.password_hash, j->password, j->password_len)) {
        accounts_fail(j, ACC_E_BAD_PASSWORD_NOW, NULL);
        return;
    }
    AccountCheck c = account_password_check(j->new_password, j->new_password_len, row.name);
    if (c != ACCOUNT_OK) {
        j->why = c;
        accounts_fail(j, accounts_password_error(c), NULL);
        return;
    }
    char hash[ACCOUNT_HASH_LEN], err[300] = "";
    if (!account_password_hash(j->new_password, j->new_password_len, a->cfg.hash_cost, hash)) {
        accounts_fail(j, ACC_E_INTERNAL, NULL);
        return;
    }
    /* Every other session ends, and every seat secret handed out before: whoever knew the old password
     * is logged out everywhere else and plays none of the account's games any more. */
    StoreAccountResult r = j->db->vtbl->revoke_access(j->db, row.key, hash, j->session_hash, NULL, err, sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NOT_LOGGED_IN, err);
        return;
    }
    snprintf(j->revoked, sizeof j->revoked, "%s", row.name);
    accounts_set_body(j, 200, json_pack("{s:s}", "username", row.name));
}

/* ---- the secrets of accounts' sides ---- */

bool accounts_side_secret(Accounts *a, AccJob *j, const char *game_id, int color, int64_t epoch,
                          char out[SECRET_LEN + 1]) {
    if (!a->have_site_key) {
        char err[300] = "";
        if (j->db->vtbl->site_key(j->db, a->site_key, err, sizeof err) != SA_OK) {
            accounts_fail(j, ACC_E_STORAGE, err);
            return false;
        }
        a->have_site_key = true;
    }
    secret_side(a->site_key, game_id, color, epoch, out);
    return true;
}

/* ---- ratings ---- */

static bool apply_result(void *ctx, RatingRow *white, RatingRow *black) {
    const AccJob *j = ctx;
    return rating_apply(white, black, j->rate.result, j->rate.updated_ms);
}

/* Rates the job's game (once: a game rated already changes nothing). */
static void rate(Accounts *a, AccJob *j) {
    (void)a;
    char keys[2][ACCOUNT_NAME_MAX + 1], err[300] = "";
    /* A rated game is a lobby game: standard chess, or Chess960 (its own category). */
    const char *category = rating_category_name(rating_category(&j->rate.time, j->rate.variant));
    if (!category || !account_name_key(j->rate.account[0], keys[0]) || !account_name_key(j->rate.account[1], keys[1]))
        return;
    RatingRow before[2], after[2];
    StoreAccountResult r = j->db->vtbl->rate_game(j->db, j->rate.id, category, keys[0], keys[1], j->rate.updated_ms,
                                                  apply_result, j, before, after, &j->rated_rev, err, sizeof err);
    if (r == SA_FAULT)
        log_event(LOG_ERROR, "rating_failed", "game", j->rate.id, "error", err, (char *)NULL);
    if (r != SA_OK) {
        j->rated_rev = 0;
        return;
    }
    for (int c = 0; c < 2; c++) {
        j->rated_before[c] = (int)(before[c].g.rating + 0.5);
        j->rated_diff[c] = (int)(after[c].g.rating + 0.5) - j->rated_before[c];
    }
}

#define SWEEP_EVERY_MS  60000
#define SWEEP_WINDOW_MS (7LL * 86400000)
#define SWEEP_BATCH     32

/* Rated games that ended without being rated (their node went down first): rated here, each handed
 * back like a rate job so the loop shows it. */
static void sweep(Accounts *a, Worker *w) {
    a->swept_ms = accounts_now(a);
    UnratedGame found[SWEEP_BATCH];
    char err[300] = "";
    StoreAccounts *db = a->lanes[LANE_READ].db;
    int n = db->vtbl->unrated(db, a->swept_ms - SWEEP_WINDOW_MS, found, SWEEP_BATCH, err, sizeof err);
    AccJob *done = NULL, **tail = &done;
    for (int i = 0; i < n; i++) {
        AccJob *j = calloc(1, sizeof *j);
        if (!j)
            break;
        j->db = db;
        j->action = ACCOUNTS_RATE;
        j->error = ACC_E_COUNT;
        j->rate = found[i];
        rate(a, j);
        *tail = j;
        tail = &j->next;
    }
    worker_hand_back(w, done);
}

#define LOBBY_EVERY_MS 2000

static void run(Accounts *a, AccJob *j);

/* The lobby read for its watchers (as an ACCOUNTS_LOBBY job handed back). */
static void lobby_read_here(Accounts *a, Worker *w) {
    AccJob *j = calloc(1, sizeof *j);
    if (j) {
        j->action = ACCOUNTS_LOBBY;
        j->db = a->lanes[LANE_READ].db;
        run(a, j);
    }
    worker_hand_back(w, j);
}

static void run(Accounts *a, AccJob *j) {
    j->error = ACC_E_COUNT;
    switch (j->action) {
        case ACCOUNTS_SIGNUP: signup(a, j); break;
        case ACCOUNTS_LOGIN: login(a, j); break;
        case ACCOUNTS_LOGOUT: logout(a, j); break;
        case ACCOUNTS_ME: me(a, j); break;
        case ACCOUNTS_PASSWORD: change_password(a, j); break;
        case ACCOUNTS_LOGOUT_ALL: logout_all(a, j); break;
        case ACCOUNTS_ANALYSIS:
        case ACCOUNTS_ANALYSIS_POST: accounts_analysis_request(a, j); break;
        case ACCOUNTS_ANALYSE: break; /* on the analysis workers (accounts_analysis.c) */
        case ACCOUNTS_SEEKS:
        case ACCOUNTS_SEEK_POST:
        case ACCOUNTS_SEEK_GET:
        case ACCOUNTS_SEEK_CANCEL:
        case ACCOUNTS_SEEK_ACCEPT:
        case ACCOUNTS_SEEK_HOLD:
        case ACCOUNTS_LOBBY: accounts_lobby_run(a, j); break;
        case ACCOUNTS_RATE: rate(a, j); break;
        case ACCOUNTS_PLAYER:
        case ACCOUNTS_PLAYER_PGN: accounts_player_run(a, j); break;
        case ACCOUNTS_GAME: accounts_game_run(a, j); break;
    }
    sodium_memzero(j->password, sizeof j->password);
    sodium_memzero(j->new_password, sizeof j->new_password);
}

/* ---- the lanes' hooks (worker.h): a thread each, one request at a time ---- */

/* A request that waited longer than this in its queue is answered 503 busy instead of run: its
 * client hears why before the connection gives up on it (a reply it would not read is no use). */
#define ACCOUNTS_WAIT_MAX_MS 4000

/* Tests only: while the file the environment variable env names exists (at most a minute), the caller's
 * thread waits (SCHACH_ACCOUNTS_HOLD: the heavy reads' lane before each job, so a test can hold reads
 * under way without counting on time; SCHACH_ANALYSIS_HOLD: accounts_analysis.c). */
void accounts_test_hold(Worker *w, int thread, const char *env) {
    const char *hold = getenv(env);
    for (int i = 0; hold && *hold && i < 6000 && access(hold, F_OK) == 0; i++)
        if (!worker_pause(w, thread, 10))
            break;
}

static void hook_run(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)n;
    AccLaneState *l = owner;
    AccJob *j = jobs;
    j->db = l->db;
    if (l == &l->a->lanes[LANE_DELAY]) {
        /* A slowed login's answer, held until its time (cut short when its client leaves). */
        for (int64_t left; (left = j->release_ms - monotonic_ms()) > 0;)
            if (!worker_pause(w, thread, left > 100 ? 100 : (int)left))
                break;
        j->release_ms = 0;
        return;
    }
    if (l == &l->a->lanes[LANE_HEAVY])
        accounts_test_hold(w, thread, "SCHACH_ACCOUNTS_HOLD");
    if (j->reply && j->ticket && monotonic_ms() - j->queued_ms > ACCOUNTS_WAIT_MAX_MS) {
        j->error = ACC_E_COUNT;
        accounts_fail(j, ACC_E_BUSY, NULL);
        return;
    }
    /* The lobby's beat also when the reads' lane is never idle for long (cheap when not due). */
    if (l == &l->a->lanes[LANE_READ])
        accounts_lobby_beat(l->a, l->db);
    run(l->a, j);
}

/* First thing on the reads' thread: the games left unrated while no server ran. */
static void hook_start(Worker *w, void *owner, int thread) {
    (void)thread;
    sweep(((AccLaneState *)owner)->a, w);
}

/* Idle (the reads' lane): look for unrated games once a minute, tell the store this process is alive
 * (accounts_lobby_beat: its seeks stay in a cluster's lobby), and with watchers read the lobby every
 * 2 s (other servers' seeks come and go without this one hearing of it). */
static void hook_idle(Worker *w, void *owner) {
    Accounts *a = ((AccLaneState *)owner)->a;
    accounts_lobby_beat(a, a->lanes[LANE_READ].db);
    if (atomic_load(&a->watching))
        lobby_read_here(a, w);
    if (accounts_now(a) - a->swept_ms >= SWEEP_EVERY_MS)
        sweep(a, w);
}

/* The requester went away: a queued job is handed back unrun (skip_cancelled), a running one ends
 * (what it does still happens); either way its reply is not sent. */
static void hook_cancel(void *owner, void *job, WorkerState state, int thread) {
    (void)owner, (void)state, (void)thread;
    ((AccJob *)job)->cancelled = true;
}

static void hook_free(void *job) { accounts_job_free(job); }

static const int lane_queue[LANE_COUNT] = {[LANE_READ] = ACCOUNTS_QUEUE_MAX * 4,
                                           [LANE_HASH] = ACCOUNTS_QUEUE_MAX,
                                           [LANE_HEAVY] = ACCOUNTS_QUEUE_MAX,
                                           [LANE_DELAY] = ACCOUNTS_QUEUE_MAX};

bool accounts_worker_start(Accounts *a, char *err, size_t err_size) {
    if (sodium_init() < 0) {
        snprintf(err, err_size, "%s", "libsodium cannot be initialised");
        return false;
    }
    char random[SECRET_LEN + 1];
    secret_random_id(random, 32);
    if (!account_password_hash(random, strlen(random), a->cfg.hash_cost, a->dummy_hash)) {
        snprintf(err, err_size, "%s", "cannot hash a password (out of memory?)");
        return false;
    }
    /* The reads' lane first: the others hand back into its done list. Stopping finishes the request
     * that runs; queued ones are dropped unanswered. */
    for (int i = 0; i < LANE_COUNT; i++) {
        AccLaneState *l = &a->lanes[i];
        WorkerConfig cfg = {.threads = 1,
                            .next_offset = offsetof(AccJob, next),
                            .queue_max = lane_queue[i],
                            .hand_back = true,
                            .skip_cancelled = true,
                            .done_to = i == LANE_READ ? NULL : a->lanes[LANE_READ].worker,
                            .owner = l,
                            .run = hook_run,
                            .cancel = hook_cancel,
                            .free_job = hook_free,
                            .wake = a->wake,
                            .wake_ctx = a->wake_ctx};
        if (i == LANE_READ) {
            cfg.idle_ms = accounts_lobby_beat_ms() < SWEEP_EVERY_MS ? (int)accounts_lobby_beat_ms() : SWEEP_EVERY_MS;
            cfg.start = hook_start;
            cfg.idle = hook_idle;
        }
        char why[200];
        if (!(l->worker = worker_new(&cfg, why, sizeof why))) {
            snprintf(err, err_size, "cannot start the accounts thread: %s", why);
            return false;
        }
    }
    return true;
}

void accounts_worker_stop(Accounts *a) {
    /* The others first: they hand back into the reads' lane. */
    for (int i = LANE_COUNT - 1; i >= 0; i--) {
        worker_free(a->lanes[i].worker);
        a->lanes[i].worker = NULL;
    }
}

static AccLane lane_of(AccountsAction action) {
    switch (action) {
        case ACCOUNTS_SIGNUP:
        case ACCOUNTS_LOGIN:
        case ACCOUNTS_PASSWORD: return LANE_HASH;
        case ACCOUNTS_PLAYER:
        case ACCOUNTS_PLAYER_PGN: return LANE_HEAVY;
        default: return LANE_READ;
    }
}

bool accounts_worker_submit(Accounts *a, AccJob *j) {
    j->queued_ms = monotonic_ms();
    return worker_submit(a->lanes[j->release_ms ? LANE_DELAY : lane_of(j->action)].worker, j);
}

static bool has_ticket(const void *job, void *ticket) { return ((const AccJob *)job)->ticket == *(uint64_t *)ticket; }

void accounts_worker_cancel(Accounts *a, uint64_t ticket) {
    for (int i = 0; i < LANE_COUNT; i++)
        if (worker_cancel(a->lanes[i].worker, has_ticket, &ticket))
            return;
}

AccJob *accounts_worker_take_done(Accounts *a) { return worker_take_done(a->lanes[LANE_READ].worker); }

void accounts_worker_watch(Accounts *a, bool watching) {
    atomic_store(&a->watching, watching);
    /* Idle at least every beat (the lobby's: accounts_lobby_beat). */
    int64_t beat = accounts_lobby_beat_ms();
    int idle = watching ? LOBBY_EVERY_MS : SWEEP_EVERY_MS;
    worker_set_idle_ms(a->lanes[LANE_READ].worker, beat < idle ? (int)beat : idle);
}
