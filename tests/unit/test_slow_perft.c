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
#include "test_helpers.h"

static void test_perft_suite(void **state) {
    (void)state;
    int checks;
    int positions = perft_suite(SCHACH_TEST_DATA "/perft.epd", NULL, NULL, &checks);
    print_message("%d positions, %d counts matched\n", positions, checks);
    assert_true(positions >= 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_perft_suite)};
    return cmocka_run_group_tests_name("perft suite", tests, NULL, NULL);
}
