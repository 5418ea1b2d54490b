/* The immutable global tables, built exactly once before anything can read them. */
#include <pthread.h>

#include "castling.h"
#include "init.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_all(void) {
    sch_bb_init_tables();
    sch_zobrist_init();
    sch_castle_init();
}

void sch_core_init(void) { pthread_once(&init_once, init_all); }
