/* schach serve: the transport's frame (http.h): the libev loop under one lws context, wake-ups
 * from other threads, the service's timers, the listening vhost, and the connection filter that
 * enforces the connection limits.
 *
 * Running out of file descriptors: the total connection limit (cmd_serve.c keeps it below the
 * process's descriptor limit) is enforced in the connection filter, which closes a connection over a
 * limit right after accept. accept() therefore never fails with EMFILE, which lws 4.1 would only log
 * ("accept: errno 24") and retry at once, forever; and libwebsockets' own log goes through log.h at
 * most once a second.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include <arpa/inet.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "http_internal.h"
#include "base/base.h"

#ifndef SCHACH_WEB_DIR
#define SCHACH_WEB_DIR "web"
#endif

enum { SWEEP_US = 10 * 1000 * 1000 };

/* ---- libwebsockets' own log ------------------------------------------------------------------ */

static LogLimiter lws_log_limiter; /* lws's emit function has no context pointer */

static void lws_log_emit(int level, const char *line) {
    char text[512];
    snprintf(text, sizeof text, "%s", line);
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    log_event_limited(&lws_log_limiter, level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws", "message", text, (char *)NULL);
}

/* ---- timers and wake-ups ---------------------------------------------------------------------- */

static void timer_fired(lws_sorted_usec_list_t *sul) {
    struct HttpServer *srv = (struct HttpServer *)(void *)((char *)sul - offsetof(struct HttpServer, timer));
    if (srv->service)
        service_on_timer(srv->service);
    http_schedule_timer(srv);
}

/* Every change may move the next clock deadline: called after each request, wake and timer. */
void http_schedule_timer(struct HttpServer *srv) {
    if (!srv->service || !srv->context)
        return;
    int64_t ms = service_next_timer_ms(srv->service);
    if (ms < 0) {
        lws_sul_cancel(&srv->timer);
        return;
    }
    lws_sul_schedule(srv->context, 0, &srv->timer, timer_fired, (lws_usec_t)ms * 1000);
}

/* Forgets idle addresses now and then, so the table does not grow with every address ever seen. */
static void sweep_fired(lws_sorted_usec_list_t *sul) {
    struct HttpServer *srv = (struct HttpServer *)(void *)((char *)sul - offsetof(struct HttpServer, sweep));
    limits_sweep(srv->limits, monotonic_ms());
    lws_sul_schedule(srv->context, 0, &srv->sweep, sweep_fired, SWEEP_US);
}

void http_server_wake(void *ctx) {
    struct HttpServer *srv = ctx;
    pthread_mutex_lock(&srv->wake_lock);
    if (srv->wake_context)
        lws_cancel_service(srv->wake_context);
    pthread_mutex_unlock(&srv->wake_lock);
}

void http_on_wake(struct HttpServer *srv) {
    if (!srv)
        return;
    if (srv->stop) {
        ev_break(srv->loop, EVBREAK_ALL);
        return;
    }
    http_drain_check(srv);
    if (srv->accounts)
        accounts_on_wake(srv->accounts);
    if (srv->service) {
        service_on_wake(srv->service);
        http_schedule_timer(srv);
    }
}

void http_server_set_accounts(HttpServer *srv, Accounts *a) { srv->accounts = a; }

/* ---- client addresses and connection limits ---------------------------------------------------- */

/* The peer's address as canonical text (IPv4 for v4-mapped IPv6) and as a limits key. */
static bool sockaddr_text(const struct sockaddr *sa, char *text, size_t size) {
    char raw[INET6_ADDRSTRLEN];
    const void *addr =
        sa->sa_family == AF_INET    ? (const void *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr
        : sa->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr
                                    : NULL;
    return addr && inet_ntop(sa->sa_family, addr, raw, sizeof raw) && limits_canonical_text(raw, text, size);
}

static bool is_trusted(const struct HttpServer *srv, const char *text) {
    for (int i = 0; i < srv->ntrusted; i++)
        if (!strcmp(srv->trusted[i], text))
            return true;
    return false;
}

static bool peer_of(struct lws *wsi, struct sockaddr_storage *ss) {
    socklen_t len = sizeof *ss;
    memset(ss, 0, sizeof *ss);
    return getpeername(lws_get_socket_fd(wsi), (struct sockaddr *)ss, &len) == 0;
}

/* X-Forwarded-For from a trusted proxy: the rightmost address that is not a trusted proxy itself
 * (everything left of it was written by the client and proves nothing). false when there is none. */
static bool forwarded_key(const struct HttpServer *srv, struct lws *wsi, char *key, size_t size) {
    char h[1024];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    if (n <= 0 || n >= (int)sizeof h || lws_hdr_copy(wsi, h, (int)sizeof h, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return false;
    for (char *end = h + strlen(h); end > h;) {
        char *start = end;
        while (start > h && start[-1] != ',')
            start--;
        char item[64];
        size_t len = (size_t)(end - start);
        end = start > h ? start - 1 : h;
        while (len > 0 && (*start == ' ' || *start == '\t'))
            start++, len--;
        while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t'))
            len--;
        if (len == 0 || len >= sizeof item)
            return false;
        memcpy(item, start, len);
        item[len] = '\0';
        char canon[LIMITS_ADDRESS_MAX];
        if (!limits_canonical_text(item, canon, sizeof canon))
            return false;
        if (!is_trusted(srv, canon))
            return limits_key_from_text(canon, key, size);
    }
    return false;
}

void http_client_key(struct HttpServer *srv, struct lws *wsi, char *key, size_t size) {
    struct sockaddr_storage ss;
    char text[LIMITS_ADDRESS_MAX];
    if (!peer_of(wsi, &ss)) {
        snprintf(key, size, "?");
        return;
    }
    if (srv->ntrusted && sockaddr_text((struct sockaddr *)&ss, text, sizeof text) && is_trusted(srv, text) &&
        forwarded_key(srv, wsi, key, size))
        return;
    if (!limits_key_from_sockaddr((struct sockaddr *)&ss, key, size))
        snprintf(key, size, "?");
}

bool http_peer_trusted(struct HttpServer *srv, struct lws *wsi) {
    struct sockaddr_storage ss;
    char text[LIMITS_ADDRESS_MAX];
    return srv->ntrusted && peer_of(wsi, &ss) && sockaddr_text((struct sockaddr *)&ss, text, sizeof text) &&
           is_trusted(srv, text);
}

void http_log_limit(struct HttpServer *srv, const char *kind, const char *address) {
    log_event_limited(&srv->log_limit_hit, LOG_WARN, "limit", "kind", kind, "address", address, (char *)NULL);
}

int http_filter_connection(struct HttpServer *srv, void *args) {
    const struct lws_filter_network_conn_args *a = args;
    /* Every connection's frames are checked (ws_guard.h), or it is not served at all. */
    if (!a || !ws_guard_track(a->accept_fd)) {
        if (srv)
            http_log_limit(srv, "descriptors", "?");
        return 1;
    }
    if (!srv || !srv->limits)
        return 0;
    /* A filtered connection that lws then failed to adopt: give its count back. */
    limits_close(srv->limits, srv->accepted);
    srv->accepted = NULL;
    const struct sockaddr *sa = (const struct sockaddr *)&a->cli_addr;
    char key[LIMITS_ADDRESS_MAX], text[LIMITS_ADDRESS_MAX];
    if (!limits_key_from_sockaddr(sa, key, sizeof key))
        snprintf(key, sizeof key, "?");
    bool proxy = srv->ntrusted && sockaddr_text(sa, text, sizeof text) && is_trusted(srv, text);
    LimitsOpen r = limits_open(srv->limits, key, !proxy, monotonic_ms(), &srv->accepted);
    if (r == LIMITS_OPEN_OK)
        return 0;
    http_log_limit(srv,
                   r == LIMITS_OPEN_TOTAL         ? "connections"
                   : r == LIMITS_OPEN_PER_ADDRESS ? "connections_per_address"
                                                  : "addresses",
                   key);
    return 1;
}

int http_connection_opened(struct HttpServer *srv, struct lws *wsi) {
    if (srv && srv->accepted) {
        lws_set_opaque_user_data(wsi, srv->accepted);
        srv->accepted = NULL;
    }
    return 0;
}

void http_connection_destroyed(struct HttpServer *srv, struct lws *wsi) {
    LimitsEntry *e = lws_get_opaque_user_data(wsi);
    if (e && srv && srv->limits) {
        lws_set_opaque_user_data(wsi, NULL);
        limits_close(srv->limits, e);
    }
}

/* ---- the server ------------------------------------------------------------------------------- */

static void setup_vhost_tables(struct HttpServer *srv) {
    srv->protocols[0] =
        (struct lws_protocols){.name = "http", .callback = http_callback, .per_session_data_size = sizeof(HttpConn)};
    srv->protocols[1] = (struct lws_protocols){.name = "schach",
                                               .callback = ws_callback,
                                               .per_session_data_size = sizeof(WsConn),
                                               .rx_buffer_size = WS_RX_BUFFER,
                                               .tx_packet_size = WS_TX_PACKET};
    /* protocols[2] stays zero: the terminator. */

    /* "default": a WebSocket that names no subprotocol gets "schach". */
    srv->pvo_default = (struct lws_protocol_vhost_options){.name = "default", .value = "1"};
    srv->pvo_schach = (struct lws_protocol_vhost_options){.name = "schach", .options = &srv->pvo_default, .value = ""};

    /* One callback mount for everything: http_api.c routes /api and hands the rest to http_static.c. */
    srv->mount = (struct lws_http_mount){.mountpoint = "/",
                                         .origin = "http",
                                         .protocol = "http",
                                         .origin_protocol = LWSMPRO_CALLBACK,
                                         .mountpoint_len = 1};
}

static bool fail(char *err, size_t err_size, SchLang lang, const char *en, const char *de) {
    snprintf(err, err_size, "%s", lang == SCH_LANG_DE ? de : en);
    return false;
}

HttpServer *http_server_new(const HttpServerConfig *cfg, char *err, size_t err_size) {
    SchLang lang = cfg->lang;
    struct HttpServer *srv = calloc(1, sizeof *srv);
    if (!srv) {
        fail(err, err_size, lang, "out of memory", "kein Speicher");
        return NULL;
    }
    pthread_mutex_init(&srv->wake_lock, NULL);
    srv->listen_fd = -1;
    const char *web = cfg->web_dir ? cfg->web_dir : SCHACH_WEB_DIR;
    struct stat st;
    if (stat(web, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(web, srv->web_dir)) {
        snprintf(err, err_size, lang == SCH_LANG_DE ? "Web-Ordner %s nicht gefunden" : "web folder %s not found", web);
        http_server_free(srv);
        return NULL;
    }
    char vendor[PATH_MAX + 64];
    snprintf(vendor, sizeof vendor, "%s/node_modules/@lichess-org/chessground", srv->web_dir);
    if (!realpath(vendor, srv->vendor_dir))
        srv->vendor_dir[0] = '\0';
    snprintf(srv->host, sizeof srv->host, "%s", cfg->host ? cfg->host : "127.0.0.1");
    srv->port_wanted = cfg->port;
    srv->lang = lang;
    srv->ws_subscriptions = cfg->ws_subscriptions > 0 ? cfg->ws_subscriptions : HTTP_WS_SUBSCRIPTIONS;
    srv->request_timeout_s = cfg->request_timeout_s > 0 ? cfg->request_timeout_s : HTTP_REQUEST_TIMEOUT;
    for (int i = 0; i < cfg->ntrusted && i < HTTP_MAX_TRUSTED_PROXIES; i++)
        if (limits_canonical_text(cfg->trusted_proxies[i], srv->trusted[srv->ntrusted], LIMITS_ADDRESS_MAX))
            srv->ntrusted++;
    srv->limits = limits_new(&cfg->limits);
    if (!srv->limits) {
        fail(err, err_size, lang, "out of memory", "kein Speicher");
        http_server_free(srv);
        return NULL;
    }
    if (!ws_guard_init(ws_frame_violation)) {
        fail(err, err_size, lang, "out of memory", "kein Speicher");
        http_server_free(srv);
        return NULL;
    }
    setup_vhost_tables(srv);

    /* libwebsockets' own log: errors only, unless lws_log_level asks for more (its LLL_ bit mask). */
    lws_set_log_level(cfg->lws_log_level ? cfg->lws_log_level : LLL_ERR, lws_log_emit);
    srv->loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV);
    if (!srv->loop) {
        fail(err, err_size, lang, "could not create the libev loop", "libev-Schleife fehlgeschlagen");
        http_server_free(srv);
        return NULL;
    }
    void *foreign_loops[1] = {srv->loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign_loops;
    info.user = srv;
    info.max_http_header_data = 8192;
    srv->context = lws_create_context(&info);
    if (!srv->context) {
        fail(err, err_size, lang, "could not create the libwebsockets context", "libwebsockets-Kontext fehlgeschlagen");
        http_server_free(srv);
        return NULL;
    }
    srv->wake_context = srv->context;
    return srv;
}

/* The descriptor of the vhost's listening socket, which lws does not tell (the drain closes it): the
 * one TCP socket that listens on our port and belongs to lws. -1 when none is found. */
static int find_listen_fd(struct HttpServer *srv) {
    DIR *d = opendir("/proc/self/fd");
    int found = -1, fd = -1;
    for (;;) {
        if (d) {
            struct dirent *e = readdir(d);
            if (!e)
                break;
            if (e->d_name[0] < '0' || e->d_name[0] > '9')
                continue;
            fd = atoi(e->d_name);
        } else if (++fd >= 1024) {
            break; /* no /proc: at start-up the descriptors are few and low */
        }
        int listening = 0;
        socklen_t len = sizeof listening;
        struct sockaddr_storage ss;
        socklen_t sslen = sizeof ss;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening ||
            getsockname(fd, (struct sockaddr *)&ss, &sslen) != 0)
            continue;
        int port = ss.ss_family == AF_INET    ? ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port)
                   : ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port)
                                              : -1;
        if (port == srv->port && wsi_from_fd(srv->context, fd)) {
            found = fd;
            break;
        }
    }
    if (d)
        closedir(d);
    return found;
}

bool http_server_listen(HttpServer *srv, Service *svc, char *err, size_t err_size) {
    srv->service = svc;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.vhost_name = "schach";
    info.port = srv->port_wanted;
    info.iface = srv->host;
    info.protocols = srv->protocols;
    info.pvo = &srv->pvo_schach;
    info.mounts = &srv->mount;
    info.user = srv;
    info.options = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (!strchr(srv->host, ':'))
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    srv->vhost = lws_create_vhost(srv->context, &info);
    if (!srv->vhost) {
        snprintf(err, err_size,
                 srv->lang == SCH_LANG_DE ? "kann nicht auf %s Port %d lauschen" : "cannot listen on %s port %d",
                 srv->host, srv->port_wanted);
        srv->service = NULL;
        return false;
    }
    srv->port = lws_get_vhost_listen_port(srv->vhost);
    srv->listen_fd = find_listen_fd(srv);
    lws_sul_schedule(srv->context, 0, &srv->sweep, sweep_fired, SWEEP_US);
    return true;
}

int http_server_port(const HttpServer *srv) { return srv->port; }

int http_server_run(HttpServer *srv) {
    http_schedule_timer(srv);
    /* The store may have committed before the loop ran (start-up): pick that up now. */
    if (srv->service)
        service_on_wake(srv->service);
    /* Runs until http_server_stop's wake-up reaches the loop (ev_break in the cancel callback). */
    while (!srv->stop)
        ev_run(srv->loop, 0);
    return 0;
}

void http_server_stop(HttpServer *srv) {
    srv->stop = 1;
    /* lws_cancel_service only writes to the loop's wake-up pipe: fine from a signal handler. */
    if (srv->context)
        lws_cancel_service(srv->context);
}

void http_server_close(HttpServer *srv) {
    if (!srv)
        return;
    pthread_mutex_lock(&srv->wake_lock);
    srv->wake_context = NULL;
    pthread_mutex_unlock(&srv->wake_lock);
    if (srv->context) {
        lws_sul_cancel(&srv->timer);
        lws_sul_cancel(&srv->sweep);
        http_drain_stop(srv);
        /* Closes the listening socket and every connection; their close callbacks still see the
         * service, so pending replies are cancelled and subscriptions ended. */
        lws_context_destroy(srv->context);
        srv->context = NULL;
    }
    if (srv->loop) {
        ev_loop_destroy(srv->loop);
        srv->loop = NULL;
    }
    srv->service = NULL;
    srv->accounts = NULL;
}

void http_server_free(HttpServer *srv) {
    if (!srv)
        return;
    http_server_close(srv);
    http_static_cache_free(srv->static_cache);
    limits_free(srv->limits);
    pthread_mutex_destroy(&srv->wake_lock);
    free(srv);
}
