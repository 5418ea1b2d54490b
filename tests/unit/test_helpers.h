/* Helpers shared by the unit tests (include after <cmocka.h>). */
#ifndef SCHACH_TEST_HELPERS_H
#define SCHACH_TEST_HELPERS_H

#include <string.h>

#include "schach/game.h"
#include "schach/notation.h"

/* Plays space-separated UCI moves ("e2e4 e7e5"), failing the test when one is not legal. */
static inline void play_line(Game *g, const char *line) {
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
        err_clear(&err);
        Move m = uci_parse(game_position(g), tok, &err);
        if (m == MOVE_NONE)
            fail_msg("no legal move %s (error %d)", tok, err.code);
        if (!game_play(g, m, &err))
            fail_msg("cannot play %s: error %d", tok, err.code);
    }
}

#endif
