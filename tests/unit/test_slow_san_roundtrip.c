/* Notation round trips over every position within two plies of the perft suite: each legal move
 * goes to SAN (English and German), LAN and UCI and back to the same move, and no two legal moves of
 * a position share a SAN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"

typedef struct Stats {
    long positions;
    long moves;
    long checks;
    long mates;
} Stats;

static void fail_move(const SchPosition *pos, SchMove m, const char *what, const char *text) {
    char fen[SCH_FEN_MAX], uci[8];
    sch_fen_write(pos, fen, sizeof fen);
    sch_uci_write(pos, m, uci, sizeof uci);
    fail_msg("%s: move %s, text '%s', position %s", what, uci, text, fen);
}

static void expect_back(const SchPosition *pos, SchMove m, SchMove got, const char *what, const char *text) {
    if (got != m)
        fail_move(pos, m, what, text);
}

/* The check mark written must match the position after the move. */
static void check_mark(const SchPosition *pos, SchMove m, const char *san, Stats *st) {
    SchPosition next = *pos;
    SchUndo undo;
    sch_pos_make(&next, m, &undo);
    size_t n = strlen(san);
    char last = n ? san[n - 1] : 0;
    char want = 0;
    if (sch_pos_in_check(&next))
        want = sch_gen_has_legal_move(&next) ? '+' : '#';
    if (want == '+')
        st->checks++;
    if (want == '#')
        st->mates++;
    if ((want && last != want) || (!want && (last == '+' || last == '#')))
        fail_move(pos, m, "wrong check mark", san);
}

static void check_position(const SchPosition *pos, Stats *st) {
    SchMove list[SCH_MAX_MOVES];
    char san[2][SCH_MAX_MOVES][SCH_MOVE_TEXT_MAX];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, list);
    st->positions++;
    for (int i = 0; i < n; i++) {
        SchMove m = list[i];
        SchError err;
        sch_err_clear(&err);
        st->moves++;
        for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
            char *s = san[lang][i];
            size_t len = sch_san_write(pos, m, lang, s, SCH_MOVE_TEXT_MAX);
            if (len == 0 || len >= SCH_MOVE_TEXT_MAX)
                fail_move(pos, m, "SAN length", s);
            expect_back(pos, m, sch_san_parse(pos, s, lang, &err), "san_parse", s);
            expect_back(pos, m, sch_move_parse(pos, s, lang, &err), "move_parse of SAN", s);
            for (int j = 0; j < i; j++)
                if (strcmp(san[lang][j], s) == 0)
                    fail_move(pos, m, "two moves share a SAN", s);
            char lan[SCH_MOVE_TEXT_MAX];
            len = sch_lan_write(pos, m, lang, lan, sizeof lan);
            if (len == 0 || len >= sizeof lan)
                fail_move(pos, m, "LAN length", lan);
            expect_back(pos, m, sch_san_parse(pos, lan, lang, &err), "san_parse of LAN", lan);
            expect_back(pos, m, sch_move_parse(pos, lan, lang, &err), "move_parse of LAN", lan);
        }
        check_mark(pos, m, san[SCH_LANG_EN][i], st);
        char uci[8];
        sch_uci_write(pos, m, uci, sizeof uci);
        expect_back(pos, m, sch_uci_parse(pos, uci, &err), "uci_parse", uci);
        expect_back(pos, m, sch_move_parse(pos, uci, SCH_LANG_EN, &err), "move_parse of UCI", uci);
        expect_back(pos, m, sch_move_parse(pos, uci, SCH_LANG_DE, &err), "move_parse of UCI", uci);
    }
}

/* Root, children and grandchildren. */
static void walk(SchPosition *pos, int depth, Stats *st) {
    check_position(pos, st);
    if (depth == 0)
        return;
    SchMove list[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, list);
    for (int i = 0; i < n; i++) {
        SchUndo undo;
        sch_pos_make(pos, list[i], &undo);
        walk(pos, depth - 1, st);
        sch_pos_unmake(pos, list[i], &undo);
    }
}

static void test_perft_suite_roundtrip(void **state) {
    (void)state;
    FILE *f = fopen(SCHACH_TEST_DATA "/perft.epd", "r");
    assert_non_null(f);
    char line[512];
    int roots = 0;
    Stats st = {0, 0, 0, 0};
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        size_t len = strlen(line);
        while (len > 0 && strchr(" \t\r\n", line[len - 1]))
            line[--len] = '\0';
        if (len == 0)
            continue;
        SchPosition pos;
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, line, &err))
            fail_msg("perft.epd FEN not accepted: %s (code %d)", line, err.code);
        walk(&pos, 2, &st);
        roots++;
    }
    fclose(f);
    print_message("%d roots, %ld positions, %ld moves (%ld checks, %ld mates)\n", roots, st.positions, st.moves,
                  st.checks, st.mates);
    assert_true(roots >= 10);
    assert_true(st.moves > 100000);
    /* The suite is rich in checks and mates; a writer that never marks them would fail above. */
    assert_true(st.checks > 1000);
    assert_true(st.mates > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_suite_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
