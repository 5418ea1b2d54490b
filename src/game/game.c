/* A game record: moves with undo data, automatic endings, claims, offers and other endings
 * (FIDE Laws, articles 5, 6.9 and 9). */
#include "schach/game.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/winnable.h"
#include "core/init.h"

/* Halfmove clock values of the 50- and 75-move rules. */
#define FIFTY_MOVE_PLIES       100
#define SEVENTYFIVE_MOVE_PLIES 150

uint64_t sch_game_repetition_key(const SchPosition *pos) {
    /* An ep square whose capture is not legal gives no different possibilities (9.2.2), so it
     * must not make the position different. */
    if (pos->ep != SCH_SQ_NONE && !sch_gen_ep_legal(pos))
        return pos->key ^ sch_zobrist_ep_file[sch_square_file((SchSquare)pos->ep)];
    return pos->key;
}

/* "e2e4", "e7e8q", "--" for the null move: names the move in errors without depending on the
 * notation module. */
static void move_text(SchMove m, char buf[6]) {
    if (m == SCH_MOVE_NULL) {
        memcpy(buf, "--", 3);
        return;
    }
    sch_square_name(sch_move_from(m), buf);
    sch_square_name(sch_move_to(m), buf + 2);
    buf[4] = sch_move_kind(m) == SCH_MOVE_PROMOTION ? "nbrq"[sch_move_promotion(m) - SCH_KNIGHT] : '\0';
    buf[5] = '\0';
}

static void set_outcome(SchGame *g, SchResult r, SchTermination t) {
    g->outcome.result = r;
    g->outcome.termination = t;
    g->outcome.winner = r == SCH_RESULT_BLACK_WINS ? SCH_BLACK : SCH_WHITE;
    g->outcome.reason = 0;
    g->draw_offer = -1;
    g->dead_pending = false;
}

/* The reason to show for a dead position: the one of the side that had mating material. */
static int dead_reason(const SchWinResult res[2]) {
    for (int c = 0; c < 2; c++)
        if (res[c].reason != SCH_WIN_REASON_BARE_KING && res[c].reason != SCH_WIN_REASON_MATERIAL)
            return (int)res[c].reason;
    return (int)res[SCH_WHITE].reason;
}

/* 5.2.2 beyond material: the quick analysis, then the full one with a small budget when the quick
 * pass found a locked structure it could not settle (or leaves that to the caller). */
static void decide_dead(SchGame *g) {
    if (g->dead_mode == SCH_GAME_DEAD_MATERIAL_ONLY)
        return;
    static const SchWinLimits quick = {true, 0};
    static const SchWinLimits full = {false, SCH_GAME_DEAD_NODES};
    SchWinResult res[2];
    SchWinnability v = sch_dead_position(&g->pos, &quick, NULL, res);
    if (v == SCH_WIN_UNDETERMINED && (res[SCH_WHITE].blockade || res[SCH_BLACK].blockade)) {
        if (g->dead_mode == SCH_GAME_DEAD_DEFER) {
            g->dead_pending = true;
            return;
        }
        v = sch_dead_position(&g->pos, &full, NULL, res);
    }
    if (v == SCH_WIN_UNWINNABLE) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_DEAD_POSITION);
        g->outcome.reason = dead_reason(res);
    }
}

static void set_win(SchGame *g, SchColor winner, SchTermination t) {
    set_outcome(g, winner == SCH_WHITE ? SCH_RESULT_WHITE_WINS : SCH_RESULT_BLACK_WINS, t);
}

/* Repetition key of the position after `index` plies (0 = the start). */
uint64_t sch_game_key_at(const SchGame *g, int index) { return index == 0 ? g->start_key : g->plies[index - 1].key; }

/* How often key occurs among the positions before index `at` that could still equal the position
 * at `at`: a capture or pawn move (halfmove clock reset) can never be undone, so only the last
 * `halfmove` plies matter, and only those with the same player to move. */
static int count_earlier(const SchGame *g, uint64_t key, int at, int halfmove) {
    int lowest = at - halfmove < 0 ? 0 : at - halfmove;
    int n = 0;
    for (int i = at - 2; i >= lowest; i -= 2)
        n += sch_game_key_at(g, i) == key;
    return n;
}

int sch_game_repetitions(const SchGame *g) {
    return 1 + count_earlier(g, sch_game_key_at(g, g->ply_count), g->ply_count, g->pos.halfmove);
}

/* The automatic endings of the position on the board. Mate and stalemate come first: they end the
 * game at once (5.1.1, 5.2.1), and 9.6 lets a checkmate on the last move take precedence. */
static void decide_automatic(SchGame *g) {
    const SchPosition *pos = &g->pos;
    g->dead_pending = false;
    if (!sch_gen_has_legal_move(pos)) {
        if (sch_pos_in_check(pos))
            set_win(g, (SchColor)!sch_pos_turn(pos), SCH_TERM_CHECKMATE);
        else
            set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_STALEMATE);
    } else if (sch_pos_insufficient_material(pos)) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_INSUFFICIENT_MATERIAL);
    } else if (sch_game_repetitions(g) >= 5) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_FIVEFOLD_REPETITION);
    } else if (pos->halfmove >= SEVENTYFIVE_MOVE_PLIES) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_SEVENTYFIVE_MOVES);
    } else {
        decide_dead(g);
    }
}

void sch_game_set_dead_mode(SchGame *g, SchGameDeadMode mode) {
    g->dead_mode = (uint8_t)mode;
    g->dead_pending = false;
}

void sch_game_defer_dead_analysis(SchGame *g, bool defer) {
    sch_game_set_dead_mode(g, defer ? SCH_GAME_DEAD_DEFER : SCH_GAME_DEAD_INLINE);
}

bool sch_game_settle_dead(SchGame *g, int ply_count, const SchWinResult res[2]) {
    if (ply_count == g->ply_count)
        g->dead_pending = false;
    if (sch_game_over(g) || ply_count < 0 || ply_count > g->ply_count)
        return false;
    if (res[SCH_WHITE].verdict != SCH_WIN_UNWINNABLE || res[SCH_BLACK].verdict != SCH_WIN_UNWINNABLE)
        return false;
    set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_DEAD_POSITION);
    g->outcome.reason = dead_reason(res);
    return true;
}

static void init_from(SchGame *g, const SchPosition *start) {
    g->start = *start;
    g->pos = *start;
    g->start_key = sch_game_repetition_key(start);
    g->plies = NULL;
    g->ply_count = 0;
    g->ply_capacity = 0;
    g->outcome = (SchOutcome){SCH_RESULT_NONE, SCH_TERM_NONE, SCH_WHITE, 0};
    g->draw_offer = -1;
    g->dead_mode = SCH_GAME_DEAD_INLINE;
    g->dead_pending = false;
}

void sch_game_init(SchGame *g) {
    sch_core_init();
    SchPosition start;
    sch_pos_set_start(&start);
    init_from(g, &start);
}

bool sch_game_init_fen_mode(SchGame *g, const char *fen, SchGameDeadMode mode, SchError *err) {
    sch_game_init(g);
    SchPosition start;
    if (!sch_fen_parse(&start, fen, err))
        return false;
    init_from(g, &start);
    g->dead_mode = (uint8_t)mode;
    decide_automatic(g);
    return true;
}

bool sch_game_init_fen(SchGame *g, const char *fen, SchError *err) {
    return sch_game_init_fen_mode(g, fen, SCH_GAME_DEAD_INLINE, err);
}

bool sch_game_init_chess960(SchGame *g, int number, SchError *err) {
    sch_game_init(g);
    SchPosition start;
    if (!sch_pos_set_chess960(&start, number)) {
        char text[16];
        snprintf(text, sizeof text, "%d", number);
        return sch_err_set(err, SCH_GAME_ERR_CHESS960_NUMBER, text, NULL, NULL);
    }
    init_from(g, &start); /* start.chess960 is set: the variant stays with the game */
    decide_automatic(g);
    return true;
}

void sch_game_free(SchGame *g) {
    free(g->plies);
    g->plies = NULL;
    g->ply_count = 0;
    g->ply_capacity = 0;
}

bool sch_game_copy(SchGame *dst, const SchGame *src) {
    *dst = *src;
    dst->plies = NULL;
    dst->ply_capacity = 0;
    if (src->ply_count > 0) {
        dst->plies = malloc((size_t)src->ply_count * sizeof *dst->plies);
        if (!dst->plies) {
            dst->ply_count = 0;
            return false;
        }
        memcpy(dst->plies, src->plies, (size_t)src->ply_count * sizeof *dst->plies);
        dst->ply_capacity = src->ply_count;
    }
    return true;
}

static bool reserve_ply(SchGame *g) {
    if (g->ply_count < g->ply_capacity)
        return true;
    if (g->ply_capacity > INT_MAX / 2)
        return false;
    int capacity = g->ply_capacity ? g->ply_capacity * 2 : 128;
    SchGamePly *plies = realloc(g->plies, (size_t)capacity * sizeof *plies);
    if (!plies)
        return false;
    g->plies = plies;
    g->ply_capacity = capacity;
    return true;
}

void sch_game_make_ply(SchPosition *pos, SchMove m, SchUndo *undo) {
    if (m == SCH_MOVE_NULL)
        sch_pos_make_null(pos, undo);
    else
        sch_pos_make(pos, m, undo);
}

/* Checks that m may be played now; sets err otherwise. */
static bool check_playable(const SchGame *g, SchMove m, SchError *err) {
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    if (m == SCH_MOVE_NULL) {
        if (sch_pos_in_check(&g->pos))
            return sch_err_set(err, SCH_GAME_ERR_NULL_IN_CHECK, NULL, NULL, NULL);
        return true;
    }
    if (!sch_gen_is_legal(&g->pos, m)) {
        char text[6];
        move_text(m, text);
        return sch_err_set(err, SCH_GAME_ERR_ILLEGAL, text, NULL, NULL);
    }
    return true;
}

bool sch_game_play(SchGame *g, SchMove m, SchError *err) {
    if (!check_playable(g, m, err))
        return false;
    if (!reserve_ply(g))
        return sch_err_set(err, SCH_ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
    SchColor mover = sch_pos_turn(&g->pos);
    SchGamePly *ply = &g->plies[g->ply_count++];
    ply->move = m;
    sch_game_make_ply(&g->pos, m, &ply->undo);
    ply->key = sch_game_repetition_key(&g->pos);
    /* Moving is the way to decline the opponent's offer (9.1.2.3); the mover's own offer stands. */
    if (g->draw_offer != -1 && g->draw_offer != (int)mover)
        g->draw_offer = -1;
    decide_automatic(g);
    return true;
}

static bool automatic_ending(SchTermination t) {
    return t == SCH_TERM_CHECKMATE || t == SCH_TERM_STALEMATE || t == SCH_TERM_INSUFFICIENT_MATERIAL ||
           t == SCH_TERM_DEAD_POSITION || t == SCH_TERM_FIVEFOLD_REPETITION || t == SCH_TERM_SEVENTYFIVE_MOVES;
}

bool sch_game_undo(SchGame *g) {
    if (g->ply_count == 0)
        return false;
    if (sch_game_over(g) && !automatic_ending(g->outcome.termination))
        return false;
    const SchGamePly *ply = &g->plies[--g->ply_count];
    if (ply->move == SCH_MOVE_NULL)
        sch_pos_unmake_null(&g->pos, &ply->undo);
    else
        sch_pos_unmake(&g->pos, ply->move, &ply->undo);
    g->outcome = (SchOutcome){SCH_RESULT_NONE, SCH_TERM_NONE, SCH_WHITE, 0};
    g->draw_offer = -1;
    /* The position before was not dead (or the game would have ended there); whether it still
     * waits for the caller's full analysis is the caller's to ask again after an undo. */
    g->dead_pending = false;
    return true;
}

int sch_game_claims(const SchGame *g) {
    if (sch_game_over(g))
        return 0;
    int claims = 0;
    if (sch_game_repetitions(g) >= 3)
        claims |= SCH_CLAIM_THREEFOLD;
    if (g->pos.halfmove >= FIFTY_MOVE_PLIES)
        claims |= SCH_CLAIM_FIFTY;
    return claims;
}

int sch_game_claims_with_move(const SchGame *g, SchMove m) {
    if (!check_playable(g, m, NULL))
        return 0;
    SchPosition after = g->pos;
    SchUndo undo;
    sch_game_make_ply(&after, m, &undo);
    int claims = 0;
    int at = g->ply_count + 1;
    if (1 + count_earlier(g, sch_game_repetition_key(&after), at, after.halfmove) >= 3)
        claims |= SCH_CLAIM_THREEFOLD;
    if (after.halfmove >= FIFTY_MOVE_PLIES)
        claims |= SCH_CLAIM_FIFTY;
    return claims;
}

/* The claim granted out of the available ones for a requested kind (0: any), threefold first. */
static SchTermination granted_claim(int available, int kind) {
    int wanted = kind ? kind : SCH_CLAIM_THREEFOLD | SCH_CLAIM_FIFTY;
    int hold = available & wanted;
    if (hold & SCH_CLAIM_THREEFOLD)
        return SCH_TERM_THREEFOLD_REPETITION;
    if (hold & SCH_CLAIM_FIFTY)
        return SCH_TERM_FIFTY_MOVES;
    return SCH_TERM_NONE;
}

bool sch_game_claim(SchGame *g, int kind, SchError *err) {
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    SchTermination t = granted_claim(sch_game_claims(g), kind);
    if (t == SCH_TERM_NONE) {
        g->draw_offer = sch_pos_turn(&g->pos); /* 9.1.2.4 */
        return sch_err_set(err, SCH_GAME_ERR_NO_CLAIM, NULL, NULL, NULL);
    }
    set_outcome(g, SCH_RESULT_DRAW, t);
    return true;
}

bool sch_game_claim_with_move(SchGame *g, SchMove m, int kind, SchError *err) {
    if (!check_playable(g, m, err))
        return false;
    SchTermination t = granted_claim(sch_game_claims_with_move(g, m), kind);
    SchColor claimant = sch_pos_turn(&g->pos);
    if (!sch_game_play(g, m, err))
        return false;
    char text[6];
    move_text(m, text);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_CLAIM_VOID, text, NULL, NULL);
    if (t == SCH_TERM_NONE) {
        g->draw_offer = claimant; /* 9.1.2.4 */
        return sch_err_set(err, SCH_GAME_ERR_CLAIM_REJECTED, text, NULL, NULL);
    }
    set_outcome(g, SCH_RESULT_DRAW, t);
    return true;
}

bool sch_game_resign(SchGame *g, SchColor color, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    set_win(g, (SchColor)!color, SCH_TERM_RESIGNATION);
    return true;
}

bool sch_game_abandon(SchGame *g, SchColor color, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    set_win(g, (SchColor)!color, SCH_TERM_ABANDONED);
    return true;
}

bool sch_game_offer_draw(SchGame *g, SchColor color, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    if (g->draw_offer == (int)!color) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_AGREEMENT);
        return true;
    }
    g->draw_offer = color;
    return true;
}

/* Checks that color's opponent has an offer standing for color to answer. */
static bool check_offer_to(const SchGame *g, SchColor color, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    if (g->draw_offer != (int)!color)
        return sch_err_set(err, SCH_GAME_ERR_NO_OFFER, NULL, NULL, NULL);
    return true;
}

bool sch_game_accept_draw(SchGame *g, SchColor color, SchError *err) {
    if (!check_offer_to(g, color, err))
        return false;
    set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_AGREEMENT);
    return true;
}

bool sch_game_decline_draw(SchGame *g, SchColor color, SchError *err) {
    if (!check_offer_to(g, color, err))
        return false;
    g->draw_offer = -1;
    return true;
}

bool sch_game_time_forfeit(SchGame *g, SchColor color, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    static const SchWinLimits full = {false, SCH_GAME_FLAG_NODES};
    SchWinResult opponent;
    sch_can_checkmate(&g->pos, (SchColor)!color, &full, NULL, &opponent);
    return sch_game_time_forfeit_judged(g, color, &opponent, err);
}

bool sch_game_time_forfeit_judged(SchGame *g, SchColor color, const SchWinResult *opponent, SchError *err) {
    assert(color == SCH_WHITE || color == SCH_BLACK);
    if (sch_game_over(g))
        return sch_err_set(err, SCH_GAME_ERR_OVER, NULL, NULL, NULL);
    /* Where the analysis could not decide, the flag loses (6.9 asks for proof the opponent cannot
     * mate). */
    if (opponent->verdict != SCH_WIN_UNWINNABLE) {
        set_win(g, (SchColor)!color, SCH_TERM_TIME_FORFEIT);
    } else if (opponent->reason == SCH_WIN_REASON_BARE_KING || opponent->reason == SCH_WIN_REASON_MATERIAL) {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_TIMEOUT_INSUFFICIENT);
    } else {
        set_outcome(g, SCH_RESULT_DRAW, SCH_TERM_TIMEOUT_UNWINNABLE);
        g->outcome.reason = (int)opponent->reason;
    }
    return true;
}
