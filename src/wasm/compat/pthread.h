/* The few POSIX thread functions libschach and the engine use, for the single-threaded WebAssembly
 * build (wasm32-wasi has no threads; wasi-libc has no pthread.h). Only this build puts the folder on
 * its include path: the sources stay the same for every target. Everything runs on one thread, so a
 * "once" is a flag, a thread-specific value is a global, and locks and condition variables do nothing
 * (nothing can wait for another thread: there is none; the engine's pool is pool_single.c there). */
#ifndef SCHACH_WASM_COMPAT_PTHREAD_H
#define SCHACH_WASM_COMPAT_PTHREAD_H

#include <errno.h>
#include <stddef.h>

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0
typedef unsigned pthread_key_t;
typedef int pthread_t;
typedef int pthread_mutex_t;
typedef int pthread_mutexattr_t;
typedef int pthread_cond_t;
typedef int pthread_condattr_t;
typedef int pthread_attr_t;

#define SCH_WASM_PTHREAD_KEYS 8
extern void *sch_wasm_pthread_values[SCH_WASM_PTHREAD_KEYS];
extern unsigned sch_wasm_pthread_key_count;

static inline int pthread_once(pthread_once_t *once, void (*fn)(void)) {
    if (!*once) {
        *once = 1;
        fn();
    }
    return 0;
}

static inline int pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
    (void)destructor; /* the one thread never ends */
    if (sch_wasm_pthread_key_count >= SCH_WASM_PTHREAD_KEYS)
        return EAGAIN;
    *key = sch_wasm_pthread_key_count++;
    return 0;
}
static inline void *pthread_getspecific(pthread_key_t key) {
    return key < SCH_WASM_PTHREAD_KEYS ? sch_wasm_pthread_values[key] : NULL;
}
static inline int pthread_setspecific(pthread_key_t key, const void *value) {
    if (key >= SCH_WASM_PTHREAD_KEYS)
        return EINVAL;
    sch_wasm_pthread_values[key] = (void *)(size_t)value;
    return 0;
}

static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
    (void)a;
    *m = 0;
    return 0;
}
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { return (void)m, 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { return (void)m, 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { return (void)m, 0; }
static inline int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
    (void)a;
    *c = 0;
    return 0;
}
static inline int pthread_cond_destroy(pthread_cond_t *c) { return (void)c, 0; }
static inline int pthread_cond_signal(pthread_cond_t *c) { return (void)c, 0; }
static inline int pthread_cond_broadcast(pthread_cond_t *c) { return (void)c, 0; }

#endif
