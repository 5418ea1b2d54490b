/* Soundness of the winnability analysis against an independent, exhaustive helpmate search: on
 * thousands of random legal positions with few men, wherever a helpmate of at most HELPMATE_PLIES
 * plies exists the analysis (full and quick) must never answer unwinnable; every winnable answer's
 * proof must replay to mate. Deterministic (a fixed seed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/winnable.h"

#define POSITIONS      3000
#define HELPMATE_PLIES 4

/* Plain depth-first search over every legal move of both sides: does color mate within plies? */
static bool helpmate_exists(Position *pos, Color color, int plies) {
    Move moves[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, moves);
    if (n == 0)
        return pos_in_check(pos) && pos_turn(pos) != color;
    if (plies == 0)
        return false;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        bool found = helpmate_exists(pos, color, plies - 1);
        pos_unmake(pos, moves[i], &u);
        if (found)
            return true;
    }
    return false;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random legal position: both kings and one to four other men. */
static bool random_position(Position *out) {
    static const Piece men[] = {W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN,
                                B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN};
    Position pos;
    pos_clear(&pos);
    Square wk = (Square)(next_random() % 64), bk = (Square)(next_random() % 64);
    if (wk == bk)
        return false;
    pos_put(&pos, W_KING, wk);
    pos_put(&pos, B_KING, bk);
    int count = 1 + (int)(next_random() % 4);
    for (int i = 0; i < count; i++) {
        Square s = (Square)(next_random() % 64);
        Piece p = men[next_random() % 10];
        if (pos.board[s] != NO_PIECE || (piece_type(p) == PAWN && (s < 8 || s >= 56)))
            return false;
        pos_put(&pos, p, s);
    }
    pos.turn = (uint8_t)(next_random() % 2);
    pos_finish(&pos);
    char fen[SCHACH_FEN_MAX];
    fen_write(&pos, fen, sizeof fen);
    SchError err;
    return fen_parse(out, fen, &err); /* rejects kings too close, the side not to move in check */
}

static bool proof_mates(const Position *start, Color color, const WinResult *r) {
    Position pos = *start;
    for (int i = 0; i < r->line_len; i++) {
        if (!gen_is_legal(&pos, r->line[i]))
            return false;
        Undo u;
        pos_make(&pos, r->line[i], &u);
    }
    return pos_in_check(&pos) && !gen_has_legal_move(&pos) && pos_turn(&pos) != color;
}

static void test_sound_against_exhaustive_helpmates(void **state) {
    (void)state;
    schach_init();
    WinWork *work = win_work_new(0);
    assert_non_null(work);
    int tested = 0, verdicts[3] = {0, 0, 0}, short_helpmates = 0;
    WinLimits full = {false, 20000}, quick = {true, 0};
    while (tested < POSITIONS) {
        Position pos;
        if (!random_position(&pos))
            continue;
        tested++;
        for (int c = 0; c < 2; c++) {
            Position copy = pos;
            bool exists = helpmate_exists(&copy, (Color)c, HELPMATE_PLIES);
            short_helpmates += exists;
            const WinLimits *modes[2] = {&full, &quick};
            for (int m = 0; m < 2; m++) {
                WinResult r;
                Winnability v = can_checkmate(&pos, (Color)c, modes[m], m == 0 ? work : NULL, &r);
                if (m == 0)
                    verdicts[v]++;
                char fen[SCHACH_FEN_MAX];
                fen_write(&pos, fen, sizeof fen);
                if (exists && v == WIN_UNWINNABLE)
                    fail_msg("%s: %s has a helpmate of at most %d plies, but %s mode says unwinnable (%s)", fen,
                             c == WHITE ? "white" : "black", HELPMATE_PLIES, m == 0 ? "full" : "quick",
                             win_reason_name(r.reason));
                if (v == WIN_WINNABLE && !proof_mates(&pos, (Color)c, &r))
                    fail_msg("%s: the proof for %s does not replay to mate", fen, c == WHITE ? "white" : "black");
            }
        }
    }
    win_work_free(work);
    printf("%d positions: %d short helpmates; full mode: %d winnable, %d unwinnable, %d undetermined\n", tested,
           short_helpmates, verdicts[WIN_WINNABLE], verdicts[WIN_UNWINNABLE], verdicts[WIN_UNDETERMINED]);
    /* The test did something: both kinds of verdict occurred. */
    assert_true(short_helpmates > 100 && verdicts[WIN_UNWINNABLE] > 100 && verdicts[WIN_WINNABLE] > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound_against_exhaustive_helpmates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
