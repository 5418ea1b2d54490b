/* schach backup --db PATH FILE: an online, consistent copy of the server's database (store.h,
 * store_sqlite_backup): made by the running server when one holds the database, else directly. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "store/store.h"

static void print_backup_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach backup --db PATH FILE [--lang de|en]\n"
                 "\n"
                 "Copies the database of `schach serve` at PATH into FILE: a consistent snapshot, taken\n"
                 "while the server runs and plays on (the server makes the copy; without a running\n"
                 "server the copy is made directly). FILE is replaced only by a complete copy: after\n"
                 "any failure or interruption it is unchanged.\n"
                 "\n"
                 "To restore: stop the server, remove PATH-wal (if there is one), copy FILE over\n"
                 "PATH, start the server again.\n"
                 "\n"
                 "  --db PATH   the server's database (as given to schach serve --db)\n"
                 "  --lang L    language of messages: de or en\n"
                 "\n"
                 "Exit status: 0 copied, 1 failed, 2 usage error.\n",
                 "Aufruf: schach backup --db PFAD DATEI [--lang de|en]\n"
                 "\n"
                 "Kopiert die Datenbank von `schach serve` unter PFAD nach DATEI: ein stimmiger Stand,\n"
                 "aufgenommen, während der Server läuft und weiterspielt (der Server fertigt die Kopie;\n"
                 "ohne laufenden Server wird direkt kopiert). DATEI wird nur durch eine vollständige\n"
                 "Kopie ersetzt: nach jedem Fehler oder Abbruch ist sie unverändert.\n"
                 "\n"
                 "Wiederherstellen: Server anhalten, PFAD-wal entfernen (falls vorhanden), DATEI über\n"
                 "PFAD kopieren, Server wieder starten.\n"
                 "\n"
                 "  --db PFAD   die Datenbank des Servers (wie bei schach serve --db)\n"
                 "  --lang L    Sprache der Meldungen: de oder en\n"
                 "\n"
                 "Rückgabewert: 0 kopiert, 1 Fehler, 2 falscher Aufruf.\n"),
          stdout);
}

int cmd_backup(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "backup", bad);
    if (cli_wants_help(argc, argv)) {
        print_backup_help(lang);
        return CLI_OK;
    }
    const char *db = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r;
        if ((r = cli_option(argc, argv, &i, "--db", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage(lang, "backup", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            db = v;
        } else if (cli_option(argc, argv, &i, "--lang", &v) != 0) {
            /* applied by cli_scan_lang */
        } else if (opt[0] == '-' && opt[1] != '\0') {
            return cli_usage(lang, "backup", CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), opt);
        } else if (file) {
            return cli_usage(lang, "backup", CLI_TR(lang, "unexpected argument '%s'", "unerwartetes Argument '%s'"),
                             opt);
        } else {
            file = opt;
        }
    }
    if (!db)
        return cli_usage(lang, "backup", "%s", CLI_TR(lang, "--db PATH is missing", "--db PFAD fehlt"));
    if (!file || !*file)
        return cli_usage(lang, "backup", "%s",
                         CLI_TR(lang, "the backup FILE is missing", "die Sicherungsdatei DATEI fehlt"));
    char err[1024] = "";
    if (!store_sqlite_backup(db, file, err, sizeof err)) {
        /* err is technical English from the store (file names, SQLite's words). */
        cli_errorf(CLI_TR(lang, "backup: no copy made: %s", "backup: keine Kopie erstellt: %s"), err);
        return CLI_FAIL;
    }
    printf(CLI_TR(lang, "schach backup: %s copied to %s\n", "schach backup: %s nach %s kopiert\n"), db, file);
    return CLI_OK;
}
