/* libFuzzer harness for the explainer (sch_game_parse_move): a learner's move text in a game.
 *
 * Input "FEN\ntext" reads text in a game started from that FEN (the start position when the FEN is
 * refused); input without a newline is read in two fixed games, one of which has a history that took
 * castling rights away, so the history-dependent reasons run too. A returned move must be legal; a
 * refusal must carry a notation or explain code and format in both languages.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schach/explain.h"
#include "schach/movegen.h"
#include "schach/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const SchGame *g, const char *text) {
    for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_game_parse_move(g, text, lang, &err);
        if (m != SCH_MOVE_NONE) {
            if (!sch_gen_is_legal(sch_game_position(g), m))
                abort();
            continue;
        }
        bool known = (err.code >= 200 && err.code < 300) || (err.code >= 500 && err.code < 600);
        char msg[512];
        if (!known || sch_err_format(&err, lang, msg, sizeof msg) == 0 || strlen(msg) >= sizeof msg)
            abort();
    }
}

/* Plays UCI moves that are legal by construction of the list. */
static void play_all(SchGame *g, const char *const *moves, size_t n) {
    for (size_t i = 0; i < n; i++) {
        SchError err;
        SchMove m = sch_uci_parse(sch_game_position(g), moves[i], &err);
        if (m == SCH_MOVE_NONE || !sch_game_play(g, m, &err))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *input = malloc(size + 1);
    if (!input)
        return 0;
    memcpy(input, data, size);
    input[size] = '\0';
    SchGame g;
    char *newline = strchr(input, '\n');
    if (newline) {
        *newline = '\0';
        SchError err;
        if (!sch_game_init_fen(&g, input, &err))
            sch_game_init(&g);
        check(&g, newline + 1);
        sch_game_free(&g);
    } else {
        static const char *const history[] = {"e2e4", "e7e5", "g1f3", "b8c6", "h1g1", "c6d4", "g1h1", "d4f3"};
        sch_game_init(&g);
        check(&g, input);
        play_all(&g, history, sizeof history / sizeof history[0]);
        check(&g, input);
        sch_game_free(&g);
    }
    free(input);
    return 0;
}
