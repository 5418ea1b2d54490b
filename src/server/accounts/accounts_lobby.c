/* The lobby (docs/api.md "Lobby"): open challenges ("seeks") that anyone may accept, anonymous ones
 * casual, rated ones between accounts. A seek lives in the store (so every node of a cluster lists it,
 * and two accepters on two nodes make one game: store_accounts.h seek_accept), its poster holds a
 * secret that becomes their game secret when someone accepts; the poster learns of the game by asking
 * for the seek (GET /api/seeks/{id}). Requests run on the accounts' worker (accounts.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "accounts_internal.h"
#include "base/base.h"
#include "schach/fen.h"
#include "schach/position.h"

/* How long a seek stays in the lobby unless accepted or withdrawn first. */
#define SEEK_TTL_MS (10 * 60 * 1000)
/* A seek posted with "hold" (a page that holds it over its WebSocket) waits this long for the hold
 * before it leaves: a page that went between its post and its hold takes its seek along too. Tests
 * shorten it with SCHACH_SEEK_HOLD_GRACE_MS. */
#define SEEK_HOLD_GRACE_MS (20 * 1000)
/* How many open seeks GET /api/seeks lists at most (oldest first). */
#define SEEKS_LISTED 200
#define RATING_START 1500
/* The standard array's number among the Chess960 ones: a lobby Chess960 game starts from another. */
#define CHESS960_STANDARD 518

/* Quick pairing's rating window (docs/api.md "Lobby"): a waiting rated seek takes ratings within
 * ±POOL_WINDOW_START of its own, POOL_WINDOW_GROWTH more for every POOL_WINDOW_STEP_MS it has waited,
 * and any rating once it has waited POOL_WINDOW_STEPS steps (a minute). Tests shorten the step with
 * SCHACH_LOBBY_WINDOW_STEP_MS. */
#define POOL_WINDOW_START   300
#define POOL_WINDOW_GROWTH  100
#define POOL_WINDOW_STEP_MS 10000
#define POOL_WINDOW_STEPS   6

static SeekWindow pool_window(void) {
    SeekWindow w = {.start = POOL_WINDOW_START,
                    .growth = POOL_WINDOW_GROWTH,
                    .steps = POOL_WINDOW_STEPS,
                    .floor = POOL_WINDOW_START,
                    .step_ms = POOL_WINDOW_STEP_MS};
    const char *step = getenv("SCHACH_LOBBY_WINDOW_STEP_MS");
    if (step && atoll(step) > 0)
        w.step_ms = atoll(step);
    return w;
}

/* The window of a seek that has waited since created_ms: its half-width, or -1 for any rating. */
static int window_at(const SeekWindow *w, int64_t created_ms, int64_t now_ms) {
    int64_t waited = now_ms > created_ms ? now_ms - created_ms : 0;
    if (waited >= w->step_ms * w->steps)
        return -1;
    return w->start + w->growth * (int)(waited / w->step_ms);
}

/* ---- the loop: the request's checks ---- */

static bool int_member(json_t *o, const char *name, json_int_t lo, json_int_t hi, int *out, bool *given) {
    json_t *v = json_object_get(o, name);
    *given = v != NULL;
    if (!v)
        return true;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

/* The time control of a seek: live (minutes 1-180, increment 0-180) or correspondence (days 1-30);
 * the ranges of POST /api/games. A lobby game always has one. */
static bool parse_time(json_t *time, SeekRow *k, const char **bad) {
    *bad = "time";
    if (!json_is_object(time))
        return false;
    const char *key;
    json_t *v;
    json_object_foreach(time, key, v) {
        if (strcmp(key, "type") && strcmp(key, "minutes") && strcmp(key, "increment") && strcmp(key, "days")) {
            *bad = "time";
            return false;
        }
    }
    TimeControl *tc = &k->time;
    *bad = "time.type";
    if (!time_type_of(json_string_value(json_object_get(time, "type")), &tc->type) || tc->type == TIME_NONE)
        return false;
    bool live = tc->type == TIME_LIVE, corr = tc->type == TIME_CORRESPONDENCE;
    bool has_min, has_inc, has_days;
    *bad = "time.minutes";
    if (!int_member(time, "minutes", live ? 1 : 1, live ? 180 : 0, &tc->minutes, &has_min) || (live && !has_min))
        return false;
    *bad = "time.increment";
    if (!int_member(time, "increment", 0, live ? 180 : -1, &tc->increment, &has_inc))
        return false;
    *bad = "time.days";
    if (!int_member(time, "days", 1, corr ? 30 : 0, &tc->days, &has_days) || (corr && !has_days))
        return false;
    return true;
}

static bool valid_id(const char *id) {
    if (!id || strlen(id) != STORE_ID_LEN)
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            return false;
    return true;
}

static int64_t hold_grace_ms(void) {
    const char *v = getenv("SCHACH_SEEK_HOLD_GRACE_MS");
    return v && atoll(v) > 0 ? atoll(v) : SEEK_HOLD_GRACE_MS;
}

bool accounts_lobby_check(Accounts *a, const AccountsRequest *req, AccJob *j, AccError *e, const char **arg) {
    *arg = NULL;
    if (req->action == ACCOUNTS_SEEKS)
        return true;
    if (req->action != ACCOUNTS_SEEK_POST) {
        if (!valid_id(req->seek)) {
            *e = ACC_E_NO_SEEK;
            return false;
        }
        snprintf(j->seek.id, sizeof j->seek.id, "%s", req->seek);
    }
    if (req->action == ACCOUNTS_SEEK_GET)
        return true;
    /* Bodies: post {"time","color","rated","pool","variant","hold"}, cancel {"secret"}, accept {} (or none). */
    json_t *root = req->body && req->body[0] ? json_loads(req->body, JSON_REJECT_DUPLICATES, NULL) : json_object();
    bool ok = json_is_object(root);
    *e = ACC_E_BAD_JSON;
    const char *key;
    json_t *v;
    if (ok) {
        *e = ACC_E_BAD_MEMBER;
        json_object_foreach(root, key, v) {
            bool known = !strcmp(key, "lang") ||
                         (req->action == ACCOUNTS_SEEK_POST &&
                          (!strcmp(key, "time") || !strcmp(key, "color") || !strcmp(key, "rated") ||
                           !strcmp(key, "pool") || !strcmp(key, "variant") || !strcmp(key, "hold"))) ||
                         (req->action == ACCOUNTS_SEEK_CANCEL && !strcmp(key, "secret")) ||
                         (req->action == ACCOUNTS_SEEK_ACCEPT && !strcmp(key, "withdraw"));
            if (!known && ok) {
                ok = false;
                snprintf(j->bad_member, sizeof j->bad_member, "%s", key);
                *arg = j->bad_member;
                *e = ACC_E_UNKNOWN;
            }
        }
    }
    if (ok && req->action == ACCOUNTS_SEEK_POST) {
        SeekRow *k = &j->seek;
        json_t *color = json_object_get(root, "color"), *rated = json_object_get(root, "rated");
        json_t *pool = json_object_get(root, "pool"), *variant = json_object_get(root, "variant");
        json_t *hold = json_object_get(root, "hold");
        const char *c = color ? json_string_value(color) : "random";
        k->variant = VARIANT_STANDARD;
        if (!c || (strcmp(c, "white") && strcmp(c, "black") && strcmp(c, "random"))) {
            ok = false;
            *arg = "color";
        } else if (variant && !variant_of(json_string_value(variant), &k->variant)) {
            ok = false;
            *arg = "variant";
        } else if (rated && !json_is_boolean(rated)) {
            ok = false;
            *arg = "rated";
        } else if (hold && !json_is_boolean(hold)) {
            ok = false;
            *arg = "hold";
        } else if (pool && (!json_is_boolean(pool) || (json_is_true(pool) && strcmp(c, "random") != 0))) {
            ok = false; /* quick pairing leaves the colours to chance */
            *arg = "pool";
        } else if (!parse_time(json_object_get(root, "time"), k, arg)) {
            ok = false;
        } else {
            snprintf(k->color, sizeof k->color, "%s", c);
            k->rated = rated && json_is_true(rated);
            j->pool = pool && json_is_true(pool);
            /* The id and the secret are made here; the worker stores the seek with the secret's hash. */
            secret_random_id(k->id, STORE_ID_LEN);
            secret_new(j->seek_secret, k->secret_hash);
            k->created_ms = accounts_now(a);
            k->expires_ms = k->created_ms + (json_is_true(hold) ? hold_grace_ms() : SEEK_TTL_MS);
        }
    } else if (ok && req->action == ACCOUNTS_SEEK_CANCEL) {
        const char *secret = json_string_value(json_object_get(root, "secret"));
        if (!secret) {
            ok = false;
            *arg = "secret";
        } else {
            secret_hash(secret, j->cancel_hash);
        }
    } else if (ok && req->action == ACCOUNTS_SEEK_ACCEPT && json_object_get(root, "withdraw")) {
        /* {"withdraw": {"seek", "secret"}}: the accepter's own open seek, withdrawn with the accept. */
        json_t *w = json_object_get(root, "withdraw");
        const char *id = json_string_value(json_object_get(w, "seek"));
        const char *secret = json_string_value(json_object_get(w, "secret"));
        if (!json_is_object(w) || json_object_size(w) != 2 || !valid_id(id) || !secret) {
            ok = false;
            *arg = "withdraw";
        } else {
            snprintf(j->withdraw, sizeof j->withdraw, "%s", id);
            secret_hash(secret, j->cancel_hash);
        }
    }
    json_decref(root);
    return ok;
}

/* ---- the worker ---- */

int64_t accounts_lobby_beat_ms(void) {
    const char *v = getenv("SCHACH_LOBBY_NODE_DEADLINE_MS");
    int64_t deadline = v && atoll(v) > 0 ? atoll(v) : STORE_LOBBY_NODE_DEADLINE_MS;
    return deadline / 4 > 0 ? deadline / 4 : 1; /* four beats a deadline: a late one or two do no harm */
}

void accounts_lobby_beat(Accounts *a, StoreAccounts *db) {
    static _Atomic int64_t last;
    int64_t now = accounts_now(a), then = atomic_load(&last);
    if (now - then < accounts_lobby_beat_ms() || !atomic_compare_exchange_strong(&last, &then, now))
        return;
    char err[300] = "";
    if (db->vtbl->seek_beat(db, now, err, sizeof err) != SA_OK)
        atomic_store(&last, 0); /* again next time */
}

/* A seek as the API shows it; "window": the ratings quick pairing pairs it with now ({"min","max"};
 * null: any, also for a seek that is not rated or names its colour). */
static json_t *seek_json(const SeekRow *k, int64_t now_ms) {
    json_t *time = accounts_time_json(&k->time);
    SeekWindow w = pool_window();
    int half = k->rated && k->rating && !strcmp(k->color, "random") ? window_at(&w, k->created_ms, now_ms) : -1;
    json_t *window = half < 0 ? json_null() : json_pack("{s:i,s:i}", "min", k->rating - half, "max", k->rating + half);
    return json_pack("{s:s,s:o,s:o,s:b,s:b,s:s,s:o,s:s,s:I,s:o}", "id", k->id, "name",
                     k->name[0] ? json_string(k->name) : json_null(), "rating",
                     k->rating ? json_integer(k->rating) : json_null(), "provisional", k->rating && k->provisional,
                     "rated", k->rated, "color", k->color, "time", time, "variant", variant_name(k->variant), "created",
                     (json_int_t)k->created_ms, "window", window);
}

static void list_seeks(Accounts *a, AccJob *j) {
    accounts_lobby_beat(a, j->db);
    SeekRow *rows = malloc(sizeof *rows * SEEKS_LISTED);
    char err[300] = "";
    int n = rows ? j->db->vtbl->seek_list(j->db, accounts_now(a), rows, SEEKS_LISTED, err, sizeof err) : -1;
    if (n < 0) {
        free(rows);
        accounts_fail(j, rows ? ACC_E_STORAGE : ACC_E_INTERNAL, err);
        return;
    }
    json_t *arr = json_array();
    int64_t now = accounts_now(a);
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, seek_json(&rows[i], now));
    free(rows);
    json_t *o = json_pack("{s:o}", "seeks", arr);
    /* GET /api/seeks also tells the page the rating categories (its quick-pairing buttons name them);
     * the lobby's WebSocket updates carry the seeks only. */
    if (j->action == ACCOUNTS_SEEKS)
        json_object_set_new(o, "categories", accounts_categories_json());
    accounts_set_body(j, 200, o);
}

/* The account's rating in the category of a time control and variant (a newcomer's 1500 without one), and when
 * provisional is not NULL whether it is provisional (a newcomer's is); -1 with the job's error set
 * when the store failed. */
static int current_rating(Accounts *a, AccJob *j, const char *key, const TimeControl *time, Variant variant,
                          int *provisional) {
    (void)a;
    RatingRow rows[RATING_COUNT];
    bool have[RATING_COUNT];
    char err[300] = "";
    if (j->db->vtbl->ratings_of(j->db, key, rows, have, err, sizeof err) != SA_OK) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return -1;
    }
    int c = rating_category(time, variant);
    if (provisional)
        *provisional = c >= 0 && have[c] ? glicko2_provisional(&rows[c].g) : 1;
    return c >= 0 && have[c] ? (int)(rows[c].g.rating + 0.5) : RATING_START;
}

static void accept_seek(Accounts *a, AccJob *j);

/* Quick pairing: the oldest open seek with the same time control and variant, rated or not alike, colours left
 * to chance, not one's own, and (rated) a rating within its window (pool_window), found by the store
 * among all open seeks (however many others there are). true when j now accepts it (its action is an accept
 * then); false to post j's seek instead, or with the job's error set when the store failed. */
static bool pool_match(Accounts *a, AccJob *j, bool logged_in, const AccountRow *row) {
    SeekRow found;
    char err[300] = "";
    /* Not one's own: an account's seeks by its key, an anonymous asker's by its address (the store
     * uses the address only when the asker is anonymous). */
    SeekWindow w = pool_window();
    StoreAccountResult r = j->db->vtbl->seek_match(j->db, &j->seek, &w, logged_in ? row->key : "", j->address,
                                                   accounts_now(a), &found, err, sizeof err);
    if (r == SA_FAULT)
        accounts_fail(j, ACC_E_STORAGE, err);
    if (r != SA_OK)
        return false;
    snprintf(j->seek.id, sizeof j->seek.id, "%s", found.id);
    j->action = ACCOUNTS_SEEK_ACCEPT;
    return true;
}

/* The poster may have one open seek more: at most ACCOUNTS_SEEKS_PER_ACCOUNT of an account, and (with
 * the address limits) ACCOUNTS_SEEKS_PER_ADDRESS of anonymous posters from one address, so no poster's
 * flood hides the others' seeks. false with the job's error set. */
static bool seek_allowed(Accounts *a, AccJob *j, bool logged_in, const AccountRow *row) {
    if (!logged_in && (!a->cfg.address_limits || !j->address[0]))
        return true;
    char err[300] = "";
    int n = j->db->vtbl->seek_count(j->db, logged_in ? row->key : "", j->address, accounts_now(a), err, sizeof err);
    if (n < 0)
        accounts_fail(j, ACC_E_STORAGE, err);
    else if (n >= (logged_in ? ACCOUNTS_SEEKS_PER_ACCOUNT : ACCOUNTS_SEEKS_PER_ADDRESS))
        accounts_fail(j, ACC_E_MANY_SEEKS, NULL);
    return j->error == ACC_E_COUNT;
}

static void post(Accounts *a, AccJob *j) {
    AccountRow row;
    bool logged_in = accounts_session_account(a, j, &row, false);
    if (j->error != ACC_E_COUNT)
        return;
    if (j->seek.rated && !logged_in) {
        accounts_fail(j, ACC_E_RATED_LOGIN, NULL);
        return;
    }
    if (logged_in) {
        snprintf(j->seek.account, sizeof j->seek.account, "%s", row.key);
        snprintf(j->seek.name, sizeof j->seek.name, "%s", row.name);
        j->seek.rating = current_rating(a, j, row.key, &j->seek.time, j->seek.variant, &j->seek.provisional);
        if (j->seek.rating < 0)
            return;
    } else {
        snprintf(j->seek.address, sizeof j->seek.address, "%s", j->address);
    }
    if (j->pool && pool_match(a, j, logged_in, &row)) {
        /* Someone waits for the same game: it starts now (answered like an accept). */
        accept_seek(a, j);
        if (j->error == ACC_E_COUNT)
            return;
        /* Taken meanwhile by another: post ours after all. */
        j->error = ACC_E_COUNT;
        j->action = ACCOUNTS_SEEK_POST;
        secret_random_id(j->seek.id, STORE_ID_LEN);
        secret_new(j->seek_secret, j->seek.secret_hash);
    }
    if (j->error != ACC_E_COUNT || !seek_allowed(a, j, logged_in, &row))
        return;
    accounts_lobby_beat(a, j->db); /* the seek is listed while this process beats */
    char err[300] = "";
    StoreAccountResult r = j->db->vtbl->seek_create(j->db, &j->seek, err, sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_TAKEN ? ACC_E_BUSY : ACC_E_STORAGE, err);
        return;
    }
    json_t *o = seek_json(&j->seek, accounts_now(a));
    json_object_set_new(o, "secret", json_string(j->seek_secret));
    accounts_set_body(j, 201, o);
}

static void get(Accounts *a, AccJob *j) {
    SeekRow k;
    AccountRow row;
    char err[300] = "";
    bool logged_in = accounts_session_account(a, j, &row, false);
    if (j->error != ACC_E_COUNT)
        return;
    StoreAccountResult r = j->db->vtbl->seek_get(j->db, j->seek.id, accounts_now(a), &k, err, sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_SEEK, err);
        return;
    }
    bool taken = k.game_id[0] != '\0';
    int64_t now = accounts_now(a);
    /* An open seek that quick pairing would pair now that both windows have widened: the oldest such
     * (its poster's page accepts it, withdrawing this one: docs/api.md "Lobby"). */
    SeekRow found;
    bool match = false;
    if (!taken && !strcmp(k.color, "random")) {
        SeekWindow w = pool_window();
        w.floor = window_at(&w, k.created_ms, now);
        StoreAccountResult m = j->db->vtbl->seek_match(j->db, &k, &w, k.account, k.account[0] ? "" : k.address, now,
                                                       &found, err, sizeof err);
        if (m == SA_FAULT) {
            accounts_fail(j, ACC_E_STORAGE, err);
            return;
        }
        match = m == SA_OK;
    }
    json_t *o =
        json_pack("{s:o,s:o,s:o,s:o}", "seek", seek_json(&k, now), "game", taken ? json_string(k.game_id) : json_null(),
                  "color", taken ? json_string(k.poster_color == SCH_WHITE ? "white" : "black") : json_null(), "match",
                  match ? json_string(found.id) : json_null());
    /* The poster with an account, asking with their session: the game's secret of their side. */
    if (taken && logged_in && k.account[0] && !strcmp(k.account, row.key)) {
        char secret[SECRET_LEN + 1];
        /* The account's current seat epoch: the game's, unless it was revoked since (then this one). */
        if (!accounts_side_secret(a, j, k.game_id, k.poster_color, row.seat_epoch, secret)) {
            json_decref(o);
            return;
        }
        json_object_set_new(o, "secret", json_string(secret));
        sodium_memzero(secret, sizeof secret);
    }
    accounts_set_body(j, 200, o);
}

static void cancel(Accounts *a, AccJob *j) {
    char err[300] = "";
    SeekRow k;
    StoreAccountResult r = j->db->vtbl->seek_get(j->db, j->seek.id, accounts_now(a), &k, err, sizeof err);
    if (r == SA_OK && k.game_id[0])
        r = SA_NOT_FOUND; /* accepted already: the game stands */
    if (r == SA_OK)
        r = j->db->vtbl->seek_cancel(j->db, j->seek.id, j->cancel_hash, accounts_now(a), err, sizeof err) == SA_OK
                ? SA_OK
                : SA_TAKEN; /* open, but not this secret's */
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : r == SA_TAKEN ? ACC_E_BAD_SECRET : ACC_E_NO_SEEK, err);
        return;
    }
    accounts_set_body(j, 200, json_object());
}

/* A WebSocket holds the seek (accounts_seek_hold): it waits its full time now. Nobody waits for the
 * answer; a seek that is no longer open, or a wrong secret, changes nothing. */
static void hold_seek(Accounts *a, AccJob *j) {
    char err[300] = "";
    if (j->db->vtbl->seek_hold(j->db, j->seek.id, j->cancel_hash, accounts_now(a), SEEK_TTL_MS, err, sizeof err) ==
        SA_FAULT)
        accounts_fail(j, ACC_E_STORAGE, err);
}

/* The game of an accepted seek: two people, the seek's time control, nobody to invite; a Chess960
 * seek's from a start array drawn at random (never the standard one, so the game is Chess960). A side an
 * account plays gets a secret derived from the site's key (GET /api/me hands it out again); an
 * anonymous poster keeps the seek's secret, an anonymous accepter gets a new one. Each account's side
 * takes the account's seat epoch. false (the job failed) when the site's key or the poster's account
 * cannot be read. */
static bool build_game(Accounts *a, AccJob *j, const SeekRow *k, SchColor poster, const AccountRow *accepter,
                       GameRecord *rec, char secret[SECRET_LEN + 1]) {
    memset(rec, 0, sizeof *rec);
    secret_random_id(rec->id, STORE_ID_LEN);
    rec->created_ms = rec->updated_ms = accounts_now(a);
    snprintf(rec->mode, sizeof rec->mode, "%s", "friend");
    if (k->variant == VARIANT_CHESS960) {
        SchPosition start;
        int number = (int)secret_random_below(959);
        sch_pos_set_chess960(&start, number >= CHESS960_STANDARD ? number + 1 : number);
        sch_fen_write(&start, rec->start_fen, sizeof rec->start_fen);
    }
    rec->time = k->time;
    if (rec->time.type == TIME_LIVE)
        rec->clock_ms[SCH_WHITE] = rec->clock_ms[SCH_BLACK] = (int64_t)rec->time.minutes * 60000;
    rec->draw_offer = -1;
    rec->invite_color = -1;
    rec->plies = 0;
    if (k->account[0]) {
        AccountRow owner;
        char err[300] = "";
        StoreAccountResult r = j->db->vtbl->get(j->db, k->account, &owner, err, sizeof err);
        if (r != SA_OK) {
            accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_SEEK, err);
            return false;
        }
        rec->seat_epoch[poster] = owner.seat_epoch;
        char mine[SECRET_LEN + 1];
        if (!accounts_side_secret(a, j, rec->id, poster, owner.seat_epoch, mine))
            return false;
        secret_hash(mine, rec->secret_hash[poster]);
        sodium_memzero(mine, sizeof mine);
    } else {
        memcpy(rec->secret_hash[poster], k->secret_hash, STORE_HASH_LEN);
    }
    if (accepter) {
        rec->seat_epoch[!poster] = accepter->seat_epoch;
        if (!accounts_side_secret(a, j, rec->id, !poster, accepter->seat_epoch, secret))
            return false;
        secret_hash(secret, rec->secret_hash[!poster]);
    } else {
        secret_new(secret, rec->secret_hash[!poster]);
    }
    snprintf(rec->account[poster], sizeof rec->account[poster], "%s", k->name);
    snprintf(rec->account[!poster], sizeof rec->account[!poster], "%s", accepter ? accepter->name : "");
    rec->rated = k->rated;
    if (k->rated)
        rec->rating[SCH_WHITE] = rec->rating[SCH_BLACK] = RATING_START;
    return true;
}

static void accept_seek(Accounts *a, AccJob *j) {
    AccountRow row;
    bool logged_in = accounts_session_account(a, j, &row, false);
    if (j->error != ACC_E_COUNT)
        return;
    SeekRow k;
    char err[300] = "";
    StoreAccountResult r = j->db->vtbl->seek_get(j->db, j->seek.id, accounts_now(a), &k, err, sizeof err);
    if (r != SA_OK || k.game_id[0]) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_SEEK, err);
        return;
    }
    /* One's own seek: an account's by its key; an anonymous poster's by the address it came from, when
     * an anonymous visitor from there accepts (the poster's page knows its seek; an account from the
     * same address is somebody else's browser as far as the site can tell). */
    bool own = logged_in ? k.account[0] && !strcmp(k.account, row.key)
                         : !k.account[0] && k.address[0] && !strcmp(k.address, j->address);
    if (own) {
        accounts_fail(j, ACC_E_OWN_SEEK, NULL);
        return;
    }
    if (k.rated && !logged_in) {
        accounts_fail(j, ACC_E_RATED_LOGIN, NULL);
        return;
    }
    SchColor poster = !strcmp(k.color, "white")   ? SCH_WHITE
                      : !strcmp(k.color, "black") ? SCH_BLACK
                                                  : (SchColor)randombytes_uniform(2);
    GameRecord rec;
    if (!build_game(a, j, &k, poster, logged_in ? &row : NULL, &rec, j->seek_secret))
        return;
    if (k.rated) {
        /* The ratings the game begins with (the rating itself reads them again when it ends), and
         * whether each is provisional (the game's pages show it with "?"). */
        rec.rating[poster] = current_rating(a, j, k.account, &k.time, k.variant, &rec.provisional[poster]);
        rec.rating[!poster] = current_rating(a, j, row.key, &k.time, k.variant, &rec.provisional[!poster]);
        if (rec.rating[poster] < 0 || rec.rating[!poster] < 0)
            return;
    }
    r = j->db->vtbl->seek_accept(j->db, k.id, accounts_now(a), (int)poster, &rec, j->withdraw, j->cancel_hash, err,
                                 sizeof err);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_SEEK, err);
        return;
    }
    snprintf(j->game_id, sizeof j->game_id, "%s", rec.id);
    j->color = !poster;
    j->status = 200;
}

void accounts_lobby_run(Accounts *a, AccJob *j) {
    switch (j->action) {
        case ACCOUNTS_SEEKS:
        case ACCOUNTS_LOBBY: list_seeks(a, j); break;
        case ACCOUNTS_SEEK_POST: post(a, j); break;
        case ACCOUNTS_SEEK_GET: get(a, j); break;
        case ACCOUNTS_SEEK_CANCEL: cancel(a, j); break;
        case ACCOUNTS_SEEK_ACCEPT: accept_seek(a, j); break;
        case ACCOUNTS_SEEK_HOLD: hold_seek(a, j); break;
        default: break;
    }
}

/* ---- the loop: an accepted seek's answer ---- */

static void unlink_in_service(Accounts *a, AccJob *j) {
    for (AccJob **p = &a->in_service; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            return;
        }
}

/* The service's answer with the new game's state: {"id","color","secret","state"} to the accepter. */
static void on_state(void *ctx, const ServiceAnswer *ans) {
    AccJob *j = ctx;
    Accounts *a = j->owner;
    unlink_in_service(a, j);
    json_t *state = ans->status == 200 ? json_loadb(ans->body, ans->len, 0, NULL) : NULL;
    json_t *o = json_pack("{s:s,s:s,s:s,s:o}", "id", j->game_id, "color", j->color == SCH_WHITE ? "white" : "black",
                          "secret", j->seek_secret, "state", state ? state : json_null());
    char *body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    AccountsAnswer out = {.status = 200, .body = body ? body : "{}", .len = body ? strlen(body) : 2};
    if (!j->cancelled)
        j->reply(j->ctx, &out);
    free(body);
    if (j->asking) /* answered inside service_handle: accounts_lobby_finish frees it after */
        j->answered = true;
    else
        accounts_job_free(j);
}

void accounts_lobby_finish(Accounts *a, AccJob *j) {
    j->owner = a;
    j->next = a->in_service;
    a->in_service = j;
    ServiceRequest req = {.action = ACTION_STATE, .game = j->game_id, .lang = j->lang};
    /* The game was written by the worker, not through the service: it is read from the store here. */
    /* The service may answer before service_handle returns (a state is read at once): the job must
     * outlive that answer, so on_state leaves freeing it to here. */
    j->asking = true;
    uint64_t ticket = service_handle(a->service, &req, on_state, j);
    j->asking = false;
    if (j->answered)
        accounts_job_free(j);
    else
        j->service_ticket = ticket;
}
