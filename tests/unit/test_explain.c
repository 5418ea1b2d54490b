/* Explaining refused moves: every reason in English and German, castling reasons from the game's
 * history, en passant timing, the closest candidate winning, and no crash on any input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "schach/explain.h"
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"

static void init_fen(SchGame *g, const char *fen) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, fen, &err))
        fail_msg("bad test FEN %s (error %d)", fen, err.code);
}

/* text (as typed in that language) is refused with exactly this sentence; returns the code. */
static int refused_as(const SchGame *g, const char *text, SchLang lang, const char *sentence) {
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_game_parse_move(g, text, lang, &err);
    if (m != SCH_MOVE_NONE)
        fail_msg("'%s' was accepted", text);
    char buf[512];
    size_t n = sch_err_format(&err, lang, buf, sizeof buf);
    if (strcmp(buf, sentence) != 0)
        fail_msg("'%s' (%s): expected \"%s\", got \"%s\" (code %d)", text, lang == SCH_LANG_DE ? "de" : "en", sentence,
                 buf, err.code);
    assert_int_equal(n, strlen(sentence));
    return err.code;
}

/* The same text in both languages. */
static int refused(const SchGame *g, const char *text, const char *en, const char *de) {
    int code = refused_as(g, text, SCH_LANG_EN, en);
    assert_int_equal(refused_as(g, text, SCH_LANG_DE, de), code);
    return code;
}

static SchGame start_game(void) {
    SchGame g;
    sch_game_init(&g);
    return g;
}

/* ---------------------------------------------------------------------------------------------- */

static void test_legal_moves_pass(void **state) {
    (void)state;
    SchGame g = start_game();
    const char *texts[] = {"e4", "e2e4", "e2-e4", "Nf3", "Sf3", "Ng1-f3", "g1f3"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_game_parse_move(&g, texts[i], SCH_LANG_EN, &err);
        assert_true(sch_gen_is_legal(sch_game_position(&g), m));
        assert_int_equal(err.code, SCH_ERR_NONE);
    }
    sch_game_free(&g);
}

static void test_no_piece_can_reach(void **state) {
    (void)state;
    SchGame g = start_game();
    assert_int_equal(refused(&g, "Nd4", "no knight can reach d4", "kein Springer kann d4 erreichen"),
                     SCH_MOVE_ERR_NO_KNIGHT);
    assert_int_equal(refused(&g, "e5", "no pawn can reach e5", "kein Bauer kann e5 erreichen"), SCH_MOVE_ERR_NO_PAWN);
    assert_int_equal(refused(&g, "Dh6", "no queen can reach h6", "keine Dame kann h6 erreichen"),
                     SCH_MOVE_ERR_NO_QUEEN);
    assert_int_equal(refused(&g, "Ke3", "no king can reach e3", "kein König kann e3 erreichen"), SCH_MOVE_ERR_NO_KING);
    sch_game_free(&g);
}

static void test_own_piece_on_target(void **state) {
    (void)state;
    SchGame g = start_game();
    assert_int_equal(refused(&g, "Nd2", "there is already a piece of the same colour on d2 (pawn)",
                             "auf d2 steht eine eigene Figur (Bauer)"),
                     SCH_EXPLAIN_ERR_OWN_PIECE);
    refused(&g, "Ra1-b1", "there is already a piece of the same colour on b1 (knight)",
            "auf b1 steht eine eigene Figur (Springer)");
    refused(&g, "e1d1", "there is already a piece of the same colour on d1 (queen)",
            "auf d1 steht eine eigene Figur (Dame)");
    sch_game_free(&g);
}

static void test_path_blocked(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1");
    assert_int_equal(
        refused(&g, "Rd8", "the path is blocked at d4 (rook on d1)", "der Weg ist bei d4 versperrt (Turm auf d1)"),
        SCH_EXPLAIN_ERR_BLOCKED);
    sch_game_free(&g);
    g = start_game();
    /* The first blocking square from the piece, not the last. */
    refused(&g, "Lb5", "the path is blocked at e2 (bishop on f1)", "der Weg ist bei e2 versperrt (Läufer auf f1)");
    refused_as(&g, "Bb5", SCH_LANG_EN, "the path is blocked at e2 (bishop on f1)");
    refused(&g, "Qd1-d5", "the path is blocked at d2 (queen on d1)", "der Weg ist bei d2 versperrt (Dame auf d1)");
    sch_game_free(&g);
    /* A pawn's double step over a piece, and a push onto an enemy piece. */
    init_fen(&g, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    refused(&g, "e4", "the path is blocked at e3 (pawn on e2)", "der Weg ist bei e3 versperrt (Bauer auf e2)");
    refused(&g, "e3", "the path is blocked at e3 (pawn on e2)", "der Weg ist bei e3 versperrt (Bauer auf e2)");
    sch_game_free(&g);
}

static void test_pinned(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
    assert_int_equal(refused(&g, "Nf3", "the knight on d2 is pinned and would expose the king",
                             "der Springer auf d2 ist gefesselt und würde den eigenen König preisgeben"),
                     SCH_EXPLAIN_ERR_PINNED_KNIGHT);
    assert_int_equal(sch_explain_error_kind(SCH_EXPLAIN_ERR_PINNED_KNIGHT), SCH_EXPLAIN_ERR_PINNED);
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/8/1b6/8/3Q4/4K3 w - - 0 1");
    refused(&g, "Qd3", "the queen on d2 is pinned and would expose the king",
            "die Dame auf d2 ist gefesselt und würde den eigenen König preisgeben");
    sch_game_free(&g);
    init_fen(&g, "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1");
    refused(&g, "exd3",
            "a pawn cannot go from e2 to d3: it moves straight ahead (two squares only from its start "
            "square) and captures diagonally",
            "ein Bauer kann nicht von e2 nach d3 ziehen: er zieht geradeaus (zwei Felder nur vom Ausgangsfeld aus) "
            "und schlägt schräg");
    sch_game_free(&g);
    init_fen(&g, "4k3/4r3/8/8/8/3n4/4P3/4K3 w - - 0 1");
    refused(&g, "exd3", "the pawn on e2 is pinned and would expose the king",
            "der Bauer auf e2 ist gefesselt und würde den eigenen König preisgeben");
    sch_game_free(&g);
}

static void test_closest_candidate_wins(void **state) {
    (void)state;
    SchGame g;
    /* The knight on h8 cannot reach b3; the one on d2 can but is pinned: that is the reason. */
    init_fen(&g, "4k2N/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
    refused(&g, "Nb3", "the knight on d2 is pinned and would expose the king",
            "der Springer auf d2 ist gefesselt und würde den eigenen König preisgeben");
    sch_game_free(&g);
    /* Two rooks: one blocked, one pinned; the pinned one got further. */
    init_fen(&g, "4k3/8/8/8/1b6/8/3R4/RN2K3 w - - 0 1");
    refused(&g, "Rd1", "the rook on d2 is pinned and would expose the king",
            "der Turm auf d2 ist gefesselt und würde den eigenen König preisgeben");
    sch_game_free(&g);
}

static void test_king_would_be_in_check(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
    assert_int_equal(refused(&g, "Ke2", "the king would be in check on e2", "der König stünde auf e2 im Schach"),
                     SCH_EXPLAIN_ERR_KING_ATTACKED);
    refused(&g, "e1f2", "the king would be in check on f2", "der König stünde auf f2 im Schach");
    sch_game_free(&g);
    /* Stepping back along the checking rook's line does not escape it. */
    init_fen(&g, "4r1k1/8/8/8/8/8/4K3/8 w - - 0 1");
    refused(&g, "Ke1", "the king would be in check on e1", "der König stünde auf e1 im Schach");
    refused(&g, "Ke3", "the king would be in check on e3", "der König stünde auf e3 im Schach");
    sch_game_free(&g);
    /* Capturing a protected piece. */
    init_fen(&g, "4k3/8/8/8/8/2b5/3r4/4K3 w - - 0 1");
    refused(&g, "Kxd2", "the king would be in check on d2", "der König stünde auf d2 im Schach");
    sch_game_free(&g);
}

static void test_check_not_answered(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "k3r3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_int_equal(refused(&g, "Nc3", "the move does not answer the check by the rook on e8",
                             "der Zug wehrt das Schach durch den Turm auf e8 nicht ab"),
                     SCH_EXPLAIN_ERR_CHECK_BY_ROOK);
    assert_int_equal(sch_explain_error_kind(SCH_EXPLAIN_ERR_CHECK_BY_ROOK), SCH_EXPLAIN_ERR_CHECK_NOT_ANSWERED);
    sch_game_free(&g);
    init_fen(&g, "k7/8/8/8/8/3p4/P7/4K3 b - - 0 1");
    play_line(&g, "d3d2");
    refused(&g, "a3", "the move does not answer the check by the pawn on d2",
            "der Zug wehrt das Schach durch den Bauern auf d2 nicht ab");
    sch_game_free(&g);
    init_fen(&g, "k7/8/8/8/1q6/8/5N2/4K3 w - - 0 1");
    refused(&g, "Nh3", "the move does not answer the check by the queen on b4",
            "der Zug wehrt das Schach durch die Dame auf b4 nicht ab");
    sch_game_free(&g);
    /* In check and pinned: the pin is the reason. */
    init_fen(&g, "k3r3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
    refused(&g, "Nf3", "the knight on d2 is pinned and would expose the king",
            "der Springer auf d2 ist gefesselt und würde den eigenen König preisgeben");
    sch_game_free(&g);
}

/* Every way of typing white's king-side castling gives the same reason. */
static void castle_forms(const SchGame *g, const char *en, const char *de) {
    const char *forms[] = {"O-O", "0-0", "e1g1", "e1h1", "Ke1-g1", "Kg1", "o-o"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        refused(g, forms[i], en, de);
}

static void test_castle_king_moved(void **state) {
    (void)state;
    SchGame g = start_game();
    play_line(&g, "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 g1f3 g8f6 f1c4 f8c5");
    castle_forms(&g, "castling is not allowed: the king has already moved",
                 "Rochade nicht erlaubt: der König hat sich bereits bewegt");
    assert_int_equal(refused(&g, "O-O", "castling is not allowed: the king has already moved",
                             "Rochade nicht erlaubt: der König hat sich bereits bewegt"),
                     SCH_EXPLAIN_ERR_CASTLE_KING_MOVED);
    /* The king is still away from home. */
    sch_game_free(&g);
    g = start_game();
    play_line(&g, "e2e4 e7e5 e1e2 e8e7");
    refused(&g, "O-O-O", "castling is not allowed: the king has already moved",
            "Rochade nicht erlaubt: der König hat sich bereits bewegt");
    sch_game_free(&g);
}

static void test_castle_rook_moved(void **state) {
    (void)state;
    SchGame g = start_game();
    play_line(&g, "g1f3 g8f6 e2e4 e7e5 f1c4 f8c5 h1g1 h8g8 g1h1 g8h8");
    castle_forms(&g, "castling is not allowed: the rook on h1 has already moved",
                 "Rochade nicht erlaubt: der Turm auf h1 hat sich bereits bewegt");
    assert_int_equal(refused(&g, "0-0", "castling is not allowed: the rook on h1 has already moved",
                             "Rochade nicht erlaubt: der Turm auf h1 hat sich bereits bewegt"),
                     SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED);
    play_line(&g, "a2a3");
    refused(&g, "O-O", "castling is not allowed: the rook on h8 has already moved",
            "Rochade nicht erlaubt: der Turm auf h8 hat sich bereits bewegt");
    refused(&g, "e8g8", "castling is not allowed: the rook on h8 has already moved",
            "Rochade nicht erlaubt: der Turm auf h8 hat sich bereits bewegt");
    sch_game_free(&g);
}

static void test_castle_rook_captured(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1");
    play_line(&g, "g2h1");
    castle_forms(&g, "castling is not allowed: the rook on h1 was captured",
                 "Rochade nicht erlaubt: der Turm auf h1 wurde geschlagen");
    assert_int_equal(refused(&g, "O-O", "castling is not allowed: the rook on h1 was captured",
                             "Rochade nicht erlaubt: der Turm auf h1 wurde geschlagen"),
                     SCH_EXPLAIN_ERR_CASTLE_ROOK_GONE);
    /* The other side is still fine. */
    SchError err;
    sch_err_clear(&err);
    assert_true(sch_gen_is_legal(sch_game_position(&g), sch_game_parse_move(&g, "O-O-O", SCH_LANG_EN, &err)));
    sch_game_free(&g);
}

static void test_castle_no_right(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1");
    castle_forms(&g, "castling to this side is not allowed in this position",
                 "Rochade nach dieser Seite ist in dieser Stellung nicht erlaubt");
    assert_int_equal(refused(&g, "O-O", "castling to this side is not allowed in this position",
                             "Rochade nach dieser Seite ist in dieser Stellung nicht erlaubt"),
                     SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT);
    /* Black never had the queen-side right; white loses it by moving the rook. */
    play_line(&g, "a1b1");
    refused(&g, "O-O-O", "castling to this side is not allowed in this position",
            "Rochade nach dieser Seite ist in dieser Stellung nicht erlaubt");
    play_line(&g, "e8d8");
    refused(&g, "O-O-O", "castling is not allowed: the rook on a1 has already moved",
            "Rochade nicht erlaubt: der Turm auf a1 hat sich bereits bewegt");
    sch_game_free(&g);
}

static void test_castle_in_check(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1");
    castle_forms(&g, "castling is not allowed: the king is in check",
                 "Rochade nicht erlaubt: der König steht im Schach");
    assert_int_equal(refused(&g, "O-O-O", "castling is not allowed: the king is in check",
                             "Rochade nicht erlaubt: der König steht im Schach"),
                     SCH_EXPLAIN_ERR_CASTLE_IN_CHECK);
    sch_game_free(&g);
}

static void test_castle_occupied(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
    assert_int_equal(
        refused(&g, "O-O-O", "castling is not allowed: b1 is occupied", "Rochade nicht erlaubt: b1 ist besetzt"),
        SCH_EXPLAIN_ERR_CASTLE_OCCUPIED);
    refused(&g, "e1c1", "castling is not allowed: b1 is occupied", "Rochade nicht erlaubt: b1 ist besetzt");
    refused(&g, "e1a1", "castling is not allowed: b1 is occupied", "Rochade nicht erlaubt: b1 ist besetzt");
    refused(&g, "Kc1", "castling is not allowed: b1 is occupied", "Rochade nicht erlaubt: b1 ist besetzt");
    sch_game_free(&g);
    /* In the start position the square next to the king is named. */
    g = start_game();
    castle_forms(&g, "castling is not allowed: f1 is occupied", "Rochade nicht erlaubt: f1 ist besetzt");
    sch_game_free(&g);
}

static void test_castle_attacked(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/5r2/8/8/8/R3K2R w KQ - 0 1");
    castle_forms(&g, "castling is not allowed: f1 is attacked", "Rochade nicht erlaubt: f1 wird angegriffen");
    assert_int_equal(
        refused(&g, "O-O", "castling is not allowed: f1 is attacked", "Rochade nicht erlaubt: f1 wird angegriffen"),
        SCH_EXPLAIN_ERR_CASTLE_ATTACKED);
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/6r1/8/8/8/R3K2R w KQ - 0 1");
    castle_forms(&g, "castling is not allowed: g1 is attacked", "Rochade nicht erlaubt: g1 wird angegriffen");
    sch_game_free(&g);
    init_fen(&g, "4k3/8/8/2r5/8/8/8/R3K2R w KQ - 0 1");
    refused(&g, "O-O-O", "castling is not allowed: c1 is attacked", "Rochade nicht erlaubt: c1 wird angegriffen");
    sch_game_free(&g);
    /* b1 attacked does not matter: the king does not cross it. */
    init_fen(&g, "4k3/8/8/1r6/8/8/8/R3K2R w KQ - 0 1");
    SchError err;
    sch_err_clear(&err);
    assert_true(sch_gen_is_legal(sch_game_position(&g), sch_game_parse_move(&g, "O-O-O", SCH_LANG_EN, &err)));
    sch_game_free(&g);
}

static void test_en_passant_timing(void **state) {
    (void)state;
    SchGame g = start_game();
    play_line(&g, "e2e4 a7a6 e4e5 d7d5");
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_game_parse_move(&g, "exd6", SCH_LANG_EN, &err);
    assert_int_equal(sch_move_kind(m), SCH_MOVE_EN_PASSANT);
    play_line(&g, "a2a3 a6a5");
    assert_int_equal(refused(&g, "exd6", "en passant on d6 is only allowed right after the double step",
                             "en passant auf d6 ist nur unmittelbar nach dem Doppelschritt erlaubt"),
                     SCH_EXPLAIN_ERR_EP_TOO_LATE);
    refused(&g, "e5d6", "en passant on d6 is only allowed right after the double step",
            "en passant auf d6 ist nur unmittelbar nach dem Doppelschritt erlaubt");
    refused(&g, "exd6 e.p.", "en passant on d6 is only allowed right after the double step",
            "en passant auf d6 ist nur unmittelbar nach dem Doppelschritt erlaubt");
    sch_game_free(&g);
    /* One step at a time never gives the right. */
    g = start_game();
    play_line(&g, "e2e4 d7d6 e4e5 a7a6 a2a3 d6d5");
    refused(&g, "exd6", "en passant on d6 is only allowed right after the double step",
            "en passant auf d6 ist nur unmittelbar nach dem Doppelschritt erlaubt");
    sch_game_free(&g);
}

static void test_pawn_moves_wrongly(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    assert_int_equal(refused(&g, "e4d4",
                             "a pawn cannot go from e4 to d4: it moves straight ahead (two squares only from its "
                             "start square) and captures diagonally",
                             "ein Bauer kann nicht von e4 nach d4 ziehen: er zieht geradeaus (zwei Felder nur vom "
                             "Ausgangsfeld aus) und schlägt schräg"),
                     SCH_EXPLAIN_ERR_PAWN_MOVE);
    refused(&g, "e4-e3",
            "a pawn cannot go from e4 to e3: it moves straight ahead (two squares only from its start square) and "
            "captures diagonally",
            "ein Bauer kann nicht von e4 nach e3 ziehen: er zieht geradeaus (zwei Felder nur vom Ausgangsfeld aus) "
            "und schlägt schräg");
    refused(&g, "e6",
            "a pawn cannot go from e4 to e6: it moves straight ahead (two squares only from its start square) and "
            "captures diagonally",
            "ein Bauer kann nicht von e4 nach e6 ziehen: er zieht geradeaus (zwei Felder nur vom Ausgangsfeld aus) "
            "und schlägt schräg");
    refused(&g, "exf5",
            "a pawn cannot go from e4 to f5: it moves straight ahead (two squares only from its start square) and "
            "captures diagonally",
            "ein Bauer kann nicht von e4 nach f5 ziehen: er zieht geradeaus (zwei Felder nur vom Ausgangsfeld aus) "
            "und schlägt schräg");
    sch_game_free(&g);
}

static void test_promotion_missing(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_int_equal(refused(&g, "a8", "a8: a pawn reaching the last rank must promote (e.g. =Q)",
                             "a8: ein Bauer auf der letzten Reihe muss umgewandelt werden (z. B. =D)"),
                     SCH_MOVE_ERR_PROMOTION_MISSING);
    refused(&g, "a7a8", "a7a8: a pawn reaching the last rank must promote (e.g. =Q)",
            "a7a8: ein Bauer auf der letzten Reihe muss umgewandelt werden (z. B. =D)");
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_move_promotion(sch_game_parse_move(&g, "a8=D", SCH_LANG_DE, &err)), SCH_QUEEN);
    sch_game_free(&g);
}

static void test_ambiguous(void **state) {
    (void)state;
    SchGame g;
    init_fen(&g, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_int_equal(refused_as(&g, "Nd2", SCH_LANG_EN, "ambiguous: Nbd2 or Nfd2"), SCH_MOVE_ERR_AMBIGUOUS);
    assert_int_equal(refused_as(&g, "Sd2", SCH_LANG_DE, "mehrdeutig: Sbd2 oder Sfd2"), SCH_MOVE_ERR_AMBIGUOUS);
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_move_from(sch_game_parse_move(&g, "Sbd2", SCH_LANG_DE, &err)), SCH_SQ_B1);
    sch_game_free(&g);
}

static void test_wrong_piece_or_empty(void **state) {
    (void)state;
    SchGame g = start_game();
    assert_int_equal(
        refused(&g, "e7e5", "the piece on e7 belongs to the opponent", "die Figur auf e7 gehört dem Gegner"),
        SCH_MOVE_ERR_WRONG_COLOR);
    assert_int_equal(refused(&g, "e3-e4", "there is no piece on e3", "auf e3 steht keine Figur"),
                     SCH_MOVE_ERR_EMPTY_SQUARE);
    assert_int_equal(refused(&g, "hello", "'hello' is not a move", "'hello' ist kein Zug"), SCH_MOVE_ERR_SYNTAX);
    assert_int_equal(refused(&g, "   ", "no move given", "kein Zug angegeben"), SCH_MOVE_ERR_EMPTY);
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_game_parse_move(&g, NULL, SCH_LANG_EN, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_EMPTY);
    assert_int_equal(sch_game_parse_move(&g, "Nd4", SCH_LANG_EN, NULL), SCH_MOVE_NONE);
    sch_game_free(&g);
}

static void test_explain_by_squares(void **state) {
    (void)state;
    SchGame g = start_game();
    play_line(&g, "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 g1f3 g8f6 f1c4 f8c5");
    SchError err;
    sch_err_clear(&err);
    assert_false(sch_game_explain_move(&g, SCH_SQ_E1, SCH_SQ_G1, SCH_PIECE_TYPE_NB, &err));
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_CASTLE_KING_MOVED);
    assert_false(sch_game_explain_move(&g, SCH_SQ_D1, SCH_SQ_D3, SCH_PIECE_TYPE_NB, &err));
    assert_int_equal(err.code, SCH_EXPLAIN_ERR_BLOCKED);
    assert_false(sch_game_explain_move(&g, SCH_SQ_D7, SCH_SQ_D5, SCH_PIECE_TYPE_NB, &err));
    assert_int_equal(err.code, SCH_MOVE_ERR_WRONG_COLOR);
    assert_false(sch_game_explain_move(&g, SCH_SQ_E4, SCH_SQ_E4, SCH_PIECE_TYPE_NB, &err));
    assert_int_equal(err.code, SCH_MOVE_ERR_ILLEGAL);
    assert_false(sch_game_explain_move(&g, SCH_SQ_NONE, SCH_SQ_E4, SCH_PIECE_TYPE_NB, &err));
    assert_false(sch_game_explain_move(&g, SCH_SQ_A2, SCH_SQ_A3, SCH_QUEEN, &err));
    assert_int_equal(err.code, SCH_MOVE_ERR_PROMOTION_BAD);
    sch_game_free(&g);
}

static void test_long_input(void **state) {
    (void)state;
    SchGame g = start_game();
    size_t size = 16 * 1024;
    char *text = malloc(size + 1);
    assert_non_null(text);
    memset(text, 'N', size);
    memcpy(text + size - 3, "Nf3", 3);
    text[size] = '\0';
    SchError err;
    sch_err_clear(&err);
    assert_int_equal(sch_game_parse_move(&g, text, SCH_LANG_DE, &err), SCH_MOVE_NONE);
    assert_int_equal(err.code, SCH_MOVE_ERR_SYNTAX);
    assert_true(strlen(err.args[0]) <= 40);
    char buf[256];
    assert_true(sch_err_format(&err, SCH_LANG_EN, buf, sizeof buf) < 80);
    /* Control bytes and broken UTF-8 never reach a message. */
    sch_err_clear(&err);
    assert_int_equal(sch_game_parse_move(&g, "Nf\x01\xff", SCH_LANG_EN, &err), SCH_MOVE_NONE);
    for (const char *p = err.args[0]; *p; p++)
        assert_true(*p >= 0x20 && *p < 0x7f);
    free(text);
    sch_game_free(&g);
}

/* ---------------------------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A refused move's message is a known template in both languages with every argument filled in. */
static void assert_good_message(const SchError *err) {
    assert_int_not_equal(err->code, SCH_ERR_NONE);
    for (int l = 0; l < 2; l++) {
        char buf[512];
        sch_err_format(err, (SchLang)l, buf, sizeof buf);
        if (strstr(buf, "unknown") || strstr(buf, "unbekannt") || strchr(buf, '%') || strchr(buf, '@'))
            fail_msg("bad message for code %d: %s", err->code, buf);
    }
}

static void test_random_inputs(void **state) {
    (void)state;
    static const char alphabet[] = "abcdefghKQRBNSLTDPkqrbnp12345678xX-=+#Oo0 e.p/():";
    static const char *const fens[] = {
        SCH_FEN_START,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/P6P/8/3pP3/8/8/p6p/4K3 w - d6 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    };
    for (int round = 0; round < 120; round++) {
        SchGame g;
        init_fen(&g, fens[round % 4]);
        int plies = (int)(rng_next() % 40);
        for (int i = 0; i < plies && !sch_game_over(&g); i++) {
            SchMove moves[SCH_MAX_MOVES];
            int n = sch_gen_moves(sch_game_position(&g), SCH_GEN_ALL, moves);
            SchError err;
            sch_err_clear(&err);
            assert_true(sch_game_play(&g, moves[rng_next() % (uint64_t)n], &err));
        }
        for (int t = 0; t < 60; t++) {
            char text[16];
            int len = (int)(rng_next() % 9);
            for (int i = 0; i < len; i++)
                text[i] = alphabet[rng_next() % (sizeof alphabet - 1)];
            text[len] = '\0';
            if (t % 3 == 0) { /* a square-shaped move, more likely to reach deep reasons */
                snprintf(text, sizeof text, "%c%c%c%c", 'a' + (int)(rng_next() % 8), '1' + (int)(rng_next() % 8),
                         'a' + (int)(rng_next() % 8), '1' + (int)(rng_next() % 8));
            }
            for (int l = 0; l < 2; l++) {
                SchError err;
                sch_err_clear(&err);
                SchMove m = sch_game_parse_move(&g, text, (SchLang)l, &err);
                if (m != SCH_MOVE_NONE)
                    assert_true(sch_gen_is_legal(sch_game_position(&g), m));
                else
                    assert_good_message(&err);
            }
            SchSquare from = (SchSquare)(rng_next() % 64), to = (SchSquare)(rng_next() % 64);
            SchPieceType promo = (SchPieceType)(rng_next() % 7);
            SchMove probe = promo >= SCH_KNIGHT && promo <= SCH_QUEEN ? sch_move_make_promotion(from, to, promo)
                                                                      : sch_move_make(from, to);
            if (!sch_gen_is_legal(sch_game_position(&g), probe) &&
                !sch_gen_is_legal(sch_game_position(&g), sch_move_make_kind(from, to, SCH_MOVE_EN_PASSANT)) &&
                !sch_gen_is_legal(sch_game_position(&g), sch_move_make_kind(from, to, SCH_MOVE_CASTLING))) {
                SchError err;
                sch_err_clear(&err);
                assert_false(sch_game_explain_move(&g, from, to, promo, &err));
                assert_good_message(&err);
            }
        }
        sch_game_free(&g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_moves_pass),
        cmocka_unit_test(test_no_piece_can_reach),
        cmocka_unit_test(test_own_piece_on_target),
        cmocka_unit_test(test_path_blocked),
        cmocka_unit_test(test_pinned),
        cmocka_unit_test(test_closest_candidate_wins),
        cmocka_unit_test(test_king_would_be_in_check),
        cmocka_unit_test(test_check_not_answered),
        cmocka_unit_test(test_castle_king_moved),
        cmocka_unit_test(test_castle_rook_moved),
        cmocka_unit_test(test_castle_rook_captured),
        cmocka_unit_test(test_castle_no_right),
        cmocka_unit_test(test_castle_in_check),
        cmocka_unit_test(test_castle_occupied),
        cmocka_unit_test(test_castle_attacked),
        cmocka_unit_test(test_en_passant_timing),
        cmocka_unit_test(test_pawn_moves_wrongly),
        cmocka_unit_test(test_promotion_missing),
        cmocka_unit_test(test_ambiguous),
        cmocka_unit_test(test_wrong_piece_or_empty),
        cmocka_unit_test(test_explain_by_squares),
        cmocka_unit_test(test_long_input),
        cmocka_unit_test(test_random_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
