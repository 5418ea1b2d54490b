/* The NNUE evaluation (src/engine/nnue.c): the built-in net's output on fixed positions against
 * committed values, incremental accumulators against ones computed from scratch over long random games
 * (castling, en passant, promotions, Chess960, null moves), the AVX2 kernels against the plain C ones,
 * and the file loader's refusals.
 *
 * When nets/default.nnue is replaced, regenerate the committed values (tests/data/nnue_expected.txt):
 *
 *     SCHACH_NNUE_WRITE_EXPECTED=1 build/tests/test_nnue
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "nnue.h"
#include "rng.h"
#include "schach/movegen.h"
#include "schach/schach.h"
#include "test_helpers.h"

#define EXPECTED_PATH SCHACH_SOURCE_DIR "/tests/data/nnue_expected.txt"

/* Twenty positions: openings, middlegames, imbalances, endings, both sides to move. */
static const char *const fixed_fens[20] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
    "rnbqk2r/ppp1bppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR w KQkq - 4 5",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
    "6k1/p4pp1/1p2p2p/8/3r4/P3R1P1/1P3PKP/8 b - - 0 30",
    "4k3/8/8/8/8/8/8/4KQ2 b - - 0 1",
    "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "r1b1k2r/ppppqppp/2n2n2/2b5/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 1",
    "2kr3r/ppp2ppp/2n5/3q4/3P4/2P5/P4PPP/R1BQR1K1 b - - 0 15",
    "8/5k2/8/8/3Q4/8/5K2/8 w - - 0 1",
    "3r2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 40",
};

static bool kernels_both(void) { return nnue_set_kernel(true); }

/* ---- the built-in net on fixed positions ---- */

static void write_expected(const NnueNet *net) {
    FILE *f = fopen(EXPECTED_PATH, "w");
    assert_non_null(f);
    fprintf(f, "# The built-in net's output (cp, side to move) on the positions of tests/unit/test_nnue.c.\n");
    fprintf(f, "# Regenerate after replacing nets/default.nnue: SCHACH_NNUE_WRITE_EXPECTED=1 build/tests/test_nnue\n");
    fprintf(f, "sha256 %s\n", nnue_default_sha256());
    for (int i = 0; i < 20; i++) {
        SchPosition pos = parse_fen(fixed_fens[i]);
        fprintf(f, "%d\n", nnue_evaluate_position(net, &pos));
    }
    assert_int_equal(fclose(f), 0);
}

static void test_default_net_values(void **state) {
    (void)state;
    const NnueNet *net = nnue_default();
    assert_non_null(net);
    if (getenv("SCHACH_NNUE_WRITE_EXPECTED"))
        write_expected(net);
    FILE *f = fopen(EXPECTED_PATH, "r");
    assert_non_null(f);
    char line[256], sha[80] = "";
    int values[20], count = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (!strncmp(line, "sha256 ", 7))
            sscanf(line + 7, "%79s", sha);
        else if (count < 20 && sscanf(line, "%d", &values[count]) == 1)
            count++;
    }
    fclose(f);
    if (strcmp(sha, nnue_default_sha256()) != 0)
        fail_msg("tests/data/nnue_expected.txt is for net %s, the built-in net is %s: regenerate it "
                 "(SCHACH_NNUE_WRITE_EXPECTED=1 build/tests/test_nnue)",
                 sha, nnue_default_sha256());
    assert_int_equal(count, 20);
    for (int k = 0; k < 1 + kernels_both(); k++) {
        nnue_set_kernel(k == 1);
        for (int i = 0; i < 20; i++) {
            SchPosition pos = parse_fen(fixed_fens[i]);
            int v = nnue_evaluate_position(net, &pos);
            if (v != values[i])
                fail_msg("%s kernels, position %d (%s): %d, committed %d", nnue_kernel_name(), i + 1, fixed_fens[i], v,
                         values[i]);
        }
    }
    nnue_set_kernel(kernels_both());
}

/* The placeholder and any sane net: the start position is about level, a queen up is far ahead. */
static void test_default_net_is_sane(void **state) {
    (void)state;
    const NnueNet *net = nnue_default();
    assert_non_null(net);
    SchPosition start = parse_fen(fixed_fens[0]);
    int v = nnue_evaluate_position(net, &start);
    assert_true(v > -100 && v < 100);
    SchPosition white_queen_up = parse_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_true(nnue_evaluate_position(net, &white_queen_up) > 500);
    SchPosition black_to_move = parse_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_true(nnue_evaluate_position(net, &black_to_move) < -500);
}

/* ---- a random net ---- */

/* A net file of hidden neurons with weights from seed: feature weights small enough that no
 * accumulator wraps, output weights over the whole allowed range. */
static unsigned char *random_net_file(int hidden, uint64_t seed, size_t *size) {
    *size = nnue_file_size(hidden);
    unsigned char *d = malloc(*size);
    assert_non_null(d);
    uint64_t rng = rng_seed(seed);
    memcpy(d, NNUE_MAGIC, 8);
    int32_t header[5] = {NNUE_INPUTS, hidden, 255, 64, 400};
    for (int i = 0; i < 5; i++)
        for (int b = 0; b < 4; b++)
            d[8 + 4 * i + b] = (unsigned char)((uint32_t)header[i] >> (8 * b));
    size_t at = NNUE_HEADER_BYTES;
    size_t ft = (size_t)NNUE_INPUTS * (size_t)hidden + (size_t)hidden;
    for (size_t i = 0; i < ft + 2 * (size_t)hidden; i++, at += 2) {
        int v = i < ft ? (int)(rng_next(&rng) % 161) - 80 : (int)(rng_next(&rng) % 255) - 127;
        d[at] = (unsigned char)((uint16_t)v & 0xff);
        d[at + 1] = (unsigned char)((uint16_t)v >> 8);
    }
    int32_t bias = -1234;
    for (int b = 0; b < 4; b++)
        d[at + (size_t)b] = (unsigned char)((uint32_t)bias >> (8 * b));
    return d;
}

static NnueNet random_net(int hidden, uint64_t seed) {
    size_t size;
    unsigned char *d = random_net_file(hidden, seed, &size);
    NnueNet net;
    char err[200];
    if (!nnue_load_memory(&net, d, size, err, sizeof err))
        fail_msg("random net refused: %s", err);
    free(d);
    return net;
}

/* ---- incremental against from scratch ---- */

typedef struct Counts {
    int moves, castling, castling960, en_passant, promotions, captures, nulls, checks;
} Counts;

static void assert_same_as_scratch(const NnueNet *net, NnueAccumulator *stack, int ply, const SchPosition *pos,
                                   const char *what) {
    static NnueAccumulator scratch;
    nnue_update(net, stack, ply);
    nnue_refresh(net, &scratch, pos);
    for (int c = 0; c < 2; c++)
        if (memcmp(stack[ply].values[c], scratch.values[c], (size_t)net->hidden * sizeof(int16_t)) != 0) {
            char fen[SCH_FEN_MAX];
            sch_fen_write(pos, fen, sizeof fen);
            fail_msg("%s: incremental accumulator (perspective %d) differs from scratch at ply %d in %s", what, c, ply,
                     fen);
        }
    assert_int_equal(nnue_output(net, &stack[ply], sch_pos_turn(pos)), nnue_output(net, &scratch, sch_pos_turn(pos)));
}

static void count_move(Counts *n, const SchPosition *pos, SchMove m) {
    n->moves++;
    int kind = sch_move_kind(m);
    if (kind == SCH_MOVE_CASTLING)
        pos->chess960 ? n->castling960++ : n->castling++;
    n->en_passant += kind == SCH_MOVE_EN_PASSANT;
    n->promotions += kind == SCH_MOVE_PROMOTION;
    n->captures += sch_pos_piece_on(pos, sch_move_to(m)) != SCH_NO_PIECE;
}

/* A random game from pos as the search plays it: at every ply a few moves are made, checked
 * (sometimes only a ply later, so that the lazy update runs two steps) and taken back, then one is
 * played on; now and then a null move. Moves that castle, capture en passant or promote are preferred,
 * so every game has plenty of them. */
static void random_game(const NnueNet *net, SchPosition pos, uint64_t *rng, int plies, Counts *n) {
    static NnueAccumulator stack[ENGINE_MAX_PLY + 2];
    nnue_refresh(net, &stack[0], &pos);
    SchUndo undos[ENGINE_MAX_PLY];
    SchMove played[ENGINE_MAX_PLY];
    int ply = 0;
    for (; ply < plies && ply < ENGINE_MAX_PLY - 1; ply++) {
        SchMove moves[SCH_MAX_MOVES];
        int count = sch_gen_moves(&pos, SCH_GEN_ALL, moves);
        if (count == 0)
            break;
        for (int t = 0; t < 3; t++) {
            SchMove m = moves[rng_next(rng) % (uint64_t)count];
            SchUndo undo;
            count_move(n, &pos, m);
            nnue_record_move(&stack[ply + 1], &pos, m);
            sch_pos_make(&pos, m, &undo);
            n->checks += sch_pos_in_check(&pos);
            assert_same_as_scratch(net, stack, ply + 1, &pos, "after make");
            sch_pos_unmake(&pos, m, &undo);
            assert_same_as_scratch(net, stack, ply, &pos, "after unmake");
        }
        if (!sch_pos_in_check(&pos) && rng_next(rng) % 8 == 0) {
            SchUndo undo;
            nnue_record_null(&stack[ply + 1]);
            sch_pos_make_null(&pos, &undo);
            n->nulls++;
            assert_same_as_scratch(net, stack, ply + 1, &pos, "after a null move");
            sch_pos_unmake_null(&pos, &undo);
        }
        SchMove m = moves[rng_next(rng) % (uint64_t)count];
        for (int i = 0; i < count; i++)
            if (sch_move_kind(moves[i]) != SCH_MOVE_NORMAL && rng_next(rng) % 2 == 0)
                m = moves[i];
        count_move(n, &pos, m);
        nnue_record_move(&stack[ply + 1], &pos, m);
        sch_pos_make(&pos, m, &undos[ply]);
        played[ply] = m;
        /* Every other ply is checked only after the next move: two changes in one lazy update. */
        if (ply % 2 == 1)
            assert_same_as_scratch(net, stack, ply + 1, &pos, "playing on");
    }
    /* Back to the start, checking every position on the way. */
    while (ply > 0) {
        ply--;
        sch_pos_unmake(&pos, played[ply], &undos[ply]);
        assert_same_as_scratch(net, stack, ply, &pos, "taking back the game");
    }
}

/* Random games with a net of the given width and the kernels chosen (AVX2 or plain C). The width of
 * the built-in net has kernels of its own for quiet moves and captures; other widths take the general
 * loops. */
static void incremental_games(int hidden, bool avx2) {
    NnueNet net = random_net(hidden, 7);
    uint64_t rng = rng_seed(2026);
    Counts n = {0};
    nnue_set_kernel(avx2);
    const char *starts[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", /* en passant at once */
        "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",                         /* promotions either side */
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",            /* castling both ways */
        "4k3/pppppppp/8/1P1P1P1P/8/8/8/4K3 b - - 0 1",                   /* en passant for white */
        "4k3/8/8/8/p1p1p1p1/8/PPPPPPPP/4K3 w - - 0 1",                   /* en passant for black */
    };
    for (int round = 0; round < 4; round++)
        for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
            random_game(&net, parse_fen(starts[i]), &rng, 120, &n);
    /* Chess960: arrays whose castling moves the king onto the rook's square or leaves it standing. */
    int arrays[] = {0, 105, 518, 959, 333, 700, 12, 421};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        for (int round = 0; round < 3; round++) {
            SchPosition pos;
            assert_true(sch_pos_set_chess960(&pos, arrays[i]));
            random_game(&net, pos, &rng, 120, &n);
        }
    print_message("      %d moves: %d castling, %d Chess960 castling, %d en passant, %d promotions, %d captures, "
                  "%d checks, %d null moves\n",
                  n.moves, n.castling, n.castling960, n.en_passant, n.promotions, n.captures, n.checks, n.nulls);
    assert_true(n.castling >= 20);
    assert_true(n.castling960 >= 20);
    assert_true(n.en_passant >= 20);
    assert_true(n.promotions >= 20);
    assert_true(n.captures >= 100);
    assert_true(n.nulls >= 20);
    nnue_free(&net);
    nnue_set_kernel(kernels_both());
}

static void test_incremental_matches_scratch(void **state) {
    (void)state;
    int widths[] = {64, 256};
    for (int avx2 = 0; avx2 <= kernels_both(); avx2++)
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
            incremental_games(widths[w], avx2);
}

/* ---- the kernels agree ---- */

static void test_kernels_agree(void **state) {
    (void)state;
    if (!kernels_both()) {
        print_message("      no AVX2 here: only the plain C kernels run\n");
        skip();
    }
    uint64_t rng = rng_seed(99);
    int sizes[] = {16, 256, 1024};
    for (size_t k = 0; k < 3; k++) {
        NnueNet net = random_net(sizes[k], 100 + k);
        /* Accumulators over the whole int16 range: clipped below 0 and above QA, and in between. */
        static NnueAccumulator acc;
        for (int round = 0; round < 50; round++) {
            for (int c = 0; c < 2; c++)
                for (int i = 0; i < net.hidden; i++)
                    acc.values[c][i] =
                        (int16_t)(round % 2 ? (int)(rng_next(&rng) % 65536) - 32768 : (int)(rng_next(&rng) % 400) - 80);
            nnue_set_kernel(false);
            int scalar = nnue_output(&net, &acc, SCH_WHITE);
            nnue_set_kernel(true);
            assert_int_equal(nnue_output(&net, &acc, SCH_WHITE), scalar);
        }
        /* The largest sums: every neuron at QA, every weight at +127. */
        for (int i = 0; i < 2 * net.hidden; i++)
            net.out_weight[i] = NNUE_OUT_WEIGHT_MAX;
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < net.hidden; i++)
                acc.values[c][i] = 255;
        nnue_set_kernel(false);
        int scalar = nnue_output(&net, &acc, SCH_BLACK);
        nnue_set_kernel(true);
        assert_int_equal(nnue_output(&net, &acc, SCH_BLACK), scalar);
        /* The update kernel: a random game's accumulators both ways. */
        Counts n = {0};
        SchPosition start = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        nnue_set_kernel(false);
        random_game(&net, start, &rng, 30, &n);
        nnue_set_kernel(true);
        random_game(&net, start, &rng, 30, &n);
        nnue_free(&net);
    }
}

/* ---- the loader ---- */

static void expect_refused(const unsigned char *data, size_t size, const char *words) {
    NnueNet net;
    char err[200] = "";
    bool ok = nnue_load_memory(&net, data, size, err, sizeof err);
    if (ok)
        fail_msg("a bad net was accepted (expected: %s)", words);
    if (!strstr(err, words))
        fail_msg("refused with '%s', expected it to say '%s'", err, words);
    assert_null(net.memory);
}

static void put32(unsigned char *d, int32_t v) {
    for (int b = 0; b < 4; b++)
        d[b] = (unsigned char)((uint32_t)v >> (8 * b));
}

static void test_loader_refuses_bad_files(void **state) {
    (void)state;
    size_t size;
    unsigned char *good = random_net_file(32, 5, &size);
    unsigned char *d = malloc(size + 16);
    assert_non_null(d);
    NnueNet net;
    char err[200];
    assert_true(nnue_load_memory(&net, good, size, err, sizeof err));
    assert_int_equal(net.hidden, 32);
    nnue_free(&net);

    expect_refused(good, 0, "fewer than the header");
    expect_refused(good, 20, "fewer than the header");
    expect_refused(good, size - 1, "cut short");
    expect_refused(good, size / 2, "cut short");
    memcpy(d, good, size);
    memset(d + size, 0, 16);
    expect_refused(d, size + 1, "bytes after the end");
    expect_refused(d, size + 16, "bytes after the end");
    d[0] = 'X';
    expect_refused(d, size, "does not begin with 'SCHNNUE1'");
    memcpy(d, good, size);
    put32(d + 8, 769);
    expect_refused(d, size, "769 inputs");
    memcpy(d, good, size);
    put32(d + 12, 40);
    expect_refused(d, size, "40 hidden neurons");
    put32(d + 12, 2048);
    expect_refused(d, size, "2048 hidden neurons");
    put32(d + 12, 0);
    expect_refused(d, size, "0 hidden neurons");
    put32(d + 12, 48); /* a valid size, but not this file's */
    expect_refused(d, size, "a net of 48 hidden neurons has");
    memcpy(d, good, size);
    put32(d + 16, 256);
    expect_refused(d, size, "bad quantisation");
    memcpy(d, good, size);
    put32(d + 20, 0);
    expect_refused(d, size, "bad quantisation");
    memcpy(d, good, size);
    /* The first output weight: beyond +-127 the AVX2 kernel would not be exact. */
    size_t out = NNUE_HEADER_BYTES + 2 * ((size_t)NNUE_INPUTS * 32 + 32);
    d[out] = 128;
    d[out + 1] = 0;
    expect_refused(d, size, "output weight 0 is 128");

    /* From files: a missing one, and a bad one leaves the engine's net as it was. */
    assert_false(nnue_load_file(&net, SCHACH_SOURCE_DIR "/tests/data/no-such-net.nnue", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_false(nnue_load_file(&net, SCHACH_SOURCE_DIR "/nets", err, sizeof err));
    assert_non_null(strstr(err, "is not a plain file"));
    Engine *e = engine_new(NULL);
    assert_non_null(e);
    char before[300], after[300];
    engine_describe_net(e, before, sizeof before);
    assert_false(engine_load_net(e, SCHACH_SOURCE_DIR "/README.md", err, sizeof err));
    assert_non_null(strstr(err, "not a schach net"));
    engine_describe_net(e, after, sizeof after);
    assert_string_equal(before, after);
    assert_non_null(strstr(after, nnue_default_sha256()));
    /* The default net from its file is the built-in one. */
    assert_true(engine_load_net(e, SCHACH_SOURCE_DIR "/nets/default.nnue", err, sizeof err));
    engine_describe_net(e, after, sizeof after);
    assert_non_null(strstr(after, "nets/default.nnue"));
    SchPosition pos = parse_fen(fixed_fens[2]);
    assert_int_equal(engine_evaluate_nnue(e, &pos), nnue_evaluate_position(nnue_default(), &pos));
    assert_true(engine_load_net(e, NNUE_EMBEDDED_NAME, err, sizeof err));
    engine_describe_net(e, after, sizeof after);
    assert_string_equal(before, after);
    engine_free(e);
    free(d);
    free(good);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_net_values),          cmocka_unit_test(test_default_net_is_sane),
        cmocka_unit_test(test_incremental_matches_scratch), cmocka_unit_test(test_kernels_agree),
        cmocka_unit_test(test_loader_refuses_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
