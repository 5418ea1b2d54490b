/* schach serve: the structured log (log.h). One mutex keeps lines whole and limiters consistent
 * across the loop, the store's writer and the computer's workers. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, gmtime_r */

#include "log.h"
#include "monotonic.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static LogFormat log_format = LOG_FORMAT_TEXT;
static FILE *log_out; /* NULL: stderr */

bool log_format_parse(const char *name, LogFormat *out) {
    if (name && strcmp(name, "text") == 0)
        *out = LOG_FORMAT_TEXT;
    else if (name && strcmp(name, "json") == 0)
        *out = LOG_FORMAT_JSON;
    else
        return false;
    return true;
}

void log_set_format(LogFormat format) {
    pthread_mutex_lock(&log_lock);
    log_format = format;
    pthread_mutex_unlock(&log_lock);
}

void log_set_output(FILE *out) {
    pthread_mutex_lock(&log_lock);
    log_out = out;
    pthread_mutex_unlock(&log_lock);
}

static const char *level_name(LogLevel level) {
    return level == LOG_ERROR ? "error" : level == LOG_WARN ? "warn" : "info";
}

/* UTC with milliseconds, ISO 8601. */
static void timestamp(char *out, size_t size) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, size, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

/* A text value as it is, or in double quotes with \" and \\ escaped when it has spaces, quotes,
 * an equals sign or control characters (so a line always splits back into its fields). */
static void text_value(FILE *f, const char *v) {
    bool plain = *v != '\0';
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p <= ' ' || *p == '"' || *p == '=' || *p == '\\' || *p == 0x7f)
            plain = false;
    if (plain) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < ' ' || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Writes the line; called with log_lock held. */
static void write_line(LogLevel level, const char *event, uint64_t suppressed, va_list ap) {
    FILE *f = log_out ? log_out : stderr;
    char when[40];
    timestamp(when, sizeof when);
    if (log_format == LOG_FORMAT_JSON) {
        json_t *o = json_pack("{s:s, s:s, s:s}", "time", when, "level", level_name(level), "event", event);
        for (const char *key; o && (key = va_arg(ap, const char *)) != NULL;) {
            const char *value = va_arg(ap, const char *);
            json_object_set_new(o, key, json_stringn_nocheck(value ? value : "", value ? strlen(value) : 0));
        }
        if (o && suppressed)
            json_object_set_new(o, "suppressed", json_integer((json_int_t)suppressed));
        char *text = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
        if (text)
            fprintf(f, "%s\n", text);
        else
            fprintf(f, "{\"time\":\"%s\",\"level\":\"error\",\"event\":\"log_out_of_memory\"}\n", when);
        free(text);
        json_decref(o);
    } else {
        fprintf(f, "%s %s %s", when, level_name(level), event);
        for (const char *key; (key = va_arg(ap, const char *)) != NULL;) {
            const char *value = va_arg(ap, const char *);
            fprintf(f, " %s=", key);
            text_value(f, value ? value : "");
        }
        if (suppressed)
            fprintf(f, " suppressed=%llu", (unsigned long long)suppressed);
        fputc('\n', f);
    }
    fflush(f);
}

void log_event(LogLevel level, const char *event, ...) {
    va_list ap;
    va_start(ap, event);
    pthread_mutex_lock(&log_lock);
    write_line(level, event, 0, ap);
    pthread_mutex_unlock(&log_lock);
    va_end(ap);
}

bool log_event_limited(LogLimiter *limiter, LogLevel level, const char *event, ...) {
    int64_t now = monotonic_ms();
    bool written = false;
    va_list ap;
    va_start(ap, event);
    pthread_mutex_lock(&log_lock);
    if (limiter->last_ms != 0 && now - limiter->last_ms < 1000) {
        limiter->suppressed++;
    } else {
        write_line(level, event, limiter->suppressed, ap);
        limiter->suppressed = 0;
        limiter->last_ms = now ? now : 1;
        written = true;
    }
    pthread_mutex_unlock(&log_lock);
    va_end(ap);
    return written;
}
