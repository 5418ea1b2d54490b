/* A growing JSON text (json_out.h). */
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(JsonOut *j, size_t extra) {
    if (j->oom)
        return false;
    if (j->len + extra + 1 <= j->cap)
        return true;
    size_t cap = j->cap ? j->cap : 1024;
    while (cap < j->len + extra + 1)
        cap *= 2;
    char *data = realloc(j->data, cap);
    if (!data) {
        j->oom = true;
        return false;
    }
    j->data = data;
    j->cap = cap;
    return true;
}

void jo_reset(JsonOut *j) {
    j->len = 0;
    j->oom = false;
    if (j->data)
        j->data[0] = 0;
}

void jo_rawn(JsonOut *j, const char *text, size_t n) {
    if (!grow(j, n))
        return;
    memcpy(j->data + j->len, text, n);
    j->len += n;
    j->data[j->len] = 0;
}

void jo_raw(JsonOut *j, const char *text) { jo_rawn(j, text, strlen(text)); }

void jo_str(JsonOut *j, const char *text) {
    if (!text) {
        jo_raw(j, "null");
        return;
    }
    jo_raw(j, "\"");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        char esc[8];
        switch (*p) {
            case '"': jo_raw(j, "\\\""); break;
            case '\\': jo_raw(j, "\\\\"); break;
            case '\n': jo_raw(j, "\\n"); break;
            case '\r': jo_raw(j, "\\r"); break;
            case '\t': jo_raw(j, "\\t"); break;
            default:
                if (*p < 0x20) {
                    snprintf(esc, sizeof esc, "\\u%04x", *p);
                    jo_raw(j, esc);
                } else {
                    jo_rawn(j, (const char *)p, 1);
                }
        }
    }
    jo_raw(j, "\"");
}

void jo_int(JsonOut *j, int64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    jo_raw(j, buf);
}

void jo_bool(JsonOut *j, bool v) { jo_raw(j, v ? "true" : "false"); }

void jo_sep(JsonOut *j) {
    if (j->len && j->data[j->len - 1] != '{' && j->data[j->len - 1] != '[')
        jo_raw(j, ",");
}

void jo_key(JsonOut *j, const char *key) {
    jo_sep(j);
    jo_str(j, key);
    jo_raw(j, ":");
}

const char *jo_finish(JsonOut *j) {
    if (j->oom || !j->data)
        return "{\"ok\":false,\"error\":{\"en\":\"out of memory\",\"de\":\"kein Speicher mehr\"}}";
    return j->data;
}
