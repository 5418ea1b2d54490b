/* schach serve: the structured log. One line per event (start, stop, limit hit, storage fault, client
 * dropped, ...) on stderr, as text ("2026-11-23T18:50:01.123Z warn limit kind=create address=::1")
 * or as one JSON object per line (--log-format json). Safe from any thread.
 *
 * Fields are key/value pairs of strings ended by NULL; numbers are formatted by the caller:
 *
 *     log_event(LOG_WARN, "limit", "kind", "create", "address", addr, (char *)NULL);
 *
 * Events that an attacker (or a broken disk) can repeat go through a LogLimiter: at most one line per
 * second for that limiter, and the next line says how many were left out ("suppressed"). */
#ifndef SCHACH_SERVER_LOG_H
#define SCHACH_SERVER_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { LOG_FORMAT_TEXT, LOG_FORMAT_JSON } LogFormat;
typedef enum { LOG_INFO, LOG_WARN, LOG_ERROR } LogLevel;

/* A rate limit for one kind of event; zero-initialise (static or in a struct). */
typedef struct LogLimiter {
    int64_t last_ms;     /* when its last line was written (monotonic ms), 0: never */
    uint64_t suppressed; /* events left out since */
} LogLimiter;

/* "text" or "json" into *out; false for anything else. */
bool log_format_parse(const char *name, LogFormat *out);
/* The format of every following line (default text). */
void log_set_format(LogFormat format);
/* Where lines go (default stderr; tests may pass a file). NULL: stderr. */
void log_set_output(FILE *out);

/* Writes one event line: key/value string pairs, ended by a NULL. A NULL value is written as "". */
void log_event(LogLevel level, const char *event, ...) __attribute__((sentinel));
/* The same, unless limiter wrote a line less than a second ago: then the event is only counted.
 * Returns true when the line was written. */
bool log_event_limited(LogLimiter *limiter, LogLevel level, const char *event, ...) __attribute__((sentinel));

#endif
