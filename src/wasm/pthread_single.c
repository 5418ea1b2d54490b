/* The thread-specific values of the single-threaded WebAssembly build (compat/pthread.h). */
#include <pthread.h>

void *sch_wasm_pthread_values[SCH_WASM_PTHREAD_KEYS];
unsigned sch_wasm_pthread_key_count;
