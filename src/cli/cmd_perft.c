/* schach perft: counts the leaf nodes of the legal move tree (the specification test of movegen). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "schach/fen.h"
#include "schach/notation.h"
#include "schach/perft.h"

enum { PERFT_MAX_DEPTH = 30 };

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach perft [--fen FEN] [--divide] [--json] [--lang de|en] DEPTH\n"
                 "\n"
                 "Counts the leaf nodes of the tree of legal moves DEPTH plies deep (0 to 30).\n"
                 "\n"
                 "  --fen FEN   start from FEN instead of the standard position\n"
                 "  --divide    also print the count below each legal move (\"e2e4: 20\"),\n"
                 "              sorted by the move in UCI notation; needs DEPTH >= 1\n"
                 "  --json      print one JSON object: {\"fen\",\"depth\",\"nodes\",\"seconds\",\"nps\"}\n"
                 "              and with --divide \"moves\": {\"e2e4\": 20, ...}\n"
                 "  --lang L    language of messages: de or en\n",
                 "Aufruf: schach perft [--fen FEN] [--divide] [--json] [--lang de|en] TIEFE\n"
                 "\n"
                 "Zählt die Blattknoten des Baums der legalen Züge, TIEFE Halbzüge tief (0 bis 30).\n"
                 "\n"
                 "  --fen FEN   von FEN statt von der Grundstellung ausgehen\n"
                 "  --divide    auch die Anzahl unter jedem legalen Zug ausgeben (\"e2e4: 20\"),\n"
                 "              nach dem Zug in UCI-Notation sortiert; braucht TIEFE >= 1\n"
                 "  --json      ein JSON-Objekt ausgeben: {\"fen\",\"depth\",\"nodes\",\"seconds\",\"nps\"}\n"
                 "              und mit --divide \"moves\": {\"e2e4\": 20, ...}\n"
                 "  --lang L    Sprache der Meldungen: de oder en\n"),
          stdout);
}

typedef struct DivideEntry {
    char uci[SCH_MOVE_TEXT_MAX];
    uint64_t count;
} DivideEntry;

static int compare_entries(const void *a, const void *b) {
    return strcmp(((const DivideEntry *)a)->uci, ((const DivideEntry *)b)->uci);
}

static double now_seconds(void) {
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool parse_depth(const char *text, int *depth) {
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 0 || v > PERFT_MAX_DEPTH)
        return false;
    *depth = (int)v;
    return true;
}

static int print_result(const SchPosition *pos, int depth, uint64_t nodes, double seconds, const DivideEntry *entries,
                        int count, bool divide, bool json, SchLang lang) {
    uint64_t nps = seconds > 0.0 ? (uint64_t)((double)nodes / seconds) : 0;
    if (json) {
        char fen[SCH_FEN_MAX];
        sch_fen_write(pos, fen, sizeof fen);
        json_t *o = json_object();
        json_object_set_new(o, "fen", cli_json_string(fen));
        json_object_set_new(o, "depth", json_integer(depth));
        json_object_set_new(o, "nodes", json_integer((json_int_t)nodes));
        json_object_set_new(o, "seconds", json_real(seconds));
        json_object_set_new(o, "nps", json_integer((json_int_t)nps));
        if (divide) {
            json_t *moves = json_object();
            for (int i = 0; i < count; i++)
                json_object_set_new(moves, entries[i].uci, json_integer((json_int_t)entries[i].count));
            json_object_set_new(o, "moves", moves);
        }
        return cli_print_json(o) ? CLI_OK : CLI_FAIL;
    }
    for (int i = 0; i < count; i++)
        printf("%s: %llu\n", entries[i].uci, (unsigned long long)entries[i].count);
    if (divide)
        putchar('\n');
    printf(CLI_TR(lang, "nodes: %llu\n", "Knoten: %llu\n"), (unsigned long long)nodes);
    printf(CLI_TR(lang, "time: %.3f s (%llu nodes/s)\n", "Zeit: %.3f s (%llu Knoten/s)\n"), seconds,
           (unsigned long long)nps);
    return CLI_OK;
}

int cmd_perft(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "perft", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    const char *fen = NULL, *depth_text = NULL, *v = NULL;
    bool divide = false, json = false;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int r;
        if ((r = cli_option(argc, argv, &i, "--fen", &v)) != 0 || (r = cli_option(argc, argv, &i, "--lang", &v)) != 0) {
            if (r < 0)
                return cli_usage(lang, "perft", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            if (!strncmp(opt, "--fen", 5))
                fen = v;
        } else if (!strcmp(argv[i], "--divide")) {
            divide = true;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage(lang, "perft", CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), argv[i]);
        } else if (depth_text) {
            return cli_usage(lang, "perft", CLI_TR(lang, "unexpected argument '%s'", "unerwartetes Argument '%s'"),
                             argv[i]);
        } else {
            depth_text = argv[i];
        }
    }
    int depth = 0;
    if (!depth_text)
        return cli_usage(lang, "perft", "%s", CLI_TR(lang, "DEPTH is missing", "TIEFE fehlt"));
    if (!parse_depth(depth_text, &depth))
        return cli_usage(lang, "perft",
                         CLI_TR(lang, "DEPTH must be a number from 0 to %d, not '%s'",
                                "TIEFE muss eine Zahl von 0 bis %d sein, nicht '%s'"),
                         PERFT_MAX_DEPTH, depth_text);
    if (divide && depth < 1)
        return cli_usage(lang, "perft", "%s", CLI_TR(lang, "--divide needs DEPTH >= 1", "--divide braucht TIEFE >= 1"));

    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    if (!fen)
        sch_pos_set_start(&pos);
    else if (!sch_fen_parse(&pos, fen, &err)) {
        char msg[256];
        err.line = 0; /* a FEN is one line: the column says enough */
        cli_format_error(&err, lang, msg, sizeof msg);
        cli_errorf(CLI_TR(lang, "invalid FEN: %s", "ungültige FEN: %s"), msg);
        return CLI_FAIL;
    }

    DivideEntry entries[SCH_MAX_MOVES];
    int count = 0;
    uint64_t nodes = 0;
    double start = now_seconds();
    if (divide) {
        SchMove moves[SCH_MAX_MOVES];
        uint64_t counts[SCH_MAX_MOVES];
        count = sch_perft_divide(&pos, depth, moves, counts);
        for (int i = 0; i < count; i++) {
            sch_uci_write(&pos, moves[i], entries[i].uci, sizeof entries[i].uci);
            entries[i].count = counts[i];
            nodes += counts[i];
        }
        qsort(entries, (size_t)count, sizeof entries[0], compare_entries);
    } else {
        nodes = sch_perft(&pos, depth);
    }
    double seconds = now_seconds() - start;
    if (seconds < 0.0)
        seconds = 0.0; /* the wall clock may step back */
    return print_result(&pos, depth, nodes, seconds, entries, count, divide, json, lang);
}
