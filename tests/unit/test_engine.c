/* Engine: mates, draws by rule inside the search, evaluation symmetry, limits, MultiPV, levels,
 * bench determinism. Searches are shallow so that the test stays quick under sanitizers. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "engine_internal.h"
#include "eval.h"
#include "engine.h"
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"
#include "see.h"
#include "strength.h"
#include "timeman.h"

/* ---- helpers ---- */

static void init_fen(SchGame *g, const char *fen) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, fen, &err))
        fail_msg("bad test FEN %s (error %d)", fen, err.code);
}

/* The tests' engine: a 4 MB table, this many threads. */
static EngineOptions test_options(int threads) {
    EngineOptions opt;
    engine_options_default(&opt);
    opt.hash_mb = 4;
    opt.threads = threads;
    return opt;
}

static Engine *new_threaded_engine(int threads) {
    EngineOptions opt = test_options(threads);
    Engine *e = engine_new(&opt);
    assert_non_null(e);
    engine_get_options(e, &opt);
    assert_int_equal(opt.threads, threads);
    return e;
}

static Engine *new_engine(void) { return new_threaded_engine(1); }

/* One search of fen by a new engine with these options. */
static EngineResult search_fen_as(const EngineOptions *opt, const char *fen, const EngineLimits *limits) {
    SchGame g;
    init_fen(&g, fen);
    Engine *e = engine_new(opt);
    assert_non_null(e);
    EngineResult r = engine_search(e, &g, limits, NULL, NULL);
    engine_free(e);
    sch_game_free(&g);
    return r;
}

static EngineResult search_fen(const char *fen, const EngineLimits *limits) {
    EngineOptions opt = test_options(1);
    return search_fen_as(&opt, fen, limits);
}

static void assert_move(SchMove m, const char *uci) {
    char buf[8];
    SchPosition standard; /* UCI text differs from the plain squares only for Chess960 castling */
    sch_pos_set_start(&standard);
    sch_uci_write(&standard, m, buf, sizeof buf);
    assert_string_equal(buf, uci);
}

/* Whether the side to move mates within n moves, by plain minimax over every legal move: an
 * independent check of the engine's mate scores. */
static bool mates_within(SchPosition *pos, int n) {
    SchMove moves[SCH_MAX_MOVES];
    int count = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    for (int i = 0; i < count; i++) {
        SchUndo u;
        sch_pos_make(pos, moves[i], &u);
        SchMove replies[SCH_MAX_MOVES];
        int rc = sch_gen_moves(pos, SCH_GEN_ALL, replies);
        bool mate = rc == 0 && sch_pos_in_check(pos);
        for (int j = 0; !mate && n > 1 && rc > 0; j++) {
            if (j == rc) {
                mate = true;
                break;
            }
            SchUndo v;
            sch_pos_make(pos, replies[j], &v);
            bool forced = mates_within(pos, n - 1);
            sch_pos_unmake(pos, replies[j], &v);
            if (!forced)
                break;
        }
        sch_pos_unmake(pos, moves[i], &u);
        if (mate)
            return true;
    }
    return false;
}

/* ---- mates ---- */

static void test_mate_in_one(void **state) {
    (void)state;
    static const struct {
        const char *fen, *move;
    } cases[] = {
        {"k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8"},
        {"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "f3f7"},
        {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"},
        {"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "d8d1"},
        {"7k/8/5KQ1/8/8/8/8/8 w - - 0 1", "g6g7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EngineLimits limits = {.depth = 4};
        EngineResult r = search_fen(cases[i].fen, &limits);
        assert_int_equal(r.score, ENGINE_MATE - 1);
        assert_move(r.best, cases[i].move);
    }
}

/* Positions where the side to move mates in n (and not sooner). */
static const struct {
    const char *fen;
    int n;
} mate_cases[] = {
    {"k7/8/2K5/8/8/8/8/7R w - - 0 1", 2},   {"r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2},
    {"7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2}, {"k7/8/8/2K5/8/8/8/7R w - - 0 1", 2},
    {"2k5/8/8/3K4/8/8/8/7R w - - 0 1", 3},  {"7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1},
};
enum { MATE_CASES = sizeof mate_cases / sizeof mate_cases[0] };

/* Mates in 2 and 3: the solver confirms the distance, the engine must report it and play a move
 * after which every reply still loses within n - 1. */
static void test_mate_in_two_and_three(void **state) {
    (void)state;
    for (size_t i = 0; i < MATE_CASES; i++) {
        SchGame g;
        init_fen(&g, mate_cases[i].fen);
        SchPosition pos = g.pos;
        int n = mate_cases[i].n;
        assert_true(mates_within(&pos, n));
        assert_false(n > 1 && mates_within(&pos, n - 1));
        Engine *e = new_engine();
        EngineLimits limits = {.depth = 2 * n + 3};
        EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
        assert_int_equal(r.score, ENGINE_MATE - (2 * n - 1));
        SchUndo u;
        sch_pos_make(&pos, r.best, &u);
        SchMove replies[SCH_MAX_MOVES];
        int rc = sch_gen_moves(&pos, SCH_GEN_ALL, replies);
        for (int j = 0; j < rc; j++) {
            SchUndo v;
            sch_pos_make(&pos, replies[j], &v);
            assert_true(mates_within(&pos, n - 1));
            sch_pos_unmake(&pos, replies[j], &v);
        }
        if (rc == 0)
            assert_true(sch_pos_in_check(&pos));
        engine_free(e);
        sch_game_free(&g);
    }
}

static void test_mate_limit_stops_with_the_mate(void **state) {
    (void)state;
    EngineLimits limits = {.mate = 2};
    EngineResult r = search_fen("k7/8/2K5/8/8/8/8/7R w - - 0 1", &limits);
    assert_int_equal(r.score, ENGINE_MATE - 3);
    assert_true(r.depth <= 8);
}

static void test_no_legal_move_at_root(void **state) {
    (void)state;
    EngineLimits limits = {.depth = 3};
    EngineResult r = search_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", &limits); /* checkmated */
    assert_int_equal(r.best, SCH_MOVE_NONE);
    assert_int_equal(r.score, -ENGINE_MATE);
    r = search_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1", &limits); /* stalemate */
    assert_int_equal(r.best, SCH_MOVE_NONE);
    assert_int_equal(r.score, 0);
}

/* ---- draws by rule ---- */

/* White is a queen and two rooks down but checks forever: Qg5+ Kh8 Qf6+ Kg8 Qg5+. */
static void test_perpetual_check_scores_draw(void **state) {
    (void)state;
    EngineLimits limits = {.depth = 9};
    EngineResult r = search_fen("r4rk1/5p1p/8/8/8/8/q2Q2PP/7K w - - 0 1", &limits);
    assert_int_equal(r.score, 0);
    assert_move(r.best, "d2g5");
}

/* The game's history counts: after a knight shuffle the start position occurred twice, so the
 * engine with a winning position avoids going back to it, and a losing side seeks it. */
static void test_repetition_uses_game_history(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "7k/8/8/8/8/1Q6/8/K5n1 w - - 0 1");
    play_line(&g, "b3b1 g1e2 b1b3 e2g1 b3b1 g1e2 b1b3");
    /* Black to move: Ne2-g1 repeats the position for the third time. */
    Engine *e = new_engine();
    EngineLimits limits = {.depth = 6};
    EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
    assert_move(r.best, "e2g1");
    assert_int_equal(r.score, 0);
    engine_free(e);
    sch_game_free(&g);
}

static void test_fifty_move_rule(void **state) {
    (void)state;
    EngineLimits limits = {.depth = 6};
    /* Any move ends the 50 moves without capture or pawn move: a draw... */
    EngineResult r = search_fen("8/8/8/4k3/8/8/8/KQ6 w - - 99 80", &limits);
    assert_int_equal(r.score, 0);
    /* ...unless it mates. */
    r = search_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80", &limits);
    assert_int_equal(r.score, ENGINE_MATE - 1);
    assert_move(r.best, "h1h8");
}

/* ---- evaluation ---- */

/* The position with colours swapped and the board mirrored rank-wise. */
static SchPosition flip(const SchPosition *pos) {
    SchPosition f;
    sch_pos_clear(&f);
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++) {
        SchPiece p = sch_pos_piece_on(pos, s);
        if (p != SCH_NO_PIECE)
            sch_pos_put(&f, sch_piece_make((SchColor)!sch_piece_color(p), sch_piece_type(p)), (SchSquare)(s ^ 56));
    }
    f.turn = (uint8_t)!pos->turn;
    f.castling = (uint8_t)((pos->castling & 3) << 2 | (pos->castling >> 2));
    f.ep = pos->ep == SCH_SQ_NONE ? SCH_SQ_NONE : (uint8_t)(pos->ep ^ 56);
    f.halfmove = pos->halfmove;
    sch_pos_finish(&f);
    return f;
}

static void test_evaluation_is_symmetric(void **state) {
    (void)state;
    static const char *fens[] = {
        SCH_FEN_START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        "8/8/2b5/4k3/8/3B4/P7/K7 b - - 0 1",
    };
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    int positions = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        SchGame g;
        init_fen(&g, fens[i]);
        SchPosition pos = g.pos;
        /* A random walk from each position visits many kinds of positions. */
        for (int ply = 0; ply < 120; ply++, positions++) {
            SchPosition f = flip(&pos);
            assert_int_equal(engine_evaluate(&pos), engine_evaluate(&f));
            SchMove moves[SCH_MAX_MOVES];
            int n = sch_gen_moves(&pos, SCH_GEN_ALL, moves);
            if (n == 0)
                break;
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            SchUndo u;
            sch_pos_make(&pos, moves[rng % (uint64_t)n], &u);
        }
        sch_game_free(&g);
    }
    assert_true(positions > 300);
}

static void test_evaluation_knows_material_and_basic_mates(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert_true(engine_evaluate(&g.pos) > EVAL_KNOWN_WIN);
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert_true(engine_evaluate(&g.pos) < -EVAL_KNOWN_WIN);
    sch_game_free(&g);
    /* A lone knight cannot win, even against pawns: its endgame value is scaled away. */
    init_fen(&g, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
    assert_int_equal(engine_evaluate(&g.pos), 0);
    sch_game_free(&g);
    init_fen(&g, "4k3/p7/8/8/8/8/8/3NK3 w - - 0 1");
    assert_true(engine_evaluate(&g.pos) < 30);
    sch_game_free(&g);
    /* The KBNK king belongs in the bishop's corner: a light bishop wants h1 or a8. */
    SchGame near, far;
    init_fen(&near, "7k/8/5K2/8/8/8/8/1N3B2 w - - 0 1"); /* h8 is dark: wrong corner */
    init_fen(&far, "k7/8/2K5/8/8/8/8/1N3B2 w - - 0 1");  /* a8 is light: right corner */
    assert_true(engine_evaluate(&far.pos) > engine_evaluate(&near.pos));
    sch_game_free(&near);
    sch_game_free(&far);
}

static void test_trace_matches_evaluation(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    EvalTrace trace;
    int eval = eval_trace(&g.pos, &trace);
    assert_int_equal(eval, engine_evaluate(&g.pos));
    Score lin = 0;
    for (int i = 0; i < EP_COUNT; i++)
        lin += (trace.coeff[i][SCH_WHITE] - trace.coeff[i][SCH_BLACK]) * eval_params[i];
    int white = (score_mg(lin) * trace.phase + score_eg(lin) * (EVAL_PHASE_MAX - trace.phase) * trace.scale / 64) /
                EVAL_PHASE_MAX;
    assert_int_equal(white, eval);
    assert_false(trace.special);
    sch_game_free(&g);
}

static void test_see(void **state) {
    (void)state;
    SchGame g;
    /* Rxe5 wins a pawn defended by nothing; Qxd5 loses the queen to the pawn on e6. */
    init_fen(&g, "4k3/8/4p3/3p4/8/8/3Q4/4R1K1 w - - 0 1");
    SchError err;
    SchMove q = sch_uci_parse(&g.pos, "d2d5", &err);
    assert_false(see_ge(&g.pos, q, 0));
    assert_true(see_ge(&g.pos, q, -900));
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1");
    SchMove r = sch_uci_parse(&g.pos, "e1e5", &err);
    assert_true(see_ge(&g.pos, r, 100));
    assert_false(see_ge(&g.pos, r, 101));
    sch_game_free(&g);
}

/* ---- limits and reporting ---- */

typedef struct StopJob {
    Engine *engine;
    SchGame *game;
    EngineResult result;
} StopJob;

static void *run_infinite(void *arg) {
    StopJob *job = arg;
    EngineLimits limits = {.infinite = true};
    job->result = engine_search(job->engine, job->game, &limits, NULL, NULL);
    return NULL;
}

static void test_stop_from_another_thread(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    StopJob job = {new_engine(), &g, {0}};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, run_infinite, &job), 0);
    struct timespec pause = {0, 50 * 1000000};
    nanosleep(&pause, NULL);
    engine_stop(job.engine);
    pthread_join(thread, NULL);
    assert_true(sch_gen_is_legal(&g.pos, job.result.best));
    engine_free(job.engine);
    sch_game_free(&g);
}

static void test_stop_before_search_still_returns_a_move(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    Engine *e = new_engine();
    engine_stop(e);
    EngineLimits limits = {.infinite = true};
    EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
    assert_true(sch_gen_is_legal(&g.pos, r.best));
    engine_free(e);
    sch_game_free(&g);
}

static void test_node_limit(void **state) {
    (void)state;
    EngineLimits limits = {.nodes = 20000};
    EngineResult r = search_fen(SCH_FEN_START, &limits);
    assert_true(r.nodes >= 20000 && r.nodes <= 20000 + 64);
    assert_true(r.best != SCH_MOVE_NONE);
}

/* A helper thread stops at the node limit of the whole search (its leader's count as published plus
 * the helpers'), also when the main thread, past the limit, gets no processor to stop it: the helper
 * used to search on to its depth limit or until told (cli.uci saw 70,000 nodes for `go nodes 50000`
 * with Threads 2 on a loaded machine). */
static void test_helper_stops_at_the_node_limit(void **state) {
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    Search *leader = calloc(1, sizeof *leader), *helper = calloc(1, sizeof *helper);
    assert_non_null(leader);
    assert_non_null(helper);
    search_init(leader, &tt);
    search_init(helper, &tt);
    leader->peers = helper;
    leader->peer_count = 1;
    helper->leader = leader;
    atomic_store(&leader->published_nodes, 20000); /* the main thread is at the limit */
    SchGame g;
    sch_game_init(&g);
    EngineLimits limits = {.nodes = 20000, .depth = 12};
    search_run_helper(helper, &g, &limits, 1);
    assert_true(helper->nodes <= 2048);
    sch_game_free(&g);
    free(leader);
    free(helper);
    tt_free(&tt);
}

typedef struct Lines {
    int depth;
    int count;
    SchMove first[ENGINE_MAX_MULTIPV];
    int score[ENGINE_MAX_MULTIPV];
} Lines;

static void collect_lines(const EngineInfo *info, void *ctx) {
    Lines *lines = ctx;
    if (info->lowerbound || info->upperbound)
        return;
    if (info->depth != lines->depth)
        lines->depth = info->depth, lines->count = 0;
    lines->first[info->multipv - 1] = info->pv[0];
    lines->score[info->multipv - 1] = info->score;
    lines->count = info->multipv > lines->count ? info->multipv : lines->count;
}

static void test_multipv_lines_are_distinct_and_ordered(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6");
    Engine *e = new_engine();
    Lines lines = {0};
    EngineLimits limits = {.depth = 6, .multipv = 4};
    EngineResult r = engine_search(e, &g, &limits, collect_lines, &lines);
    assert_int_equal(lines.depth, 6);
    assert_int_equal(lines.count, 4);
    assert_int_equal(lines.first[0], r.best);
    for (int i = 0; i < 4; i++) {
        assert_true(sch_gen_is_legal(&g.pos, lines.first[i]));
        for (int j = 0; j < i; j++)
            assert_int_not_equal(lines.first[i], lines.first[j]);
        if (i > 0)
            assert_true(lines.score[i] <= lines.score[i - 1]);
    }
    engine_free(e);
    sch_game_free(&g);
}

static void test_searchmoves(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    SchError err;
    SchMove only = sch_uci_parse(&g.pos, "a2a3", &err);
    EngineLimits limits = {.depth = 4, .searchmoves = &only, .searchmoves_count = 1};
    Engine *e = new_engine();
    EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
    assert_int_equal(r.best, only);
    engine_free(e);
    sch_game_free(&g);
}

/* ---- threads ---- */

/* Helpers share the table with the main thread: what they store must never spoil a mate score. */
/* With helpers the threads share the table, so what the leader reports at a given depth depends on
 * how the threads were scheduled: under ThreadSanitizer beside two busy loops, depth 2n + 3 once gave
 * a mate in 3 where a mate in 2 exists (a true mate, a longer one a helper's entries led to) and once
 * no mate at all for a mate in 3 (the pruning saw the helpers' entries; one thread alone needs depth 16
 * to see the mate after the move it chose). The single thread's exact distances are
 * test_mate_in_two_and_three's. What threads must keep: searched deep enough, a forced mate is found,
 * never a shorter one than exists, and the move is legal. */
static void test_threads_find_the_mates(void **state) {
    (void)state;
    Engine *e = new_threaded_engine(3);
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < MATE_CASES; i++) {
            SchGame g;
            init_fen(&g, mate_cases[i].fen);
            engine_clear(e);
            int n = mate_cases[i].n;
            EngineLimits limits = {.depth = 20};
            EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
            assert_true(r.score >= ENGINE_MATE_BOUND);
            assert_true(r.score <= ENGINE_MATE - (2 * n - 1));
            assert_true(sch_gen_is_legal(&g.pos, r.best));
            sch_game_free(&g);
        }
    engine_free(e);
}

/* Many short searches, an infinite one stopped from another thread, and new thread counts between
 * searches: the helpers start and stop every time, and the nodes they searched are counted. */
static void test_threads_start_stop_and_resize(void **state) {
    (void)state;
    Engine *e = new_threaded_engine(3);
    SchGame g;
    sch_game_init(&g);
    for (int depth = 1; depth <= 12; depth++) {
        EngineLimits limits = {.depth = depth};
        EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
        assert_true(sch_gen_is_legal(&g.pos, r.best));
        assert_int_equal(r.depth, depth);
        assert_true(r.nodes > 0);
    }
    StopJob job = {e, &g, {0}};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, run_infinite, &job), 0);
    struct timespec pause = {0, 50 * 1000000};
    nanosleep(&pause, NULL);
    engine_stop(e);
    pthread_join(thread, NULL);
    assert_true(sch_gen_is_legal(&g.pos, job.result.best));

    EngineOptions opt;
    int counts[] = {1, 2, 4, 0}, want[] = {1, 2, 4, 1}; /* 0 is clamped to 1 */
    for (int i = 0; i < 4; i++) {
        engine_get_options(e, &opt);
        opt.threads = counts[i];
        assert_true(engine_set_options(e, &opt));
        engine_get_options(e, &opt);
        assert_int_equal(opt.threads, want[i]);
        EngineLimits limits = {.depth = 6};
        EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
        assert_true(sch_gen_is_legal(&g.pos, r.best));
    }
    engine_free(e);
    sch_game_free(&g);
}

/* ---- levels ---- */

static void test_weak_levels_play_legal_and_sometimes_other_moves(void **state) {
    (void)state;
    static const char *fens[] = {
        SCH_FEN_START,
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
        "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    };
    EngineOptions opt;
    engine_options_default(&opt);
    opt.hash_mb = 2;
    opt.skill = 2;
    Engine *weak = engine_new(&opt), *full = new_engine();
    opt.threads = 3; /* a weaker level searches alone: its twin with helpers plays the same */
    Engine *twin = engine_new(&opt);
    engine_set_seed(weak, 42);
    engine_set_seed(twin, 42);
    int differ = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
            SchGame g;
            init_fen(&g, fens[i]);
            EngineLimits limits = {.depth = 4};
            EngineResult w = engine_search(weak, &g, &limits, NULL, NULL);
            EngineResult t = engine_search(twin, &g, &limits, NULL, NULL);
            EngineResult f = engine_search(full, &g, &limits, NULL, NULL);
            assert_true(sch_gen_is_legal(&g.pos, w.best));
            assert_int_equal(w.best, t.best); /* same seed, same choices */
            assert_int_equal(w.nodes, t.nodes);
            differ += w.best != f.best;
            sch_game_free(&g);
        }
    assert_true(differ > 0);
    engine_free(weak);
    engine_free(twin);
    engine_free(full);
}

static void test_weak_level_still_takes_a_free_queen_mostly(void **state) {
    (void)state;
    EngineOptions opt;
    engine_options_default(&opt);
    opt.hash_mb = 2;
    opt.limit_strength = true;
    opt.elo = 1500;
    Engine *e = engine_new(&opt);
    engine_set_seed(e, 7);
    SchGame g;
    init_fen(&g, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    int taken = 0;
    for (int i = 0; i < 20; i++) {
        EngineLimits limits = {0};
        EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
        char buf[8];
        sch_uci_write(&g.pos, r.best, buf, sizeof buf);
        taken += strcmp(buf, "d2d5") == 0;
    }
    assert_true(taken >= 12);
    sch_game_free(&g);
    engine_free(e);
}

/* UCI_LimitStrength at the top of UCI_Elo plays the classical engine unweakened, as measured for
 * ENGINE_CLASSICAL_FULL_ELO: not a weakened level below it, and never the net (hundreds of Elo above
 * anything UCI_Elo asks for). The same search as UseNNUE false at skill 20, node for node. */
static void test_elo_at_the_top_plays_classical_full_strength(void **state) {
    (void)state;
    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    EngineOptions top = test_options(2), classical = test_options(1), net = test_options(1);
    /* top has two threads: a level searches alone all the same. */
    top.limit_strength = true;
    top.elo = ENGINE_ELO_MAX;
    classical.use_nnue = false;
    StrengthPlan plan;
    strength_plan(&top, &plan);
    assert_false(plan.active);
    assert_true(plan.classical);
    EngineLimits depth7 = {.depth = 7};
    EngineResult t = search_fen_as(&top, fen, &depth7), c = search_fen_as(&classical, fen, &depth7),
                 n = search_fen_as(&net, fen, &depth7);
    assert_int_equal(t.nodes, c.nodes);
    assert_int_equal(t.score, c.score);
    assert_int_equal(t.best, c.best);
    assert_true(t.nodes != n.nodes || t.score != n.score);
    /* Just below the classical engine's figure: a weakened level, classical too. */
    top.elo = ENGINE_CLASSICAL_FULL_ELO - 10;
    strength_plan(&top, &plan);
    assert_true(plan.active && plan.classical && plan.level > 19.5 && plan.level < 20);
    /* Skill 20 without UCI_LimitStrength is the net at full strength. */
    strength_plan(&net, &plan);
    assert_false(plan.active || plan.classical);
}

static void test_levels_table(void **state) {
    (void)state;
    int count;
    const EngineLevel *levels = engine_levels(&count);
    assert_true(count >= 2);
    assert_int_equal(levels[count - 1].skill, 20);
    assert_int_equal(levels[count - 1].elo, 0);
    assert_ptr_equal(engine_level_find("MAX"), &levels[count - 1]);
    assert_null(engine_level_find("nonsense"));
    /* Measured levels rise in skill and Elo, stay below full strength, and UCI_Elo at a level's
     * Elo plays exactly that level. */
    for (int i = 0; i < count - 1; i++) {
        assert_true(levels[i].elo > 0 && levels[i].elo < ENGINE_CLASSICAL_FULL_ELO);
        assert_true(levels[i].elo >= ENGINE_ELO_MIN && levels[i].elo <= ENGINE_ELO_MAX);
        if (i > 0)
            assert_true(levels[i].elo > levels[i - 1].elo && levels[i].skill > levels[i - 1].skill);
        assert_true(fabs(strength_skill_for_elo(levels[i].elo) - levels[i].skill) < 1e-9);
    }
    assert_true(fabs(strength_skill_for_elo(ENGINE_CLASSICAL_FULL_ELO) - 20) < 1e-9);
    assert_true(fabs(strength_skill_for_elo(ENGINE_ELO_MAX) - 20) < 1e-9);
    double last = -100;
    for (int elo = ENGINE_ELO_MIN; elo <= ENGINE_ELO_MAX; elo += 10) {
        double skill = strength_skill_for_elo(elo);
        assert_true(skill >= -2 && skill <= 20 && skill >= last);
        last = skill;
    }
}

/* ---- the draw policy (schach play and schach serve share it) ---- */

static void test_draw_policy(void **state) {
    (void)state;
    SchError err;
    sch_err_clear(&err);
    /* A standing offer by the opponent: accepted at ENGINE_DRAW_ACCEPT_SCORE and below only. */
    SchGame g;
    sch_game_init(&g);
    assert_true(sch_game_play(&g, sch_uci_parse(sch_game_position(&g), "e2e4", &err), &err));
    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_int_equal(ENGINE_DRAW_ACCEPT_SCORE, -50);
    assert_true(engine_accepts_draw(-50) && engine_accepts_draw(-400));
    assert_false(engine_accepts_draw(-49) || engine_accepts_draw(0));
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, -50), ENGINE_DRAW_ACCEPT);
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, -49), ENGINE_DRAW_NONE);
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, 0), ENGINE_DRAW_NONE);
    sch_game_free(&g);
    /* Its own offer is no reason to accept anything. */
    sch_game_init(&g);
    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, -300), ENGINE_DRAW_NONE);
    sch_game_free(&g);
    /* 50 moves without capture or pawn move: claimed when it does not stand better. */
    init_fen(&g, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, 0), ENGINE_DRAW_CLAIM);
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, -20), ENGINE_DRAW_CLAIM);
    assert_int_equal(engine_draw_choice(&g, SCH_MOVE_NONE, 1), ENGINE_DRAW_NONE);
    sch_game_free(&g);
    /* One ply before: the quiet move brings the claim with it, a capture-free pawn move does not. */
    init_fen(&g, "4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
    SchMove quiet = sch_uci_parse(sch_game_position(&g), "a1b1", &err),
            pawn = sch_uci_parse(sch_game_position(&g), "a2a3", &err);
    assert_int_equal(engine_draw_choice(&g, quiet, 0), ENGINE_DRAW_CLAIM_WITH_MOVE);
    assert_int_equal(engine_draw_choice(&g, quiet, 30), ENGINE_DRAW_NONE);
    assert_int_equal(engine_draw_choice(&g, pawn, 0), ENGINE_DRAW_NONE);
    sch_game_free(&g);
}

/* ---- options and bench ---- */

static void test_options_round_trip(void **state) {
    (void)state;
    Engine *e = new_engine();
    EngineOptions opt;
    engine_get_options(e, &opt);
    assert_int_equal(opt.hash_mb, 4);
    opt.hash_mb = 8;
    opt.skill = 25; /* clamped */
    assert_true(engine_set_options(e, &opt));
    engine_get_options(e, &opt);
    assert_int_equal(opt.hash_mb, 8);
    assert_int_equal(opt.skill, 20);
    engine_clear(e);
    engine_free(e);
}

static void test_bench_is_deterministic(void **state) {
    (void)state;
    int64_t ms;
    uint64_t a = engine_bench(4, false, &ms, NULL, NULL);
    uint64_t b = engine_bench(4, false, &ms, NULL, NULL);
    assert_true(a > 0);
    assert_int_equal(a, b);
}

/* Whole games at 1 s + 0.01 s in which every move takes its soft budget (or 40% more, as an
 * unstable best move may) plus a few milliseconds of latency: the clock must settle on the cushion,
 * never near zero, and no single move may be allowed more than half of what is left. */
static int lowest_clock(int percent, int latency, int lag) {
    const int overhead = 10;
    int clock = 1000, lowest = clock;
    for (int move = 0; move < 300; move++) {
        EngineLimits lim = {.time = {clock, clock}, .inc = {10, 10}};
        TimeManager tm;
        tm_init(&tm, &lim, SCH_WHITE, overhead, lag);
        assert_true(tm.soft_ms >= 1 && tm.soft_ms <= tm.hard_ms);
        assert_true(tm.hard_ms <= (clock - overhead) / 2);
        clock -= (int)tm.soft_ms * percent / 100 + latency;
        lowest = clock < lowest ? clock : lowest;
        clock += 10;
    }
    return lowest;
}

static void test_time_budget_keeps_a_cushion(void **state) {
    (void)state;
    const int overhead = 10;
    assert_true(lowest_clock(100, 2, 0) >= 350);
    assert_true(lowest_clock(140, 1, 0) >= 300);
    /* A lag the engine did not know of eats into the cushion; one it measured much less so. */
    assert_true(lowest_clock(100, 5, 0) >= 250);
    assert_true(lowest_clock(100, 8, 8) >= 300);
    /* 10 s + 0.1 s: the first move may use about a thirtieth of the clock plus most of the increment. */
    EngineLimits lim = {.time = {10000, 10000}, .inc = {100, 100}};
    TimeManager tm;
    tm_init(&tm, &lim, SCH_BLACK, overhead, 0);
    assert_in_range(tm.soft_ms, 350, 450);
    /* The last move before a control may use most of the clock, never all of it. */
    EngineLimits last = {.time = {2000, 2000}, .movestogo = 1};
    tm_init(&tm, &last, SCH_WHITE, overhead, 0);
    assert_true(tm.hard_ms < 2000 - overhead && tm.soft_ms <= tm.hard_ms);
    /* movetime is exact, less the overhead. */
    EngineLimits fixed = {.movetime = 500};
    tm_init(&tm, &fixed, SCH_WHITE, overhead, 0);
    assert_int_equal(tm.soft_ms, 490);
    assert_int_equal(tm.hard_ms, 490);
    /* A nearly empty clock still gives a positive budget. */
    EngineLimits empty = {.time = {5, 5}};
    tm_init(&tm, &empty, SCH_WHITE, overhead, 0);
    assert_true(tm.soft_ms >= 1 && tm.hard_ms >= 1);
}

/* The soft limit follows the search: a settled best move that took nearly all of the root's nodes
 * stops early, one that took few of them, or a falling score, runs on; without a clock nothing stops. */
static void test_soft_limit_follows_the_search(void **state) {
    (void)state;
    EngineLimits lim = {.time = {60000, 60000}, .inc = {600, 600}};
    TimeManager tm;
    tm_init(&tm, &lim, SCH_WHITE, 10, 0);
    int64_t soft = tm.soft_ms;
    TmSignals usual = {.stability = 2, .best_effort = 850};
    /* At the usual share the old stability factor (90 % after two stable iterations) is kept. */
    assert_false(tm_soft_over(&tm, soft * 85 / 100, &usual));
    assert_true(tm_soft_over(&tm, soft * 95 / 100, &usual));
    TmSignals unknown = {.stability = 2, .best_effort = -1};
    assert_false(tm_soft_over(&tm, soft * 89 / 100, &unknown));
    assert_true(tm_soft_over(&tm, soft * 91 / 100, &unknown));
    /* A best move that took nearly all the nodes: stop sooner. */
    TmSignals sure = {.stability = 2, .best_effort = 990};
    assert_true(tm_soft_over(&tm, soft * 78 / 100, &sure));
    /* A contested one: think on, but the factor is bounded. */
    TmSignals contested = {.stability = 2, .best_effort = 300};
    assert_false(tm_soft_over(&tm, soft * 150 / 100, &contested));
    assert_true(tm_soft_over(&tm, soft * 160 / 100, &contested));
    TmSignals none = {.stability = 2, .best_effort = 0};
    assert_false(tm_soft_over(&tm, soft * 179 / 100, &none));
    assert_true(tm_soft_over(&tm, soft * 181 / 100, &none));
    /* A score that fell 40 cp over two iterations: 20 % more; a fall of 500 cp: at most 50 % more. */
    TmSignals falling = {.stability = 2, .best_effort = 850, .score_drop = 40};
    assert_false(tm_soft_over(&tm, soft * 110 / 100, &falling));
    assert_true(tm_soft_over(&tm, soft * 125 / 100, &falling));
    TmSignals collapse = {.stability = 2, .best_effort = 850, .score_drop = 500};
    assert_false(tm_soft_over(&tm, soft * 135 / 100, &collapse));
    assert_true(tm_soft_over(&tm, soft * 140 / 100, &collapse));
    /* No clock: never over. */
    EngineLimits none_lim = {.depth = 5};
    tm_init(&tm, &none_lim, SCH_WHITE, 10, 0);
    assert_false(tm_soft_over(&tm, 1000000, &contested));
}

/* Plays the engine's move and the engine's reply for the other side, so the game goes on by two plies. */
static void play_two(Engine *e, SchGame *g, const EngineLimits *lim) {
    SchError err;
    sch_err_clear(&err);
    EngineLimits quick = {.depth = 1};
    for (int i = 0; i < 2; i++) {
        EngineResult r = engine_search(e, g, i == 0 ? lim : &quick, NULL, NULL);
        assert_true(sch_game_play(g, r.best, &err));
    }
}

/* The clock of the lag measurement in test_lag_is_measured_between_moves: it stands still, so each
 * search took 0 ms there. On a busy machine a depth-1 search can take tens of milliseconds of wall
 * time, which the estimate would (rightly) not count as lag, and the exact figures below would move. */
static int64_t frozen_ms(void) { return 0; }

/* The engine learns how much each move costs its clock beyond the search: a clock 200 ms short of
 * what the last search left is lag; a clock that matches lets the estimate decay; a new game, a
 * different position or an absurd gap teach nothing. */
static void test_lag_is_measured_between_moves(void **state) {
    (void)state;
    Engine *e = new_engine();
    engine_set_lag_clock(e, frozen_ms);
    SchGame g;
    sch_game_init(&g);
    EngineLimits lim = {.depth = 1, .time = {1000, 1000}, .inc = {10, 10}};
    play_two(e, &g, &lim); /* searched 0 ms (by the frozen clock) at 1000 ms */
    assert_int_equal(engine_lag(e), 0);
    lim.time[SCH_WHITE] = 1000 + 10 - 200;
    play_two(e, &g, &lim);
    assert_in_range(engine_lag(e), 150, 200);
    int learned = engine_lag(e);
    lim.time[SCH_WHITE] = 810 + 10; /* no lag this time */
    play_two(e, &g, &lim);
    assert_in_range(engine_lag(e), learned * 3 / 4 - 2, learned * 3 / 4 + 1);
    learned = engine_lag(e);
    lim.time[SCH_WHITE] = 100; /* 730 ms short: still lag */
    play_two(e, &g, &lim);
    assert_in_range(engine_lag(e), 700, 730);
    learned = engine_lag(e);
    lim.time[SCH_WHITE] = 5000; /* more time than expected: the estimate decays */
    play_two(e, &g, &lim);
    assert_in_range(engine_lag(e), learned * 3 / 4 - 1, learned * 3 / 4);
    learned = engine_lag(e);
    /* Five seconds short: not lag but a new game the caller did not announce. */
    lim.time[SCH_WHITE] = 1;
    play_two(e, &g, &lim);
    assert_int_equal(engine_lag(e), learned);
    /* After engine_clear (ucinewgame) the next clock is not compared with the last. */
    engine_clear(e);
    lim.time[SCH_WHITE] = 1;
    play_two(e, &g, &lim);
    assert_int_equal(engine_lag(e), learned);
    /* Nor is a clock in another game. */
    SchGame other;
    sch_game_init(&other);
    EngineResult r = engine_search(e, &other, &lim, NULL, NULL);
    (void)r;
    assert_int_equal(engine_lag(e), learned);
    sch_game_free(&other);
    sch_game_free(&g);
    engine_free(e);
}

/* The weakest level's node budget is smaller than one MultiPV iteration: the first iteration
 * must still complete, or the level has no lines to choose from and always plays its best move
 * (it did, and beat the level above it). With different seeds it must vary its moves. */
static void test_weakest_level_has_lines_to_choose_from(void **state) {
    (void)state;
    Engine *e = new_engine();
    EngineOptions opt;
    engine_get_options(e, &opt);
    opt.skill = 0;
    assert_true(engine_set_options(e, &opt));
    SchGame g;
    init_fen(&g, "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    SchMove seen[32];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 32; seed++) {
        engine_set_seed(e, seed);
        engine_clear(e);
        EngineLimits limits = {.time = {10000, 10000}, .inc = {100, 100}};
        EngineResult r = engine_search(e, &g, &limits, NULL, NULL);
        assert_true(r.best != SCH_MOVE_NONE);
        bool known = false;
        for (int i = 0; i < distinct; i++)
            known = known || seen[i] == r.best;
        if (!known)
            seen[distinct++] = r.best;
    }
    assert_true(distinct >= 3);
    /* A plain node limit below one iteration also finishes the first iteration. */
    opt.skill = 20;
    assert_true(engine_set_options(e, &opt));
    EngineLimits tiny = {.nodes = 1};
    EngineResult r = engine_search(e, &g, &tiny, NULL, NULL);
    assert_true(r.best != SCH_MOVE_NONE && r.depth >= 1);
    sch_game_free(&g);
    engine_free(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_policy),
        cmocka_unit_test(test_mate_in_one),
        cmocka_unit_test(test_mate_in_two_and_three),
        cmocka_unit_test(test_mate_limit_stops_with_the_mate),
        cmocka_unit_test(test_no_legal_move_at_root),
        cmocka_unit_test(test_perpetual_check_scores_draw),
        cmocka_unit_test(test_repetition_uses_game_history),
        cmocka_unit_test(test_fifty_move_rule),
        cmocka_unit_test(test_evaluation_is_symmetric),
        cmocka_unit_test(test_evaluation_knows_material_and_basic_mates),
        cmocka_unit_test(test_trace_matches_evaluation),
        cmocka_unit_test(test_see),
        cmocka_unit_test(test_stop_from_another_thread),
        cmocka_unit_test(test_stop_before_search_still_returns_a_move),
        cmocka_unit_test(test_node_limit),
        cmocka_unit_test(test_helper_stops_at_the_node_limit),
        cmocka_unit_test(test_weakest_level_has_lines_to_choose_from),
        cmocka_unit_test(test_time_budget_keeps_a_cushion),
        cmocka_unit_test(test_soft_limit_follows_the_search),
        cmocka_unit_test(test_lag_is_measured_between_moves),
        cmocka_unit_test(test_multipv_lines_are_distinct_and_ordered),
        cmocka_unit_test(test_threads_find_the_mates),
        cmocka_unit_test(test_threads_start_stop_and_resize),
        cmocka_unit_test(test_searchmoves),
        cmocka_unit_test(test_weak_levels_play_legal_and_sometimes_other_moves),
        cmocka_unit_test(test_weak_level_still_takes_a_free_queen_mostly),
        cmocka_unit_test(test_elo_at_the_top_plays_classical_full_strength),
        cmocka_unit_test(test_levels_table),
        cmocka_unit_test(test_options_round_trip),
        cmocka_unit_test(test_bench_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
