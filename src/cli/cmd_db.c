/* schach db copy --from DB --to DB: moves a site's games from one store to another, e.g. from the SQLite
 * file of a single server to the PostgreSQL database of several (store.h). Every game, in play or
 * finished, with its moves and their times; games the destination has already are left alone, so an
 * interrupted copy can simply be run again. Neither store may be in use by a server meanwhile (an SQLite
 * database held by a running server is refused by the store itself). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "store/store.h"

/* Games read, and written, per round: bounds the memory whatever the number of games. */
enum { COPY_PAGE = 200 };

static void print_db_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach db copy --from DB --to DB [--lang de|en]\n"
                 "\n"
                 "Copies every game of one database of `schach serve` into another: in play or finished,\n"
                 "with its moves, clocks, result and secrets' hashes. DB is an SQLite file (PATH or\n"
                 "sqlite:PATH) or a PostgreSQL database (postgresql://USER@HOST:PORT/NAME). Games the\n"
                 "destination has already are skipped, so an interrupted copy can be run again. Stop the\n"
                 "servers of both databases first.\n"
                 "\n"
                 "  --from DB   where the games are\n"
                 "  --to DB     where they go (created and migrated when new)\n"
                 "  --lang L    language of messages: de or en\n"
                 "\n"
                 "Exit status: 0 copied, 1 failed, 2 usage error.\n",
                 "Aufruf: schach db copy --from DB --to DB [--lang de|en]\n"
                 "\n"
                 "Kopiert jede Partie einer Datenbank von `schach serve` in eine andere: laufende und\n"
                 "beendete, mit Zügen, Uhren, Ergebnis und den Hashes der Geheimnisse. DB ist eine\n"
                 "SQLite-Datei (PFAD oder sqlite:PFAD) oder eine PostgreSQL-Datenbank\n"
                 "(postgresql://NUTZER@HOST:PORT/NAME). Partien, die das Ziel schon hat, werden\n"
                 "übersprungen; ein abgebrochenes Kopieren kann man also wiederholen. Vorher die Server\n"
                 "beider Datenbanken anhalten.\n"
                 "\n"
                 "  --from DB   woher die Partien kommen\n"
                 "  --to DB     wohin sie gehen (neu angelegt, wenn es sie noch nicht gibt)\n"
                 "  --lang L    Sprache der Meldungen: de oder en\n"
                 "\n"
                 "Rückgabewert: 0 kopiert, 1 Fehler, 2 falscher Aufruf.\n"),
          stdout);
}

/* The destination's writer wakes this when a batch is done. */
typedef struct Waiter {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned long wakes;
} Waiter;

static void waiter_wake(void *ctx) {
    Waiter *w = ctx;
    pthread_mutex_lock(&w->mutex);
    w->wakes++;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}

/* One page of the source: the games and the ops that write them. */
typedef struct Page {
    Store *dest;
    StoreOp *ops;
    int nops, cap;
    int games, moves, skipped;
    char last[STORE_ID_LEN + 1]; /* the id the next page starts after */
    char present[COPY_PAGE][STORE_ID_LEN + 1];
    int npresent;
    bool failed;
    char err[256];
} Page;

static StoreOp *page_op(Page *p) {
    if (p->nops == p->cap) {
        int cap = p->cap ? p->cap * 2 : 1024;
        StoreOp *ops = realloc(p->ops, (size_t)cap * sizeof *ops);
        if (!ops) {
            p->failed = true;
            snprintf(p->err, sizeof p->err, "out of memory");
            return NULL;
        }
        p->ops = ops;
        p->cap = cap;
    }
    StoreOp *op = &p->ops[p->nops++];
    memset(op, 0, sizeof *op);
    return op;
}

static bool page_has(const Page *p, const char *id) {
    for (int i = 0; i < p->npresent; i++)
        if (strcmp(p->present[i], id) == 0)
            return true;
    return false;
}

static void on_present(void *ctx, const char *id, int64_t rev) {
    (void)rev;
    Page *p = ctx;
    if (p->npresent < COPY_PAGE)
        snprintf(p->present[p->npresent++], sizeof p->present[0], "%s", id);
}

/* Ids of the page first (to skip what the destination has), then the ops. */
typedef struct Ids {
    char ids[COPY_PAGE][STORE_ID_LEN + 1];
    int count;
} Ids;

static void collect_id(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    (void)moves, (void)count;
    Ids *ids = ctx;
    if (ids->count < COPY_PAGE)
        snprintf(ids->ids[ids->count++], sizeof ids->ids[0], "%s", record->id);
}

static void add_game(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    Page *p = ctx;
    snprintf(p->last, sizeof p->last, "%s", record->id);
    if (p->failed)
        return;
    if (page_has(p, record->id)) {
        p->skipped++;
        return;
    }
    StoreOp *create = page_op(p);
    if (!create)
        return;
    create->create = true;
    create->record = *record;
    for (int i = 0; i < count; i++) {
        StoreOp *op = page_op(p);
        if (!op)
            return;
        op->append = true;
        snprintf(op->record.id, sizeof op->record.id, "%s", record->id);
        op->ply = i;
        op->move = moves[i];
    }
    p->games++;
    p->moves += count;
}

/* Submits the page's ops and waits until all are back; false with p->err on the first failure. */
static bool page_write(Page *p, Waiter *w) {
    for (int i = 0; i < p->nops; i++)
        store_submit(p->dest, &p->ops[i]);
    int back = 0;
    bool ok = true;
    while (back < p->nops) {
        pthread_mutex_lock(&w->mutex);
        unsigned long seen = w->wakes;
        pthread_mutex_unlock(&w->mutex);
        for (StoreOp *op = store_take_done(p->dest); op; op = op->next) {
            back++;
            if (!op->ok && ok) {
                ok = false;
                snprintf(p->err, sizeof p->err, "%s", op->error);
            }
        }
        if (back >= p->nops)
            break;
        pthread_mutex_lock(&w->mutex);
        while (w->wakes == seen)
            pthread_cond_wait(&w->cond, &w->mutex);
        pthread_mutex_unlock(&w->mutex);
    }
    return ok;
}

static int copy(const char *from, const char *to, SchLang lang) {
    char err[512] = "", shown[512];
    Waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    const char *path;
    struct stat st;
    if (store_kind_of(from, &path) == STORE_KIND_SQLITE && stat(path, &st) != 0) {
        /* Opening would create an empty database: a mistyped source is an error, not zero games. */
        cli_errorf(CLI_TR(lang, "db copy: %s: no such database", "db copy: %s: keine solche Datenbank"), path);
        return CLI_FAIL;
    }
    Store *src = store_open(from, "schach-db-copy", NULL, NULL, err, sizeof err);
    if (!src) {
        store_describe(from, shown, sizeof shown);
        cli_errorf(CLI_TR(lang, "db copy: %s: %s", "db copy: %s: %s"), shown, err);
        return CLI_FAIL;
    }
    Store *dest = store_open(to, "schach-db-copy", waiter_wake, &w, err, sizeof err);
    if (!dest) {
        store_describe(to, shown, sizeof shown);
        cli_errorf(CLI_TR(lang, "db copy: %s: %s", "db copy: %s: %s"), shown, err);
        store_close(src);
        return CLI_FAIL;
    }
    Page p = {.dest = dest};
    long games = 0, moves = 0, skipped = 0;
    int rc = CLI_OK;
    for (;;) {
        Ids ids = {.count = 0};
        int n = store_scan(src, p.last, COPY_PAGE, collect_id, &ids, err, sizeof err);
        if (n < 0) {
            cli_errorf(CLI_TR(lang, "db copy: reading the games: %s", "db copy: Partien lesen: %s"), err);
            rc = CLI_FAIL;
            break;
        }
        if (n == 0)
            break;
        const char *idp[COPY_PAGE];
        for (int i = 0; i < ids.count; i++)
            idp[i] = ids.ids[i];
        p.npresent = 0;
        p.nops = p.games = p.moves = p.skipped = 0;
        if (store_revs(dest, idp, ids.count, on_present, &p, err, sizeof err) < 0) {
            cli_errorf(CLI_TR(lang, "db copy: reading the destination: %s", "db copy: Ziel lesen: %s"), err);
            rc = CLI_FAIL;
            break;
        }
        /* The same page again, now with the moves (the scan is ordered by id: it reads the same games). */
        char after[STORE_ID_LEN + 1];
        snprintf(after, sizeof after, "%s", p.last);
        n = store_scan(src, after, COPY_PAGE, add_game, &p, err, sizeof err);
        if (n < 0 || p.failed || !page_write(&p, &w)) {
            cli_errorf(CLI_TR(lang, "db copy: %s", "db copy: %s"), n < 0 ? err : p.err);
            rc = CLI_FAIL;
            break;
        }
        games += p.games;
        moves += p.moves;
        skipped += p.skipped;
        if (n < COPY_PAGE)
            break;
    }
    store_close(dest);
    store_close(src);
    free(p.ops);
    if (rc == CLI_OK)
        printf(CLI_TR(lang, "db copy: %ld games with %ld moves copied, %ld already there\n",
                      "db copy: %ld Partien mit %ld Zügen kopiert, %ld schon vorhanden\n"),
               games, moves, skipped);
    return rc;
}

int cmd_db(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "db", bad);
    if (cli_wants_help(argc, argv) || argc < 2) {
        print_db_help(lang);
        return argc < 2 ? CLI_USAGE : CLI_OK;
    }
    if (strcmp(argv[1], "copy") != 0)
        return cli_usage(lang, "db", CLI_TR(lang, "unknown command '%s' (try copy)", "unbekannter Befehl '%s' (copy?)"),
                         argv[1]);
    const char *from = NULL, *to = NULL;
    for (int i = 2; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r;
        if ((r = cli_option(argc, argv, &i, "--from", &v)) != 0 || (r = cli_option(argc, argv, &i, "--to", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage(lang, "db", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            if (!strncmp(opt, "--from", 6))
                from = v;
            else
                to = v;
        } else if (cli_option(argc, argv, &i, "--lang", &v) != 0) {
            /* applied by cli_scan_lang */
        } else {
            return cli_usage(lang, "db", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), opt);
        }
    }
    if (!from || !to)
        return cli_usage(lang, "db", "%s",
                         CLI_TR(lang, "db copy needs --from and --to", "db copy braucht --from und --to"));
    const char *a, *b;
    StoreKind ka = store_kind_of(from, &a), kb = store_kind_of(to, &b);
    if (ka == kb && strcmp(a, b) == 0)
        return cli_usage(
            lang, "db", "%s",
            CLI_TR(lang, "--from and --to name the same database", "--from und --to nennen dieselbe Datenbank"));
    return copy(from, to, lang);
}
