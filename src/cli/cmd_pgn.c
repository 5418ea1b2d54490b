/* schach pgn check / convert: replays PGN files by the rules, reports or rewrites every game. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "schach/game.h"
#include "schach/pgn.h"

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach pgn check [--json] [--lang de|en] FILE...\n"
                 "       schach pgn convert [--lang de|en] FILE...\n"
                 "\n"
                 "check    replays every game by the rules and reports per game its number, its plies,\n"
                 "         its result and the draws the player to move could claim, or the error\n"
                 "         with line and column. Exit status 1 when any game has an error.\n"
                 "convert  writes every game in PGN export format with the piece letters of --lang\n"
                 "         to standard output; games with errors are reported and skipped.\n"
                 "\n"
                 "FILE - reads standard input. See 'schach pgn check --help' for the JSON output.\n",
                 "Aufruf: schach pgn check [--json] [--lang de|en] DATEI...\n"
                 "        schach pgn convert [--lang de|en] DATEI...\n"
                 "\n"
                 "check    spielt jede Partie nach den Regeln nach und meldet je Partie Nummer,\n"
                 "         Halbzüge, Ergebnis und die Remis, die der Spieler am Zug reklamieren kann,\n"
                 "         oder den Fehler mit Zeile und Spalte. Rückgabewert 1, wenn eine Partie\n"
                 "         einen Fehler hat.\n"
                 "convert  schreibt jede Partie im PGN-Exportformat mit den Figurenbuchstaben von\n"
                 "         --lang auf die Standardausgabe; fehlerhafte Partien werden gemeldet und\n"
                 "         übersprungen.\n"
                 "\n"
                 "DATEI - liest die Standardeingabe. Die JSON-Ausgabe erklärt 'schach pgn check --help'.\n"),
          stdout);
}

static void print_check_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach pgn check [--json] [--lang de|en] FILE...\n"
                 "\n"
                 "Replays every game of the files by the rules. Per game it prints the number, the\n"
                 "plies played, the result and the draws the player to move could claim, or the\n"
                 "error with line and column (the game is then replayed up to the error).\n"
                 "\n"
                 "  --json    one JSON object per game and line:\n"
                 "            {\"game\": 1, \"plies\": 45, \"result\": \"1-0\", \"termination\": \"checkmate\",\n"
                 "             \"reason\": null, \"claims\": [], \"dead_at_ply\": null,\n"
                 "             \"result_contradicts_6_9\": null, \"error\": null}\n"
                 "            result: the rules' result when a rule ended the game (checkmate,\n"
                 "            stalemate, dead position, fivefold repetition, 75 moves), else the\n"
                 "            result marker of the PGN (\"1-0\" after a resignation), null for \"*\".\n"
                 "            termination: the rule that ended the game (checkmate, stalemate,\n"
                 "            insufficient_material, dead_position, fivefold_repetition,\n"
                 "            seventyfive_moves) or null; reason: why a dead position is dead.\n"
                 "            claims: threefold_repetition, fifty_moves available at the end.\n"
                 "            dead_at_ply: the ply (0: the start) from which no series of moves could\n"
                 "            mate any more (FIDE 5.2.2: the game was drawn there, whatever followed),\n"
                 "            or null. result_contradicts_6_9: for a win on time (Termination tag\n"
                 "            with \"time\"), true when the winner could not have checkmated by any\n"
                 "            series of moves (FIDE 6.9: a draw), else false; null for other games.\n"
                 "            error: null or {\"line\", \"column\", \"message\"}.\n"
                 "            With several files each object also has \"file\".\n"
                 "  --lang L  language of messages: de or en\n"
                 "\n"
                 "FILE - reads standard input. Exit status 1 when any game has an error or a file\n"
                 "cannot be read.\n",
                 "Aufruf: schach pgn check [--json] [--lang de|en] DATEI...\n"
                 "\n"
                 "Spielt jede Partie der Dateien nach den Regeln nach. Je Partie gibt es Nummer,\n"
                 "gespielte Halbzüge, Ergebnis und die Remis aus, die der Spieler am Zug\n"
                 "reklamieren kann, oder den Fehler mit Zeile und Spalte (die Partie ist dann bis\n"
                 "zum Fehler nachgespielt).\n"
                 "\n"
                 "  --json    ein JSON-Objekt je Partie und Zeile:\n"
                 "            {\"game\": 1, \"plies\": 45, \"result\": \"1-0\", \"termination\": \"checkmate\",\n"
                 "             \"reason\": null, \"claims\": [], \"dead_at_ply\": null,\n"
                 "             \"result_contradicts_6_9\": null, \"error\": null}\n"
                 "            result: das Ergebnis der Regeln, wenn eine Regel die Partie beendet hat\n"
                 "            (Matt, Patt, tote Stellung, fünffache Wiederholung, 75 Züge), sonst das\n"
                 "            Ergebnis am Ende der PGN (\"1-0\" nach Aufgabe), null bei \"*\".\n"
                 "            termination: die Regel, die die Partie beendet hat (checkmate, stalemate,\n"
                 "            insufficient_material, dead_position, fivefold_repetition,\n"
                 "            seventyfive_moves) oder null; reason: warum eine Stellung tot ist.\n"
                 "            claims: threefold_repetition, fifty_moves, am Ende reklamierbar.\n"
                 "            dead_at_ply: der Halbzug (0: der Anfang), ab dem keine Zugfolge mehr\n"
                 "            mattsetzen konnte (FIDE 5.2.2: dort war die Partie remis, was auch\n"
                 "            folgte), oder null. result_contradicts_6_9: bei Gewinn durch Zeit\n"
                 "            (Termination-Tag mit \"time\") true, wenn der Gewinner durch keine Zugfolge\n"
                 "            hätte mattsetzen können (FIDE 6.9: remis), sonst false; null bei anderen.\n"
                 "            error: null oder {\"line\", \"column\", \"message\"}.\n"
                 "            Bei mehreren Dateien hat jedes Objekt auch \"file\".\n"
                 "  --lang L  Sprache der Meldungen: de oder en\n"
                 "\n"
                 "DATEI - liest die Standardeingabe. Rückgabewert 1, wenn eine Partie einen Fehler\n"
                 "hat oder eine Datei nicht gelesen werden kann.\n"),
          stdout);
}

static void print_convert_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach pgn convert [--lang de|en] FILE...\n"
                 "\n"
                 "Writes every game in PGN export format (Seven Tag Roster first, lines of at most\n"
                 "80 characters) with the piece letters of --lang (en: K Q R B N, O-O; de: K D T L S,\n"
                 "0-0) to standard output. Without --lang the language comes from LC_ALL,\n"
                 "LC_MESSAGES or LANG. A game with an error is reported on standard error and\n"
                 "skipped; the exit status is then 1. FILE - reads standard input.\n",
                 "Aufruf: schach pgn convert [--lang de|en] DATEI...\n"
                 "\n"
                 "Schreibt jede Partie im PGN-Exportformat (zuerst die sieben Pflicht-Tags, Zeilen\n"
                 "von höchstens 80 Zeichen) mit den Figurenbuchstaben von --lang (de: K D T L S,\n"
                 "0-0; en: K Q R B N, O-O) auf die Standardausgabe. Ohne --lang bestimmen LC_ALL,\n"
                 "LC_MESSAGES oder LANG die Sprache. Eine fehlerhafte Partie wird auf der\n"
                 "Fehlerausgabe gemeldet und übersprungen; der Rückgabewert ist dann 1.\n"
                 "DATEI - liest die Standardeingabe.\n"),
          stdout);
}

typedef struct PgnOptions {
    SchLang lang;
    SchWinWork *work; /* pgn check: the analyses' work area */
    bool json;
    bool several_files; /* name the file in every report */
    int games;
    int errors;
} PgnOptions;

/* Called for every game read: rc is sch_pgn_read_game's 1 or -1 (err then describes the problem). */
typedef bool (*GameHandler)(const char *file, SchPgnGame *pg, int number, const SchError *err, PgnOptions *opt);

static const char *display_name(const char *file, SchLang lang) {
    return strcmp(file, "-") ? file : CLI_TR(lang, "(standard input)", "(Standardeingabe)");
}

/* Reads every game of file and hands it to handle. false when the file cannot be read or a game failed. */
static bool for_each_game(const char *file, GameHandler handle, PgnOptions *opt) {
    SchLang lang = opt->lang;
    bool is_stdin = !strcmp(file, "-");
    FILE *f = is_stdin ? stdin : fopen(file, "rb");
    if (!f) {
        cli_errorf(CLI_TR(lang, "%s: cannot open: %s", "%s: kann nicht geöffnet werden: %s"), file, strerror(errno));
        return false;
    }
    SchError err;
    sch_err_clear(&err);
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    if (!r) {
        char msg[256];
        cli_format_error(&err, lang, msg, sizeof msg);
        cli_errorf("%s: %s", display_name(file, lang), msg);
        if (!is_stdin)
            fclose(f);
        return false;
    }
    bool ok = true;
    for (int counter = 1;; counter++) {
        SchPgnGame pg;
        sch_err_clear(&err);
        int rc = sch_pgn_read_game(r, &pg, &err);
        if (rc == 0)
            break;
        int number = pg.number > 0 ? pg.number : err.game > 0 ? err.game : counter;
        opt->games++;
        if (rc < 0) {
            opt->errors++;
            ok = false;
        }
        if (!handle(display_name(file, lang), &pg, number, rc < 0 ? &err : NULL, opt))
            ok = false;
        sch_pgn_game_free(&pg);
    }
    sch_pgn_reader_close(r);
    if (!is_stdin)
        fclose(f);
    return ok;
}

/* What pgn check finds out beyond the moves: where the position died (5.2.2), and whether a win on
 * time is one the winner could never have mated for (6.9). */
typedef struct Audit {
    int dead_at_ply;     /* -1: never */
    SchOutcome dead;     /* the draw the rules gave at dead_at_ply */
    int contradicts_6_9; /* -1: not a time forfeit; 0 or 1 */
} Audit;

/* Whether the game's Termination tag tells of a time forfeit ("time forfeit", "X won on time"). */
static bool time_forfeit_tag(const SchPgnGame *pg) {
    const char *t = sch_pgn_tag(pg, "Termination");
    if (!t)
        return false;
    for (const char *p = t; *p; p++) {
        size_t k = 0;
        while (k < 4 && p[k] && tolower((unsigned char)p[k]) == "time"[k])
            k++;
        if (k == 4)
            return true;
    }
    return false;
}

static void audit_game(const SchPgnGame *pg, SchWinWork *work, Audit *a) {
    static const SchWinLimits quick = {true, 0};
    static const SchWinLimits full = {false, SCH_GAME_DEAD_NODES};
    static const SchWinLimits flag = {false, SCH_GAME_FLAG_NODES};
    const SchGame *g = &pg->game;
    a->dead_at_ply = -1;
    a->dead = (SchOutcome){SCH_RESULT_DRAW, SCH_TERM_DEAD_POSITION, SCH_WHITE, 0};
    SchPosition pos = g->start;
    for (int ply = 0; ply <= g->ply_count; ply++) {
        SchWinResult res[2];
        SchWinnability v = sch_dead_position(&pos, &quick, NULL, res);
        if (v == SCH_WIN_UNDETERMINED && (res[SCH_WHITE].blockade || res[SCH_BLACK].blockade))
            v = sch_dead_position(&pos, &full, work, res);
        if (v == SCH_WIN_UNWINNABLE) {
            a->dead_at_ply = ply;
            bool material = sch_pos_insufficient_material(&pos);
            a->dead.termination = material ? SCH_TERM_INSUFFICIENT_MATERIAL : SCH_TERM_DEAD_POSITION;
            SchWinReason why = res[SCH_WHITE].reason;
            if (why == SCH_WIN_REASON_BARE_KING || why == SCH_WIN_REASON_MATERIAL)
                why = res[SCH_BLACK].reason;
            a->dead.reason = material ? 0 : (int)why;
            break;
        }
        if (ply < g->ply_count) {
            SchUndo u;
            sch_game_make_ply(&pos, g->plies[ply].move, &u); /* a null move too */
        }
    }
    a->contradicts_6_9 = -1;
    bool decisive = pg->result == SCH_RESULT_WHITE_WINS || pg->result == SCH_RESULT_BLACK_WINS;
    if (decisive && time_forfeit_tag(pg)) {
        SchColor winner = pg->result == SCH_RESULT_WHITE_WINS ? SCH_WHITE : SCH_BLACK;
        a->contradicts_6_9 = sch_can_checkmate(&g->pos, winner, &flag, work, NULL) == SCH_WIN_UNWINNABLE;
    }
}

/* The ending the rules decided: the game's own, or the dead position pgn check found (the moves
 * after it were played on a board whose game was already drawn). */
static const SchOutcome *rules_outcome(const SchPgnGame *pg, const Audit *a) {
    if (sch_game_over(&pg->game))
        return &pg->game.outcome;
    return a->dead_at_ply >= 0 ? &a->dead : NULL;
}

/* The result pgn check reports: the rules' when they ended the game, else the PGN's marker. */
static const char *reported_result(const SchPgnGame *pg, const Audit *a) {
    const SchOutcome *o = rules_outcome(pg, a);
    if (o)
        return sch_result_string(o->result);
    return pg->result != SCH_RESULT_NONE ? sch_result_string(pg->result) : NULL;
}

static bool check_json(const char *file, SchPgnGame *pg, int number, const SchError *err, PgnOptions *opt) {
    const SchGame *g = &pg->game;
    Audit a;
    audit_game(pg, opt->work, &a);
    const char *result = reported_result(pg, &a);
    const SchOutcome *ended = rules_outcome(pg, &a);
    int claims = ended ? 0 : sch_game_claims(g);
    json_t *o = json_object();
    if (opt->several_files)
        json_object_set_new(o, "file", cli_json_string(file));
    json_object_set_new(o, "game", json_integer(number));
    json_object_set_new(o, "plies", json_integer(g->ply_count));
    json_object_set_new(o, "result", result ? json_string(result) : json_null());
    const char *term = ended ? sch_termination_name(ended->termination) : NULL;
    json_object_set_new(o, "termination", term ? json_string(term) : json_null());
    const char *reason = ended ? sch_win_reason_name((SchWinReason)ended->reason) : NULL;
    json_object_set_new(o, "reason", reason ? json_string(reason) : json_null());
    json_object_set_new(o, "claims", cli_claims_json(claims));
    json_object_set_new(o, "dead_at_ply", a.dead_at_ply >= 0 ? json_integer(a.dead_at_ply) : json_null());
    json_object_set_new(o, "result_contradicts_6_9",
                        a.contradicts_6_9 >= 0 ? json_boolean(a.contradicts_6_9) : json_null());
    if (err) {
        char msg[256];
        sch_err_format(err, opt->lang, msg, sizeof msg);
        json_t *e = json_object();
        json_object_set_new(e, "line", json_integer(err->line));
        json_object_set_new(e, "column", json_integer(err->column));
        json_object_set_new(e, "message", cli_json_string(msg));
        json_object_set_new(o, "error", e);
    } else {
        json_object_set_new(o, "error", json_null());
    }
    if (pg->warning.code != SCH_ERR_NONE) { /* only when there is one, so older readers see no change */
        char msg[256];
        sch_err_format(&pg->warning, opt->lang, msg, sizeof msg);
        json_t *w = json_object();
        json_object_set_new(w, "line", json_integer(pg->warning.line));
        json_object_set_new(w, "column", json_integer(pg->warning.column));
        json_object_set_new(w, "message", cli_json_string(msg));
        json_object_set_new(o, "warning", w);
    }
    return cli_print_json(o);
}

static bool check_text(const char *file, SchPgnGame *pg, int number, const SchError *err, PgnOptions *opt) {
    SchLang lang = opt->lang;
    const SchGame *g = &pg->game;
    if (opt->several_files)
        printf("%s: ", file);
    printf(CLI_TR(lang, "game %d: %d plies, ", "Partie %d: %d Halbzüge, "), number, g->ply_count);
    if (err) {
        char msg[256];
        cli_format_error(err, lang, msg, sizeof msg);
        printf(CLI_TR(lang, "error: %s\n", "Fehler: %s\n"), msg);
        return true;
    }
    Audit a;
    audit_game(pg, opt->work, &a);
    const char *result = reported_result(pg, &a);
    const SchOutcome *ended = rules_outcome(pg, &a);
    if (ended) {
        char text[256];
        sch_outcome_describe(ended, lang, text, sizeof text);
        printf("%s", text);
        if (!sch_game_over(g))
            printf(CLI_TR(lang, " (from ply %d on; %d plies were played after it)",
                          " (ab Halbzug %d; danach wurden noch %d Halbzüge gespielt)"),
                   a.dead_at_ply, g->ply_count - a.dead_at_ply);
    } else if (result) {
        printf(CLI_TR(lang, "%s (not decided by the rules)", "%s (nicht durch die Regeln entschieden)"), result);
    } else {
        printf("%s", CLI_TR(lang, "game goes on", "Partie läuft"));
    }
    if (a.contradicts_6_9 == 1)
        printf(
            ", %s",
            CLI_TR(lang, "the win on time contradicts FIDE 6.9: the winner could not checkmate",
                   "der Gewinn durch Zeitüberschreitung widerspricht FIDE 6.9: der Gewinner konnte nicht mattsetzen"));
    int claims = ended ? 0 : sch_game_claims(g);
    if (claims & SCH_CLAIM_THREEFOLD)
        printf(", %s", CLI_TR(lang, "threefold repetition can be claimed", "dreifache Wiederholung reklamierbar"));
    if (claims & SCH_CLAIM_FIFTY)
        printf(", %s", CLI_TR(lang, "fifty-move rule can be claimed", "50-Züge-Regel reklamierbar"));
    if (pg->warning.code != SCH_ERR_NONE) {
        char msg[256];
        cli_format_error(&pg->warning, lang, msg, sizeof msg);
        printf(CLI_TR(lang, ", warning: %s", ", Warnung: %s"), msg);
    }
    putchar('\n');
    return true;
}

static bool convert_game(const char *file, SchPgnGame *pg, int number, const SchError *err, PgnOptions *opt) {
    if (err) {
        char msg[256];
        cli_format_error(err, opt->lang, msg, sizeof msg);
        cli_errorf(CLI_TR(opt->lang, "%s: game %d: %s", "%s: Partie %d: %s"), file, number, msg);
        return false;
    }
    if (pg->warning.code != SCH_ERR_NONE) {
        char msg[256];
        cli_format_error(&pg->warning, opt->lang, msg, sizeof msg);
        cli_errorf(CLI_TR(opt->lang, "%s: game %d: warning: %s", "%s: Partie %d: Warnung: %s"), file, number, msg);
    }
    /* sch_pgn_write ends every game with the blank line that sets it apart from the next. */
    if (!sch_pgn_write(stdout, pg, opt->lang)) {
        cli_errorf("%s", CLI_TR(opt->lang, "could not write the output", "Ausgabe konnte nicht geschrieben werden"));
        return false;
    }
    return true;
}

/* Parses the options of check or convert (argv[0] is the subcommand) and runs it on every file. */
static int run_files(int argc, char **argv, SchLang lang, bool convert) {
    const char *name = convert ? "pgn convert" : "pgn check";
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, name, bad);
    if (cli_wants_help(argc, argv)) {
        if (convert)
            print_convert_help(lang);
        else
            print_check_help(lang);
        return CLI_OK;
    }
    PgnOptions opt = {lang, NULL, false, false, 0, 0};
    int files = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_option(argc, argv, &i, "--lang", &v) != 0)
            continue;
        if (!convert && !strcmp(argv[i], "--json"))
            opt.json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage(lang, name, CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), argv[i]);
        else
            files++;
    }
    if (files == 0)
        return cli_usage(lang, name, "%s", CLI_TR(lang, "no FILE given", "keine DATEI angegeben"));
    opt.several_files = files > 1;
    GameHandler handle = convert ? convert_game : opt.json ? check_json : check_text;
    if (!convert && !(opt.work = sch_win_work_new(0))) {
        cli_errorf("%s", CLI_TR(lang, "out of memory", "kein Speicher mehr"));
        return CLI_FAIL;
    }
    bool ok = true;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_option(argc, argv, &i, "--lang", &v) != 0 || !strcmp(argv[i], "--json"))
            continue;
        if (!for_each_game(argv[i], handle, &opt))
            ok = false;
    }
    if (!convert && !opt.json)
        printf(CLI_TR(lang, "%d games, %d with errors\n", "%d Partien, %d mit Fehlern\n"), opt.games, opt.errors);
    sch_win_work_free(opt.work);
    return ok ? CLI_OK : CLI_FAIL;
}

int cmd_pgn(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "pgn", bad);
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return run_files(argc - 1, argv + 1, lang, false);
    if (argc >= 2 && !strcmp(argv[1], "convert"))
        return run_files(argc - 1, argv + 1, lang, true);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    if (argc < 2)
        return cli_usage(lang, "pgn", "%s", CLI_TR(lang, "check or convert is missing", "check oder convert fehlt"));
    return cli_usage(
        lang, "pgn",
        CLI_TR(lang, "unknown subcommand '%s' (check or convert)", "unbekannter Unterbefehl '%s' (check oder convert)"),
        argv[1]);
}
