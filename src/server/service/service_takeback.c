/* Takebacks (docs/api.md "Takebacks"): in a casual game between two players, a player asks to take back
 * their last move, and the opponent accepts or declines; a move by either side lets the request lapse.
 * The request is part of the row (GameRecord.takeback_offer), so every node sees it; an accepted one
 * takes the asker's last move back (and the opponent's reply after it, when there is one) and leaves the
 * row as it was before that move: its clocks, the moves before it with their times, no offers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service_change.h"
#include "service_requests.h"
#include "service_state.h"

/* How many plies asker's last move takes back: 1 when it is the last ply, 2 when the opponent replied
 * to it, 0 when asker has not moved. */
static int plies_for(const SvcGame *g, SchColor asker) {
    int n = g->game.ply_count;
    SchColor last_mover = (SchColor)!sch_pos_turn(sch_game_position(&g->game));
    if (n >= 1 && last_mover == asker)
        return 1;
    return n >= 2 ? 2 : 0;
}

uint64_t svc_action_takeback(Req *r, SvcGame *g) {
    DrawAction d;
    int color = svc_offer_action(r, g, &d);
    if (color < 0)
        return r->ticket;
    if (g->rec.rated)
        return svc_reply_error(r, SVC_E_TAKEBACK_RATED, NULL);
    if (g->computer >= 0)
        return svc_reply_error(r, SVC_E_TAKEBACK_COMPUTER, NULL);
    int plies = 0;
    if (d == DRAW_OFFER) {
        if (plies_for(g, (SchColor)color) == 0)
            return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_NO_TAKEBACK, NULL);
    } else if (g->rec.takeback_offer != 1 + !color) {
        return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_NO_TAKEBACK_OFFER, NULL);
    } else if (d == DRAW_ACCEPT && (plies = plies_for(g, (SchColor)!color)) == 0) {
        return svc_reply_error(r, SVC_E_NO_TAKEBACK, NULL); /* a move would have let the request lapse */
    }
    SvcPending *p = svc_pending_new(r, g, CH_TAKEBACK, (SchColor)color);
    if (!p)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    p->draw = d;
    p->takeback_plies = plies;
    return svc_change_start(r, p);
}

bool svc_takeback_run(SvcGame *g, const SvcPending *p, SchError *err) {
    (void)err;
    for (int i = 0; i < p->takeback_plies; i++)
        if (!sch_game_undo(&g->game))
            return false;
    if (p->takeback_plies > 0)
        g->game.draw_offer = -1;
    return true;
}

/* Where the entry of ply k begins in g->moves_text (its length when k is the ply count): the entries
 * are flat objects whose strings hold no braces. */
static size_t entry_offset(const SvcGame *g, int k) {
    if (k <= 0)
        return 0;
    int seen = 0;
    for (size_t i = 0; i < g->moves_len; i++)
        if (g->moves_text[i] == '}' && ++seen == k)
            return i + 1;
    return g->moves_len;
}

/* When ply i was played ("at" of its entry), 0 when unknown. */
static int64_t entry_at(const SvcGame *g, int i) {
    size_t from = entry_offset(g, i);
    const char *at = strstr(g->moves_text + from, "\"at\":");
    return at ? strtoll(at + 5, NULL, 10) : 0;
}

void svc_takeback_record(const SvcGame *g, const SvcPending *p, GameRecord *rec) {
    if (p->draw == DRAW_OFFER)
        rec->takeback_offer = 1 + (int)p->color;
    else
        rec->takeback_offer = 0;
    if (p->draw != DRAW_ACCEPT)
        return;
    rec->draw_offer = -1;
    rec->plies = g->game.ply_count - p->takeback_plies;
    TimeType type = rec->time.type;
    if (type != TIME_LIVE && type != TIME_CORRESPONDENCE)
        return;
    /* The clocks as the moves before made them (svc_clock_after_move, move by move from the start): the
     * row exactly as it was when the first ply taken back was played. */
    int64_t clock[2] = {(int64_t)rec->time.minutes * 60000, (int64_t)rec->time.minutes * 60000};
    int64_t started = 0;
    SchColor mover = sch_pos_turn(&g->game.start);
    for (int i = 0; i < rec->plies; i++) {
        svc_clock_replay(&rec->time, i + 1, mover, entry_at(g, i), clock, &started);
        mover = (SchColor)!mover;
    }
    if (type == TIME_LIVE)
        memcpy(rec->clock_ms, clock, sizeof clock);
    rec->turn_started_ms = started;
}

void svc_takeback_committed(SvcGame *g) {
    size_t cut = entry_offset(g, g->game.ply_count);
    if (cut > 0 && cut < g->moves_len && g->moves_text[cut] != ',')
        cut = g->moves_len; /* not an entry's end: leave the text as it is */
    g->moves_len = cut;
    if (g->moves_text)
        g->moves_text[cut] = '\0';
}
