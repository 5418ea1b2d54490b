/* A game record: moves with undo data, automatic endings, claims, offers and other endings
 * (FIDE Laws, articles 5, 6.9 and 9). */
#include "schach/game.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/winnable.h"
#include "core/init.h"

/* Halfmove clock values of the 50- and 75-move rules. */
#define FIFTY_MOVE_PLIES       100
#define SEVENTYFIVE_MOVE_PLIES 150

uint64_t game_repetition_key(const Position *pos) {
    /* An ep square whose capture is not legal gives no different possibilities (9.2.2), so it
     * must not make the position different. */
    if (pos->ep != SQ_NONE && !gen_ep_legal(pos))
        return pos->key ^ zobrist_ep_file[square_file((Square)pos->ep)];
    return pos->key;
}

/* "e2e4", "e7e8q": names the move in errors without depending on the notation module. */
static void move_text(Move m, char buf[6]) {
    square_name(move_from(m), buf);
    square_name(move_to(m), buf + 2);
    buf[4] = move_kind(m) == MOVE_PROMOTION ? "nbrq"[move_promotion(m) - KNIGHT] : '\0';
    buf[5] = '\0';
}

static void set_outcome(Game *g, Result r, Termination t) {
    g->outcome.result = r;
    g->outcome.termination = t;
    g->outcome.winner = r == RESULT_BLACK_WINS ? BLACK : WHITE;
    g->outcome.reason = 0;
    g->draw_offer = -1;
    g->dead_pending = false;
}

/* The reason to show for a dead position: the one of the side that had mating material. */
static int dead_reason(const WinResult res[2]) {
    for (int c = 0; c < 2; c++)
        if (res[c].reason != WIN_REASON_BARE_KING && res[c].reason != WIN_REASON_MATERIAL)
            return (int)res[c].reason;
    return (int)res[WHITE].reason;
}

/* 5.2.2 beyond material: the quick analysis, then the full one with a small budget when the quick
 * pass found a locked structure it could not settle (or leaves that to the caller). */
static void decide_dead(Game *g) {
    if (g->dead_mode == GAME_DEAD_MATERIAL_ONLY)
        return;
    static const WinLimits quick = {true, 0};
    static const WinLimits full = {false, GAME_DEAD_NODES};
    WinResult res[2];
    Winnability v = dead_position(&g->pos, &quick, NULL, res);
    if (v == WIN_UNDETERMINED && (res[WHITE].blockade || res[BLACK].blockade)) {
        if (g->dead_mode == GAME_DEAD_DEFER) {
            g->dead_pending = true;
            return;
        }
        v = dead_position(&g->pos, &full, NULL, res);
    }
    if (v == WIN_UNWINNABLE) {
        set_outcome(g, RESULT_DRAW, TERM_DEAD_POSITION);
        g->outcome.reason = dead_reason(res);
    }
}

static void set_win(Game *g, Color winner, Termination t) {
    set_outcome(g, winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, t);
}

/* Repetition key of the position after `index` plies (0 = the start). */
uint64_t game_key_at(const Game *g, int index) { return index == 0 ? g->start_key : g->plies[index - 1].key; }

/* How often key occurs among the positions before index `at` that could still equal the position
 * at `at`: a capture or pawn move (halfmove clock reset) can never be undone, so only the last
 * `halfmove` plies matter, and only those with the same player to move. */
static int count_earlier(const Game *g, uint64_t key, int at, int halfmove) {
    int lowest = at - halfmove < 0 ? 0 : at - halfmove;
    int n = 0;
    for (int i = at - 2; i >= lowest; i -= 2)
        n += game_key_at(g, i) == key;
    return n;
}

int game_repetitions(const Game *g) {
    return 1 + count_earlier(g, game_key_at(g, g->ply_count), g->ply_count, g->pos.halfmove);
}

/* The automatic endings of the position on the board. Mate and stalemate come first: they end the
 * game at once (5.1.1, 5.2.1), and 9.6 lets a checkmate on the last move take precedence. */
static void decide_automatic(Game *g) {
    const Position *pos = &g->pos;
    g->dead_pending = false;
    if (!gen_has_legal_move(pos)) {
        if (pos_in_check(pos))
            set_win(g, (Color)!pos_turn(pos), TERM_CHECKMATE);
        else
            set_outcome(g, RESULT_DRAW, TERM_STALEMATE);
    } else if (pos_insufficient_material(pos)) {
        set_outcome(g, RESULT_DRAW, TERM_INSUFFICIENT_MATERIAL);
    } else if (game_repetitions(g) >= 5) {
        set_outcome(g, RESULT_DRAW, TERM_FIVEFOLD_REPETITION);
    } else if (pos->halfmove >= SEVENTYFIVE_MOVE_PLIES) {
        set_outcome(g, RESULT_DRAW, TERM_SEVENTYFIVE_MOVES);
    } else {
        decide_dead(g);
    }
}

void game_set_dead_mode(Game *g, GameDeadMode mode) {
    g->dead_mode = (uint8_t)mode;
    g->dead_pending = false;
}

void game_defer_dead_analysis(Game *g, bool defer) {
    game_set_dead_mode(g, defer ? GAME_DEAD_DEFER : GAME_DEAD_INLINE);
}

bool game_settle_dead(Game *g, int ply_count, const WinResult res[2]) {
    if (ply_count == g->ply_count)
        g->dead_pending = false;
    if (game_over(g) || ply_count < 0 || ply_count > g->ply_count)
        return false;
    if (res[WHITE].verdict != WIN_UNWINNABLE || res[BLACK].verdict != WIN_UNWINNABLE)
        return false;
    set_outcome(g, RESULT_DRAW, TERM_DEAD_POSITION);
    g->outcome.reason = dead_reason(res);
    return true;
}

static void init_from(Game *g, const Position *start) {
    g->start = *start;
    g->pos = *start;
    g->start_key = game_repetition_key(start);
    g->plies = NULL;
    g->ply_count = 0;
    g->ply_capacity = 0;
    g->outcome = (Outcome){RESULT_NONE, TERM_NONE, WHITE, 0};
    g->draw_offer = -1;
    g->dead_mode = GAME_DEAD_INLINE;
    g->dead_pending = false;
}

void game_init(Game *g) {
    schach_init();
    Position start;
    pos_set_start(&start);
    init_from(g, &start);
}

bool game_init_fen_mode(Game *g, const char *fen, GameDeadMode mode, SchError *err) {
    game_init(g);
    Position start;
    if (!fen_parse(&start, fen, err))
        return false;
    init_from(g, &start);
    g->dead_mode = (uint8_t)mode;
    decide_automatic(g);
    return true;
}

bool game_init_fen(Game *g, const char *fen, SchError *err) {
    return game_init_fen_mode(g, fen, GAME_DEAD_INLINE, err);
}

void game_free(Game *g) {
    free(g->plies);
    g->plies = NULL;
    g->ply_count = 0;
    g->ply_capacity = 0;
}

bool game_copy(Game *dst, const Game *src) {
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

static bool reserve_ply(Game *g) {
    if (g->ply_count < g->ply_capacity)
        return true;
    if (g->ply_capacity > INT_MAX / 2)
        return false;
    int capacity = g->ply_capacity ? g->ply_capacity * 2 : 128;
    GamePly *plies = realloc(g->plies, (size_t)capacity * sizeof *plies);
    if (!plies)
        return false;
    g->plies = plies;
    g->ply_capacity = capacity;
    return true;
}

/* Checks that m may be played now; sets err otherwise. */
static bool check_playable(const Game *g, Move m, SchError *err) {
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    if (!gen_is_legal(&g->pos, m)) {
        char text[6];
        move_text(m, text);
        return err_set(err, GAME_ERR_ILLEGAL, text, NULL, NULL);
    }
    return true;
}

bool game_play(Game *g, Move m, SchError *err) {
    if (!check_playable(g, m, err))
        return false;
    if (!reserve_ply(g))
        return err_set(err, ERR_OUT_OF_MEMORY, NULL, NULL, NULL);
    Color mover = pos_turn(&g->pos);
    GamePly *ply = &g->plies[g->ply_count++];
    ply->move = m;
    pos_make(&g->pos, m, &ply->undo);
    ply->key = game_repetition_key(&g->pos);
    /* Moving is the way to decline the opponent's offer (9.1.2.3); the mover's own offer stands. */
    if (g->draw_offer != -1 && g->draw_offer != (int)mover)
        g->draw_offer = -1;
    decide_automatic(g);
    return true;
}

static bool automatic_ending(Termination t) {
    return t == TERM_CHECKMATE || t == TERM_STALEMATE || t == TERM_INSUFFICIENT_MATERIAL || t == TERM_DEAD_POSITION ||
           t == TERM_FIVEFOLD_REPETITION || t == TERM_SEVENTYFIVE_MOVES;
}

bool game_undo(Game *g) {
    if (g->ply_count == 0)
        return false;
    if (game_over(g) && !automatic_ending(g->outcome.termination))
        return false;
    const GamePly *ply = &g->plies[--g->ply_count];
    pos_unmake(&g->pos, ply->move, &ply->undo);
    g->outcome = (Outcome){RESULT_NONE, TERM_NONE, WHITE, 0};
    g->draw_offer = -1;
    /* The position before was not dead (or the game would have ended there); whether it still
     * waits for the caller's full analysis is the caller's to ask again after an undo. */
    g->dead_pending = false;
    return true;
}

int game_claims(const Game *g) {
    if (game_over(g))
        return 0;
    int claims = 0;
    if (game_repetitions(g) >= 3)
        claims |= CLAIM_THREEFOLD;
    if (g->pos.halfmove >= FIFTY_MOVE_PLIES)
        claims |= CLAIM_FIFTY;
    return claims;
}

int game_claims_with_move(const Game *g, Move m) {
    if (game_over(g) || !gen_is_legal(&g->pos, m))
        return 0;
    Position after = g->pos;
    Undo undo;
    pos_make(&after, m, &undo);
    int claims = 0;
    int at = g->ply_count + 1;
    if (1 + count_earlier(g, game_repetition_key(&after), at, after.halfmove) >= 3)
        claims |= CLAIM_THREEFOLD;
    if (after.halfmove >= FIFTY_MOVE_PLIES)
        claims |= CLAIM_FIFTY;
    return claims;
}

/* The claim granted out of the available ones for a requested kind (0: any), threefold first. */
static Termination granted_claim(int available, int kind) {
    int wanted = kind ? kind : CLAIM_THREEFOLD | CLAIM_FIFTY;
    int hold = available & wanted;
    if (hold & CLAIM_THREEFOLD)
        return TERM_THREEFOLD_REPETITION;
    if (hold & CLAIM_FIFTY)
        return TERM_FIFTY_MOVES;
    return TERM_NONE;
}

bool game_claim(Game *g, int kind, SchError *err) {
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    Termination t = granted_claim(game_claims(g), kind);
    if (t == TERM_NONE) {
        g->draw_offer = pos_turn(&g->pos); /* 9.1.2.4 */
        return err_set(err, GAME_ERR_NO_CLAIM, NULL, NULL, NULL);
    }
    set_outcome(g, RESULT_DRAW, t);
    return true;
}

bool game_claim_with_move(Game *g, Move m, int kind, SchError *err) {
    if (!check_playable(g, m, err))
        return false;
    Termination t = granted_claim(game_claims_with_move(g, m), kind);
    Color claimant = pos_turn(&g->pos);
    if (!game_play(g, m, err))
        return false;
    char text[6];
    move_text(m, text);
    if (game_over(g))
        return err_set(err, GAME_ERR_CLAIM_VOID, text, NULL, NULL);
    if (t == TERM_NONE) {
        g->draw_offer = claimant; /* 9.1.2.4 */
        return err_set(err, GAME_ERR_CLAIM_REJECTED, text, NULL, NULL);
    }
    set_outcome(g, RESULT_DRAW, t);
    return true;
}

bool game_resign(Game *g, Color color, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    set_win(g, (Color)!color, TERM_RESIGNATION);
    return true;
}

bool game_abandon(Game *g, Color color, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    set_win(g, (Color)!color, TERM_ABANDONED);
    return true;
}

bool game_offer_draw(Game *g, Color color, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    if (g->draw_offer == (int)!color) {
        set_outcome(g, RESULT_DRAW, TERM_AGREEMENT);
        return true;
    }
    g->draw_offer = color;
    return true;
}

/* Checks that color's opponent has an offer standing for color to answer. */
static bool check_offer_to(const Game *g, Color color, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    if (g->draw_offer != (int)!color)
        return err_set(err, GAME_ERR_NO_OFFER, NULL, NULL, NULL);
    return true;
}

bool game_accept_draw(Game *g, Color color, SchError *err) {
    if (!check_offer_to(g, color, err))
        return false;
    set_outcome(g, RESULT_DRAW, TERM_AGREEMENT);
    return true;
}

bool game_decline_draw(Game *g, Color color, SchError *err) {
    if (!check_offer_to(g, color, err))
        return false;
    g->draw_offer = -1;
    return true;
}

bool game_time_forfeit(Game *g, Color color, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    static const WinLimits full = {false, GAME_FLAG_NODES};
    WinResult opponent;
    can_checkmate(&g->pos, (Color)!color, &full, NULL, &opponent);
    return game_time_forfeit_judged(g, color, &opponent, err);
}

bool game_time_forfeit_judged(Game *g, Color color, const WinResult *opponent, SchError *err) {
    assert(color == WHITE || color == BLACK);
    if (game_over(g))
        return err_set(err, GAME_ERR_OVER, NULL, NULL, NULL);
    /* Where the analysis could not decide, the flag loses (6.9 asks for proof the opponent cannot
     * mate). */
    if (opponent->verdict != WIN_UNWINNABLE) {
        set_win(g, (Color)!color, TERM_TIME_FORFEIT);
    } else if (opponent->reason == WIN_REASON_BARE_KING || opponent->reason == WIN_REASON_MATERIAL) {
        set_outcome(g, RESULT_DRAW, TERM_TIMEOUT_INSUFFICIENT);
    } else {
        set_outcome(g, RESULT_DRAW, TERM_TIMEOUT_UNWINNABLE);
        g->outcome.reason = (int)opponent->reason;
    }
    return true;
}
