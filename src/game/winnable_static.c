/* Static analysis of locked pawn structures (stub, filled in next). */
#include "winnable_internal.h"

Winnability win_static(const Position *pos, Color color, WinReason *why, bool *blockade) {
    (void)pos;
    (void)color;
    (void)why;
    *blockade = false;
    return WIN_UNDETERMINED;
}
