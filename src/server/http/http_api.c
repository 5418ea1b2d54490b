/* schach serve: HTTP requests. Checks the framing (one plain Content-Length, no Transfer-Encoding),
 * the client's request rates, routes /api to the service and everything else to the static files,
 * and writes responses (HEAD: the headers of the GET answer without its body).
 *
 * A request the server refuses changes nothing: a refusal is decided before the service sees the
 * request, and a connection whose framing cannot be trusted is closed after the answer, so the bytes
 * that follow are never read as a request of their own.
 */
#define _POSIX_C_SOURCE 200809L

#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_internal.h"
#include "base/base.h"

static void http_reset(HttpConn *c) {
    lws_sul_cancel(&c->deadline);
    if (c->waiting && c->srv && c->account && c->srv->accounts)
        accounts_cancel(c->srv->accounts, c->ticket);
    else if (c->waiting && c->srv && c->srv->service)
        service_cancel(c->srv->service, c->ticket);
    if (c->busy && c->srv)
        c->srv->http_busy--;
    free(c->ids);
    free(c->body);
    free(c->resp);
    struct HttpServer *srv = c->srv;
    struct lws *wsi = c->wsi;
    memset(c, 0, sizeof *c);
    c->srv = srv;
    c->wsi = wsi;
}

void http_set_response(HttpConn *c, int status, const char *content_type, const char *body, size_t len) {
    free(c->resp);
    c->resp = malloc(LWS_PRE + len + 1);
    if (!c->resp) {
        /* Nothing sensible can be sent: close the connection. */
        c->close_after = true;
        len = 0;
        c->resp = malloc(LWS_PRE + 1);
        status = 500;
    }
    if (c->resp && len)
        memcpy(c->resp + LWS_PRE, body, len);
    c->resp_len = c->resp ? len : 0;
    c->resp_off = 0;
    c->status = status;
    snprintf(c->content_type, sizeof c->content_type, "%s", content_type);
    c->ready = true;
    c->headers_sent = false;
    lws_callback_on_writable(c->wsi);
}

void http_error(HttpConn *c, int status, const char *key) {
    if (!c->api) {
        const char *code, *text;
        local_message(key, c->lang, &code, &text);
        http_set_response(c, status, "text/plain; charset=utf-8", text, strlen(text));
        return;
    }
    json_t *err = error_object(key, c->lang);
    json_t *o = err ? json_pack("{s:o}", "error", err) : NULL;
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    static const char fallback[] = "{\"error\":{\"code\":\"storage\",\"message\":\"out of memory\"}}";
    if (s)
        http_set_response(c, status, "application/json", s, strlen(s));
    else
        http_set_response(c, 500, "application/json", fallback, sizeof fallback - 1);
    free(s);
    json_decref(o);
}

/* Answers at once and closes: the rest of what the client sent cannot be trusted. */
static void http_refuse(HttpConn *c, int status, const char *key) {
    c->refused = true;
    c->close_after = true;
    http_error(c, status, key);
}

/* The request deadline passed while its body was still coming (a client that drips it a byte at a
 * time would otherwise hold the connection forever: lws's own timeout restarts with every byte):
 * 408, and the connection closed. Nothing of the body was acted on. */
static void deadline_fired(lws_sorted_usec_list_t *sul) {
    HttpConn *c = (HttpConn *)(void *)((char *)sul - offsetof(HttpConn, deadline));
    if (!c->busy || c->ready || c->waiting || c->refused)
        return; /* the body is in (or the request answered already) */
    c->timed_out = true;
    c->timed_out_ms = monotonic_ms();
    http_log_limit(c->srv, "request_timeout", c->client);
    http_refuse(c, 408, "request_timeout");
}

static void http_reply(void *ctx, const ServiceAnswer *a) {
    HttpConn *c = ctx;
    c->waiting = false;
    c->ticket = 0;
    http_set_response(c, a->status, a->content_type ? a->content_type : "application/json", a->body, a->len);
}

/* With ?lang= the query beats the body's "lang" (docs/api.md): the body's member is overwritten, and
 * the body goes to the service parsed (json_decref it). NULL: the body goes as it came. */
static json_t *body_with_lang(const HttpConn *c) {
    if (!c->lang_fixed || !c->body)
        return NULL;
    json_t *o = json_loadb(c->body, c->body_len, 0, NULL);
    if (json_is_object(o) && json_object_get(o, "lang") &&
        json_object_set_new(o, "lang", json_string(c->lang == SCH_LANG_DE ? "de" : "en")) == 0)
        return o;
    json_decref(o);
    return NULL;
}

static void account_reply(void *ctx, const AccountsAnswer *a) {
    HttpConn *c = ctx;
    c->waiting = false;
    c->ticket = 0;
    c->retry_after = a->retry_after;
    snprintf(c->set_cookie, sizeof c->set_cookie, "%s", a->set_cookie ? a->set_cookie : "");
    snprintf(c->filename, sizeof c->filename, "%s", a->filename ? a->filename : "");
    http_set_response(c, a->status, a->content_type ? a->content_type : "application/json", a->body, a->len);
}

/* An accounts request: the checks of the transport (origin, content type), then accounts.h. */
static void account_dispatch(HttpConn *c) {
    if (c->foreign_origin) {
        http_error(c, 403, "bad_origin");
        return;
    }
    if (c->post && !c->json_body) {
        http_error(c, 415, "content_type");
        return;
    }
    AccountsRequest req = {
        .action = c->account_action,
        .body = c->body ? c->body : (c->post ? "" : NULL),
        .token = c->session[0] ? c->session : NULL,
        .seek = c->account_action == ACCOUNTS_PLAYER || c->account_action == ACCOUNTS_PLAYER_PGN ? c->player
                : c->seek[0]                                                                     ? c->seek
                                                                                                 : NULL,
        .page = c->page,
        .filter = c->filter[0] ? c->filter : NULL,
        .address = c->client,
        .lang = c->lang,
        .secure = c->secure,
    };
    c->waiting = true;
    uint64_t ticket = accounts_handle(c->srv->accounts, &req, account_reply, c);
    if (c->waiting)
        c->ticket = ticket;
}

/* A create or a join (POST /api/games, /api/games/{id}/join), which a logged-in player makes as their
 * account (accounts.h ACCOUNTS_GAME). */
static bool game_as_account(const HttpConn *c) {
    return !c->account && c->srv->accounts && c->post && !c->route_status &&
           (c->action == ACTION_CREATE || (c->action == ACTION_JOIN && strlen(c->game) <= STORE_ID_LEN));
}

static void http_dispatch(HttpConn *c) {
    struct HttpServer *srv = c->srv;
    if (c->account && srv->accounts) {
        account_dispatch(c);
        return;
    }
    if (game_as_account(c) && c->session[0]) {
        /* The session's account is read first; the service's answer passes through. */
        json_t *rewritten = body_with_lang(c);
        char *body = rewritten ? json_dumps(rewritten, JSON_COMPACT) : NULL;
        json_decref(rewritten);
        AccountsRequest req = {
            .action = ACCOUNTS_GAME,
            .body = body      ? body
                    : c->body ? c->body
                              : "",
            .token = c->session,
            .address = c->client,
            .lang = c->lang,
            .secure = c->secure,
            .game_action = c->action,
            .game = c->game[0] ? c->game : NULL,
        };
        c->account = true; /* an accounts request from here on (http_reset cancels it there) */
        c->waiting = true;
        uint64_t ticket = accounts_handle(srv->accounts, &req, account_reply, c);
        if (c->waiting)
            c->ticket = ticket;
        free(body);
        return;
    }
    if (!srv->service) {
        http_error(c, 500, "internal");
        return;
    }
    json_t *rewritten = body_with_lang(c);
    ServiceRequest req = {
        .action = c->action,
        .game = c->game[0] ? c->game : NULL,
        .body = c->body ? c->body : (c->post ? "" : NULL),
        .json = rewritten,
        .ids = c->ids,
        .lang = c->lang,
    };
    c->waiting = true;
    c->in_handle = true;
    uint64_t ticket = service_handle(srv->service, &req, http_reply, c);
    c->in_handle = false;
    if (c->waiting)
        c->ticket = ticket;
    json_decref(rewritten);
    http_schedule_timer(srv);
}

static void route_fail(HttpConn *c, int status, const char *code) {
    c->route_status = status;
    c->route_code = code;
}

/* The accounts' paths (accounts.h): true when rest is one of them (routed, or refused with 405). */
static bool account_route(HttpConn *c, int method, const char *rest) {
    static const struct {
        const char *path;
        int method;
        AccountsAction action;
    } routes[] = {
        {"accounts", LWSHUMETH_POST, ACCOUNTS_SIGNUP},
        {"session", LWSHUMETH_POST, ACCOUNTS_LOGIN},
        {"session", LWSHUMETH_DELETE, ACCOUNTS_LOGOUT},
        {"sessions", LWSHUMETH_DELETE, ACCOUNTS_LOGOUT_ALL},
        {"me", LWSHUMETH_GET, ACCOUNTS_ME},
        {"me", LWSHUMETH_HEAD, ACCOUNTS_ME},
        {"account/password", LWSHUMETH_POST, ACCOUNTS_PASSWORD},
    };
    bool known = false;
    if (!strncmp(rest, "players/", 8)) {
        /* players/{name} and players/{name}/pgn */
        const char *name = rest + 8, *slash = strchr(name, '/');
        size_t len = slash ? (size_t)(slash - name) : strlen(name);
        if (!len || len >= sizeof c->player || (slash && strcmp(slash, "/pgn") != 0)) {
            route_fail(c, 404, "no_path");
            return true;
        }
        if (method != LWSHUMETH_GET && method != LWSHUMETH_HEAD) {
            route_fail(c, 405, "method");
            return true;
        }
        memcpy(c->player, name, len);
        c->player[len] = '\0';
        c->account = true;
        c->account_action = slash ? ACCOUNTS_PLAYER_PGN : ACCOUNTS_PLAYER;
        return true;
    }
    if (!strncmp(rest, "games/", 6)) {
        /* games/{id}/analysis: the engine's analysis of a finished game; the rest of games/ is the
         * service's. */
        const char *id = rest + 6, *slash = strchr(id, '/');
        if (!slash || strcmp(slash, "/analysis") != 0)
            return false;
        size_t idlen = (size_t)(slash - id);
        if (!valid_game_id(id, idlen)) {
            route_fail(c, 404, "no_game");
            return true;
        }
        bool get = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD;
        if (!get && method != LWSHUMETH_POST) {
            route_fail(c, 405, "method");
            return true;
        }
        memcpy(c->seek, id, idlen);
        c->seek[idlen] = '\0';
        c->account = true;
        c->account_action = get ? ACCOUNTS_ANALYSIS : ACCOUNTS_ANALYSIS_POST;
        c->post = !get;
        return true;
    }
    if (!strncmp(rest, "seeks", 5) && (rest[5] == '\0' || rest[5] == '/')) {
        /* seeks, seeks/{id}, seeks/{id}/accept */
        const char *id = rest[5] ? rest + 6 : NULL;
        const char *slash = id ? strchr(id, '/') : NULL;
        size_t idlen = id ? (slash ? (size_t)(slash - id) : strlen(id)) : 0;
        if (id && (idlen == 0 || idlen > STORE_ID_LEN || (slash && strcmp(slash, "/accept") != 0))) {
            route_fail(c, 404, "no_path");
            return true;
        }
        AccountsAction act;
        bool ok;
        if (!id) {
            ok = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD || method == LWSHUMETH_POST;
            act = method == LWSHUMETH_POST ? ACCOUNTS_SEEK_POST : ACCOUNTS_SEEKS;
        } else if (slash) {
            ok = method == LWSHUMETH_POST;
            act = ACCOUNTS_SEEK_ACCEPT;
        } else {
            ok = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD || method == LWSHUMETH_DELETE;
            act = method == LWSHUMETH_DELETE ? ACCOUNTS_SEEK_CANCEL : ACCOUNTS_SEEK_GET;
        }
        if (!ok) {
            route_fail(c, 405, "method");
            return true;
        }
        if (id) {
            memcpy(c->seek, id, idlen);
            c->seek[idlen] = '\0';
        }
        c->account = true;
        c->account_action = act;
        c->post = method == LWSHUMETH_POST;
        return true;
    }
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(rest, routes[i].path) != 0)
            continue;
        known = true;
        if (method == routes[i].method) {
            c->account = true;
            c->account_action = routes[i].action;
            c->post = method == LWSHUMETH_POST;
            return true;
        }
    }
    if (known)
        route_fail(c, 405, "method");
    return known;
}

/* Maps method and path under /api to an action; fills route_status/route_code when there is none.
 * HEAD is routed like GET. */
static void http_route(HttpConn *c, int method, const char *path) {
    bool get = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD, post = method == LWSHUMETH_POST;
    c->post = post;
    const char *rest = path + strlen("/api/");
    if (strncmp(path, "/api/", 5) != 0) {
        route_fail(c, 404, "no_path");
        return;
    }
    if (c->srv->accounts && account_route(c, method, rest))
        return;
    static const struct {
        const char *path;
        ServiceAction get, post; /* ACTION_LEVELS + 1: not allowed */
    } fixed[] = {
        {"levels", ACTION_LEVELS, ACTION_LEVELS + 1},
        {"recent", ACTION_RECENT, ACTION_LEVELS + 1},
        {"games", ACTION_LIST, ACTION_CREATE},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(rest, fixed[i].path)) {
            ServiceAction a = get ? fixed[i].get : post ? fixed[i].post : ACTION_LEVELS + 1;
            if (a > ACTION_LEVELS) {
                route_fail(c, 405, "method");
                return;
            }
            c->action = a;
            return;
        }
    if (strncmp(rest, "games/", 6) != 0) {
        route_fail(c, 404, "no_path");
        return;
    }
    const char *id = rest + 6;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    const char *name = slash ? slash + 1 : NULL;
    const ServiceVerb *verb = name ? service_verb(name) : NULL; /* none: the game's state */
    if (name && !verb) {
        route_fail(c, 404, "no_path");
        return;
    }
    bool want_post = verb && verb->change;
    if ((want_post && !post) || (!want_post && !get)) {
        route_fail(c, 405, "method");
        return;
    }
    if (!valid_game_id(id, idlen)) {
        route_fail(c, 404, "no_game");
        return;
    }
    memcpy(c->game, id, idlen);
    c->game[idlen] = '\0';
    c->action = verb ? verb->action : ACTION_STATE;
}

/* The body's declared length: -1 when there is no Content-Length, -2 when it is not exactly one plain
 * decimal number (repeated, "57,57", "57 ", "+57", "-1", "0x39", empty, absurdly long). */
static long declared_length(struct lws *wsi) {
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    if (total <= 0)
        return -1;
    char buf[32];
    if (total >= 12 || lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, 1) > 0 ||
        lws_hdr_copy_fragment(wsi, buf, (int)sizeof buf, WSI_TOKEN_HTTP_CONTENT_LENGTH, 0) != total)
        return -2;
    long n = 0;
    for (int i = 0; i < total; i++) {
        if (buf[i] < '0' || buf[i] > '9')
            return -2;
        n = n * 10 + (buf[i] - '0');
    }
    return n;
}

/* Refuses bodies whose length is unclear. true when the request was refused. */
static bool refuse_bad_framing(HttpConn *c, struct lws *wsi, long *length) {
    bool te = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0;
    *length = declared_length(wsi);
    if (*length == -2 || (te && *length >= 0)) {
        http_refuse(c, 400, "length");
        return true;
    }
    if (te) {
        http_refuse(c, 411, "chunked");
        return true;
    }
    return false;
}

/* The request and creation rates of the client's address. true when over a limit (429 decided). */
static bool over_rate(HttpConn *c) {
    struct HttpServer *srv = c->srv;
    int64_t now = monotonic_ms();
    /* The page's files (not the API, not an unknown route) have their own, larger bucket. */
    bool file = !c->api && !c->route_status;
    /* A move has an allowance of its own: no flood of other requests from the player's address can
     * make it answer 429 (and lose the game on time). */
    bool move = c->api && !c->route_status && !c->account && c->action == ACTION_MOVE;
    int wait = limits_take(srv->limits, c->client, file ? LIMIT_FILE : move ? LIMIT_MOVE : LIMIT_REQUEST, now);
    const char *key = "rate", *kind = file ? "files" : move ? "moves" : "requests";
    /* Creations: games, rematches (the answer to an offer makes a game) and seeks in the lobby (each
     * a row someone else may turn into a game). */
    bool creates = c->account ? c->account_action == ACCOUNTS_SEEK_POST
                              : c->action == ACTION_CREATE || c->action == ACTION_REMATCH;
    if (!wait && c->api && creates && !c->route_status) {
        wait = limits_take(srv->limits, c->client, LIMIT_CREATE, now);
        key = "rate_create", kind = "creates";
    }
    if (!wait)
        return false;
    http_log_limit(srv, kind, c->client);
    c->retry_after = wait;
    route_fail(c, 429, key);
    return true;
}

/* Copies header token t into buf (size bytes); false when it is absent, empty or longer. */
static bool header(struct lws *wsi, enum lws_token_indexes t, char *buf, int size) {
    int len = lws_hdr_total_length(wsi, t);
    return len > 0 && len < size && lws_hdr_copy(wsi, buf, size, t) == len;
}

/* A custom header (name lowercase with its colon) equals value; false when absent or longer. */
static bool custom_is(struct lws *wsi, const char *name, const char *value) {
    char buf[64];
    int n = lws_hdr_custom_copy(wsi, buf, (int)sizeof buf, name, (int)strlen(name));
    return n > 0 && n < (int)sizeof buf && strcasecmp(buf, value) == 0;
}

/* Whether the request came from another site's page: an Origin, when there is one, must name the
 * Host it was sent to (browsers send it with every POST and DELETE and with every WebSocket), and
 * Sec-Fetch-Site, when there is one, must say same-origin or none (browsers send it with every
 * request, GETs of images and scripts included). Clients that are no browser send neither. */
bool http_cross_site(struct lws *wsi, bool *navigation) {
    char buf[300], host[300];
    bool foreign = false;
    if (header(wsi, WSI_TOKEN_ORIGIN, buf, sizeof buf)) {
        const char *rest = !strncasecmp(buf, "https://", 8)  ? buf + 8
                           : !strncasecmp(buf, "http://", 7) ? buf + 7
                                                             : NULL;
        foreign = !rest || !header(wsi, WSI_TOKEN_HOST, host, sizeof host) || strcasecmp(rest, host) != 0;
    } else if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) > 0) {
        foreign = true; /* too long to be ours */
    }
    static const char site[] = "sec-fetch-site:";
    int n = lws_hdr_custom_copy(wsi, buf, (int)sizeof buf, site, (int)sizeof site - 1);
    if (n > 0 && strcasecmp(buf, "same-origin") != 0 && strcasecmp(buf, "none") != 0)
        foreign = true;
    else if (n < 0 && lws_hdr_custom_length(wsi, site, (int)sizeof site - 1) > 0)
        foreign = true; /* too long to be one of those */
    /* A link followed to a top-level page (a game's PGN from a forum post): not a page's script,
     * not an <iframe> or <img>. */
    if (navigation)
        *navigation =
            custom_is(wsi, "sec-fetch-mode:", "navigate") &&
            (lws_hdr_custom_length(wsi, "sec-fetch-dest:", 15) <= 0 || custom_is(wsi, "sec-fetch-dest:", "document"));
    return foreign;
}

/* What an API request needs of its headers, read while they are there: a JSON body, whether it came
 * from another site's page (http_cross_site), HTTPS (from a trusted proxy's X-Forwarded-Proto), and
 * the session token. */
static void api_headers(HttpConn *c, struct lws *wsi) {
    char buf[4096];
    c->json_body = header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, buf, sizeof buf) &&
                   strncasecmp(buf, "application/json", 16) == 0 &&
                   (buf[16] == '\0' || buf[16] == ';' || buf[16] == ' ');
    c->foreign_origin = http_cross_site(wsi, &c->navigation);
    if (!c->account && !game_as_account(c))
        return;
    static const char proto[] = "x-forwarded-proto:";
    c->secure = http_peer_trusted(c->srv, wsi) &&
                lws_hdr_custom_copy(wsi, buf, (int)sizeof buf, proto, (int)sizeof proto - 1) == 5 &&
                strcasecmp(buf, "https") == 0;
    c->session[0] = '\0';
    if (header(wsi, WSI_TOKEN_HTTP_COOKIE, buf, sizeof buf) &&
        !accounts_cookie_token(buf, c->session, sizeof c->session))
        c->session[0] = '\0';
}

static int http_begin(struct HttpServer *srv, HttpConn *c, struct lws *wsi) {
    c->srv = srv;
    c->wsi = wsi;
    http_reset(c);
    c->busy = true;
    srv->http_busy++;
    http_client_key(srv, wsi, c->client, sizeof c->client);
    char *uri = NULL;
    int ulen = 0;
    int method = lws_http_get_uri_and_method(wsi, &uri, &ulen);
    char path[PATH_BUF];
    c->head = method == LWSHUMETH_HEAD;
    if (method < 0 || !uri || ulen <= 0 || ulen >= (int)sizeof path) {
        c->api = true;
        http_refuse(c, 404, "no_path");
        return 0;
    }
    memcpy(path, uri, (size_t)ulen);
    path[ulen] = '\0';
    c->lang = request_lang(wsi, &c->lang_fixed);
    c->api = !strncmp(path, "/api/", 5) || !strcmp(path, "/api");
    long length;
    if (refuse_bad_framing(c, wsi, &length))
        return 0;
    if (length > MAX_DRAIN) {
        /* Not worth reading: answer and close. */
        http_refuse(c, 413, "too_large");
        return 0;
    }
    if (!c->api && http_ops(c, method, path, length))
        return 0; /* /healthz, /metrics: no rate limit (the balancer and the scraper ask all the time) */
    if (c->api) {
        http_route(c, method, path);
        api_headers(c, wsi);
        if (c->account && c->account_action == ACCOUNTS_PLAYER) {
            char arg[32];
            const char *v = lws_get_urlarg_by_name(wsi, "page=", arg, (int)sizeof arg);
            if (v) {
                char *end;
                long page = strtol(v, &end, 10);
                c->page = *end || end == v || page < 0 || page > 100000 ? -1 : (int)page;
            }
            v = lws_get_urlarg_by_name(wsi, "result=", arg, (int)sizeof arg);
            snprintf(c->filter, sizeof c->filter, "%s", v ? (strlen(v) < sizeof c->filter ? v : "?") : "");
        }
    } else {
        c->post = length > 0;
        if (method != LWSHUMETH_GET && method != LWSHUMETH_HEAD) {
            c->allow_get = true;
            route_fail(c, 405, "method");
        }
    }
    /* Another site's page in the visitor's browser changes nothing and costs the visitor nothing:
     * refused before any limit is charged (only a link followed to a page of ours goes through). So
     * are bodies that are not JSON (an HTML form's or text/plain, which a foreign page may send). */
    bool get = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD;
    if (c->api && !c->route_status && c->foreign_origin && !(get && c->navigation))
        route_fail(c, 403, "bad_origin");
    else if (c->api && !c->route_status && c->post && !c->json_body)
        route_fail(c, 415, "content_type");
    else
        over_rate(c);
    if (c->foreign_origin && get && c->navigation)
        c->foreign_origin = false; /* a link followed: the accounts' reads answer it */
    if (c->api && c->action == ACTION_LIST && !c->route_status) {
        c->ids = malloc(QUERY_MAX);
        const char *v = c->ids ? lws_get_urlarg_by_name(wsi, "ids=", c->ids, QUERY_MAX) : NULL;
        if (v) {
            memmove(c->ids, v, strlen(v) + 1); /* lws leaves "ids=" in front */
        } else {
            free(c->ids);
            c->ids = NULL;
        }
    }
    if (length > 0) {
        /* The body comes in LWS_CALLBACK_HTTP_BODY, answered at its end, or at the deadline. */
        if (!c->refused)
            lws_sul_schedule(lws_get_context(wsi), 0, &c->deadline, deadline_fired,
                             (lws_usec_t)srv->request_timeout_s * LWS_US_PER_SEC);
        return 0;
    }
    if (c->route_status)
        http_error(c, c->route_status, c->route_code);
    else if (!c->api)
        http_static(c, path);
    else
        http_dispatch(c);
    return 0;
}

static int http_body(HttpConn *c, const void *in, size_t len) {
    /* Past the deadline: the 408 had its chance to go out; whatever still drips in closes it. */
    if (c->timed_out && monotonic_ms() - c->timed_out_ms > 2000)
        return -1;
    if (c->refused || c->too_large || c->route_status || !c->api || len == 0)
        return 0; /* drained: the answer does not depend on it */
    if (c->body_len + len > MAX_REQUEST) {
        c->too_large = true;
        return 0;
    }
    if (!c->body) {
        c->body = malloc(MAX_REQUEST + 1);
        if (!c->body)
            return -1;
    }
    memcpy(c->body + c->body_len, in, len);
    c->body_len += len;
    c->body[c->body_len] = '\0';
    return 0;
}

static int http_body_done(HttpConn *c) {
    if (c->refused)
        return 0; /* answered already */
    if (c->too_large)
        http_error(c, 413, "too_large");
    else if (c->route_status)
        http_error(c, c->route_status, c->route_code);
    else if (!c->api) {
        c->allow_get = true; /* a static file with a body: not a GET */
        http_error(c, 405, "method");
    } else if (c->body && memchr(c->body, '\0', c->body_len))
        http_error(c, 400, "nul"); /* the service reads the body up to its first NUL */
    else
        http_dispatch(c);
    return 0;
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p, unsigned char *end) {
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value,
                                       (int)strlen(value), p, end);
}

/* The security headers of every answer (docs/api.md "Security headers"). The page loads only its
 * own files: no inline script or style, no other site's resources, and it cannot be framed. Two
 * exceptions, both of chessground: its pieces and board are data: images in its CSS, and it sets one
 * style attribute, "color-scheme:light only", allowed by its hash alone. Scripts may compile
 * WebAssembly ('wasm-unsafe-eval': schach.wasm, docs/wasm.md), which allows no eval() of text. */
static const char *const security_headers[][2] = {
    {"content-security-policy:",
     "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; style-src 'self' 'unsafe-hashes' "
     "'sha256-SyXRxMCl6H7Kgy9uTmu1UZqVBsRmMBF4sHRiTO3FQc0='; object-src 'none'; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"},
    {"x-content-type-options:", "nosniff"},
    {"x-frame-options:", "DENY"},
    {"referrer-policy:", "no-referrer"},
    {"permissions-policy:", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
};

static int http_write_headers(HttpConn *c, struct lws *wsi) {
    unsigned char buf[LWS_PRE + 2048];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    char num[32];
    if (c->status == 304) {
        /* Not modified: no body, no length (the client keeps the one it has). */
        if (lws_add_http_header_status(wsi, 304, &p, end))
            return -1;
    } else if (c->head) {
        /* The GET answer's length without lws counting on a body that never comes. */
        snprintf(num, sizeof num, "%zu", c->resp_len);
        if (lws_add_http_header_status(wsi, (unsigned)c->status, &p, end) ||
            add_header(wsi, "content-type:", c->content_type, &p, end) ||
            add_header(wsi, "content-length:", num, &p, end))
            return -1;
    } else if (lws_add_http_common_headers(wsi, (unsigned)c->status, c->content_type, (lws_filepos_t)c->resp_len, &p,
                                           end)) {
        return -1;
    }
    if ((c->api || c->ops) && add_header(wsi, "cache-control:", "no-store", &p, end))
        return -1;
    for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
        if (add_header(wsi, security_headers[i][0], security_headers[i][1], &p, end))
            return -1;
    /* A file of the web folder: kept by the browser, asked for again with its tag (a 304 costs no body). */
    if (c->static_file &&
        (add_header(wsi, "cache-control:", "no-cache", &p, end) || add_header(wsi, "etag:", c->etag, &p, end) ||
         add_header(wsi, "vary:", "accept-encoding", &p, end) ||
         (c->gzip && c->status == 200 && add_header(wsi, "content-encoding:", "gzip", &p, end))))
        return -1;
    /* A draining server closes every connection after its answer: the client's next request opens a
     * new connection, which the balancer gives to another node. */
    if (http_draining(c->srv))
        c->close_after = true;
    if (c->action == ACTION_PGN && c->status == 200) {
        /* The two languages download under different names: schach-ID.pgn and schach-ID-de.pgn. */
        char disp[96];
        snprintf(disp, sizeof disp, "attachment; filename=\"schach-%s%s.pgn\"", c->game,
                 c->lang == SCH_LANG_DE ? "-de" : "");
        if (add_header(wsi, "content-disposition:", disp, &p, end))
            return -1;
    }
    if (c->filename[0] && c->status == 200) {
        /* A download of the accounts' (a player's games): its name says whose and in which language. */
        char disp[128];
        snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", c->filename);
        if (add_header(wsi, "content-disposition:", disp, &p, end))
            return -1;
    }
    if (c->set_cookie[0] && add_header(wsi, "set-cookie:", c->set_cookie, &p, end))
        return -1;
    if (c->status == 429 || (c->status == 503 && c->retry_after > 0)) {
        snprintf(num, sizeof num, "%d", c->retry_after > 0 ? c->retry_after : 1);
        if (add_header(wsi, "retry-after:", num, &p, end))
            return -1;
    }
    if (c->status == 405 && add_header(wsi, "allow:", c->allow_get ? "GET, HEAD" : "GET, HEAD, POST", &p, end))
        return -1;
    if (c->close_after && add_header(wsi, "connection:", "close", &p, end))
        return -1;
    if (lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    c->headers_sent = true;
    return 0;
}

static int http_writeable(HttpConn *c, struct lws *wsi) {
    if (!c->ready)
        return 0;
    if (!c->headers_sent) {
        if (http_write_headers(c, wsi))
            return -1;
        if (c->resp_len > 0 && !c->head) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    } else {
        size_t n = c->resp_len - c->resp_off;
        if (n > WRITE_CHUNK)
            n = WRITE_CHUNK;
        bool last = c->resp_off + n == c->resp_len;
        if (lws_write(wsi, c->resp + LWS_PRE + c->resp_off, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
            return -1;
        c->resp_off += n;
        if (!last) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    bool close = c->close_after;
    http_reset(c);
    if (close || lws_http_transaction_completed(wsi))
        return -1;
    return 0;
}

int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    struct HttpServer *srv = ctx ? lws_context_user(ctx) : NULL;
    HttpConn *c = user;
    switch (reason) {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED: http_on_wake(srv); return 0;
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: return http_filter_connection(srv, user);
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: return http_connection_opened(srv, wsi);
        case LWS_CALLBACK_WSI_DESTROY: http_connection_destroyed(srv, wsi); return 0;
        case LWS_CALLBACK_HTTP:
            if (!c || !srv)
                return -1;
            return http_begin(srv, c, wsi);
        case LWS_CALLBACK_HTTP_BODY: return c ? http_body(c, in, len) : -1;
        case LWS_CALLBACK_HTTP_BODY_COMPLETION: return c ? http_body_done(c) : -1;
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if (c && c->ready)
                return http_writeable(c, wsi);
            break;
        case LWS_CALLBACK_CLOSED_HTTP:
        case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
            if (c && c->srv)
                http_reset(c);
            break;
        default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}
