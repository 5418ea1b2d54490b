/* libschach: the whole public API in one include, and the library's initialisation.
 *
 *     #include <schach/schach.h>
 *     schach_init();   once, before anything else (idempotent, thread-safe)
 *
 * Link with `pkg-config --cflags --libs schach` or CMake's find_package(schach) and schach::schach.
 */
#ifndef SCHACH_SCHACH_H
#define SCHACH_SCHACH_H

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
#include "winnable.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library these headers belong to. */
#define SCHACH_VERSION_MAJOR 0
#define SCHACH_VERSION_MINOR 1
#define SCHACH_VERSION_PATCH 0

/* Fills the attack and Zobrist tables; idempotent and safe to call from several threads (runs once).
 * Call it before any other function of the library. */
void schach_init(void);

/* How sliding attacks are looked up in this process: "pext" (BMI2 present and fast) or "magic".
 * Chosen by schach_init() (called here if needed); the environment variable SCHACH_SLIDERS=magic set
 * before the first schach_init() forces magic bitboards, SCHACH_SLIDERS=pext forces PEXT when the CPU
 * has BMI2 at all. Both give identical results. */
const char *schach_slider_lookup(void);

#ifdef __cplusplus
}
#endif

#endif
