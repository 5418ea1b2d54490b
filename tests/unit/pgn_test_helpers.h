/* PGN helpers shared by the unit tests (include after <cmocka.h>; the test defines _POSIX_C_SOURCE
 * 200809L for open_memstream). */
#ifndef SCHACH_PGN_TEST_HELPERS_H
#define SCHACH_PGN_TEST_HELPERS_H

#include <stdio.h>

#include "schach/pgn.h"

/* g as sch_pgn_write writes it with the letters of lang (caller frees). */
static inline char *pgn_text(const SchPgnGame *g, SchLang lang) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_true(sch_pgn_write(f, g, lang));
    fclose(f);
    return text;
}

#endif
