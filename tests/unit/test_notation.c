/* Move notation: SAN, long algebraic and UCI in English and German, lenient input, and the errors
 * with their messages in both languages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"
#include "util/error_internal.h"

#define START SCH_FEN_START
/* White knights on b1 and f3 can both go to d2. */
#define TWO_KNIGHTS "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
/* Rooks on a1 and a5 can both go to a3. */
#define TWO_ROOKS "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
/* Queens on a1, c1 and a3 can all go to b2. */
#define THREE_QUEENS "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1"
/* The knight on e2 is pinned, so only the b1 knight goes to c3. */
#define PINNED_KNIGHT "4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1"
#define FOOLS_MATE    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
#define CASTLES       "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define PROMOTE       "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1"
#define EN_PASSANT    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
#define AFTER_E4_D5   "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"

static int setup(void **state) {
    (void)state;
    return 0;
}

static SchPosition position(const char *fen) {
    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    bool ok = sch_fen_parse(&pos, fen, &err);
    if (!ok)
        fail_msg("bad test FEN %s (code %d)", fen, err.code);
    return pos;
}

/* The legal move with this UCI text, failing the test when there is none. */
static SchMove uci_move(const SchPosition *pos, const char *uci) {
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_uci_parse(pos, uci, &err);
    if (m == SCH_MOVE_NONE)
        fail_msg("test move %s not legal (code %d)", uci, err.code);
    return m;
}

static void expect_san(const char *fen, const char *uci, SchLang lang, const char *want) {
    SchPosition pos = position(fen);
    char buf[SCH_MOVE_TEXT_MAX];
    size_t n = sch_san_write(&pos, uci_move(&pos, uci), lang, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void expect_lan(const char *fen, const char *uci, SchLang lang, const char *want) {
    SchPosition pos = position(fen);
    char buf[SCH_MOVE_TEXT_MAX];
    sch_lan_write(&pos, uci_move(&pos, uci), lang, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void expect_parse_with(SchMove (*parse)(const SchPosition *, const char *, SchLang, SchError *), const char *fen,
                              const char *text, SchLang lang, const char *uci) {
    SchPosition pos = position(fen);
    SchError err;
    sch_err_clear(&err);
    SchMove m = parse(&pos, text, lang, &err);
    char got[SCH_MOVE_TEXT_MAX];
    sch_uci_write(&pos, m, got, sizeof got);
    if (strcmp(got, uci) != 0) {
        char msg[256];
        sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
        fail_msg("'%s' parsed as %s, expected %s (%s)", text, got, uci, msg);
    }
}

/* Parses with sch_san_parse and with sch_move_parse; both must give the move uci. */
static void expect_parse(const char *fen, const char *text, SchLang lang, const char *uci) {
    expect_parse_with(sch_san_parse, fen, text, lang, uci);
    expect_parse_with(sch_move_parse, fen, text, lang, uci);
}

static void expect_message(const SchError *err, const char *en, const char *de) {
    char buf[256];
    sch_err_format(err, SCH_LANG_EN, buf, sizeof buf);
    assert_string_equal(buf, en);
    sch_err_format(err, SCH_LANG_DE, buf, sizeof buf);
    assert_string_equal(buf, de);
}

/* sch_san_parse and sch_move_parse both refuse text with code and these messages. */
static void expect_error(const char *fen, const char *text, SchLang lang, int code, const char *en, const char *de) {
    SchPosition pos = position(fen);
    for (int i = 0; i < 2; i++) {
        SchError err;
        sch_err_clear(&err);
        SchMove m = i == 0 ? sch_san_parse(&pos, text, lang, &err) : sch_move_parse(&pos, text, lang, &err);
        assert_int_equal(m, SCH_MOVE_NONE);
        assert_int_equal(err.code, code);
        expect_message(&err, en, de);
    }
}

static void expect_uci_error(const char *fen, const char *text, int code, const char *en, const char *de) {
    SchPosition pos = position(fen);
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_uci_parse(&pos, text, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, code);
    expect_message(&err, en, de);
    sch_err_clear(&err);
    assert_int_equal(sch_move_parse(&pos, text, SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, code);
}

/* ---- SAN output ---- */

static void test_san_pieces_and_pawns(void **state) {
    (void)state;
    expect_san(START, "g1f3", SCH_LANG_EN, "Nf3");
    expect_san(START, "g1f3", SCH_LANG_DE, "Sf3");
    expect_san(START, "e2e4", SCH_LANG_EN, "e4");
    expect_san(START, "e2e4", SCH_LANG_DE, "e4");
    expect_san(AFTER_E4_D5, "e4d5", SCH_LANG_EN, "exd5");
    expect_san(AFTER_E4_D5, "f1b5", SCH_LANG_EN, "Bb5+");
    expect_san(AFTER_E4_D5, "f1b5", SCH_LANG_DE, "Lb5+");
    expect_san(AFTER_E4_D5, "d1h5", SCH_LANG_DE, "Dh5");
    expect_san(TWO_ROOKS, "a5a8", SCH_LANG_DE, "Ta8+");
    expect_san(TWO_ROOKS, "e1d2", SCH_LANG_DE, "Kd2");
}

static void test_san_disambiguation(void **state) {
    (void)state;
    expect_san(TWO_KNIGHTS, "b1d2", SCH_LANG_EN, "Nbd2");
    expect_san(TWO_KNIGHTS, "f3d2", SCH_LANG_EN, "Nfd2");
    expect_san(TWO_KNIGHTS, "f3d2", SCH_LANG_DE, "Sfd2");
    expect_san(TWO_KNIGHTS, "b1c3", SCH_LANG_EN, "Nc3"); /* only the b1 knight reaches c3 */
    expect_san(TWO_ROOKS, "a1a3", SCH_LANG_EN, "R1a3");
    expect_san(TWO_ROOKS, "a5a3", SCH_LANG_DE, "T5a3");
    expect_san(TWO_ROOKS, "a1b1", SCH_LANG_EN, "Rb1");
    expect_san(THREE_QUEENS, "a1b2", SCH_LANG_EN, "Qa1b2");
    expect_san(THREE_QUEENS, "c1b2", SCH_LANG_EN, "Qcb2");
    expect_san(THREE_QUEENS, "a3b2", SCH_LANG_EN, "Q3b2");
    expect_san(THREE_QUEENS, "a3b2", SCH_LANG_DE, "D3b2");
    expect_san(PINNED_KNIGHT, "b1c3", SCH_LANG_EN, "Nc3"); /* the pinned knight is no rival */
}

static void test_san_check_and_mate(void **state) {
    (void)state;
    expect_san(FOOLS_MATE, "d8h4", SCH_LANG_EN, "Qh4#");
    expect_san(FOOLS_MATE, "d8h4", SCH_LANG_DE, "Dh4#");
    expect_san(FOOLS_MATE, "f8c5", SCH_LANG_EN, "Bc5");
    expect_san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", SCH_LANG_EN, "Ra8+");
    expect_san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", SCH_LANG_EN, "Ra8#");
    expect_san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", SCH_LANG_DE, "Ta8#");
}

static void test_san_castling(void **state) {
    (void)state;
    expect_san(CASTLES, "e1g1", SCH_LANG_EN, "O-O");
    expect_san(CASTLES, "e1c1", SCH_LANG_EN, "O-O-O");
    expect_san(CASTLES, "e1g1", SCH_LANG_DE, "0-0");
    expect_san(CASTLES, "e1c1", SCH_LANG_DE, "0-0-0");
    expect_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", SCH_LANG_EN, "O-O+");
    expect_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", SCH_LANG_DE, "0-0+");
}

static void test_san_promotion_and_en_passant(void **state) {
    (void)state;
    expect_san(PROMOTE, "c7d8q", SCH_LANG_EN, "cxd8=Q+");
    expect_san(PROMOTE, "c7d8q", SCH_LANG_DE, "cxd8=D+");
    expect_san(PROMOTE, "c7c8q", SCH_LANG_EN, "c8=Q");
    expect_san(PROMOTE, "c7c8n", SCH_LANG_EN, "c8=N");
    expect_san(PROMOTE, "c7c8n", SCH_LANG_DE, "c8=S");
    expect_san(PROMOTE, "c7c8r", SCH_LANG_DE, "c8=T");
    expect_san(PROMOTE, "c7c8b", SCH_LANG_DE, "c8=L");
    expect_san(EN_PASSANT, "e5d6", SCH_LANG_EN, "exd6");
    expect_san(EN_PASSANT, "e5d6", SCH_LANG_DE, "exd6 e.p.");
    expect_san(EN_PASSANT, "e5e6", SCH_LANG_DE, "e6");
}

static void test_san_small_buffer(void **state) {
    (void)state;
    SchPosition pos = position(PROMOTE);
    char buf[4];
    size_t n = sch_san_write(&pos, uci_move(&pos, "c7d8q"), SCH_LANG_EN, buf, sizeof buf);
    assert_int_equal(n, 7);
    assert_string_equal(buf, "cxd");
}

/* ---- LAN and UCI output ---- */

static void test_lan_write(void **state) {
    (void)state;
    expect_lan(START, "e2e4", SCH_LANG_EN, "e2-e4");
    expect_lan(START, "g1f3", SCH_LANG_EN, "Ng1-f3");
    expect_lan(START, "g1f3", SCH_LANG_DE, "Sg1-f3");
    expect_lan(AFTER_E4_D5, "e4d5", SCH_LANG_EN, "e4xd5");
    expect_lan(CASTLES, "e1g1", SCH_LANG_EN, "O-O");
    expect_lan(CASTLES, "e1c1", SCH_LANG_DE, "0-0-0");
    expect_lan(PROMOTE, "c7c8q", SCH_LANG_EN, "c7-c8=Q");
    expect_lan(PROMOTE, "c7d8q", SCH_LANG_DE, "c7xd8=D+");
    expect_lan(EN_PASSANT, "e5d6", SCH_LANG_DE, "e5xd6 e.p.");
    expect_lan(FOOLS_MATE, "d8h4", SCH_LANG_EN, "Qd8-h4#");
}

static void test_uci_write(void **state) {
    (void)state;
    char buf[8];
    SchPosition start;
    sch_pos_set_start(&start);
    assert_int_equal(sch_uci_write(&start, sch_move_make(SCH_SQ_E2, SCH_SQ_E4), buf, sizeof buf), 4);
    assert_string_equal(buf, "e2e4");
    sch_uci_write(&start, sch_move_make_promotion(SCH_SQ_E7, SCH_SQ_E8, SCH_QUEEN), buf, sizeof buf);
    assert_string_equal(buf, "e7e8q");
    sch_uci_write(&start, sch_move_make_promotion(SCH_SQ_B2, SCH_SQ_A1, SCH_KNIGHT), buf, sizeof buf);
    assert_string_equal(buf, "b2a1n");
    sch_uci_write(&start, sch_move_make_kind(SCH_SQ_E8, SCH_SQ_C8, SCH_MOVE_CASTLING), buf, sizeof buf);
    assert_string_equal(buf, "e8c8");
    sch_uci_write(&start, SCH_MOVE_NONE, buf, sizeof buf);
    assert_string_equal(buf, "0000");
    sch_uci_write(&start, SCH_MOVE_NULL, buf, sizeof buf);
    assert_string_equal(buf, "0000");
    assert_int_equal(sch_uci_write(&start, sch_move_make_promotion(SCH_SQ_E7, SCH_SQ_E8, SCH_ROOK), buf, 3), 5);
    assert_string_equal(buf, "e7");
}

/* ---- SAN input ---- */

static void test_parse_strict(void **state) {
    (void)state;
    expect_parse(START, "Nf3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "e4", SCH_LANG_EN, "e2e4");
    expect_parse(START, "e3", SCH_LANG_EN, "e2e3");
    expect_parse(AFTER_E4_D5, "exd5", SCH_LANG_EN, "e4d5");
    expect_parse(AFTER_E4_D5, "Bb5+", SCH_LANG_EN, "f1b5");
    expect_parse(TWO_KNIGHTS, "Nbd2", SCH_LANG_EN, "b1d2");
    expect_parse(TWO_KNIGHTS, "Nfd2", SCH_LANG_EN, "f3d2");
    expect_parse(TWO_ROOKS, "R1a3", SCH_LANG_EN, "a1a3");
    expect_parse(THREE_QUEENS, "Qa1b2", SCH_LANG_EN, "a1b2");
    expect_parse(THREE_QUEENS, "Q3b2", SCH_LANG_EN, "a3b2");
    expect_parse(FOOLS_MATE, "Qh4#", SCH_LANG_EN, "d8h4");
    expect_parse(CASTLES, "O-O", SCH_LANG_EN, "e1g1");
    expect_parse(CASTLES, "O-O-O", SCH_LANG_EN, "e1c1");
    expect_parse(PROMOTE, "cxd8=Q+", SCH_LANG_EN, "c7d8q");
    expect_parse(PROMOTE, "c8=N", SCH_LANG_EN, "c7c8n");
    expect_parse(EN_PASSANT, "exd6", SCH_LANG_EN, "e5d6");
    expect_parse(PINNED_KNIGHT, "Nc3", SCH_LANG_EN, "b1c3");
}

static void test_parse_german(void **state) {
    (void)state;
    expect_parse(START, "Sf3", SCH_LANG_DE, "g1f3");
    expect_parse(START, "Sc3", SCH_LANG_DE, "b1c3");
    expect_parse(AFTER_E4_D5, "Lb5+", SCH_LANG_DE, "f1b5");
    expect_parse(AFTER_E4_D5, "Dh5", SCH_LANG_DE, "d1h5");
    expect_parse(TWO_ROOKS, "T5a3", SCH_LANG_DE, "a5a3");
    expect_parse(TWO_KNIGHTS, "Sbd2", SCH_LANG_DE, "b1d2");
    expect_parse(FOOLS_MATE, "Dxh4", SCH_LANG_DE, "d8h4");
    expect_parse(FOOLS_MATE, "Dh4#", SCH_LANG_DE, "d8h4");
    expect_parse(CASTLES, "0-0", SCH_LANG_DE, "e1g1");
    expect_parse(CASTLES, "0-0-0", SCH_LANG_DE, "e1c1");
    expect_parse(PROMOTE, "cxd8=D", SCH_LANG_DE, "c7d8q");
    expect_parse(PROMOTE, "c8=S", SCH_LANG_DE, "c7c8n");
    expect_parse(PROMOTE, "c8=L", SCH_LANG_DE, "c7c8b");
    expect_parse(PROMOTE, "c8=T", SCH_LANG_DE, "c7c8r");
    expect_parse(EN_PASSANT, "exd6 e.p.", SCH_LANG_DE, "e5d6");
    /* In German 'B' is the pawn (Bauer); in English it is the bishop. */
    expect_parse(START, "Be4", SCH_LANG_DE, "e2e4");
    expect_parse(AFTER_E4_D5, "Bb5", SCH_LANG_EN, "f1b5");
    /* Letters of the other language are understood too. */
    expect_parse(START, "Sf3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "Nf3", SCH_LANG_DE, "g1f3");
    expect_parse(PROMOTE, "c8=Q", SCH_LANG_DE, "c7c8q");
}

static void test_parse_lenient(void **state) {
    (void)state;
    expect_parse(CASTLES, "0-0", SCH_LANG_EN, "e1g1");
    expect_parse(CASTLES, "0-0-0", SCH_LANG_EN, "e1c1");
    expect_parse(CASTLES, "O-O", SCH_LANG_DE, "e1g1");
    expect_parse(CASTLES, "o-o-o", SCH_LANG_EN, "e1c1");
    expect_parse(CASTLES, "OO", SCH_LANG_EN, "e1g1");
    expect_parse(CASTLES, "O-O+", SCH_LANG_EN, "e1g1");
    expect_parse(CASTLES, "Kg1", SCH_LANG_EN, "e1g1");
    expect_parse(EN_PASSANT, "exd6 e.p.", SCH_LANG_EN, "e5d6");
    expect_parse(EN_PASSANT, "exd6e.p.", SCH_LANG_EN, "e5d6");
    expect_parse(EN_PASSANT, "exd6 ep", SCH_LANG_EN, "e5d6");
    expect_parse(EN_PASSANT, "exd6 e.p.+", SCH_LANG_DE, "e5d6");
    /* missing or wrong check marks */
    expect_parse(FOOLS_MATE, "Qh4", SCH_LANG_EN, "d8h4");
    expect_parse(FOOLS_MATE, "Qh4+", SCH_LANG_EN, "d8h4");
    expect_parse(START, "Nf3+", SCH_LANG_EN, "g1f3");
    expect_parse(START, "Nf3#", SCH_LANG_EN, "g1f3");
    expect_parse(START, "Nf3++", SCH_LANG_EN, "g1f3");
    /* annotations */
    expect_parse(START, "e4!", SCH_LANG_EN, "e2e4");
    expect_parse(START, "e4!?", SCH_LANG_EN, "e2e4");
    expect_parse(START, "Nf3?!", SCH_LANG_EN, "g1f3");
    expect_parse(FOOLS_MATE, "Qh4#!!", SCH_LANG_EN, "d8h4");
    expect_parse(START, "  Nf3  ", SCH_LANG_EN, "g1f3");
    /* over-disambiguation */
    expect_parse(START, "Ngf3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "N1f3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "Ng1f3", SCH_LANG_EN, "g1f3");
    expect_parse(TWO_KNIGHTS, "Nf3d2", SCH_LANG_EN, "f3d2");
    expect_parse(START, "Pe4", SCH_LANG_EN, "e2e4");
    expect_parse(START, "e2e4", SCH_LANG_EN, "e2e4");
    /* promotion without '=' and with a lowercase letter */
    expect_parse(PROMOTE, "c8Q", SCH_LANG_EN, "c7c8q");
    expect_parse(PROMOTE, "c8=q", SCH_LANG_EN, "c7c8q");
    expect_parse(PROMOTE, "c8q", SCH_LANG_EN, "c7c8q");
    expect_parse(PROMOTE, "cxd8q", SCH_LANG_EN, "c7d8q");
    expect_parse(PROMOTE, "c8=b", SCH_LANG_EN, "c7c8b");
    expect_parse(PROMOTE, "c8D", SCH_LANG_DE, "c7c8q");
    expect_parse(PROMOTE, "c8=d", SCH_LANG_DE, "c7c8q");
    expect_parse(PROMOTE, "c8/Q", SCH_LANG_EN, "c7c8q");
    /* capture marks that are missing, or ':' */
    expect_parse(AFTER_E4_D5, "ed5", SCH_LANG_EN, "e4d5");
    expect_parse(AFTER_E4_D5, "e:d5", SCH_LANG_EN, "e4d5");
    expect_parse(FOOLS_MATE, "Qxh4", SCH_LANG_EN, "d8h4");
    /* lowercase piece letter where it cannot be a file */
    expect_parse(START, "nf3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "sf3", SCH_LANG_DE, "g1f3");
}

static void test_parse_long_algebraic(void **state) {
    (void)state;
    expect_parse(START, "e2-e4", SCH_LANG_EN, "e2e4");
    expect_parse(START, "Ng1-f3", SCH_LANG_EN, "g1f3");
    expect_parse(START, "Sg1-f3", SCH_LANG_DE, "g1f3");
    expect_parse(START, "g1-f3", SCH_LANG_EN, "g1f3");
    expect_parse(AFTER_E4_D5, "e4xd5", SCH_LANG_EN, "e4d5");
    expect_parse(PROMOTE, "c7-c8=Q", SCH_LANG_EN, "c7c8q");
    expect_parse(PROMOTE, "c7xd8=D+", SCH_LANG_DE, "c7d8q");
    expect_parse(EN_PASSANT, "e5xd6 e.p.", SCH_LANG_DE, "e5d6");
    expect_parse(FOOLS_MATE, "Qd8-h4#", SCH_LANG_EN, "d8h4");
    expect_parse(CASTLES, "Ke1-g1", SCH_LANG_EN, "e1g1");
}

static void test_parse_uci(void **state) {
    (void)state;
    expect_parse_with(sch_move_parse, START, "e2e4", SCH_LANG_EN, "e2e4");
    expect_parse_with(sch_move_parse, START, "g1f3", SCH_LANG_DE, "g1f3");
    expect_parse_with(sch_move_parse, PROMOTE, "c7d8q", SCH_LANG_EN, "c7d8q");
    expect_parse_with(sch_move_parse, PROMOTE, "c7c8n", SCH_LANG_EN, "c7c8n");
    expect_parse_with(sch_move_parse, CASTLES, "e1g1", SCH_LANG_EN, "e1g1");
    expect_parse_with(sch_move_parse, CASTLES, "e1h1", SCH_LANG_EN, "e1g1");
    expect_parse_with(sch_move_parse, CASTLES, "e1a1", SCH_LANG_EN, "e1c1");
    expect_parse_with(sch_move_parse, EN_PASSANT, "e5d6", SCH_LANG_EN, "e5d6");
    SchPosition pos = position(CASTLES);
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_uci_parse(&pos, "e1h1", &err);
    assert_int_equal(sch_move_kind(m), SCH_MOVE_CASTLING);
    assert_int_equal(sch_move_to(m), SCH_SQ_G1);
    m = sch_uci_parse(&pos, " e1c1\n", &err);
    assert_int_equal(sch_move_kind(m), SCH_MOVE_CASTLING);
    /* black castles by taking its own rook too */
    pos = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    m = sch_uci_parse(&pos, "e8h8", &err);
    assert_int_equal(sch_move_to(m), SCH_SQ_G8);
    assert_int_equal(sch_move_kind(m), SCH_MOVE_CASTLING);
}

/* ---- errors ---- */

static void test_error_ambiguous(void **state) {
    (void)state;
    expect_error(TWO_KNIGHTS, "Nd2", SCH_LANG_EN, SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: Nbd2 or Nfd2",
                 "mehrdeutig: Nbd2 oder Nfd2");
    expect_error(TWO_KNIGHTS, "Sd2", SCH_LANG_DE, SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: Sbd2 or Sfd2",
                 "mehrdeutig: Sbd2 oder Sfd2");
    expect_error(TWO_ROOKS, "Ra3", SCH_LANG_EN, SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: R1a3 or R5a3",
                 "mehrdeutig: R1a3 oder R5a3");
    expect_error(THREE_QUEENS, "Qb2", SCH_LANG_EN, SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: Qa1b2, Qcb2 or Q3b2",
                 "mehrdeutig: Qa1b2, Qcb2 oder Q3b2");
    expect_error(THREE_QUEENS, "Qab2", SCH_LANG_EN, SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: Qa1b2 or Q3b2",
                 "mehrdeutig: Qa1b2 oder Q3b2");
}

static void test_error_no_piece(void **state) {
    (void)state;
    expect_error(START, "Nd4", SCH_LANG_EN, SCH_MOVE_ERR_NO_KNIGHT, "no knight can reach d4",
                 "kein Springer kann d4 erreichen");
    expect_error(START, "Sd4", SCH_LANG_DE, SCH_MOVE_ERR_NO_KNIGHT, "no knight can reach d4",
                 "kein Springer kann d4 erreichen");
    expect_error(START, "Qd4", SCH_LANG_EN, SCH_MOVE_ERR_NO_QUEEN, "no queen can reach d4",
                 "keine Dame kann d4 erreichen");
    expect_error(START, "Dd4", SCH_LANG_DE, SCH_MOVE_ERR_NO_QUEEN, "no queen can reach d4",
                 "keine Dame kann d4 erreichen");
    expect_error(START, "Bb5", SCH_LANG_EN, SCH_MOVE_ERR_NO_BISHOP, "no bishop can reach b5",
                 "kein Läufer kann b5 erreichen");
    expect_error(START, "Lb5", SCH_LANG_DE, SCH_MOVE_ERR_NO_BISHOP, "no bishop can reach b5",
                 "kein Läufer kann b5 erreichen");
    expect_error(START, "Ra3", SCH_LANG_EN, SCH_MOVE_ERR_NO_ROOK, "no rook can reach a3",
                 "kein Turm kann a3 erreichen");
    expect_error(START, "Ke2", SCH_LANG_EN, SCH_MOVE_ERR_NO_KING, "no king can reach e2",
                 "kein König kann e2 erreichen");
    expect_error(START, "e5", SCH_LANG_EN, SCH_MOVE_ERR_NO_PAWN, "no pawn can reach e5",
                 "kein Bauer kann e5 erreichen");
    expect_error(START, "Be5", SCH_LANG_DE, SCH_MOVE_ERR_NO_PAWN, "no pawn can reach e5",
                 "kein Bauer kann e5 erreichen");
    /* a pawn capture needs its file: "d5" is a push */
    expect_error(AFTER_E4_D5, "d5", SCH_LANG_EN, SCH_MOVE_ERR_NO_PAWN, "no pawn can reach d5",
                 "kein Bauer kann d5 erreichen");
    /* the piece letter and the English letter argument */
    SchPosition pos = position(START);
    SchError err;
    sch_err_clear(&err);
    sch_san_parse(&pos, "Sd4", SCH_LANG_DE, &err);
    assert_string_equal(err.args[0], "N");
    assert_string_equal(err.args[1], "d4");
}

static void test_error_did_you_mean(void **state) {
    (void)state;
    expect_error(START, "Nbf3", SCH_LANG_EN, SCH_MOVE_ERR_DID_YOU_MEAN,
                 "Nbf3 does not fit this position; did you mean Nf3?",
                 "Nbf3 passt nicht zur Stellung; gemeint ist wohl Nf3");
    expect_error(START, "Sbf3", SCH_LANG_DE, SCH_MOVE_ERR_DID_YOU_MEAN,
                 "Sbf3 does not fit this position; did you mean Sf3?",
                 "Sbf3 passt nicht zur Stellung; gemeint ist wohl Sf3");
    expect_error(AFTER_E4_D5, "cxd5", SCH_LANG_EN, SCH_MOVE_ERR_DID_YOU_MEAN,
                 "cxd5 does not fit this position; did you mean exd5?",
                 "cxd5 passt nicht zur Stellung; gemeint ist wohl exd5");
}

static void test_error_king_exposed(void **state) {
    (void)state;
    expect_error(PINNED_KNIGHT, "Nec3", SCH_LANG_EN, SCH_MOVE_ERR_KING_EXPOSED, "Nec3 would leave the king in check",
                 "nach Nec3 stünde der eigene König im Schach");
    /* in check, a knight that could go to d4 may not */
    expect_error("4k3/8/8/8/8/5N2/8/r3K3 w - - 0 1", "Nd4", SCH_LANG_EN, SCH_MOVE_ERR_KING_EXPOSED,
                 "Nd4 would leave the king in check", "nach Nd4 stünde der eigene König im Schach");
    expect_error("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "Kd1", SCH_LANG_EN, SCH_MOVE_ERR_KING_EXPOSED,
                 "Kd1 would leave the king in check", "nach Kd1 stünde der eigene König im Schach");
}

static void test_error_syntax(void **state) {
    (void)state;
    expect_error(START, "hello", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'hello' is not a move", "'hello' ist kein Zug");
    expect_error(START, "Nf9", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'Nf9' is not a move", "'Nf9' ist kein Zug");
    expect_error(START, "Xf3", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'Xf3' is not a move", "'Xf3' ist kein Zug");
    expect_error(START, "N-f3", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'N-f3' is not a move", "'N-f3' ist kein Zug");
    expect_error(START, "O-O-O-O", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'O-O-O-O' is not a move",
                 "'O-O-O-O' ist kein Zug");
    expect_error(START, "+", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'+' is not a move", "'+' ist kein Zug");
    expect_error(START, "N\001f3\377", SCH_LANG_EN, SCH_MOVE_ERR_SYNTAX, "'N?f3?' is not a move",
                 "'N?f3?' ist kein Zug");
    expect_error(START, "", SCH_LANG_EN, SCH_MOVE_ERR_EMPTY, "no move given", "kein Zug angegeben");
    expect_error(START, " \t ", SCH_LANG_DE, SCH_MOVE_ERR_EMPTY, "no move given", "kein Zug angegeben");
    char longtext[300];
    memset(longtext, 'N', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    SchPosition pos = position(START);
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_move_parse(&pos, longtext, SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    sch_err_clear(&err);
    assert_int_equal(sch_san_parse(&pos, NULL, SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_EMPTY);
    assert_int_equal(sch_san_parse(&pos, "Nd4", SCH_LANG_EN, NULL), SCH_MOVE_NONE); /* err may be NULL */
}

static void test_error_promotion(void **state) {
    (void)state;
    expect_error(PROMOTE, "c8", SCH_LANG_EN, SCH_MOVE_ERR_PROMOTION_MISSING,
                 "c8: a pawn reaching the last rank must promote (e.g. =Q)",
                 "c8: ein Bauer auf der letzten Reihe muss umgewandelt werden (z. B. =D)");
    expect_error(START, "e4=Q", SCH_LANG_EN, SCH_MOVE_ERR_PROMOTION_BAD,
                 "e4=Q: only a pawn reaching the last rank promotes",
                 "e4=Q: nur ein Bauer, der die letzte Reihe erreicht, wird umgewandelt");
    expect_error(PROMOTE, "c8=K", SCH_LANG_EN, SCH_MOVE_ERR_PROMOTION_PIECE,
                 "c8=K: a pawn promotes only to a queen, rook, bishop or knight",
                 "c8=K: ein Bauer wird nur in Dame, Turm, Läufer oder Springer umgewandelt");
    expect_error(PROMOTE, "c8=B", SCH_LANG_DE, SCH_MOVE_ERR_PROMOTION_PIECE,
                 "c8=B: a pawn promotes only to a queen, rook, bishop or knight",
                 "c8=B: ein Bauer wird nur in Dame, Turm, Läufer oder Springer umgewandelt");
}

static void test_error_castling(void **state) {
    (void)state;
    expect_error("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_RIGHTS,
                 "O-O: castling to that side is no longer allowed (king or rook has moved)",
                 "O-O: Rochade nach dieser Seite ist nicht mehr erlaubt (König oder Turm hat gezogen)");
    expect_error("r3k2r/8/8/8/8/8/8/R4K1R w - - 0 1", "0-0", SCH_LANG_DE, SCH_MOVE_ERR_CASTLE_RIGHTS,
                 "0-0: castling to that side is no longer allowed (king or rook has moved)",
                 "0-0: Rochade nach dieser Seite ist nicht mehr erlaubt (König oder Turm hat gezogen)");
    expect_error("r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_IN_CHECK,
                 "O-O: a king in check cannot castle", "O-O: aus dem Schach darf nicht rochiert werden");
    expect_error(START, "O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_BLOCKED, "O-O: there are pieces between king and rook",
                 "O-O: zwischen König und Turm stehen Figuren");
    expect_error("r3k2r/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "O-O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_BLOCKED,
                 "O-O-O: there are pieces between king and rook", "O-O-O: zwischen König und Turm stehen Figuren");
    expect_error("r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_ATTACKED,
                 "O-O: the king would cross or land on f1, which is attacked",
                 "O-O: der König würde über das angegriffene Feld f1 ziehen oder darauf landen");
    expect_error("r3k2r/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "O-O", SCH_LANG_EN, SCH_MOVE_ERR_CASTLE_ATTACKED,
                 "O-O: the king would cross or land on g1, which is attacked",
                 "O-O: der König würde über das angegriffene Feld g1 ziehen oder darauf landen");
    /* b1 may be attacked in queen-side castling; only the king's squares matter */
    expect_parse("r3k2r/8/8/8/8/8/1r6/R3K2R w KQ - 0 1", "O-O-O", SCH_LANG_EN, "e1c1");
}

static void test_error_uci(void **state) {
    (void)state;
    expect_uci_error(START, "e2e5", SCH_MOVE_ERR_ILLEGAL, "e2e5 is not legal in this position",
                     "e2e5 ist in dieser Stellung nicht erlaubt");
    expect_uci_error(START, "e3e4", SCH_MOVE_ERR_EMPTY_SQUARE, "there is no piece on e3", "auf e3 steht keine Figur");
    expect_uci_error(START, "e7e5", SCH_MOVE_ERR_WRONG_COLOR, "the piece on e7 belongs to the opponent",
                     "die Figur auf e7 gehört dem Gegner");
    expect_uci_error(START, "a1a2", SCH_MOVE_ERR_ILLEGAL, "a1a2 is not legal in this position",
                     "a1a2 ist in dieser Stellung nicht erlaubt");
    expect_uci_error(PROMOTE, "c7c8", SCH_MOVE_ERR_PROMOTION_MISSING,
                     "c7c8: a pawn reaching the last rank must promote (e.g. =Q)",
                     "c7c8: ein Bauer auf der letzten Reihe muss umgewandelt werden (z. B. =D)");
    expect_uci_error(START, "e2e4q", SCH_MOVE_ERR_PROMOTION_BAD, "e2e4q: only a pawn reaching the last rank promotes",
                     "e2e4q: nur ein Bauer, der die letzte Reihe erreicht, wird umgewandelt");
    expect_uci_error(PROMOTE, "c7c8k", SCH_MOVE_ERR_PROMOTION_PIECE,
                     "c7c8k: a pawn promotes only to a queen, rook, bishop or knight",
                     "c7c8k: ein Bauer wird nur in Dame, Turm, Läufer oder Springer umgewandelt");
    expect_uci_error(PINNED_KNIGHT, "e2c3", SCH_MOVE_ERR_KING_EXPOSED, "e2c3 would leave the king in check",
                     "nach e2c3 stünde der eigene König im Schach");
    expect_uci_error("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1h1", SCH_MOVE_ERR_CASTLE_RIGHTS,
                     "e1h1: castling to that side is no longer allowed (king or rook has moved)",
                     "e1h1: Rochade nach dieser Seite ist nicht mehr erlaubt (König oder Turm hat gezogen)");
    expect_uci_error(START, "e1g1", SCH_MOVE_ERR_CASTLE_BLOCKED, "e1g1: there are pieces between king and rook",
                     "e1g1: zwischen König und Turm stehen Figuren");
    expect_uci_error(EN_PASSANT, "e5f6", SCH_MOVE_ERR_ILLEGAL, "e5f6 is not legal in this position",
                     "e5f6 ist in dieser Stellung nicht erlaubt");
    SchPosition pos = position(START);
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_uci_parse(&pos, "e2e9", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    assert_int_equal(sch_uci_parse(&pos, "Nf3", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    assert_int_equal(sch_uci_parse(&pos, "e2e4x", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    assert_int_equal(sch_uci_parse(&pos, "0000", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    assert_int_equal(sch_uci_parse(&pos, "", &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_EMPTY);
}

static void test_error_move_parse_prefers_specific(void **state) {
    (void)state;
    SchPosition pos = position(START);
    SchError err;
    sch_err_clear(&err);
    /* A UCI-shaped text is judged as UCI, with the reason by squares. */
    assert_int_equal(sch_move_parse(&pos, "e7e5", SCH_LANG_DE, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_WRONG_COLOR);
    /* LAN with a dash from an empty square */
    assert_int_equal(sch_move_parse(&pos, "e3-e4", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_EMPTY_SQUARE);
    assert_int_equal(sch_move_parse(&pos, "e7-e5", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_WRONG_COLOR);
    /* unknown codes of the module still format to something */
    SchError other;
    sch_err_clear(&other);
    sch_err_set(&other, 299, NULL, NULL, NULL);
    char buf[64];
    sch_err_format(&other, SCH_LANG_EN, buf, sizeof buf);
    assert_string_equal(buf, "unknown error");
}

/* Every message template exists in both languages and differs between them. */
static void test_templates_complete(void **state) {
    (void)state;
    for (int code = SCH_MOVE_ERR_EMPTY; code <= SCH_MOVE_ERR_DID_YOU_MEAN; code++) {
        const char *en = sch_notation_error_template(code, SCH_LANG_EN);
        const char *de = sch_notation_error_template(code, SCH_LANG_DE);
        assert_non_null(en);
        assert_non_null(de);
        assert_string_not_equal(en, de);
    }
    assert_null(sch_notation_error_template(SCH_MOVE_ERR_DID_YOU_MEAN + 1, SCH_LANG_EN));
    assert_null(sch_notation_error_template(199, SCH_LANG_DE));
}

/* A legal move is never explained away; each position's legal moves round-trip. */
static void test_roundtrip_samples(void **state) {
    (void)state;
    const char *fens[] = {START,      TWO_KNIGHTS, TWO_ROOKS, THREE_QUEENS, PINNED_KNIGHT,
                          FOOLS_MATE, CASTLES,     PROMOTE,   EN_PASSANT,   AFTER_E4_D5};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        SchPosition pos = position(fens[f]);
        SchMove list[SCH_MAX_MOVES];
        int n = sch_gen_moves(&pos, SCH_GEN_ALL, list);
        for (int i = 0; i < n; i++) {
            for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
                char san[SCH_MOVE_TEXT_MAX], lan[SCH_MOVE_TEXT_MAX];
                sch_san_write(&pos, list[i], lang, san, sizeof san);
                sch_lan_write(&pos, list[i], lang, lan, sizeof lan);
                SchError err;
                sch_err_clear(&err);
                assert_int_equal(sch_san_parse(&pos, san, lang, &err), list[i]);
                assert_int_equal(sch_move_parse(&pos, lan, lang, &err), list[i]);
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_san_pieces_and_pawns),
        cmocka_unit_test(test_san_disambiguation),
        cmocka_unit_test(test_san_check_and_mate),
        cmocka_unit_test(test_san_castling),
        cmocka_unit_test(test_san_promotion_and_en_passant),
        cmocka_unit_test(test_san_small_buffer),
        cmocka_unit_test(test_lan_write),
        cmocka_unit_test(test_uci_write),
        cmocka_unit_test(test_parse_strict),
        cmocka_unit_test(test_parse_german),
        cmocka_unit_test(test_parse_lenient),
        cmocka_unit_test(test_parse_long_algebraic),
        cmocka_unit_test(test_parse_uci),
        cmocka_unit_test(test_error_ambiguous),
        cmocka_unit_test(test_error_no_piece),
        cmocka_unit_test(test_error_did_you_mean),
        cmocka_unit_test(test_error_king_exposed),
        cmocka_unit_test(test_error_syntax),
        cmocka_unit_test(test_error_promotion),
        cmocka_unit_test(test_error_castling),
        cmocka_unit_test(test_error_uci),
        cmocka_unit_test(test_error_move_parse_prefers_specific),
        cmocka_unit_test(test_templates_complete),
        cmocka_unit_test(test_roundtrip_samples),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
