/* Helpmate and exhaustive searches (stub, filled in next). */
#include "winnable_internal.h"

Winnability win_search(const Position *pos, Color color, uint64_t budget, WinWork *work, WinResult *r,
                       WinReason *why) {
    (void)pos;
    (void)color;
    (void)budget;
    (void)work;
    (void)r;
    (void)why;
    return WIN_UNDETERMINED;
}
