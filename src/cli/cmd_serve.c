/* schach serve: people play chess with each other in the browser; the server enforces every rule.
 *
 * The set-up lives here, the transport in src/server/http/http_server.c: options, the environment
 * (SCHACH_COMPUTER_*, SCHACH_LWS_LOG), the open-files limit, then in this order the event loop, the
 * store (whose writer wakes the loop), the service over it with every game in play loaded, the
 * computer player, and only then the listening socket: nothing connects before the games are there.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "http/http.h"
#include "base/base.h"
#include "analysis.h"
#include "engine.h"
#include "service/service.h"
#include "store/store.h"

#ifndef SCHACH_WEB_DIR
#define SCHACH_WEB_DIR "web"
#endif

/* Descriptors kept free for the database, its backups, the log and lws's own use. */
enum { FD_RESERVE = 64 };

/* The running server, for the signal handler (a signal cannot carry a pointer). */
static HttpServer *running_server;

/* SIGTERM (a service manager, a cluster script) drains: new connections go elsewhere, what is in
 * flight is answered, WebSockets are told 1001 (going away). SIGINT (Ctrl-C) stops at once, also in
 * the middle of a drain; either way every acknowledged move is in the database. */
static void on_signal(int sig) {
    if (!running_server)
        return;
    if (sig == SIGTERM)
        http_server_drain(running_server);
    else
        http_server_stop(running_server);
}

static void print_serve_help(SchLang lang) {
    printf(CLI_TR(lang,
                  "Usage: schach serve [--listen HOST:PORT] [--db FILE|URI] [--web DIR] [--lang de|en] [limits]\n"
                  "\n"
                  "Serves the browser UI, the HTTP API and the WebSocket (docs/api.md): people play chess\n"
                  "with each other in the browser, every rule enforced by the server. Runs until\n"
                  "interrupted: SIGTERM drains (stops listening, answers what is in flight, closes\n"
                  "WebSockets with 1001), Ctrl-C stops at once; every acknowledged move is in the\n"
                  "database.\n"
                  "\n"
                  "  --listen HOST:PORT  address to listen on (default 127.0.0.1:8080; port 0 picks a\n"
                  "                      free port; IPv6 as [::1]:8080)\n"
                  "  --db FILE           the SQLite database (default $XDG_DATA_HOME/schach/schach.db,\n"
                  "                      else ~/.local/share/schach/schach.db; also sqlite:FILE)\n"
                  "  --db postgresql://USER@HOST:PORT/DB\n"
                  "                      a PostgreSQL database that several servers share (a libpq URI,\n"
                  "                      or postgresql: followed by libpq's key=value settings)\n"
                  "  --node NAME         this server's name among several (default: host name and pid)\n"
                  "  --web DIR           the browser UI (default %s)\n"
                  "  --public-url URL    the site's address, e.g. https://chess.example.org: a game's\n"
                  "                      PGN names URL/g/ID as its Site (default http://localhost:PORT)\n"
                  "  --lang L            language of messages: de or en\n"
                  "  --log-format F      the log on stderr: text (default) or json, one line per event\n"
                  "  --cache-games N     finished games kept in memory (default %d)\n"
                  "  --check-limit MB    a database up to MB is checked whole (PRAGMA quick_check) before\n"
                  "                      the server listens (default 128); a larger one in the background,\n"
                  "                      and a damage found then stops every write and stored read\n"
                  "  --unstarted-expiry-live T\n"
                  "                      a game with a live clock in which not both sides have moved is\n"
                  "                      aborted after T without a change (default 6h; T is a number\n"
                  "                      with s, m, h or d, e.g. 90m)\n"
                  "  --unstarted-expiry-slow T\n"
                  "                      the same for correspondence games and games without a clock\n"
                  "                      (default 7d)\n"
                  "  --analysis-workers N  threads analysing finished games with the engine, each with\n"
                  "                      its own engine (default 1)\n"
                  "  --analysis-nodes N  the engine's nodes per position of an analysis (default %d)\n"
                  "  --analysis-queue N  analyses waiting for a worker at most (default %d; more: 503)\n"
                  "  --analysis-per-day N  new analyses an account may ask for in a day (default %d)\n"
                  "  --analysis-per-day-address N  ... and an address (default %d)\n"
                  "\n"
                  "Limits (0 turns a per-address limit off):\n"
                  "  --max-connections N              all connections together (default: the open-files\n"
                  "                                   limit, raised to its maximum, less %d)\n"
                  "  --max-connections-per-address N  per client address (default %d)\n"
                  "  --max-games-per-minute N         new games per client address (default %d)\n"
                  "  --max-requests-per-minute N      HTTP requests and WebSocket messages per client\n"
                  "                                   address (default %d)\n"
                  "  --max-moves-per-minute N         moves per client address, apart from the requests\n"
                  "                                   (default %d)\n"
                  "  --request-timeout S              a request's body must be in S seconds after its\n"
                  "                                   headers, else 408 and closed (default %d)\n"
                  "  --max-subscriptions N            games one WebSocket may watch (default %d)\n"
                  "  --trust-proxy ADDR               a reverse proxy at ADDR names the client in\n"
                  "                                   X-Forwarded-For (repeatable)\n"
                  "  --no-limits                      no per-address limits at all (benchmarks)\n"
                  "  --common-passwords FILE          the passwords sign-up refuses, one a line (default\n"
                  "                                   " ACCOUNTS_COMMON_PASSWORDS ")\n",
                  "Aufruf: schach serve [--listen HOST:PORT] [--db DATEI|URI] [--web ORDNER] [--lang de|en] [Grenzen]\n"
                  "\n"
                  "Liefert die Browser-Oberfläche, die HTTP-API und den WebSocket (docs/api.md): Menschen\n"
                  "spielen im Browser gegeneinander, jede Regel prüft der Server. Läuft bis zur\n"
                  "Unterbrechung: SIGTERM beendet geordnet (nimmt keine Verbindungen mehr an,\n"
                  "beantwortet Laufendes, schließt WebSockets mit 1001), Strg-C sofort; jeder\n"
                  "bestätigte Zug steht in der Datenbank.\n"
                  "\n"
                  "  --listen HOST:PORT  Adresse (Vorgabe 127.0.0.1:8080; Port 0 wählt einen freien\n"
                  "                      Port; IPv6 als [::1]:8080)\n"
                  "  --db DATEI          die SQLite-Datenbank (Vorgabe $XDG_DATA_HOME/schach/schach.db,\n"
                  "                      sonst ~/.local/share/schach/schach.db; auch sqlite:DATEI)\n"
                  "  --db postgresql://NUTZER@HOST:PORT/DB\n"
                  "                      eine PostgreSQL-Datenbank, die sich mehrere Server teilen (eine\n"
                  "                      libpq-URI oder postgresql: gefolgt von libpq-Einstellungen)\n"
                  "  --node NAME         der Name dieses Servers unter mehreren (Vorgabe: Rechnername und PID)\n"
                  "  --web ORDNER        die Browser-Oberfläche (Vorgabe %s)\n"
                  "  --public-url URL    die Adresse der Seite, z. B. https://schach.example.org: das PGN\n"
                  "                      einer Partie nennt URL/g/ID als Site (Vorgabe http://localhost:PORT)\n"
                  "  --lang L            Sprache der Meldungen: de oder en\n"
                  "  --log-format F      das Protokoll auf stderr: text (Vorgabe) oder json, eine Zeile\n"
                  "                      je Ereignis\n"
                  "  --cache-games N     beendete Partien im Speicher (Vorgabe %d)\n"
                  "  --check-limit MB    eine Datenbank bis MB wird vor dem Lauschen ganz geprüft (PRAGMA\n"
                  "                      quick_check, Vorgabe 128); eine größere im Hintergrund, und ein\n"
                  "                      dabei gefundener Schaden stoppt jedes Schreiben und Lesen\n"
                  "  --unstarted-expiry-live T\n"
                  "                      eine Partie mit Uhr, in der nicht beide Seiten gezogen haben, wird\n"
                  "                      nach T ohne Änderung abgebrochen (Vorgabe 6h; T ist eine Zahl mit\n"
                  "                      s, m, h oder d, z. B. 90m)\n"
                  "  --unstarted-expiry-slow T\n"
                  "                      dasselbe für Fernpartien und Partien ohne Uhr (Vorgabe 7d)\n"
                  "  --analysis-workers N  Threads, die beendete Partien mit der Engine analysieren, jeder\n"
                  "                      mit eigener Engine (Vorgabe 1)\n"
                  "  --analysis-nodes N  Knoten der Engine je Stellung einer Analyse (Vorgabe %d)\n"
                  "  --analysis-queue N  höchstens so viele Analysen warten auf einen Thread (Vorgabe %d;\n"
                  "                      mehr: 503)\n"
                  "  --analysis-per-day N  neue Analysen, die ein Konto am Tag anfordern darf (Vorgabe %d)\n"
                  "  --analysis-per-day-address N  ... und eine Adresse (Vorgabe %d)\n"
                  "\n"
                  "Grenzen (0 schaltet eine Grenze je Adresse ab):\n"
                  "  --max-connections N              alle Verbindungen zusammen (Vorgabe: die Grenze\n"
                  "                                   offener Dateien, auf ihr Maximum angehoben, minus %d)\n"
                  "  --max-connections-per-address N  je Client-Adresse (Vorgabe %d)\n"
                  "  --max-games-per-minute N         neue Partien je Client-Adresse (Vorgabe %d)\n"
                  "  --max-requests-per-minute N      HTTP-Anfragen und WebSocket-Nachrichten je\n"
                  "                                   Client-Adresse (Vorgabe %d)\n"
                  "  --max-moves-per-minute N         Züge je Client-Adresse, getrennt von den Anfragen\n"
                  "                                   (Vorgabe %d)\n"
                  "  --request-timeout S              der Inhalt einer Anfrage muss S Sekunden nach ihren\n"
                  "                                   Headern da sein, sonst 408 und geschlossen (Vorgabe %d)\n"
                  "  --max-subscriptions N            Partien, die ein WebSocket verfolgen darf (Vorgabe %d)\n"
                  "  --trust-proxy ADR                ein Reverse-Proxy unter ADR nennt den Client in\n"
                  "                                   X-Forwarded-For (wiederholbar)\n"
                  "  --no-limits                      keine Grenzen je Adresse (für Messungen)\n"
                  "  --common-passwords DATEI         die Passwörter, die die Anmeldung ablehnt, eines je\n"
                  "                                   Zeile (Vorgabe " ACCOUNTS_COMMON_PASSWORDS ")\n"),
           SCHACH_WEB_DIR, SERVICE_CACHE_DEFAULT, ANALYSIS_DEFAULT_NODES, ACCOUNTS_ANALYSIS_QUEUE,
           ACCOUNTS_ANALYSIS_PER_DAY_ACCOUNT, ACCOUNTS_ANALYSIS_PER_DAY_ADDRESS, FD_RESERVE,
           LIMITS_CONNECTIONS_PER_ADDRESS, LIMITS_CREATES_PER_MINUTE, LIMITS_REQUESTS_PER_MINUTE,
           LIMITS_MOVES_PER_MINUTE, HTTP_REQUEST_TIMEOUT, HTTP_WS_SUBSCRIPTIONS);
}

/* Splits "HOST:PORT" or "[V6]:PORT" into host (written to host_buf) and port. "localhost" means
 * 127.0.0.1 (libwebsockets binds to addresses, it does not resolve names). */
static bool parse_listen(const char *text, char *host_buf, size_t host_size, int *port) {
    const char *colon;
    const char *host = text;
    size_t host_len;
    if (text[0] == '[') {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':')
            return false;
        host = text + 1;
        host_len = (size_t)(close - host);
        colon = close + 1;
    } else {
        colon = strrchr(text, ':');
        if (!colon)
            return false;
        host_len = (size_t)(colon - text);
    }
    if (host_len == 0 || host_len >= host_size)
        return false;
    memcpy(host_buf, host, host_len);
    host_buf[host_len] = '\0';
    if (!strcmp(host_buf, "localhost"))
        snprintf(host_buf, host_size, "127.0.0.1");
    char *end;
    errno = 0;
    long p = strtol(colon + 1, &end, 10);
    if (errno || end == colon + 1 || *end || p < 0 || p > 65535)
        return false;
    *port = (int)p;
    return true;
}

/* mkdir -p for the data folder; the owner only, as it holds the games' secrets' hashes. */
static bool make_dirs(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int r = mkdir(path, 0700);
        *p = '/';
        if (r != 0 && errno != EEXIST)
            return false;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* The default database: $XDG_DATA_HOME/schach/schach.db, else ~/.local/share/schach/schach.db.
 * Creates the folder. false when there is no home or the folder cannot be made. */
static bool default_db(char *out, size_t size) {
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[4096];
    if (xdg && xdg[0] == '/')
        snprintf(dir, sizeof dir, "%s/schach", xdg);
    else if (home && home[0])
        snprintf(dir, sizeof dir, "%s/.local/share/schach", home);
    else
        return false;
    if (!make_dirs(dir))
        return false;
    return (size_t)snprintf(out, size, "%s/schach.db", dir) < size;
}

/* Thousands of WebSockets need thousands of descriptors: soft limit up to the hard one. Returns the
 * connections that fit below it with FD_RESERVE to spare. */
static int raise_open_files(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024 - FD_RESERVE;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            getrlimit(RLIMIT_NOFILE, &rl);
    }
    rlim_t fit = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1000000 ? 1000000 : rl.rlim_cur;
    return fit > 2 * FD_RESERVE ? (int)(fit - FD_RESERVE) : (int)(fit / 2);
}

/* A non-negative integer from the environment, or fallback when it is unset or not one. */
static int env_int(const char *name, int fallback, int max) {
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    return *end || n < 0 || n > max ? fallback : (int)n;
}

/* The computer player: one worker by default (the loop, the store and the workers share the machine);
 * the SCHACH_COMPUTER_* variables of docs/api.md change that and let tests make it quick or slow. */
static void computer_config(ServiceComputerConfig *c) {
    memset(c, 0, sizeof *c);
    c->threads = env_int("SCHACH_COMPUTER_THREADS", 1, 8);
    if (c->threads == 0)
        c->threads = 1; /* synchronous searches would block the loop */
    c->hash_mb = (size_t)env_int("SCHACH_COMPUTER_HASH_MB", 16, 1024);
    c->think_ms = env_int("SCHACH_COMPUTER_THINK_MS", 0, 3600000);
    c->depth = env_int("SCHACH_COMPUTER_DEPTH", 0, ENGINE_MAX_PLY);
    c->delay_ms = env_int("SCHACH_COMPUTER_DELAY_MS", 0, 3600000);
}

typedef struct ServeOptions {
    const char *listen, *db, *web, *log_format, *node;
    const char *public_url;       /* --public-url; NULL: http://localhost:PORT */
    const char *common_passwords; /* --common-passwords; NULL: ACCOUNTS_COMMON_PASSWORDS */
    HttpServerConfig http;
    int cache_games;
    int check_limit_mb;      /* databases up to this are checked whole before listening */
    int64_t unstarted_ms[2]; /* --unstarted-expiry-live, --unstarted-expiry-slow; 0: the default */
    bool no_limits;
    bool max_connections_given;
    AccountHashCost hash_cost; /* SCHACH_PASSWORD_HASH=test: ACCOUNT_HASH_TEST (tests only) */
    int analysis_workers, analysis_nodes, analysis_queue, analysis_per_day, analysis_per_day_address; /* 0: default */
} ServeOptions;

/* One numeric option: 0 on no match, 1 matched, CLI_USAGE-style negative on a bad value. */
static int int_option(int argc, char **argv, int *i, const char *name, int *target, SchLang lang, int *rc) {
    const char *v = NULL;
    int r = cli_option(argc, argv, i, name, &v);
    if (r == 0)
        return 0;
    char *end = NULL;
    long n = r > 0 && *v ? strtol(v, &end, 10) : -1;
    if (r < 0 || !end || *end || n < 0 || n > 100000000) {
        *rc = cli_usage(lang, "serve", CLI_TR(lang, "%s wants a number of 0 or more", "%s erwartet eine Zahl ab 0"),
                        name);
        return -1;
    }
    *target = (int)n;
    return 1;
}

/* A duration: a whole number of 1 to 100000000 followed by s, m, h or d (also 1 s to 1000 days); false
 * when text is none. */
static bool parse_duration(const char *text, int64_t *ms) {
    char *end = NULL;
    long long n = text[0] >= '0' && text[0] <= '9' ? strtoll(text, &end, 10) : -1;
    if (n < 1 || n > 100000000 || !end || !end[0] || end[1])
        return false;
    int64_t unit = end[0] == 's'   ? 1000
                   : end[0] == 'm' ? 60000
                   : end[0] == 'h' ? 3600000
                   : end[0] == 'd' ? 86400000
                                   : 0;
    *ms = (int64_t)n * unit;
    return unit && *ms >= 1000 && *ms <= 1000LL * 86400000;
}

/* Parses argv into o; returns -1 when fine, else the exit status of a usage error. */
static int parse_options(int argc, char **argv, SchLang lang, ServeOptions *o) {
    LimitsConfig *l = &o->http.limits;
    struct {
        const char *name;
        int *target;
    } ints[] = {
        {"--max-connections", &l->max_connections},
        {"--max-connections-per-address", &l->connections_per_address},
        {"--max-games-per-minute", &l->creates_per_minute},
        {"--max-requests-per-minute", &l->requests_per_minute},
        {"--max-moves-per-minute", &l->moves_per_minute},
        {"--request-timeout", &o->http.request_timeout_s},
        {"--max-subscriptions", &o->http.ws_subscriptions},
        {"--cache-games", &o->cache_games},
        {"--check-limit", &o->check_limit_mb},
        {"--analysis-workers", &o->analysis_workers},
        {"--analysis-nodes", &o->analysis_nodes},
        {"--analysis-queue", &o->analysis_queue},
        {"--analysis-per-day", &o->analysis_per_day},
        {"--analysis-per-day-address", &o->analysis_per_day_address},
    };
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r, rc = 0, matched = 0;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0] && !matched; k++)
            if ((matched = int_option(argc, argv, &i, ints[k].name, ints[k].target, lang, &rc)) < 0)
                return rc;
            else if (matched && ints[k].target == &l->max_connections)
                o->max_connections_given = true;
        if (matched)
            continue;
        if (!strcmp(opt, "--no-limits")) {
            o->no_limits = true;
        } else if ((r = cli_option(argc, argv, &i, "--unstarted-expiry-live", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--unstarted-expiry-slow", &v)) != 0) {
            int k = strncmp(opt, "--unstarted-expiry-live", 23) == 0 ? 0 : 1;
            if (r < 0 || !parse_duration(v, &o->unstarted_ms[k]))
                return cli_usage(lang, "serve",
                                 CLI_TR(lang, "%s wants a time such as 30s, 90m, 6h or 7d (1 s to 1000 days)",
                                        "%s erwartet eine Zeit wie 30s, 90m, 6h oder 7d (1 s bis 1000 Tage)"),
                                 k == 0 ? "--unstarted-expiry-live" : "--unstarted-expiry-slow");
        } else if ((r = cli_option(argc, argv, &i, "--listen", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--db", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--web", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--log-format", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--node", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--common-passwords", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--trust-proxy", &v)) != 0 ||
                   (r = cli_option(argc, argv, &i, "--public-url", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage(lang, "serve", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            if (!strncmp(opt, "--listen", 8))
                o->listen = v;
            else if (!strncmp(opt, "--db", 4))
                o->db = v;
            else if (!strncmp(opt, "--web", 5))
                o->web = v;
            else if (!strncmp(opt, "--log-format", 12))
                o->log_format = v;
            else if (!strncmp(opt, "--node", 6))
                o->node = v;
            else if (!strncmp(opt, "--common-passwords", 18))
                o->common_passwords = v;
            else if (!strncmp(opt, "--public-url", 12))
                o->public_url = v;
            else if (o->http.ntrusted < HTTP_MAX_TRUSTED_PROXIES)
                o->http.trusted_proxies[o->http.ntrusted++] = v;
        } else if ((r = cli_option(argc, argv, &i, "--lang", &v)) != 0) {
            /* applied by cli_scan_lang */
        } else {
            return cli_usage(lang, "serve", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), opt);
        }
    }
    return -1;
}

/* A node's name goes into leases and announcements: plain characters only. */
static bool node_name_ok(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n > STORE_NODE_LEN)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._:-", *p)))
            return false;
    return true;
}

/* Checks what the options say; returns -1 when fine, else the exit status of a usage error. */
static int check_options(SchLang lang, ServeOptions *o, char *host, size_t host_size) {
    LogFormat format;
    if (o->log_format && !log_format_parse(o->log_format, &format))
        return cli_usage(lang, "serve",
                         CLI_TR(lang, "--log-format wants text or json, not '%s'",
                                "--log-format erwartet text oder json, nicht '%s'"),
                         o->log_format);
    if (o->log_format)
        log_set_format(format);
    for (int i = 0; i < o->http.ntrusted; i++) {
        char key[LIMITS_ADDRESS_MAX];
        if (!limits_canonical_text(o->http.trusted_proxies[i], key, sizeof key))
            return cli_usage(lang, "serve",
                             CLI_TR(lang, "--trust-proxy wants an IP address, not '%s'",
                                    "--trust-proxy erwartet eine IP-Adresse, nicht '%s'"),
                             o->http.trusted_proxies[i]);
    }
    if (o->node && !node_name_ok(o->node))
        return cli_usage(lang, "serve",
                         CLI_TR(lang, "--node wants up to %d letters, digits and . _ : -, not '%s'",
                                "--node erwartet bis zu %d Buchstaben, Ziffern und . _ : -, nicht '%s'"),
                         STORE_NODE_LEN, o->node);
    if (!parse_listen(o->listen, host, host_size, &o->http.port))
        return cli_usage(lang, "serve",
                         CLI_TR(lang, "--listen wants HOST:PORT, e.g. 127.0.0.1:8080, not '%s'",
                                "--listen erwartet HOST:PORT, z. B. 127.0.0.1:8080, nicht '%s'"),
                         o->listen);
    o->http.host = host;
    if (o->public_url && !service_set_public_url(o->public_url))
        return cli_usage(
            lang, "serve",
            CLI_TR(lang, "--public-url wants http:// or https:// and a host, e.g. https://chess.example.org, not '%s'",
                   "--public-url erwartet http:// oder https:// und einen Rechner, z. B. https://schach.example.org, "
                   "nicht '%s'"),
            o->public_url);
    return -1;
}

/* Everything the server holds, torn down in the reverse order of set-up. */
typedef struct Running {
    HttpServer *http;
    Store *store;
    Service *service;
    Accounts *accounts;
} Running;

static void teardown(Running *r) {
    /* Connections first (their close callbacks still use the service), then the service, which
     * waits for the store's writes in flight, then the store; the transport's wake target last. */
    http_server_close(r->http);
    accounts_free(r->accounts);
    if (r->service)
        service_free(r->service);
    if (r->store)
        store_close(r->store);
    http_server_free(r->http);
}

/* This node's name among several: --node, else host name and process id. */
static void default_node(const char *given, char *out, size_t size) {
    if (given && *given) {
        snprintf(out, size, "%s", given);
        return;
    }
    char host[64] = "node";
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "node");
    host[sizeof host - 1] = '\0';
    snprintf(out, size, "%.30s:%ld", host, (long)getpid());
}

static bool set_up(Running *r, const ServeOptions *o, const char *db, SchLang lang) {
    char err[512], why[256] = "";
    memset(r, 0, sizeof *r);
    r->http = http_server_new(&o->http, err, sizeof err);
    if (!r->http) {
        cli_errorf("serve: %s", err);
        return false;
    }
    store_sqlite_set_check_limit((long long)o->check_limit_mb * 1024 * 1024);
    const char *conninfo;
    bool shared = store_kind_of(db, &conninfo) == STORE_KIND_POSTGRESQL;
    char node[STORE_NODE_LEN + 1];
    default_node(o->node, node, sizeof node);
    r->store = store_open(db, node, http_server_wake, r->http, why, sizeof why);
    if (!r->store) {
        char shown[512];
        store_describe(db, shown, sizeof shown);
        cli_errorf(CLI_TR(lang, "serve: database %s: %s", "serve: Datenbank %s: %s"), shown, why);
        return false;
    }
    r->service = service_create(r->store, NULL, NULL, why, sizeof why);
    if (!r->service) {
        cli_errorf(CLI_TR(lang, "serve: loading the games: %s", "serve: Partien laden: %s"), why);
        return false;
    }
    if (shared) /* other nodes may change the games: leases, refreshes, retries (service.h) */
        service_set_cluster(r->service, node);
    service_set_cache_max(r->service, o->cache_games);
    service_set_unstarted_expiry(r->service, o->unstarted_ms[0], o->unstarted_ms[1]);
    ServiceComputerConfig computer;
    computer_config(&computer);
    /* Its workers wake the loop the way the store's writer does. */
    if (!service_computer_start(r->service, &computer, http_server_wake, r->http, why, sizeof why)) {
        cli_errorf(CLI_TR(lang, "serve: computer player: %s", "serve: Computerspieler: %s"), why);
        return false;
    }
    /* The common passwords sign-up refuses: read once, before any thread checks a password. */
    const char *common = o->common_passwords ? o->common_passwords : ACCOUNTS_COMMON_PASSWORDS;
    if (!accounts_load_common_passwords(common, why, sizeof why)) {
        cli_errorf(CLI_TR(lang, "serve: %s (install john-data, or name a list with --common-passwords)",
                          "serve: %s (john-data installieren oder eine Liste mit --common-passwords nennen)"),
                   why);
        return false;
    }
    /* Accounts: a worker thread of their own with their own connection; it wakes the loop too. */
    AccountsConfig accounts = {.address_limits = !o->no_limits,
                               .frozen_limits = o->http.limits.frozen,
                               .hash_cost = o->hash_cost,
                               .login_slowdown_ms = env_int("SCHACH_LOGIN_SLOWDOWN_MS", 0, 60000),
                               .analysis_workers = o->analysis_workers,
                               .analysis_nodes = (uint64_t)o->analysis_nodes,
                               .analysis_queue = o->analysis_queue,
                               .analysis_per_day_account = o->analysis_per_day,
                               .analysis_per_day_address = o->analysis_per_day_address};
    r->accounts = accounts_create(r->store, &accounts, NULL, NULL, http_server_wake, r->http, why, sizeof why);
    if (!r->accounts) {
        cli_errorf(CLI_TR(lang, "serve: accounts: %s", "serve: Konten: %s"), why);
        return false;
    }
    accounts_set_service(r->accounts, r->service);
    service_set_game_over(r->service, accounts_rate, r->accounts);
    http_server_set_accounts(r->http, r->accounts);
    if (!http_server_listen(r->http, r->service, err, sizeof err)) {
        cli_errorf("serve: %s", err);
        return false;
    }
    return true;
}

static void log_start(const Running *r, const ServeOptions *o, const char *db_arg, const char *url) {
    char db[512];
    store_describe(db_arg, db, sizeof db); /* never a password in the log */
    ServiceStats stats;
    service_stats(r->service, &stats);
    char games[16], maxc[16];
    snprintf(games, sizeof games, "%d", stats.games_in_play);
    snprintf(maxc, sizeof maxc, "%d", o->http.limits.max_connections);
    const char *limits = o->no_limits ? "off" : o->http.limits.frozen ? "frozen" : "on";
    const char *hash = o->hash_cost == ACCOUNT_HASH_TEST ? "test" : "interactive";
    log_event(LOG_INFO, "start", "url", url, "database", db, "games_in_play", games, "max_connections", maxc, "limits",
              limits, "password_hash", hash, (char *)NULL);
}

int cmd_serve(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "serve", bad);
    if (cli_wants_help(argc, argv)) {
        print_serve_help(lang);
        return CLI_OK;
    }
    ServeOptions o = {.listen = "127.0.0.1:8080",
                      .cache_games = SERVICE_CACHE_DEFAULT,
                      .check_limit_mb = 128,
                      .http = {.lang = lang,
                               .limits = {.connections_per_address = LIMITS_CONNECTIONS_PER_ADDRESS,
                                          .creates_per_minute = LIMITS_CREATES_PER_MINUTE,
                                          .requests_per_minute = LIMITS_REQUESTS_PER_MINUTE,
                                          .moves_per_minute = LIMITS_MOVES_PER_MINUTE}}};
    int rc = parse_options(argc, argv, lang, &o);
    if (rc >= 0)
        return rc;
    char host[64];
    if ((rc = check_options(lang, &o, host, sizeof host)) >= 0)
        return rc;
    o.http.web_dir = o.web;
    const char *lws_log = getenv("SCHACH_LWS_LOG");
    o.http.lws_log_level = lws_log ? atoi(lws_log) : 0;
    int fit = raise_open_files();
    if (!o.max_connections_given || o.http.limits.max_connections <= 0 || o.http.limits.max_connections > fit)
        o.http.limits.max_connections = fit;
    /* Tests: the rate limits' buckets never refill, so a test counts exactly however slow the machine
     * (docs/api.md "Limits"). Only the environment of whoever starts the server can ask for it. */
    const char *limits_clock = getenv("SCHACH_LIMITS_CLOCK");
    o.http.limits.frozen = limits_clock && !strcmp(limits_clock, "frozen");
    /* Tests: new password hashes at libsodium's least cost (account.h ACCOUNT_HASH_TEST), so the suite's
     * hundreds of sign-ups do not each fill 64 MiB. Only the environment of whoever starts the server. */
    const char *password_hash = getenv("SCHACH_PASSWORD_HASH");
    o.hash_cost = password_hash && !strcmp(password_hash, "test") ? ACCOUNT_HASH_TEST : ACCOUNT_HASH_INTERACTIVE;
    if (o.no_limits) {
        o.http.limits.connections_per_address = 0;
        o.http.limits.creates_per_minute = 0;
        o.http.limits.requests_per_minute = 0;
        o.http.limits.moves_per_minute = 0;
    }
    char db_buf[4200];
    const char *db = o.db;
    if (!db) {
        if (!default_db(db_buf, sizeof db_buf)) {
            cli_errorf("%s", CLI_TR(lang, "serve: no data folder (set XDG_DATA_HOME or HOME, or use --db)",
                                    "serve: kein Datenordner (XDG_DATA_HOME oder HOME setzen oder --db angeben)"));
            return CLI_FAIL;
        }
        db = db_buf;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    Running r;
    if (!set_up(&r, &o, db, lang)) {
        teardown(&r);
        return CLI_FAIL;
    }
    if (!o.public_url) { /* the default: this server on this machine */
        char local[64];
        snprintf(local, sizeof local, "http://localhost:%d", http_server_port(r.http));
        service_set_public_url(local);
    }
    running_server = r.http;
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    bool v6 = strchr(host, ':') != NULL;
    char url[128];
    snprintf(url, sizeof url, "http://%s%s%s:%d/", v6 ? "[" : "", host, v6 ? "]" : "", http_server_port(r.http));
    log_start(&r, &o, db, url);
    printf("schach serve: %s\n", url);
    fflush(stdout);
    rc = http_server_run(r.http);
    running_server = NULL;
    teardown(&r);
    log_event(LOG_INFO, "stop", "status", rc == 0 ? "ok" : "loop_failed", (char *)NULL);
    if (rc != 0) {
        cli_errorf("%s", CLI_TR(lang, "serve: the event loop failed", "serve: die Ereignisschleife ist ausgefallen"));
        return CLI_FAIL;
    }
    if (!o.log_format || strcmp(o.log_format, "json") != 0) /* json: every line of stderr is an event */
        fprintf(stderr, "%s", CLI_TR(lang, "schach serve: stopped\n", "schach serve: beendet\n"));
    return CLI_OK;
}
