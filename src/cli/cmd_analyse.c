/* schach analyse: every game of PGN files searched by the engine, written back annotated (PGN with
 * [%eval], NAGs, comments and the better lines) or as JSON lines (the server API's shape). */
#define _POSIX_C_SOURCE 200809L /* isatty, sigaction */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "cli.h"
#include "schach/pgn.h"

static void print_help(SchLang lang) {
    printf(CLI_TR(lang,
                  "Usage: schach analyse [--nodes N | --depth N | --movetime MS] [--threads N]\n"
                  "                      [--lang de|en] [--json] FILE...\n"
                  "\n"
                  "Analyses every game of the PGN files with the engine: each position is searched,\n"
                  "each move judged by how much it lowered the mover's winning chances (inaccuracy\n"
                  "?!, mistake ?, blunder ??, as lichess judges), with the better move and its line,\n"
                  "and each side's accuracy and average centipawn loss.\n"
                  "\n"
                  "  --nodes N     nodes searched per position (default %d)\n"
                  "  --depth N     search each position to depth N instead\n"
                  "  --movetime MS search each position MS milliseconds instead\n"
                  "  --threads N   positions searched at once, one engine each (default 1, at most %d)\n"
                  "  --json        one JSON object per game and line instead of PGN:\n"
                  "                {\"moves\": [{\"ply\", \"san\", \"eval\": {\"cp\": N} | {\"mate\": N}, \"best\",\n"
                  "                \"best_san\", \"line\", \"judgement\"}], \"accuracy\": {\"white\", \"black\"},\n"
                  "                \"summary\": {\"white\": {\"inaccuracy\", \"mistake\", \"blunder\", \"acpl\"},\n"
                  "                \"black\": {...}}}; evaluations from White's point of view\n"
                  "  --lang L      piece letters and comments: de or en\n"
                  "\n"
                  "The PGN output is each game with an [%%eval] after every move, NAGs $6 $2 $4 on the\n"
                  "judged moves, a comment naming the better move and its line as a variation; the\n"
                  "comments and variations of the input are kept. On a terminal a progress bar goes\n"
                  "to standard error. FILE - reads standard input. A game with an error is reported\n"
                  "(its number, line and column) and skipped; the exit status is then 1.\n",
                  "Aufruf: schach analyse [--nodes N | --depth N | --movetime MS] [--threads N]\n"
                  "                       [--lang de|en] [--json] DATEI...\n"
                  "\n"
                  "Analysiert jede Partie der PGN-Dateien mit der Engine: jede Stellung wird\n"
                  "durchsucht, jeder Zug danach beurteilt, wie sehr er die Gewinnchancen des\n"
                  "Ziehenden senkte (Ungenauigkeit ?!, Fehler ?, grober Fehler ??, wie lichess\n"
                  "urteilt), mit dem besseren Zug und seiner Variante, dazu Genauigkeit und\n"
                  "durchschnittlicher Bauernverlust (ACPL) jeder Seite.\n"
                  "\n"
                  "  --nodes N     Knoten je Stellung (Vorgabe %d)\n"
                  "  --depth N     stattdessen jede Stellung bis Tiefe N durchsuchen\n"
                  "  --movetime MS stattdessen jede Stellung MS Millisekunden durchsuchen\n"
                  "  --threads N   Stellungen zugleich, je eine Engine (Vorgabe 1, höchstens %d)\n"
                  "  --json        statt PGN ein JSON-Objekt je Partie und Zeile:\n"
                  "                {\"moves\": [{\"ply\", \"san\", \"eval\": {\"cp\": N} | {\"mate\": N}, \"best\",\n"
                  "                \"best_san\", \"line\", \"judgement\"}], \"accuracy\": {\"white\", \"black\"},\n"
                  "                \"summary\": {\"white\": {\"inaccuracy\", \"mistake\", \"blunder\", \"acpl\"},\n"
                  "                \"black\": {...}}}; Bewertungen aus Sicht von Weiß\n"
                  "  --lang L      Figurenbuchstaben und Kommentare: de oder en\n"
                  "\n"
                  "Die PGN-Ausgabe ist jede Partie mit einem [%%eval] nach jedem Zug, NAGs $6 $2 $4\n"
                  "bei den beurteilten Zügen, einem Kommentar mit dem besseren Zug und dessen\n"
                  "Variante; Kommentare und Varianten der Eingabe bleiben erhalten. Am Terminal\n"
                  "zeigt ein Fortschrittsbalken auf der Fehlerausgabe den Stand. DATEI - liest die\n"
                  "Standardeingabe. Eine fehlerhafte Partie wird gemeldet (Nummer, Zeile, Spalte)\n"
                  "und übersprungen; der Rückgabewert ist dann 1.\n"),
           ANALYSIS_DEFAULT_NODES, ANALYSIS_THREADS_MAX);
}

/* The analyser a Ctrl-C stops (the only state a signal handler may reach). */
static Analyser *volatile interrupted_analyser;
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
    (void)sig;
    interrupted = 1;
    Analyser *a = interrupted_analyser;
    if (a)
        analyser_stop(a);
}

typedef struct Run {
    SchLang lang;
    bool json;
    bool bar; /* stderr is a terminal */
    const char *file;
    int game;
} Run;

static void progress(int done, int total, void *ctx) {
    const Run *run = ctx;
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    int filled = total > 0 ? done * WIDTH / total : WIDTH;
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, CLI_TR(run->lang, "\r%s: game %d [%s] %d/%d", "\r%s: Partie %d [%s] %d/%d"), run->file, run->game,
            bar, done, total);
    fflush(stderr);
}

static const char *display_name(const char *file, SchLang lang) {
    return strcmp(file, "-") ? file : CLI_TR(lang, "(standard input)", "(Standardeingabe)");
}

/* Analyses and writes one game; false when it could not (reported). */
static bool analyse_game(Analyser *a, SchPgnGame *pg, Run *run) {
    SchLang lang = run->lang;
    AnalysisResult res;
    bool ok = analyser_run(a, &pg->game, &res, run->bar ? progress : NULL, run);
    if (run->bar)
        fputs("\r\033[K", stderr);
    if (!ok) {
        if (!interrupted)
            cli_errorf(CLI_TR(lang, "%s: game %d: out of memory", "%s: Partie %d: kein Speicher mehr"), run->file,
                       run->game);
        analysis_result_free(&res);
        return false;
    }
    if (run->json) {
        json_t *o = analysis_json(&res, lang);
        ok = o && cli_print_json(o);
    } else {
        ok = analysis_annotate_pgn(pg, &res, lang);
        if (!ok)
            cli_errorf(CLI_TR(lang, "%s: game %d: the annotations do not fit the PGN limits",
                              "%s: Partie %d: die Anmerkungen passen nicht in die PGN-Grenzen"),
                       run->file, run->game);
        else
            ok = sch_pgn_write(stdout, pg, lang);
    }
    fflush(stdout);
    analysis_result_free(&res);
    return ok;
}

/* Every game of one file; false when the file cannot be read or any game failed. */
static bool analyse_file(Analyser *a, const char *file, Run *run) {
    SchLang lang = run->lang;
    bool is_stdin = !strcmp(file, "-");
    FILE *f = is_stdin ? stdin : fopen(file, "rb");
    if (!f) {
        cli_errorf(CLI_TR(lang, "%s: cannot open: %s", "%s: kann nicht geöffnet werden: %s"), file, strerror(errno));
        return false;
    }
    run->file = display_name(file, lang);
    SchError err;
    sch_err_clear(&err);
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    if (!is_stdin)
        fclose(f);
    if (!r) {
        char msg[256];
        cli_format_error(&err, lang, msg, sizeof msg);
        cli_errorf("%s: %s", run->file, msg);
        return false;
    }
    bool ok = true;
    for (int counter = 1; !interrupted; counter++) {
        SchPgnGame pg;
        sch_err_clear(&err);
        int rc = sch_pgn_read_game(r, &pg, &err);
        if (rc == 0)
            break;
        run->game = pg.number > 0 ? pg.number : err.game > 0 ? err.game : counter;
        if (rc < 0) {
            char msg[256];
            cli_format_error(&err, lang, msg, sizeof msg);
            cli_errorf(CLI_TR(lang, "%s: game %d: %s (skipped)", "%s: Partie %d: %s (übersprungen)"), run->file,
                       run->game, msg);
            ok = false;
        } else {
            if (pg.warning.code != SCH_ERR_NONE) {
                char msg[256];
                cli_format_error(&pg.warning, lang, msg, sizeof msg);
                cli_errorf(CLI_TR(lang, "%s: game %d: warning: %s", "%s: Partie %d: Warnung: %s"), run->file, run->game,
                           msg);
            }
            if (!analyse_game(a, &pg, run))
                ok = false;
        }
        sch_pgn_game_free(&pg);
    }
    sch_pgn_reader_close(r);
    return ok;
}

/* A positive number for --nodes, --depth, --movetime or --threads, at most max. */
static bool parse_count(const char *text, uint64_t max, uint64_t *out) {
    if (!text || *text < '0' || *text > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v == 0 || v > max)
        return false;
    *out = v;
    return true;
}

int cmd_analyse(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "analyse", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    AnalysisOptions opt;
    analysis_options_default(&opt);
    Run run = {lang, false, false, NULL, 0};
    int budgets = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        static const struct {
            const char *name;
            uint64_t max;
        } numeric[] = {{"--nodes", UINT64_C(1000000000000)},
                       {"--depth", ENGINE_MAX_PLY - 1},
                       {"--movetime", 3600000},
                       {"--threads", ANALYSIS_THREADS_MAX}};
        const char *v = NULL;
        int r = cli_option(argc, argv, &i, "--lang", &v);
        if (r != 0)
            continue;
        bool matched = false;
        for (size_t k = 0; k < sizeof numeric / sizeof numeric[0] && !matched; k++) {
            r = cli_option(argc, argv, &i, numeric[k].name, &v);
            if (r == 0)
                continue;
            matched = true;
            uint64_t n;
            if (r < 0 || !parse_count(v, numeric[k].max, &n))
                return cli_usage(lang, "analyse",
                                 CLI_TR(lang, "%s needs a whole number from 1 to %" PRIu64,
                                        "%s braucht eine ganze Zahl von 1 bis %" PRIu64),
                                 numeric[k].name, numeric[k].max);
            if (k == 3) {
                opt.threads = (int)n;
                continue;
            }
            budgets++;
            opt.nodes = k == 0 ? n : 0;
            opt.depth = k == 1 ? (int)n : 0;
            opt.movetime = k == 2 ? (int)n : 0;
        }
        if (matched)
            continue;
        if (!strcmp(argv[i], "--json"))
            run.json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage(lang, "analyse", CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), argv[i]);
        else
            files++;
    }
    if (budgets > 1)
        return cli_usage(lang, "analyse", "%s",
                         CLI_TR(lang, "give one of --nodes, --depth and --movetime",
                                "nur eine von --nodes, --depth und --movetime angeben"));
    if (files == 0)
        return cli_usage(lang, "analyse", "%s", CLI_TR(lang, "no FILE given", "keine DATEI angegeben"));
    Analyser *a = analyser_new(&opt);
    if (!a) {
        cli_errorf("%s", CLI_TR(lang, "out of memory", "kein Speicher mehr"));
        return CLI_FAIL;
    }
    run.bar = isatty(STDERR_FILENO);
    interrupted_analyser = a;
    struct sigaction sa, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    bool ok = true;
    for (int i = 1; i < argc && !interrupted; i++) {
        const char *v = NULL;
        if (cli_option(argc, argv, &i, "--lang", &v) != 0 || cli_option(argc, argv, &i, "--nodes", &v) != 0 ||
            cli_option(argc, argv, &i, "--depth", &v) != 0 || cli_option(argc, argv, &i, "--movetime", &v) != 0 ||
            cli_option(argc, argv, &i, "--threads", &v) != 0 || !strcmp(argv[i], "--json"))
            continue;
        if (!analyse_file(a, argv[i], &run))
            ok = false;
    }
    sigaction(SIGINT, &old_int, NULL);
    interrupted_analyser = NULL;
    analyser_free(a);
    if (interrupted) {
        cli_errorf("%s", CLI_TR(lang, "interrupted", "abgebrochen"));
        return 130;
    }
    return ok ? CLI_OK : CLI_FAIL;
}
