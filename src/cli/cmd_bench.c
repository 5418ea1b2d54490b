/* schach bench: the engine's fixed benchmark. The node count is a signature of the search: the same
 * on every machine and run, so a change of it shows that search or evaluation changed. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine.h"

enum { BENCH_MAX_DEPTH = 64 };

static void print_help(SchLang lang) {
    printf(CLI_TR(lang,
                  "Usage: schach bench [--lang de|en] [--eval nnue|classical] [DEPTH]\n"
                  "\n"
                  "Searches the built-in benchmark positions to DEPTH (1 to %d; default: the engine's\n"
                  "bench depth) with a fresh 16 MB table and one thread, and prints the nodes of each\n"
                  "position and the total. The total node count is the same on every machine and run:\n"
                  "a signature of the search. --eval picks the evaluation: nnue (the built-in net, the\n"
                  "default, as in the engine at full strength) or classical (the hand-written one the\n"
                  "levels for people play with); the signature is the default's. The last line is always\n"
                  "  bench: <nodes> nodes <nps> nps <ms> ms\n",
                  "Aufruf: schach bench [--lang de|en] [--eval nnue|classical] [TIEFE]\n"
                  "\n"
                  "Durchsucht die eingebauten Benchmark-Stellungen bis TIEFE (1 bis %d; ohne Angabe die\n"
                  "Standardtiefe der Engine) mit neuer 16-MB-Tabelle und einem Thread und gibt die Knoten\n"
                  "jeder Stellung und die Summe aus. Die Knotenzahl ist auf jedem Rechner und in jedem Lauf\n"
                  "gleich: eine Signatur der Suche. --eval wählt die Bewertung: nnue (das eingebaute Netz,\n"
                  "der Standard, wie in der Engine bei voller Stärke) oder classical (die handgeschriebene,\n"
                  "mit der die Stufen für Menschen spielen); die Signatur ist die des Standards. Die letzte\n"
                  "Zeile ist immer\n"
                  "  bench: <Knoten> nodes <nps> nps <ms> ms\n"),
           BENCH_MAX_DEPTH);
}

static bool parse_depth(const char *text, int *depth) {
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > BENCH_MAX_DEPTH)
        return false;
    *depth = (int)v;
    return true;
}

static void print_position(int index, const char *fen, uint64_t nodes, void *ctx) {
    SchLang lang = *(const SchLang *)ctx;
    printf(CLI_TR(lang, "Position %2d: %12" PRIu64 " nodes  %s\n", "Stellung %2d: %12" PRIu64 " Knoten  %s\n"),
           index + 1, nodes, fen);
    fflush(stdout);
}

int cmd_bench(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "bench", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    int depth = 0;
    EngineOptions defaults;
    engine_options_default(&defaults);
    bool have_depth = false, classical = !defaults.use_nnue;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v = NULL;
        if (cli_option(argc, argv, &i, "--lang", &v) != 0)
            continue;
        int eval_opt = cli_option(argc, argv, &i, "--eval", &v);
        if (eval_opt < 0 || (eval_opt > 0 && strcmp(v, "nnue") && strcmp(v, "classical")))
            return cli_usage(lang, "bench",
                             CLI_TR(lang, "--eval takes nnue or classical", "--eval erwartet nnue oder classical"));
        if (eval_opt > 0) {
            classical = !strcmp(v, "classical");
            continue;
        }
        if (arg[0] == '-' || have_depth)
            return cli_usage(lang, "bench", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), arg);
        if (!parse_depth(arg, &depth))
            return cli_usage(lang, "bench",
                             CLI_TR(lang, "the depth must be a whole number from 1 to %d, not '%s'",
                                    "die Tiefe muss eine ganze Zahl von 1 bis %d sein, nicht '%s'"),
                             BENCH_MAX_DEPTH, arg);
        have_depth = true;
    }
    int64_t ms = 0;
    uint64_t nodes = engine_bench(depth, classical, &ms, print_position, &lang);
    uint64_t nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : 0;
    printf(CLI_TR(lang, "Total: %" PRIu64 " nodes in %" PRId64 " ms (%" PRIu64 " nodes per second)\n",
                  "Summe: %" PRIu64 " Knoten in %" PRId64 " ms (%" PRIu64 " Knoten pro Sekunde)\n"),
           nodes, ms, nps);
    printf("bench: %" PRIu64 " nodes %" PRIu64 " nps %" PRId64 " ms\n", nodes, nps, ms);
    return CLI_OK;
}
