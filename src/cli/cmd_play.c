/* schach play: two people, a person and the computer, or the computer against itself play a game
 * at one terminal, or a script pipes moves and commands in.
 *
 * This file reads the command line, sets the session up and runs the loop: it draws the board; on a
 * person's turn it reads one line and answers it (play_commands.c: a move in any notation, or a
 * command); on the computer's turn it searches and plays (play_computer_turn.c).
 */
#define _POSIX_C_SOURCE 200809L /* isatty, getpid */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/pgn.h"
#include "schach/position.h"

/* ---- the command line ------------------------------------------------------------------------ */

static void print_usage_help(SchLang lang) {
    fputs(CLI_TR(lang,
                 "Usage: schach play [--fen FEN | --pgn FILE | --chess960 [N]] [--white PLAYER] [--black PLAYER]\n"
                 "                   [--think MS] [--nodes N] [--lang de|en] [--ascii] [--flip]\n"
                 "\n"
                 "A game at one terminal: two people, a person against the computer, or the computer\n"
                 "against itself. Type moves in any notation (e4, Nf3, Sf3, 0-0, e2-e4, e2e4) or\n"
                 "commands; 'help' lists them. Every rule is enforced and an illegal move is explained.\n"
                 "When standard input is not a terminal, moves and commands are read line by line and\n"
                 "echoed, so whole games can be piped in.\n"
                 "\n"
                 "  --fen FEN       start from FEN\n"
                 "  --chess960 [N]  Chess960 from start position N (0-959), random without N\n"
                 "  --pgn FILE      continue the last game of FILE (its tags are kept)\n"
                 "  --white PLAYER  who plays white: human (the default), computer (level " PLAY_DEFAULT_LEVEL "),\n"
                 "  --black PLAYER  computer:LEVEL or computer:ELO\n"
                 "  --think MS      the computer thinks MS milliseconds per move (default 1000 at a\n"
                 "                  terminal)\n"
                 "  --nodes N       the computer searches N nodes per move: the same moves on every run\n"
                 "                  (the default when standard input is not a terminal: 20000)\n"
                 "  --lang L        language of messages and piece letters: de or en\n"
                 "  --ascii         plain letters instead of figurines and colours\n"
                 "  --flip          turn the board (black is at the bottom by default only when\n"
                 "                  black alone is a person)\n"
                 "\n"
                 "The computer never resigns. It claims a draw by threefold repetition or the 50-move\n"
                 "rule when it does not stand better, and accepts a draw offer when it stands clearly\n"
                 "worse. Against the computer, 'undo' takes back your move and its reply.\n"
                 "\n"
                 "Levels:\n",
                 "Aufruf: schach play [--fen FEN | --pgn DATEI | --chess960 [N]] [--white SPIELER] [--black SPIELER]\n"
                 "                    [--think MS] [--nodes N] [--lang de|en] [--ascii] [--flip]\n"
                 "\n"
                 "Eine Partie an einem Terminal: zwei Personen, eine Person gegen den Computer oder der\n"
                 "Computer gegen sich selbst. Züge in beliebiger Schreibweise (e4, Sf3, Nf3, 0-0, e2-e4,\n"
                 "e2e4) oder Befehle eingeben; 'hilfe' zeigt sie. Alle Regeln gelten, und ein\n"
                 "regelwidriger Zug wird erklärt. Ist die Standardeingabe kein Terminal, werden Züge und\n"
                 "Befehle zeilenweise gelesen und wiederholt, so dass ganze Partien hineingeleitet\n"
                 "werden können.\n"
                 "\n"
                 "  --fen FEN        von FEN ausgehen\n"
                 "  --chess960 [N]   Chess960 aus Startstellung N (0-959), ohne N zufällig\n"
                 "  --pgn DATEI      die letzte Partie aus DATEI fortsetzen (ihre Tags bleiben)\n"
                 "  --white SPIELER  wer Weiß spielt: human/mensch (Vorgabe), computer (Stufe " PLAY_DEFAULT_LEVEL
                 "),\n"
                 "  --black SPIELER  computer:STUFE oder computer:ELO\n"
                 "  --think MS       der Computer denkt MS Millisekunden pro Zug (Vorgabe am Terminal 1000)\n"
                 "  --nodes N        der Computer durchsucht N Knoten pro Zug: in jedem Lauf dieselben Züge\n"
                 "                   (Vorgabe, wenn die Standardeingabe kein Terminal ist: 20000)\n"
                 "  --lang L         Sprache der Meldungen und Figurenbuchstaben: de oder en\n"
                 "  --ascii          Buchstaben statt Figurinen und Farben\n"
                 "  --flip           das Brett drehen (Schwarz ist ohne --flip nur unten, wenn allein\n"
                 "                   Schwarz ein Mensch ist)\n"
                 "\n"
                 "Der Computer gibt nie auf. Er beansprucht Remis durch dreifache Stellungswiederholung\n"
                 "oder die 50-Züge-Regel, wenn er nicht besser steht, und nimmt ein Remisangebot an, wenn\n"
                 "er klar schlechter steht. Gegen den Computer nimmt 'zurück' Ihren Zug und seine Antwort\n"
                 "zurück.\n"
                 "\n"
                 "Stufen:\n"),
          stdout);
    play_print_levels(stdout, lang);
}

enum { PLAY_DEFAULT_THINK_MS = 1000, PLAY_DEFAULT_NODES = 20000, PLAY_MAX_THINK_MS = 3600000 };

/* A whole number from 1 to max into *out; false for anything else. */
static bool parse_count(const char *text, long long max, long long *out) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max)
        return false;
    *out = v;
    return true;
}

/* Usage error for a player that is neither human nor a computer level, listing the levels. */
static int bad_player(SchLang lang, const char *opt, const char *value) {
    cli_errorf(CLI_TR(lang,
                      "play: %s: unknown player or level '%s'; use human, computer, computer:LEVEL or "
                      "computer:ELO. Levels:",
                      "play: %s: unbekannter Spieler oder unbekannte Stufe '%s'; human, computer, computer:STUFE "
                      "oder computer:ELO angeben. Stufen:"),
               opt, value);
    play_print_levels(stderr, lang);
    return CLI_USAGE;
}

/* The command line of play. */
typedef struct PlayArgs {
    const char *fen, *pgn;
    bool ascii, flip;
    PlayPlayer players[2];
    long long think_ms, nodes; /* 0: not given */
    int c960;                  /* --chess960: CLI_CHESS960_OFF, _MODE (random position) or 0-959 */
} PlayArgs;

enum { NOT_A_VALUE_OPTION = -1 };

/* Parses one option with a value at argv[*i]: NOT_A_VALUE_OPTION when it is none of them, else an
 * exit status (CLI_OK when accepted). */
static int parse_value_option(int argc, char **argv, int *i, SchLang lang, PlayArgs *a) {
    static const char *const names[] = {"--fen", "--pgn", "--white", "--black", "--think", "--nodes", "--lang"};
    const char *v = NULL;
    int k = 0, r = 0;
    for (; k < (int)(sizeof names / sizeof names[0]); k++)
        if ((r = cli_option(argc, argv, i, names[k], &v)) != 0)
            break;
    if (r == 0)
        return NOT_A_VALUE_OPTION;
    if (r < 0)
        return cli_usage(lang, "play", CLI_TR(lang, "%s needs a value", "%s braucht einen Wert"), names[k]);
    switch (k) {
        case 0: a->fen = v; break;
        case 1: a->pgn = v; break;
        case 2:
        case 3:
            if (!play_player_parse(v, &a->players[k == 2 ? SCH_WHITE : SCH_BLACK]))
                return bad_player(lang, names[k], v);
            break;
        case 4:
            if (!parse_count(v, PLAY_MAX_THINK_MS, &a->think_ms))
                return cli_usage(lang, "play",
                                 CLI_TR(lang, "--think: '%s' is not a number of milliseconds from 1 to %d",
                                        "--think: '%s' ist keine Zahl von Millisekunden von 1 bis %d"),
                                 v, PLAY_MAX_THINK_MS);
            break;
        case 5:
            if (!parse_count(v, (long long)1 << 40, &a->nodes))
                return cli_usage(lang, "play",
                                 CLI_TR(lang, "--nodes: '%s' is not a positive whole number",
                                        "--nodes: '%s' ist keine positive ganze Zahl"),
                                 v);
            break;
        default: break; /* --lang: applied by cli_scan_lang */
    }
    return CLI_OK;
}

static int parse_args(int argc, char **argv, SchLang lang, PlayArgs *a) {
    memset(a, 0, sizeof *a);
    a->c960 = CLI_CHESS960_OFF;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int r = parse_value_option(argc, argv, &i, lang, a);
        if (r == CLI_OK)
            continue;
        if (r != NOT_A_VALUE_OPTION)
            return r;
        if (!strcmp(opt, "--chess960")) {
            a->c960 = CLI_CHESS960_MODE;
            if (i + 1 < argc && isdigit((unsigned char)argv[i + 1][0])) {
                char *end;
                long n = strtol(argv[++i], &end, 10);
                if (*end || n < 0 || n > 959)
                    return cli_usage(lang, "play",
                                     CLI_TR(lang, "--chess960: '%s' is not a number from 0 to 959",
                                            "--chess960: '%s' ist keine Zahl von 0 bis 959"),
                                     argv[i]);
                a->c960 = (int)n;
            }
        } else if (!strcmp(opt, "--ascii"))
            a->ascii = true;
        else if (!strcmp(opt, "--flip"))
            a->flip = true;
        else
            return cli_usage(lang, "play", CLI_TR(lang, "unknown argument '%s'", "unbekanntes Argument '%s'"), opt);
    }
    if (a->fen && a->pgn)
        return cli_usage(lang, "play", "%s",
                         CLI_TR(lang, "use --fen or --pgn, not both", "--fen oder --pgn, nicht beides"));
    if (a->c960 != CLI_CHESS960_OFF && (a->fen || a->pgn))
        return cli_usage(lang, "play", "%s",
                         CLI_TR(lang, "--chess960 starts a new game: not with --fen or --pgn",
                                "--chess960 beginnt eine neue Partie: nicht mit --fen oder --pgn"));
    return CLI_OK;
}

/* Creates the engines of the computer players with their budget per move. */
static bool start_computers(Play *p, const PlayArgs *a) {
    int think = (int)a->think_ms;
    uint64_t nodes = (uint64_t)a->nodes;
    if (!think && !nodes) {
        if (p->script)
            nodes = PLAY_DEFAULT_NODES;
        else
            think = PLAY_DEFAULT_THINK_MS;
    }
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        p->players[c] = a->players[c];
        if (p->players[c].computer && !play_computer_init(&p->computers[c], &p->players[c], think, nodes)) {
            cli_errorf("%s", CLI_TR(p->lang, "out of memory for the engine", "kein Speicher für die Engine"));
            return false;
        }
    }
    return true;
}

static void stop_computers(Play *p) {
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++)
        if (p->players[c].computer)
            play_computer_free(&p->computers[c]);
}

/* ---- the loop ------------------------------------------------------------------------------- */

/* "12. White> " or "12... Black> ", a bare "> " once the game is over. */
static void prompt_text(const Play *p, char *buf, size_t size) {
    const SchGame *g = &p->pg.game;
    if (sch_game_over(g)) {
        snprintf(buf, size, "> ");
        return;
    }
    SchColor c = sch_pos_turn(&g->pos);
    snprintf(buf, size, "%d%s %s> ", g->pos.fullmove, c == SCH_WHITE ? "." : "...", play_color_word(c, p->lang));
}

int cmd_play(int argc, char **argv, SchLang lang) {
    const char *bad = NULL;
    if (!cli_scan_lang(argc, argv, &lang, &bad))
        return cli_bad_lang(lang, "play", bad);
    if (cli_wants_help(argc, argv)) {
        print_usage_help(lang);
        return CLI_OK;
    }
    PlayArgs a;
    int status = parse_args(argc, argv, lang, &a);
    if (status != CLI_OK)
        return status;

    Play p;
    memset(&p, 0, sizeof p);
    p.lang = lang;
    p.script = !isatty(STDIN_FILENO);
    p.color = !a.ascii && !p.script && isatty(STDOUT_FILENO);
    /* A person playing black alone against the computer sees the board from black's side. */
    p.flip = a.flip != (a.players[SCH_WHITE].computer && !a.players[SCH_BLACK].computer);
    sch_pgn_game_init(&p.pg);
    char fen960[SCH_FEN_MAX];
    if (a.c960 != CLI_CHESS960_OFF) {
        /* Without a number, a random start position: the clock is random enough for one game. */
        int n = a.c960 >= 0 ? a.c960 : (int)(((unsigned)time(NULL) ^ (unsigned)getpid()) % 960u);
        SchPosition start;
        sch_pos_set_chess960(&start, n);
        sch_fen_write(&start, fen960, sizeof fen960);
        a.fen = fen960;
        printf(CLI_TR(lang, "Chess960 start position %d\n", "Chess960-Startstellung %d\n"), n);
    }
    bool ok = a.pgn ? play_load_game(&p.pg, a.pgn, lang, stderr) : play_new_game(&p.pg, a.fen, lang, stderr);
    if (ok && a.c960 != CLI_CHESS960_OFF) {
        p.pg.game.start.chess960 = p.pg.game.pos.chess960 = 1;
        ok = sch_pgn_set_tag(&p.pg, "Variant", "Chess960");
    }
    if (!ok || !start_computers(&p, &a)) {
        stop_computers(&p);
        sch_pgn_game_free(&p.pg);
        return CLI_FAIL;
    }
    if (!a.pgn)
        play_tag_computers(&p);
    printf(CLI_TR(lang, "schach play – type a move or a command ('help' lists them).\n",
                  "schach play – Zug oder Befehl eingeben ('hilfe' zeigt die Befehle).\n"));
    play_show_and_announce(&p);
    while (!p.quit) {
        if (play_computer_to_move(&p)) {
            if (!play_computer_turn(&p))
                break;
            fflush(stdout);
            continue;
        }
        char prompt[64];
        prompt_text(&p, prompt, sizeof prompt);
        char *line = play_read_line(&p, prompt);
        if (!line)
            break;
        if (*line && *line != '#')
            play_handle_line(&p, line);
        fflush(stdout);
    }
    free(p.line);
    stop_computers(&p);
    sch_pgn_game_free(&p.pg);
    return CLI_OK;
}
