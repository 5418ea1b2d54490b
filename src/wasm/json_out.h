/* A growing JSON text for the answers of the WebAssembly API (src/wasm): the module hands each
 * answer to JavaScript as one NUL-terminated UTF-8 string in its linear memory. */
#ifndef SCHACH_WASM_JSON_OUT_H
#define SCHACH_WASM_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct JsonOut {
    char *data;
    size_t len, cap;
    bool oom; /* an append failed: the text is cut, the answer says so */
} JsonOut;

void jo_reset(JsonOut *j);
void jo_raw(JsonOut *j, const char *text);
void jo_rawn(JsonOut *j, const char *text, size_t n);
/* text as a JSON string (quoted, escaped); NULL is null. */
void jo_str(JsonOut *j, const char *text);
void jo_int(JsonOut *j, int64_t v);
void jo_bool(JsonOut *j, bool v);
/* ,"key": — the comma unless right after { or [. */
void jo_key(JsonOut *j, const char *key);
/* A comma unless right after { or [. */
void jo_sep(JsonOut *j);
/* The text, NUL-terminated; {"ok":false,"error":"out of memory"} when an append failed. */
const char *jo_finish(JsonOut *j);

#endif
