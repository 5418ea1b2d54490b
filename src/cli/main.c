/* The schach program: global options and dispatch to one subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "play.h"
#include "schach/bitboard.h"
#include "schach/schach.h"

#ifndef SCHACH_VERSION
#define SCHACH_VERSION "0.1.0"
#endif

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv, SchLang lang);
    const char *summary_en;
    const char *summary_de;
} Command;

/* Commands without run are announced for later versions. */
static const Command commands[] = {
    {"perft", cmd_perft, "count the leaf nodes of the move tree", "Blattknoten des Zugbaums zählen"},
    {"moves", cmd_moves, "play moves, list the legal moves and the state of the game",
     "Züge spielen, legale Züge und Stand der Partie zeigen"},
    {"pgn", cmd_pgn, "check or convert PGN files (pgn check, pgn convert)",
     "PGN-Dateien prüfen oder umwandeln (pgn check, pgn convert)"},
    {"play", cmd_play, "play at the terminal against a person or the computer, every rule explained",
     "am Terminal gegen eine Person oder den Computer spielen, jede Regel erklärt"},
    {"serve", cmd_serve, "play in the browser (web server)", "im Browser spielen (Webserver)"},
    {"backup", cmd_backup, "copy the server's database while it runs", "die Datenbank des Servers im Betrieb sichern"},
    {"db", cmd_db, "copy a site's games into another database (db copy)",
     "die Partien einer Seite in eine andere Datenbank kopieren (db copy)"},
    {"uci", cmd_uci, "speak UCI: schach as an engine for chess GUIs",
     "UCI sprechen: schach als Engine für Schachoberflächen"},
    {"bench", cmd_bench, "search benchmark; its node count is the signature of the search",
     "Suchbenchmark; seine Knotenzahl ist die Signatur der Suche"},
    {"match", cmd_match, "games between two UCI engines, with Elo", "Partien zwischen zwei UCI-Engines, mit Elo"},
    {"analyse", cmd_analyse, "annotate PGN games with the engine: evaluations, mistakes, better moves, accuracy",
     "PGN-Partien mit der Engine kommentieren: Bewertungen, Fehler, bessere Züge, Genauigkeit"},
    {"winnable", cmd_winnable, "can a side still checkmate? dead positions and flag falls (FIDE 5.2.2, 6.9)",
     "kann eine Seite noch mattsetzen? tote Stellungen und Zeitüberschreitung (FIDE 5.2.2, 6.9)"},
};

static void print_usage(FILE *out, SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach [--lang de|en] COMMAND [OPTIONS]\n       schach --help | --version\n\nCommands:\n",
                 "Aufruf: schach [--lang de|en] BEFEHL [OPTIONEN]\n        schach --help | --version\n\nBefehle:\n"),
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, CLI_TR(lang, commands[i].summary_en, commands[i].summary_de));
    fputs(CLI_TR(lang,
                 "\nEvery command has --help. --lang chooses the language of messages and piece letters;\n"
                 "without it, LC_ALL, LC_MESSAGES or LANG starting with \"de\" choose German.\n"
                 "Exit status: 0 success, 1 failure, 2 usage error.\n",
                 "\nJeder Befehl hat --help. --lang wählt die Sprache der Meldungen und Figurenbuchstaben;\n"
                 "ohne --lang wählen LC_ALL, LC_MESSAGES oder LANG, die mit \"de\" beginnen, Deutsch.\n"
                 "Rückgabewert: 0 Erfolg, 1 Fehler, 2 falscher Aufruf.\n"),
          out);
}

static int usage_error(SchLang lang) {
    print_usage(stderr, lang);
    return CLI_USAGE;
}

int main(int argc, char **argv) {
    SchLang lang = cli_env_lang();
    int i = 1;
    /* Global options come before the command name. */
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *v = NULL;
        int r = cli_option(argc, argv, &i, "--lang", &v);
        if (r < 0 || (r > 0 && !cli_parse_lang(v, &lang))) {
            cli_errorf(CLI_TR(lang, "unknown language '%s' (use de or en)", "unbekannte Sprache '%s' (de oder en)"),
                       r < 0 ? "" : v);
            return usage_error(lang);
        }
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_usage(stdout, lang);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("schach %s\n", SCHACH_VERSION);
            return CLI_OK;
        }
        cli_errorf(CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), argv[i]);
        return usage_error(lang);
    }
    if (i >= argc)
        return usage_error(lang);

    const Command *cmd = NULL;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(argv[i], commands[k].name))
            cmd = &commands[k];
    if (!cmd) {
        cli_errorf(CLI_TR(lang, "unknown command '%s'", "unbekannter Befehl '%s'"), argv[i]);
        return usage_error(lang);
    }
    if (!cmd->run) {
        cli_errorf(CLI_TR(lang, "'%s' is not implemented yet", "'%s' ist noch nicht verfügbar"), cmd->name);
        return CLI_FAIL;
    }

    int status = cmd->run(argc - i, argv + i, lang);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_errorf("%s", CLI_TR(lang, "could not write the output", "Ausgabe konnte nicht geschrieben werden"));
        return CLI_FAIL;
    }
    return status;
}
