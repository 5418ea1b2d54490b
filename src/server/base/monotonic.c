/* The monotonic clock (monotonic.h). A function, not an inline one, so that its users need no POSIX
 * feature macro of their own. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <time.h>

#include "monotonic.h"

int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
