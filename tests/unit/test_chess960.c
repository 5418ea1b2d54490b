/* Chess960 (FIDE Laws, Guidelines II): start positions by number, X-FEN and Shredder-FEN castling
 * fields, castling by the Chess960 rule, SAN and UCI castling, and the perft suite whose counts come
 * from Stockfish (tests/data/perft960.epd, made by tests/perft960/stockfish_perft960.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schach/explain.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/perft.h"
#include "test_helpers.h"

static void expect_fen(const SchPosition *pos, const char *want) {
    char buf[SCH_FEN_MAX];
    sch_fen_write(pos, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static int fen_error(const char *fen) {
    SchPosition pos;
    SchError err;
    assert_false(sch_fen_parse(&pos, fen, &err));
    return err.code;
}

/* The castling move of the side to move towards the h-side (O-O) or a-side, or SCH_MOVE_NONE. */
static SchMove castling(const SchPosition *pos, bool h_side) {
    SchMoveList list;
    sch_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (sch_move_kind(list.moves[i]) == SCH_MOVE_CASTLING &&
            (sch_square_file(sch_move_to(list.moves[i])) == 6) == h_side)
            return list.moves[i];
    return SCH_MOVE_NONE;
}

static SchPosition after(const SchPosition *pos, SchMove m) {
    SchPosition next = *pos;
    SchUndo undo;
    sch_pos_make(&next, m, &undo);
    assert_true(sch_pos_ok(&next, NULL, 0));
    SchPosition back = next;
    sch_pos_unmake(&back, m, &undo);
    assert_memory_equal(back.board, pos->board, sizeof back.board);
    assert_memory_equal(back.by_type, pos->by_type, sizeof back.by_type);
    assert_true(back.key == pos->key && back.castling == pos->castling && back.checkers == pos->checkers);
    return next;
}

static void test_numbering_known_positions(void **state) {
    (void)state;
    SchPosition pos, standard;
    assert_true(sch_pos_set_chess960(&pos, 0));
    expect_fen(&pos, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    assert_true(sch_pos_set_chess960(&pos, 959));
    expect_fen(&pos, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
    assert_true(sch_pos_set_chess960(&pos, 518));
    expect_fen(&pos, SCH_FEN_START);
    sch_pos_set_start(&standard);
    assert_true(pos.key == standard.key);
    assert_true(pos.chess960);
    assert_int_equal(sch_pos_chess960_number(&standard), 518);
    assert_false(sch_pos_set_chess960(&pos, 960));
    assert_false(sch_pos_set_chess960(&pos, -1));
}

static void test_numbering_all_960(void **state) {
    (void)state;
    static uint64_t keys[960];
    for (int n = 0; n < 960; n++) {
        SchPosition pos;
        assert_true(sch_pos_set_chess960(&pos, n));
        assert_true(sch_pos_ok(&pos, NULL, 0));
        assert_int_equal(sch_pos_chess960_number(&pos), n);
        /* Bishops on opposite colours, king between the rooks. */
        SchBitboard bishops = sch_pos_pieces(&pos, SCH_WHITE, SCH_BISHOP);
        assert_int_equal(sch_bb_count(bishops & SCH_BB_LIGHT_SQUARES), 1);
        SchSquare king = sch_pos_king(&pos, SCH_WHITE);
        assert_true(pos.castle_rook[1] < king && king < pos.castle_rook[0]);
        assert_int_equal(pos.castle_rook[2], pos.castle_rook[0] + 56);
        /* The FEN round trip keeps the position and the rights. */
        char fen[SCH_FEN_MAX];
        sch_fen_write(&pos, fen, sizeof fen);
        SchPosition back = parse_fen(fen);
        assert_true(back.key == pos.key);
        assert_memory_equal(back.castle_rook, pos.castle_rook, 4);
        keys[n] = pos.key;
        for (int k = 0; k < n; k++)
            assert_true(keys[k] != keys[n]);
    }
    SchPosition pos = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_int_equal(sch_pos_chess960_number(&pos), -1);
}

/* The 18 start arrays whose castling looks standard (king on e, rooks on a and h): exactly those whose
 * FEN does not switch Chess960 on by itself. */
static void test_start_arrays_that_castle_like_standard_chess(void **state) {
    (void)state;
    int count = 0;
    for (int n = 0; n < 960; n++) {
        SchPosition pos;
        assert_true(sch_pos_set_chess960(&pos, n));
        bool like = sch_pos_chess960_castles_like_standard(n);
        count += like;
        bool e_a_h = sch_pos_king(&pos, SCH_WHITE) == SCH_SQ_E1 && pos.castle_rook[0] == SCH_SQ_H1 &&
                     pos.castle_rook[1] == SCH_SQ_A1;
        assert_int_equal(like, e_a_h);
        char fen[SCH_FEN_MAX];
        sch_fen_write(&pos, fen, sizeof fen);
        SchPosition back = parse_fen(fen);
        assert_int_equal(back.chess960, !like);
    }
    assert_int_equal(count, 18);
    assert_true(sch_pos_chess960_castles_like_standard(518));
    SchPosition pos;
    assert_true(sch_pos_set_chess960(&pos, 692));
    expect_fen(&pos, "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1");
    assert_true(sch_pos_chess960_castles_like_standard(692));
    assert_false(sch_pos_chess960_castles_like_standard(0));
    assert_false(sch_pos_chess960_castles_like_standard(-1));
    assert_false(sch_pos_chess960_castles_like_standard(960));
}

static void test_fen_castling_notations(void **state) {
    (void)state;
    /* Shredder-FEN and X-FEN name the same rights as KQkq in the standard position. */
    SchPosition a = parse_fen(SCH_FEN_START), b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_true(a.key == b.key);
    assert_int_equal(a.castling, b.castling);
    assert_false(b.chess960);
    expect_fen(&b, SCH_FEN_START);
    /* A 960 start position in Shredder-FEN is written in X-FEN (KQkq: the outermost rooks). */
    SchPosition c = parse_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
    assert_true(c.chess960);
    assert_int_equal(c.castle_rook[0], SCH_SQ_G1);
    assert_int_equal(c.castle_rook[1], SCH_SQ_E1);
    expect_fen(&c, "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
    SchPosition c2 = parse_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
    assert_true(c2.key == c.key);
    /* Two rooks on one side: K means the outer one; the inner one needs its file letter. */
    SchPosition inner = parse_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1"),
                outer = parse_fen("4k3/8/8/8/8/8/8/4K1RR w K - 0 1");
    assert_int_equal(inner.castle_rook[0], SCH_SQ_G1);
    assert_int_equal(outer.castle_rook[0], SCH_SQ_H1);
    expect_fen(&inner, "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    expect_fen(&outer, "4k3/8/8/8/8/8/8/4K1RR w K - 0 1");
    assert_true(inner.key != outer.key); /* rights are per rook: different positions */
    SchPosition h = parse_fen("4k3/8/8/8/8/8/8/4K1RR w H - 0 1");
    assert_true(h.key == outer.key);
    SchPosition black = parse_fen("r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1");
    expect_fen(&black, "r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1");
    assert_int_equal(black.castle_rook[3], SCH_SQ_C8);
    /* Refusals: no rook there, same right twice, king off its back rank, no such letter. */
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w F - 0 1"), SCH_FEN_ERR_CASTLING_PIECES);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w KG - 0 1"), SCH_FEN_ERR_CASTLING);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w KK - 0 1"), SCH_FEN_ERR_CASTLING);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/4K3/6RR w H - 0 1"), SCH_FEN_ERR_CASTLING_PIECES);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w Q - 0 1"), SCH_FEN_ERR_CASTLING_PIECES);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w I - 0 1"), SCH_FEN_ERR_CASTLING);
    assert_int_equal(fen_error("4k3/8/8/8/8/8/8/4K1RR w HGFE - 0 1"), SCH_FEN_ERR_CASTLING);
    /* The example: a Chess960 game's FEN with 'HDhd'. */
    SchPosition hd = parse_fen("qnbrkbnr/pppppppp/8/8/8/8/PPPPPPPP/QNBRKBNR w HDhd - 0 1");
    assert_int_equal(hd.castle_rook[1], SCH_SQ_D1);
}

static void test_castling_king_does_not_move(void **state) {
    (void)state;
    SchPosition pos = parse_fen("r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1");
    SchMove oo = castling(&pos, true);
    assert_int_equal(sch_move_from(oo), SCH_SQ_G1);
    assert_int_equal(sch_move_to(oo), SCH_SQ_G1);
    SchPosition next = after(&pos, oo);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_G1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_F1), SCH_W_ROOK);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_H1), SCH_NO_PIECE);
    assert_int_equal(next.castling, SCH_CASTLE_BK | SCH_CASTLE_BQ);
    char san[SCH_MOVE_TEXT_MAX], uci[8];
    sch_san_write(&pos, oo, SCH_LANG_EN, san, sizeof san);
    assert_string_equal(san, "O-O");
    sch_san_write(&pos, oo, SCH_LANG_DE, san, sizeof san);
    assert_string_equal(san, "0-0");
    sch_uci_write(&pos, oo, uci, sizeof uci);
    assert_string_equal(uci, "g1h1");
    SchError err;
    assert_int_equal(sch_san_parse(&pos, "O-O", SCH_LANG_EN, &err), oo);
    assert_int_equal(sch_uci_parse(&pos, "g1h1", &err), oo);
    /* The a-side castling moves the king five files: a1 rook to d1, king to c1. */
    SchMove ooo = castling(&pos, false);
    assert_int_not_equal(ooo, SCH_MOVE_NONE);
    next = after(&pos, ooo);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_C1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_D1), SCH_W_ROOK);
    sch_uci_write(&pos, ooo, uci, sizeof uci);
    assert_string_equal(uci, "g1a1");
}

static void test_castling_swap_and_adjacent(void **state) {
    (void)state;
    /* King f1 and rook g1 change places. */
    SchPosition pos = parse_fen("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1");
    SchMove oo = castling(&pos, true);
    SchPosition next = after(&pos, oo);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_G1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_F1), SCH_W_ROOK);
    /* "f1g1" names the rook's square: castling. */
    SchError err;
    assert_int_equal(sch_uci_parse(&pos, "f1g1", &err), oo);
    /* Rooks beside the king: each stays on its square, only the king moves. */
    pos = parse_fen("3rkr2/pppppppp/8/8/8/8/PPPPPPPP/3RKR2 w FDfd - 0 1");
    next = after(&pos, castling(&pos, false));
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_C1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_D1), SCH_W_ROOK);
    next = after(&pos, castling(&pos, true));
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_G1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_F1), SCH_W_ROOK);
    /* King f1, rook h1: "f1g1" is the king's step, castling is "f1h1" and O-O; "Kg1" is the step. */
    pos = parse_fen("4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    SchMove step = sch_uci_parse(&pos, "f1g1", &err);
    assert_int_equal(sch_move_kind(step), SCH_MOVE_NORMAL);
    assert_int_equal(sch_move_kind(sch_uci_parse(&pos, "f1h1", &err)), SCH_MOVE_CASTLING);
    assert_int_equal(sch_san_parse(&pos, "Kg1", SCH_LANG_EN, &err), step);
    assert_int_equal(sch_move_kind(sch_san_parse(&pos, "O-O", SCH_LANG_EN, &err)), SCH_MOVE_CASTLING);
}

static void test_castling_attacks_and_blocks(void **state) {
    (void)state;
    SchError err;
    /* The rook on b1 shields c1 from the queen on a1; after castling it would not. */
    SchPosition pos = parse_fen("4k3/8/8/8/8/8/8/qRK4R w HB - 0 1");
    assert_int_equal(castling(&pos, false), SCH_MOVE_NONE);
    assert_int_not_equal(castling(&pos, true), SCH_MOVE_NONE);
    assert_int_equal(sch_san_parse(&pos, "O-O-O", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_CASTLE_ATTACKED);
    assert_string_equal(err.args[1], "c1");
    /* An attack on the rook's target alone does not matter. */
    pos = parse_fen("3rk3/8/8/8/8/8/8/RK6 w A - 0 1");
    assert_int_not_equal(castling(&pos, false), SCH_MOVE_NONE);
    /* A square the king crosses is attacked. */
    pos = parse_fen("4k3/8/8/8/7b/8/8/1K5R w H - 0 1");
    assert_int_equal(castling(&pos, true), SCH_MOVE_NONE);
    assert_int_equal(sch_uci_parse(&pos, "b1h1", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_CASTLE_ATTACKED);
    assert_string_equal(err.args[1], "e1");
    /* The king's target is attacked. */
    pos = parse_fen("4k3/8/8/8/8/8/6r1/1K5R w H - 0 1");
    assert_int_equal(castling(&pos, true), SCH_MOVE_NONE);
    /* A knight on b1 blocks the rook's way to d1 though not the king's. */
    pos = parse_fen("4k3/8/8/8/8/8/8/RN4K1 w A - 0 1");
    assert_int_equal(castling(&pos, false), SCH_MOVE_NONE);
    assert_int_equal(sch_san_parse(&pos, "O-O-O", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_CASTLE_BLOCKED);
    /* An enemy piece on the king's target. */
    pos = parse_fen("4k3/8/8/8/8/8/8/R1n1K2R w HA - 0 1");
    assert_int_equal(castling(&pos, false), SCH_MOVE_NONE);
    assert_int_not_equal(castling(&pos, true), SCH_MOVE_NONE);
    /* In check. */
    pos = parse_fen("1r2k3/8/8/8/8/8/8/RK5R w HA - 0 1");
    assert_int_equal(castling(&pos, true), SCH_MOVE_NONE);
    assert_int_equal(sch_san_parse(&pos, "O-O", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_CASTLE_IN_CHECK);
}

static void test_rights_per_rook(void **state) {
    (void)state;
    SchError err;
    /* Castling with the inner rook g1; the h1 rook stays. */
    SchPosition pos = parse_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    SchPosition next = after(&pos, castling(&pos, true));
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_G1), SCH_W_KING);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_F1), SCH_W_ROOK);
    assert_int_equal(sch_pos_piece_on(&next, SCH_SQ_H1), SCH_W_ROOK);
    /* Moving the other rook keeps the right; moving the castling rook ends it. */
    pos = parse_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    next = after(&pos, sch_uci_parse(&pos, "h1h2", &err));
    assert_int_equal(next.castling, SCH_CASTLE_WK);
    next = after(&pos, sch_uci_parse(&pos, "g1g2", &err));
    assert_int_equal(next.castling, 0);
    /* Capturing a castling rook ends that right; the key follows. */
    pos = parse_fen("1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1");
    next = after(&pos, sch_uci_parse(&pos, "b1b8", &err));
    assert_int_equal(next.castling, SCH_CASTLE_WK | SCH_CASTLE_BK);
    assert_true(next.key == sch_pos_compute_key(&next));
    expect_fen(&next, "1R2k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

static void test_uci_standard_and_960_forms(void **state) {
    (void)state;
    SchError err;
    SchPosition pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    SchMove oo = castling(&pos, true);
    char uci[8];
    sch_uci_write(&pos, oo, uci, sizeof uci);
    assert_string_equal(uci, "e1g1");
    assert_int_equal(sch_uci_parse(&pos, "e1g1", &err), oo);
    assert_int_equal(sch_uci_parse(&pos, "e1h1", &err), oo);
    pos.chess960 = 1; /* what UCI_Chess960 sets */
    sch_uci_write(&pos, oo, uci, sizeof uci);
    assert_string_equal(uci, "e1h1");
    sch_uci_write(&pos, castling(&pos, false), uci, sizeof uci);
    assert_string_equal(uci, "e1a1");
    assert_int_equal(sch_uci_parse(&pos, "e1g1", &err), oo);
    assert_int_equal(sch_uci_parse(&pos, "e1h1", &err), oo);
}

/* Every legal move of pos and of the positions after it: SAN (both languages) and UCI read back. */
static void round_trip(const SchPosition *pos, int depth, int *moves) {
    SchMoveList list;
    sch_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        SchMove m = list.moves[i];
        char text[SCH_MOVE_TEXT_MAX], fen[SCH_FEN_MAX];
        SchError err;
        for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
            sch_san_write(pos, m, lang, text, sizeof text);
            if (sch_san_parse(pos, text, lang, &err) != m) {
                sch_fen_write(pos, fen, sizeof fen);
                fail_msg("SAN %s does not read back in %s", text, fen);
            }
            sch_lan_write(pos, m, lang, text, sizeof text);
            if (sch_move_parse(pos, text, lang, &err) != m) {
                sch_fen_write(pos, fen, sizeof fen);
                fail_msg("LAN %s does not read back in %s", text, fen);
            }
        }
        sch_uci_write(pos, m, text, sizeof text);
        if (sch_uci_parse(pos, text, &err) != m) {
            sch_fen_write(pos, fen, sizeof fen);
            fail_msg("UCI %s does not read back in %s", text, fen);
        }
        (*moves)++;
        if (depth > 1) {
            SchPosition next = *pos;
            SchUndo undo;
            sch_pos_make(&next, m, &undo);
            round_trip(&next, depth - 1, moves);
        }
    }
}

/* Each position of the suite: its legal moves two plies deep read back from SAN, LAN and UCI. */
static void read_back(const SchPosition *pos, void *moves) { round_trip(pos, 2, moves); }

static void test_perft_suite_and_notation(void **state) {
    (void)state;
    int checks, moves = 0;
    int positions = perft_suite(SCHACH_TEST_DATA "/perft960.epd", read_back, &moves, &checks);
    print_message("%d positions, %d counts matched, %d moves read back\n", positions, checks, moves);
    assert_true(positions >= 30);
}

/* "Why is this castling illegal" in a game, by the Chess960 rule and with the rook's own home. */
static void test_game_castling_explanations(void **state) {
    (void)state;
    SchGame g;
    SchError err;
    assert_true(sch_game_init_fen(&g, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", &err)); /* 959 */
    g.pos.chess960 = g.start.chess960 = 1;
    /* O-O: king b1 to g1 and rook c1 to f1; d1 is the first square in the way. */
    assert_int_equal(sch_game_parse_move(&g, "O-O", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_CASTLE_OCCUPIED);
    assert_string_equal(err.args[0], "d1");
    assert_int_equal(sch_game_parse_move(&g, "b1c1", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_CASTLE_OCCUPIED);
    /* The a-side rook on a1 moves and comes back: the right is gone, and the reason names a1. */
    const char *moves[] = {"a2a4", "a7a5", "a1a3", "a8a6", "a3a1", "a6a8"};
    for (int i = 0; i < 6; i++)
        assert_true(sch_game_play(&g, sch_game_parse_move(&g, moves[i], SCH_LANG_EN, &err), &err));
    assert_int_equal(sch_game_parse_move(&g, "O-O-O", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED);
    assert_string_equal(err.args[0], "a1");
    sch_game_free(&g);
    /* Repetition counts positions with equal rights per rook: the start (with rights) is not the same
     * as the board after the kings went and came back, so the third occurrence needs twelve plies. */
    assert_true(sch_game_init_fen(&g, "1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1", &err));
    const char *shuffle[] = {"e1d1", "e8d8", "d1e1", "d8e8"};
    for (int i = 0; i < 8; i++)
        assert_true(sch_game_play(&g, sch_game_parse_move(&g, shuffle[i % 4], SCH_LANG_EN, &err), &err));
    assert_false(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    for (int i = 0; i < 4; i++)
        assert_true(sch_game_play(&g, sch_game_parse_move(&g, shuffle[i], SCH_LANG_EN, &err), &err));
    assert_true(sch_game_claims(&g) & SCH_CLAIM_THREEFOLD);
    sch_game_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering_known_positions),
        cmocka_unit_test(test_numbering_all_960),
        cmocka_unit_test(test_start_arrays_that_castle_like_standard_chess),
        cmocka_unit_test(test_fen_castling_notations),
        cmocka_unit_test(test_castling_king_does_not_move),
        cmocka_unit_test(test_castling_swap_and_adjacent),
        cmocka_unit_test(test_castling_attacks_and_blocks),
        cmocka_unit_test(test_rights_per_rook),
        cmocka_unit_test(test_uci_standard_and_960_forms),
        cmocka_unit_test(test_game_castling_explanations),
        cmocka_unit_test(test_perft_suite_and_notation),
    };
    return cmocka_run_group_tests_name("chess960", tests, NULL, NULL);
}
