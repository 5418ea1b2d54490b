/* The PostgreSQL store: placeholder until the backend lands. */
#include <stdio.h>

#include "store.h"

Store *store_pg_open(const char *conninfo, const char *node, void (*wake)(void *), void *wake_ctx, char *err,
                     size_t err_size) {
    (void)conninfo, (void)node, (void)wake, (void)wake_ctx;
    snprintf(err, err_size, "PostgreSQL support is not built in");
    return NULL;
}
