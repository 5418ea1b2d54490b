/* Hand-made labelled positions for the winnability analysis (tests/data/winnable.epd; its header
 * says how a line reads). For every label:
 *  - "winnable": the helpmate written with the label replays to checkmate (so the label is right),
 *    the full mode answers SCH_WIN_WINNABLE and its own proof replays to checkmate, and the quick mode
 *    does not answer SCH_WIN_UNWINNABLE;
 *  - "unwinnable": the full mode answers SCH_WIN_UNWINNABLE with one of the reasons named (or, where the
 *    label allows it, undetermined), the quick mode too where the label says "quick", and neither
 *    mode ever answers SCH_WIN_WINNABLE;
 *  - sch_dead_position agrees with the two labels when both are given, and every reason has words in
 *    both languages.
 * The counts printed at the end show how much was checked. */
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

#define MAX_WORDS 200
/* Most positions an unwinnable label's independent proof by exhaustion may visit (a twentieth of it
 * for labels not marked "exhaustive", where the attempt is a bonus). */
#define EXHAUST_LIMIT 200000

typedef struct Label {
    bool given;
    bool winnable;
    bool quick;              /* unwinnable: the quick mode must say so too */
    bool open;               /* unwinnable: the full mode may leave it undetermined */
    bool exhaustive;         /* unwinnable: every reachable position must be visited (and none is mate) */
    char reasons[160];       /* unwinnable: accepted reason names separated by '|' */
    SchMove line[MAX_WORDS]; /* winnable: the helpmate of the label */
    int line_len;
} Label;

typedef struct Tally {
    int positions, labels, winnable, unwinnable, quick_decided, open_left, dead, lines_replayed, exhausted;
    int reasons_seen[SCH_WIN_REASON_NB];
} Tally;

/* Splits s at whitespace into words (in place); returns how many. */
static int split_words(char *s, char **words, int max) {
    int n = 0;
    for (char *tok = strtok(s, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
        words[n++] = tok;
    return n;
}

static bool reason_listed(const char *reasons, const char *name) {
    size_t len = strlen(name);
    for (const char *p = reasons; *p;) {
        size_t n = strcspn(p, "|");
        if (n == len && strncmp(p, name, len) == 0)
            return true;
        p += n + (p[n] == '|');
    }
    return false;
}

/* Reads one label field ("white winnable e2e4 ...", "black unwinnable locked_pawns quick"); false
 * when the field is a comment. The helpmate is parsed from pos, so its moves must be legal. */
static bool parse_label(char *field, const SchPosition *pos, int lineno, Label labels[2]) {
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", field);
    char *w[MAX_WORDS + 8];
    int n = split_words(copy, w, MAX_WORDS + 8);
    if (n < 2 || (strcmp(w[0], "white") != 0 && strcmp(w[0], "black") != 0) ||
        (strcmp(w[1], "winnable") != 0 && strcmp(w[1], "unwinnable") != 0))
        return false;
    SchColor c = strcmp(w[0], "white") == 0 ? SCH_WHITE : SCH_BLACK;
    Label *l = &labels[c];
    if (l->given)
        fail_msg("line %d: two labels for %s", lineno, w[0]);
    memset(l, 0, sizeof *l);
    l->given = true;
    l->winnable = strcmp(w[1], "winnable") == 0;
    if (l->winnable) {
        SchPosition p = *pos;
        for (int i = 2; i < n; i++) {
            SchError err;
            SchMove m = sch_uci_parse(&p, w[i], &err);
            if (m == SCH_MOVE_NONE)
                fail_msg("line %d: the helpmate's move %d (%s) is not legal", lineno, i - 1, w[i]);
            SchUndo undo;
            sch_pos_make(&p, m, &undo);
            l->line[l->line_len++] = m;
        }
        if (!oracle_mated_by(&p, c))
            fail_msg("line %d: the label's helpmate for %s does not end in checkmate", lineno, w[0]);
        return true;
    }
    if (n < 3)
        fail_msg("line %d: an unwinnable label without a reason", lineno);
    snprintf(l->reasons, sizeof l->reasons, "%s", w[2]);
    for (int i = 3; i < n; i++) {
        if (strcmp(w[i], "quick") == 0)
            l->quick = true;
        else if (strcmp(w[i], "or-undetermined") == 0)
            l->open = true;
        else if (strcmp(w[i], "exhaustive") == 0)
            l->exhaustive = true;
        else
            fail_msg("line %d: unknown word \"%s\" in an unwinnable label", lineno, w[i]);
    }
    return true;
}

static void check_label(const char *fen, const SchPosition *pos, SchColor c, const Label *l, SchWinWork *work, Tally *t,
                        SchWinResult *full_out) {
    static const SchWinLimits quick = {true, 0};
    const char *side = c == SCH_WHITE ? "white" : "black";
    SchWinResult rf, rq;
    char why[160];
    sch_can_checkmate(pos, c, NULL, work, &rf);
    sch_can_checkmate(pos, c, &quick, work, &rq);
    *full_out = rf;
    for (int mode = 0; mode < 2; mode++) {
        const SchWinResult *r = mode ? &rq : &rf;
        const char *name = mode ? "quick" : "full";
        if (r->verdict == SCH_WIN_WINNABLE) {
            if (!oracle_replay(pos, c, r, why, sizeof why))
                fail_msg("%s: %s, %s mode: the proof fails: %s", fen, side, name, why);
            t->lines_replayed++;
        }
        if (r->verdict == SCH_WIN_UNWINNABLE) {
            t->reasons_seen[r->reason]++;
            for (int lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
                const char *text = sch_win_reason_text(r->reason, (SchLang)lang);
                assert_true(text && *text);
            }
        }
        if (!l->given)
            continue;
        if (l->winnable && r->verdict == SCH_WIN_UNWINNABLE)
            fail_msg("%s: %s has a helpmate (the label's), but the %s mode says unwinnable (%s)", fen, side, name,
                     sch_win_reason_name(r->reason));
        if (!l->winnable && r->verdict == SCH_WIN_WINNABLE)
            fail_msg("%s: %s is labelled unwinnable, but the %s mode proves a helpmate", fen, side, name);
    }
    if (!l->given)
        return;
    t->labels++;
    if (l->winnable) {
        t->winnable++;
        if (rf.verdict != SCH_WIN_WINNABLE)
            fail_msg("%s: %s is winnable (label's helpmate: %d plies), the full mode says %s after %llu nodes", fen,
                     side, l->line_len, sch_win_verdict_name(rf.verdict), (unsigned long long)rf.nodes);
        return;
    }
    t->unwinnable++;
    /* Where the reachable positions are few (closed positions), visit them all: an independent proof
     * of the label. */
    size_t visited = 0;
    int exhaust = oracle_exhaust(pos, c, l->exhaustive ? EXHAUST_LIMIT : EXHAUST_LIMIT / 20, &visited);
    if (exhaust == 1)
        fail_msg("%s: %s is labelled unwinnable, but a checkmate is reachable (the label is wrong)", fen, side);
    if (l->exhaustive && exhaust != 0)
        fail_msg("%s: %s: more than %d positions are reachable, the label's proof by exhaustion does not hold", fen,
                 side, EXHAUST_LIMIT);
    t->exhausted += exhaust == 0;
    if (rf.verdict == SCH_WIN_UNDETERMINED && l->open) {
        t->open_left++;
        print_message("left undetermined (allowed by its label): %s, %s\n", fen, side);
    } else if (rf.verdict != SCH_WIN_UNWINNABLE) {
        fail_msg("%s: %s is unwinnable (%s), the full mode says %s after %llu nodes", fen, side, l->reasons,
                 sch_win_verdict_name(rf.verdict), (unsigned long long)rf.nodes);
    } else if (!reason_listed(l->reasons, sch_win_reason_name(rf.reason))) {
        fail_msg("%s: %s is unwinnable (%s), the full mode gives the reason %s", fen, side, l->reasons,
                 sch_win_reason_name(rf.reason));
    }
    if (l->quick) {
        if (rq.verdict != SCH_WIN_UNWINNABLE)
            fail_msg("%s: %s is unwinnable (%s), the quick mode says %s", fen, side, l->reasons,
                     sch_win_verdict_name(rq.verdict));
        if (!reason_listed(l->reasons, sch_win_reason_name(rq.reason)))
            fail_msg("%s: %s is unwinnable (%s), the quick mode gives the reason %s", fen, side, l->reasons,
                     sch_win_reason_name(rq.reason));
    }
    if (rq.verdict == SCH_WIN_UNWINNABLE)
        t->quick_decided++;
}

static void check_line(char *text, int lineno, SchWinWork *work, Tally *t) {
    char *fields[32];
    int n = 0;
    for (char *p = text; p && n < 32;) {
        fields[n++] = p;
        p = strchr(p, ';');
        if (p)
            *p++ = '\0';
    }
    char fen[256];
    snprintf(fen, sizeof fen, "%s", fields[0]);
    for (size_t len = strlen(fen); len > 0 && (fen[len - 1] == ' ' || fen[len - 1] == '\t'); len--)
        fen[len - 1] = '\0';
    SchPosition pos;
    SchError err;
    if (!sch_fen_parse(&pos, fen, &err))
        fail_msg("line %d: bad FEN \"%s\" (error %d)", lineno, fen, err.code);
    t->positions++;
    Label labels[2];
    memset(labels, 0, sizeof labels);
    for (int i = 1; i < n; i++)
        parse_label(fields[i], &pos, lineno, labels);
    if (!labels[SCH_WHITE].given && !labels[SCH_BLACK].given)
        fail_msg("line %d: no label", lineno);

    SchWinResult full[2];
    for (int c = 0; c < 2; c++)
        check_label(fen, &pos, (SchColor)c, &labels[c], work, t, &full[c]);

    /* sch_dead_position: winnable as soon as one colour is, dead when both are labelled unwinnable and
     * the full mode decided both. */
    if (labels[SCH_WHITE].given && labels[SCH_BLACK].given) {
        SchWinnability dead = sch_dead_position(&pos, NULL, work, NULL);
        bool any_winnable = labels[SCH_WHITE].winnable || labels[SCH_BLACK].winnable;
        bool decided =
            full[SCH_WHITE].verdict != SCH_WIN_UNDETERMINED && full[SCH_BLACK].verdict != SCH_WIN_UNDETERMINED;
        if (any_winnable && dead != SCH_WIN_WINNABLE)
            fail_msg("%s: a colour can mate, dead_position says %s", fen, sch_win_verdict_name(dead));
        if (!any_winnable && decided && dead != SCH_WIN_UNWINNABLE)
            fail_msg("%s: neither colour can mate, dead_position says %s", fen, sch_win_verdict_name(dead));
        t->dead += !any_winnable;
    }
}

static void test_labelled_positions(void **state) {
    (void)state;
    const char *path = SCHACH_TEST_DATA "/winnable.epd";
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    Tally t = {0};
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        check_line(line, lineno, work, &t);
    }
    fclose(f);
    sch_win_work_free(work);
    print_message("%d positions, %d labels: %d winnable (%d proofs replayed), %d unwinnable (%d decided by the quick "
                  "mode too, %d left undetermined as allowed, %d proved by visiting every reachable position), %d dead "
                  "positions\n",
                  t.positions, t.labels, t.winnable, t.lines_replayed, t.unwinnable, t.quick_decided, t.open_left,
                  t.exhausted, t.dead);
    print_message("reasons given:");
    for (int r = SCH_WIN_REASON_NONE + 1; r < SCH_WIN_REASON_NB; r++)
        print_message(" %s %d", sch_win_reason_name((SchWinReason)r), t.reasons_seen[r]);
    print_message("\n");
    assert_true(t.positions >= 30);
    assert_true(t.winnable >= 15 && t.unwinnable >= 15);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_labelled_positions)};
    return cmocka_run_group_tests_name("winnability of labelled positions", tests, NULL, NULL);
}
