/* The training records of the NNUE evaluation: one position, its search score and its game's result
 * in 32 bytes (docs/nnue.md describes the format). Shared by the generator (schach_tune selfplay
 * --out) and the trainer (nnue_train); header-only so that the trainer needs nothing of the engine.
 *
 * Layout, little-endian:
 *   0..7    occupancy bitboard (bit s set: a piece on square s, a1 = 0 .. h8 = 63)
 *   8..23   one 4-bit piece code per set bit of the occupancy, lowest square first, low nibble
 *           first: type + 6 * colour (white pawn 0 .. white king 5, black pawn 6 .. black king 11)
 *   24      side to move (0 white, 1 black)
 *   25      the game's result from white's point of view (0 black won, 1 draw, 2 white won)
 *   26..27  int16 search score in centipawns from the side to move's point of view, mates clamped
 *           to +-NNUE_SCORE_CLAMP
 *   28..29  uint16 fullmove number
 *   30      halfmove clock (plies since the last capture or pawn move, at most 255)
 *   31      game tag: 8 bits of a hash of the generator's seed and game number, the same for every
 *           position of a game (the trainer holds out whole games by it)
 */
#ifndef SCHACH_NNUE_DATA_H
#define SCHACH_NNUE_DATA_H

#include <stdbool.h>
#include <stdint.h>

#define NNUE_RECORD_SIZE 32
#define NNUE_SCORE_CLAMP 3000
#define NNUE_MAX_PIECES  32

/* A decoded record: the pieces as (square, code) pairs. */
typedef struct NnueRecord {
    int count;
    uint8_t square[NNUE_MAX_PIECES];
    uint8_t code[NNUE_MAX_PIECES]; /* type + 6 * colour */
    uint8_t stm;
    uint8_t result; /* 0, 1, 2: white's point of view */
    int16_t score;  /* side to move's point of view */
    uint16_t fullmove;
    uint8_t halfmove;
    uint8_t tag;
} NnueRecord;

static inline void nnue_put_u16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline uint16_t nnue_get_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Encodes rec (squares ascending, at most 32 pieces) into out[32]. */
static inline void nnue_record_encode(const NnueRecord *rec, uint8_t out[NNUE_RECORD_SIZE]) {
    uint64_t occ = 0;
    for (int i = 0; i < NNUE_RECORD_SIZE; i++)
        out[i] = 0;
    for (int i = 0; i < rec->count; i++) {
        occ |= 1ULL << rec->square[i];
        out[8 + i / 2] |= (uint8_t)((rec->code[i] & 15) << (i % 2 * 4));
    }
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(occ >> (8 * i));
    out[24] = rec->stm;
    out[25] = rec->result;
    nnue_put_u16(out + 26, (uint16_t)rec->score);
    nnue_put_u16(out + 28, rec->fullmove);
    out[30] = rec->halfmove;
    out[31] = rec->tag;
}

/* Decodes in[32]; false (rec undefined) for a record no legal position gives: more than 32 pieces,
 * a code above 11, not one king of each colour, a bad side to move or result. */
static inline bool nnue_record_decode(const uint8_t in[NNUE_RECORD_SIZE], NnueRecord *rec) {
    uint64_t occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (uint64_t)in[i] << (8 * i);
    int n = 0, kings[2] = {0, 0};
    while (occ) {
        if (n == NNUE_MAX_PIECES)
            return false;
        int sq = __builtin_ctzll(occ);
        occ &= occ - 1;
        uint8_t code = (uint8_t)((in[8 + n / 2] >> (n % 2 * 4)) & 15);
        if (code > 11)
            return false;
        if (code % 6 == 5)
            kings[code / 6]++;
        rec->square[n] = (uint8_t)sq;
        rec->code[n] = code;
        n++;
    }
    rec->count = n;
    rec->stm = in[24];
    rec->result = in[25];
    rec->score = (int16_t)nnue_get_u16(in + 26);
    rec->fullmove = nnue_get_u16(in + 28);
    rec->halfmove = in[30];
    rec->tag = in[31];
    return kings[0] == 1 && kings[1] == 1 && rec->stm <= 1 && rec->result <= 2 && rec->score >= -NNUE_SCORE_CLAMP &&
           rec->score <= NNUE_SCORE_CLAMP;
}

#endif
