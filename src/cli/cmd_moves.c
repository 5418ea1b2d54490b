/* schach moves: plays moves from a position, then shows the legal moves and the state of the game. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"

static void print_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach moves [--fen FEN | --chess960 [N]] [--moves MOVE...] [--json]\n"
                 "                    [--lang de|en]\n"
                 "       schach moves --batch [--lang de|en]\n"
                 "\n"
                 "Plays the moves from the standard position (or FEN), then prints the position,\n"
                 "whose turn it is, check, the legal moves, how the game ended and which draws the\n"
                 "player to move may claim.\n"
                 "\n"
                 "  --fen FEN     start from FEN\n"
                 "  --chess960 [N] Chess960: start from position N (0-959, 518 is the standard\n"
                 "                array), or with --fen use its notation: castling in UCI as king\n"
                 "                takes rook (e1h1), FEN castling fields in X-FEN\n"
                 "  --moves M...  the moves: every following argument up to the next option; one\n"
                 "                argument may hold several moves (\"e4 e5 Nf3\"). UCI (e2e4), long\n"
                 "                (e2-e4, Ng1-f3) or SAN with English or German letters (Nf3, Sf3);\n"
                 "                move numbers (\"1.\") are skipped\n"
                 "  --json        print one JSON object: fen, turn, check, moves (uci, san, san_de),\n"
                 "                outcome (null or result, termination and, for a dead position,\n"
                 "                reason), claims\n"
                 "  --batch       read queries from stdin, one JSON object per line:\n"
                 "                {\"fen\": FEN, \"moves\": \"e4 e5\" or [\"e4\", \"e5\"], \"chess960\": N or\n"
                 "                true} (each member optional); answer each with one line of --json,\n"
                 "                or {\"line\": N, \"error\": WHY}; exit status 1 if any line failed\n"
                 "  --lang L      language of messages and piece letters: de or en\n"
                 "\n"
                 "An invalid FEN or a move that is not legal is an error (exit status 1).\n",
                 "Aufruf: schach moves [--fen FEN | --chess960 [N]] [--moves ZUG...] [--json]\n"
                 "                     [--lang de|en]\n"
                 "        schach moves --batch [--lang de|en]\n"
                 "\n"
                 "Spielt die Züge von der Grundstellung (oder FEN) aus und zeigt dann die Stellung,\n"
                 "wer am Zug ist, Schach, die legalen Züge, wie die Partie endete und welches Remis\n"
                 "der Spieler am Zug reklamieren kann.\n"
                 "\n"
                 "  --fen FEN     von FEN ausgehen\n"
                 "  --chess960 [N] Chess960: von Stellung N ausgehen (0-959, 518 ist die\n"
                 "                Grundstellung) oder mit --fen deren Schreibweise: Rochade in UCI\n"
                 "                als König schlägt Turm (e1h1), Rochaderechte in X-FEN\n"
                 "  --moves Z...  die Züge: alle folgenden Argumente bis zur nächsten Option; ein\n"
                 "                Argument darf mehrere Züge enthalten (\"e4 e5 Sf3\"). UCI (e2e4), lang\n"
                 "                (e2-e4, Sg1-f3) oder SAN mit deutschen oder englischen Buchstaben;\n"
                 "                Zugnummern (\"1.\") werden übersprungen\n"
                 "  --json        ein JSON-Objekt ausgeben: fen, turn, check, moves (uci, san, san_de),\n"
                 "                outcome (null oder result, termination und, bei toter Stellung,\n"
                 "                reason), claims\n"
                 "  --batch       Anfragen von der Standardeingabe lesen, ein JSON-Objekt je Zeile:\n"
                 "                {\"fen\": FEN, \"moves\": \"e4 e5\" oder [\"e4\", \"e5\"], \"chess960\": N\n"
                 "                oder true} (jedes Element optional); jede mit einer Zeile wie --json\n"
                 "                beantworten oder mit {\"line\": N, \"error\": GRUND}; Rückgabewert 1,\n"
                 "                wenn eine Zeile scheiterte\n"
                 "  --lang L      Sprache der Meldungen und Figurenbuchstaben: de oder en\n"
                 "\n"
                 "Eine ungültige FEN oder ein nicht legaler Zug ist ein Fehler (Rückgabewert 1).\n"),
          stdout);
}

/* The move texts of all --moves arguments, joined by spaces into one heap buffer. */
typedef struct MoveArgs {
    char *text;
    size_t len;
} MoveArgs;

static bool move_args_add(MoveArgs *mt, const char *arg) {
    size_t n = strlen(arg);
    char *grown = realloc(mt->text, mt->len + n + 2);
    if (!grown)
        return false;
    mt->text = grown;
    memcpy(mt->text + mt->len, arg, n);
    mt->len += n;
    mt->text[mt->len++] = ' ';
    mt->text[mt->len] = '\0';
    return true;
}

/* Cuts the next whitespace-separated token out of *cursor (NUL-terminating it in place). */
static char *next_token(char **cursor) {
    char *p = *cursor;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!*p)
        return NULL;
    char *start = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    *cursor = p;
    return start;
}

/* Skips a move number prefix people copy from game scores: "12." "12..." */
static const char *skip_move_number(const char *tok) {
    const char *p = tok;
    while (isdigit((unsigned char)*p))
        p++;
    if (p == tok || *p != '.')
        return tok;
    while (*p == '.')
        p++;
    return p;
}

/* Plays every move of text on g; on failure writes which one and why into why. */
static bool play_moves(SchGame *g, char *text, SchLang lang, char *why, size_t why_size) {
    int number = 0;
    char *cursor = text;
    for (char *tok; (tok = next_token(&cursor)) != NULL;) {
        const char *move = skip_move_number(tok);
        if (!*move)
            continue;
        number++;
        SchError err;
        sch_err_clear(&err);
        /* After the end every move is illegal; say why rather than which rule it breaks. */
        SchMove m = sch_game_over(g) ? SCH_MOVE_NONE : sch_move_parse(sch_game_position(g), move, lang, &err);
        if (sch_game_over(g))
            sch_err_set(&err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
        if (m == SCH_MOVE_NONE || !sch_game_play(g, m, &err)) {
            char msg[256];
            sch_err_format(&err, lang, msg, sizeof msg);
            snprintf(why, why_size, CLI_TR(lang, "move %d (%s): %s", "Zug %d (%s): %s"), number, move, msg);
            return false;
        }
    }
    return true;
}

typedef struct MoveEntry {
    char uci[SCH_MOVE_TEXT_MAX];
    char san[SCH_MOVE_TEXT_MAX];
    char san_de[SCH_MOVE_TEXT_MAX];
} MoveEntry;

static int compare_entries(const void *a, const void *b) {
    return strcmp(((const MoveEntry *)a)->uci, ((const MoveEntry *)b)->uci);
}

/* The legal moves, sorted by UCI text; none once the game is over. */
static int collect_moves(const SchGame *g, MoveEntry *out) {
    if (sch_game_over(g))
        return 0;
    const SchPosition *pos = sch_game_position(g);
    SchMoveList list;
    sch_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        sch_uci_write(pos, list.moves[i], out[i].uci, sizeof out[i].uci);
        sch_san_write(pos, list.moves[i], SCH_LANG_EN, out[i].san, sizeof out[i].san);
        sch_san_write(pos, list.moves[i], SCH_LANG_DE, out[i].san_de, sizeof out[i].san_de);
    }
    qsort(out, (size_t)list.count, sizeof out[0], compare_entries);
    return list.count;
}

/* The --json object of g: fen, turn, check, moves, outcome, claims. NULL when out of memory. */
static json_t *state_json(const SchGame *g) {
    MoveEntry moves[SCH_MAX_MOVES];
    int count = collect_moves(g, moves);
    int claims = sch_game_over(g) ? 0 : sch_game_claims(g);
    const SchPosition *pos = sch_game_position(g);
    char fen[SCH_FEN_MAX];
    sch_fen_write(pos, fen, sizeof fen);
    json_t *o = json_object();
    json_object_set_new(o, "fen", cli_json_string(fen));
    json_object_set_new(o, "turn", json_string(sch_pos_turn(pos) == SCH_WHITE ? "white" : "black"));
    json_object_set_new(o, "check", json_boolean(sch_pos_in_check(pos)));
    json_t *list = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(
            list, json_pack("{s:s, s:s, s:s}", "uci", moves[i].uci, "san", moves[i].san, "san_de", moves[i].san_de));
    json_object_set_new(o, "moves", list);
    if (sch_game_over(g)) {
        json_t *outcome = json_pack("{s:s, s:s?}", "result", sch_result_string(g->outcome.result), "termination",
                                    sch_termination_name(g->outcome.termination));
        /* Why a dead position is dead (the other endings need no reason). */
        const char *reason = sch_win_reason_name((SchWinReason)g->outcome.reason);
        if (reason)
            json_object_set_new(outcome, "reason", json_string(reason));
        json_object_set_new(o, "outcome", outcome);
    } else
        json_object_set_new(o, "outcome", json_null());
    json_object_set_new(o, "claims", cli_claims_json(claims));
    return o;
}

static void print_text(const SchGame *g, const MoveEntry *moves, int count, int claims, SchLang lang) {
    const SchPosition *pos = sch_game_position(g);
    char fen[SCH_FEN_MAX];
    sch_fen_write(pos, fen, sizeof fen);
    printf("FEN: %s\n", fen);
    printf(CLI_TR(lang, "Turn: %s\n", "Am Zug: %s\n"),
           sch_pos_turn(pos) == SCH_WHITE ? CLI_TR(lang, "White", "Weiß") : CLI_TR(lang, "Black", "Schwarz"));
    printf(CLI_TR(lang, "Check: %s\n", "Schach: %s\n"),
           sch_pos_in_check(pos) ? CLI_TR(lang, "yes", "ja") : CLI_TR(lang, "no", "nein"));
    printf(CLI_TR(lang, "Legal moves (%d):", "Legale Züge (%d):"), count);
    for (int i = 0; i < count; i++)
        printf(" %s", lang == SCH_LANG_DE ? moves[i].san_de : moves[i].san);
    putchar('\n');
    if (sch_game_over(g)) {
        char text[256];
        sch_outcome_describe(&g->outcome, lang, text, sizeof text);
        printf(CLI_TR(lang, "Game over: %s\n", "Partie beendet: %s\n"), text);
    } else {
        puts(CLI_TR(lang, "Game in progress", "Partie läuft"));
    }
    if (claims) {
        const char *three = CLI_TR(lang, "threefold repetition", "dreifache Stellungswiederholung");
        const char *fifty = CLI_TR(lang, "fifty-move rule", "50-Züge-Regel");
        printf(CLI_TR(lang, "Draw can be claimed: %s%s%s\n", "Remis kann reklamiert werden: %s%s%s\n"),
               (claims & SCH_CLAIM_THREEFOLD) ? three : "",
               claims == (SCH_CLAIM_THREEFOLD | SCH_CLAIM_FIFTY) ? ", " : "", (claims & SCH_CLAIM_FIFTY) ? fifty : "");
    }
}

/* What one query asks: a start (FEN, Chess960 number or mode) and the moves to play from it. */
typedef struct Query {
    const char *fen;
    int c960;
    char *moves; /* the move texts joined by spaces (cut up in place when played), or NULL */
} Query;

/* Sets up g as q asks (sch_game_free(g) afterwards in every case); false with why filled. */
static bool query_game(SchGame *g, const Query *q, SchLang lang, char *why, size_t why_size) {
    SchError err;
    sch_err_clear(&err);
    if (q->fen) {
        if (!sch_game_init_fen(g, q->fen, &err)) {
            char msg[256];
            err.line = 0; /* a FEN is one line: the column says enough */
            cli_format_error(&err, lang, msg, sizeof msg);
            snprintf(why, why_size, CLI_TR(lang, "invalid FEN: %s", "ungültige FEN: %s"), msg);
            return false;
        }
    } else {
        sch_game_init(g);
    }
    cli_chess960_game(g, q->c960);
    return !q->moves || play_moves(g, q->moves, lang, why, why_size);
}

/* ---- --batch: one query per line of stdin, one JSON answer per line of stdout ---- */

/* Longer lines are answered with an error (a FEN and a long game's moves fit with room to spare). */
#define BATCH_LINE_MAX (256 * 1024)

/* Fills q from one batch line's object {"fen"?, "moves"?, "chess960"?}; the moves text is added to
 * mt. false with why filled (which member and what is wrong with it). */
static bool batch_query(json_t *obj, Query *q, MoveArgs *mt, SchLang lang, char *why, size_t why_size) {
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        if (!strcmp(key, "fen")) {
            if (!json_is_string(value))
                goto not_string;
            q->fen = json_string_value(value);
        } else if (!strcmp(key, "moves")) {
            if (json_is_string(value)) {
                if (!move_args_add(mt, json_string_value(value)))
                    goto oom;
            } else if (json_is_array(value)) {
                size_t k;
                json_t *m;
                json_array_foreach(value, k, m) {
                    if (!json_is_string(m)) {
                        snprintf(why, why_size,
                                 CLI_TR(lang, "\"moves\": entry %zu is not a string",
                                        "\"moves\": Eintrag %zu ist keine Zeichenkette"),
                                 k + 1);
                        return false;
                    }
                    if (!move_args_add(mt, json_string_value(m)))
                        goto oom;
                }
            } else {
                snprintf(why, why_size,
                         CLI_TR(lang, "\"moves\" must be a string or an array of strings",
                                "\"moves\" muss eine Zeichenkette oder eine Liste von Zeichenketten sein"));
                return false;
            }
        } else if (!strcmp(key, "chess960")) {
            if (json_is_true(value)) {
                q->c960 = CLI_CHESS960_MODE;
            } else if (json_is_integer(value) && json_integer_value(value) >= 0 && json_integer_value(value) <= 959) {
                q->c960 = (int)json_integer_value(value);
            } else if (!json_is_false(value)) {
                snprintf(why, why_size,
                         CLI_TR(lang, "\"chess960\" must be true, false or a number from 0 to 959",
                                "\"chess960\" muss true, false oder eine Zahl von 0 bis 959 sein"));
                return false;
            }
        } else {
            snprintf(why, why_size, CLI_TR(lang, "unknown member \"%s\"", "unbekanntes Element \"%s\""), key);
            return false;
        }
    }
    if (q->fen && q->c960 >= 0) {
        snprintf(why, why_size,
                 CLI_TR(lang, "a start position number and \"fen\" exclude each other",
                        "Startstellungsnummer und \"fen\" schließen sich aus"));
        return false;
    }
    q->moves = mt->text;
    return true;
not_string:
    snprintf(why, why_size, CLI_TR(lang, "\"%s\" must be a string", "\"%s\" muss eine Zeichenkette sein"), key);
    return false;
oom:
    snprintf(why, why_size, "%s", CLI_TR(lang, "out of memory", "kein Speicher mehr frei"));
    return false;
}

/* The answer to one line: the --json object, or {"line": n, "error": why}. NULL when out of memory. */
static json_t *batch_answer(const char *line, size_t len, long number, SchLang lang, bool *failed) {
    char why[512];
    json_error_t jerr;
    json_t *obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    json_t *answer = NULL;
    MoveArgs mt = {NULL, 0};
    Query q = {NULL, CLI_CHESS960_OFF, NULL};
    if (!obj) {
        snprintf(why, sizeof why, CLI_TR(lang, "not JSON: %s (column %d)", "kein JSON: %s (Spalte %d)"), jerr.text,
                 jerr.column);
    } else if (!json_is_object(obj)) {
        snprintf(why, sizeof why, "%s",
                 CLI_TR(lang, "a query is a JSON object {\"fen\", \"moves\", \"chess960\"}",
                        "eine Anfrage ist ein JSON-Objekt {\"fen\", \"moves\", \"chess960\"}"));
    } else if (batch_query(obj, &q, &mt, lang, why, sizeof why)) {
        SchGame g;
        if (query_game(&g, &q, lang, why, sizeof why)) {
            answer = state_json(&g);
            if (!answer)
                snprintf(why, sizeof why, "%s", CLI_TR(lang, "out of memory", "kein Speicher mehr frei"));
        }
        sch_game_free(&g);
        if (answer) {
            json_decref(obj);
            free(mt.text);
            return answer;
        }
    }
    json_decref(obj);
    free(mt.text);
    *failed = true;
    return json_pack("{s:I, s:s}", "line", (json_int_t)number, "error", why);
}

/* Answers every line of stdin in order (blank lines are skipped); CLI_FAIL when a line failed (it is
 * answered with its error and the others still are). Each answer is flushed at once, so a program
 * may keep one schach running and ask it one position at a time. */
static int run_batch(SchLang lang) {
    char *line = NULL;
    size_t capacity = 0;
    long number = 0;
    bool failed = false;
    ssize_t n;
    while ((n = getline(&line, &capacity, stdin)) >= 0) {
        number++;
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        size_t start = 0;
        while (start < len && isspace((unsigned char)line[start]))
            start++;
        if (start == len)
            continue;
        json_t *answer;
        if (len > BATCH_LINE_MAX) {
            failed = true;
            char why[128];
            snprintf(why, sizeof why, CLI_TR(lang, "line longer than %d bytes", "Zeile länger als %d Bytes"),
                     BATCH_LINE_MAX);
            answer = json_pack("{s:I, s:s}", "line", (json_int_t)number, "error", why);
        } else {
            answer = batch_answer(line + start, len - start, number, lang, &failed);
        }
        if (!cli_print_json(answer) || fflush(stdout) != 0) {
            free(line);
            cli_errorf("%s", CLI_TR(lang, "cannot write the answer", "kann die Antwort nicht schreiben"));
            return CLI_FAIL;
        }
    }
    free(line);
    if (ferror(stdin)) {
        cli_errorf("%s", CLI_TR(lang, "cannot read stdin", "kann die Standardeingabe nicht lesen"));
        return CLI_FAIL;
    }
    return failed ? CLI_FAIL : CLI_OK;
}

/* Parses the arguments; returns CLI_OK or a usage status (messages printed). */
static int parse_args(int argc, char **argv, SchLang lang, Query *q, MoveArgs *mt, bool *json, bool *batch) {
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = NULL;
        int r;
        if (!strcmp(opt, "--chess960")) {
            q->c960 = CLI_CHESS960_MODE;
            if (i + 1 < argc && isdigit((unsigned char)argv[i + 1][0])) {
                char *end;
                long n = strtol(argv[++i], &end, 10);
                if (*end || n < 0 || n > 959)
                    return cli_usage(lang, "moves",
                                     CLI_TR(lang, "--chess960: '%s' is not a number from 0 to 959",
                                            "--chess960: '%s' ist keine Zahl von 0 bis 959"),
                                     argv[i]);
                q->c960 = (int)n;
            }
        } else if ((r = cli_option(argc, argv, &i, "--fen", &v)) != 0) {
            if (r < 0)
                return cli_usage(lang, "moves", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), opt);
            q->fen = v;
        } else if ((r = cli_option(argc, argv, &i, "--lang", &v)) != 0) {
            /* already applied by cli_scan_lang */
        } else if (!strcmp(opt, "--json")) {
            *json = true;
        } else if (!strcmp(opt, "--batch")) {
            *batch = true;
        } else if (!strncmp(opt, "--moves", 7) && (opt[7] == '\0' || opt[7] == '=')) {
            if (opt[7] == '=' && !move_args_add(mt, opt + 8))
                return CLI_FAIL;
            /* Moves never start with '-', so the next option ends the list. */
            while (i + 1 < argc && argv[i + 1][0] != '-')
                if (!move_args_add(mt, argv[++i]))
                    return CLI_FAIL;
        } else if (opt[0] == '-' && opt[1] != '\0') {
            return cli_usage(lang, "moves", CLI_TR(lang, "unknown option '%s'", "unbekannte Option '%s'"), opt);
        } else {
            return cli_usage(lang, "moves",
                             CLI_TR(lang, "unexpected argument '%s' (moves go after --moves)",
                                    "unerwartetes Argument '%s' (Züge gehören hinter --moves)"),
                             opt);
        }
    }
    if (*batch && (q->fen || q->c960 != CLI_CHESS960_OFF || mt->text))
        return cli_usage(lang, "moves",
                         CLI_TR(lang, "--batch reads the positions from stdin: no --fen, --chess960 or --moves",
                                "--batch liest die Stellungen von der Standardeingabe: kein --fen, --chess960 "
                                "oder --moves"));
    if (q->fen && q->c960 >= 0)
        return cli_usage(lang, "moves",
                         CLI_TR(lang, "%s: a start position number and --fen exclude each other",
                                "%s: Startstellungsnummer und --fen schließen sich aus"),
                         "--chess960");
    return CLI_OK;
}

int cmd_moves(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "moves", bad);
    if (cli_wants_help(argc, argv)) {
        print_help(lang);
        return CLI_OK;
    }
    Query q = {NULL, CLI_CHESS960_OFF, NULL};
    MoveArgs mt = {NULL, 0};
    bool json = false, batch = false;
    int status = parse_args(argc, argv, lang, &q, &mt, &json, &batch);
    if (status != CLI_OK) {
        if (status == CLI_FAIL)
            cli_errorf("%s", CLI_TR(lang, "out of memory", "kein Speicher mehr frei"));
        free(mt.text);
        return status;
    }
    if (batch)
        return run_batch(lang);

    q.moves = mt.text;
    SchGame g;
    char why[512];
    status = CLI_FAIL;
    if (!query_game(&g, &q, lang, why, sizeof why)) {
        cli_errorf("%s", why);
    } else if (json) {
        status = cli_print_json(state_json(&g)) ? CLI_OK : CLI_FAIL;
    } else {
        MoveEntry moves[SCH_MAX_MOVES];
        int count = collect_moves(&g, moves);
        print_text(&g, moves, count, sch_game_over(&g) ? 0 : sch_game_claims(&g), lang);
        status = CLI_OK;
    }
    sch_game_free(&g);
    free(mt.text);
    return status;
}
