/* schach play: the person's line - the commands (English or German, any unambiguous beginning), and
 * the decision whether a line is a command or a move. Bad input is explained and changes nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const SchGame *g = &p->pg.game;
    const SchPosition *pos = &g->pos;
    SchLang lang = p->lang;
    if (sch_game_over(g)) {
        play_print_game_error(p, SCH_GAME_ERR_OVER);
        return;
    }
    SchSquare sq = SCH_SQ_NONE;
    if (*arg) {
        char low[8];
        snprintf(low, sizeof low, "%s", arg);
        play_lowercase(low);
        sq = sch_square_parse(low);
        if (sq == SCH_SQ_NONE || low[2]) {
            printf(CLI_TR(lang, "'%s' is not a square (a1 to h8)\n", "'%s' ist kein Feld (a1 bis h8)\n"), arg);
            return;
        }
        SchPiece pc = sch_pos_piece_on(pos, sq);
        if (pc == SCH_NO_PIECE) {
            printf(CLI_TR(lang, "There is no piece on %s.\n", "Auf %s steht keine Figur.\n"), low);
            return;
        }
        if (sch_piece_color(pc) != sch_pos_turn(pos)) {
            printf(CLI_TR(lang, "%s %s belongs to %s, but %s is to move.\n", "%s %s gehört %s, aber %s ist am Zug.\n"),
                   play_piece_word(sch_piece_type(pc), lang), low, play_color_word(sch_piece_color(pc), lang),
                   play_color_word(sch_pos_turn(pos), lang));
            return;
        }
    }
    SchMoveList list;
    sch_gen_legal(pos, &list);
    char texts[SCH_MAX_MOVES][SCH_MOVE_TEXT_MAX];
    int count = 0;
    SchBitboard targets = 0;
    for (int i = 0; i < list.count; i++) {
        SchMove m = list.moves[i];
        if (sq != SCH_SQ_NONE && sch_move_from(m) != sq)
            continue;
        /* One entry per target square for promotions would hide the choice: list each piece. */
        sch_san_write(pos, m, lang, texts[count++], SCH_MOVE_TEXT_MAX);
        targets |= (SchBitboard)1 << sch_move_to(m);
    }
    qsort(texts, (size_t)count, sizeof texts[0], compare_strings);
    if (sq != SCH_SQ_NONE) {
        char name[3];
        sch_square_name(sq, name);
        BoardView v;
        play_view_for(p, &v);
        v.selected = sq;
        v.targets = targets;
        putchar('\n');
        board_print(stdout, pos, &v);
        if (count == 0) {
            printf(CLI_TR(lang, "%s %s has no legal move.\n", "%s %s hat keinen legalen Zug.\n"),
                   play_piece_word(sch_piece_type(sch_pos_piece_on(pos, sq)), lang), name);
            return;
        }
        printf(CLI_TR(lang, "%s %s – legal moves (%d):", "%s %s – legale Züge (%d):"),
               play_piece_word(sch_piece_type(sch_pos_piece_on(pos, sq)), lang), name, count);
    } else {
        printf(CLI_TR(lang, "Legal moves (%d):", "Legale Züge (%d):"), count);
    }
    for (int i = 0; i < count; i++)
        printf(" %s", texts[i]);
    putchar('\n');
}

static void cmd_undo(Play *p) {
    SchGame *g = play_game(p);
    if (g->ply_count == 0) {
        play_print_game_error(p, SCH_GAME_ERR_NOTHING_TO_UNDO);
        return;
    }
    if (!sch_game_undo(g)) {
        puts(CLI_TR(p->lang, "A game ended by a claim, an agreement or a resignation is final; 'new' starts a new one.",
                    "Eine durch Reklamation, Vereinbarung oder Aufgabe beendete Partie ist endgültig; 'neu' "
                    "beginnt eine neue."));
        return;
    }
    /* Against the computer, its reply goes too: else it would at once play again. */
    SchColor turn = sch_pos_turn(&g->pos);
    bool two = p->players[turn].computer && !p->players[!turn].computer && g->ply_count > 0 && sch_game_undo(g);
    play_judge_dead_positions(g);  /* a loaded game may have gone on past a dead position */
    sch_pgn_trim_comments(&p->pg); /* a loaded game's comments on the moves taken back go with them */
    puts(two ? CLI_TR(p->lang, "Two moves taken back: yours and the computer's reply.",
                      "Zwei Züge zurückgenommen: Ihr Zug und die Antwort des Computers.")
             : CLI_TR(p->lang, "Move taken back.", "Zug zurückgenommen."));
    play_show_and_announce(p);
}

static void cmd_draw(Play *p) {
    SchGame *g = play_game(p);
    SchColor c = sch_pos_turn(&g->pos);
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_offer_draw(g, c, &err)) {
        play_print_error(p, &err);
        return;
    }
    if (sch_game_over(g)) {
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
           play_color_word(c, p->lang), play_color_word((SchColor)!c, p->lang), play_color_word((SchColor)!c, p->lang));
}

/* accept or decline: answered by the opponent of whoever offered. */
static void cmd_answer_offer(Play *p, bool accept) {
    SchGame *g = play_game(p);
    SchColor answering = g->draw_offer >= 0 ? (SchColor)!g->draw_offer : sch_pos_turn(&g->pos);
    SchError err;
    sch_err_clear(&err);
    bool ok = accept ? sch_game_accept_draw(g, answering, &err) : sch_game_decline_draw(g, answering, &err);
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
    SchGame *g = play_game(p);
    SchColor c = sch_pos_turn(&g->pos);
    SchError err;
    sch_err_clear(&err);
    if (!*move_text) {
        if (sch_game_claim(g, 0, &err)) {
            play_announce(p, false);
            return;
        }
        play_print_error(p, &err);
        if (err.code == SCH_GAME_ERR_NO_CLAIM && g->draw_offer == (int)c)
            printf(CLI_TR(p->lang, "The incorrect claim counts as a draw offer by %s: %s may accept or decline.\n",
                          "Die unberechtigte Reklamation gilt als Remisangebot von %s: %s kann annehmen oder "
                          "ablehnen.\n"),
                   play_color_word(c, p->lang), play_color_word((SchColor)!c, p->lang));
        return;
    }
    SchMove m;
    int r = play_read_move(p, play_skip_move_number(move_text), &m);
    if (r == RESOLVE_EOF)
        p->quit = true;
    if (r != RESOLVE_OK)
        return;
    if (sch_game_claim_with_move(g, m, 0, &err)) {
        play_show_and_announce(p);
        return;
    }
    if (err.code == SCH_GAME_ERR_CLAIM_REJECTED || err.code == SCH_GAME_ERR_CLAIM_VOID) {
        play_print_error(p, &err);
        if (err.code == SCH_GAME_ERR_CLAIM_REJECTED && g->draw_offer == (int)c)
            printf(CLI_TR(p->lang, "The incorrect claim counts as a draw offer by %s.\n",
                          "Die unberechtigte Reklamation gilt als Remisangebot von %s.\n"),
                   play_color_word(c, p->lang));
        play_show_and_announce(p);
        return;
    }
    play_print_error(p, &err);
}

static void cmd_resign(Play *p, const char *arg) {
    SchGame *g = play_game(p);
    SchColor c = sch_pos_turn(&g->pos);
    if (*arg) {
        char low[16];
        snprintf(low, sizeof low, "%s", arg);
        play_lowercase(low);
        if (!strcmp(low, "white") || !strcmp(low, "weiß") || !strcmp(low, "weiss") || !strcmp(low, "w"))
            c = SCH_WHITE;
        else if (!strcmp(low, "black") || !strcmp(low, "schwarz") || !strcmp(low, "b") || !strcmp(low, "s"))
            c = SCH_BLACK;
        else {
            printf(CLI_TR(p->lang, "Who resigns? 'resign', 'resign white' or 'resign black'.\n",
                          "Wer gibt auf? 'aufgeben', 'aufgeben weiß' oder 'aufgeben schwarz'.\n"));
            return;
        }
    }
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_resign(g, c, &err)) {
        play_print_error(p, &err);
        return;
    }
    play_announce(p, false);
}

static void cmd_save(const Play *p, const char *file) {
    SchLang lang = p->lang;
    if (!*file) {
        puts(CLI_TR(lang, "Which file? save FILE", "Welche Datei? speichern DATEI"));
        return;
    }
    FILE *f = fopen(file, "w");
    if (!f) {
        printf(CLI_TR(lang, "cannot write '%s': %s\n", "'%s' lässt sich nicht schreiben: %s\n"), file, strerror(errno));
        return;
    }
    bool ok = sch_pgn_write(f, &p->pg, lang);
    if (fclose(f) != 0)
        ok = false;
    if (ok)
        printf(CLI_TR(lang, "Game saved to %s.\n", "Partie in %s gespeichert.\n"), file);
    else
        printf(CLI_TR(lang, "cannot write '%s'\n", "'%s' lässt sich nicht schreiben\n"), file);
}

static void run_command(Play *p, CommandId id, const char *arg) {
    SchLang lang = p->lang;
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
            char fen[SCH_FEN_MAX];
            sch_fen_write(&p->pg.game.pos, fen, sizeof fen);
            printf("%s\n", fen);
            break;
        }
        case CMD_PGN: sch_pgn_write(stdout, &p->pg, lang); break;
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
    SchGame *g = play_game(p);
    const char *text = play_skip_move_number(line);
    SchError err;
    sch_err_clear(&err);
    SchMove m = SCH_MOVE_NONE;
    if (!sch_game_over(g) && *text)
        m = sch_game_parse_move(g, text, p->lang, &err);
    if (m != SCH_MOVE_NONE || err.code == SCH_MOVE_ERR_PROMOTION_MISSING || play_looks_like_move(text)) {
        if (sch_game_over(g)) {
            play_print_game_error(p, SCH_GAME_ERR_OVER);
            return;
        }
        SchMove chosen;
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
    } else if (err.code != SCH_ERR_NONE && err.code != SCH_MOVE_ERR_SYNTAX) {
        play_print_error(p, &err);
    } else {
        printf(CLI_TR(p->lang, "'%s' is neither a move nor a command; 'help' lists the commands.\n",
                      "'%s' ist weder ein Zug noch ein Befehl; 'hilfe' zeigt die Befehle.\n"),
               line);
    }
}
