/* The cost of one NNUE evaluation's parts, in nanoseconds, with each kernel this CPU runs, beside the
 * classical evaluation's (docs/engine.md#the-nnue-evaluation):
 *
 *     build/schach_nnue_bench [NET]
 *
 * refresh: both accumulators from scratch; update: both accumulators after a quiet move (one piece
 * off, one on) and after a capture; output: the output layer; full: refresh + output (an evaluation
 * without incremental updates). Each figure is the best of five timed runs of many repetitions, on the
 * positions of the bench, in the CPU time of the thread (a busy machine takes turns away, not time). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "eval.h"
#include "nnue.h"
#include "schach/fen.h"
#include "schach/movegen.h"

static const char *const fens[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "6k1/p4pp1/1p2p2p/8/3r4/P3R1P1/1P3PKP/8 b - - 0 30",
};
enum { POSITIONS = sizeof fens / sizeof fens[0], REPEAT = 20000 };

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* the CPU this thread used: steadier on a shared machine */
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static SchPosition positions[POSITIONS];
static NnueAccumulator stack[2];
static PawnCache pawns;
static volatile int64_t sink;

typedef enum { REFRESH, UPDATE_QUIET, UPDATE_CAPTURE, OUTPUT, FULL, CLASSICAL } Part;

/* The first quiet move or capture of pos (SCH_MOVE_NONE if none). */
static SchMove pick_move(const SchPosition *pos, bool capture) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (sch_move_kind(moves[i]) == SCH_MOVE_NORMAL &&
            (sch_pos_piece_on(pos, sch_move_to(moves[i])) != SCH_NO_PIECE) == capture)
            return moves[i];
    return SCH_MOVE_NONE;
}

static double time_part(const NnueNet *net, Part part) {
    double best = 1e18;
    for (int run = 0; run < 5; run++) {
        int64_t acc = 0;
        int count = 0;
        double start = now_ns();
        for (int p = 0; p < POSITIONS; p++) {
            const SchPosition *pos = &positions[p];
            SchMove m = pick_move(pos, part == UPDATE_CAPTURE);
            if ((part == UPDATE_QUIET || part == UPDATE_CAPTURE) && !m)
                continue;
            nnue_refresh(net, &stack[0], pos);
            if (part == UPDATE_QUIET || part == UPDATE_CAPTURE)
                nnue_record_move(&stack[1], pos, m);
            for (int i = 0; i < REPEAT; i++, count++) {
                switch (part) {
                    case REFRESH: nnue_refresh(net, &stack[0], pos); break;
                    case UPDATE_QUIET:
                    case UPDATE_CAPTURE:
                        stack[1].computed = false;
                        nnue_update(net, stack, 1);
                        break;
                    case OUTPUT: acc += nnue_output(net, &stack[0], sch_pos_turn(pos)); break;
                    case FULL: acc += nnue_evaluate_position(net, pos); break;
                    case CLASSICAL: acc += eval_position(pos, &pawns); break;
                }
                acc += stack[0].values[0][i & 15] + stack[1].values[1][i & 15];
            }
        }
        double ns = (now_ns() - start) / count;
        sink = acc;
        best = ns < best ? ns : best;
    }
    return best;
}

int main(int argc, char **argv) {
    NnueNet loaded;
    const NnueNet *net = nnue_default();
    if (argc > 1) {
        char err[300];
        if (!nnue_load_file(&loaded, argv[1], err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", argv[1], err);
            return 1;
        }
        net = &loaded;
    }
    if (!net)
        return 1;
    for (int p = 0; p < POSITIONS; p++) {
        SchError err;
        if (!sch_fen_parse(&positions[p], fens[p], &err))
            return 1;
    }
    printf("net 768x%dx2; ns per call, best of 5 runs of %d x %d\n", net->hidden, POSITIONS, REPEAT);
    printf("%-8s %9s %9s %9s %9s %9s\n", "kernels", "refresh", "quiet", "capture", "output", "full");
    for (int avx2 = 0; avx2 <= 1; avx2++) {
        if (!nnue_set_kernel(avx2))
            continue;
        printf("%-8s %9.1f %9.1f %9.1f %9.1f %9.1f\n", nnue_kernel_name(), time_part(net, REFRESH),
               time_part(net, UPDATE_QUIET), time_part(net, UPDATE_CAPTURE), time_part(net, OUTPUT),
               time_part(net, FULL));
    }
    printf("classical evaluation (with its pawn cache): %.1f ns\n", time_part(net, CLASSICAL));
    return 0;
}
