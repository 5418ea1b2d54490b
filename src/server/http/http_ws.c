/* schach serve: the WebSocket on /ws (docs/api.md "WebSocket"). Messages are reassembled from lws's
 * pieces, checked against the client's request rate, and mapped to service requests; states and
 * answers go out through a per-connection queue, one lws_write per writeable callback.
 *
 * A client that stops reading is dropped once its queue is over the limit: lws_set_timeout with
 * LWS_TO_KILL_ASYNC closes it on the loop's next turn without waiting for a writeable callback (which
 * never comes while the client's receive window is full), whatever state the socket is in.
 *
 * A client that breaks the framing (an unmasked frame above all, which libwebsockets 4.1 would take)
 * is caught by ws_guard.c before lws parses the frame: it calls ws_frame_violation, and the
 * connection is closed with 1002 (protocol error) without reading anything more from it.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_internal.h"
#include "base/base.h"

enum { PROTOCOL_ERROR_CLOSE_S = 3 }; /* a client that broke the framing is gone within this */

static void ws_free_queue(WsConn *c) {
    while (c->head) {
        WsMsg *m = c->head;
        c->head = m->next;
        free(m);
    }
    c->tail = NULL;
    c->queued_bytes = 0;
    c->queued_msgs = 0;
}

/* Frees the queue and has lws close the connection soon, without its cooperation. */
static void ws_drop(WsConn *c, const char *why) {
    char msgs[16], bytes[24];
    snprintf(msgs, sizeof msgs, "%d", c->queued_msgs);
    snprintf(bytes, sizeof bytes, "%zu", c->queued_bytes);
    log_event_limited(&c->srv->log_dropped, LOG_WARN, "client_dropped", "address", c->client, "reason", why,
                      "queued_messages", msgs, "queued_bytes", bytes, (char *)NULL);
    c->dead = true;
    ws_free_queue(c);
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* The client broke the framing: nothing more is read or queued; the next writeable sends Close 1002,
 * and the timeout ends the connection should the client not even take that. */
static void ws_protocol_error(WsConn *c, const char *why) {
    if (!c->open || c->protocol_error)
        return;
    log_event_limited(&c->srv->log_dropped, LOG_WARN, "client_dropped", "address", c->client, "reason", why,
                      (char *)NULL);
    c->protocol_error = true;
    ws_free_queue(c);
    lws_callback_on_writable(c->wsi);
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, PROTOCOL_ERROR_CLOSE_S);
}

void ws_frame_violation(void *owner, WsFrameError why) { ws_protocol_error(owner, ws_frame_error_name(why)); }

/* Queues one text message. */
static void ws_enqueue(WsConn *c, const char *text, size_t len) {
    if (!c->open || c->dead || c->closing || c->protocol_error)
        return;
    if (c->queued_msgs >= WS_QUEUE_MAX_MSGS || c->queued_bytes + len > WS_QUEUE_MAX_BYTES) {
        ws_drop(c, "slow");
        return;
    }
    WsMsg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) {
        ws_drop(c, "memory");
        return;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued_bytes += len;
    c->queued_msgs++;
    lws_callback_on_writable(c->wsi);
}

/* Queues obj (and releases it). */
static void ws_send_json(WsConn *c, json_t *obj) {
    char *s = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    if (s)
        ws_enqueue(c, s, strlen(s));
    free(s);
    json_decref(obj);
}

/* {"type":"error","id":…,"error":err}; takes err's reference; id is borrowed and may be NULL. */
static void ws_send_error_object(WsConn *c, json_t *id, json_t *err) {
    json_t *o = json_pack("{s:s,s:o}", "type", "error", "error", err ? err : json_object());
    if (o && id)
        json_object_set(o, "id", id);
    ws_send_json(c, o);
}

static void ws_send_error(WsConn *c, json_t *id, const char *key) {
    ws_send_error_object(c, id, error_object(key, c->lang));
}

static void ws_event(void *ctx, const char *json, size_t len) { ws_enqueue(ctx, json, len); }

static void ws_pending_unlink(WsConn *c, WsPending *p) {
    for (WsPending **pp = &c->pending; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            c->npending--;
            break;
        }
    json_decref(p->id);
    free(p);
}

/* The service answered a change: ack with the new ply, or the error as the service worded it. */
static void ws_reply(void *ctx, const ServiceAnswer *a) {
    WsPending *p = ctx;
    WsConn *c = p->conn;
    if (a->status >= 200 && a->status < 300) {
        /* The acknowledgement from the answer's facts: the state itself reaches this connection as a
         * subscriber, so its body is not parsed here (that was a third of the loop's time). */
        json_t *o = json_pack("{s:s,s:s}", "type", "ack", "game", p->game);
        if (o) {
            if (p->id)
                json_object_set(o, "id", p->id);
            if (a->ply >= 0)
                json_object_set_new(o, "ply", json_integer(a->ply));
            if (a->duplicate)
                json_object_set_new(o, "duplicate", json_true());
            if (a->claim_rejected)
                json_object_set_new(o, "claim_rejected", json_true());
            if (p->rematch) { /* the new game's id, colour and secret (not its state: subscribe to it) */
                json_t *r = json_loadb(a->body, a->len, 0, NULL);
                const char *keys[] = {"id", "color", "secret", "secrets"};
                for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
                    json_t *v = json_object_get(r, keys[i]);
                    if (v)
                        json_object_set(o, i == 0 ? "new_game" : keys[i], v);
                }
                json_decref(r);
            }
        }
        ws_send_json(c, o);
    } else {
        json_t *r = json_loadb(a->body, a->len, 0, NULL);
        json_t *err = json_object_get(r, "error");
        if (json_is_object(err))
            ws_send_error_object(c, p->id, json_incref(err));
        else
            ws_send_error(c, p->id, "internal");
        json_decref(r);
    }
    p->done = true;
    if (!p->in_handle)
        ws_pending_unlink(c, p);
}

static void ws_unsubscribe(WsConn *c, const char *game) {
    for (int i = 0; i < c->nsubs; i++)
        if (!strcmp(c->subs[i].game, game)) {
            service_unsubscribe(c->srv->service, c->subs[i].id);
            c->subs[i] = c->subs[--c->nsubs];
            return;
        }
}

static void ws_subscribe(WsConn *c, json_t *id, const char *game, json_t *secret) {
    int max = c->srv->ws_subscriptions;
    ws_unsubscribe(c, game); /* subscribing again sends the full state again */
    if (c->nsubs >= max) {
        http_log_limit(c->srv, "subscriptions", c->client);
        ws_send_error(c, id, "subs");
        return;
    }
    if (c->nsubs == c->subs_cap) {
        int cap = c->subs_cap ? c->subs_cap * 2 : 2;
        if (cap > max)
            cap = max;
        WsSub *subs = realloc(c->subs, (size_t)cap * sizeof *subs);
        if (!subs) {
            ws_send_error(c, id, "internal");
            return;
        }
        c->subs = subs;
        c->subs_cap = cap;
    }
    WsSub *s = &c->subs[c->nsubs];
    snprintf(s->game, sizeof s->game, "%s", game);
    if (secret && (!json_is_string(secret) || json_string_length(secret) > 64)) {
        ws_send_error(c, id, "bad_secret");
        return;
    }
    bool bad_secret = false;
    s->id = service_subscribe_as(c->srv->service, game, secret ? json_string_value(secret) : NULL, ws_event, c,
                                 &bad_secret);
    if (!s->id) {
        ws_send_error(c, id, bad_secret ? "bad_secret" : "no_game");
        return;
    }
    c->nsubs++;
}

/* {"type":"lobby"}: the lobby live (accounts_lobby_watch), with "hold":{"seek","secret"} a seek of this
 * poster that leaves the lobby when the connection goes (and that, posted with "hold", stays past its
 * grace); {"type":"unlobby"} stops watching. */
static void ws_lobby(WsConn *c, json_t *msg, json_t *id, bool watch) {
    Accounts *a = c->srv->accounts;
    if (!a) {
        ws_send_error(c, id, "type");
        return;
    }
    if (!watch) {
        if (c->lobby_watch)
            accounts_lobby_unwatch(a, c->lobby_watch);
        c->lobby_watch = 0;
        return;
    }
    json_t *hold = json_object_get(msg, "hold");
    if (hold) {
        const char *seek = json_string_value(json_object_get(hold, "seek"));
        const char *secret = json_string_value(json_object_get(hold, "secret"));
        if (!json_is_object(hold) || !seek || !secret || strlen(seek) != STORE_ID_LEN ||
            strlen(secret) >= sizeof c->held[0].secret) {
            ws_send_error(c, id, "hold");
            return;
        }
        if (c->nheld == WS_HELD_SEEKS) {
            ws_send_error(c, id, "subs");
            return;
        }
        snprintf(c->held[c->nheld].seek, sizeof c->held[0].seek, "%s", seek);
        snprintf(c->held[c->nheld].secret, sizeof c->held[0].secret, "%s", secret);
        c->nheld++;
        /* A seek posted with "hold" waits only a short grace for this (docs/api.md "Lobby"). */
        accounts_seek_hold(a, seek, secret);
    }
    if (!c->lobby_watch) {
        c->lobby_watch = accounts_lobby_watch(a, ws_event, c);
        if (!c->lobby_watch)
            ws_send_error(c, id, "internal");
    }
}

static void ws_change(WsConn *c, json_t *msg, json_t *id, ServiceAction action, const char *game) {
    if (c->npending >= WS_MAX_PENDING) {
        ws_send_error(c, id, "pending");
        return;
    }
    /* The body is the message without the envelope (a shallow copy), handed on parsed; the service
     * validates it strictly. */
    json_t *body = json_copy(msg);
    json_object_del(body, "type");
    json_object_del(body, "game");
    json_object_del(body, "id");
    WsPending *p = body ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        json_decref(body);
        ws_send_error(c, id, "internal");
        return;
    }
    p->conn = c;
    p->id = id ? json_incref(id) : NULL;
    p->rematch = action == ACTION_REMATCH;
    snprintf(p->game, sizeof p->game, "%s", game);
    p->next = c->pending;
    c->pending = p;
    c->npending++;
    ServiceRequest req = {.action = action, .game = p->game, .json = body, .ids = NULL, .lang = c->lang};
    p->in_handle = true;
    uint64_t ticket = c->srv->service ? service_handle(c->srv->service, &req, ws_reply, p) : 0;
    p->in_handle = false;
    json_decref(body);
    if (!ticket && !p->done) {
        ws_send_error(c, id, "internal");
        p->done = true;
    }
    if (p->done)
        ws_pending_unlink(c, p);
    else
        p->ticket = ticket;
    http_schedule_timer(c->srv);
}

/* Over one of the client's rates (kind: requests, or new games for a rematch): an error with the
 * seconds to wait. true when refused. */
static bool ws_over(WsConn *c, json_t *id, LimitKind kind) {
    int wait = limits_take(c->srv->limits, c->client, kind, monotonic_ms());
    if (!wait)
        return false;
    bool create = kind == LIMIT_CREATE;
    http_log_limit(c->srv, create ? "creates" : kind == LIMIT_MOVE ? "moves" : "requests", c->client);
    json_t *err = error_object(create ? "rate_create" : "rate", c->lang);
    if (err)
        json_object_set_new(err, "retry_after", json_integer(wait));
    ws_send_error_object(c, id, err);
    return true;
}

static void ws_message(WsConn *c, const char *text, size_t len) {
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    /* A move has an allowance of its own (client_limits.h): no flood of other messages or requests
     * from the player's address makes it answer with a rate error. */
    const char *t = json_string_value(json_object_get(msg, "type"));
    if (ws_over(c, json_object_get(msg, "id"), t && !strcmp(t, "move") ? LIMIT_MOVE : LIMIT_REQUEST)) {
        json_decref(msg);
        return;
    }
    if (!json_is_object(msg)) {
        json_decref(msg);
        ws_send_error(c, NULL, "bad_json");
        return;
    }
    json_t *id = json_object_get(msg, "id");
    const char *type = json_string_value(json_object_get(msg, "type"));
    const char *game = json_string_value(json_object_get(msg, "game"));
    bool game_ok = game && valid_game_id(game, strlen(game));
    if (!type) {
        ws_send_error(c, id, "type");
    } else if (!strcmp(type, "ping")) {
        json_t *o = json_pack("{s:s}", "type", "pong");
        if (o && id)
            json_object_set(o, "id", id);
        ws_send_json(c, o);
    } else if (!strcmp(type, "lobby") || !strcmp(type, "unlobby")) {
        ws_lobby(c, msg, id, type[0] == 'l');
    } else if (!strcmp(type, "subscribe") || !strcmp(type, "unsubscribe")) {
        if (!game_ok)
            ws_send_error(c, id, game ? "no_game" : "game");
        else if (type[0] == 's')
            ws_subscribe(c, id, game, json_object_get(msg, "secret"));
        else
            ws_unsubscribe(c, game);
    } else {
        const ServiceVerb *verb = service_verb(type); /* the game's changes, as over HTTP */
        if (!verb || !verb->websocket)
            ws_send_error(c, id, "type");
        else if (!game_ok)
            ws_send_error(c, id, game ? "no_game" : "game");
        else if (verb->action == ACTION_REMATCH && ws_over(c, id, LIMIT_CREATE))
            ; /* a rematch may make a game: it counts as a creation, as over HTTP */
        else
            ws_change(c, msg, id, verb->action, game);
    }
    json_decref(msg);
}

/* Appends a piece of the message being reassembled; false when out of memory. */
static bool rx_append(WsConn *c, const void *in, size_t len) {
    if (c->rx_len + len > c->rx_cap) {
        size_t cap = c->rx_cap ? c->rx_cap : 1024;
        while (cap < c->rx_len + len)
            cap *= 2;
        if (cap > MAX_REQUEST)
            cap = MAX_REQUEST;
        char *rx = realloc(c->rx, cap);
        if (!rx)
            return false;
        c->rx = rx;
        c->rx_cap = cap;
    }
    if (len > 0)
        memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
    return true;
}

static void rx_release(WsConn *c) {
    free(c->rx);
    c->rx = NULL;
    c->rx_len = c->rx_cap = 0;
}

/* Reassembles messages from lws's pieces (frames and buffer-sized parts of frames). A message that
 * comes in one piece, the usual case, is handled where lws holds it; one in pieces is copied into a
 * buffer that is freed again once the message is complete, so an idle connection holds none. */
static void ws_receive(WsConn *c, struct lws *wsi, const void *in, size_t len) {
    /* going_away: the close is decided; a message the client sends meanwhile is not carried out (it
     * sees the close before any answer, so it knows, and sends it again after reconnecting). */
    if (c->dead || c->closing || c->close_after || c->protocol_error || c->going_away)
        return;
    bool last = lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0;
    if (!c->in_message) {
        c->rx_binary = lws_frame_is_binary(wsi) != 0;
        if (last) {
            if (c->rx_binary)
                ws_send_error(c, NULL, "binary");
            else
                ws_message(c, (const char *)in, len);
            return;
        }
        c->in_message = true;
        c->rx_len = 0;
        c->rx_skip = false;
    }
    if (!c->rx_skip && !c->rx_binary) {
        if (c->rx_len + len > MAX_REQUEST) {
            /* Refuse at once instead of reading the rest: error, then close. */
            rx_release(c);
            ws_send_error(c, NULL, "too_large");
            c->close_after = true;
            return;
        }
        if (!rx_append(c, in, len)) {
            rx_release(c);
            c->rx_skip = true;
        }
    }
    if (!last)
        return;
    c->in_message = false;
    if (c->rx_binary)
        ws_send_error(c, NULL, "binary");
    else if (c->rx_skip)
        ws_send_error(c, NULL, "internal");
    else
        ws_message(c, c->rx, c->rx_len);
    rx_release(c);
}

static int ws_writeable(WsConn *c, struct lws *wsi) {
    if (c->protocol_error) {
        static const char why[] = "protocol error";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, (unsigned char *)why, sizeof why - 1);
        return -1;
    }
    if (c->dead || c->closing)
        return -1;
    WsMsg *m = c->head;
    if (!m) {
        if (c->going_away) {
            static const char why[] = "server going away";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_GOINGAWAY, (unsigned char *)why, sizeof why - 1);
            return -1;
        }
        if (c->close_after) {
            static const char why[] = "message too large";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)why, sizeof why - 1);
            return -1;
        }
        return 0;
    }
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued_bytes -= m->len;
    c->queued_msgs--;
    int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
    bool ok = n >= (int)m->len;
    free(m);
    if (!ok)
        return -1;
    if (c->head || c->close_after || c->going_away)
        lws_callback_on_writable(wsi);
    return 0;
}

/* The server's list of open WebSockets: counted for GET /metrics, closed together by a drain. */
static void ws_link(WsConn *c) {
    struct HttpServer *srv = c->srv;
    c->prev_open = NULL;
    c->next_open = srv->ws_open;
    if (srv->ws_open)
        srv->ws_open->prev_open = c;
    srv->ws_open = c;
    srv->websockets++;
}

static void ws_unlink(WsConn *c) {
    struct HttpServer *srv = c->srv;
    if (c->prev_open)
        c->prev_open->next_open = c->next_open;
    else
        srv->ws_open = c->next_open;
    if (c->next_open)
        c->next_open->prev_open = c->prev_open;
    c->prev_open = c->next_open = NULL;
    srv->websockets--;
}

static void ws_going_away(WsConn *c) {
    if (c->going_away)
        return;
    c->going_away = true;
    lws_callback_on_writable(c->wsi);
}

void ws_close_all_going_away(struct HttpServer *srv) {
    for (WsConn *c = srv->ws_open; c; c = c->next_open)
        ws_going_away(c);
}

static void ws_closed(WsConn *c) {
    if (!c->open)
        return;
    c->open = false;
    ws_unlink(c);
    Service *svc = c->srv->service;
    for (int i = 0; i < c->nsubs; i++)
        if (svc)
            service_unsubscribe(svc, c->subs[i].id);
    free(c->subs);
    c->subs = NULL;
    c->nsubs = 0;
    Accounts *acc = c->srv->accounts;
    if (acc && c->lobby_watch)
        accounts_lobby_unwatch(acc, c->lobby_watch);
    c->lobby_watch = 0;
    /* The poster left: their seeks leave the lobby. */
    for (int i = 0; acc && i < c->nheld; i++)
        accounts_seek_abandon(acc, c->held[i].seek, c->held[i].secret);
    c->nheld = 0;
    while (c->pending) {
        WsPending *p = c->pending;
        c->pending = p->next;
        if (svc)
            service_cancel(svc, p->ticket);
        json_decref(p->id);
        free(p);
    }
    ws_free_queue(c);
    rx_release(c);
}

int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    struct HttpServer *srv = ctx ? lws_context_user(ctx) : NULL;
    WsConn *c = user;
    switch (reason) {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
            /* Only /ws speaks WebSocket. */
            char *uri = NULL;
            int ulen = 0;
            if (lws_http_get_uri_and_method(wsi, &uri, &ulen) != LWSHUMETH_GET || ulen != 3 || memcmp(uri, "/ws", 3))
                return 1;
            /* Another site's page may open a WebSocket to us (browsers let it, with its Origin): it
             * would spend the visitor's limits and act with their cookie. Refused. */
            if (http_cross_site(wsi, NULL)) {
                if (srv)
                    http_log_limit(srv, "cross_site_websocket", "-");
                return 1;
            }
            return 0;
        }
        case LWS_CALLBACK_ESTABLISHED: {
            if (!c || !srv || !srv->service)
                return -1;
            memset(c, 0, sizeof *c);
            c->srv = srv;
            c->wsi = wsi;
            c->open = true;
            ws_link(c);
            /* A handshake that was under way when the drain began to close the WebSockets. */
            if (srv->drain_phase >= DRAIN_CLOSING)
                ws_going_away(c);
            http_client_key(srv, wsi, c->client, sizeof c->client);
            bool fixed;
            c->lang = request_lang(wsi, &fixed);
            /* From here on ws_guard checks every frame. A WebSocket inside HTTP/2 (RFC 8441) shares
             * its descriptor with other streams and cannot be checked: refused. */
            if (lws_get_network_wsi(wsi) != wsi)
                ws_protocol_error(c, "websocket_over_http2");
            else if (!ws_guard_websocket(lws_get_socket_fd(wsi), c))
                ws_protocol_error(c, "unchecked_frames");
            return 0;
        }
        case LWS_CALLBACK_RECEIVE:
            if (c && c->open)
                ws_receive(c, wsi, in, len);
            return 0;
        case LWS_CALLBACK_SERVER_WRITEABLE: return c && c->open ? ws_writeable(c, wsi) : 0;
        case LWS_CALLBACK_CLOSED:
            if (lws_get_network_wsi(wsi) == wsi)
                ws_guard_forget(lws_get_socket_fd(wsi));
            if (c)
                ws_closed(c);
            return 0;
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            return 0; /* protocol 0 handles wake-ups */
        /* lws names a connection's bound protocol for these, which may be this one (the default). */
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: return http_connection_opened(srv, wsi);
        case LWS_CALLBACK_WSI_DESTROY: http_connection_destroyed(srv, wsi); return 0;
        default: return 0;
    }
}
