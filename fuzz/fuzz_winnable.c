/* libFuzzer harness for the winnability analysis (can_checkmate, dead_position).
 *
 * Input: two control bytes, then a FEN. Byte 0 chooses the colour (bit 0) and quick or full mode
 * (bit 1); byte 1 the node budget, 1 + 8 * byte 1 (at most 2,041, so every run stays fast). A FEN
 * that fen_parse rejects ends the run. Checks: no crash; the position is not changed; the verdict,
 * reason and line are well formed; every WIN_WINNABLE proof replays with the rules core to
 * checkmate by that colour; WIN_UNWINNABLE is never given where a helpmate of one or two plies
 * exists; the same question asked again, with another work area, gets the same answer (verdict,
 * reason, line, nodes); quick and full mode never contradict each other; dead_position agrees with
 * the colours' answers. Build with -DSCHACH_FUZZ=ON (clang); see fuzz/CMakeLists.txt. */
#include "schach/error.h"
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/position.h"
#include "schach/winnable.h"
#include "schach/schach.h"

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

static bool same_position(const Position *a, const Position *b) {
    return memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->board, b->board, sizeof a->board) == 0 && a->turn == b->turn && a->castling == b->castling &&
           a->ep == b->ep && a->halfmove == b->halfmove && a->fullmove == b->fullmove && a->checkers == b->checkers &&
           a->key == b->key;
}

static bool same_result(const WinResult *a, const WinResult *b) {
    if (a->verdict != b->verdict || a->reason != b->reason || a->line_len != b->line_len || a->nodes != b->nodes)
        return false;
    return a->verdict != WIN_WINNABLE || memcmp(a->line, b->line, (size_t)a->line_len * sizeof a->line[0]) == 0;
}

/* The answer is well formed, and a proof replays to checkmate by color. */
static void check_result(const Position *start, Color color, const WinResult *r, const char *fen, const char *mode) {
    CHECK(r->verdict == WIN_UNDETERMINED || r->verdict == WIN_WINNABLE || r->verdict == WIN_UNWINNABLE,
          "verdict %d for %s (%s)", (int)r->verdict, fen, mode);
    if (r->verdict == WIN_UNWINNABLE) {
        CHECK(r->reason > WIN_REASON_NONE && r->reason < WIN_REASON_NB, "reason %d for %s (%s)", (int)r->reason, fen,
              mode);
        CHECK(win_reason_name(r->reason) != NULL, "no name for reason %d", (int)r->reason);
        Position pos = *start;
        CHECK(!helpmate_within(&pos, color, 2), "%s unwinnable for %s, but a helpmate of at most 2 plies exists: %s",
              mode, color == WHITE ? "white" : "black", fen);
    } else {
        CHECK(r->reason == WIN_REASON_NONE, "reason %d with verdict %s for %s (%s)", (int)r->reason,
              win_verdict_name(r->verdict), fen, mode);
    }
    if (r->verdict != WIN_WINNABLE)
        return;
    CHECK(r->line_len >= 0 && r->line_len <= WIN_LINE_MAX, "line_len %d for %s (%s)", r->line_len, fen, mode);
    Position pos = *start;
    for (int i = 0; i < r->line_len; i++) {
        char uci[8];
        uci_write(r->line[i], uci, sizeof uci);
        CHECK(gen_is_legal(&pos, r->line[i]), "ply %d (%s) of the proof is not legal in %s (%s)", i + 1, uci, fen,
              mode);
        Undo undo;
        pos_make(&pos, r->line[i], &undo);
    }
    CHECK(pos_turn(&pos) != color && pos_in_check(&pos) && !gen_has_legal_move(&pos),
          "the %d-ply proof does not end in checkmate by %s in %s (%s)", r->line_len,
          color == WHITE ? "white" : "black", fen, mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool initialised;
    static WinWork *work_a, *work_b;
    if (!initialised) {
        schach_init();
        work_a = win_work_new((size_t)1 << 20);
        work_b = win_work_new((size_t)1 << 20);
        CHECK(work_a && work_b, "win_work_new failed");
        initialised = true;
    }
    if (size < 2 || size > INPUT_MAX)
        return 0;
    Color color = (Color)(data[0] & 1);
    bool quick = data[0] & 2;
    uint64_t budget = 1 + (uint64_t)data[1] * 8;
    char fen[INPUT_MAX + 1];
    memcpy(fen, data + 2, size - 2);
    fen[size - 2] = '\0';

    Position pos;
    SchError err;
    err_clear(&err);
    if (!fen_parse(&pos, fen, &err))
        return 0;
    const Position before = pos;
    const WinLimits limits = {quick, budget}, other = {!quick, budget};
    const char *mode = quick ? "quick" : "full";

    WinResult first, again, switched;
    Winnability v = can_checkmate(&pos, color, &limits, work_a, &first);
    CHECK(v == first.verdict, "returned %d, result says %d", (int)v, (int)first.verdict);
    CHECK(same_position(&pos, &before), "can_checkmate changed the position %s", fen);
    check_result(&pos, color, &first, fen, mode);

    /* Deterministic: the same question with the other work area (which saw other positions). */
    can_checkmate(&pos, color, &limits, work_b, &again);
    CHECK(same_result(&first, &again), "asked twice about %s (%s): %s/%llu nodes, then %s/%llu nodes", fen, mode,
          win_verdict_name(first.verdict), (unsigned long long)first.nodes, win_verdict_name(again.verdict),
          (unsigned long long)again.nodes);

    /* The other mode never contradicts this one. */
    can_checkmate(&pos, color, &other, work_b, &switched);
    check_result(&pos, color, &switched, fen, quick ? "full" : "quick");
    CHECK(first.verdict == WIN_UNDETERMINED || switched.verdict == WIN_UNDETERMINED ||
              first.verdict == switched.verdict,
          "quick and full mode disagree about %s: %s and %s", fen, win_verdict_name(first.verdict),
          win_verdict_name(switched.verdict));

    /* dead_position agrees with the colours. */
    WinResult res[2];
    Winnability d = dead_position(&pos, &limits, work_a, res);
    CHECK(same_position(&pos, &before), "dead_position changed the position %s", fen);
    for (int c = 0; c < 2; c++)
        check_result(&pos, (Color)c, &res[c], fen, "dead_position");
    if (d == WIN_WINNABLE)
        CHECK(res[WHITE].verdict == WIN_WINNABLE || res[BLACK].verdict == WIN_WINNABLE,
              "dead_position says winnable about %s, neither colour's result does", fen);
    else if (d == WIN_UNWINNABLE)
        CHECK(res[WHITE].verdict == WIN_UNWINNABLE && res[BLACK].verdict == WIN_UNWINNABLE,
              "dead_position says dead about %s, the colours' results do not", fen);
    else
        CHECK(res[WHITE].verdict != WIN_WINNABLE && res[BLACK].verdict != WIN_WINNABLE &&
                  (res[WHITE].verdict == WIN_UNDETERMINED || res[BLACK].verdict == WIN_UNDETERMINED),
              "dead_position undetermined about %s, the colours' results say otherwise", fen);
    /* A colour it decided gets can_checkmate's answer (one left undetermined may not have been
     * analysed, because the other colour could already mate). */
    if (res[color].verdict != WIN_UNDETERMINED)
        CHECK(same_result(&res[color], &first), "dead_position and can_checkmate disagree about %s for %s", fen,
              color == WHITE ? "white" : "black");
    return 0;
}
