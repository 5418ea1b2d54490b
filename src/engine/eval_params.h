/* Engine: every evaluation weight in one table, for hand tuning and for the Texel tuner.
 *
 * A weight is a Score: a middlegame and an endgame value packed into one int32 (eg * 65536 + mg), so
 * that terms add up with one instruction; the evaluation blends the two by game phase at the end.
 * Weights are centipawns from white's point of view; the same weight applies mirrored to black.
 *
 * The table is indexed by the EP_* constants below. Groups (piece-square tables, mobility, ranks)
 * take several consecutive entries; the comment says how the offset inside a group is formed.
 */
#ifndef SCHACH_ENGINE_EVAL_PARAMS_H
#define SCHACH_ENGINE_EVAL_PARAMS_H

#include <stdint.h>

typedef int32_t Score;

/* A constant expression, for the table; no overflow while |mg|, |eg| < 32768. */
#define S(mg, eg) ((Score)((eg)*65536 + (mg)))
static inline int score_eg(Score s) { return (s + 32768) >> 16; }
static inline int score_mg(Score s) { return s - score_eg(s) * 65536; }

/* clang-format off */
enum {
    EP_MATERIAL = 0,                    /* + piece type (PAWN..QUEEN) */
    EP_PSQT = EP_MATERIAL + 5,          /* + type * 32 + rank * 4 + min(file, 7 - file), white's view */
    EP_MOB_KNIGHT = EP_PSQT + 6 * 32,   /* + safe squares attacked (0..8) */
    EP_MOB_BISHOP = EP_MOB_KNIGHT + 9,  /* + 0..13 */
    EP_MOB_ROOK = EP_MOB_BISHOP + 14,   /* + 0..14 */
    EP_MOB_QUEEN = EP_MOB_ROOK + 15,    /* + 0..27 */
    EP_PAWN_DOUBLED = EP_MOB_QUEEN + 28,
    EP_PAWN_ISOLATED,
    EP_PAWN_BACKWARD,
    EP_PAWN_CONNECTED,                  /* + relative rank: defended by a pawn or beside one */
    EP_PASSED = EP_PAWN_CONNECTED + 8,  /* + relative rank */
    EP_PASSED_FREE = EP_PASSED + 8,     /* + relative rank: the path to promotion is unattacked */
    EP_PASSED_BLOCKED = EP_PASSED_FREE + 8, /* + relative rank: a piece stands in front */
    EP_PASSED_KING_OWN = EP_PASSED_BLOCKED + 8, /* per square of distance, times (rank - 2) */
    EP_PASSED_KING_THEIRS,              /* per square of distance, times (rank - 2) */
    EP_BISHOP_PAIR,
    EP_KNIGHT_OUTPOST,                  /* on a square no enemy pawn can attack, defended by a pawn */
    EP_BISHOP_OUTPOST,
    EP_MINOR_BEHIND_PAWN,
    EP_ROOK_OPEN_FILE,
    EP_ROOK_SEMI_OPEN_FILE,
    EP_ROOK_SEVENTH,
    EP_THREAT_BY_PAWN,                  /* a pawn attacks a piece */
    EP_THREAT_BY_MINOR,                 /* a knight or bishop attacks a rook or queen */
    EP_THREAT_BY_ROOK,                  /* a rook attacks a queen */
    EP_HANGING,                         /* an attacked piece nobody defends */
    EP_KING_ATTACK,                     /* + attacker type - KNIGHT: per attacked king-zone square */
    EP_SAFE_CHECK = EP_KING_ATTACK + 4, /* + checker type - KNIGHT: per safe checking square */
    EP_KING_SHELTER = EP_SAFE_CHECK + 4, /* + distance (0..7, 7 = no pawn) of our nearest pawn in front,
                                          * for the king's file and its two neighbours */
    EP_KING_OPEN_FILE = EP_KING_SHELTER + 8, /* no own pawn on the king's file or a neighbour */
    EP_TEMPO,
    EP_COUNT
};
/* clang-format on */

/* The weights. Only the tuner's output replaces the literal values in eval_params.c. */
extern const Score eval_params[EP_COUNT];

#endif
