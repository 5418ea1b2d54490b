/* The standard perft suite (tests/data/perft.epd) to the full listed depth: every count must
 * match exactly. This is the specification of move generation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schach/fen.h"
#include "schach/perft.h"

static void test_perft_suite(void **state) {
    (void)state;
    const char *path = SCHACH_TEST_DATA "/perft.epd";
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[1024];
    int positions = 0, checks = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        Position pos;
        SchError err;
        if (!fen_parse(&pos, line, &err))
            fail_msg("bad FEN in suite: %s", line);
        positions++;
        for (char *p = semi + 1; p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL) {
            int depth;
            unsigned long long expected;
            while (*p == ' ')
                p++;
            if (sscanf(p, "D%d %llu", &depth, &expected) != 2)
                continue;
            uint64_t got = perft(&pos, depth);
            if (got != expected)
                fail_msg("%s depth %d: got %llu, expected %llu", line, depth, (unsigned long long)got, expected);
            checks++;
        }
    }
    fclose(f);
    print_message("%d positions, %d counts matched\n", positions, checks);
    assert_true(positions >= 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_perft_suite)};
    return cmocka_run_group_tests_name("perft suite", tests, NULL, NULL);
}
