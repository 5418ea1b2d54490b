/* The labelled positions of tests/data/winnable.epd: the full analysis gives every label (verdict
 * and reason), every proof replays to mate, and the quick mode never contradicts a label. */
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

#ifndef SCHACH_TEST_DATA
#define SCHACH_TEST_DATA "tests/data"
#endif

/* Cuts the next ';'-separated field out of *cursor, trimmed. */
static char *field(char **cursor) {
    char *start = *cursor, *end = strchr(start, ';');
    if (end) {
        *end = '\0';
        *cursor = end + 1;
    } else {
        *cursor = start + strlen(start);
    }
    while (*start == ' ')
        start++;
    size_t n = strlen(start);
    while (n > 0 && (start[n - 1] == ' ' || start[n - 1] == '\n'))
        start[--n] = '\0';
    return start;
}

static void check_label(const Position *pos, Color c, const char *label, const char *fen, WinWork *work) {
    char side[16], verdict[32], reason[48] = "";
    if (sscanf(label, "%15s %31s %47s", side, verdict, reason) < 2)
        fail_msg("bad label '%s' for %s", label, fen);
    assert_string_equal(side, c == WHITE ? "white" : "black");
    WinResult r;
    Winnability v = can_checkmate(pos, c, NULL, work, &r);
    if (strcmp(win_verdict_name(v), verdict) != 0)
        fail_msg("%s, %s: %s, labelled %s", fen, side, win_verdict_name(v), verdict);
    if (v == WIN_UNWINNABLE && strcmp(win_reason_name(r.reason), reason) != 0)
        fail_msg("%s, %s: reason %s, labelled %s", fen, side, win_reason_name(r.reason), reason);
    if (v == WIN_WINNABLE) {
        Position p = *pos;
        for (int i = 0; i < r.line_len; i++) {
            if (!gen_is_legal(&p, r.line[i]))
                fail_msg("%s, %s: proof move %d illegal", fen, side, i);
            Undo u;
            pos_make(&p, r.line[i], &u);
        }
        if (!(pos_in_check(&p) && !gen_has_legal_move(&p) && pos_turn(&p) != c))
            fail_msg("%s, %s: the proof does not end in mate", fen, side);
    }
    WinLimits quick = {true, 0};
    Winnability q = can_checkmate(pos, c, &quick, NULL, &r);
    if (q != WIN_UNDETERMINED && q != v)
        fail_msg("%s, %s: quick says %s, full %s", fen, side, win_verdict_name(q), win_verdict_name(v));
}

static void test_labelled_positions(void **state) {
    (void)state;
    schach_init();
    FILE *f = fopen(SCHACH_TEST_DATA "/winnable.epd", "r");
    assert_non_null(f);
    WinWork *work = win_work_new(0);
    assert_non_null(work);
    char line[512];
    int positions = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *cursor = line;
        char *fen = field(&cursor), *white = field(&cursor), *black = field(&cursor);
        Position pos;
        SchError err;
        if (!fen_parse(&pos, fen, &err))
            fail_msg("bad FEN in winnable.epd: %s", fen);
        check_label(&pos, WHITE, white, fen, work);
        check_label(&pos, BLACK, black, fen, work);
        positions++;
    }
    fclose(f);
    win_work_free(work);
    assert_true(positions >= 25);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labelled_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
