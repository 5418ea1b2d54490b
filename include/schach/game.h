/* libschach: a game record with every ending and claim of the FIDE Laws (articles 5 and 9).
 *
 * A Game starts from the standard position or a FEN, records every move with what is needed to undo
 * it, and decides automatic endings after each move: checkmate, stalemate, dead position by
 * insufficient material, fivefold repetition and the 75-move rule (checkmate on the last move takes
 * precedence, 9.6). The player to move may claim a draw by threefold repetition or the 50-move rule,
 * for the position on the board or together with the move that produces it (9.2.1, 9.3).
 * Repetition identity (9.2.2): same player to move, same pieces on the same squares, same castling
 * rights and an en passant square only when the capture is actually legal.
 * A Game owns heap memory for its history: release it with game_free().
 */
#ifndef SCHACH_GAME_H
#define SCHACH_GAME_H

#include <stddef.h>

#include "error.h"
#include "material.h" /* pos_insufficient_material: the dead position by material alone */
#include "position.h"
#include "winnable.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RESULT_NONE = 0, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW } Result;

typedef enum {
    TERM_NONE = 0,
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_INSUFFICIENT_MATERIAL,
    TERM_FIVEFOLD_REPETITION,
    TERM_SEVENTYFIVE_MOVES,
    TERM_THREEFOLD_REPETITION, /* claimed */
    TERM_FIFTY_MOVES,          /* claimed */
    TERM_RESIGNATION,
    TERM_AGREEMENT,
    TERM_TIME_FORFEIT,
    TERM_TIMEOUT_INSUFFICIENT, /* flag fell, but the opponent's material cannot mate (6.9): draw */
    TERM_ABANDONED,
    TERM_DEAD_POSITION,      /* neither side can mate by any series of legal moves, though material could (5.2.2) */
    TERM_TIMEOUT_UNWINNABLE, /* flag fell; the opponent has mating material but no series of moves mates (6.9) */
    TERM_NB
} Termination;

typedef struct Outcome {
    Result result;
    Termination termination;
    Color winner; /* meaningful for RESULT_WHITE_WINS / RESULT_BLACK_WINS only */
    int reason;   /* WinReason (winnable.h) behind TERM_DEAD_POSITION / TERM_TIMEOUT_UNWINNABLE, else 0 */
} Outcome;

/* Claims available to the player to move, as bits. */
enum { CLAIM_THREEFOLD = 1, CLAIM_FIFTY = 2 };

enum {
    GAME_ERR_OVER = 400, /* the game is already over */
    GAME_ERR_ILLEGAL,    /* %1: the move is not legal */
    GAME_ERR_NOTHING_TO_UNDO,
    GAME_ERR_NO_CLAIM, /* no threefold repetition or 50-move claim is possible */
    GAME_ERR_NO_OFFER, /* no draw offer to accept or decline */
    /* game.c may add codes below this line */
    GAME_ERR_CLAIM_REJECTED, /* %1: the move: claim with a move was incorrect; the move stands (9.5) */
    GAME_ERR_CLAIM_VOID,     /* %1: the move: it ended the game by itself, so the claim does not apply */
};

typedef struct GamePly {
    Move move;
    Undo undo;
    uint64_t key; /* repetition key of the position after the move */
} GamePly;

typedef struct Game {
    Position start;     /* where the game began */
    Position pos;       /* the current position */
    uint64_t start_key; /* repetition key of start */
    GamePly *plies;     /* history, plies[0] is the first move */
    int ply_count;
    int ply_capacity;
    Outcome outcome;   /* RESULT_NONE while the game goes on */
    int draw_offer;    /* -1 none, else the Color that offered a draw still standing */
    uint8_t dead_mode; /* GameDeadMode: who decides dead positions beyond material */
    bool dead_pending; /* the quick pass could not settle the current position; see game_dead_pending */
} Game;

/* Node budgets of the analyses a game runs: the full dead-position analysis after a move whose
 * position the quick pass could not settle, and the 6.9 analysis at a flag fall. */
#define GAME_DEAD_NODES 100000
#define GAME_FLAG_NODES 200000

/* Starts a game from the standard position. */
void game_init(Game *g);
/* Starts a game from a FEN; false with err set when the FEN is invalid (g is then a fresh game from
 * the standard position). A FEN that is already mate, stalemate, dead or past the 75-move rule gives
 * a game that is over at once. */
bool game_init_fen(Game *g, const char *fen, SchError *err);
/* Releases the history. g may be reused with game_init afterwards. */
void game_free(Game *g);
/* Deep copy of src into dst (dst must not hold memory). false when out of memory. */
bool game_copy(Game *dst, const Game *src);

/* Plays m; false with err (GAME_ERR_OVER, GAME_ERR_ILLEGAL, ERR_OUT_OF_MEMORY) when it cannot.
 * After the move the automatic endings are decided. A standing draw offer by the mover stays; one by
 * the opponent lapses (a move declines it). */
bool game_play(Game *g, Move m, SchError *err);
/* Takes back the last move, also undoing an automatic ending it caused, and withdraws any standing
 * draw offer. false when there is no move, or when the game ended by claim, agreement, resignation,
 * time or abandonment: those endings are final. */
bool game_undo(Game *g);

static inline const Position *game_position(const Game *g) { return &g->pos; }
static inline bool game_over(const Game *g) { return g->outcome.result != RESULT_NONE; }

/* CLAIM_* bits the player to move could claim now on the position on the board. */
int game_claims(const Game *g);
/* CLAIM_* bits that would hold after the player to move plays m (9.2.1.1, 9.3.1); m must be legal. */
int game_claims_with_move(const Game *g, Move m);
/* Claims a draw now (kind: CLAIM_THREEFOLD or CLAIM_FIFTY, or 0 for whichever holds, threefold
 * first). false with GAME_ERR_NO_CLAIM when it is incorrect; that claim then counts as a draw offer
 * by the player to move (9.1.2.4). */
bool game_claim(Game *g, int kind, SchError *err);
/* Plays m and claims the draw it produces. Returns true only when the draw was granted. false with
 * err: GAME_ERR_OVER / GAME_ERR_ILLEGAL (nothing played); GAME_ERR_CLAIM_REJECTED (incorrect claim:
 * m is played, the game goes on (9.5) and the claim counts as a draw offer (9.1.2.4));
 * GAME_ERR_CLAIM_VOID (m itself ended the game, e.g. by checkmate, and that ending stands). */
bool game_claim_with_move(Game *g, Move m, int kind, SchError *err);

/* Ends the game: color resigns. */
bool game_resign(Game *g, Color color, SchError *err);
/* color offers a draw; the offer stands until the opponent accepts, declines or moves (a move by
 * the offerer keeps it standing). An offer while the opponent's own offer stands accepts that one. */
bool game_offer_draw(Game *g, Color color, SchError *err);
bool game_accept_draw(Game *g, Color color, SchError *err);
bool game_decline_draw(Game *g, Color color, SchError *err);
/* color's flag fell: a loss, or a draw when the opponent cannot mate by any series of legal moves
 * (6.9), decided by the full analysis (GAME_FLAG_NODES); where it is undetermined the flag loses. */
bool game_time_forfeit(Game *g, Color color, SchError *err);
/* The same with the opponent's winnability already decided by the caller (can_checkmate of the
 * current position for !color, e.g. on a worker thread). */
bool game_time_forfeit_judged(Game *g, Color color, const WinResult *opponent, SchError *err);

/* Dead positions (5.2.2). After every move (and at game_init_fen) the game runs the quick analysis;
 * when it finds a locked structure it cannot settle, the game runs the full analysis with
 * GAME_DEAD_NODES itself (GAME_DEAD_INLINE, the default) — unless the caller deferred it
 * (GAME_DEAD_DEFER): then game_dead_pending() is true and the caller runs dead_position() on a copy
 * of the position where it likes (a worker thread) and hands the result to game_settle_dead().
 * GAME_DEAD_MATERIAL_ONLY ends games by material alone, for readers of recorded games that go on
 * past a dead position (pgn reading; `schach pgn check` reports where the position died). */
typedef enum { GAME_DEAD_INLINE = 0, GAME_DEAD_DEFER, GAME_DEAD_MATERIAL_ONLY } GameDeadMode;
/* Applies from the next move on. */
void game_set_dead_mode(Game *g, GameDeadMode mode);
/* game_init_fen with a dead-position mode that already applies to the starting position. */
bool game_init_fen_mode(Game *g, const char *fen, GameDeadMode mode, SchError *err);
/* game_set_dead_mode(g, defer ? GAME_DEAD_DEFER : GAME_DEAD_INLINE). */
void game_defer_dead_analysis(Game *g, bool defer);
static inline bool game_dead_pending(const Game *g) { return g->dead_pending && g->outcome.result == RESULT_NONE; }
/* res: dead_position()'s two results for the position after `ply_count` plies of this game. When
 * both are unwinnable the game ends (TERM_DEAD_POSITION) — also when moves were played since, as a
 * dead position stays dead; returns true then. Clears the pending flag when ply_count is current. */
bool game_settle_dead(Game *g, int ply_count, const WinResult res[2]);
/* color abandons the game (leaves, does not come back): the opponent wins. */
bool game_abandon(Game *g, Color color, SchError *err);
/* accept/decline/resign/offer/forfeit/abandon fail with GAME_ERR_OVER once the game is over;
 * accept/decline fail with GAME_ERR_NO_OFFER when the opponent has no offer standing. */

/* How many times the current position has occurred (including now), by repetition identity. */
int game_repetitions(const Game *g);
/* Repetition key of a position (Zobrist key with ep only when the capture is legal). */
uint64_t game_repetition_key(const Position *pos);
/* Repetition key of the position after `index` plies (0: the start, ply_count: now). */
uint64_t game_key_at(const Game *g, int index);

/* Names: "1-0", "0-1", "1/2-1/2", "*". */
const char *result_string(Result r);
/* Machine name of a termination: "checkmate", "stalemate", "insufficient_material",
 * "fivefold_repetition", "seventyfive_moves", "threefold_repetition", "fifty_moves", "resignation",
 * "agreement", "time_forfeit", "timeout_insufficient_material", "abandoned", "dead_position", "timeout_unwinnable"; NULL for TERM_NONE. */
const char *termination_name(Termination t);
/* One sentence for people, e.g. "Checkmate – White wins 1-0" / "Schachmatt – Weiß gewinnt 1:0". */
size_t outcome_describe(const Outcome *o, Lang lang, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
