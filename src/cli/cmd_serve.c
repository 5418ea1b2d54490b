/* schach serve: people play chess with each other in the browser; the server enforces every rule.
 *
 * Parses the options, finds the data folder, raises the open-files limit (every WebSocket is a file
 * descriptor), and runs the HTTP/WebSocket server until SIGINT or SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cli.h"
#include "http_server.h"

#ifndef SCHACH_WEB_DIR
#define SCHACH_WEB_DIR "web"
#endif

/* The running server, for the signal handler (a signal cannot carry a pointer). */
static HttpServer *running_server;

static void on_signal(int sig) {
    (void)sig;
    if (running_server)
        http_server_stop(running_server);
}

static void print_serve_help(Lang lang) {
    printf(CLI_TR(lang,
                  "Usage: schach serve [--listen HOST:PORT] [--db FILE] [--web DIR] [--lang de|en]\n"
                  "\n"
                  "Serves the browser UI, the HTTP API and the WebSocket (docs/api.md): people play chess\n"
                  "with each other in the browser, every rule enforced by the server. Runs until\n"
                  "interrupted (Ctrl-C, SIGTERM); every acknowledged move is in the database.\n"
                  "\n"
                  "  --listen HOST:PORT  address to listen on (default 127.0.0.1:8080; port 0 picks a\n"
                  "                      free port; IPv6 as [::1]:8080)\n"
                  "  --db FILE           the SQLite database (default $XDG_DATA_HOME/schach/schach.db,\n"
                  "                      else ~/.local/share/schach/schach.db)\n"
                  "  --web DIR           the browser UI (default %s)\n"
                  "  --lang L            language of messages: de or en\n",
                  "Aufruf: schach serve [--listen HOST:PORT] [--db DATEI] [--web ORDNER] [--lang de|en]\n"
                  "\n"
                  "Liefert die Browser-Oberfläche, die HTTP-API und den WebSocket (docs/api.md): Menschen\n"
                  "spielen im Browser gegeneinander, jede Regel prüft der Server. Läuft bis zur\n"
                  "Unterbrechung (Strg-C, SIGTERM); jeder bestätigte Zug steht in der Datenbank.\n"
                  "\n"
                  "  --listen HOST:PORT  Adresse (Vorgabe 127.0.0.1:8080; Port 0 wählt einen freien\n"
                  "                      Port; IPv6 als [::1]:8080)\n"
                  "  --db DATEI          die SQLite-Datenbank (Vorgabe $XDG_DATA_HOME/schach/schach.db,\n"
                  "                      sonst ~/.local/share/schach/schach.db)\n"
                  "  --web ORDNER        die Browser-Oberfläche (Vorgabe %s)\n"
                  "  --lang L            Sprache der Meldungen: de oder en\n"),
           SCHACH_WEB_DIR);
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

/* Thousands of WebSockets need thousands of descriptors: soft limit up to the hard one. */
static void raise_open_files(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int cmd_serve(int argc, char **argv, Lang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "serve", bad);
    if (cli_wants_help(argc, argv)) {
        print_serve_help(lang);
        return CLI_OK;
    }
    const char *listen = "127.0.0.1:8080", *db = NULL, *web = NULL;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r;
        if ((r = cli_option(argc, argv, &i, "--listen", &v)) != 0 ||
            (r = cli_option(argc, argv, &i, "--db", &v)) != 0 || (r = cli_option(argc, argv, &i, "--web", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage(lang, "serve", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            if (!strncmp(opt, "--listen", 8))
                listen = v;
            else if (!strncmp(opt, "--db", 4))
                db = v;
            else
                web = v;
        } else if ((r = cli_option(argc, argv, &i, "--lang", &v)) != 0) {
            /* applied by cli_scan_lang */
        } else {
            return cli_usage(lang, "serve", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), opt);
        }
    }
    HttpServerConfig cfg = {.web_dir = web, .lang = lang};
    char host[64];
    if (!parse_listen(listen, host, sizeof host, &cfg.port))
        return cli_usage(lang, "serve",
                         CLI_TR(lang, "--listen wants HOST:PORT, e.g. 127.0.0.1:8080, not '%s'",
                                "--listen erwartet HOST:PORT, z. B. 127.0.0.1:8080, nicht '%s'"),
                         listen);
    cfg.host = host;
    char db_buf[4200];
    if (!db) {
        if (!default_db(db_buf, sizeof db_buf)) {
            cli_errorf("%s", CLI_TR(lang, "serve: no data folder (set XDG_DATA_HOME or HOME, or use --db)",
                                    "serve: kein Datenordner (XDG_DATA_HOME oder HOME setzen oder --db angeben)"));
            return CLI_FAIL;
        }
        db = db_buf;
    }
    cfg.db_path = db;

    raise_open_files();
    char err[512];
    HttpServer *srv = http_server_start(&cfg, err, sizeof err);
    if (!srv) {
        cli_errorf("serve: %s", err);
        return CLI_FAIL;
    }
    running_server = srv;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    bool v6 = strchr(host, ':') != NULL;
    printf("schach serve: http://%s%s%s:%d/\n", v6 ? "[" : "", host, v6 ? "]" : "", http_server_port(srv));
    fflush(stdout);
    int rc = http_server_run(srv);
    running_server = NULL;
    http_server_free(srv);
    if (rc != 0) {
        cli_errorf("%s", CLI_TR(lang, "serve: the event loop failed", "serve: die Ereignisschleife ist ausgefallen"));
        return CLI_FAIL;
    }
    fprintf(stderr, "%s", CLI_TR(lang, "schach serve: stopped\n", "schach serve: beendet\n"));
    return CLI_OK;
}
