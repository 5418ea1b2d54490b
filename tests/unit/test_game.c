/* Game record: automatic endings, claims, offers, resignation, time forfeit, undo, messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "schach/explain.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"
#include "util/error_internal.h"

/* The legal move written like UCI ("e2e4", "e7e8q", castling as the king's move), or SCH_MOVE_NONE. */
static SchMove find_move(const SchPosition *pos, const char *uci) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    size_t len = strlen(uci);
    if (len != 4 && len != 5)
        return SCH_MOVE_NONE;
    SchSquare from = sch_square_parse(uci), to = sch_square_parse(uci + 2);
    for (int i = 0; i < n; i++) {
        SchMove m = moves[i];
        if (sch_move_from(m) != from || sch_move_to(m) != to)
            continue;
        bool promotes = sch_move_kind(m) == SCH_MOVE_PROMOTION;
        if (len == 4 && !promotes)
            return m;
        if (len == 5 && promotes && "nbrq"[sch_move_promotion(m) - SCH_KNIGHT] == uci[4])
            return m;
    }
    return SCH_MOVE_NONE;
}

static SchMove must_find(const SchGame *g, const char *uci) {
    SchMove m = find_move(sch_game_position(g), uci);
    if (m == SCH_MOVE_NONE)
        fail_msg("no legal move %s", uci);
    return m;
}

static void init_fen(SchGame *g, const char *fen) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, fen, &err))
        fail_msg("bad test FEN %s (error %d)", fen, err.code);
}

static void assert_outcome(const SchGame *g, SchResult r, SchTermination t) {
    assert_int_equal(g->outcome.result, r);
    assert_int_equal(g->outcome.termination, t);
}

static void assert_describe(SchResult r, SchTermination t, SchColor winner, const char *en, const char *de) {
    SchOutcome o = {r, t, winner, 0};
    char buf[160];
    size_t n = sch_outcome_describe(&o, SCH_LANG_EN, buf, sizeof buf);
    assert_string_equal(buf, en);
    assert_int_equal(n, strlen(en));
    n = sch_outcome_describe(&o, SCH_LANG_DE, buf, sizeof buf);
    assert_string_equal(buf, de);
    assert_int_equal(n, strlen(de));
}

#define KNIGHT_SHUFFLE "g1f3 g8f6 f3g1 f6g8 "

/* ---- playing, illegal moves, undo ---- */

static void test_play_and_history(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    assert_int_equal(g.ply_count, 0);
    assert_false(sch_game_over(&g));
    play_line(&g, "e2e4 e7e5 g1f3");
    assert_int_equal(g.ply_count, 3);
    assert_int_equal(sch_pos_turn(sch_game_position(&g)), SCH_BLACK);
    assert_int_equal(g.plies[2].move, sch_move_make(SCH_SQ_G1, SCH_SQ_F3));
    assert_true(g.plies[2].key == sch_game_repetition_key(sch_game_position(&g)));
    assert_int_equal(sch_game_repetitions(&g), 1);
    sch_game_free(&g);
    assert_null(g.plies);
}

static void test_illegal_move(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_play(&g, sch_move_make(SCH_SQ_E2, SCH_SQ_E5), &err));
    assert_int_equal(err.code, SCH_GAME_ERR_ILLEGAL);
    assert_string_equal(err.args[0], "e2e5");
    char msg[128];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "e2e5 is not a legal move");
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "e2e5 ist kein regelgemäßer Zug");
    assert_false(sch_game_play(&g, SCH_MOVE_NONE, &err));
    assert_false(sch_game_play(&g, 0xFFFF, NULL));
    assert_int_equal(g.ply_count, 0);
    sch_game_free(&g);
}

static void test_undo_restores_state(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    char start_fen[SCH_FEN_MAX], fen[SCH_FEN_MAX];
    sch_fen_write(sch_game_position(&g), start_fen, sizeof start_fen);
    uint64_t start_key = sch_game_position(&g)->key;
    /* A capture, an en passant capture, castling. */
    play_line(&g, "e2e4 d7d5 e4d5 c7c5 d5c6 b7c6 g1f3 g8f6 f1e2 e7e6 e1g1");
    assert_int_equal(g.ply_count, 11);
    sch_fen_write(sch_game_position(&g), fen, sizeof fen);
    assert_string_equal(fen, "rnbqkb1r/p4ppp/2p1pn2/8/8/5N2/PPPPBPPP/RNBQ1RK1 b kq - 1 6");
    while (g.ply_count > 0)
        assert_true(sch_game_undo(&g));
    assert_false(sch_game_undo(&g));
    sch_fen_write(sch_game_position(&g), fen, sizeof fen);
    assert_string_equal(fen, start_fen);
    assert_true(sch_game_position(&g)->key == start_key);
    char why[128];
    assert_true(sch_pos_ok(sch_game_position(&g), why, sizeof why));
    sch_game_free(&g);

    init_fen(&g, "8/P6k/8/8/8/8/8/K7 w - - 7 40");
    play_line(&g, "a7a8n");
    assert_int_equal(sch_pos_piece_on(sch_game_position(&g), SCH_SQ_A8), SCH_W_KNIGHT);
    assert_true(sch_game_over(&g)); /* K+N v K */
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    sch_fen_write(sch_game_position(&g), fen, sizeof fen);
    assert_string_equal(fen, "8/P6k/8/8/8/8/8/K7 w - - 7 40");
    sch_game_free(&g);
}

static void test_copy(void **state) {
    (void)state;
    SchGame a, b;
    sch_game_init(&a);
    play_line(&a, "e2e4 e7e5");
    assert_true(sch_game_copy(&b, &a));
    play_line(&a, "g1f3");
    assert_int_equal(b.ply_count, 2);
    assert_int_equal(a.ply_count, 3);
    assert_ptr_not_equal(a.plies, b.plies);
    play_line(&b, "d2d4");
    assert_int_equal(b.plies[2].move, sch_move_make(SCH_SQ_D2, SCH_SQ_D4));
    assert_int_equal(a.plies[2].move, sch_move_make(SCH_SQ_G1, SCH_SQ_F3));
    sch_game_free(&a);
    sch_game_free(&b);
}

static void test_init_fen_invalid(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_init_fen(&g, "not a fen", &err));
    assert_int_not_equal(err.code, SCH_ERR_NONE);
    char fen[SCH_FEN_MAX];
    sch_fen_write(sch_game_position(&g), fen, sizeof fen);
    assert_string_equal(fen, SCH_FEN_START);
    play_line(&g, "e2e4"); /* a fresh, usable game */
    sch_game_free(&g);
}

/* ---- automatic endings ---- */

static void test_checkmate(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play_line(&g, "f2f3 e7e5 g2g4 d8h4");
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_CHECKMATE);
    assert_int_equal(g.outcome.winner, SCH_BLACK);
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_play(&g, sch_move_make(SCH_SQ_A2, SCH_SQ_A3), &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    assert_int_equal(sch_game_claims(&g), 0);
    /* Undo takes back the mating move and the ending it caused. */
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    assert_int_equal(g.ply_count, 3);
    play_line(&g, "d8h4");
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_CHECKMATE);
    sch_game_free(&g);
}

static void test_game_over_at_start(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_CHECKMATE);
    assert_false(sch_game_undo(&g));
    sch_game_free(&g);
    init_fen(&g, "8/8/8/4k3/8/8/8/R3K3 b - - 150 100");
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_SEVENTYFIVE_MOVES);
    sch_game_free(&g);
}

static void test_stalemate(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1");
    assert_false(sch_game_over(&g));
    play_line(&g, "g1g6");
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_STALEMATE);
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    sch_game_free(&g);
}

static void test_insufficient_by_capture(void **state) {
    (void)state;
    static const char *const fens[] = {
        "8/8/8/4k3/8/8/3q4/4K3 w - - 0 1",   /* K v K */
        "8/8/8/4k3/8/8/3q4/4K1N1 w - - 0 1", /* K+N v K */
        "8/8/8/4k3/8/8/3q4/4K2B w - - 0 1",  /* K+B v K (with Bf1 the check itself is dead: below) */
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        SchGame g;
        init_fen(&g, fens[i]);
        assert_false(sch_game_over(&g));
        play_line(&g, "e1d2");
        assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_INSUFFICIENT_MATERIAL);
        sch_game_free(&g);
    }
    /* Capturing into K+B v K+B on opposite colours: mate is still possible, the game goes on. */
    SchGame g;
    init_fen(&g, "8/8/8/4k3/8/3b4/3q4/2B1K3 w - - 0 1");
    play_line(&g, "e1d2");
    assert_false(sch_game_over(&g));
    sch_game_free(&g);
}

/* A check whose only answer captures into insufficient material: the position is dead already (5.2.2),
 * no material count shows it, and the side to move is short of moves, so the quick pass asks the full
 * analysis. The game ends with the check, not one move later. */
static void test_dead_before_forced_capture(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "3q4/8/8/4k3/8/8/8/4KB2 b - - 0 1");
    assert_false(sch_game_over(&g));
    play_line(&g, "d8d2");
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_DEAD_POSITION);
    sch_game_free(&g);
    /* The same check with a square to step to (f1 free): Black may still mate, the game goes on. */
    init_fen(&g, "3q4/8/8/4k3/8/8/8/4K2B b - - 0 1");
    play_line(&g, "d8d2");
    assert_false(sch_game_over(&g));
    sch_game_free(&g);
}

static void test_insufficient_material_positions(void **state) {
    (void)state;
    static const struct {
        const char *fen;
        bool dead;
    } cases[] = {
        {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},        /* K v K */
        {"8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", true},      /* K+N v K */
        {"8/8/8/4k1n1/8/8/8/4K3 w - - 0 1", true},      /* K v K+N */
        {"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true},       /* K+B v K */
        {"8/8/8/4k3/8/b7/8/2B1K3 w - - 0 1", true},     /* K+B v K+B, both dark */
        {"8/8/8/4k3/8/3b4/8/2B1K3 w - - 0 1", false},   /* K+B v K+B, opposite colours */
        {"8/8/8/4k3/8/4B3/1b6/2B1K3 w - - 0 1", true},  /* three bishops, all dark */
        {"8/8/8/4k3/8/4B3/1b6/2BBK3 w - - 0 1", false}, /* one of them light */
        {"8/8/8/4k1n1/8/8/8/4KB2 w - - 0 1", false},    /* K+B v K+N */
        {"8/8/8/4k1n1/8/8/8/4K1N1 w - - 0 1", false},   /* K+N v K+N */
        {"8/8/8/4k3/8/8/8/4KNN1 w - - 0 1", false},     /* K+N+N v K */
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false},     /* a pawn */
        {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false},      /* a rook */
        {"8/8/8/4k3/8/8/8/3QK3 w - - 0 1", false},      /* a queen */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SchPosition pos;
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, cases[i].fen, &err))
            fail_msg("bad test FEN %s (error %d)", cases[i].fen, err.code);
        if (sch_pos_insufficient_material(&pos) != cases[i].dead)
            fail_msg("%s: expected %s", cases[i].fen, cases[i].dead ? "dead" : "not dead");
        SchGame g;
        init_fen(&g, cases[i].fen);
        if (cases[i].dead)
            assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_INSUFFICIENT_MATERIAL);
        else
            assert_false(sch_game_over(&g));
        sch_game_free(&g);
    }
}

static void test_fivefold_automatic(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    play_line(&g, KNIGHT_SHUFFLE KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_repetitions(&g), 3);
    assert_false(sch_game_over(&g)); /* threefold is only a claim */
    play_line(&g, KNIGHT_SHUFFLE "g1f3 g8f6 f3g1");
    assert_int_equal(g.ply_count, 15);
    assert_int_equal(sch_game_repetitions(&g), 4);
    assert_false(sch_game_over(&g));
    play_line(&g, "f6g8");
    assert_int_equal(sch_game_repetitions(&g), 5);
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_FIVEFOLD_REPETITION);
    /* Undo takes the automatic ending back. */
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    assert_int_equal(sch_game_repetitions(&g), 4);
    /* A claim together with the fifth occurrence is void: the automatic ending stands. */
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_claim_with_move(&g, must_find(&g, "f6g8"), SCH_CLAIM_THREEFOLD, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_CLAIM_VOID);
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_FIVEFOLD_REPETITION);
    assert_true(sch_game_undo(&g)); /* automatic, so it can be taken back */
    sch_game_free(&g);
}

static void test_seventyfive_moves(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "8/8/8/4k3/8/8/8/R3K3 w - - 148 100");
    play_line(&g, "a1a2");
    assert_false(sch_game_over(&g));
    play_line(&g, "e5e4");
    assert_int_equal(sch_game_position(&g)->halfmove, 150);
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_SEVENTYFIVE_MOVES);
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    sch_game_free(&g);
}

static void test_mate_on_seventyfifth_move(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "k7/8/1K6/8/8/8/8/7R w - - 149 100");
    play_line(&g, "h1h8");
    assert_int_equal(sch_game_position(&g)->halfmove, 150);
    assert_outcome(&g, SCH_RESULT_WHITE_WINS, SCH_TERM_CHECKMATE);
    sch_game_free(&g);
    /* Stalemate on that move is likewise decided as stalemate. */
    init_fen(&g, "7k/5K2/8/8/8/8/8/6Q1 w - - 149 100");
    play_line(&g, "g1g6");
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_STALEMATE);
    sch_game_free(&g);
}

/* ---- repetition identity ---- */

static void test_repetition_ep_pinned(void **state) {
    (void)state;
    SchGame g;
    /* After e7e5 the d5 pawn stands beside it, but dxe6 would expose Ka5 to Rh5: not legal. */
    init_fen(&g, "4k1n1/4p3/8/K2P3r/8/8/8/6N1 b - - 0 1");
    play_line(&g, "e7e5");
    const SchPosition *pos = sch_game_position(&g);
    assert_int_equal(pos->ep, SCH_SQ_E6);
    assert_false(sch_gen_ep_legal(pos));
    assert_true(sch_game_repetition_key(pos) != pos->key);
    uint64_t key = sch_game_repetition_key(pos);
    play_line(&g, KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_position(&g)->ep, SCH_SQ_NONE);
    assert_true(sch_game_repetition_key(sch_game_position(&g)) == key);
    assert_int_equal(sch_game_repetitions(&g), 2);
    play_line(&g, KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_repetitions(&g), 3);
    assert_int_equal(sch_game_claims(&g), SCH_CLAIM_THREEFOLD);
    sch_game_free(&g);
}

static void test_repetition_ep_legal(void **state) {
    (void)state;
    SchGame g;
    /* The same, but the rook stands on h6: dxe6 is legal, so the position after e7e5 is unique. */
    init_fen(&g, "4k1n1/4p3/7r/K2P4/8/8/8/6N1 b - - 0 1");
    play_line(&g, "e7e5");
    const SchPosition *pos = sch_game_position(&g);
    assert_int_equal(pos->ep, SCH_SQ_E6);
    assert_true(sch_gen_ep_legal(pos));
    assert_true(sch_game_repetition_key(pos) == pos->key);
    play_line(&g, KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_repetitions(&g), 1);
    play_line(&g, KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_repetitions(&g), 2);
    play_line(&g, KNIGHT_SHUFFLE);
    assert_int_equal(sch_game_repetitions(&g), 3);
    sch_game_free(&g);
}

static void test_repetition_castling_rights(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play_line(&g, "e1f1 e8f8 f1e1 f8e8");
    assert_int_equal(sch_game_position(&g)->castling, 0);
    assert_int_equal(sch_game_repetitions(&g), 1); /* the start had castling rights */
    play_line(&g, "e1f1 e8f8 f1e1 f8e8");
    assert_int_equal(sch_game_repetitions(&g), 2);
    sch_game_free(&g);

    /* A rook move and back loses one right: different, too. */
    init_fen(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play_line(&g, "h1g1 h8g8 g1h1 g8h8");
    assert_int_equal(sch_game_position(&g)->castling, SCH_CASTLE_WQ | SCH_CASTLE_BQ);
    assert_int_equal(sch_game_repetitions(&g), 1);
    play_line(&g, "h1g1 h8g8 g1h1 g8h8");
    assert_int_equal(sch_game_repetitions(&g), 2);
    sch_game_free(&g);
}

/* ---- claims ---- */

static void test_threefold_claim_now(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    SchError err;
    sch_err_clear(&err);
    play_line(&g, KNIGHT_SHUFFLE "g1f3 g8f6 f3g1");
    assert_int_equal(sch_game_claims(&g), 0);
    assert_false(sch_game_claim(&g, SCH_CLAIM_THREEFOLD, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_NO_CLAIM);
    assert_int_equal(g.draw_offer, SCH_BLACK); /* an incorrect claim is a draw offer (9.1.2.4) */
    assert_false(sch_game_over(&g));
    play_line(&g, "f6g8");
    assert_int_equal(g.draw_offer, SCH_BLACK); /* the claimant's own move keeps it */
    assert_int_equal(sch_game_repetitions(&g), 3);
    assert_int_equal(sch_game_claims(&g), SCH_CLAIM_THREEFOLD);
    sch_err_clear(&err);
    assert_false(sch_game_claim(&g, SCH_CLAIM_FIFTY, &err)); /* the wrong kind */
    assert_int_equal(err.code, SCH_GAME_ERR_NO_CLAIM);
    assert_true(sch_game_claim(&g, SCH_CLAIM_THREEFOLD, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_THREEFOLD_REPETITION);
    /* A claimed draw is final. */
    assert_false(sch_game_undo(&g));
    assert_int_equal(g.ply_count, 8);
    sch_err_clear(&err);
    assert_false(sch_game_claim(&g, 0, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    sch_game_free(&g);
}

static void test_threefold_claim_with_move(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    SchError err;
    play_line(&g, KNIGHT_SHUFFLE "g1f3 g8f6 f3g1");
    SchMove m = must_find(&g, "f6g8");
    assert_int_equal(sch_game_claims_with_move(&g, m), SCH_CLAIM_THREEFOLD);
    assert_int_equal(sch_game_claims_with_move(&g, must_find(&g, "f6h5")), 0);
    sch_err_clear(&err);
    assert_true(sch_game_claim_with_move(&g, m, 0, &err));
    assert_int_equal(g.ply_count, 8);
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_THREEFOLD_REPETITION);
    assert_false(sch_game_undo(&g));
    sch_game_free(&g);

    /* Too early: the move is played anyway and the game goes on (9.5). */
    sch_game_init(&g);
    play_line(&g, "g1f3 g8f6 f3g1");
    sch_err_clear(&err);
    assert_false(sch_game_claim_with_move(&g, must_find(&g, "f6g8"), SCH_CLAIM_THREEFOLD, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_CLAIM_REJECTED);
    assert_string_equal(err.args[0], "f6g8");
    assert_int_equal(g.ply_count, 4);
    assert_false(sch_game_over(&g));
    assert_int_equal(g.draw_offer, SCH_BLACK);
    /* White may accept that offer. */
    assert_true(sch_game_accept_draw(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_AGREEMENT);
    sch_game_free(&g);

    /* An illegal move with a claim: nothing happens. */
    sch_game_init(&g);
    sch_err_clear(&err);
    assert_false(sch_game_claim_with_move(&g, sch_move_make(SCH_SQ_E2, SCH_SQ_E5), 0, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_ILLEGAL);
    assert_int_equal(g.ply_count, 0);
    assert_int_equal(g.draw_offer, -1);
    sch_game_free(&g);
}

static void test_fifty_move_claims(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    init_fen(&g, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80");
    assert_int_equal(sch_game_claims(&g), 0);
    SchMove m = must_find(&g, "a1a2");
    assert_int_equal(sch_game_claims_with_move(&g, m), SCH_CLAIM_FIFTY);
    sch_err_clear(&err);
    assert_true(sch_game_claim_with_move(&g, m, SCH_CLAIM_FIFTY, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_FIFTY_MOVES);
    assert_int_equal(g.ply_count, 1);
    sch_game_free(&g);

    /* Without a claim the game goes on; then the opponent may claim on the board. */
    init_fen(&g, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80");
    play_line(&g, "a1a2");
    assert_false(sch_game_over(&g));
    assert_int_equal(sch_game_claims(&g), SCH_CLAIM_FIFTY);
    sch_err_clear(&err);
    assert_false(sch_game_claim(&g, SCH_CLAIM_THREEFOLD, &err));
    assert_true(sch_game_claim(&g, 0, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_FIFTY_MOVES);
    sch_game_free(&g);

    /* A pawn move resets the count: the claim with it is incorrect; a king move would do. */
    init_fen(&g, "8/8/8/4k3/8/8/P7/4K3 w - - 99 80");
    assert_int_equal(sch_game_claims_with_move(&g, must_find(&g, "e1d1")), SCH_CLAIM_FIFTY);
    m = must_find(&g, "a2a3");
    assert_int_equal(sch_game_claims_with_move(&g, m), 0);
    sch_err_clear(&err);
    assert_false(sch_game_claim_with_move(&g, m, SCH_CLAIM_FIFTY, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_CLAIM_REJECTED);
    assert_int_equal(g.ply_count, 1);
    assert_int_equal(sch_game_position(&g)->halfmove, 0);
    assert_false(sch_game_over(&g));
    sch_game_free(&g);
}

/* ---- offers, resignation, time ---- */

static void test_draw_offers(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    sch_game_init(&g);
    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    sch_err_clear(&err);
    assert_false(sch_game_accept_draw(&g, SCH_WHITE, &err)); /* not one's own offer */
    assert_int_equal(err.code, SCH_GAME_ERR_NO_OFFER);
    play_line(&g, "e2e4");
    assert_int_equal(g.draw_offer, SCH_WHITE); /* the offerer's move keeps it */
    play_line(&g, "e7e5");
    assert_int_equal(g.draw_offer, -1); /* the opponent moved: it lapsed */
    sch_err_clear(&err);
    assert_false(sch_game_accept_draw(&g, SCH_BLACK, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_NO_OFFER);

    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_true(sch_game_decline_draw(&g, SCH_BLACK, &err));
    assert_int_equal(g.draw_offer, -1);
    sch_err_clear(&err);
    assert_false(sch_game_decline_draw(&g, SCH_BLACK, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_NO_OFFER);

    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    play_line(&g, "g1f3");
    assert_true(sch_game_accept_draw(&g, SCH_BLACK, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_AGREEMENT);
    assert_false(sch_game_undo(&g));
    sch_err_clear(&err);
    assert_false(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    sch_game_free(&g);

    /* Offers from both sides meet: agreement. */
    sch_game_init(&g);
    assert_true(sch_game_offer_draw(&g, SCH_BLACK, &err));
    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_AGREEMENT);
    sch_game_free(&g);

    /* Undo withdraws an offer. */
    sch_game_init(&g);
    play_line(&g, "e2e4");
    assert_true(sch_game_offer_draw(&g, SCH_WHITE, &err));
    assert_true(sch_game_undo(&g));
    assert_int_equal(g.draw_offer, -1);
    sch_game_free(&g);
}

static void test_resignation_and_abandonment(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    sch_game_init(&g);
    play_line(&g, "e2e4 e7e5");
    assert_true(sch_game_resign(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_RESIGNATION);
    assert_int_equal(g.outcome.winner, SCH_BLACK);
    assert_false(sch_game_undo(&g));
    assert_int_equal(g.ply_count, 2);
    sch_err_clear(&err);
    assert_false(sch_game_resign(&g, SCH_BLACK, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    sch_err_clear(&err);
    assert_false(sch_game_play(&g, must_find(&g, "g1f3"), &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    assert_false(sch_game_time_forfeit(&g, SCH_BLACK, &err));
    sch_game_free(&g);

    sch_game_init(&g);
    assert_true(sch_game_abandon(&g, SCH_BLACK, &err));
    assert_outcome(&g, SCH_RESULT_WHITE_WINS, SCH_TERM_ABANDONED);
    assert_false(sch_game_undo(&g));
    sch_game_free(&g);
}

/* Material cases of 6.9 through the full analysis: "can" means a helpmate exists (the analysis must
 * not say unwinnable), "cannot" that material alone shows it cannot. */
static void test_can_checkmate_material(void **state) {
    (void)state;
    static const struct {
        const char *fen;
        SchColor color;
        bool can;
    } cases[] = {
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", SCH_BLACK, false},  /* bare king */
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", SCH_WHITE, true},   /* a pawn */
        {"8/8/8/4k1n1/8/8/4P3/4K3 w - - 0 1", SCH_BLACK, true}, /* K+N v K+P */
        {"8/8/8/4k1n1/8/8/8/4K3 w - - 0 1", SCH_BLACK, false},  /* K+N v K */
        {"8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", SCH_BLACK, true},  /* K+N v K+R */
        {"8/8/8/4k1n1/8/8/8/3NK3 w - - 0 1", SCH_BLACK, true},  /* K+N v K+N */
        {"8/8/8/4k1n1/5n2/8/8/4K3 w - - 0 1", SCH_BLACK, true}, /* K+N+N v K */
        {"8/8/8/4k1b1/8/8/8/4K3 w - - 0 1", SCH_BLACK, false},  /* K+B v K */
        {"8/8/8/4k3/8/b7/8/2B1K3 w - - 0 1", SCH_BLACK, false}, /* K+B v K+B, same colour */
        {"8/8/8/4k3/8/3b4/8/2B1K3 w - - 0 1", SCH_BLACK, true}, /* K+B v K+B, opposite */
        {"8/8/8/4k1b1/8/8/8/3NK3 w - - 0 1", SCH_BLACK, true},  /* K+B v K+N */
        {"8/8/8/4k1b1/8/8/4P3/4K3 w - - 0 1", SCH_BLACK, true}, /* K+B v K+P */
        {"8/8/8/4k3/1b6/b7/8/4K3 w - - 0 1", SCH_BLACK, false}, /* two bishops, both dark */
        {"8/8/8/4k3/2b5/b7/8/4K3 w - - 0 1", SCH_BLACK, true},  /* bishop pair */
        {"8/8/8/4kb2/6n1/8/8/4K3 w - - 0 1", SCH_BLACK, true},  /* K+B+N v K */
        {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", SCH_WHITE, true},    /* a rook */
        {"8/8/8/4k3/8/8/8/3QK3 w - - 0 1", SCH_WHITE, true},    /* a queen */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SchPosition pos;
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, cases[i].fen, &err))
            fail_msg("bad test FEN %s (error %d)", cases[i].fen, err.code);
        SchWinResult r;
        SchWinnability v = sch_can_checkmate(&pos, cases[i].color, NULL, NULL, &r);
        if ((v != SCH_WIN_UNWINNABLE) != cases[i].can)
            fail_msg("%s, %s: expected %s", cases[i].fen, cases[i].color == SCH_WHITE ? "white" : "black",
                     cases[i].can ? "can mate" : "cannot mate");
    }
}

static void test_time_forfeit(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    /* K+N v K+P: the knight can mate (the pawn may block), so the pawn side's flag loses. */
    init_fen(&g, "8/8/8/4k1n1/8/8/4P3/4K3 w - - 0 1");
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_TIME_FORFEIT);
    assert_false(sch_game_undo(&g));
    sch_game_free(&g);
    /* The knight side's flag: the lone pawn side can mate too (promotion). */
    init_fen(&g, "8/8/8/4k1n1/8/8/4P3/4K3 w - - 0 1");
    assert_true(sch_game_time_forfeit(&g, SCH_BLACK, &err));
    assert_outcome(&g, SCH_RESULT_WHITE_WINS, SCH_TERM_TIME_FORFEIT);
    sch_game_free(&g);
    /* K+P v K: the bare king cannot mate: draw. */
    init_fen(&g, "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_TIMEOUT_INSUFFICIENT);
    sch_game_free(&g);
    /* K+Q v K+N: by the material rule the knight cannot mate: draw. */
    init_fen(&g, "8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1");
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_TIMEOUT_INSUFFICIENT);
    sch_game_free(&g);
    /* K+R v K+N: the knight can. */
    init_fen(&g, "8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1");
    assert_true(sch_game_time_forfeit(&g, SCH_WHITE, &err));
    assert_outcome(&g, SCH_RESULT_BLACK_WINS, SCH_TERM_TIME_FORFEIT);
    sch_game_free(&g);
    /* The start position: a plain loss. */
    sch_game_init(&g);
    assert_true(sch_game_time_forfeit(&g, SCH_BLACK, &err));
    assert_outcome(&g, SCH_RESULT_WHITE_WINS, SCH_TERM_TIME_FORFEIT);
    sch_game_free(&g);
}

/* ---- texts ---- */

static void test_outcome_texts(void **state) {
    (void)state;
    assert_string_equal(sch_result_string(SCH_RESULT_WHITE_WINS), "1-0");
    assert_string_equal(sch_result_string(SCH_RESULT_BLACK_WINS), "0-1");
    assert_string_equal(sch_result_string(SCH_RESULT_DRAW), "1/2-1/2");
    assert_string_equal(sch_result_string(SCH_RESULT_NONE), "*");
    assert_null(sch_termination_name(SCH_TERM_NONE));
    assert_null(sch_termination_name(SCH_TERM_NB));
    assert_string_equal(sch_termination_name(SCH_TERM_CHECKMATE), "checkmate");
    assert_string_equal(sch_termination_name(SCH_TERM_SEVENTYFIVE_MOVES), "seventyfive_moves");
    assert_string_equal(sch_termination_name(SCH_TERM_TIMEOUT_INSUFFICIENT), "timeout_insufficient_material");
    for (int t = SCH_TERM_CHECKMATE; t < SCH_TERM_NB; t++)
        assert_non_null(sch_termination_name((SchTermination)t));

    assert_describe(SCH_RESULT_WHITE_WINS, SCH_TERM_CHECKMATE, SCH_WHITE, "Checkmate – White wins 1-0",
                    "Schachmatt – Weiß gewinnt 1:0");
    assert_describe(SCH_RESULT_BLACK_WINS, SCH_TERM_CHECKMATE, SCH_BLACK, "Checkmate – Black wins 0-1",
                    "Schachmatt – Schwarz gewinnt 0:1");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_STALEMATE, SCH_WHITE, "Stalemate – draw", "Patt – remis");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_FIVEFOLD_REPETITION, SCH_WHITE, "Draw by fivefold repetition",
                    "Remis durch fünffache Stellungswiederholung");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_INSUFFICIENT_MATERIAL, SCH_WHITE,
                    "Draw: no checkmate possible (insufficient material)",
                    "Remis: kein Matt mehr möglich (ungenügendes Material)");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_SEVENTYFIVE_MOVES, SCH_WHITE, "Draw by the 75-move rule",
                    "Remis durch die 75-Züge-Regel");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_FIFTY_MOVES, SCH_WHITE, "Draw by the 50-move rule (claimed)",
                    "Remis durch die 50-Züge-Regel (reklamiert)");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_THREEFOLD_REPETITION, SCH_WHITE, "Draw by threefold repetition (claimed)",
                    "Remis durch dreifache Stellungswiederholung (reklamiert)");
    assert_describe(SCH_RESULT_BLACK_WINS, SCH_TERM_RESIGNATION, SCH_BLACK, "White resigns – Black wins 0-1",
                    "Weiß gibt auf – Schwarz gewinnt 0:1");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_AGREEMENT, SCH_WHITE, "Draw by agreement", "Remis durch Vereinbarung");
    assert_describe(SCH_RESULT_WHITE_WINS, SCH_TERM_TIME_FORFEIT, SCH_WHITE, "Black lost on time – White wins 1-0",
                    "Schwarz hat die Zeit überschritten – Weiß gewinnt 1:0");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_TIMEOUT_INSUFFICIENT, SCH_WHITE,
                    "Time ran out, but the opponent cannot checkmate – draw",
                    "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen – remis");
    assert_describe(SCH_RESULT_WHITE_WINS, SCH_TERM_ABANDONED, SCH_WHITE, "Game abandoned – White wins 1-0",
                    "Partie abgebrochen – Weiß gewinnt 1:0");
    assert_describe(SCH_RESULT_NONE, SCH_TERM_NONE, SCH_WHITE, "Game in progress", "Partie läuft");
    assert_describe(SCH_RESULT_DRAW, SCH_TERM_NONE, SCH_WHITE, "Draw", "Remis");

    /* Truncation: NUL-terminated, full length returned. */
    SchOutcome o = {SCH_RESULT_WHITE_WINS, SCH_TERM_CHECKMATE, SCH_WHITE, 0};
    char small[6];
    assert_int_equal(sch_outcome_describe(&o, SCH_LANG_EN, small, sizeof small), strlen("Checkmate – White wins 1-0"));
    assert_string_equal(small, "Check");
    assert_int_equal(sch_outcome_describe(&o, SCH_LANG_EN, NULL, 0), strlen("Checkmate – White wins 1-0"));

    /* A real game's outcome. */
    SchGame g;
    sch_game_init(&g);
    play_line(&g, "f2f3 e7e5 g2g4 d8h4");
    char buf[96];
    sch_outcome_describe(&g.outcome, SCH_LANG_DE, buf, sizeof buf);
    assert_string_equal(buf, "Schachmatt – Schwarz gewinnt 0:1");
    sch_game_free(&g);
}

static void test_error_templates(void **state) {
    (void)state;
    for (int code = SCH_GAME_ERR_OVER; code <= SCH_GAME_ERR_NULL_IN_CHECK; code++) {
        const char *en = sch_game_error_template(code, SCH_LANG_EN);
        const char *de = sch_game_error_template(code, SCH_LANG_DE);
        assert_non_null(en);
        assert_non_null(de);
        assert_string_not_equal(en, de);
        assert_string_equal(sch_err_template(code, SCH_LANG_EN), en);
    }
    assert_null(sch_game_error_template(SCH_GAME_ERR_NULL_IN_CHECK + 1, SCH_LANG_EN));
    assert_null(sch_game_error_template(SCH_GAME_ERR_OVER - 1, SCH_LANG_DE));
    SchError err;
    sch_err_clear(&err);
    sch_err_set(&err, SCH_GAME_ERR_CLAIM_REJECTED, "f6g8", NULL, NULL);
    char msg[160];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "the claim is incorrect; the move f6g8 stands and the game goes on");
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "die Reklamation ist unberechtigt; der Zug f6g8 gilt und die Partie geht weiter");
}

/* A Chess960 game started from its number stays a Chess960 game whatever the array: before
 * sch_game_init_chess960 the public way (sch_pos_set_chess960, its FEN, sch_game_init_fen) dropped the
 * variant for the 18 arrays whose castling looks standard, and castling was written e1g1. */
static void test_chess960_number_keeps_the_variant(void **state) {
    (void)state;
    int standard_looking = 0;
    for (int n = 0; n < 960; n++) {
        SchGame g;
        SchError err;
        sch_err_clear(&err);
        assert_true(sch_game_init_chess960(&g, n, &err));
        assert_true(g.start.chess960 && g.pos.chess960);
        assert_int_equal(sch_pos_chess960_number(&g.start), n);
        assert_false(sch_game_over(&g));
        standard_looking += sch_pos_chess960_castles_like_standard(n);
        sch_game_free(&g);
    }
    assert_int_equal(standard_looking, 18);
    /* 692 (RBBQKNNR): king e1, rooks a1 and h1. Cleared for O-O, castling is king takes rook in UCI. */
    SchGame g;
    assert_true(sch_game_init_chess960(&g, 692, NULL));
    const char *moves[] = {"Ng3", "Ng6", "Nf3", "Nf6"};
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
        SchError err;
        SchMove m = sch_san_parse(&g.pos, moves[i], SCH_LANG_EN, &err);
        assert_int_not_equal(m, SCH_MOVE_NONE);
        assert_true(sch_game_play(&g, m, NULL));
    }
    SchMove castle = sch_san_parse(&g.pos, "O-O", SCH_LANG_EN, NULL);
    assert_int_not_equal(castle, SCH_MOVE_NONE);
    char uci[SCH_MOVE_TEXT_MAX];
    sch_uci_write(&g.pos, castle, uci, sizeof uci);
    assert_string_equal(uci, "e1h1");
    sch_game_free(&g);
    /* Out of range: an error that says so, and a usable standard game. */
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_init_chess960(&g, 960, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_CHESS960_NUMBER);
    assert_string_equal(err.args[0], "960");
    assert_false(g.start.chess960);
    assert_int_equal(sch_gen_count(&g.pos), 20);
    assert_false(sch_game_init_chess960(&g, -1, NULL));
    sch_game_free(&g);
}

static void assert_fen(const SchPosition *pos, const char *want) {
    char fen[SCH_FEN_MAX];
    sch_fen_write(pos, fen, sizeof fen);
    assert_string_equal(fen, want);
}

/* A null move (SCH_MOVE_NULL, PGN "--") in the record: played when the side to move is not in check
 * (it passes the turn), refused in check, undone; repetitions, claims and automatic endings count it
 * as a ply like any other. Before, sch_game_play refused it, so a PGN record stopped at it. */
static void test_null_move(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    SchError err;
    sch_err_clear(&err);
    assert_true(sch_game_play(&g, must_find(&g, "e2e4"), &err));
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, &err));
    assert_int_equal(g.ply_count, 2);
    assert_int_equal(g.plies[1].move, SCH_MOVE_NULL);
    /* White to move again, no en passant square, the clocks on. */
    assert_fen(&g.pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    assert_true(g.plies[1].key == sch_game_repetition_key(&g.pos));
    assert_true(sch_game_key_at(&g, 2) == g.plies[1].key);
    assert_true(sch_game_undo(&g));
    assert_fen(&g.pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_int_equal(g.ply_count, 1);
    sch_game_free(&g);

    /* In check: refused with its own error, nothing played. */
    init_fen(&g, "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    sch_err_clear(&err);
    assert_false(sch_game_play(&g, SCH_MOVE_NULL, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_NULL_IN_CHECK);
    assert_int_equal(g.ply_count, 0);
    assert_int_equal(sch_game_claims_with_move(&g, SCH_MOVE_NULL), 0);
    char msg[160];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    assert_string_equal(msg, "a null move cannot be played in check");
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "ein Nullzug ist im Schach nicht möglich");
    sch_game_free(&g);

    /* Repetitions: passing four times repeats the start twice; a claim with the null move; the fifth
     * occurrence ends the game, and undoing the null move that made it takes the ending back. */
    sch_game_init(&g);
    for (int i = 0; i < 3; i++)
        assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_int_equal(sch_game_claims(&g), 0);
    assert_int_equal(sch_game_claims_with_move(&g, SCH_MOVE_NULL), SCH_CLAIM_THREEFOLD);
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_int_equal(sch_game_repetitions(&g), 3);
    assert_int_equal(sch_game_claims(&g), SCH_CLAIM_THREEFOLD);
    for (int i = 0; i < 4; i++)
        assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_FIVEFOLD_REPETITION);
    sch_err_clear(&err);
    assert_false(sch_game_play(&g, SCH_MOVE_NULL, &err));
    assert_int_equal(err.code, SCH_GAME_ERR_OVER);
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    assert_int_equal(sch_game_repetitions(&g), 4);
    /* A claim together with the null move that repeats the position. */
    assert_true(sch_game_undo(&g));
    sch_err_clear(&err);
    assert_true(sch_game_claim_with_move(&g, SCH_MOVE_NULL, SCH_CLAIM_THREEFOLD, &err));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_THREEFOLD_REPETITION);
    assert_int_equal(g.plies[g.ply_count - 1].move, SCH_MOVE_NULL);
    sch_game_free(&g);

    /* A pawn move is no repetition of the position before it, the null move after it is not either. */
    sch_game_init(&g);
    assert_true(sch_game_play(&g, must_find(&g, "e2e4"), NULL));
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_int_equal(sch_game_repetitions(&g), 2);
    sch_game_free(&g);

    /* Stalemate after passing: the automatic ending is decided as after any move. */
    init_fen(&g, "k7/2Q5/1K6/8/8/8/8/8 w - - 0 1");
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_STALEMATE);
    assert_true(sch_game_undo(&g));
    assert_false(sch_game_over(&g));
    sch_game_free(&g);

    /* The 75-move rule counts null moves: the halfmove clock goes on. */
    init_fen(&g, "4k3/8/8/8/8/8/8/R3K3 w - - 148 80");
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_false(sch_game_over(&g));
    assert_int_equal(sch_game_claims(&g), SCH_CLAIM_FIFTY);
    assert_true(sch_game_play(&g, SCH_MOVE_NULL, NULL));
    assert_outcome(&g, SCH_RESULT_DRAW, SCH_TERM_SEVENTYFIVE_MOVES);
    sch_game_free(&g);

    /* SAN writes it "--". */
    SchPosition start;
    sch_pos_set_start(&start);
    char san[SCH_MOVE_TEXT_MAX];
    sch_san_write(&start, SCH_MOVE_NULL, SCH_LANG_EN, san, sizeof san);
    assert_string_equal(san, "--");
    sch_san_write(&start, SCH_MOVE_NULL, SCH_LANG_DE, san, sizeof san);
    assert_string_equal(san, "--");
}

/* Who walks a record with a null move (explaining castling by its history) passes it like the game
 * does: a null move is no damaged history. */
static void test_null_move_in_history(void **state) {
    (void)state;
    SchGame g;
    sch_game_init(&g);
    const char *moves[] = {"g1f3", NULL, "h1g1", NULL, "g1h1", NULL, "e2e4", NULL, "f1e2", NULL};
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
        assert_true(sch_game_play(&g, moves[i] ? must_find(&g, moves[i]) : SCH_MOVE_NULL, NULL));
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_explain_move(&g, SCH_SQ_E1, SCH_SQ_G1, SCH_PIECE_TYPE_NB, &err));
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED);
    /* The position walked with sch_game_make_ply is the game's. */
    SchPosition pos = g.start;
    for (int i = 0; i < g.ply_count; i++) {
        SchUndo undo;
        sch_game_make_ply(&pos, g.plies[i].move, &undo);
    }
    assert_true(pos.key == g.pos.key);
    sch_game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_and_history),
        cmocka_unit_test(test_illegal_move),
        cmocka_unit_test(test_undo_restores_state),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_init_fen_invalid),
        cmocka_unit_test(test_checkmate),
        cmocka_unit_test(test_game_over_at_start),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_insufficient_by_capture),
        cmocka_unit_test(test_dead_before_forced_capture),
        cmocka_unit_test(test_insufficient_material_positions),
        cmocka_unit_test(test_fivefold_automatic),
        cmocka_unit_test(test_seventyfive_moves),
        cmocka_unit_test(test_mate_on_seventyfifth_move),
        cmocka_unit_test(test_repetition_ep_pinned),
        cmocka_unit_test(test_repetition_ep_legal),
        cmocka_unit_test(test_repetition_castling_rights),
        cmocka_unit_test(test_threefold_claim_now),
        cmocka_unit_test(test_threefold_claim_with_move),
        cmocka_unit_test(test_fifty_move_claims),
        cmocka_unit_test(test_draw_offers),
        cmocka_unit_test(test_resignation_and_abandonment),
        cmocka_unit_test(test_can_checkmate_material),
        cmocka_unit_test(test_time_forfeit),
        cmocka_unit_test(test_outcome_texts),
        cmocka_unit_test(test_error_templates),
        cmocka_unit_test(test_chess960_number_keeps_the_variant),
        cmocka_unit_test(test_null_move),
        cmocka_unit_test(test_null_move_in_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
