/* schach_init: builds the immutable global tables exactly once, whichever thread asks first. */
#include <pthread.h>

#include "castling.h"
#include "init.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_all(void) {
    bb_init_tables();
    zobrist_init();
    castle_init();
}

void schach_init(void) { pthread_once(&init_once, init_all); }
