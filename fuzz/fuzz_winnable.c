/* libFuzzer harness for the winnability analysis (winnable.h): the first two bytes choose the colour,
 * the mode and a node budget (up to 2,000 nodes, so runs stay fast); the rest is a FEN. For every
 * accepted position: no crash; a WINNABLE proof replays with the rules core to checkmate by that
 * colour; an UNWINNABLE verdict has a reason and is never given where a helpmate of one or two plies
 * exists; the quick mode never contradicts the full one; the same input gives the same verdict.
 * Build with -DSCHACH_FUZZ=ON (clang); see fuzz/CMakeLists.txt. */
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/winnable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX 256

/* Whether color mates in at most plies (every move of both sides tried). */
static bool helpmate_within(Position *pos, Color color, int plies) {
    Move moves[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, moves);
    if (n == 0)
        return pos_in_check(pos) && pos_turn(pos) != color;
    if (plies == 0)
        return false;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        bool mate = helpmate_within(pos, color, plies - 1);
        pos_unmake(pos, moves[i], &u);
        if (mate)
            return true;
    }
    return false;
}

static void check_result(const Position *start, Color color, Winnability v, const WinResult *r, const char *fen) {
    CHECK(r->verdict == v, "verdict %d returned as %d for %s", r->verdict, v, fen);
    if (v == WIN_WINNABLE) {
        CHECK(r->line_len >= 0 && r->line_len <= WIN_LINE_MAX, "line of %d plies for %s", r->line_len, fen);
        Position pos = *start;
        for (int i = 0; i < r->line_len; i++) {
            CHECK(gen_is_legal(&pos, r->line[i]), "proof move %d illegal for %s", i, fen);
            Undo u;
            pos_make(&pos, r->line[i], &u);
        }
        CHECK(pos_in_check(&pos) && !gen_has_legal_move(&pos) && pos_turn(&pos) != color,
              "proof does not end in mate by %d for %s", color, fen);
    } else if (v == WIN_UNWINNABLE) {
        CHECK(win_reason_name(r->reason) != NULL, "unwinnable without a reason for %s", fen);
        Position pos = *start;
        CHECK(!helpmate_within(&pos, color, 2), "unwinnable for %d, but a short helpmate exists: %s", color, fen);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static WinWork *work;
    if (!work) {
        schach_init();
        work = win_work_new(1 << 20);
        if (!work)
            abort();
    }
    if (size < 2 || size > INPUT_MAX)
        return 0;
    char text[INPUT_MAX + 1];
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    Position pos;
    SchError err;
    err_clear(&err);
    if (!fen_parse(&pos, text, &err))
        return 0;
    Color color = (Color)(data[0] & 1);
    WinLimits limits = {(data[0] & 2) != 0, 1 + (uint64_t)data[1] * 8};
    WinResult r, again;
    Winnability v = can_checkmate(&pos, color, &limits, work, &r);
    check_result(&pos, color, v, &r, text);
    Winnability w = can_checkmate(&pos, color, &limits, work, &again);
    CHECK(w == v && again.line_len == r.line_len && again.reason == r.reason, "not deterministic for %s", text);
    /* The other mode must not contradict this one. */
    WinLimits other = {!limits.quick, limits.nodes};
    Winnability o = can_checkmate(&pos, color, &other, work, &again);
    check_result(&pos, color, o, &again, text);
    CHECK(!((o == WIN_WINNABLE && v == WIN_UNWINNABLE) || (o == WIN_UNWINNABLE && v == WIN_WINNABLE)),
          "quick and full disagree for %s", text);
    WinResult both[2];
    Winnability d = dead_position(&pos, &limits, work, both);
    CHECK(d != WIN_UNWINNABLE || (both[WHITE].verdict == WIN_UNWINNABLE && both[BLACK].verdict == WIN_UNWINNABLE),
          "dead without both unwinnable for %s", text);
    return 0;
}
