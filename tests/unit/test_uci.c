/* The UCI loop (src/engine/uci.c) driven through files: answers, bad input, search control.
 * Only depth/nodes limits and stop/ponderhit, so nothing depends on timing. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schach/bitboard.h"
#include "schach/fen.h"
#include "schach/notation.h"
#include "schach/schach.h"
#include "uci.h"

/* Runs uci_loop on input (the end of input is quit) and returns all it wrote (free it). */
static char *run_uci(const char *input) {
    FILE *in = tmpfile(), *out = tmpfile();
    assert_non_null(in);
    assert_non_null(out);
    fputs(input, in);
    rewind(in);
    assert_int_equal(uci_loop(in, out, "9.9.9"), 0);
    long size = ftell(out);
    assert_true(size >= 0);
    rewind(out);
    char *text = calloc((size_t)size + 1, 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, out), (size_t)size);
    fclose(in);
    fclose(out);
    return text;
}

/* How many lines of text start with prefix. */
static int count_lines(const char *text, const char *prefix) {
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
        n += !strncmp(s, prefix, len);
    return n;
}

/* The move of the first "bestmove" line after from (copied into buf). */
static const char *bestmove_after(const char *from, char *buf, size_t size) {
    const char *s = strstr(from, "bestmove ");
    assert_non_null(s);
    s += 9;
    size_t n = strcspn(s, " \n");
    assert_true(n < size);
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

/* The best move answered for position is legal there. */
static void assert_legal_bestmove(const char *out, const char *fen) {
    char move[16];
    bestmove_after(out, move, sizeof move);
    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    assert_true(sch_fen_parse(&pos, fen, &err));
    if (sch_uci_parse(&pos, move, &err) == SCH_MOVE_NONE)
        fail_msg("bestmove %s is not legal in %s", move, fen);
}

static void test_handshake(void **state) {
    (void)state;
    char *out = run_uci("uci\nisready\n");
    assert_non_null(strstr(out, "id name schach 9.9.9\n"));
    assert_int_equal(count_lines(out, "id author "), 1);
    const char *options[] = {"option name Hash type spin default 16 min 1 max 65536",
                             "option name Threads type spin default 1 min 1 max",
                             "option name MultiPV type spin default 1 min 1 max 16",
                             "option name Move Overhead type spin default 10 min 0 max 5000",
                             "option name Ponder type check default false",
                             "option name UCI_LimitStrength type check default false",
                             "option name UCI_Elo type spin default 1500 min 400 max 2400",
                             "option name Skill Level type spin default 20 min 0 max 20",
                             "option name Clear Hash type button"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strstr(out, options[i]))
            fail_msg("missing '%s' in:\n%s", options[i], out);
    assert_non_null(strstr(out, "uciok\nreadyok\n"));
    free(out);
}

static void test_go_depth(void **state) {
    (void)state;
    char *out = run_uci("position startpos moves e2e4 e7e5\ngo depth 3\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_true(count_lines(out, "info depth ") >= 1);
    assert_legal_bestmove(out, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    free(out);

    /* Commands after a bounded search wait for it: both searches are answered, the option is set. */
    out = run_uci("position startpos\ngo depth 2\nsetoption name Hash value 2\ngo depth 2\nucinewgame\n");
    assert_int_equal(count_lines(out, "bestmove "), 2);
    assert_int_equal(count_lines(out, "info string "), 0);
    free(out);

    out = run_uci("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\ngo nodes 5000\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_legal_bestmove(out, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    free(out);
}

/* Every answer to a stop or ponderhit is exactly one bestmove, printed after it. */
static void test_infinite_and_ponder(void **state) {
    (void)state;
    char *out = run_uci("position startpos\ngo infinite\nisready\nstop\nisready\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_int_equal(count_lines(out, "readyok"), 2);
    assert_non_null(strstr(strstr(out, "bestmove "), "readyok")); /* readyok after the bestmove too */
    free(out);

    out = run_uci("position startpos moves d2d4\ngo ponder wtime 1000 btime 1000 depth 2\nponderhit\nisready\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_int_equal(count_lines(out, "readyok"), 1);
    free(out);

    /* A stop with no search running does not cut the next search short. */
    out = run_uci("position startpos\ngo depth 2\nucinewgame\nstop\ngo depth 6\n");
    assert_int_equal(count_lines(out, "bestmove "), 2);
    assert_int_equal(count_lines(out, "info depth 6 "), 1);
    free(out);

    /* While a search runs that only stop ends, go, setoption and ucinewgame are refused. */
    out = run_uci("position startpos\ngo infinite\ngo depth 1\nsetoption name Hash value 2\nucinewgame\nstop\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_int_equal(count_lines(out, "info string "), 3);
    assert_non_null(strstr(out, "info string go: refused during go infinite or go ponder (send stop first)"));
    free(out);

    /* stop ends a ponder search too; quit (end of input) ends a running infinite search. */
    out = run_uci("position startpos\ngo ponder depth 2\nstop\ngo infinite\n");
    assert_int_equal(count_lines(out, "bestmove "), 2);
    free(out);
}

static void test_finished_game(void **state) {
    (void)state;
    /* Black is mated: nothing to play. */
    char *out = run_uci("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 5\n");
    assert_non_null(strstr(out, "bestmove (none)\n"));
    free(out);
    /* Stalemate, also with go infinite: the bestmove waits for stop. */
    out = run_uci("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo infinite\nisready\nstop\n");
    assert_non_null(strstr(out, "readyok\nbestmove (none)\n"));
    free(out);
}

static void test_bad_input(void **state) {
    (void)state;
    char *out = run_uci("garbage in\n"
                        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n"
                        "go depth 1\n"                             /* no position: bestmove (none) */
                        "position startpos moves e2e4 e7e5 g1g5\n" /* illegal third move */
                        "go depth 1\n"                             /* still none */
                        "position startpos moves e2e4\n"
                        "position startpos moves e7e5\n" /* illegal: no position again */
                        "position sideways\n"
                        "position startpos moves e2e4\n" /* the go lines below are refused for themselves */
                        "go depth -3\ngo depth x\ngo nodes\ngo movestogo -1\n"
                        "setoption name Nonsense value 3\nsetoption name Hash value 0\n"
                        "setoption name MultiPV value lots\nsetoption name Ponder value maybe\nsetoption Hash\n"
                        "d\n"
                        "isready\n");
    assert_int_equal(count_lines(out, "bestmove "), 2);
    assert_int_equal(count_lines(out, "bestmove (none)"), 2);
    assert_true(count_lines(out, "info string ") >= 15);
    assert_non_null(strstr(out, "info string unknown command 'garbage'"));
    assert_non_null(strstr(out, "info string position: invalid FEN"));
    assert_non_null(strstr(out, "info string go: no valid position"));
    assert_non_null(strstr(out, "move 3 'g1g5'"));
    assert_non_null(strstr(out, "info string go: depth -3 is out of range"));
    assert_non_null(strstr(out, "info string setoption: no option named 'Nonsense'"));
    /* The position of the last good command. */
    assert_non_null(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"));
    assert_non_null(strstr(out, "readyok\n"));
    free(out);
}

/* After a refused `position` the engine has no position: a `go` answers `bestmove (none)` with an
 * info string that says why, never a move of the position before (which the GUI no longer means).
 * Before this, the previous position stood and `go` searched it. */
static void test_refused_position_gives_no_move(void **state) {
    (void)state;
    char *out = run_uci("position startpos moves e2e4\n"
                        "position fen 8/8/8/8/8/8/8/8 w - - 0 1\n" /* no kings */
                        "go depth 2\n"
                        "isready\n"
                        "position startpos moves e2e4 e7e5 e1e3\n" /* illegal third move */
                        "go depth 2\n"
                        "isready\n"
                        "d\n"
                        "position startpos moves e2e4\n" /* valid again */
                        "go depth 1\n"
                        "isready\n");
    assert_int_equal(count_lines(out, "bestmove (none)"), 2);
    assert_int_equal(count_lines(out, "bestmove "), 3);
    assert_int_equal(count_lines(out, "info string go: no valid position"), 2);
    assert_non_null(strstr(out, "invalid FEN"));
    assert_non_null(strstr(out, "move 3 'e1e3' cannot be played"));
    assert_non_null(strstr(out, "info string d: no position yet"));
    /* The last go searched 1. e4 for black: a black move. */
    const char *final = NULL;
    for (const char *p = strstr(out, "bestmove "); p; p = strstr(p + 1, "bestmove "))
        final = p;
    assert_non_null(final);
    assert_true(final[9] >= 'a' && final[9] <= 'h' && (final[10] == '7' || final[10] == '8'));
    free(out);
}

static void test_options(void **state) {
    (void)state;
    char *out = run_uci("setoption name hash value 1\nsetoption name MULTIPV value 3\n"
                        "setoption name move overhead value 0\nsetoption name Skill Level value 3\n"
                        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1000\n"
                        "setoption name Clear Hash\nsetoption name Ponder value TRUE\n"
                        "setoption name MultiPV value 17\nsetoption name UCI_Elo value 100\n"
                        "ucinewgame\nisready\n");
    /* Only the two values out of range are refused. */
    assert_int_equal(count_lines(out, "info string "), 2);
    assert_non_null(strstr(out, "setoption MultiPV: '17' is not a whole number from 1 to 16; it stays 3"));
    assert_non_null(strstr(out, "setoption UCI_Elo: '100'"));
    free(out);

    /* MultiPV 3 reports three lines per depth. */
    out = run_uci("setoption name MultiPV value 3\nposition startpos\ngo depth 2\n");
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_non_null(strstr(out, " multipv 3 "));
    free(out);
}

/* Thousands of moves on one line: knights out and back (past the 75-move rule and fivefold
 * repetition, which the GUI arbitrates under UCI). */
static void test_long_line(void **state) {
    (void)state;
    const char *cycle = " g1f3 g8f6 f3g1 f6g8";
    size_t cycles = 1000, len = strlen(cycle);
    char *input = malloc(64 + cycles * len);
    assert_non_null(input);
    strcpy(input, "position startpos moves");
    char *p = input + strlen(input);
    for (size_t i = 0; i < cycles; i++, p += len)
        memcpy(p, cycle, len);
    strcpy(p, "\nd\ngo depth 1\n");
    char *out = run_uci(input);
    assert_non_null(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4000 2001\n"));
    assert_int_equal(count_lines(out, "bestmove "), 1);
    free(out);
    free(input);

    /* A very long garbage line is reported, cut short. */
    input = malloc(100001);
    assert_non_null(input);
    memset(input, 'x', 99999);
    input[99999] = '\n';
    input[100000] = '\0';
    out = run_uci(input);
    assert_non_null(strstr(out, "info string unknown command 'xxxx"));
    assert_true(strlen(out) < 200);
    free(out);
    free(input);
}

/* The NNUE options: `uci` names the built-in net with its SHA-256; UseNNUE (on by default) switches,
 * false is the classical evaluation; a bad EvalFile is refused with the reason and changes nothing; a
 * good one and <embedded> are announced; the `eval` lines show which evaluation speaks, and the search
 * still answers. */
static void test_nnue_options(void **state) {
    (void)state;
    char *out = run_uci("uci\n"
                        "setoption name UseNNUE value false\n"
                        "setoption name UseNNUE value true\n"
                        "setoption name EvalFile value " SCHACH_SOURCE_DIR "/README.md\n"
                        "setoption name EvalFile value " SCHACH_SOURCE_DIR "/nets/default.nnue\n"
                        "setoption name EvalFile value <embedded>\n"
                        "position startpos moves e2e4\n"
                        "eval\n"
                        "setoption name UseNNUE value false\n"
                        "eval\n"
                        "go depth 3\n"
                        "isready\n");
    assert_non_null(strstr(out, "option name UseNNUE type check default true\n"));
    assert_non_null(strstr(out, "option name EvalFile type string default <embedded>\n"));
    /* On by default since a trained net beat the classical evaluation (docs/nnue.md). */
    assert_non_null(strstr(out, "info string NNUE evaluation on: <embedded> net 768x256x2, sha256 "));
    assert_true(strstr(out, "info string NNUE evaluation on") < strstr(out, "uciok\n"));
    assert_non_null(strstr(out, "info string setoption EvalFile: not a schach net: the file does not begin with "
                                "'SCHNNUE1'; keeping the current net"));
    assert_non_null(strstr(out, "info string NNUE evaluation on: net " SCHACH_SOURCE_DIR "/nets/default.nnue"));
    /* uci, UseNNUE true, EvalFile <embedded>; off after each UseNNUE false. */
    assert_int_equal(count_lines(out, "info string NNUE evaluation on: <embedded>"), 3);
    assert_int_equal(count_lines(out, "info string NNUE evaluation off: <embedded>"), 2);
    assert_int_equal(count_lines(out, "info string eval "), 3); /* net and classical, then classical */
    assert_non_null(strstr(out, "; NNUE)\n"));
    assert_int_equal(count_lines(out, "bestmove "), 1);
    assert_non_null(strstr(out, "readyok\n"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_go_depth),
        cmocka_unit_test(test_infinite_and_ponder),
        cmocka_unit_test(test_finished_game),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_refused_position_gives_no_move),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_nnue_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
