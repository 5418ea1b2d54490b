/* libFuzzer harness for the winnability analysis (sch_can_checkmate, sch_dead_position).
 *
 * Input: two control bytes, then a FEN. Byte 0 chooses the colour (bit 0) and quick or full mode
 * (bit 1); byte 1 the node budget, 1 + 8 * byte 1 (at most 2,041, so every run stays fast). A FEN
 * that sch_fen_parse rejects ends the run. Checks: no crash; the position is not changed; the verdict,
 * reason and line are well formed; every SCH_WIN_WINNABLE proof replays with the rules core to
 * checkmate by that colour; SCH_WIN_UNWINNABLE is never given where a helpmate of one or two plies
 * exists; the same question asked again, with another work area, gets the same answer (verdict,
 * reason, line, nodes); quick and full mode never contradict each other; sch_dead_position agrees with
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
static bool helpmate_within(SchPosition *pos, SchColor color, int plies) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    if (n == 0)
        return sch_pos_in_check(pos) && sch_pos_turn(pos) != color;
    if (plies == 0)
        return false;
    for (int i = 0; i < n; i++) {
        SchUndo u;
        sch_pos_make(pos, moves[i], &u);
        bool mate = helpmate_within(pos, color, plies - 1);
        sch_pos_unmake(pos, moves[i], &u);
        if (mate)
            return true;
    }
    return false;
}

static bool same_position(const SchPosition *a, const SchPosition *b) {
    return memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->board, b->board, sizeof a->board) == 0 && a->turn == b->turn && a->castling == b->castling &&
           a->ep == b->ep && a->halfmove == b->halfmove && a->fullmove == b->fullmove && a->checkers == b->checkers &&
           a->key == b->key;
}

static bool same_result(const SchWinResult *a, const SchWinResult *b) {
    if (a->verdict != b->verdict || a->reason != b->reason || a->line_len != b->line_len || a->nodes != b->nodes)
        return false;
    return a->verdict != SCH_WIN_WINNABLE || memcmp(a->line, b->line, (size_t)a->line_len * sizeof a->line[0]) == 0;
}

/* The answer is well formed, and a proof replays to checkmate by color. */
static void check_result(const SchPosition *start, SchColor color, const SchWinResult *r, const char *fen,
                         const char *mode) {
    CHECK(r->verdict == SCH_WIN_UNDETERMINED || r->verdict == SCH_WIN_WINNABLE || r->verdict == SCH_WIN_UNWINNABLE,
          "verdict %d for %s (%s)", (int)r->verdict, fen, mode);
    if (r->verdict == SCH_WIN_UNWINNABLE) {
        CHECK(r->reason > SCH_WIN_REASON_NONE && r->reason < SCH_WIN_REASON_NB, "reason %d for %s (%s)", (int)r->reason,
              fen, mode);
        CHECK(sch_win_reason_name(r->reason) != NULL, "no name for reason %d", (int)r->reason);
        SchPosition pos = *start;
        CHECK(!helpmate_within(&pos, color, 2), "%s unwinnable for %s, but a helpmate of at most 2 plies exists: %s",
              mode, color == SCH_WHITE ? "white" : "black", fen);
    } else {
        CHECK(r->reason == SCH_WIN_REASON_NONE, "reason %d with verdict %s for %s (%s)", (int)r->reason,
              sch_win_verdict_name(r->verdict), fen, mode);
    }
    if (r->verdict != SCH_WIN_WINNABLE)
        return;
    CHECK(r->line_len >= 0 && r->line_len <= SCH_WIN_LINE_MAX, "line_len %d for %s (%s)", r->line_len, fen, mode);
    SchPosition pos = *start;
    for (int i = 0; i < r->line_len; i++) {
        char uci[8];
        sch_uci_write(&pos, r->line[i], uci, sizeof uci);
        CHECK(sch_gen_is_legal(&pos, r->line[i]), "ply %d (%s) of the proof is not legal in %s (%s)", i + 1, uci, fen,
              mode);
        SchUndo undo;
        sch_pos_make(&pos, r->line[i], &undo);
    }
    CHECK(sch_pos_turn(&pos) != color && sch_pos_in_check(&pos) && !sch_gen_has_legal_move(&pos),
          "the %d-ply proof does not end in checkmate by %s in %s (%s)", r->line_len,
          color == SCH_WHITE ? "white" : "black", fen, mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool initialised;
    static SchWinWork *work_a, *work_b;
    if (!initialised) {
        work_a = sch_win_work_new((size_t)1 << 20);
        work_b = sch_win_work_new((size_t)1 << 20);
        CHECK(work_a && work_b, "win_work_new failed");
        initialised = true;
    }
    if (size < 2 || size > INPUT_MAX)
        return 0;
    SchColor color = (SchColor)(data[0] & 1);
    bool quick = data[0] & 2;
    uint64_t budget = 1 + (uint64_t)data[1] * 8;
    char fen[INPUT_MAX + 1];
    memcpy(fen, data + 2, size - 2);
    fen[size - 2] = '\0';

    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    if (!sch_fen_parse(&pos, fen, &err))
        return 0;
    const SchPosition before = pos;
    const SchWinLimits limits = {quick, budget}, other = {!quick, budget};
    const char *mode = quick ? "quick" : "full";

    SchWinResult first, again, switched;
    SchWinnability v = sch_can_checkmate(&pos, color, &limits, work_a, &first);
    CHECK(v == first.verdict, "returned %d, result says %d", (int)v, (int)first.verdict);
    CHECK(same_position(&pos, &before), "can_checkmate changed the position %s", fen);
    check_result(&pos, color, &first, fen, mode);

    /* Deterministic: the same question with the other work area (which saw other positions). */
    sch_can_checkmate(&pos, color, &limits, work_b, &again);
    CHECK(same_result(&first, &again), "asked twice about %s (%s): %s/%llu nodes, then %s/%llu nodes", fen, mode,
          sch_win_verdict_name(first.verdict), (unsigned long long)first.nodes, sch_win_verdict_name(again.verdict),
          (unsigned long long)again.nodes);

    /* The other mode never contradicts this one. */
    sch_can_checkmate(&pos, color, &other, work_b, &switched);
    check_result(&pos, color, &switched, fen, quick ? "full" : "quick");
    CHECK(first.verdict == SCH_WIN_UNDETERMINED || switched.verdict == SCH_WIN_UNDETERMINED ||
              first.verdict == switched.verdict,
          "quick and full mode disagree about %s: %s and %s", fen, sch_win_verdict_name(first.verdict),
          sch_win_verdict_name(switched.verdict));

    /* sch_dead_position agrees with the colours. */
    SchWinResult res[2];
    SchWinnability d = sch_dead_position(&pos, &limits, work_a, res);
    CHECK(same_position(&pos, &before), "dead_position changed the position %s", fen);
    for (int c = 0; c < 2; c++)
        check_result(&pos, (SchColor)c, &res[c], fen, "dead_position");
    if (d == SCH_WIN_WINNABLE)
        CHECK(res[SCH_WHITE].verdict == SCH_WIN_WINNABLE || res[SCH_BLACK].verdict == SCH_WIN_WINNABLE,
              "dead_position says winnable about %s, neither colour's result does", fen);
    else if (d == SCH_WIN_UNWINNABLE)
        CHECK(res[SCH_WHITE].verdict == SCH_WIN_UNWINNABLE && res[SCH_BLACK].verdict == SCH_WIN_UNWINNABLE,
              "dead_position says dead about %s, the colours' results do not", fen);
    else
        CHECK(res[SCH_WHITE].verdict != SCH_WIN_WINNABLE && res[SCH_BLACK].verdict != SCH_WIN_WINNABLE &&
                  (res[SCH_WHITE].verdict == SCH_WIN_UNDETERMINED || res[SCH_BLACK].verdict == SCH_WIN_UNDETERMINED),
              "dead_position undetermined about %s, the colours' results say otherwise", fen);
    /* A colour it decided gets sch_can_checkmate's answer (one left undetermined may not have been
     * analysed, because the other colour could already mate). */
    if (res[color].verdict != SCH_WIN_UNDETERMINED)
        CHECK(same_result(&res[color], &first), "dead_position and can_checkmate disagree about %s for %s", fen,
              color == SCH_WHITE ? "white" : "black");
    return 0;
}
