/* The hard labelled positions (tests/data/winnable_hard.epd, its header says how a line reads and
 * where the positions come from): locked walls and chains with pieces that can or cannot get
 * through. For every label:
 *  - "winnable": the label's helpmate replays to checkmate (so the label is right), and neither
 *    mode ever answers SCH_WIN_UNWINNABLE;
 *  - "unwinnable" (proved by visiting every reachable position): neither mode ever answers
 *    SCH_WIN_WINNABLE;
 *  - every SCH_WIN_WINNABLE answer's own proof replays to checkmate, every SCH_WIN_UNWINNABLE
 *    answer has a reason;
 *  - every dead position (both labels unwinnable) is ended by what a game runs after a move: the
 *    quick pass, then, where it sees a blockade, the full analysis at SCH_GAME_DEAD_NODES.
 * The full mode runs with a small budget here (the verdicts must be sound at any budget; how many
 * it settles at the default budget is the benchmark's business: schach_winhard measure). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpmate_oracle.h"
#include "schach/fen.h"
#include "schach/schach.h"

#define TEST_NODES 20000

typedef struct Tally {
    int positions, labels, winnable, unwinnable, decided, dead, dead_ended;
} Tally;

/* The label of one colour: 1 winnable (its helpmate replayed), 0 unwinnable, -1 none or unknown. */
static int parse_label(char *field, const SchPosition *pos, int lineno, SchColor *color) {
    while (*field == ' ')
        field++;
    if (strncmp(field, "white ", 6) != 0 && strncmp(field, "black ", 6) != 0)
        return -1;
    *color = field[0] == 'w' ? SCH_WHITE : SCH_BLACK;
    char *rest = field + 6;
    if (strncmp(rest, "unwinnable exhaustive", 21) == 0)
        return 0;
    if (strncmp(rest, "unknown", 7) == 0)
        return -1;
    if (strncmp(rest, "winnable", 8) != 0)
        fail_msg("line %d: unknown label \"%s\"", lineno, field);
    SchPosition p = *pos;
    char *save = NULL;
    for (char *w = strtok_r(rest + 8, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        SchError err;
        SchMove m = sch_uci_parse(&p, w, &err);
        if (m == SCH_MOVE_NONE)
            fail_msg("line %d: the helpmate's move %s is not legal", lineno, w);
        SchUndo undo;
        sch_pos_make(&p, m, &undo);
    }
    if (!oracle_mated_by(&p, *color))
        fail_msg("line %d: the label's helpmate does not end in checkmate", lineno);
    return 1;
}

static void check_position(char *text, int lineno, SchWinWork *work, Tally *t) {
    static const SchWinLimits quick = {true, 0};
    static const SchWinLimits small = {false, TEST_NODES};
    static const SchWinLimits game = {false, SCH_GAME_DEAD_NODES};
    char *fields[8];
    int n = 0;
    for (char *p = text; p && n < 8;) {
        fields[n++] = p;
        p = strchr(p, ';');
        if (p)
            *p++ = '\0';
    }
    SchPosition pos;
    SchError err;
    if (!sch_fen_parse(&pos, fields[0], &err))
        fail_msg("line %d: bad FEN", lineno);
    t->positions++;
    int label[2] = {-1, -1};
    for (int i = 1; i < n; i++) {
        SchColor c;
        int l = parse_label(fields[i], &pos, lineno, &c);
        if (l >= 0)
            label[c] = l;
    }
    for (int c = 0; c < 2; c++) {
        if (label[c] < 0)
            continue;
        t->labels++;
        t->winnable += label[c] == 1;
        t->unwinnable += label[c] == 0;
        for (int mode = 0; mode < 2; mode++) {
            SchWinResult r;
            sch_can_checkmate(&pos, (SchColor)c, mode ? &quick : &small, work, &r);
            char why[160];
            if (r.verdict == SCH_WIN_WINNABLE && !oracle_replay(&pos, (SchColor)c, &r, why, sizeof why))
                fail_msg("line %d: %s: the proof fails: %s", lineno, c ? "black" : "white", why);
            if (r.verdict == SCH_WIN_UNWINNABLE && !sch_win_reason_name(r.reason))
                fail_msg("line %d: unwinnable without a reason", lineno);
            if (label[c] == 1 && r.verdict == SCH_WIN_UNWINNABLE)
                fail_msg("line %d: %s has a helpmate, the %s mode says unwinnable (%s)", lineno, c ? "black" : "white",
                         mode ? "quick" : "full", sch_win_reason_name(r.reason));
            if (label[c] == 0 && r.verdict == SCH_WIN_WINNABLE)
                fail_msg("line %d: %s cannot mate, the %s mode proves a helpmate", lineno, c ? "black" : "white",
                         mode ? "quick" : "full");
            if (!mode)
                t->decided += r.verdict != SCH_WIN_UNDETERMINED;
        }
    }
    if (label[SCH_WHITE] == 0 && label[SCH_BLACK] == 0) {
        t->dead++;
        SchWinResult res[2];
        SchWinnability v = sch_dead_position(&pos, &quick, NULL, res);
        if (v == SCH_WIN_UNDETERMINED && (res[SCH_WHITE].blockade || res[SCH_BLACK].blockade))
            v = sch_dead_position(&pos, &game, work, res);
        if (v != SCH_WIN_UNWINNABLE)
            fail_msg("line %d: a dead position a game would not end (%s)", lineno, sch_win_verdict_name(v));
        t->dead_ended++;
    }
}

static void test_hard_positions(void **state) {
    (void)state;
    const char *path = SCHACH_TEST_DATA "/winnable_hard.epd";
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    Tally t = {0};
    char line[16384];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        check_position(line, lineno, work, &t);
    }
    fclose(f);
    sch_win_work_free(work);
    print_message("%d positions, %d labels (%d winnable, %d unwinnable), %d decided with %d nodes; %d dead "
                  "positions, %d ended as a game would\n",
                  t.positions, t.labels, t.winnable, t.unwinnable, t.decided, TEST_NODES, t.dead, t.dead_ended);
    assert_true(t.positions >= 400);
    assert_true(t.unwinnable >= 200 && t.winnable >= 200);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hard_positions)};
    return cmocka_run_group_tests_name("winnability of the hard labelled positions", tests, NULL, NULL);
}
