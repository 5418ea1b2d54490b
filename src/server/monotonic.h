/* schach serve: milliseconds of CLOCK_MONOTONIC, for rate limits, log limiters and durations; never
 * for anything stored or shown (that is wall time). Include after a POSIX feature macro. */
#ifndef SCHACH_SERVER_MONOTONIC_H
#define SCHACH_SERVER_MONOTONIC_H

#include <stdint.h>
#include <time.h>

static inline int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
