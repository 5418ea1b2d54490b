/* schach match: games between two UCI engines with openings, clocks, adjudication, PGN and Elo. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "match.h"

#define MAX_WORDS 64

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach match --engine cmd=CMD [KEY=VALUE...] --engine cmd=CMD [KEY=VALUE...]\n"
                 "                    (--tc S[+I] | --nodes N | --depth N | --movetime MS) [OPTIONS]\n"
                 "\n"
                 "Plays games between two UCI engines and reports the score, the Elo difference of the\n"
                 "first engine with its 95% error margin, LOS and protocol errors.\n"
                 "\n"
                 "Engine words (after --engine, up to the next --option):\n"
                 "  cmd=CMD            program and arguments, split at spaces (required), e.g.\n"
                 "                     cmd=\"gnuchess --uci\"; a program without '/' is searched in PATH\n"
                 "  arg=ARG            one more argument (may contain spaces)\n"
                 "  name=NAME          name in tables and PGN (default: the engine's id name)\n"
                 "  dir=DIR            working directory\n"
                 "  option.NAME=VALUE  sent as 'setoption name NAME value VALUE'\n"
                 "  --each WORDS...    words for both engines (e.g. option.Hash=16)\n"
                 "\n"
                 "Limits (at least one; several combine in one 'go'):\n"
                 "  --tc S[+I]         clock: S seconds per game (or M:S) plus I per move, e.g. 10+0.1\n"
                 "  --nodes N          'go nodes N'      --depth N   'go depth N'\n"
                 "  --movetime MS      'go movetime MS'\n"
                 "  --timemargin MS    a clock may fall MS below zero before the flag falls (default 0)\n"
                 "  --move-timeout MS  without a clock: longest wait for bestmove beyond movetime\n"
                 "                     (default 30000); the engine then loses on time\n"
                 "  --startup-timeout MS  longest wait for uciok and readyok (default 10000)\n"
                 "\n"
                 "Match:\n"
                 "  --games N          games in all (default 2): each opening twice, colours swapped\n"
                 "  --concurrency N    games at once, each with its own two engine processes (default 1)\n"
                 "  --openings FILE    PGN (move lines) or EPD (.epd/.fen) file; default: the shipped\n"
                 "                     data/openings.pgn (balanced lines, 4-10 plies)\n"
                 "  --no-openings      every game from the standard position\n"
                 "  --chess960 [N,...] Chess960: each pair of games from a start position, random\n"
                 "                     (--seed) or the numbers listed (0-959); engines get\n"
                 "                     UCI_Chess960, the PGN [Variant \"Chess960\"]\n"
                 "  --shuffle          random order of the openings (--seed N, default 1)\n"
                 "  --pgn FILE         append the games to FILE (tags with TimeControl, Termination,\n"
                 "                     PlyCount; FEN/SetUp when not from the standard position)\n"
                 "  --pgn-comments     a comment per engine move: {score/depth time}\n"
                 "  --log FILE         write every line sent to and read from the engines\n"
                 "  --event NAME       PGN Event tag (default \"schach match\")\n"
                 "  --report N         statistics every N games (default 10, 0: only at the end)\n"
                 "  --lang de|en       language of messages\n"
                 "\n",
                 "Aufruf: schach match --engine cmd=BEFEHL [SCHLÜSSEL=WERT...] --engine cmd=BEFEHL ...\n"
                 "                     (--tc S[+I] | --nodes N | --depth N | --movetime MS) [OPTIONEN]\n"
                 "\n"
                 "Spielt Partien zwischen zwei UCI-Engines und meldet den Stand, die Elo-Differenz der\n"
                 "ersten Engine mit ihrer 95-%-Fehlerspanne, LOS und Protokollfehler.\n"
                 "\n"
                 "Engine-Angaben (nach --engine, bis zur nächsten --Option):\n"
                 "  cmd=BEFEHL         Programm und Argumente, an Leerzeichen getrennt (Pflicht), z. B.\n"
                 "                     cmd=\"gnuchess --uci\"; ein Programm ohne '/' wird im PATH gesucht\n"
                 "  arg=ARG            ein weiteres Argument (darf Leerzeichen enthalten)\n"
                 "  name=NAME          Name in Tabellen und PGN (Vorgabe: der \"id name\" der Engine)\n"
                 "  dir=VERZ           Arbeitsverzeichnis\n"
                 "  option.NAME=WERT   gesendet als 'setoption name NAME value WERT'\n"
                 "  --each ANGABEN...  Angaben für beide Engines (z. B. option.Hash=16)\n"
                 "\n"
                 "Grenzen (mindestens eine; mehrere zusammen in einem 'go'):\n"
                 "  --tc S[+I]         Uhr: S Sekunden je Partie (oder M:S) plus I je Zug, z. B. 10+0.1\n"
                 "  --nodes N          'go nodes N'      --depth N   'go depth N'\n"
                 "  --movetime MS      'go movetime MS'\n"
                 "  --timemargin MS    so weit darf eine Uhr unter null fallen, bevor die Zeit\n"
                 "                     überschritten ist (Vorgabe 0)\n"
                 "  --move-timeout MS  ohne Uhr: längste Wartezeit auf bestmove über movetime hinaus\n"
                 "                     (Vorgabe 30000); danach verliert die Engine auf Zeit\n"
                 "  --startup-timeout MS  längste Wartezeit auf uciok und readyok (Vorgabe 10000)\n"
                 "\n"
                 "Wettkampf:\n"
                 "  --games N          Partien insgesamt (Vorgabe 2): jede Eröffnung zweimal, Farben getauscht\n"
                 "  --concurrency N    gleichzeitige Partien, jede mit eigenen zwei Engine-Prozessen\n"
                 "                     (Vorgabe 1)\n"
                 "  --openings DATEI   PGN- (Zugfolgen) oder EPD-Datei (.epd/.fen); Vorgabe: die\n"
                 "                     mitgelieferte data/openings.pgn (ausgeglichene Folgen, 4-10 Halbzüge)\n"
                 "  --no-openings      jede Partie aus der Grundstellung\n"
                 "  --chess960 [N,...] Chess960: je zwei Partien aus einer Startstellung, zufällig\n"
                 "                     (--seed) oder den genannten Nummern (0-959); die Engines\n"
                 "                     erhalten UCI_Chess960, die PGN [Variant \"Chess960\"]\n"
                 "  --shuffle          Eröffnungen in zufälliger Reihenfolge (--seed N, Vorgabe 1)\n"
                 "  --pgn DATEI        Partien an DATEI anhängen (Tags mit TimeControl, Termination,\n"
                 "                     PlyCount; FEN/SetUp, wenn nicht aus der Grundstellung)\n"
                 "  --pgn-comments     ein Kommentar je Engine-Zug: {Bewertung/Tiefe Zeit}\n"
                 "  --log DATEI        jede an die Engines gesendete und gelesene Zeile protokollieren\n"
                 "  --event NAME       PGN-Tag Event (Vorgabe \"schach match\")\n"
                 "  --report N         Statistik alle N Partien (Vorgabe 10, 0: nur am Ende)\n"
                 "  --lang de|en       Sprache der Meldungen\n"
                 "\n"),
          stdout);
    fputs(CLI_TR(lang,
                 "Adjudication (by the rules always, by scores only when asked for):\n"
                 "  Checkmate, stalemate, insufficient material, fivefold repetition and the 75-move\n"
                 "  rule end games by the rules; a threefold repetition or 50-move draw is claimed at\n"
                 "  once. An illegal or malformed move loses. An engine that exceeds its clock, does\n"
                 "  not answer or exits loses on time - a draw when the opponent cannot mate (FIDE\n"
                 "  6.9); it is restarted for its next game.\n"
                 "  --resign moves=N score=CP           a loss when an engine's own score stays at or\n"
                 "                                      below -CP for N of its moves in a row\n"
                 "  --draw movenumber=M moves=N score=CP  a draw when from move M on both scores stay\n"
                 "                                      within +-CP for N moves each\n"
                 "\n"
                 "Statistics: Elo from the trinomial (win/draw/loss per game) and the pentanomial\n"
                 "distribution (points per pair of games with one opening); the logistic Elo model.\n"
                 "  --sprt elo0=E0 elo1=E1 alpha=A beta=B  stop when the GSPRT log-likelihood ratio\n"
                 "                     (normal approximation, pentanomial) crosses ln(B/(1-A)) or\n"
                 "                     ln((1-B)/A) (defaults elo0=0 elo1=5 alpha=0.05 beta=0.05),\n"
                 "                     from 10 finished pairs of games on\n"
                 "\n"
                 "Ctrl-C stops the games in progress and prints the table. Exit status 0 when the match\n"
                 "ran, 1 when it could not (an engine does not start, a file cannot be read), 2 on a\n"
                 "usage error.\n"
                 "\n"
                 "Example:\n"
                 "  schach match --engine cmd=/usr/games/stockfish name=SF1500 option.UCI_LimitStrength=true \\\n"
                 "      option.UCI_Elo=1500 --engine cmd=\"schach uci\" --tc 10+0.1 --games 200 \\\n"
                 "      --concurrency 2 --pgn games.pgn\n",
                 "Entscheidung (nach den Regeln immer, nach Bewertungen nur auf Wunsch):\n"
                 "  Matt, Patt, ungenügendes Material, fünffache Wiederholung und die 75-Züge-Regel\n"
                 "  beenden Partien nach den Regeln; Remis durch dreifache Wiederholung oder die\n"
                 "  50-Züge-Regel wird sofort reklamiert. Ein unzulässiger oder unlesbarer Zug verliert.\n"
                 "  Eine Engine, die ihre Zeit überschreitet, nicht antwortet oder sich beendet, verliert\n"
                 "  auf Zeit - remis, wenn der Gegner nicht mattsetzen kann (FIDE 6.9); sie wird für ihre\n"
                 "  nächste Partie neu gestartet.\n"
                 "  --resign moves=N score=CP           verloren, wenn die eigene Bewertung einer Engine\n"
                 "                                      N eigene Züge in Folge bei -CP oder darunter liegt\n"
                 "  --draw movenumber=M moves=N score=CP  remis, wenn ab Zug M beide Bewertungen N Züge\n"
                 "                                      lang je innerhalb von +-CP liegen\n"
                 "\n"
                 "Statistik: Elo aus der trinomialen (Sieg/Remis/Niederlage je Partie) und der\n"
                 "pentanomialen Verteilung (Punkte je Partienpaar mit einer Eröffnung); logistisches\n"
                 "Elo-Modell.\n"
                 "  --sprt elo0=E0 elo1=E1 alpha=A beta=B  aufhören, wenn das GSPRT-Log-Likelihood-\n"
                 "                     Verhältnis (Normalapproximation, pentanomial) ln(B/(1-A)) oder\n"
                 "                     ln((1-B)/A) überschreitet (Vorgabe elo0=0 elo1=5 alpha=0.05 beta=0.05),\n"
                 "                     ab 10 beendeten Partiepaaren\n"
                 "\n"
                 "Strg-C beendet die laufenden Partien und zeigt die Tabelle. Rückgabewert 0, wenn der\n"
                 "Wettkampf lief, 1, wenn nicht (eine Engine startet nicht, eine Datei ist nicht lesbar),\n"
                 "2 bei falschem Aufruf.\n"
                 "\n"
                 "Beispiel:\n"
                 "  schach match --engine cmd=/usr/games/stockfish name=SF1500 option.UCI_LimitStrength=true \\\n"
                 "      option.UCI_Elo=1500 --engine cmd=\"schach uci\" --tc 10+0.1 --games 200 \\\n"
                 "      --concurrency 2 --pgn partien.pgn\n"),
          stdout);
}

static bool parse_int(const char *text, long long min, long long max, long long *out) {
    if (!text || !*text)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *text, double *out) {
    if (!text || !*text)
        return false;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || v != v)
        return false;
    *out = v;
    return true;
}

/* Words after an option up to the next "--" argument. */
static int collect_words(int argc, char **argv, int *i, char **words, int max) {
    int n = 0;
    while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0 && n < max)
        words[n++] = argv[++*i];
    return n;
}

/* KEY=VALUE words into the doubles of keys (NULL-terminated); false on an unknown key. */
static bool parse_pairs(char **words, int n, const char *const *keys, double *values, const char **bad) {
    for (int w = 0; w < n; w++) {
        const char *eq = strchr(words[w], '=');
        bool ok = false;
        for (int k = 0; eq && keys[k]; k++)
            if (strlen(keys[k]) == (size_t)(eq - words[w]) && !strncmp(words[w], keys[k], (size_t)(eq - words[w])))
                ok = parse_double(eq + 1, &values[k]);
        if (!ok) {
            *bad = words[w];
            return false;
        }
    }
    return true;
}

typedef struct Args {
    char *engine_words[2][MAX_WORDS];
    int engine_count[2];
    int engines;
    char *each[MAX_WORDS];
    int each_count;
    bool has_limit;
} Args;

static int bad_value(SchLang lang, const char *option, const char *value) {
    return cli_usage(lang, "match", CLI_TR(lang, "invalid value '%s' for %s", "ungültiger Wert '%s' für %s"),
                     value ? value : "", option);
}

static int parse_engine_words(Args *a, MatchConfig *cfg, SchLang lang) {
    if (a->engines != 2)
        return cli_usage(lang, "match", "%s", CLI_TR(lang, "give exactly two --engine", "genau zwei --engine angeben"));
    for (int e = 0; e < 2; e++) {
        char *words[2 * MAX_WORDS];
        int n = 0;
        for (int i = 0; i < a->engine_count[e]; i++)
            words[n++] = a->engine_words[e][i];
        for (int i = 0; i < a->each_count; i++)
            words[n++] = a->each[i];
        const char *bad = NULL;
        if (!match_parse_engine(words, n, &cfg->engines[e], &bad))
            return bad ? cli_usage(lang, "match",
                                   CLI_TR(lang, "engine %d: invalid word '%s'", "Engine %d: ungültige Angabe '%s'"),
                                   e + 1, bad)
                       : cli_usage(lang, "match", CLI_TR(lang, "engine %d: cmd= is missing", "Engine %d: cmd= fehlt"),
                                   e + 1);
    }
    return CLI_OK;
}

/* Options with a value. Returns CLI_OK, a usage status, or -1 when argv[*i] is none of them. */
static int parse_valued(int argc, char **argv, int *i, MatchConfig *cfg, Args *a, SchLang lang) {
    static const struct {
        const char *name;
        long long min, max;
    } ints[] = {{"--games", 1, 100000000},
                {"--concurrency", 1, 256},
                {"--nodes", 1, 1000000000000LL},
                {"--depth", 1, 1000},
                {"--movetime", 1, 86400000},
                {"--timemargin", 0, 86400000},
                {"--move-timeout", 1, 86400000},
                {"--report", 0, 100000000},
                {"--seed", 0, 9223372036854775807LL},
                {"--startup-timeout", 1, 86400000}};
    const char *v = NULL;
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        int r = cli_option(argc, argv, i, ints[k].name, &v);
        if (r == 0)
            continue;
        long long n;
        if (r < 0 || !parse_int(v, ints[k].min, ints[k].max, &n))
            return bad_value(lang, ints[k].name, v);
        switch (k) {
            case 0: cfg->games = (int)n; break;
            case 1: cfg->concurrency = (int)n; break;
            case 2: cfg->nodes = n, a->has_limit = true; break;
            case 3: cfg->depth = (int)n, a->has_limit = true; break;
            case 4: cfg->movetime_ms = n, a->has_limit = true; break;
            case 5: cfg->timemargin_ms = n; break;
            case 6: cfg->move_timeout_ms = n; break;
            case 7: cfg->report_every = (int)n; break;
            case 8: cfg->seed = (uint64_t)n; break;
            default: cfg->startup_timeout_ms = n; break;
        }
        return CLI_OK;
    }
    static const char *const texts[] = {"--tc", "--openings", "--pgn", "--log", "--event", "--lang"};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        int r = cli_option(argc, argv, i, texts[k], &v);
        if (r == 0)
            continue;
        if (r < 0)
            return bad_value(lang, texts[k], v);
        switch (k) {
            case 0:
                if (!match_parse_tc(v, &cfg->base_ms, &cfg->inc_ms))
                    return bad_value(lang, texts[k], v);
                cfg->has_clock = a->has_limit = true;
                break;
            case 1: cfg->openings_path = v; break;
            case 2: cfg->pgn_path = v; break;
            case 3: cfg->log_path = v; break;
            case 4: cfg->event = v; break;
            default: break; /* --lang: read by cli_scan_lang */
        }
        return CLI_OK;
    }
    return -1;
}

/* Options followed by words: --engine, --each, --resign, --draw, --sprt. */
static int parse_worded(int argc, char **argv, int *i, MatchConfig *cfg, Args *a, SchLang lang) {
    const char *opt = argv[*i];
    char *words[MAX_WORDS];
    const char *bad = NULL;
    if (!strcmp(opt, "--engine")) {
        if (a->engines >= 2)
            return cli_usage(lang, "match", "%s",
                             CLI_TR(lang, "give exactly two --engine", "genau zwei --engine angeben"));
        a->engine_count[a->engines] = collect_words(argc, argv, i, a->engine_words[a->engines], MAX_WORDS);
        a->engines++;
    } else if (!strcmp(opt, "--each")) {
        a->each_count = collect_words(argc, argv, i, a->each, MAX_WORDS);
        for (int w = 0; w < a->each_count; w++)
            if (!strncmp(a->each[w], "cmd=", 4)) /* split in place: could not serve both engines */
                return bad_value(lang, opt, a->each[w]);
    } else if (!strcmp(opt, "--resign")) {
        static const char *const keys[] = {"moves", "score", NULL};
        double v[2] = {3, 600};
        if (!parse_pairs(words, collect_words(argc, argv, i, words, MAX_WORDS), keys, v, &bad) || v[0] < 1 || v[1] < 0)
            return bad_value(lang, opt, bad ? bad : "");
        cfg->resign_on = true, cfg->resign_moves = (int)v[0], cfg->resign_score = (int)v[1];
    } else if (!strcmp(opt, "--draw")) {
        static const char *const keys[] = {"movenumber", "moves", "score", NULL};
        double v[3] = {40, 8, 10};
        if (!parse_pairs(words, collect_words(argc, argv, i, words, MAX_WORDS), keys, v, &bad) || v[1] < 1 || v[2] < 0)
            return bad_value(lang, opt, bad ? bad : "");
        cfg->draw_on = true, cfg->draw_start = (int)v[0], cfg->draw_moves = (int)v[1], cfg->draw_score = (int)v[2];
    } else if (!strcmp(opt, "--sprt")) {
        static const char *const keys[] = {"elo0", "elo1", "alpha", "beta", NULL};
        double v[4] = {0, 5, 0.05, 0.05};
        if (!parse_pairs(words, collect_words(argc, argv, i, words, MAX_WORDS), keys, v, &bad) || v[0] >= v[1] ||
            v[2] <= 0 || v[2] >= 0.5 || v[3] <= 0 || v[3] >= 0.5)
            return bad_value(lang, opt, bad ? bad : "");
        cfg->sprt_on = true, cfg->elo0 = v[0], cfg->elo1 = v[1], cfg->alpha = v[2], cfg->beta = v[3];
    } else {
        return -1;
    }
    return CLI_OK;
}

/* --chess960 [N,N,...]: Chess960 start positions, random (from --seed) or the numbers listed. */
static int parse_chess960(int argc, char **argv, int *i, MatchConfig *cfg, SchLang lang) {
    cfg->chess960 = true;
    if (*i + 1 >= argc || !isdigit((unsigned char)argv[*i + 1][0]))
        return CLI_OK;
    const char *list = argv[++*i];
    for (const char *p = list; *p;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p || n < 0 || n > 959 || (*end && *end != ',') || cfg->chess960_count == MATCH_CHESS960_MAX)
            return cli_usage(lang, "match",
                             CLI_TR(lang, "--chess960: '%s' is not a list of numbers from 0 to 959 (at most %d)",
                                    "--chess960: '%s' ist keine Liste von Zahlen von 0 bis 959 (höchstens %d)"),
                             list, MATCH_CHESS960_MAX);
        cfg->chess960_numbers[cfg->chess960_count++] = (int)n;
        p = *end ? end + 1 : end;
    }
    return CLI_OK;
}

/* Chess960 games need engines that know it: UCI_Chess960 unless the user set it. */
static void add_chess960_option(MatchConfig *cfg) {
    for (int e = 0; e < 2; e++) {
        EngineSpec *s = &cfg->engines[e];
        bool given = false;
        for (int i = 0; i < s->option_count; i++)
            given |= !strcasecmp(s->options[i].name, "UCI_Chess960");
        if (!given && s->option_count < MATCH_MAX_OPTIONS) {
            snprintf(s->options[s->option_count].name, sizeof s->options[0].name, "UCI_Chess960");
            snprintf(s->options[s->option_count].value, sizeof s->options[0].value, "true");
            s->option_count++;
        }
    }
}

static int parse_args(int argc, char **argv, MatchConfig *cfg, SchLang lang) {
    Args a;
    memset(&a, 0, sizeof a);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pgn-comments")) {
            cfg->pgn_comments = true;
            continue;
        }
        if (!strcmp(argv[i], "--chess960")) {
            int r = parse_chess960(argc, argv, &i, cfg, lang);
            if (r != CLI_OK)
                return r;
            continue;
        }
        if (!strcmp(argv[i], "--no-openings") || !strcmp(argv[i], "--shuffle")) {
            *(argv[i][2] == 'n' ? &cfg->no_openings : &cfg->shuffle) = true;
            continue;
        }
        int r = parse_worded(argc, argv, &i, cfg, &a, lang);
        if (r < 0)
            r = parse_valued(argc, argv, &i, cfg, &a, lang);
        if (r < 0)
            return cli_usage(lang, "match", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"),
                             argv[i]);
        if (r != CLI_OK)
            return r;
    }
    if (!a.has_limit)
        return cli_usage(lang, "match", "%s",
                         CLI_TR(lang, "give a limit: --tc, --nodes, --depth or --movetime",
                                "eine Grenze angeben: --tc, --nodes, --depth oder --movetime"));
    int status = parse_engine_words(&a, cfg, lang);
    if (status == CLI_OK && cfg->chess960)
        add_chess960_option(cfg);
    return status;
}

int cmd_match(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "match", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    MatchConfig cfg;
    match_config_init(&cfg);
    cfg.lang = lang;
    int status = parse_args(argc, argv, &cfg, lang);
    if (status != CLI_OK)
        return status;
    return match_run(&cfg, stdout) == 0 ? CLI_OK : CLI_FAIL;
}
