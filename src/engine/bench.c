/* Engine: the fixed benchmark. Famous test positions (the standard perft positions) and positions
 * from common openings and endings, each searched to a fixed depth with a cleared table and history,
 * so the node count is a signature of the search that any change to it alters.
 *
 * BENCH_DEFAULT_DEPTH is chosen so that the whole bench takes a few seconds in a release build. */
#include <stddef.h>

#include "engine.h"
#include "timeman.h"

#define BENCH_DEFAULT_DEPTH 16

static const char *const bench_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
    "rnbqk2r/ppp1bppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR w KQkq - 4 5",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "r1bq1rk1/pppnbppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 3 7",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
    "6k1/p4pp1/1p2p2p/8/3r4/P3R1P1/1P3PKP/8 b - - 0 30",
};

uint64_t engine_bench(int depth, bool classical, int64_t *time_ms,
                      void (*per_position)(int index, const char *fen, uint64_t nodes, void *ctx), void *ctx) {
    EngineOptions opt;
    engine_options_default(&opt);
    opt.hash_mb = 16;
    opt.use_nnue = !classical;
    Engine *e = engine_new(&opt);
    uint64_t total = 0;
    int64_t start = tm_now_ms();
    EngineLimits limits = {.depth = depth > 0 ? depth : BENCH_DEFAULT_DEPTH};
    for (size_t i = 0; e && i < sizeof bench_fens / sizeof bench_fens[0]; i++) {
        SchGame game;
        SchError err;
        if (!sch_game_init_fen(&game, bench_fens[i], &err))
            continue; /* cannot happen: the positions are fixed and valid (tested) */
        engine_clear(e);
        EngineResult r = engine_search(e, &game, &limits, NULL, NULL);
        total += r.nodes;
        if (per_position)
            per_position((int)i, bench_fens[i], r.nodes, ctx);
        sch_game_free(&game);
    }
    engine_free(e);
    if (time_ms)
        *time_ms = tm_now_ms() - start;
    return total;
}
