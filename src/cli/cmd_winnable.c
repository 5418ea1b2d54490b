/* schach winnable: can White, Black or both still checkmate? (FIDE 1.3, 5.2.2, 6.9) One FEN as an
 * argument, or one FEN per line on standard input, each answered at once. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "schach/fen.h"
#include "schach/notation.h"
#include "schach/winnable.h"
#include "schach/schach.h"

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach winnable [--quick] [--color white|black|both] [--nodes N] [--json]\n"
                 "                       [--lang de|en] [FEN]\n"
                 "\n"
                 "Decides whether a side can still checkmate by any series of legal moves: winnable\n"
                 "(with a helpmate as proof), unwinnable (with the reason) or undetermined (the\n"
                 "budget ran out). A position unwinnable for both is dead: the game is drawn.\n"
                 "Without FEN, reads one FEN per line from standard input (four fields are enough)\n"
                 "and answers each line at once.\n"
                 "\n"
                 "  --quick       static analysis and a tiny search only (about a microsecond)\n"
                 "  --color C     white, black or both (default)\n"
                 "  --nodes N     node budget of the full analysis (default 200000)\n"
                 "  --json        one object per line: {\"fen\", \"white\": {\"verdict\", \"helpmate\",\n"
                 "                \"reason\", \"reason_text\"}, \"black\": {...}, \"dead\", \"nodes\", \"micros\"};\n"
                 "                a colour not asked for is null; a bad FEN gives {\"fen\", \"error\"}\n"
                 "  --lang L      language of the text: de or en\n"
                 "\n"
                 "Exit status 0; a bad FEN on standard input is reported on its line and the rest go\n"
                 "on; a bad FEN argument is an error (exit status 1).\n",
                 "Aufruf: schach winnable [--quick] [--color white|black|both] [--nodes N] [--json]\n"
                 "                        [--lang de|en] [FEN]\n"
                 "\n"
                 "Entscheidet, ob eine Seite durch irgendeine Folge legaler Züge noch mattsetzen\n"
                 "kann: gewinnbar (mit einem Hilfsmatt als Beweis), nicht gewinnbar (mit dem Grund)\n"
                 "oder unentschieden (das Budget war zu Ende). Eine Stellung, die für beide nicht\n"
                 "gewinnbar ist, ist tot: die Partie ist remis.\n"
                 "Ohne FEN wird je Zeile eine FEN von der Standardeingabe gelesen (vier Felder genügen)\n"
                 "und jede Zeile sofort beantwortet.\n"
                 "\n"
                 "  --quick       nur statische Analyse und eine winzige Suche (etwa eine Mikrosekunde)\n"
                 "  --color C     white, black oder both (Vorgabe)\n"
                 "  --nodes N     Knotenbudget der vollen Analyse (Vorgabe 200000)\n"
                 "  --json        ein Objekt je Zeile: {\"fen\", \"white\": {\"verdict\", \"helpmate\",\n"
                 "                \"reason\", \"reason_text\"}, \"black\": {...}, \"dead\", \"nodes\", \"micros\"};\n"
                 "                eine nicht gefragte Farbe ist null; eine ungültige FEN gibt {\"fen\", \"error\"}\n"
                 "  --lang L      Sprache des Textes: de oder en\n"
                 "\n"
                 "Rückgabewert 0; eine ungültige FEN auf der Standardeingabe wird in ihrer Zeile gemeldet,\n"
                 "die übrigen laufen weiter; eine ungültige FEN als Argument ist ein Fehler (Rückgabewert 1).\n"),
          stdout);
}

typedef struct Options {
    SchWinLimits limits;
    bool colors[2];
    bool json;
    SchLang lang;
} Options;

static uint64_t micros_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The helpmate's moves in UCI, each written in the position it is played in (Chess960 castling as
 * king takes rook); texts[i] holds SCH_MOVE_TEXT_MAX characters. */
static void line_texts(const SchPosition *start, const SchWinResult *r, char texts[][SCH_MOVE_TEXT_MAX]) {
    SchPosition pos = *start;
    for (int i = 0; i < r->line_len; i++) {
        SchUndo undo;
        sch_uci_write(&pos, r->line[i], texts[i], SCH_MOVE_TEXT_MAX);
        sch_pos_make(&pos, r->line[i], &undo);
    }
}

/* The helpmate as a JSON array of UCI texts. */
static json_t *line_json(const SchPosition *start, const SchWinResult *r) {
    char texts[SCH_WIN_LINE_MAX][SCH_MOVE_TEXT_MAX];
    line_texts(start, r, texts);
    json_t *a = json_array();
    for (int i = 0; i < r->line_len; i++)
        json_array_append_new(a, json_string(texts[i]));
    return a;
}

static json_t *result_json(const SchPosition *start, const SchWinResult *r, SchLang lang) {
    const char *reason = r->verdict == SCH_WIN_UNWINNABLE ? sch_win_reason_name(r->reason) : NULL;
    json_t *o = json_object();
    json_object_set_new(o, "verdict", json_string(sch_win_verdict_name(r->verdict)));
    json_object_set_new(o, "helpmate", r->verdict == SCH_WIN_WINNABLE ? line_json(start, r) : json_null());
    json_object_set_new(o, "reason", reason ? json_string(reason) : json_null());
    json_object_set_new(o, "reason_text", reason ? json_string(sch_win_reason_text(r->reason, lang)) : json_null());
    return o;
}

static const char *verdict_words(SchWinnability v, SchLang lang) {
    switch (v) {
        case SCH_WIN_WINNABLE: return CLI_TR(lang, "can checkmate", "kann mattsetzen");
        case SCH_WIN_UNWINNABLE: return CLI_TR(lang, "cannot checkmate", "kann nicht mattsetzen");
        default: return CLI_TR(lang, "undetermined", "unentschieden");
    }
}

static void print_result_text(const SchPosition *start, SchColor c, const SchWinResult *r, SchLang lang) {
    const char *side = c == SCH_WHITE ? CLI_TR(lang, "White", "Weiß") : CLI_TR(lang, "Black", "Schwarz");
    printf("%s %s", side, verdict_words(r->verdict, lang));
    if (r->verdict == SCH_WIN_UNWINNABLE) {
        printf(" (%s)", sch_win_reason_text(r->reason, lang));
    } else if (r->verdict == SCH_WIN_WINNABLE) {
        printf(" (%s", CLI_TR(lang, "helpmate:", "Hilfsmatt:"));
        if (r->line_len == 0)
            printf(" %s", CLI_TR(lang, "already mate", "schon matt"));
        char texts[SCH_WIN_LINE_MAX][SCH_MOVE_TEXT_MAX];
        line_texts(start, r, texts);
        for (int i = 0; i < r->line_len; i++)
            printf(" %s", texts[i]);
        putchar(')');
    }
}

/* Answers one position; false on a write error. */
static bool answer(const char *fen, const SchPosition *pos, const Options *o, SchWinWork *work) {
    SchWinResult res[2];
    uint64_t start = micros_now(), nodes = 0;
    for (int c = 0; c < 2; c++) {
        if (!o->colors[c])
            continue;
        sch_can_checkmate(pos, (SchColor)c, &o->limits, work, &res[c]);
        nodes += res[c].nodes;
    }
    uint64_t micros = micros_now() - start;
    bool both = o->colors[SCH_WHITE] && o->colors[SCH_BLACK];
    bool dead = both && res[SCH_WHITE].verdict == SCH_WIN_UNWINNABLE && res[SCH_BLACK].verdict == SCH_WIN_UNWINNABLE;
    if (o->json) {
        json_t *obj = json_object();
        json_object_set_new(obj, "fen", cli_json_string(fen));
        json_object_set_new(obj, "white",
                            o->colors[SCH_WHITE] ? result_json(pos, &res[SCH_WHITE], o->lang) : json_null());
        json_object_set_new(obj, "black",
                            o->colors[SCH_BLACK] ? result_json(pos, &res[SCH_BLACK], o->lang) : json_null());
        json_object_set_new(obj, "dead", both ? json_boolean(dead) : json_null());
        json_object_set_new(obj, "nodes", json_integer((json_int_t)nodes));
        json_object_set_new(obj, "micros", json_integer((json_int_t)micros));
        if (!cli_print_json(obj))
            return false;
    } else {
        printf("%s: ", fen);
        bool first = true;
        for (int c = 0; c < 2; c++) {
            if (!o->colors[c])
                continue;
            if (!first)
                fputs("; ", stdout);
            print_result_text(pos, (SchColor)c, &res[c], o->lang);
            first = false;
        }
        if (dead)
            printf("; %s", CLI_TR(o->lang, "dead position: draw", "tote Stellung: remis"));
        putchar('\n');
    }
    return fflush(stdout) == 0;
}

/* A FEN of four fields gets the clocks "0 1". */
static void complete_fen(const char *text, char *buf, size_t size) {
    int fields = 0;
    bool in_field = false;
    for (const char *p = text; *p; p++) {
        bool space = *p == ' ' || *p == '\t';
        if (!space && !in_field)
            fields++;
        in_field = !space;
    }
    snprintf(buf, size, fields == 4 ? "%s 0 1" : "%s", text);
}

static bool report_bad(const char *fen, const SchError *err, const Options *o) {
    char msg[256];
    cli_format_error(err, o->lang, msg, sizeof msg);
    if (o->json)
        return cli_print_json(json_pack("{s:o, s:o}", "fen", cli_json_string(fen), "error", cli_json_string(msg)));
    printf("%s: %s %s\n", fen, CLI_TR(o->lang, "error:", "Fehler:"), msg);
    return fflush(stdout) == 0;
}

static int run_stdin(const Options *o, SchWinWork *work) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = CLI_OK;
    for (int number = 1; (n = getline(&line, &cap, stdin)) >= 0; number++) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        char *text = line;
        while (*text == ' ' || *text == '\t')
            text++;
        if (!*text)
            continue;
        char fen[512];
        complete_fen(text, fen, sizeof fen);
        SchPosition pos;
        SchError err;
        sch_err_clear(&err);
        /* A line too long to be a FEN is parsed as it is, for its error. */
        bool ok = sch_fen_parse(&pos, strlen(text) < 400 ? fen : text, &err);
        err.line = number; /* the line of the input, not of the FEN */
        if (!(ok ? answer(text, &pos, o, work) : report_bad(text, &err, o))) {
            status = CLI_FAIL;
            break;
        }
    }
    free(line);
    return status;
}

int cmd_winnable(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "winnable", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    Options o = {.limits = {false, 0}, .colors = {true, true}, .json = false, .lang = lang};
    const char *fen_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r;
        if ((r = cli_option(argc, argv, &i, "--color", &v)) != 0) {
            if (r < 0 || (strcmp(v, "white") && strcmp(v, "black") && strcmp(v, "both")))
                return cli_usage(
                    lang, "winnable",
                    CLI_TR(lang, "--color needs white, black or both", "--color braucht white, black oder both"));
            o.colors[SCH_WHITE] = strcmp(v, "black") != 0;
            o.colors[SCH_BLACK] = strcmp(v, "white") != 0;
        } else if ((r = cli_option(argc, argv, &i, "--nodes", &v)) != 0) {
            char *end = NULL;
            unsigned long long n = r > 0 ? strtoull(v, &end, 10) : 0;
            if (r < 0 || !end || *end || n == 0 || n > 1000000000000ULL || v[0] == '-')
                return cli_usage(lang, "winnable",
                                 CLI_TR(lang, "--nodes needs a number from 1 to 10^12",
                                        "--nodes braucht eine Zahl von 1 bis 10^12"));
            o.limits.nodes = n;
        } else if ((r = cli_option(argc, argv, &i, "--lang", &v)) != 0) {
            /* already applied by cli_scan_lang */
        } else if (!strcmp(opt, "--quick")) {
            o.limits.quick = true;
        } else if (!strcmp(opt, "--json")) {
            o.json = true;
        } else if (opt[0] == '-' && opt[1] != '\0') {
            return cli_usage(lang, "winnable", CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), opt);
        } else if (fen_arg) {
            return cli_usage(
                lang, "winnable",
                CLI_TR(lang, "one FEN only (quote it: \"%s ...\")", "nur eine FEN (in Anführungszeichen: \"%s ...\")"),
                fen_arg);
        } else {
            fen_arg = opt;
        }
    }
    SchWinWork *work = o.limits.quick ? NULL : sch_win_work_new(0);
    if (!o.limits.quick && !work) {
        cli_errorf("%s", CLI_TR(lang, "out of memory", "kein Speicher mehr"));
        return CLI_FAIL;
    }
    int status = CLI_OK;
    if (fen_arg) {
        char fen[512];
        complete_fen(fen_arg, fen, sizeof fen);
        SchPosition pos;
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, fen, &err)) {
            char msg[256];
            err.line = 0; /* a FEN is one line: the column says enough */
            cli_format_error(&err, lang, msg, sizeof msg);
            cli_errorf(CLI_TR(lang, "invalid FEN: %s", "ungültige FEN: %s"), msg);
            status = CLI_FAIL;
        } else if (!answer(fen_arg, &pos, &o, work)) {
            status = CLI_FAIL;
        }
    } else {
        status = run_stdin(&o, work);
    }
    sch_win_work_free(work);
    return status;
}
