/** @file
 * libschach 1.0: the whole public API in one include.
 *
 *     #include <schach/schach.h>
 *
 * Link with `pkg-config --cflags --libs schach` or CMake's find_package(schach) and schach::schach.
 * Every name the library declares starts with sch_ (functions, data), Sch (types) or SCH_
 * (constants and macros), so it can be included beside any other library's headers. There is
 * nothing to call first: the library's tables are built when it is loaded.
 *
 * Out of memory: the functions that allocate say so where they are declared (sch_game_play,
 * sch_game_copy, the PGN reader and writer, sch_win_work_new); they report it as SCH_ERR_OUT_OF_MEMORY
 * or a NULL/false result and leave their objects as they were. Every other function allocates nothing.
 */
#ifndef SCH_SCHACH_H
#define SCH_SCHACH_H

#include "bitboard.h"
#include "error.h"
#include "explain.h"
#include "fen.h"
#include "game.h"
#include "material.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "pgn.h"
#include "position.h"
#include "types.h"
#include "version.h"
#include "winnable.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How sliding attacks are looked up in this process: "pext" (BMI2 present and fast) or "magic".
 * Chosen when the library is loaded; the environment variable SCHACH_SLIDERS=magic set
 * before the program starts forces magic bitboards, SCHACH_SLIDERS=pext forces PEXT when the CPU
 * has BMI2 at all. Both give identical results. */
const char *sch_slider_lookup(void);

#ifdef __cplusplus
}
#endif

#endif
