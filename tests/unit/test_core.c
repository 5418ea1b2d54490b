/* Core: attack tables, make/unmake, Zobrist keys, move generation rules, FEN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "core/bitboard_internal.h"
#include "schach/perft.h"
#include "schach/schach.h"
#include "test_helpers.h"

static uint64_t rng_state = 0x1234567;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_slider_attacks_match_ray_walk(void **state) {
    (void)state;
    for (int i = 0; i < 20000; i++) {
        SchSquare s = (SchSquare)(rng() & 63);
        SchBitboard occ = rng() & rng();
        assert_int_equal(sch_bb_rook_attacks(s, occ), sch_bb_slider_attacks_slow(SCH_ROOK, s, occ));
        assert_int_equal(sch_bb_bishop_attacks(s, occ), sch_bb_slider_attacks_slow(SCH_BISHOP, s, occ));
        assert_int_equal(sch_bb_queen_attacks(s, occ), sch_bb_slider_attacks_slow(SCH_QUEEN, s, occ));
    }
}

/* The lookup the library chose at load time is the one SCHACH_SLIDERS asked for (CTest runs this program and the
 * perft suite once more with SCHACH_SLIDERS=magic, so both paths are tested on a BMI2 machine). */
static void test_slider_lookup_follows_environment(void **state) {
    (void)state;
    const char *lookup = sch_slider_lookup();
    const char *force = getenv("SCHACH_SLIDERS");
    if (force && strcmp(force, "magic") == 0)
        assert_string_equal(lookup, "magic");
    else
        assert_true(strcmp(lookup, "pext") == 0 || strcmp(lookup, "magic") == 0);
}

static void test_leaper_and_line_tables(void **state) {
    (void)state;
    assert_int_equal(sch_bb_count(sch_bb_knight_attacks(SCH_SQ_A1)), 2);
    assert_int_equal(sch_bb_count(sch_bb_knight_attacks(SCH_SQ_D4)), 8);
    assert_int_equal(sch_bb_count(sch_bb_king_attacks(SCH_SQ_H8)), 3);
    assert_int_equal(sch_bb_pawn_attacks(SCH_WHITE, SCH_SQ_E4), sch_bb_square(SCH_SQ_D5) | sch_bb_square(SCH_SQ_F5));
    assert_int_equal(sch_bb_pawn_attacks(SCH_BLACK, SCH_SQ_A5), sch_bb_square(SCH_SQ_B4));
    assert_int_equal(sch_bb_between(SCH_SQ_A1, SCH_SQ_D4), sch_bb_square(SCH_SQ_B2) | sch_bb_square(SCH_SQ_C3));
    assert_int_equal(sch_bb_between(SCH_SQ_A1, SCH_SQ_B3), 0);
    assert_int_equal(sch_bb_line(SCH_SQ_C1, SCH_SQ_C5), SCH_BB_FILE_A << 2);
    assert_int_equal(sch_bb_line(SCH_SQ_A1, SCH_SQ_B3), 0);
}

static const char *const positions[] = {
    SCH_FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
};

/* Walks the tree: after each make the incremental key equals a fresh computation and sch_pos_ok holds;
 * after unmake the position is byte-for-byte what it was; generation kinds partition the moves. */
static void walk(SchPosition *pos, int depth) {
    SchMove all[SCH_MAX_MOVES], noisy[SCH_MAX_MOVES], quiet[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, all);
    int nn = sch_gen_moves(pos, SCH_GEN_NOISY, noisy), nq = sch_gen_moves(pos, SCH_GEN_QUIET, quiet);
    assert_int_equal(n, sch_gen_count(pos));
    assert_int_equal(n, nn + nq);
    assert_int_equal(n > 0, sch_gen_has_legal_move(pos));
    for (int i = 0; i < nn; i++) {
        SchPiece target = sch_pos_piece_on(pos, sch_move_to(noisy[i]));
        assert_true(target != SCH_NO_PIECE || sch_move_kind(noisy[i]) == SCH_MOVE_EN_PASSANT ||
                    sch_move_kind(noisy[i]) == SCH_MOVE_PROMOTION);
    }
    for (int i = 0; i < nq; i++)
        assert_true(sch_pos_piece_on(pos, sch_move_to(quiet[i])) == SCH_NO_PIECE &&
                    sch_move_kind(quiet[i]) != SCH_MOVE_PROMOTION);
    if (depth == 0)
        return;
    for (int i = 0; i < n; i++) {
        SchPosition before = *pos;
        SchUndo undo;
        assert_true(sch_gen_is_legal(pos, all[i]));
        sch_pos_make(pos, all[i], &undo);
        char why[128];
        if (!sch_pos_ok(pos, why, sizeof why))
            fail_msg("pos_ok failed after move %d: %s", all[i], why);
        assert_int_equal(pos->key, sch_pos_compute_key(pos));
        walk(pos, depth - 1);
        sch_pos_unmake(pos, all[i], &undo);
        assert_memory_equal(pos, &before, sizeof before);
    }
}

static void test_make_unmake_restores_exactly(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        SchPosition pos = parse_fen(positions[i]);
        walk(&pos, 2);
    }
}

/* sch_gen_is_legal answers for one move what the generator's list says: every one of the 65,536 codes
 * in the positions of random games from standard, tricky and Chess960 starts (castling with the king
 * or rook already on its target, en passant beside a pinned pawn, promotions, checks and pins). */
static void expect_is_legal_matches_generator(const SchPosition *pos) {
    static uint8_t listed[1 << 16];
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    memset(listed, 0, sizeof listed);
    for (int i = 0; i < n; i++)
        listed[moves[i]] = 1;
    for (uint32_t code = 0; code < 1u << 16; code++)
        if (sch_gen_is_legal(pos, (SchMove)code) != listed[code]) {
            char fen[SCH_FEN_MAX];
            sch_fen_write(pos, fen, sizeof fen);
            fail_msg("move code %#x: is_legal %d, generator %d in %s", (unsigned)code,
                     sch_gen_is_legal(pos, (SchMove)code), listed[code], fen);
        }
}

static const char *const legality_positions[] = {
    "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",                        /* Chess960: the king on its g-file target */
    "2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",                          /* the queen's side crosses an attacked square */
    "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",                            /* promotions, one of them capturing */
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",                             /* check by a queen next to the king */
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",                            /* double check */
    "4k3/8/8/2b5/8/4N3/5K2/8 w - - 0 1",                           /* a pinned knight */
    "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", /* en passant */
};

static void test_is_legal_matches_generator(void **state) {
    (void)state;
    uint64_t seed = 12345;
    size_t fixed = sizeof positions / sizeof positions[0],
           extra = sizeof legality_positions / sizeof legality_positions[0];
    for (size_t start = 0; start < fixed + extra + 8; start++) {
        SchPosition pos;
        if (start < fixed)
            pos = parse_fen(positions[start]);
        else if (start < fixed + extra)
            pos = parse_fen(legality_positions[start - fixed]);
        else
            assert_true(sch_pos_set_chess960(&pos, (int)(start * 97) % 960));
        for (int ply = 0; ply < 24; ply++) {
            expect_is_legal_matches_generator(&pos);
            if (!play_random_move(&pos, &seed))
                break;
        }
    }
}

static void test_null_move(void **state) {
    (void)state;
    SchPosition pos = parse_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"), before = pos;
    SchUndo undo;
    sch_pos_make_null(&pos, &undo);
    assert_int_equal(pos.turn, SCH_BLACK);
    assert_int_equal(pos.ep, SCH_SQ_NONE);
    assert_int_equal(pos.key, sch_pos_compute_key(&pos));
    sch_pos_unmake_null(&pos, &undo);
    assert_memory_equal(&pos, &before, sizeof pos);
}

static bool has_move(const SchPosition *pos, SchSquare from, SchSquare to) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (sch_move_from(moves[i]) == from && sch_move_to(moves[i]) == to)
            return true;
    return false;
}

static SchMove find_move(const SchPosition *pos, SchSquare from, SchSquare to) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (sch_move_from(moves[i]) == from && sch_move_to(moves[i]) == to)
            return moves[i];
    fail_msg("move not found");
    return SCH_MOVE_NONE;
}

static void play(SchPosition *pos, SchSquare from, SchSquare to) {
    SchUndo undo;
    sch_pos_make(pos, find_move(pos, from, to), &undo);
}

static void test_en_passant_only_right_after_double_step(void **state) {
    (void)state;
    SchPosition pos = parse_fen("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1");
    play(&pos, SCH_SQ_E2, SCH_SQ_E4);
    assert_int_equal(pos.ep, SCH_SQ_E3);
    assert_true(has_move(&pos, SCH_SQ_F4, SCH_SQ_E3));
    play(&pos, SCH_SQ_E8, SCH_SQ_D8);
    play(&pos, SCH_SQ_E1, SCH_SQ_D1);
    assert_false(has_move(&pos, SCH_SQ_F4, SCH_SQ_E3)); /* the chance has passed */
}

static void test_en_passant_exposing_king_on_rank(void **state) {
    (void)state;
    /* Capturing d3 would remove both pawns from rank 4 and expose the black king to the queen. */
    SchPosition pos = parse_fen("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    assert_false(has_move(&pos, SCH_SQ_E4, SCH_SQ_D3));
    assert_false(sch_gen_ep_legal(&pos));
    char fen[SCH_FEN_MAX];
    sch_fen_write(&pos, fen, sizeof fen);
    assert_string_equal(fen, "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
}

static void test_castling_conditions(void **state) {
    (void)state;
    SchPosition pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_true(has_move(&pos, SCH_SQ_E1, SCH_SQ_G1));
    assert_true(has_move(&pos, SCH_SQ_E1, SCH_SQ_C1));
    /* Passing through an attacked square (f1) is not allowed; an attacked b1 does not matter. */
    pos = parse_fen("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    assert_false(has_move(&pos, SCH_SQ_E1, SCH_SQ_G1));
    pos = parse_fen("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_true(has_move(&pos, SCH_SQ_E1, SCH_SQ_C1));
    /* Not out of check; not onto an attacked square; not over an occupied b1. */
    pos = parse_fen("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert_false(has_move(&pos, SCH_SQ_E1, SCH_SQ_G1));
    assert_false(has_move(&pos, SCH_SQ_E1, SCH_SQ_C1));
    pos = parse_fen("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_false(has_move(&pos, SCH_SQ_E1, SCH_SQ_C1));
    pos = parse_fen("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_false(has_move(&pos, SCH_SQ_E1, SCH_SQ_C1));
    /* Rights are lost when the rook is captured and when the king or rook moves. */
    pos = parse_fen("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1");
    play(&pos, SCH_SQ_G2, SCH_SQ_H1);
    assert_int_equal(pos.castling, SCH_CASTLE_WQ | SCH_CASTLE_BK | SCH_CASTLE_BQ);
    play(&pos, SCH_SQ_A1, SCH_SQ_A2);
    assert_int_equal(pos.castling, SCH_CASTLE_BK | SCH_CASTLE_BQ);
    play(&pos, SCH_SQ_E8, SCH_SQ_F8);
    assert_int_equal(pos.castling, 0);
}

static void test_promotions_and_pins(void **state) {
    (void)state;
    SchPosition pos = parse_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(&pos, SCH_GEN_NOISY, moves);
    assert_int_equal(n, 4);
    /* A pinned knight cannot move; a pinned rook moves only along the pin. */
    pos = parse_fen("4k3/4r3/8/8/8/4N3/8/4K3 w - - 0 1");
    assert_false(has_move(&pos, SCH_SQ_E3, SCH_SQ_D5));
    pos = parse_fen("4k3/4r3/8/8/8/4R3/8/4K3 w - - 0 1");
    assert_true(has_move(&pos, SCH_SQ_E3, SCH_SQ_E7));
    assert_false(has_move(&pos, SCH_SQ_E3, SCH_SQ_D3));
}

static void test_perft_small(void **state) {
    (void)state;
    SchPosition pos = parse_fen(SCH_FEN_START);
    assert_int_equal(sch_perft(&pos, 0), 1);
    assert_int_equal(sch_perft(&pos, 3), 8902);
    SchMove moves[SCH_MAX_MOVES];
    uint64_t counts[SCH_MAX_MOVES], total = 0;
    int n = sch_perft_divide(&pos, 2, moves, counts);
    assert_int_equal(n, 20);
    for (int i = 0; i < n; i++)
        total += counts[i];
    assert_int_equal(total, 400);
}

static void test_fen_round_trip(void **state) {
    (void)state;
    static const char *const fens[] = {
        SCH_FEN_START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/8/8/8/8/K1k5 b - - 99 200",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        SchPosition pos = parse_fen(fens[i]);
        char out[SCH_FEN_MAX];
        sch_fen_write(&pos, out, sizeof out);
        assert_string_equal(out, fens[i]);
    }
    /* Four fields are enough; clocks default to 0 and 1. */
    SchPosition pos = parse_fen("8/8/8/8/8/8/8/K1k5 w - -");
    char out[SCH_FEN_MAX];
    sch_fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
}

static void test_fen_accepts_ep_without_capture(void **state) {
    (void)state;
    /* After 1. e4 the PGN standard writes e3 although no capture is possible: accepted, not kept. */
    SchPosition pos = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    SchPosition plain = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_int_equal(pos.key, plain.key);
}

static void expect_fen_error(const char *fen, int code, const char *en, int column) {
    SchPosition pos;
    SchError err;
    assert_false(sch_fen_parse(&pos, fen, &err));
    char msg[256];
    sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
    if (err.code != code || strcmp(msg, en) != 0)
        fail_msg("FEN %s: got code %d \"%s\", want %d \"%s\"", fen, err.code, msg, code, en);
    if (column && err.column != column)
        fail_msg("FEN %s: error at column %d, want %d", fen, err.column, column);
}

static void test_fen_errors_name_field_and_reason(void **state) {
    (void)state;
    expect_fen_error("", SCH_FEN_ERR_EMPTY, "the FEN is empty", 0);
    expect_fen_error("8/8/8/8/8/8/8/K1k5 w -", SCH_FEN_ERR_FIELDS, "a FEN has 6 fields (or 4), found 3", 0);
    expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1", SCH_FEN_ERR_CASTLING,
                     "field 3 (castling): 'KQx' is not valid", 47);
    expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", SCH_FEN_ERR_TURN,
                     "field 2 (side to move): 'x' is not valid (w or b)", 45);
    expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w - - 0 1", SCH_FEN_ERR_TWO_KINGS,
                     "field 1 (board): white has more than one king", 0);
    expect_fen_error("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", SCH_FEN_ERR_NO_KING,
                     "field 1 (board): black has no king", 0);
    expect_fen_error("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1", SCH_FEN_ERR_PAWN_RANK,
                     "field 1 (board): pawn on the first or last rank (h8)", 0);
    expect_fen_error("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", SCH_FEN_ERR_OPPONENT_IN_CHECK,
                     "the side not to move is in check", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", SCH_FEN_ERR_TRAILING,
                     "unexpected text after field 6: 'extra'", 31);
    expect_fen_error("4k3/8/8/8/8/8/8/4K2 w - - 0 1", SCH_FEN_ERR_RANK_LENGTH,
                     "field 1 (board): rank 1 describes 7 squares, not 8", 0);
    expect_fen_error("4k3/8/8/8/8/8/8 w - - 0 1", SCH_FEN_ERR_RANKS, "field 1 (board): expected 8 ranks, found 7", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4KX2 w - - 0 1", SCH_FEN_ERR_PIECE,
                     "field 1 (board): 'X' is not a piece letter (PNBRQK/pnbrqk)", 19);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w K - 0 1", SCH_FEN_ERR_CASTLING_PIECES,
                     "field 3 (castling): 'K' needs the king and the rook on their original squares", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", SCH_FEN_ERR_EP_RANK,
                     "field 4 (en passant): 'e3' is on the wrong rank for the side to move", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", SCH_FEN_ERR_EP_PAWN,
                     "field 4 (en passant): 'e6' does not follow a pawn's double step", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - x 1", SCH_FEN_ERR_HALFMOVE,
                     "field 5 (halfmove clock): 'x' is not valid", 0);
    expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - 0 0", SCH_FEN_ERR_FULLMOVE,
                     "field 6 (fullmove number): '0' is not valid", 0);
    expect_fen_error("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", SCH_FEN_ERR_TOO_MANY_PAWNS,
                     "field 1 (board): black has 9 pawns (at most 8)", 0);
    expect_fen_error("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1", SCH_FEN_ERR_TOO_MANY_PROMOTED,
                     "field 1 (board): white has more promoted pieces than missing pawns", 0);
    expect_fen_error("4k3/8/8/8/8/5n2/3p4/4K3 w - - 0 1", SCH_FEN_ERR_IMPOSSIBLE_CHECK,
                     "no move can produce this double check", 0);
}

static void test_fen_errors_in_german(void **state) {
    (void)state;
    SchPosition pos;
    SchError err;
    assert_false(sch_fen_parse(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w KQx - 0 1", &err));
    char msg[256];
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "Feld 1 (Brett): Weiß hat mehr als einen König");
    assert_false(sch_fen_parse(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1", &err));
    sch_err_format(&err, SCH_LANG_DE, msg, sizeof msg);
    assert_string_equal(msg, "Feld 3 (Rochade): 'KQx' ist ungültig");
}

static void test_fen_rejects_garbage_without_crashing(void **state) {
    (void)state;
    SchPosition pos;
    SchError err;
    for (int i = 0; i < 20000; i++) {
        char text[80];
        size_t len = rng() % sizeof text;
        static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789";
        for (size_t j = 0; j < len; j++)
            text[j] = (char)(rng() % 3 ? alphabet[rng() % (sizeof alphabet - 1)] : (char)(rng() & 0xFF));
        text[len] = '\0';
        if (sch_fen_parse(&pos, text, &err))
            assert_true(sch_pos_ok(&pos, NULL, 0));
        else
            assert_true(err.code >= 100 && err.code < 200);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slider_attacks_match_ray_walk),
        cmocka_unit_test(test_slider_lookup_follows_environment),
        cmocka_unit_test(test_leaper_and_line_tables),
        cmocka_unit_test(test_make_unmake_restores_exactly),
        cmocka_unit_test(test_null_move),
        cmocka_unit_test(test_en_passant_only_right_after_double_step),
        cmocka_unit_test(test_en_passant_exposing_king_on_rank),
        cmocka_unit_test(test_castling_conditions),
        cmocka_unit_test(test_promotions_and_pins),
        cmocka_unit_test(test_is_legal_matches_generator),
        cmocka_unit_test(test_perft_small),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_accepts_ep_without_capture),
        cmocka_unit_test(test_fen_errors_name_field_and_reason),
        cmocka_unit_test(test_fen_errors_in_german),
        cmocka_unit_test(test_fen_rejects_garbage_without_crashing),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
