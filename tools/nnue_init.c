/* The placeholder net (nets/default.nnue until a trained net replaces it): a net in the engine's file
 * format (docs/engine.md#nnue) whose output is, up to rounding, the classical evaluation's material
 * and piece-square terms (the middlegame and endgame values averaged), so that the engine plays sane
 * chess with it. Deterministic: the same eval_params give the same bytes.
 *
 *     schach_nnue_init nets/default.nnue
 *
 * How: each perspective's accumulator neuron sees x, the material and piece-square balance from that
 * side's point of view in some unit, as c + x and c - x (c = 127). With SCReLU and no clipping,
 * (c + x)^2 - (c - x)^2 = 4cx: exactly linear while |x| <= c. Two such pairs, one in units of 4 cp
 * (exact up to about 5 pawns) and one in units of 24 cp (up to about 30 pawns), each give half the
 * output; the other side's accumulator holds -x and adds the same again. The other 252 neurons are
 * zero. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "eval_params.h"

enum { INPUTS = 768, HIDDEN = 256, QA = 255, QB = 64, SCALE = 400, CENTRE = 127 };

/* The value (cp, mg and eg averaged) of a white piece of type t (pawn 0 .. king 5) on square s. */
static double piece_value(int t, int s) {
    int rank = s / 8, file = s % 8;
    Score psqt = eval_params[EP_PSQT + t * 32 + rank * 4 + (file < 4 ? file : 7 - file)];
    Score material = t < 5 ? eval_params[EP_MATERIAL + t] : 0;
    return (score_mg(psqt) + score_eg(psqt) + score_mg(material) + score_eg(material)) / 2.0;
}

static int16_t ft_weight[INPUTS][HIDDEN], ft_bias[HIDDEN], out_weight[2 * HIDDEN];

/* Neurons first and first + 1 hold c + x and c - x, x in units of unit cp; out is their output weight. */
static void add_pair(int first, double unit, int out) {
    for (int t = 0; t < 6; t++)
        for (int s = 0; s < 64; s++) {
            /* Perspective-relative: an own piece on relative square s is worth piece_value(t, s); an
             * opponent's piece on relative square s stands on the opponent's relative square s ^ 56. */
            int own = (int)lround(piece_value(t, s) / unit), theirs = -(int)lround(piece_value(t, s ^ 56) / unit);
            ft_weight[t * 64 + s][first] = (int16_t)own;
            ft_weight[t * 64 + s][first + 1] = (int16_t)-own;
            ft_weight[384 + t * 64 + s][first] = (int16_t)theirs;
            ft_weight[384 + t * 64 + s][first + 1] = (int16_t)-theirs;
        }
    ft_bias[first] = ft_bias[first + 1] = CENTRE;
    out_weight[first] = (int16_t)out;
    out_weight[first + 1] = (int16_t)-out;
    /* The other side's accumulator holds -x: the same weights, mirrored. */
    out_weight[HIDDEN + first] = (int16_t)-out;
    out_weight[HIDDEN + first + 1] = (int16_t)out;
}

static void put16(FILE *f, int16_t v) {
    fputc((uint16_t)v & 0xff, f);
    fputc((uint16_t)v >> 8, f);
}

static void put32(FILE *f, int32_t v) {
    for (int i = 0; i < 4; i++)
        fputc((int)(((uint32_t)v >> (8 * i)) & 0xff), f);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT.nnue\n", argv[0]);
        return 2;
    }
    /* One unit of x in a pair gives 8 * out * CENTRE * SCALE / (QA * QA * QB) cp: about 0.0977 * out. */
    add_pair(0, 4.0, 20);   /* 4 cp units: 1.95 cp per unit, half the slope */
    add_pair(2, 24.0, 123); /* 24 cp units: 12.0 cp per unit, the other half */
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fputs("SCHNNUE1", f);
    put32(f, INPUTS);
    put32(f, HIDDEN);
    put32(f, QA);
    put32(f, QB);
    put32(f, SCALE);
    for (int i = 0; i < INPUTS; i++)
        for (int j = 0; j < HIDDEN; j++)
            put16(f, ft_weight[i][j]);
    for (int j = 0; j < HIDDEN; j++)
        put16(f, ft_bias[j]);
    for (int j = 0; j < 2 * HIDDEN; j++)
        put16(f, out_weight[j]);
    put32(f, 0);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
