/* schach play: two people, a person and the computer, or the computer against itself play a game
 * at one terminal, or a script pipes moves and commands in.
 *
 * The loop draws the board; on a person's turn it reads one line and answers it: a move in any
 * notation, or a command (English or German, any unambiguous beginning). Bad input is explained and
 * changes nothing. On the computer's turn it searches and plays (see play_computer.c).
 */
#define _POSIX_C_SOURCE 200809L /* getline, localtime_r, isatty */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "schach/explain.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/pgn.h"

typedef enum {
    CMD_HELP,
    CMD_MOVES,
    CMD_UNDO,
    CMD_FLIP,
    CMD_DRAW,
    CMD_ACCEPT,
    CMD_DECLINE,
    CMD_CLAIM,
    CMD_RESIGN,
    CMD_FEN,
    CMD_PGN,
    CMD_SAVE,
    CMD_LOAD,
    CMD_NEW,
    CMD_QUIT,
    CMD_NB
} CommandId;

/* Every name a command answers to, regardless of the language chosen; ASCII spellings of umlauts too. */
static const struct {
    const char *name;
    CommandId id;
} command_names[] = {
    {"help", CMD_HELP},          {"hilfe", CMD_HELP},        {"?", CMD_HELP},
    {"moves", CMD_MOVES},        {"züge", CMD_MOVES},        {"zuege", CMD_MOVES},
    {"undo", CMD_UNDO},          {"zurück", CMD_UNDO},       {"zurueck", CMD_UNDO},
    {"flip", CMD_FLIP},          {"drehen", CMD_FLIP},       {"draw", CMD_DRAW},
    {"remis", CMD_DRAW},         {"accept", CMD_ACCEPT},     {"annehmen", CMD_ACCEPT},
    {"decline", CMD_DECLINE},    {"ablehnen", CMD_DECLINE},  {"claim", CMD_CLAIM},
    {"beanspruchen", CMD_CLAIM}, {"reklamieren", CMD_CLAIM}, {"resign", CMD_RESIGN},
    {"aufgeben", CMD_RESIGN},    {"fen", CMD_FEN},           {"pgn", CMD_PGN},
    {"save", CMD_SAVE},          {"speichern", CMD_SAVE},    {"load", CMD_LOAD},
    {"laden", CMD_LOAD},         {"new", CMD_NEW},           {"neu", CMD_NEW},
    {"quit", CMD_QUIT},          {"exit", CMD_QUIT},         {"ende", CMD_QUIT},
};
enum { COMMAND_NAME_COUNT = sizeof command_names / sizeof command_names[0] };

static void print_help(const Play *p) {
    fputs(CLI_TR(p->lang,
                 "Type a move in any notation: e4, Nf3 or Sf3, O-O or 0-0, exd6 e.p., e8=Q or e8=D, e2-e4, e2e4.\n"
                 "Commands (English and German names work, and any unambiguous beginning such as 'res'):\n"
                 "  help            hilfe              this help\n"
                 "  moves [SQUARE]  züge [FELD]        all legal moves, or where the piece on SQUARE may go\n"
                 "  undo            zurück             take back the last move\n"
                 "  flip            drehen             turn the board around\n"
                 "  draw            remis              the player to move offers a draw\n"
                 "  accept          annehmen           accept the draw offer\n"
                 "  decline         ablehnen           decline the draw offer (so does a move)\n"
                 "  claim [MOVE]    beanspruchen [ZUG] claim a draw by threefold repetition or the 50-move\n"
                 "                                     rule, now or together with MOVE\n"
                 "  resign          aufgeben           the player to move resigns\n"
                 "  fen             fen                the position as FEN\n"
                 "  pgn             pgn                the game so far as PGN\n"
                 "  save FILE       speichern DATEI    save the game as PGN\n"
                 "  load FILE       laden DATEI        continue the last game of a PGN file\n"
                 "  new [FEN]       neu [FEN]          start a new game\n"
                 "  quit            ende               leave\n",
                 "Einen Zug in beliebiger Schreibweise eingeben: e4, Sf3 oder Nf3, 0-0 oder O-O, exd6 e.p., e8=D,\n"
                 "e2-e4, e2e4.\n"
                 "Befehle (deutsche und englische Namen gelten, auch jeder eindeutige Anfang wie 'auf'):\n"
                 "  hilfe              help            diese Hilfe\n"
                 "  züge [FELD]        moves [SQUARE]  alle legalen Züge oder wohin die Figur auf FELD ziehen darf\n"
                 "  zurück             undo            den letzten Zug zurücknehmen\n"
                 "  drehen             flip            das Brett umdrehen\n"
                 "  remis              draw            der Spieler am Zug bietet Remis an\n"
                 "  annehmen           accept          das Remisangebot annehmen\n"
                 "  ablehnen           decline         das Remisangebot ablehnen (ein Zug lehnt auch ab)\n"
                 "  beanspruchen [ZUG] claim [MOVE]    Remis beanspruchen: dreifache Stellungswiederholung oder\n"
                 "                                     50-Züge-Regel, jetzt oder zusammen mit ZUG\n"
                 "  aufgeben           resign          der Spieler am Zug gibt auf\n"
                 "  fen                fen             die Stellung als FEN\n"
                 "  pgn                pgn             die bisherige Partie als PGN\n"
                 "  speichern DATEI    save FILE       die Partie als PGN speichern\n"
                 "  laden DATEI        load FILE       die letzte Partie einer PGN-Datei fortsetzen\n"
                 "  neu [FEN]          new [FEN]       eine neue Partie beginnen\n"
                 "  ende               quit            beenden\n"),
          stdout);
}

static int compare_strings(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* All legal moves, or those of the piece on a square with the board showing where it may go. */
static void cmd_moves_of(const Play *p, const char *arg) {
    const Game *g = &p->pg.game;
    const Position *pos = &g->pos;
    Lang lang = p->lang;
    if (game_over(g)) {
        play_print_game_error(p, GAME_ERR_OVER);
        return;
    }
    Square sq = SQ_NONE;
    if (*arg) {
        char low[8];
        snprintf(low, sizeof low, "%s", arg);
        play_lowercase(low);
        sq = square_parse(low);
        if (sq == SQ_NONE || low[2]) {
            printf(CLI_TR(lang, "'%s' is not a square (a1 to h8)\n", "'%s' ist kein Feld (a1 bis h8)\n"), arg);
            return;
        }
        Piece pc = pos_piece_on(pos, sq);
        if (pc == NO_PIECE) {
            printf(CLI_TR(lang, "There is no piece on %s.\n", "Auf %s steht keine Figur.\n"), low);
            return;
        }
        if (piece_color(pc) != pos_turn(pos)) {
            printf(CLI_TR(lang, "%s %s belongs to %s, but %s is to move.\n", "%s %s gehört %s, aber %s ist am Zug.\n"),
                   play_piece_word(piece_type(pc), lang), low, play_color_word(piece_color(pc), lang),
                   play_color_word(pos_turn(pos), lang));
            return;
        }
    }
    MoveList list;
    gen_legal(pos, &list);
    char texts[SCHACH_MAX_MOVES][SCHACH_MOVE_TEXT_MAX];
    int count = 0;
    Bitboard targets = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (sq != SQ_NONE && move_from(m) != sq)
            continue;
        /* One entry per target square for promotions would hide the choice: list each piece. */
        san_write(pos, m, lang, texts[count++], SCHACH_MOVE_TEXT_MAX);
        targets |= (Bitboard)1 << move_to(m);
    }
    qsort(texts, (size_t)count, sizeof texts[0], compare_strings);
    if (sq != SQ_NONE) {
        char name[3];
        square_name(sq, name);
        BoardView v;
        play_view_for(p, &v);
        v.selected = sq;
        v.targets = targets;
        putchar('\n');
        board_print(stdout, pos, &v);
        if (count == 0) {
            printf(CLI_TR(lang, "%s %s has no legal move.\n", "%s %s hat keinen legalen Zug.\n"),
                   play_piece_word(piece_type(pos_piece_on(pos, sq)), lang), name);
            return;
        }
        printf(CLI_TR(lang, "%s %s – legal moves (%d):", "%s %s – legale Züge (%d):"),
               play_piece_word(piece_type(pos_piece_on(pos, sq)), lang), name, count);
    } else {
        printf(CLI_TR(lang, "Legal moves (%d):", "Legale Züge (%d):"), count);
    }
    for (int i = 0; i < count; i++)
        printf(" %s", texts[i]);
    putchar('\n');
}

static void cmd_undo(Play *p) {
    Game *g = play_game(p);
    if (g->ply_count == 0) {
        play_print_game_error(p, GAME_ERR_NOTHING_TO_UNDO);
        return;
    }
    if (!game_undo(g)) {
        puts(CLI_TR(p->lang, "A game ended by a claim, an agreement or a resignation is final; 'new' starts a new one.",
                    "Eine durch Reklamation, Vereinbarung oder Aufgabe beendete Partie ist endgültig; 'neu' "
                    "beginnt eine neue."));
        return;
    }
    /* Against the computer, its reply goes too: else it would at once play again. */
    Color turn = pos_turn(&g->pos);
    bool two = p->players[turn].computer && !p->players[!turn].computer && g->ply_count > 0 && game_undo(g);
    play_judge_dead_positions(g); /* a loaded game may have gone on past a dead position */
    pgn_trim_comments(&p->pg);    /* a loaded game's comments on the moves taken back go with them */
    puts(two ? CLI_TR(p->lang, "Two moves taken back: yours and the computer's reply.",
                      "Zwei Züge zurückgenommen: Ihr Zug und die Antwort des Computers.")
             : CLI_TR(p->lang, "Move taken back.", "Zug zurückgenommen."));
    play_show_and_announce(p);
}

static void cmd_draw(Play *p) {
    Game *g = play_game(p);
    Color c = pos_turn(&g->pos);
    SchError err;
    err_clear(&err);
    if (!game_offer_draw(g, c, &err)) {
        play_print_error(p, &err);
        return;
    }
    if (game_over(g)) {
        play_announce(p, false);
        return;
    }
    if (p->players[!c].computer) {
        printf(CLI_TR(p->lang, "%s offers a draw; the computer answers after %s's move.\n",
                      "%s bietet Remis an; der Computer antwortet nach dem Zug von %s.\n"),
               play_color_word(c, p->lang), play_color_word(c, p->lang));
        return;
    }
    printf(CLI_TR(p->lang, "%s offers a draw. %s: 'accept' or 'decline' (a move by %s declines too).\n",
                  "%s bietet Remis an. %s: 'annehmen' oder 'ablehnen' (ein Zug von %s lehnt auch ab).\n"),
           play_color_word(c, p->lang), play_color_word((Color)!c, p->lang), play_color_word((Color)!c, p->lang));
}

/* accept or decline: answered by the opponent of whoever offered. */
static void cmd_answer_offer(Play *p, bool accept) {
    Game *g = play_game(p);
    Color answering = g->draw_offer >= 0 ? (Color)!g->draw_offer : pos_turn(&g->pos);
    SchError err;
    err_clear(&err);
    bool ok = accept ? game_accept_draw(g, answering, &err) : game_decline_draw(g, answering, &err);
    if (!ok) {
        play_print_error(p, &err);
        return;
    }
    if (accept) {
        play_announce(p, false);
        return;
    }
    printf(CLI_TR(p->lang, "%s declines the draw offer.\n", "%s lehnt das Remisangebot ab.\n"),
           play_color_word(answering, p->lang));
}

static void cmd_claim(Play *p, const char *move_text) {
    Game *g = play_game(p);
    Color c = pos_turn(&g->pos);
    SchError err;
    err_clear(&err);
    if (!*move_text) {
        if (game_claim(g, 0, &err)) {
            play_announce(p, false);
            return;
        }
        play_print_error(p, &err);
        if (err.code == GAME_ERR_NO_CLAIM && g->draw_offer == (int)c)
            printf(CLI_TR(p->lang, "The incorrect claim counts as a draw offer by %s: %s may accept or decline.\n",
                          "Die unberechtigte Reklamation gilt als Remisangebot von %s: %s kann annehmen oder "
                          "ablehnen.\n"),
                   play_color_word(c, p->lang), play_color_word((Color)!c, p->lang));
        return;
    }
    Move m;
    int r = play_read_move(p, play_skip_move_number(move_text), &m);
    if (r == RESOLVE_EOF)
        p->quit = true;
    if (r != RESOLVE_OK)
        return;
    if (game_claim_with_move(g, m, 0, &err)) {
        play_show_and_announce(p);
        return;
    }
    if (err.code == GAME_ERR_CLAIM_REJECTED || err.code == GAME_ERR_CLAIM_VOID) {
        play_print_error(p, &err);
        if (err.code == GAME_ERR_CLAIM_REJECTED && g->draw_offer == (int)c)
            printf(CLI_TR(p->lang, "The incorrect claim counts as a draw offer by %s.\n",
                          "Die unberechtigte Reklamation gilt als Remisangebot von %s.\n"),
                   play_color_word(c, p->lang));
        play_show_and_announce(p);
        return;
    }
    play_print_error(p, &err);
}

static void cmd_resign(Play *p, const char *arg) {
    Game *g = play_game(p);
    Color c = pos_turn(&g->pos);
    if (*arg) {
        char low[16];
        snprintf(low, sizeof low, "%s", arg);
        play_lowercase(low);
        if (!strcmp(low, "white") || !strcmp(low, "weiß") || !strcmp(low, "weiss") || !strcmp(low, "w"))
            c = WHITE;
        else if (!strcmp(low, "black") || !strcmp(low, "schwarz") || !strcmp(low, "b") || !strcmp(low, "s"))
            c = BLACK;
        else {
            printf(CLI_TR(p->lang, "Who resigns? 'resign', 'resign white' or 'resign black'.\n",
                          "Wer gibt auf? 'aufgeben', 'aufgeben weiß' oder 'aufgeben schwarz'.\n"));
            return;
        }
    }
    SchError err;
    err_clear(&err);
    if (!game_resign(g, c, &err)) {
        play_print_error(p, &err);
        return;
    }
    play_announce(p, false);
}

static void cmd_save(const Play *p, const char *file) {
    Lang lang = p->lang;
    if (!*file) {
        puts(CLI_TR(lang, "Which file? save FILE", "Welche Datei? speichern DATEI"));
        return;
    }
    FILE *f = fopen(file, "w");
    if (!f) {
        printf(CLI_TR(lang, "cannot write '%s': %s\n", "'%s' lässt sich nicht schreiben: %s\n"), file, strerror(errno));
        return;
    }
    bool ok = pgn_write(f, &p->pg, lang);
    if (fclose(f) != 0)
        ok = false;
    if (ok)
        printf(CLI_TR(lang, "Game saved to %s.\n", "Partie in %s gespeichert.\n"), file);
    else
        printf(CLI_TR(lang, "cannot write '%s'\n", "'%s' lässt sich nicht schreiben\n"), file);
}

static void run_command(Play *p, CommandId id, const char *arg) {
    Lang lang = p->lang;
    switch (id) {
        case CMD_HELP: print_help(p); break;
        case CMD_MOVES: cmd_moves_of(p, arg); break;
        case CMD_UNDO: cmd_undo(p); break;
        case CMD_FLIP:
            p->flip = !p->flip;
            play_show(p);
            break;
        case CMD_DRAW: cmd_draw(p); break;
        case CMD_ACCEPT: cmd_answer_offer(p, true); break;
        case CMD_DECLINE: cmd_answer_offer(p, false); break;
        case CMD_CLAIM: cmd_claim(p, arg); break;
        case CMD_RESIGN: cmd_resign(p, arg); break;
        case CMD_FEN: {
            char fen[SCHACH_FEN_MAX];
            fen_write(&p->pg.game.pos, fen, sizeof fen);
            printf("%s\n", fen);
            break;
        }
        case CMD_PGN: pgn_write(stdout, &p->pg, lang); break;
        case CMD_SAVE: cmd_save(p, arg); break;
        case CMD_LOAD:
            if (!*arg) {
                puts(CLI_TR(lang, "Which file? load FILE", "Welche Datei? laden DATEI"));
            } else if (play_load_game(&p->pg, arg, lang, stdout)) {
                p->announced = false;
                play_clear_computers(p);
                printf(CLI_TR(lang, "Loaded the last game of %s.\n", "Letzte Partie aus %s geladen.\n"), arg);
                play_show_and_announce(p);
            }
            break;
        case CMD_NEW:
            if (play_new_game(&p->pg, *arg ? arg : NULL, lang, stdout)) {
                p->announced = false;
                play_clear_computers(p);
                play_tag_computers(p);
                puts(CLI_TR(lang, "New game.", "Neue Partie."));
                play_show_and_announce(p);
            }
            break;
        case CMD_QUIT: p->quit = true; break;
        case CMD_NB: break;
    }
}

/* The command word names exactly (-1 if none). */
static int exact_command(const char *word) {
    for (int i = 0; i < COMMAND_NAME_COUNT; i++)
        if (!strcmp(command_names[i].name, word))
            return (int)command_names[i].id;
    return -1;
}

/* The one command word begins; -1 when none, -2 when several (their names listed in names). */
static int prefix_command(const char *word, char *names, size_t size) {
    int found = -1;
    size_t len = strlen(word), used = 0;
    names[0] = '\0';
    for (int i = 0; len > 0 && i < COMMAND_NAME_COUNT; i++) {
        if (strncmp(command_names[i].name, word, len) != 0)
            continue;
        if (used < size)
            used += (size_t)snprintf(names + used, size - used, "%s%s", used ? ", " : "", command_names[i].name);
        if (found == -1 || found == (int)command_names[i].id)
            found = (int)command_names[i].id;
        else
            found = -2;
    }
    return found;
}

void play_handle_line(Play *p, char *line) {
    /* The first word, lowercased, may be a command; the rest is its argument. */
    char word[64];
    size_t wlen = strcspn(line, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(wlen < sizeof word ? wlen : sizeof word - 1), line);
    play_lowercase(word);
    const char *arg = line + wlen;
    while (isspace((unsigned char)*arg))
        arg++;

    int cmd = exact_command(word);
    if (cmd >= 0) {
        run_command(p, (CommandId)cmd, arg);
        return;
    }
    Game *g = play_game(p);
    const char *text = play_skip_move_number(line);
    SchError err;
    err_clear(&err);
    Move m = MOVE_NONE;
    if (!game_over(g) && *text)
        m = game_parse_move(g, text, p->lang, &err);
    if (m != MOVE_NONE || err.code == MOVE_ERR_PROMOTION_MISSING || play_looks_like_move(text)) {
        if (game_over(g)) {
            play_print_game_error(p, GAME_ERR_OVER);
            return;
        }
        Move chosen;
        int r = play_resolve_move(p, text, m, &err, &chosen);
        if (r == RESOLVE_EOF)
            p->quit = true;
        else if (r == RESOLVE_OK)
            play_move(p, chosen);
        return;
    }
    char names[256];
    cmd = prefix_command(word, names, sizeof names);
    if (cmd >= 0) {
        run_command(p, (CommandId)cmd, arg);
    } else if (cmd == -2) {
        printf(CLI_TR(p->lang, "'%s' is ambiguous: %s\n", "'%s' ist mehrdeutig: %s\n"), word, names);
    } else if (err.code != ERR_NONE && err.code != MOVE_ERR_SYNTAX) {
        play_print_error(p, &err);
    } else {
        printf(CLI_TR(p->lang, "'%s' is neither a move nor a command; 'help' lists the commands.\n",
                      "'%s' ist weder ein Zug noch ein Befehl; 'hilfe' zeigt die Befehle.\n"),
               line);
    }
}

/* ---- the command line ------------------------------------------------------------------------ */

static void print_usage_help(Lang lang) {
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
static int bad_player(Lang lang, const char *opt, const char *value) {
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
static int parse_value_option(int argc, char **argv, int *i, Lang lang, PlayArgs *a) {
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
            if (!play_player_parse(v, &a->players[k == 2 ? WHITE : BLACK]))
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

static int parse_args(int argc, char **argv, Lang lang, PlayArgs *a) {
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
    for (int c = WHITE; c <= BLACK; c++) {
        p->players[c] = a->players[c];
        if (p->players[c].computer && !play_computer_init(&p->computers[c], &p->players[c], think, nodes)) {
            cli_errorf("%s", CLI_TR(p->lang, "out of memory for the engine", "kein Speicher für die Engine"));
            return false;
        }
    }
    return true;
}

static void stop_computers(Play *p) {
    for (int c = WHITE; c <= BLACK; c++)
        if (p->players[c].computer)
            play_computer_free(&p->computers[c]);
}

/* ---- the loop ------------------------------------------------------------------------------- */

/* "12. White> " or "12... Black> ", a bare "> " once the game is over. */
static void prompt_text(const Play *p, char *buf, size_t size) {
    const Game *g = &p->pg.game;
    if (game_over(g)) {
        snprintf(buf, size, "> ");
        return;
    }
    Color c = pos_turn(&g->pos);
    snprintf(buf, size, "%d%s %s> ", g->pos.fullmove, c == WHITE ? "." : "...", play_color_word(c, p->lang));
}

int cmd_play(int argc, char **argv, Lang lang) {
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
    p.flip = a.flip != (a.players[WHITE].computer && !a.players[BLACK].computer);
    pgn_game_init(&p.pg);
    char fen960[SCHACH_FEN_MAX];
    if (a.c960 != CLI_CHESS960_OFF) {
        /* Without a number, a random start position: the clock is random enough for one game. */
        int n = a.c960 >= 0 ? a.c960 : (int)(((unsigned)time(NULL) ^ (unsigned)getpid()) % 960u);
        Position start;
        pos_set_chess960(&start, n);
        fen_write(&start, fen960, sizeof fen960);
        a.fen = fen960;
        printf(CLI_TR(lang, "Chess960 start position %d\n", "Chess960-Startstellung %d\n"), n);
    }
    bool ok = a.pgn ? play_load_game(&p.pg, a.pgn, lang, stderr) : play_new_game(&p.pg, a.fen, lang, stderr);
    if (ok && a.c960 != CLI_CHESS960_OFF) {
        p.pg.game.start.chess960 = p.pg.game.pos.chess960 = 1;
        ok = pgn_set_tag(&p.pg, "Variant", "Chess960");
    }
    if (!ok || !start_computers(&p, &a)) {
        stop_computers(&p);
        pgn_game_free(&p.pg);
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
    pgn_game_free(&p.pg);
    return CLI_OK;
}
