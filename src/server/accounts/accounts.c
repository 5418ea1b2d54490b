/* Accounts on the event loop: requests checked, limited and queued; the worker's answers sent
 * (accounts.h). The worker itself is in accounts_worker.c. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "accounts_internal.h"
#include "analysis.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "service/service.h"

/* ---- messages ---- */

typedef struct AccMessage {
    int status;
    const char *code, *en, *de;
} AccMessage;

static const AccMessage messages[ACC_E_COUNT] = {
    [ACC_E_BAD_JSON] = {400, "bad_json", "The request is not a JSON object.", "Die Anfrage ist kein JSON-Objekt."},
    [ACC_E_BAD_REQUEST] = {400, "bad_request", "The request needs exactly the members %s, as strings.",
                           "Die Anfrage braucht genau die Felder %s, als Zeichenketten."},
    [ACC_E_BAD_NAME] = {400, "bad_username", "%s", "%s"},
    [ACC_E_BAD_PASSWORD] = {400, "bad_password", "%s", "%s"},
    [ACC_E_BAD_LOGIN] = {401, "bad_login", "The user name or the password is wrong.",
                         "Benutzername oder Passwort ist falsch."},
    [ACC_E_BAD_PASSWORD_NOW] = {403, "bad_password", "The current password is wrong.",
                                "Das bisherige Passwort ist falsch."},
    [ACC_E_NOT_LOGGED_IN] = {401, "not_logged_in", "You are not logged in.", "Du bist nicht angemeldet."},
    [ACC_E_NO_ANALYSIS] = {404, "no_analysis", "Nobody has asked for an analysis of this game yet.",
                           "Für diese Partie hat noch niemand eine Analyse angefordert."},
    [ACC_E_NO_GAME] = {404, "not_found", "There is no game with this id.", "Es gibt keine Partie mit dieser Kennung."},
    [ACC_E_NOT_FINISHED] = {409, "not_finished", "Only a finished game can be analysed.",
                            "Nur eine beendete Partie kann analysiert werden."},
    [ACC_E_ANALYSIS_LIMIT] = {429, "rate_limited", "You have asked for many analyses today; please try again tomorrow.",
                              "Du hast heute schon viele Analysen angefordert; bitte versuche es morgen wieder."},
    [ACC_E_TAKEN] = {409, "username_taken", "This user name is taken.", "Dieser Benutzername ist vergeben."},
    [ACC_E_CONFUSABLE] = {409, "username_confusable",
                          "This user name looks like one that is taken (I, l and 1 or O and 0 count as the same).",
                          "Dieser Benutzername sieht aus wie ein vergebener (I, l und 1 oder O und 0 gelten als "
                          "gleich)."},
    [ACC_E_RATE] = {429, "rate_limited", "Too many attempts; please wait a minute.",
                    "Zu viele Versuche; bitte warte eine Minute."},
    [ACC_E_BUSY] = {503, "busy", "The server is busy; please try again in a moment.",
                    "Der Server ist ausgelastet; bitte versuche es gleich noch einmal."},
    [ACC_E_STORAGE] = {503, "storage", "The account could not be read or saved; nothing was changed.",
                       "Das Konto konnte nicht gelesen oder gespeichert werden; es wurde nichts geändert."},
    [ACC_E_INTERNAL] = {500, "internal", "The server ran out of memory; nothing was changed.",
                        "Dem Server ist der Speicher ausgegangen; es wurde nichts geändert."},
    [ACC_E_NO_SEEK] =
        {404, "no_seek", "This challenge is no longer open: someone accepted it, or it was withdrawn.",
         "Diese Herausforderung ist nicht mehr offen: Jemand hat sie angenommen, oder sie wurde zurückgezogen."},
    [ACC_E_OWN_SEEK] = {409, "own_seek", "You cannot accept your own challenge.",
                        "Deine eigene Herausforderung kannst du nicht annehmen."},
    [ACC_E_RATED_LOGIN] = {401, "not_logged_in", "Rated games need an account: please log in.",
                           "Gewertete Partien brauchen ein Konto: Bitte melde dich an."},
    [ACC_E_BAD_MEMBER] = {400, "bad_request", "The member '%s' is missing or has a value that is not allowed.",
                          "Das Feld „%s“ fehlt oder hat einen unzulässigen Wert."},
    [ACC_E_NO_PLAYER] = {404, "not_found", "There is no player with this name.",
                         "Einen Spieler mit diesem Namen gibt es nicht."},
    [ACC_E_HEAVY] = {429, "rate_limited",
                     "Too many player pages or downloads from your address are under way; please wait for them.",
                     "Von deiner Adresse sind zu viele Spielerseiten oder Downloads unterwegs; bitte warte auf sie."},
    [ACC_E_MANY_SEEKS] = {409, "too_many_seeks",
                          "You have enough open challenges already; withdraw one or wait until one is accepted.",
                          "Du hast schon genug offene Herausforderungen; ziehe eine zurück oder warte, bis eine "
                          "angenommen wird."},
    [ACC_E_UNKNOWN] = {400, "bad_request", "The member '%s' is not known here.", "Das Feld „%s“ ist hier unbekannt."},
    [ACC_E_BAD_SECRET] = {403, "bad_secret", "Only the one who posted this challenge can withdraw it.",
                          "Nur wer diese Herausforderung gestellt hat, kann sie zurückziehen."},
    [ACC_E_WEAK_PASSWORD] = {400, "weak_password", "%s", "%s"},
    [ACC_E_COMMON_PASSWORD] = {400, "common_password", "%s", "%s"},
};

AccError accounts_password_error(AccountCheck c) {
    return c == ACCOUNT_PASSWORD_COMMON                                    ? ACC_E_COMMON_PASSWORD
           : c == ACCOUNT_PASSWORD_BLANK || c == ACCOUNT_PASSWORD_REPEATED ? ACC_E_WEAK_PASSWORD
                                                                           : ACC_E_BAD_PASSWORD;
}

int accounts_error_status(AccError e) { return messages[e].status; }

char *accounts_error_json(AccError e, SchLang lang, const char *arg) {
    const AccMessage *m = &messages[e];
    char text[300];
    snprintf(text, sizeof text, lang == SCH_LANG_DE ? m->de : m->en, arg ? arg : "");
    json_t *o = json_pack("{s:{s:s,s:s}}", "error", "code", m->code, "message", text);
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return s;
}

/* ---- the clock ---- */

static int64_t real_now(void *ctx) {
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t accounts_now(Accounts *a) { return a->now(a->clock_ctx); }

/* ---- answering ---- */

static void send_answer(AccountsReply reply, void *ctx, int status, const char *body, const char *cookie,
                        int retry_after) {
    static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    AccountsAnswer ans = {.status = status,
                          .body = body ? body : oom,
                          .len = body ? strlen(body) : sizeof oom - 1,
                          .set_cookie = cookie,
                          .retry_after = retry_after};
    if (!body)
        ans.status = 500;
    reply(ctx, &ans);
}

uint64_t accounts_answer_error(Accounts *a, AccountsReply reply, void *ctx, AccError e, SchLang lang, const char *arg,
                               int retry_after) {
    char *body = accounts_error_json(e, lang, arg);
    send_answer(reply, ctx, accounts_error_status(e), body, NULL, retry_after);
    free(body);
    return ++a->next_ticket;
}

/* ---- requests ---- */

bool accounts_cookie_token(const char *cookie, char *out, size_t size) {
    static const char name[] = ACCOUNTS_COOKIE "=";
    for (const char *p = cookie; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > sizeof name - 1 && memcmp(p, name, sizeof name - 1) == 0) {
            const char *v = p + sizeof name - 1;
            size_t vlen = len - (sizeof name - 1);
            while (vlen && v[vlen - 1] == ' ')
                vlen--;
            if (vlen != ACC_TOKEN_LEN || vlen >= size)
                return false;
            for (size_t i = 0; i < vlen; i++) {
                char c = v[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_'))
                    return false;
            }
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return true;
        }
        p = end ? end + 1 : p + len;
    }
    return false;
}

/* Reads exactly the members names (strings; "lang" is allowed beside them) of body into out. */
static bool read_members(const char *body, const char *const *names, int n, const char **out, json_t **root,
                         AccError *e) {
    *root = body ? json_loads(body, JSON_REJECT_DUPLICATES, NULL) : NULL;
    if (!json_is_object(*root)) {
        *e = ACC_E_BAD_JSON;
        return false;
    }
    const char *key;
    json_t *value;
    int found = 0;
    json_object_foreach(*root, key, value) {
        int i = 0;
        while (i < n && strcmp(key, names[i]) != 0)
            i++;
        if (i == n) {
            if (strcmp(key, "lang") == 0 && json_is_string(value))
                continue;
            *e = ACC_E_BAD_REQUEST;
            return false;
        }
        if (!json_is_string(value)) {
            *e = ACC_E_BAD_REQUEST;
            return false;
        }
        out[i] = json_string_value(value);
        found++;
    }
    if (found != n) {
        *e = ACC_E_BAD_REQUEST;
        return false;
    }
    return true;
}

/* Takes a token of the limit for key; the seconds to wait, 0 when allowed. */
static int take(Accounts *a, Limits *l, const char *prefix, const char *key) {
    char k[LIMITS_ADDRESS_MAX + 8];
    snprintf(k, sizeof k, "%s%s", prefix, key ? key : "");
    int64_t now = accounts_now(a);
    if (now - a->last_sweep_ms > 10000) {
        limits_sweep(a->login_limits, now);
        limits_sweep(a->signup_limits, now);
        a->last_sweep_ms = now;
    }
    return limits_take(l, k, LIMIT_CREATE, now);
}

/* The key of a name and address pair in the login limits: short whatever the address (a hash). */
static void pair_key(const char *key, const char *address, char out[2 * 16 + 1]) {
    unsigned char h[16];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)key, strlen(key) + 1);
    crypto_generichash_update(&st, (const unsigned char *)(address ? address : ""), address ? strlen(address) : 0);
    crypto_generichash_final(&st, h, sizeof h);
    sodium_bin2hex(out, 2 * 16 + 1, h, sizeof h);
}

AccJob *accounts_job_new(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    AccJob *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->action = req->action;
    j->lang = req->lang;
    j->secure = req->secure;
    j->reply = reply;
    j->ctx = ctx;
    j->ticket = ++a->next_ticket;
    j->has_session = req->token && strlen(req->token) == ACC_TOKEN_LEN;
    if (j->has_session)
        secret_hash(req->token, j->session_hash);
    return j;
}

/* A lobby request: checked here, the rest on the worker. */
static uint64_t handle_seek(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    AccJob *j = accounts_job_new(a, req, reply, ctx);
    if (!j)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    AccError e = ACC_E_COUNT;
    const char *arg = NULL;
    if (!a->service && req->action == ACCOUNTS_SEEK_ACCEPT)
        e = ACC_E_INTERNAL;
    /* The poster's address: an anonymous seek is capped per address, and stored with it. */
    snprintf(j->address, sizeof j->address, "%s", req->address ? req->address : "");
    if (e != ACC_E_COUNT || !accounts_lobby_check(a, req, j, &e, &arg)) {
        uint64_t t = accounts_answer_error(a, reply, ctx, e, req->lang, arg, 0);
        accounts_job_free(j);
        return t;
    }
    if (!accounts_worker_submit(a, j)) {
        accounts_job_free(j);
        return accounts_answer_error(a, reply, ctx, ACC_E_BUSY, req->lang, NULL, 1);
    }
    return j->ticket;
}

/* ---- heavy reads in flight per address ---- */

typedef struct HeavyCount {
    char address[LIMITS_ADDRESS_MAX];
    int n;
} HeavyCount;

static HeavyCount *heavy_find(Accounts *a, const char *address) {
    for (int i = 0; i < a->nheavy; i++)
        if (!strcmp(a->heavy[i].address, address))
            return &a->heavy[i];
    return NULL;
}

/* Counts one more heavy read of j's address; false when it has its share under way already (or no
 * memory is left to count it). */
static bool heavy_take(Accounts *a, AccJob *j, const char *address) {
    if (!a->cfg.address_limits || !address)
        return true;
    int cap = a->cfg.heavy_per_address > 0 ? a->cfg.heavy_per_address : ACCOUNTS_HEAVY_PER_ADDRESS;
    HeavyCount *h = heavy_find(a, address);
    if (!h) {
        if (a->nheavy == a->heavy_cap) {
            int n = a->heavy_cap ? a->heavy_cap * 2 : 16;
            HeavyCount *more = realloc(a->heavy, (size_t)n * sizeof *more);
            if (!more)
                return false;
            a->heavy = more;
            a->heavy_cap = n;
        }
        h = &a->heavy[a->nheavy++];
        snprintf(h->address, sizeof h->address, "%s", address);
        h->n = 0;
    }
    if (h->n >= cap)
        return false;
    h->n++;
    j->heavy = true;
    snprintf(j->address, sizeof j->address, "%s", address);
    return true;
}

/* j came back (run, dropped unrun, or refused): its address has one heavy read fewer under way. */
static void heavy_release(Accounts *a, AccJob *j) {
    if (!j->heavy)
        return;
    j->heavy = false;
    HeavyCount *h = heavy_find(a, j->address);
    if (h && --h->n <= 0)
        *h = a->heavy[--a->nheavy];
}

/* A player's page: the name and the query checked here. */
static uint64_t handle_player(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    char key[ACCOUNT_NAME_MAX + 1];
    PlayedFilter filter = PLAYED_ALL;
    if (req->filter && *req->filter) {
        if (!strcmp(req->filter, "won"))
            filter = PLAYED_WON;
        else if (!strcmp(req->filter, "lost"))
            filter = PLAYED_LOST;
        else if (!strcmp(req->filter, "drawn"))
            filter = PLAYED_DRAWN;
        else if (strcmp(req->filter, "all") != 0)
            return accounts_answer_error(a, reply, ctx, ACC_E_BAD_MEMBER, req->lang, "result", 0);
    }
    if (req->page < 0 || req->page > 100000)
        return accounts_answer_error(a, reply, ctx, ACC_E_BAD_MEMBER, req->lang, "page", 0);
    if (!req->seek || !account_name_key(req->seek, key))
        return accounts_answer_error(a, reply, ctx, ACC_E_NO_PLAYER, req->lang, NULL, 0);
    AccJob *j = accounts_job_new(a, req, reply, ctx);
    if (!j)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    snprintf(j->key, sizeof j->key, "%s", key);
    j->page = req->page;
    j->filter = filter;
    if (!heavy_take(a, j, req->address)) {
        accounts_job_free(j);
        return accounts_answer_error(a, reply, ctx, ACC_E_HEAVY, req->lang, NULL, 1);
    }
    if (!accounts_worker_submit(a, j)) {
        heavy_release(a, j);
        accounts_job_free(j);
        return accounts_answer_error(a, reply, ctx, ACC_E_BUSY, req->lang, NULL, 1);
    }
    return j->ticket;
}

uint64_t accounts_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    if (req->action == ACCOUNTS_PLAYER || req->action == ACCOUNTS_PLAYER_PGN)
        return handle_player(a, req, reply, ctx);
    if (req->action == ACCOUNTS_ANALYSIS || req->action == ACCOUNTS_ANALYSIS_POST)
        return accounts_analysis_handle(a, req, reply, ctx);
    if (req->action == ACCOUNTS_ANALYSE)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    if (req->action == ACCOUNTS_GAME)
        return accounts_game_handle(a, req, reply, ctx);
    if (req->action >= ACCOUNTS_SEEKS)
        return handle_seek(a, req, reply, ctx);
    static const char *const credentials[] = {"username", "password"};
    static const char *const change[] = {"password", "new_password"};
    const char *v[2] = {NULL, NULL};
    json_t *root = NULL;
    AccError e = ACC_E_COUNT;
    const char *arg = NULL;
    int wait = 0;
    bool slow = false;
    char key[ACCOUNT_NAME_MAX + 1] = "";
    bool needs_body =
        req->action == ACCOUNTS_SIGNUP || req->action == ACCOUNTS_LOGIN || req->action == ACCOUNTS_PASSWORD;
    if (needs_body) {
        const char *const *names = req->action == ACCOUNTS_PASSWORD ? change : credentials;
        if (!read_members(req->body, names, 2, v, &root, &e)) {
            arg = req->action == ACCOUNTS_PASSWORD ? "password, new_password" : "username, password";
        } else if (req->action == ACCOUNTS_SIGNUP) {
            AccountCheck c = account_name_check(v[0]);
            if (c != ACCOUNT_OK) {
                e = ACC_E_BAD_NAME;
                arg = account_check_text(c, req->lang == SCH_LANG_DE);
            } else if ((c = account_password_check(v[1], strlen(v[1]), v[0])) != ACCOUNT_OK) {
                e = accounts_password_error(c);
                arg = account_check_text(c, req->lang == SCH_LANG_DE);
            } else if (a->cfg.address_limits && (wait = take(a, a->signup_limits, "a:", req->address)) != 0) {
                e = ACC_E_RATE;
            }
        } else if (req->action == ACCOUNTS_LOGIN) {
            /* A name that cannot exist still counts against the address, and is refused like a
             * wrong password after the worker's hash (no hint which names exist). Attempts count per
             * address and per name and address: a guesser is refused for the names they tried, from
             * their address, and nobody else is. Attempts at a name from all addresses together only
             * slow its answers down: refusing them would lock the owner out. */
            bool valid = account_name_key(v[0], key);
            char pair[2 * 16 + 1];
            pair_key(key, req->address, pair);
            if ((a->cfg.address_limits && (wait = take(a, a->login_limits, "a:", req->address)) != 0) ||
                (valid && (wait = take(a, a->login_limits, "p:", pair)) != 0))
                e = ACC_E_RATE;
            else if (valid && take(a, a->login_limits, "n:", key) != 0)
                slow = true;
        } else {
            AccountCheck c = account_password_check(v[1], strlen(v[1]), NULL);
            if (c != ACCOUNT_OK) {
                e = accounts_password_error(c);
                arg = account_check_text(c, req->lang == SCH_LANG_DE);
            } else if (a->cfg.address_limits && (wait = take(a, a->login_limits, "a:", req->address)) != 0) {
                e = ACC_E_RATE;
            }
        }
    }
    /* Log out everywhere rewrites the account's games: as dear as a password change, and limited alike. */
    if (req->action == ACCOUNTS_LOGOUT_ALL && a->cfg.address_limits &&
        (wait = take(a, a->login_limits, "a:", req->address)) != 0)
        e = ACC_E_RATE;
    if (e != ACC_E_COUNT) {
        /* arg may point into root: answer before freeing it. */
        uint64_t t = accounts_answer_error(a, reply, ctx, e, req->lang, arg, wait);
        json_decref(root);
        return t;
    }
    bool has_token = req->token && strlen(req->token) == ACC_TOKEN_LEN;
    if (!has_token && req->action == ACCOUNTS_ME) {
        /* Nobody logged in: 200 {"username": null} (docs/api.md), no 401 in an anonymous page's console. */
        json_decref(root);
        send_answer(reply, ctx, 200, "{\"username\":null}", NULL, 0);
        return ++a->next_ticket;
    }
    if (!has_token &&
        (req->action == ACCOUNTS_LOGOUT || req->action == ACCOUNTS_PASSWORD || req->action == ACCOUNTS_LOGOUT_ALL)) {
        json_decref(root);
        if (req->action == ACCOUNTS_LOGOUT) {
            /* Logged out already: say so, and clear whatever cookie the browser has. */
            char cookie[200];
            accounts_clear_cookie(req->secure, cookie, sizeof cookie);
            send_answer(reply, ctx, 200, "{}", cookie, 0);
            return ++a->next_ticket;
        }
        return accounts_answer_error(a, reply, ctx, ACC_E_NOT_LOGGED_IN, req->lang, NULL, 0);
    }
    AccJob *j = accounts_job_new(a, req, reply, ctx);
    if (!j) {
        json_decref(root);
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    }
    if (req->action == ACCOUNTS_PASSWORD) {
        /* Both checked above: the current one is at most as long as any account's, or it cannot match. */
        j->password_len = strlen(v[0]);
        if (j->password_len > ACCOUNT_PASSWORD_MAX) {
            j->password_len = 0;
            j->never_matches = true;
        }
        memcpy(j->password, v[0], j->password_len);
        j->new_password_len = strlen(v[1]);
        memcpy(j->new_password, v[1], j->new_password_len);
    } else if (needs_body) {
        snprintf(j->username, sizeof j->username, "%s", v[0]);
        snprintf(j->key, sizeof j->key, "%s", key);
        j->slow_ms = !slow ? 0 : a->cfg.login_slowdown_ms > 0 ? a->cfg.login_slowdown_ms : ACCOUNTS_LOGIN_SLOWDOWN_MS;
        /* A login's password may be of any length: it is compared, never stored; one too long for any
         * account simply does not match. A signup's was checked above. */
        j->password_len = strlen(v[1]);
        if (j->password_len > ACCOUNT_PASSWORD_MAX) {
            j->password_len = 0;
            j->never_matches = true;
        }
        memcpy(j->password, v[1], j->password_len);
    }
    json_decref(root);
    if (!accounts_worker_submit(a, j)) {
        uint64_t t = j->ticket;
        accounts_job_free(j);
        accounts_answer_error(a, reply, ctx, ACC_E_BUSY, req->lang, NULL, 1);
        return t;
    }
    return j->ticket;
}

void accounts_cancel(Accounts *a, uint64_t ticket) {
    for (AccJob *j = a->in_service; j; j = j->next)
        if (j->ticket == ticket && !j->cancelled) {
            /* The service's answer will not come: the job leaves with the cancellation. */
            j->cancelled = true;
            service_cancel(a->service, j->service_ticket);
            for (AccJob **p = &a->in_service; *p; p = &(*p)->next)
                if (*p == j) {
                    *p = j->next;
                    break;
                }
            accounts_job_free(j);
            return;
        }
    accounts_worker_cancel(a, ticket);
}

void accounts_set_service(Accounts *a, Service *svc) {
    a->service = svc;
    service_set_site_key(svc, a->site_key); /* read in accounts_create: rematches derive secrets from it */
}

/* ---- the lobby live ---- */

typedef struct LobbyWatcher {
    uint64_t id;
    AccountsLobbyEvent fn;
    void *ctx;
} LobbyWatcher;

/* A read of the lobby for the watchers, unless one is on its way already. */
static void lobby_refresh(Accounts *a) {
    if (!a->nwatchers || a->lobby_reading)
        return;
    AccJob *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->action = ACCOUNTS_LOBBY;
    j->ticket = ++a->next_ticket;
    if (accounts_worker_submit(a, j))
        a->lobby_reading = true;
    else
        accounts_job_free(j);
}

static void set_watching(Accounts *a) { accounts_worker_watch(a, a->nwatchers > 0); }

uint64_t accounts_lobby_watch(Accounts *a, AccountsLobbyEvent fn, void *ctx) {
    if (a->nwatchers == a->watchers_cap) {
        int cap = a->watchers_cap ? a->watchers_cap * 2 : 8;
        LobbyWatcher *w = realloc(a->watchers, (size_t)cap * sizeof *w);
        if (!w)
            return 0;
        a->watchers = w;
        a->watchers_cap = cap;
    }
    LobbyWatcher *w = &a->watchers[a->nwatchers++];
    *w = (LobbyWatcher){++a->next_watch, fn, ctx};
    if (a->nwatchers == 1)
        set_watching(a);
    if (a->lobby_text)
        fn(ctx, a->lobby_text, a->lobby_len);
    else
        lobby_refresh(a);
    return w->id;
}

void accounts_lobby_unwatch(Accounts *a, uint64_t id) {
    for (int i = 0; i < a->nwatchers; i++)
        if (a->watchers[i].id == id) {
            a->watchers[i] = a->watchers[--a->nwatchers];
            if (!a->nwatchers) {
                set_watching(a);
                /* Nobody watches: the next watcher gets a fresh read, not an old list. */
                free(a->lobby_text);
                a->lobby_text = NULL;
            }
            return;
        }
}

/* The worker read the lobby (j->body: {"seeks":[...]}): the watchers hear of it when it changed. */
static void lobby_read(Accounts *a, AccJob *j) {
    a->lobby_reading = false;
    if (j->error != ACC_E_COUNT || !j->body || j->body[0] != '{')
        return;
    size_t blen = strlen(j->body);
    char *text = malloc(blen + 20);
    if (!text)
        return;
    /* {"seeks":...} becomes {"type":"lobby","seeks":...}. */
    int len = snprintf(text, blen + 20, "{\"type\":\"lobby\",%s", j->body + 1);
    if (a->lobby_text && a->lobby_len == (size_t)len && !memcmp(a->lobby_text, text, (size_t)len)) {
        free(text);
        return;
    }
    free(a->lobby_text);
    a->lobby_text = text;
    a->lobby_len = (size_t)len;
    for (int i = 0; i < a->nwatchers; i++)
        a->watchers[i].fn(a->watchers[i].ctx, a->lobby_text, a->lobby_len);
}

/* A job nobody waits for on seek, by whoever holds secret (abandon, hold). When it cannot be queued,
 * the seek's expiry does the work: it expires in 10 minutes, or after its grace when not held. */
static void seek_job(Accounts *a, AccountsAction action, const char *seek, const char *secret) {
    AccJob *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->action = action;
    j->ticket = ++a->next_ticket;
    snprintf(j->seek.id, sizeof j->seek.id, "%s", seek);
    secret_hash(secret, j->cancel_hash);
    if (!accounts_worker_submit(a, j))
        accounts_job_free(j);
}

void accounts_seek_abandon(Accounts *a, const char *seek, const char *secret) {
    seek_job(a, ACCOUNTS_SEEK_CANCEL, seek, secret);
}

void accounts_seek_hold(Accounts *a, const char *seek, const char *secret) {
    seek_job(a, ACCOUNTS_SEEK_HOLD, seek, secret);
}

void accounts_rate(void *accounts, const GameRecord *rec) {
    Accounts *a = accounts;
    AccJob *j = calloc(1, sizeof *j);
    if (!j)
        return; /* the worker's sweep rates it within a minute */
    j->action = ACCOUNTS_RATE;
    j->ticket = ++a->next_ticket;
    UnratedGame *u = &j->rate;
    snprintf(u->id, sizeof u->id, "%s", rec->id);
    for (int c = 0; c < 2; c++)
        snprintf(u->account[c], sizeof u->account[c], "%s", rec->account[c]);
    snprintf(u->result, sizeof u->result, "%s", rec->result);
    u->time = rec->time;
    u->updated_ms = rec->updated_ms;
    u->variant = rec->start_fen[0] ? VARIANT_CHESS960 : VARIANT_STANDARD; /* as UnratedGame says */
    if (!accounts_worker_submit(a, j))
        accounts_job_free(j); /* the sweep again */
}

void accounts_set_cookie(const char *token, bool secure, char *out, size_t size) {
    snprintf(out, size, "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax%s", ACCOUNTS_COOKIE, token,
             ACCOUNTS_SESSION_DAYS * 86400, secure ? "; Secure" : "");
}

void accounts_clear_cookie(bool secure, char *out, size_t size) {
    snprintf(out, size, "%s=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax%s", ACCOUNTS_COOKIE, secure ? "; Secure" : "");
}

void accounts_on_wake(Accounts *a) {
    for (AccJob *j = accounts_worker_take_done(a); j;) {
        AccJob *next = j->next;
        heavy_release(a, j);
        if (j->slow_ms > 0 && !j->cancelled) {
            /* A login to a name tried often: answered later, by the delay lane (accounts_internal.h). */
            j->release_ms = monotonic_ms() + j->slow_ms;
            j->slow_ms = 0;
            if (accounts_worker_submit(a, j)) {
                j = next;
                continue;
            }
            j->release_ms = 0; /* its queue is full: answered now */
        }
        if (accounts_analysis_finish(a, j)) { /* an analysis request or run: answered and freed there */
            j = next;
            continue;
        }
        if (j->action == ACCOUNTS_LOBBY) {
            lobby_read(a, j);
            accounts_job_free(j);
            j = next;
            continue;
        }
        /* A seek posted, withdrawn or accepted here: the watchers see the lobby as it is now. */
        if ((j->action == ACCOUNTS_SEEK_POST || j->action == ACCOUNTS_SEEK_CANCEL ||
             j->action == ACCOUNTS_SEEK_ACCEPT) &&
            j->error == ACC_E_COUNT)
            lobby_refresh(a);
        /* A password change or log-out-everywhere here: the account's games in memory are read again, so
         * the secrets it revoked stop working on this node at once (elsewhere at their next change). */
        if (j->revoked[0] && j->error == ACC_E_COUNT && a->service)
            service_seats_revoked(a->service, j->revoked);
        if (j->action == ACCOUNTS_RATE) {
            if (j->rated_rev > 0 && a->service)
                service_rated(a->service, j->rate.id, j->rated_before, j->rated_diff, j->rated_rev);
            accounts_job_free(j);
            j = next;
            continue;
        }
        if (!j->cancelled && j->action == ACCOUNTS_GAME && j->error == ACC_E_COUNT) {
            accounts_game_finish(a, j); /* answered as the service answers; freed there */
            j = next;
            continue;
        }
        if (!j->cancelled && j->action == ACCOUNTS_SEEK_ACCEPT && j->error == ACC_E_COUNT) {
            accounts_lobby_finish(a, j); /* answered with the game's state; freed there */
            j = next;
            continue;
        }
        if (!j->cancelled && j->reply) {
            bool password_rule =
                j->error == ACC_E_BAD_PASSWORD || j->error == ACC_E_WEAK_PASSWORD || j->error == ACC_E_COMMON_PASSWORD;
            const char *arg = password_rule               ? account_check_text(j->why, j->lang == SCH_LANG_DE)
                              : j->error == ACC_E_UNKNOWN ? j->bad_member
                                                          : NULL;
            char *body = j->error != ACC_E_COUNT ? accounts_error_json(j->error, j->lang, arg) : j->body;
            if (j->error == ACC_E_COUNT && j->content_type) {
                AccountsAnswer ans = {.status = j->status,
                                      .body = body,
                                      .len = j->body_len,
                                      .content_type = j->content_type,
                                      .filename = j->filename[0] ? j->filename : NULL};
                j->reply(j->ctx, &ans);
            } else {
                send_answer(j->reply, j->ctx, j->error != ACC_E_COUNT ? accounts_error_status(j->error) : j->status,
                            body, j->cookie[0] ? j->cookie : NULL, j->error == ACC_E_BUSY ? 1 : 0);
            }
            if (body != j->body)
                free(body);
        }
        accounts_job_free(j);
        j = next;
    }
    accounts_analysis_on_wake(a);
}

Accounts *accounts_create(Store *store, const AccountsConfig *cfg, AccountsClock now, void *clock_ctx,
                          void (*wake)(void *), void *wake_ctx, char *err, size_t err_size) {
    Accounts *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_size, "%s", "out of memory");
        return NULL;
    }
    a->cfg = cfg ? *cfg : (AccountsConfig){.address_limits = true};
    if (a->cfg.analysis_workers <= 0)
        a->cfg.analysis_workers = ACCOUNTS_ANALYSIS_WORKERS;
    if (a->cfg.analysis_workers > ACCOUNTS_ANALYSIS_WORKERS_MAX)
        a->cfg.analysis_workers = ACCOUNTS_ANALYSIS_WORKERS_MAX;
    if (a->cfg.analysis_nodes == 0)
        a->cfg.analysis_nodes = ANALYSIS_DEFAULT_NODES;
    if (a->cfg.analysis_queue <= 0)
        a->cfg.analysis_queue = ACCOUNTS_ANALYSIS_QUEUE;
    if (a->cfg.analysis_per_day_account <= 0)
        a->cfg.analysis_per_day_account = ACCOUNTS_ANALYSIS_PER_DAY_ACCOUNT;
    if (a->cfg.analysis_per_day_address <= 0)
        a->cfg.analysis_per_day_address = ACCOUNTS_ANALYSIS_PER_DAY_ADDRESS;
    a->now = now ? now : real_now;
    a->clock_ctx = clock_ctx;
    a->wake = wake;
    a->wake_ctx = wake_ctx;
    /* Two tables of token buckets (client_limits.h, its "creates" kind): attempts per address ("a:")
     * and per name ("n:") in one, sign-ups per address in the other. */
    LimitsConfig logins = {
        .max_connections = 1, .creates_per_minute = ACCOUNTS_LOGINS_PER_MINUTE, .frozen = a->cfg.frozen_limits};
    LimitsConfig signups = {
        .max_connections = 1, .creates_per_minute = ACCOUNTS_SIGNUPS_PER_MINUTE, .frozen = a->cfg.frozen_limits};
    a->login_limits = limits_new(&logins);
    a->signup_limits = limits_new(&signups);
    if (!a->login_limits || !a->signup_limits) {
        snprintf(err, err_size, "%s", "out of memory");
        accounts_free(a);
        return NULL;
    }
    for (int i = 0; i < LANE_COUNT; i++) {
        a->lanes[i].a = a;
        if (i != LANE_DELAY && !(a->lanes[i].db = store_accounts_open(store, err, err_size))) {
            accounts_free(a);
            return NULL;
        }
    }
    /* The site's key before the workers own the connections: the service derives rematches' secrets
     * from it as the worker does accounts' (accounts_set_service). */
    StoreAccounts *db = a->lanes[LANE_READ].db;
    if (db->vtbl->site_key(db, a->site_key, err, err_size) != SA_OK) {
        accounts_free(a);
        return NULL;
    }
    a->have_site_key = true;
    if (!accounts_worker_start(a, err, err_size) || !accounts_analysis_start(a, store, err, err_size)) {
        accounts_free(a);
        return NULL;
    }
    return a;
}

void accounts_free(Accounts *a) {
    if (!a)
        return;
    accounts_analysis_stop(a); /* it hands back into the reads' lane: first */
    accounts_worker_stop(a);
    while (a->in_service) {
        AccJob *j = a->in_service;
        a->in_service = j->next;
        service_cancel(a->service, j->service_ticket);
        accounts_job_free(j);
    }
    for (int i = 0; i < LANE_COUNT; i++)
        store_accounts_close(a->lanes[i].db);
    free(a->heavy);
    free(a->watchers);
    free(a->lobby_text);
    limits_free(a->login_limits);
    limits_free(a->signup_limits);
    free(a);
}

void accounts_job_free(AccJob *j) {
    if (!j)
        return;
    sodium_memzero(j->password, sizeof j->password);
    sodium_memzero(j->new_password, sizeof j->new_password);
    free(j->analysis_result);
    free(j->game_body);
    free(j->body);
    free(j);
}
