/* schach serve: per-address accounting for the transport's limits (docs/api.md "Limits").
 *
 * One table of client addresses, each with its open connections and three token buckets (game
 * creations, requests and the web page's files, each refilled evenly over a minute up to its per-minute limit, so a client may spend a
 * minute's worth at once and then one every 60/limit seconds). IPv6 addresses are counted per /64, the
 * smallest block one customer usually gets. The table is bounded: an entry without connections whose
 * buckets have refilled is forgotten by limits_sweep, and at most max_entries exist at once.
 *
 * Single-threaded: everything runs on the event loop.
 */
#ifndef SCHACH_SERVER_CLIENT_LIMITS_H
#define SCHACH_SERVER_CLIENT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Defaults of `schach serve` (docs/api.md). 0 turns a per-address limit off. */
enum {
    LIMITS_CONNECTIONS_PER_ADDRESS = 128,
    LIMITS_CREATES_PER_MINUTE = 60,
    LIMITS_REQUESTS_PER_MINUTE = 1200,
    LIMITS_MOVES_PER_MINUTE = 600,
    LIMITS_MAX_ENTRIES = 100000,
    LIMITS_FILES_PER_REQUEST = 5,
    LIMITS_ADDRESS_MAX = 64, /* room for any address key ("ffff:...:ffff/64", "255.255.255.255") */
};

typedef struct LimitsConfig {
    int max_connections;         /* all addresses together (always enforced) */
    int connections_per_address; /* 0: no limit */
    int creates_per_minute;      /* game creations per address; 0: no limit */
    int requests_per_minute;     /* HTTP requests and WebSocket messages per address; 0: no limit */
    int moves_per_minute;        /* moves (HTTP and WebSocket) per address, apart from the requests; 0: no limit */
    int max_entries;             /* addresses tracked at once; 0: LIMITS_MAX_ENTRIES */
    /* Tests only (SCHACH_LIMITS_CLOCK=frozen): the buckets' clock stands still, whatever now_ms says,
     * so they never refill and a test counts exactly on any machine. */
    bool frozen;
} LimitsConfig;

/* LIMIT_FILE: the browser UI's files. A page view fetches (or revalidates) a few dozen of them, all
 * answered from memory, so they have a bucket of their own, LIMITS_FILES_PER_REQUEST times the
 * request limit: a visitor reloading pages is not locked out of the API, and a flood of file requests
 * is still bounded. */
/* LIMIT_MOVE: moves in games, over HTTP and WebSocket. They are not charged to the requests, so no
 * flood of other requests from the player's address (another site's page in the player's browser,
 * a second tab) can make a move in a running game answer 429 and lose it on time. */
typedef enum { LIMIT_CREATE, LIMIT_REQUEST, LIMIT_FILE, LIMIT_MOVE, LIMIT_KINDS } LimitKind;

typedef struct Limits Limits;
typedef struct LimitsEntry LimitsEntry;

Limits *limits_new(const LimitsConfig *cfg);
void limits_free(Limits *l);

/* The key of a socket address: IPv4 as dotted quad (also when mapped into IPv6), IPv6 as its /64
 * ("2001:db8:1:2::/64"). false for other families. */
bool limits_key_from_sockaddr(const struct sockaddr *sa, char *key, size_t size);
/* The same for a textual address (from X-Forwarded-For); false when text is not an IP address. */
bool limits_key_from_text(const char *text, char *key, size_t size);
/* The address itself in canonical text (no /64 grouping), for comparing with trusted proxies. */
bool limits_canonical_text(const char *text, char *out, size_t size);

/* Why a connection was refused. */
typedef enum { LIMITS_OPEN_OK, LIMITS_OPEN_TOTAL, LIMITS_OPEN_PER_ADDRESS, LIMITS_OPEN_TABLE_FULL } LimitsOpen;

/* May a connection from key open now? Counts it when yes (*entry set: pass it to limits_close).
 * per_address false skips the per-address cap (a trusted proxy carries many clients). */
LimitsOpen limits_open(Limits *l, const char *key, bool per_address, int64_t now_ms, LimitsEntry **entry);
void limits_close(Limits *l, LimitsEntry *entry);

/* Takes one token of kind for key: 0 when allowed, else the seconds until one is available again
 * (for Retry-After, at least 1). A full table lets the request through (it is counted nowhere). */
int limits_take(Limits *l, const char *key, LimitKind kind, int64_t now_ms);

/* Forgets addresses with no connection whose buckets are full again. Call every few seconds. */
void limits_sweep(Limits *l, int64_t now_ms);

/* Open connections and tracked addresses, for tests and the log. */
int limits_connections(const Limits *l);
int limits_entries(const Limits *l);

#endif
