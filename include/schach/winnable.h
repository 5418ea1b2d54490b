/** @file
 * libschach: can a side still checkmate? Dead positions (FIDE Laws 1.3, 5.2.2) and flag falls (6.9).
 *
 * A position is winnable for a colour when some series of legal moves — both sides' moves, the
 * opponent cooperating — ends in checkmate by that colour. It is dead when it is winnable for
 * neither. sch_can_checkmate() answers for one colour:
 *
 *   SCH_WIN_WINNABLE      with a proof: a helpmate line (legal moves from the position, ending in
 *                     checkmate by that colour). Replay it with sch_pos_make to check it.
 *   SCH_WIN_UNWINNABLE    with a reason a person can read (insufficient material, locked pawns, trapped
 *                     pieces, every reachable position examined). Sound: never said of a position
 *                     where a helpmate exists.
 *   SCH_WIN_UNDETERMINED  the budget ran out first.
 *
 * Two modes. Quick (limits.quick): material rules, a static analysis of locked pawn structures and
 * a tiny search; cheap enough to run after every move of every game (about a microsecond). Full:
 * the same, then a helpmate search and, for closed positions, an exhaustive search of every
 * reachable position, bounded by limits.nodes.
 *
 * The move rules (50/75-move rule, repetitions) do not cut series of moves short here: 1.3 and 5.2.2
 * ask whether any series of legal moves can reach checkmate.
 *
 * Memory: the full mode keeps a transposition table in a SchWinWork the caller owns (sch_win_work_new) or,
 * when work is NULL, in one per thread, made on the first full analysis of that thread and freed
 * when the thread ends. Nothing is allocated per call.
 */
#ifndef SCH_WINNABLE_H
#define SCH_WINNABLE_H

#include <stddef.h>
#include <stdint.h>

#include "material.h" /* sch_win_material_insufficient: the analysis' first rule, declared with the material module */
#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The answer to "can this colour still checkmate?". */
typedef enum {
    SCH_WIN_UNDETERMINED = 0, /**< the budget ran out first */
    SCH_WIN_WINNABLE,         /**< yes: the result holds a helpmate as proof */
    SCH_WIN_UNWINNABLE        /**< no: the result holds the reason, a proof */
} SchWinnability;

/** Why a colour cannot checkmate. */
typedef enum {
    SCH_WIN_REASON_NONE = 0,
    SCH_WIN_REASON_CHECKMATED, /**< that colour is checkmated: the game is over */
    SCH_WIN_REASON_STALEMATE,  /**< the side to move is stalemated: the game is over */
    SCH_WIN_REASON_BARE_KING,  /**< only the king is left: a king never gives check */
    SCH_WIN_REASON_MATERIAL,   /**< insufficient material: K+N v K, bishops that can never cover the king's escape */
    SCH_WIN_REASON_LOCKED,     /**< the pawns are locked and no piece can break through to the enemy king */
    SCH_WIN_REASON_TRAPPED,    /**< the pieces that could give check are trapped and can never reach the king */
    SCH_WIN_REASON_EXHAUSTED,  /**< every position any series of moves can reach was examined: none is mate */
    SCH_WIN_REASON_NB
} SchWinReason;

/** Longest helpmate line a result holds (plies). */
#define SCH_WIN_LINE_MAX 256

/** Node budget of the full mode when limits.nodes is 0. */
#define SCH_WIN_DEFAULT_NODES 200000

/** How much an analysis may do. */
typedef struct SchWinLimits {
    bool quick;     /**< quick mode: static analysis and a tiny search only */
    uint64_t nodes; /**< full mode: positions the searches may visit in all; 0 = SCH_WIN_DEFAULT_NODES */
} SchWinLimits;

/** What an analysis found, with its proof. */
typedef struct SchWinResult {
    SchWinnability verdict;         /**< the answer */
    SchWinReason reason;            /**< SCH_WIN_UNWINNABLE: why; else SCH_WIN_REASON_NONE */
    int line_len;                   /**< SCH_WIN_WINNABLE: plies in line (0 when the opponent is already mated) */
    SchMove line[SCH_WIN_LINE_MAX]; /**< SCH_WIN_WINNABLE: the helpmate, legal moves from the position */
    uint64_t nodes;                 /**< positions visited */
    bool blockade;                  /**< quick mode, undetermined: the pawns are (nearly) locked, or the side
                                * to move is short of moves, so the full analysis may settle what the
                                * quick one could not */
} SchWinResult;

/** A reusable work area for the full mode (a transposition table of about tt_bytes; 0 = 4 MiB). One
 * thread at a time. NULL when out of memory. */
typedef struct SchWinWork SchWinWork;
/** A new work area (see above); NULL when out of memory. */
SchWinWork *sch_win_work_new(size_t tt_bytes);
/** Frees a work area; work may be NULL. */
void sch_win_work_free(SchWinWork *work);

/** Whether color can still checkmate in pos (pos must be a legal position, e.g. from sch_fen_parse).
 * limits may be NULL (full mode, default budget); work may be NULL (the thread's own area).
 * Fills *out (may be NULL) and returns its verdict. Out of memory: with work NULL the full mode
 * allocates the thread's area on its first call; when that fails the verdict is SCH_WIN_UNDETERMINED. */
SchWinnability sch_can_checkmate(const SchPosition *pos, SchColor color, const SchWinLimits *limits, SchWinWork *work,
                                 SchWinResult *out);

/** Whether r holds a proof for color: its line is legal from pos and ends with color's opponent
 * checkmated (sch_can_checkmate checks every proof with this before it returns it). */
bool sch_win_proof_valid(const SchPosition *pos, SchColor color, const SchWinResult *r);

/** The dead-position test (5.2.2): SCH_WIN_UNWINNABLE when neither colour can checkmate (dead),
 * SCH_WIN_WINNABLE when one of them can, else SCH_WIN_UNDETERMINED. res (may be NULL) receives both colours'
 * results, res[WHITE] and res[BLACK]; a colour not analysed (because the other was already
 * winnable) is left SCH_WIN_UNDETERMINED. In quick mode, res[..].blockade says whether the full analysis
 * is worth running. */
SchWinnability sch_dead_position(const SchPosition *pos, const SchWinLimits *limits, SchWinWork *work,
                                 SchWinResult res[2]);

/** Machine name of a reason ("insufficient_material", "locked_pawns", ...); NULL for SCH_WIN_REASON_NONE. */
const char *sch_win_reason_name(SchWinReason reason);
/** The reason as words for people, e.g. "the pawns are locked and no piece can break through" /
 * "die Bauernketten sind blockiert, keine Figur kann durchbrechen". Never NULL. */
const char *sch_win_reason_text(SchWinReason reason, SchLang lang);
/** Machine name of a verdict: "winnable", "unwinnable", "undetermined". */
const char *sch_win_verdict_name(SchWinnability verdict);

#ifdef __cplusplus
}
#endif

#endif
