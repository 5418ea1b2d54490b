/* libschach: can a side still checkmate? Dead positions (FIDE Laws 1.3, 5.2.2) and flag falls (6.9).
 *
 * A position is winnable for a colour when some series of legal moves — both sides' moves, the
 * opponent cooperating — ends in checkmate by that colour. It is dead when it is winnable for
 * neither. can_checkmate() answers for one colour:
 *
 *   WIN_WINNABLE      with a proof: a helpmate line (legal moves from the position, ending in
 *                     checkmate by that colour). Replay it with pos_make to check it.
 *   WIN_UNWINNABLE    with a reason a person can read (insufficient material, locked pawns, trapped
 *                     pieces, every reachable position examined). Sound: never said of a position
 *                     where a helpmate exists.
 *   WIN_UNDETERMINED  the budget ran out first.
 *
 * Two modes. Quick (limits.quick): material rules, a static analysis of locked pawn structures and
 * a tiny search; cheap enough to run after every move of every game (about a microsecond). Full:
 * the same, then a helpmate search and, for closed positions, an exhaustive search of every
 * reachable position, bounded by limits.nodes.
 *
 * The move rules (50/75-move rule, repetitions) do not cut series of moves short here: 1.3 and 5.2.2
 * ask whether any series of legal moves can reach checkmate.
 *
 * Memory: the full mode keeps a transposition table in a WinWork the caller owns (win_work_new) or,
 * when work is NULL, in one per thread, made on the first full analysis of that thread and freed
 * when the thread ends. Nothing is allocated per call.
 */
#ifndef SCHACH_WINNABLE_H
#define SCHACH_WINNABLE_H

#include <stddef.h>
#include <stdint.h>

#include "material.h" /* win_material_insufficient: the analysis' first rule, declared with the material module */
#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { WIN_UNDETERMINED = 0, WIN_WINNABLE, WIN_UNWINNABLE } Winnability;

/* Why a colour cannot checkmate. */
typedef enum {
    WIN_REASON_NONE = 0,
    WIN_REASON_CHECKMATED, /* that colour is checkmated: the game is over */
    WIN_REASON_STALEMATE,  /* the side to move is stalemated: the game is over */
    WIN_REASON_BARE_KING,  /* only the king is left: a king never gives check */
    WIN_REASON_MATERIAL,   /* insufficient material: K+N v K, bishops that can never cover the king's escape */
    WIN_REASON_LOCKED,     /* the pawns are locked and no piece can break through to the enemy king */
    WIN_REASON_TRAPPED,    /* the pieces that could give check are trapped and can never reach the king */
    WIN_REASON_EXHAUSTED,  /* every position any series of moves can reach was examined: none is mate */
    WIN_REASON_NB
} WinReason;

/* Longest helpmate line a result holds (plies). */
#define WIN_LINE_MAX 256

/* Node budget of the full mode when limits.nodes is 0. */
#define WIN_DEFAULT_NODES 200000

typedef struct WinLimits {
    bool quick;     /* quick mode: static analysis and a tiny search only */
    uint64_t nodes; /* full mode: positions the searches may visit in all; 0 = WIN_DEFAULT_NODES */
} WinLimits;

typedef struct WinResult {
    Winnability verdict;
    WinReason reason;        /* WIN_UNWINNABLE: why; else WIN_REASON_NONE */
    int line_len;            /* WIN_WINNABLE: plies in line (0 when the opponent is already mated) */
    Move line[WIN_LINE_MAX]; /* WIN_WINNABLE: the helpmate, legal moves from the position */
    uint64_t nodes;          /* positions visited */
    bool blockade;           /* quick mode, undetermined: the pawns are (nearly) locked, so the full
                                * analysis may settle what the quick one could not */
} WinResult;

/* A reusable work area for the full mode (a transposition table of about tt_bytes; 0 = 4 MiB). One
 * thread at a time. NULL when out of memory. */
typedef struct WinWork WinWork;
WinWork *win_work_new(size_t tt_bytes);
void win_work_free(WinWork *work);

/* Whether color can still checkmate in pos (pos must be a legal position, e.g. from fen_parse).
 * limits may be NULL (full mode, default budget); work may be NULL (the thread's own area).
 * Fills *out (may be NULL) and returns its verdict. */
Winnability can_checkmate(const Position *pos, Color color, const WinLimits *limits, WinWork *work, WinResult *out);

/* Whether r holds a proof for color: its line is legal from pos and ends with color's opponent
 * checkmated (can_checkmate checks every proof with this before it returns it). */
bool win_proof_valid(const Position *pos, Color color, const WinResult *r);

/* The dead-position test (5.2.2): WIN_UNWINNABLE when neither colour can checkmate (dead),
 * WIN_WINNABLE when one of them can, else WIN_UNDETERMINED. res (may be NULL) receives both colours'
 * results, res[WHITE] and res[BLACK]; a colour not analysed (because the other was already
 * winnable) is left WIN_UNDETERMINED. In quick mode, res[..].blockade says whether the full analysis
 * is worth running. */
Winnability dead_position(const Position *pos, const WinLimits *limits, WinWork *work, WinResult res[2]);

/* Machine name of a reason ("insufficient_material", "locked_pawns", ...); NULL for WIN_REASON_NONE. */
const char *win_reason_name(WinReason reason);
/* The reason as words for people, e.g. "the pawns are locked and no piece can break through" /
 * "die Bauernketten sind blockiert, keine Figur kann durchbrechen". Never NULL. */
const char *win_reason_text(WinReason reason, Lang lang);
/* Machine name of a verdict: "winnable", "unwinnable", "undetermined". */
const char *win_verdict_name(Winnability verdict);

#ifdef __cplusplus
}
#endif

#endif
