/** @file
 * libschach: a game record with every ending and claim of the FIDE Laws (articles 5 and 9).
 *
 * A Game starts from the standard position or a FEN, records every move with what is needed to undo
 * it, and decides automatic endings after each move: checkmate, stalemate, dead position by
 * insufficient material, fivefold repetition and the 75-move rule (checkmate on the last move takes
 * precedence, 9.6). The player to move may claim a draw by threefold repetition or the 50-move rule,
 * for the position on the board or together with the move that produces it (9.2.1, 9.3).
 * Repetition identity (9.2.2): same player to move, same pieces on the same squares, same castling
 * rights and an en passant square only when the capture is actually legal.
 * A Game owns heap memory for its history: release it with sch_game_free().
 *
 * Out of memory: the functions that allocate (a game's history grows as moves are played) say so;
 * the others never allocate. The dead-position and 6.9 analyses a game runs use the thread's own
 * work area (winnable.h); where it cannot be allocated they stay undetermined: the game goes on, and
 * a flag fall loses.
 */
#ifndef SCH_GAME_H
#define SCH_GAME_H

#include <stddef.h>

#include "error.h"
#include "material.h" /* sch_pos_insufficient_material: the dead position by material alone */
#include "position.h"
#include "winnable.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The result of a game. */
typedef enum {
    SCH_RESULT_NONE = 0,   /**< the game goes on, or its result is unknown ("*") */
    SCH_RESULT_WHITE_WINS, /**< 1-0 */
    SCH_RESULT_BLACK_WINS, /**< 0-1 */
    SCH_RESULT_DRAW        /**< 1/2-1/2 */
} SchResult;

/** How a game ended. */
typedef enum {
    SCH_TERM_NONE = 0,              /**< not ended */
    SCH_TERM_CHECKMATE,             /**< checkmate (5.1.1) */
    SCH_TERM_STALEMATE,             /**< stalemate (5.2.1) */
    SCH_TERM_INSUFFICIENT_MATERIAL, /**< dead position by material alone (5.2.2) */
    SCH_TERM_FIVEFOLD_REPETITION,   /**< the same position a fifth time (9.6.1) */
    SCH_TERM_SEVENTYFIVE_MOVES,     /**< 75 moves by each side without capture or pawn move (9.6.2) */
    SCH_TERM_THREEFOLD_REPETITION,  /**< claimed */
    SCH_TERM_FIFTY_MOVES,           /**< claimed */
    SCH_TERM_RESIGNATION,           /**< a player resigned */
    SCH_TERM_AGREEMENT,             /**< draw by agreement */
    SCH_TERM_TIME_FORFEIT,          /**< a flag fell and the opponent could mate */
    SCH_TERM_TIMEOUT_INSUFFICIENT,  /**< flag fell, but the opponent's material cannot mate (6.9): draw */
    SCH_TERM_ABANDONED,             /**< a player left the game */
    SCH_TERM_DEAD_POSITION, /**< neither side can mate by any series of legal moves, though material could (5.2.2) */
    SCH_TERM_TIMEOUT_UNWINNABLE, /**< flag fell; the opponent has mating material but no series of moves mates (6.9) */
    SCH_TERM_NB                  /**< the number of terminations */
} SchTermination;

/** The end of a game: its result, how it came, who won. */
typedef struct SchOutcome {
    SchResult result;           /**< SCH_RESULT_NONE while the game goes on */
    SchTermination termination; /**< how the game ended */
    SchColor winner;            /**< meaningful for SCH_RESULT_WHITE_WINS / SCH_RESULT_BLACK_WINS only */
    int reason; /**< SchWinReason (winnable.h) behind SCH_TERM_DEAD_POSITION / SCH_TERM_TIMEOUT_UNWINNABLE, else 0 */
} SchOutcome;

/** Claims available to the player to move, as bits. */
enum { SCH_CLAIM_THREEFOLD = 1, SCH_CLAIM_FIFTY = 2 };

/** Error codes of the game module. */
enum {
    SCH_GAME_ERR_OVER = 400,      /**< the game is already over */
    SCH_GAME_ERR_ILLEGAL,         /**< %1: the move is not legal */
    SCH_GAME_ERR_NOTHING_TO_UNDO, /**< there is no move to take back */
    SCH_GAME_ERR_NO_CLAIM,        /**< no threefold repetition or 50-move claim is possible */
    SCH_GAME_ERR_NO_OFFER,        /**< no draw offer to accept or decline */
    /* game.c may add codes below this line */
    SCH_GAME_ERR_CLAIM_REJECTED,  /**< %1: the move: claim with a move was incorrect; the move stands (9.5) */
    SCH_GAME_ERR_CLAIM_VOID,      /**< %1: the move: it ended the game by itself, so the claim does not apply */
    SCH_GAME_ERR_CHESS960_NUMBER, /**< %1: the number, which is not 0-959 */
    SCH_GAME_ERR_NULL_IN_CHECK,   /**< the null move (SCH_MOVE_NULL) while the side to move is in check */
};

/** One ply of a game's history. */
typedef struct SchGamePly {
    SchMove move; /**< a legal move, or SCH_MOVE_NULL */
    SchUndo undo; /**< what taking the move back needs */
    uint64_t key; /**< repetition key of the position after the move */
} SchGamePly;

/** A game record (see the file's description). */
typedef struct SchGame {
    SchPosition start;  /**< where the game began */
    SchPosition pos;    /**< the current position */
    uint64_t start_key; /**< repetition key of start */
    SchGamePly *plies;  /**< history, plies[0] is the first move */
    int ply_count;      /**< plies played */
    int ply_capacity;   /**< plies there is room for */
    SchOutcome outcome; /**< SCH_RESULT_NONE while the game goes on */
    int draw_offer;     /**< -1 none, else the Color that offered a draw still standing */
    uint8_t dead_mode;  /**< SchGameDeadMode: who decides dead positions beyond material */
    bool dead_pending;  /**< the quick pass could not settle the current position; see sch_game_dead_pending */
} SchGame;

/** Node budget of the full dead-position analysis a game runs after a move whose position the quick
 * pass could not settle. */
#define SCH_GAME_DEAD_NODES 100000
/** Node budget of the 6.9 analysis at a flag fall. */
#define SCH_GAME_FLAG_NODES 200000

/** Starts a game from the standard position. */
void sch_game_init(SchGame *g);
/** Starts a game from a FEN; false with err set when the FEN is invalid (g is then a fresh game from
 * the standard position). A FEN that is already mate, stalemate, dead or past the 75-move rule gives
 * a game that is over at once. */
bool sch_game_init_fen(SchGame *g, const char *fen, SchError *err);
/** Starts a Chess960 game from start position number (0-959, Scharnagl numbering; sch_pos_set_chess960).
 * The game is a Chess960 game whatever the array looks like — also the 18 arrays whose castling looks
 * standard (king on e1, rooks on a1 and h1; 518 is the standard array itself), which a FEN cannot
 * tell from standard chess: castling is written king-takes-rook in UCI and the PGN gets
 * [Variant "Chess960"]. false with SCH_GAME_ERR_CHESS960_NUMBER when number is out of range (g is
 * then a fresh game from the standard position). */
bool sch_game_init_chess960(SchGame *g, int number, SchError *err);
/** Releases the history. g may be reused with sch_game_init afterwards. */
void sch_game_free(SchGame *g);
/** Deep copy of src into dst (dst must not hold memory). false when out of memory. */
bool sch_game_copy(SchGame *dst, const SchGame *src);

/** Plays m; false with err (SCH_GAME_ERR_OVER, SCH_GAME_ERR_ILLEGAL, SCH_GAME_ERR_NULL_IN_CHECK,
 * SCH_ERR_OUT_OF_MEMORY) when it cannot. After the move the automatic endings are decided. A standing
 * draw offer by the mover stays; one by the opponent lapses (a move declines it).
 * m may be the null move SCH_MOVE_NULL (types.h), for records of analysis such as PGN's "--": it
 * passes the turn (no en passant square, the halfmove clock goes on) while the side to move is not in
 * check, and is refused in check (SCH_GAME_ERR_NULL_IN_CHECK). The FIDE Laws know no such move; the
 * record treats it as a ply like any other: repetitions (a position before it can repeat after it),
 * the 50- and 75-move rules, claims and the automatic endings after it (e.g. stalemate of the
 * opponent) count it, and sch_game_undo takes it back. Whoever walks plies[] must expect it:
 * sch_pos_make, sch_gen_is_legal and UCI have no null move (sch_game_make_ply plays either). */
bool sch_game_play(SchGame *g, SchMove m, SchError *err);
/** Plays a ply of a record, m (a legal move in pos, or SCH_MOVE_NULL while pos is not in check), on pos:
 * sch_pos_make, or sch_pos_make_null for the null move. For walking plies[] from start. */
void sch_game_make_ply(SchPosition *pos, SchMove m, SchUndo *undo);
/** Takes back the last move (never allocates), also undoing an automatic ending it caused, and
 * withdraws any standing draw offer. false when there is no move, or when the game ended by claim,
 * agreement, resignation, time or abandonment: those endings are final. */
bool sch_game_undo(SchGame *g);

/** The current position. */
static inline const SchPosition *sch_game_position(const SchGame *g) { return &g->pos; }
/** Whether the game has ended (outcome.result is not SCH_RESULT_NONE). */
static inline bool sch_game_over(const SchGame *g) { return g->outcome.result != SCH_RESULT_NONE; }

/** CLAIM_* bits the player to move could claim now on the position on the board. */
int sch_game_claims(const SchGame *g);
/** CLAIM_* bits that would hold after the player to move plays m (9.2.1.1, 9.3.1); m must be legal or
 * the null move (then not in check), else 0. */
int sch_game_claims_with_move(const SchGame *g, SchMove m);
/** Claims a draw now (kind: SCH_CLAIM_THREEFOLD or SCH_CLAIM_FIFTY, or 0 for whichever holds, threefold
 * first). false with SCH_GAME_ERR_NO_CLAIM when it is incorrect; that claim then counts as a draw offer
 * by the player to move (9.1.2.4). */
bool sch_game_claim(SchGame *g, int kind, SchError *err);
/** Plays m and claims the draw it produces. Returns true only when the draw was granted. false with
 * err: SCH_GAME_ERR_OVER / SCH_GAME_ERR_ILLEGAL / SCH_GAME_ERR_NULL_IN_CHECK / SCH_ERR_OUT_OF_MEMORY
 * (nothing played); SCH_GAME_ERR_CLAIM_REJECTED (incorrect claim:
 * m is played, the game goes on (9.5) and the claim counts as a draw offer (9.1.2.4));
 * SCH_GAME_ERR_CLAIM_VOID (m itself ended the game, e.g. by checkmate, and that ending stands). */
bool sch_game_claim_with_move(SchGame *g, SchMove m, int kind, SchError *err);

/* Resigning, offers, flag falls and abandoning fail with SCH_GAME_ERR_OVER once the game is over. */

/** Ends the game: color resigns. false with SCH_GAME_ERR_OVER when the game is over. */
bool sch_game_resign(SchGame *g, SchColor color, SchError *err);
/** color offers a draw; the offer stands until the opponent accepts, declines or moves (a move by
 * the offerer keeps it standing). An offer while the opponent's own offer stands accepts that one.
 * false with SCH_GAME_ERR_OVER when the game is over. */
bool sch_game_offer_draw(SchGame *g, SchColor color, SchError *err);
/** color accepts the opponent's standing offer: a draw by agreement. false with SCH_GAME_ERR_OVER
 * when the game is over, SCH_GAME_ERR_NO_OFFER when the opponent has no offer standing. */
bool sch_game_accept_draw(SchGame *g, SchColor color, SchError *err);
/** color declines the opponent's standing offer. false with SCH_GAME_ERR_OVER when the game is over,
 * SCH_GAME_ERR_NO_OFFER when the opponent has no offer standing. */
bool sch_game_decline_draw(SchGame *g, SchColor color, SchError *err);
/** color's flag fell: a loss, or a draw when the opponent cannot mate by any series of legal moves
 * (6.9), decided by the full analysis (SCH_GAME_FLAG_NODES); where it is undetermined the flag loses.
 * false with SCH_GAME_ERR_OVER when the game is over. */
bool sch_game_time_forfeit(SchGame *g, SchColor color, SchError *err);
/** The same with the opponent's winnability already decided by the caller (sch_can_checkmate of the
 * current position for !color, e.g. on a worker thread). */
bool sch_game_time_forfeit_judged(SchGame *g, SchColor color, const SchWinResult *opponent, SchError *err);

/** Dead positions (5.2.2). After every move (and at sch_game_init_fen) the game runs the quick analysis;
 * when it finds a locked structure it cannot settle, the game runs the full analysis with
 * SCH_GAME_DEAD_NODES itself (SCH_GAME_DEAD_INLINE, the default) — unless the caller deferred it
 * (SCH_GAME_DEAD_DEFER): then sch_game_dead_pending() is true and the caller runs sch_dead_position() on a copy
 * of the position where it likes (a worker thread) and hands the result to sch_game_settle_dead().
 * SCH_GAME_DEAD_MATERIAL_ONLY ends games by material alone, for readers of recorded games that go on
 * past a dead position (pgn reading; `schach pgn check` reports where the position died). */
typedef enum {
    SCH_GAME_DEAD_INLINE = 0,   /**< the game runs the full analysis itself (the default) */
    SCH_GAME_DEAD_DEFER,        /**< the caller runs it and hands the result to sch_game_settle_dead() */
    SCH_GAME_DEAD_MATERIAL_ONLY /**< dead positions by material alone */
} SchGameDeadMode;
/** Applies from the next move on. */
void sch_game_set_dead_mode(SchGame *g, SchGameDeadMode mode);
/** sch_game_init_fen with a dead-position mode that already applies to the starting position. */
bool sch_game_init_fen_mode(SchGame *g, const char *fen, SchGameDeadMode mode, SchError *err);
/** sch_game_set_dead_mode(g, defer ? SCH_GAME_DEAD_DEFER : SCH_GAME_DEAD_INLINE). */
void sch_game_defer_dead_analysis(SchGame *g, bool defer);
/** Whether the current position waits for the full dead-position analysis the caller deferred. */
static inline bool sch_game_dead_pending(const SchGame *g) {
    return g->dead_pending && g->outcome.result == SCH_RESULT_NONE;
}
/** res: sch_dead_position()'s two results for the position after `ply_count` plies of this game. When
 * both are unwinnable the game ends (SCH_TERM_DEAD_POSITION) — also when moves were played since, as a
 * dead position stays dead; returns true then. Clears the pending flag when ply_count is current. */
bool sch_game_settle_dead(SchGame *g, int ply_count, const SchWinResult res[2]);
/** color abandons the game (leaves, does not come back): the opponent wins. false with
 * SCH_GAME_ERR_OVER when the game is over. */
bool sch_game_abandon(SchGame *g, SchColor color, SchError *err);

/** How many times the current position has occurred (including now), by repetition identity. */
int sch_game_repetitions(const SchGame *g);
/** Repetition key of a position (Zobrist key with ep only when the capture is legal). */
uint64_t sch_game_repetition_key(const SchPosition *pos);
/** Repetition key of the position after `index` plies (0: the start, ply_count: now). */
uint64_t sch_game_key_at(const SchGame *g, int index);

/** Where a position stood, for a repetition claim (what an arbiter asks for, 9.2): writes to plies, in
 * the order played and at most max of them, the indices (plies played: 0 the start, ply_count the
 * position on the board) after which the position stood, by repetition identity (same player to move,
 * pieces, castling rights and en passant possibilities). m SCH_MOVE_NONE: the position on the board
 * (also the final position of a game drawn by repetition); else a legal move m of the side to move:
 * the position m makes (a claim announced with the move, 9.2.1.1), listed last as index ply_count + 1.
 * Returns how many times the position stood (may exceed max; 1 when it never repeated), 0 when m is
 * neither SCH_MOVE_NONE nor a legal move of a game in play. plies may be NULL when max is 0. */
int sch_game_repetition_plies(const SchGame *g, SchMove m, int *plies, int max);

/** Most occurrences sch_game_repetition_describe lists (a fivefold repetition ends the game). */
#define SCH_GAME_REPETITION_MAX 5

/** The occurrences of sch_game_repetition_plies(g, m, ...) in words, with their move numbers: "the
 * position after 21…Kg7 stood after 23…Kg7 and 25…Kg7" / "dieselbe Stellung nach 21. … Kg7, 23. … Kg7
 * und 25. … Kg7"; the start position is "the starting position" / "zu Beginn". At most
 * SCH_GAME_REPETITION_MAX occurrences, the latest ones. Writes at most size bytes (NUL included, as
 * snprintf) and returns the length of the whole text; 0 with "" when the position stood only once or
 * m is not legal. */
size_t sch_game_repetition_describe(const SchGame *g, SchMove m, SchLang lang, char *buf, size_t size);

/** Names: "1-0", "0-1", "1/2-1/2", "*". */
const char *sch_result_string(SchResult r);
/** Machine name of a termination: "checkmate", "stalemate", "insufficient_material",
 * "fivefold_repetition", "seventyfive_moves", "threefold_repetition", "fifty_moves", "resignation",
 * "agreement", "time_forfeit", "timeout_insufficient_material", "abandoned", "dead_position",
 * "timeout_unwinnable"; NULL for SCH_TERM_NONE. */
const char *sch_termination_name(SchTermination t);
/** One sentence for people, e.g. "Checkmate – White wins 1-0" / "Schachmatt – Weiß gewinnt 1:0". */
size_t sch_outcome_describe(const SchOutcome *o, SchLang lang, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
