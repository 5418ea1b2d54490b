/* CHECK for the fuzz harnesses: assert() disappears under NDEBUG, a fuzz finding must not. */
#ifndef SCHACH_FUZZ_CHECK_H
#define SCHACH_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s: check failed: %s: ", __FILE__, #cond);                                                \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

#endif
