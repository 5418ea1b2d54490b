/* schach play: the computer's turn in the session - it names the computer players in the tags, lets
 * play_computer.c decide, and carries the decision out on the board with a line saying what it did
 * (a move, a draw claim, the answer to a draw offer). play_computer.c knows nothing of the session;
 * this file joins the two.
 */
#include <stdio.h>

#include "cli.h"
#include "play.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "schach/pgn.h"

bool play_computer_to_move(const Play *p) {
    const SchGame *g = &p->pg.game;
    return !sch_game_over(g) && p->players[sch_pos_turn(&g->pos)].computer;
}

void play_clear_computers(Play *p) {
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++)
        if (p->players[c].computer)
            engine_clear(p->computers[c].engine);
}

void play_tag_computers(Play *p) {
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        if (!p->players[c].computer)
            continue;
        const PlayPlayer *pl = &p->players[c];
        char name[96];
        if (pl->level)
            snprintf(name, sizeof name, "schach (%s)", CLI_TR(p->lang, pl->level->name_en, pl->level->name_de));
        else
            snprintf(name, sizeof name, "schach (Elo %d)", pl->elo);
        sch_pgn_set_tag(&p->pg, c == SCH_WHITE ? "White" : "Black", name);
    }
}

/* "12. Nf3" or "12... Nf6": move m in the position before it. */
static void numbered_san(const Play *p, SchMove m, char *buf, size_t size) {
    const SchPosition *pos = &p->pg.game.pos;
    char san[SCH_MOVE_TEXT_MAX];
    sch_san_write(pos, m, p->lang, san, sizeof san);
    snprintf(buf, size, "%d%s %s", pos->fullmove, sch_pos_turn(pos) == SCH_WHITE ? "." : "...", san);
}

/* The computer answers a standing draw offer of its opponent; true when it accepted (game over). */
static bool computer_answer_offer(Play *p, const PlayChoice *ch, const char *who) {
    SchGame *g = play_game(p);
    SchColor c = sch_pos_turn(&g->pos);
    if (g->draw_offer != (int)!c)
        return false;
    SchError err;
    sch_err_clear(&err);
    if (ch->accept_draw && sch_game_accept_draw(g, c, &err)) {
        printf(CLI_TR(p->lang, "%s (%s) accepts the draw offer.\n", "%s (%s) nimmt das Remisangebot an.\n"),
               play_color_word(c, p->lang), who);
        play_announce(p, false);
        return true;
    }
    if (sch_game_decline_draw(g, c, &err))
        printf(CLI_TR(p->lang, "%s (%s) declines the draw offer.\n", "%s (%s) lehnt das Remisangebot ab.\n"),
               play_color_word(c, p->lang), who);
    return false;
}

bool play_computer_turn(Play *p) {
    SchGame *g = play_game(p);
    SchColor c = sch_pos_turn(&g->pos);
    char who[96], text[48];
    play_computer_describe(&p->computers[c], p->lang, who, sizeof who);
    if (!p->script) {
        printf(CLI_TR(p->lang, "%s (%s) is thinking ...\n", "%s (%s) denkt nach ...\n"), play_color_word(c, p->lang),
               who);
        fflush(stdout);
    }
    PlayChoice ch = play_computer_choose(&p->computers[c], g);
    if (computer_answer_offer(p, &ch, who))
        return true;
    SchError err;
    sch_err_clear(&err);
    if (ch.claim_now && sch_game_claim(g, 0, &err)) {
        printf(CLI_TR(p->lang, "%s (%s) claims a draw.\n", "%s (%s) beansprucht Remis.\n"), play_color_word(c, p->lang),
               who);
        play_announce(p, false);
        return true;
    }
    if (ch.move == SCH_MOVE_NONE)
        return false;
    numbered_san(p, ch.move, text, sizeof text);
    if (ch.claim_with_move) {
        printf(CLI_TR(p->lang, "%s (%s) plays %s and claims a draw.\n", "%s (%s) spielt %s und beansprucht Remis.\n"),
               play_color_word(c, p->lang), who, text);
        if (!sch_game_claim_with_move(g, ch.move, 0, &err) && err.code != SCH_GAME_ERR_CLAIM_VOID)
            play_print_error(p, &err);
        play_show_and_announce(p);
        return true;
    }
    if (!sch_game_play(g, ch.move, &err)) {
        play_print_error(p, &err);
        return false;
    }
    printf(CLI_TR(p->lang, "%s (%s) plays %s\n", "%s (%s) spielt %s\n"), play_color_word(c, p->lang), who, text);
    play_show_and_announce(p);
    return true;
}
