/* Helpers shared by the unit tests (include after <cmocka.h>). */
#ifndef SCHACH_TEST_HELPERS_H
#define SCHACH_TEST_HELPERS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "schach/movegen.h"
#include "schach/perft.h"
#include "schach/winnable.h"

/* The position of a test's FEN; a FEN the parser rejects fails the test with the parser's words. */
static inline SchPosition parse_fen(const char *fen) {
    SchPosition pos;
    SchError err;
    if (!sch_fen_parse(&pos, fen, &err)) {
        char msg[256];
        sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
        fail_msg("FEN rejected: %s: %s", fen, msg);
    }
    return pos;
}

/* Plays a pseudo-random legal move in pos (the generator seed steps on); false when there is none. */
static inline bool play_random_move(SchPosition *pos, uint64_t *seed) {
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    if (n == 0)
        return false;
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    SchUndo undo;
    sch_pos_make(pos, moves[(*seed >> 33) % (uint64_t)n], &undo);
    return true;
}

/* A winnability proof replays: legal moves from start ending in checkmate of !color. Replayed here,
 * apart from the library's own check (sch_win_proof_valid), so that a test does not trust it. */
static inline void assert_helpmate(const SchPosition *start, SchColor color, const SchWinResult *r) {
    SchPosition pos = *start;
    assert_true(r->line_len >= 0 && r->line_len <= SCH_WIN_LINE_MAX);
    for (int i = 0; i < r->line_len; i++) {
        if (!sch_gen_is_legal(&pos, r->line[i]))
            fail_msg("proof move %d is illegal", i);
        SchUndo u;
        sch_pos_make(&pos, r->line[i], &u);
    }
    assert_int_equal(sch_pos_turn(&pos), !color);
    assert_true(sch_pos_in_check(&pos));
    assert_false(sch_gen_has_legal_move(&pos));
}

/* Plays space-separated UCI moves ("e2e4 e7e5"), failing the test when one is not legal. */
static inline void play_line(SchGame *g, const char *line) {
    char tok[8];
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        assert_true(n < sizeof tok);
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_uci_parse(sch_game_position(g), tok, &err);
        if (m == SCH_MOVE_NONE)
            fail_msg("no legal move %s (error %d)", tok, err.code);
        if (!sch_game_play(g, m, &err))
            fail_msg("cannot play %s: error %d", tok, err.code);
    }
}

/* Runs the EPD perft suite at path (one position a line: "FEN ;D1 n ;D2 n ..."): every listed count
 * must match exactly. each (when not NULL) is called with every position as well. Returns the
 * positions read; *checks gets the counts compared. */
static inline int perft_suite(const char *path, void (*each)(const SchPosition *pos, void *ctx), void *ctx,
                              int *checks) {
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[1024];
    int positions = 0;
    *checks = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        SchPosition pos;
        SchError err;
        if (!sch_fen_parse(&pos, line, &err))
            fail_msg("bad FEN in %s: %s", path, line);
        positions++;
        for (char *p = semi + 1; p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL) {
            int depth;
            unsigned long long expected;
            while (*p == ' ')
                p++;
            if (sscanf(p, "D%d %llu", &depth, &expected) != 2)
                continue;
            uint64_t got = sch_perft(&pos, depth);
            if (got != expected)
                fail_msg("%s depth %d: got %llu, expected %llu", line, depth, (unsigned long long)got, expected);
            (*checks)++;
        }
        if (each)
            each(&pos, ctx);
    }
    fclose(f);
    return positions;
}

#endif
