/* schach serve: per-address accounting (client_limits.h). A chained hash table of malloc'd entries: an entry
 * never moves while it exists, so a connection keeps a pointer to it until it closes. */
#define _POSIX_C_SOURCE 200809L

#include "client_limits.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 4096, MINUTE_MS = 60000 };

struct LimitsEntry {
    LimitsEntry *next;
    char key[LIMITS_ADDRESS_MAX];
    int connections;
    double tokens[LIMIT_KINDS];
    int64_t refilled_ms;
    int64_t last_ms;
};

struct Limits {
    LimitsConfig cfg;
    LimitsEntry *table[BUCKETS];
    int entries;
    int connections;
};

static int kind_limit(const Limits *l, LimitKind kind) {
    switch (kind) {
        case LIMIT_CREATE: return l->cfg.creates_per_minute;
        case LIMIT_FILE: return l->cfg.requests_per_minute * LIMITS_FILES_PER_REQUEST;
        case LIMIT_MOVE: return l->cfg.moves_per_minute;
        default: return l->cfg.requests_per_minute;
    }
}

Limits *limits_new(const LimitsConfig *cfg) {
    Limits *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->cfg = *cfg;
    if (l->cfg.max_entries <= 0)
        l->cfg.max_entries = LIMITS_MAX_ENTRIES;
    return l;
}

void limits_free(Limits *l) {
    if (!l)
        return;
    for (int i = 0; i < BUCKETS; i++)
        while (l->table[i]) {
            LimitsEntry *e = l->table[i];
            l->table[i] = e->next;
            free(e);
        }
    free(l);
}

static bool key_v4(const unsigned char *a, char *key, size_t size) {
    return inet_ntop(AF_INET, a, key, (socklen_t)size) != NULL;
}

/* An IPv6 address: v4-mapped ones as IPv4, the rest as their /64. */
static bool key_v6(const struct in6_addr *a, char *key, size_t size) {
    if (IN6_IS_ADDR_V4MAPPED(a))
        return key_v4(a->s6_addr + 12, key, size);
    struct in6_addr prefix;
    memset(&prefix, 0, sizeof prefix);
    memcpy(prefix.s6_addr, a->s6_addr, 8);
    char text[INET6_ADDRSTRLEN];
    if (!inet_ntop(AF_INET6, &prefix, text, sizeof text))
        return false;
    return (size_t)snprintf(key, size, "%s/64", text) < size;
}

bool limits_key_from_sockaddr(const struct sockaddr *sa, char *key, size_t size) {
    if (sa->sa_family == AF_INET)
        return key_v4((const unsigned char *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr, key, size);
    if (sa->sa_family == AF_INET6)
        return key_v6(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, key, size);
    return false;
}

bool limits_key_from_text(const char *text, char *key, size_t size) {
    unsigned char a4[4];
    struct in6_addr a6;
    if (inet_pton(AF_INET, text, a4) == 1)
        return key_v4(a4, key, size);
    if (inet_pton(AF_INET6, text, &a6) == 1)
        return key_v6(&a6, key, size);
    return false;
}

bool limits_canonical_text(const char *text, char *out, size_t size) {
    unsigned char a4[4];
    struct in6_addr a6;
    if (inet_pton(AF_INET, text, a4) == 1)
        return inet_ntop(AF_INET, a4, out, (socklen_t)size) != NULL;
    if (inet_pton(AF_INET6, text, &a6) == 1) {
        if (IN6_IS_ADDR_V4MAPPED(&a6))
            return inet_ntop(AF_INET, a6.s6_addr + 12, out, (socklen_t)size) != NULL;
        return inet_ntop(AF_INET6, &a6, out, (socklen_t)size) != NULL;
    }
    return false;
}

static unsigned hash_key(const char *key) {
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % BUCKETS;
}

/* The time the buckets go by: now_ms, or always 0 when the clock is frozen (tests). */
static int64_t clock_of(const Limits *l, int64_t now_ms) { return l->cfg.frozen ? 0 : now_ms; }

/* Adds what the time since the last refill earned, up to a minute's worth. */
static void refill(const Limits *l, LimitsEntry *e, int64_t now_ms) {
    int64_t dt = now_ms - e->refilled_ms;
    if (dt <= 0)
        return;
    for (int k = 0; k < LIMIT_KINDS; k++) {
        int limit = kind_limit(l, (LimitKind)k);
        e->tokens[k] += (double)dt * limit / MINUTE_MS;
        if (e->tokens[k] > limit)
            e->tokens[k] = limit;
    }
    e->refilled_ms = now_ms;
}

/* The entry of key, created when missing; NULL when the table is full (after a sweep) or out of memory. */
static LimitsEntry *entry_for(Limits *l, const char *key, int64_t now_ms) {
    unsigned h = hash_key(key);
    for (LimitsEntry *e = l->table[h]; e; e = e->next)
        if (!strcmp(e->key, key)) {
            refill(l, e, now_ms);
            e->last_ms = now_ms;
            return e;
        }
    if (l->entries >= l->cfg.max_entries)
        limits_sweep(l, now_ms);
    if (l->entries >= l->cfg.max_entries)
        return NULL;
    LimitsEntry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    snprintf(e->key, sizeof e->key, "%s", key);
    for (int k = 0; k < LIMIT_KINDS; k++)
        e->tokens[k] = kind_limit(l, (LimitKind)k);
    e->refilled_ms = e->last_ms = now_ms;
    e->next = l->table[h];
    l->table[h] = e;
    l->entries++;
    return e;
}

LimitsOpen limits_open(Limits *l, const char *key, bool per_address, int64_t now_ms, LimitsEntry **entry) {
    *entry = NULL;
    now_ms = clock_of(l, now_ms);
    if (l->cfg.max_connections > 0 && l->connections >= l->cfg.max_connections)
        return LIMITS_OPEN_TOTAL;
    LimitsEntry *e = entry_for(l, key, now_ms);
    if (!e)
        return LIMITS_OPEN_TABLE_FULL;
    if (per_address && l->cfg.connections_per_address > 0 && e->connections >= l->cfg.connections_per_address)
        return LIMITS_OPEN_PER_ADDRESS;
    e->connections++;
    l->connections++;
    *entry = e;
    return LIMITS_OPEN_OK;
}

void limits_close(Limits *l, LimitsEntry *entry) {
    if (!entry)
        return;
    if (entry->connections > 0)
        entry->connections--;
    if (l->connections > 0)
        l->connections--;
}

int limits_take(Limits *l, const char *key, LimitKind kind, int64_t now_ms) {
    int limit = kind_limit(l, kind);
    if (limit <= 0)
        return 0;
    now_ms = clock_of(l, now_ms);
    LimitsEntry *e = entry_for(l, key, now_ms);
    if (!e)
        return 0;
    if (e->tokens[kind] >= 1.0) {
        e->tokens[kind] -= 1.0;
        return 0;
    }
    /* Time until the bucket holds one token again, rounded up to whole seconds. */
    double ms = (1.0 - e->tokens[kind]) * MINUTE_MS / limit;
    int seconds = (int)(ms / 1000.0) + 1;
    return seconds;
}

void limits_sweep(Limits *l, int64_t now_ms) {
    now_ms = clock_of(l, now_ms);
    for (int i = 0; i < BUCKETS; i++)
        for (LimitsEntry **pe = &l->table[i]; *pe;) {
            LimitsEntry *e = *pe;
            if (e->connections == 0 && now_ms - e->last_ms >= MINUTE_MS) {
                *pe = e->next;
                free(e);
                l->entries--;
            } else {
                pe = &e->next;
            }
        }
}

int limits_connections(const Limits *l) { return l->connections; }
int limits_entries(const Limits *l) { return l->entries; }
