/* schach serve: milliseconds of CLOCK_MONOTONIC, for rate limits, log limiters and durations; never
 * for anything stored or shown (that is wall time). */
#ifndef SCHACH_SERVER_MONOTONIC_H
#define SCHACH_SERVER_MONOTONIC_H

#include <stdint.h>

int64_t monotonic_ms(void);

#endif
