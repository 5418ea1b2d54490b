/* schach uci: the UCI protocol on standard input and output (the loop lives in the engine's uci.c). */
#include <stdio.h>

#include "cli.h"
#include "uci.h"

#ifndef SCHACH_VERSION
#define SCHACH_VERSION "0.1.0"
#endif

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach uci [--lang de|en]\n"
                 "\n"
                 "Speaks the Universal Chess Interface on standard input and output, so that chess GUIs\n"
                 "(Arena, Cute Chess, BanksiaGUI, ...) and match runners can use schach as an engine.\n"
                 "The protocol itself is English. Options: Hash, Threads, MultiPV, Move Overhead, Ponder,\n"
                 "UCI_LimitStrength, UCI_Elo, Skill Level, Clear Hash. Debug commands: d, eval.\n"
                 "Bad input is answered with 'info string ...' and ignored.\n",
                 "Aufruf: schach uci [--lang de|en]\n"
                 "\n"
                 "Spricht das Universal Chess Interface auf Standardein- und -ausgabe, damit Schach-\n"
                 "oberflächen (Arena, Cute Chess, BanksiaGUI, ...) und Turnierprogramme schach als Engine\n"
                 "nutzen können. Das Protokoll selbst ist englisch. Optionen: Hash, Threads, MultiPV,\n"
                 "Move Overhead, Ponder, UCI_LimitStrength, UCI_Elo, Skill Level, Clear Hash.\n"
                 "Befehle zur Fehlersuche: d, eval. Fehlerhafte Eingaben werden mit 'info string ...'\n"
                 "beantwortet und ignoriert.\n"),
          stdout);
}

int cmd_uci(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "uci", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        if (cli_option(argc, argv, &i, "--lang", &v) == 0)
            return cli_usage(lang, "uci", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), opt);
    }
    return uci_loop(stdin, stdout, SCHACH_VERSION) == 0 ? CLI_OK : CLI_FAIL;
}
