/* schach play: what the person sees of the game - the board with the last move marked, the moves so
 * far, whose turn it is, a standing draw offer or a claim to be had, and the ending once it comes.
 * Apart from the commands because every part of the session (moves, commands, the computer's turn)
 * reports through it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "play.h"
#include "schach/error.h"
#include "schach/game.h"
#include "schach/notation.h"

const char *play_color_word(SchColor c, SchLang lang) {
    return c == SCH_WHITE ? CLI_TR(lang, "White", "Weiß") : CLI_TR(lang, "Black", "Schwarz");
}

const char *play_piece_word(SchPieceType t, SchLang lang) {
    static const char *const en[SCH_PIECE_TYPE_NB] = {"Pawn", "Knight", "Bishop", "Rook", "Queen", "King"};
    static const char *const de[SCH_PIECE_TYPE_NB] = {"Bauer", "Springer", "Läufer", "Turm", "Dame", "König"};
    return lang == SCH_LANG_DE ? de[t] : en[t];
}

void play_print_error(const Play *p, const SchError *err) {
    char msg[512];
    sch_err_format(err, p->lang, msg, sizeof msg);
    printf("%s\n", msg);
}

void play_print_game_error(const Play *p, int code) {
    SchError err;
    sch_err_clear(&err);
    sch_err_set(&err, code, NULL, NULL, NULL);
    play_print_error(p, &err);
}

/* The move list in SAN ("1. e4 e5 2. Nf3"), wrapped; also the long form of the last move. */
static void print_move_list(const Play *p, char *last, size_t last_size) {
    const SchGame *g = &p->pg.game;
    SchPosition pos = g->start;
    int width = 0;
    last[0] = '\0';
    if (g->ply_count == 0)
        return;
    fputs(CLI_TR(p->lang, "Moves:", "Züge:"), stdout);
    width = 6;
    for (int i = 0; i < g->ply_count; i++) {
        SchMove m = g->plies[i].move;
        char san[SCH_MOVE_TEXT_MAX], item[48];
        sch_san_write(&pos, m, p->lang, san, sizeof san);
        if (sch_pos_turn(&pos) == SCH_WHITE)
            snprintf(item, sizeof item, "%d. %s", pos.fullmove, san);
        else if (i == 0)
            snprintf(item, sizeof item, "%d... %s", pos.fullmove, san);
        else
            snprintf(item, sizeof item, "%s", san);
        if (i == g->ply_count - 1) {
            char lan[SCH_MOVE_TEXT_MAX];
            sch_lan_write(&pos, m, p->lang, lan, sizeof lan);
            snprintf(last, last_size, "%s%s (%s)", sch_pos_turn(&pos) == SCH_WHITE ? "" : "... ", item, lan);
            if (sch_pos_turn(&pos) == SCH_BLACK && i > 0) /* "12... Nf6" reads better than "... Nf6" */
                snprintf(last, last_size, "%d... %s (%s)", pos.fullmove, san, lan);
        }
        int len = (int)strlen(item);
        if (width + 1 + len > 78) {
            fputs("\n      ", stdout);
            width = 6;
        }
        printf(" %s", item);
        width += 1 + len;
        SchUndo u;
        sch_game_make_ply(&pos, m, &u); /* a null move ("--") of a loaded PGN too */
    }
    putchar('\n');
}

/* Where the repeated position stood, with move numbers (what an arbiter asks at a claim): "Repeated:
 * the position after 21…Kg7 stood after 23…Kg7 and 25…Kg7." */
static void print_repetition(const SchGame *g, SchLang lang) {
    char where[400];
    if (sch_game_repetition_describe(g, SCH_MOVE_NONE, lang, where, sizeof where) > 0)
        printf(CLI_TR(lang, "Repeated: %s.\n", "Wiederholt: %s.\n"), where);
}

static void print_claims(const Play *p) {
    const SchGame *g = play_game((Play *)p);
    int claims = sch_game_claims(g);
    if (!claims)
        return;
    SchLang lang = p->lang;
    const char *three = CLI_TR(lang, "threefold repetition", "dreifache Stellungswiederholung");
    const char *fifty = CLI_TR(lang, "50-move rule", "50-Züge-Regel");
    printf(CLI_TR(lang, "%s may claim a draw (claim): %s%s%s\n", "%s kann Remis beanspruchen (beanspruchen): %s%s%s\n"),
           play_color_word(sch_pos_turn(&g->pos), lang), (claims & SCH_CLAIM_THREEFOLD) ? three : "",
           claims == (SCH_CLAIM_THREEFOLD | SCH_CLAIM_FIFTY) ? ", " : "", (claims & SCH_CLAIM_FIFTY) ? fifty : "");
    if (claims & SCH_CLAIM_THREEFOLD)
        print_repetition(g, lang);
}

static void print_status(const Play *p) {
    const SchGame *g = &p->pg.game;
    const SchPosition *pos = &g->pos;
    SchLang lang = p->lang;
    if (sch_game_over(g)) {
        char text[256];
        sch_outcome_describe(&g->outcome, lang, text, sizeof text);
        printf(CLI_TR(lang, "Game over: %s\n", "Partie beendet: %s\n"), text);
        if (g->outcome.termination == SCH_TERM_THREEFOLD_REPETITION ||
            g->outcome.termination == SCH_TERM_FIVEFOLD_REPETITION)
            print_repetition(g, lang);
        return;
    }
    printf(CLI_TR(lang, "Move %d: %s to move%s\n", "Zug %d: %s am Zug%s\n"), pos->fullmove,
           play_color_word(sch_pos_turn(pos), lang),
           sch_pos_in_check(pos) ? CLI_TR(lang, " – check!", " – Schach!") : "");
    if (g->draw_offer >= 0) {
        SchColor offerer = (SchColor)g->draw_offer;
        printf(CLI_TR(lang, "%s offers a draw: %s may accept or decline (a move by %s declines).\n",
                      "%s bietet Remis an: %s kann annehmen oder ablehnen (ein Zug von %s lehnt ab).\n"),
               play_color_word(offerer, lang), play_color_word((SchColor)!offerer, lang),
               play_color_word((SchColor)!offerer, lang));
    }
    print_claims(p);
}

void play_view_for(const Play *p, BoardView *v) {
    const SchGame *g = &p->pg.game;
    board_view_init(v, p->color, p->flip, p->lang);
    if (g->ply_count > 0 && g->plies[g->ply_count - 1].move != SCH_MOVE_NULL) { /* a null move has no squares */
        SchMove m = g->plies[g->ply_count - 1].move;
        v->last_from = sch_move_from(m);
        v->last_to = sch_move_to(m);
    }
    if (sch_pos_in_check(&g->pos))
        v->check = sch_pos_king(&g->pos, sch_pos_turn(&g->pos));
}

void play_show(const Play *p) {
    BoardView v;
    play_view_for(p, &v);
    putchar('\n');
    board_print(stdout, &p->pg.game.pos, &v);
    char last[96];
    print_move_list(p, last, sizeof last);
    if (last[0]) {
        bool check = sch_pos_in_check(&p->pg.game.pos);
        printf(CLI_TR(p->lang, "Last move: %s%s\n", "Letzter Zug: %s%s\n"), last,
               check ? CLI_TR(p->lang, ", check", ", Schach") : "");
    }
    print_status(p);
}

void play_announce(Play *p, bool status_shown) {
    const SchGame *g = play_game(p);
    if (!sch_game_over(g)) {
        p->announced = false;
        return;
    }
    if (p->announced)
        return;
    p->announced = true;
    if (!status_shown)
        print_status(p);
    puts(CLI_TR(p->lang, "Save the game with 'save FILE' (pgn shows it); 'new' starts a new game, 'quit' ends.",
                "Mit 'speichern DATEI' die Partie speichern (pgn zeigt sie); 'neu' beginnt eine neue Partie, "
                "'ende' beendet."));
}

void play_show_and_announce(Play *p) {
    play_show(p);
    play_announce(p, true);
}
