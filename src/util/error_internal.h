/* Internal to libschach (not installed): the per-module message tables behind sch_err_format(). */
#ifndef SCHACH_UTIL_ERROR_INTERNAL_H
#define SCHACH_UTIL_ERROR_INTERNAL_H

#include <stddef.h>

#include "schach/error.h"

/* One message template in both languages: the rows of the per-module tables. */
typedef struct ErrorMessage {
    int code;
    const char *en;
    const char *de;
} ErrorMessage;

/* The template of code in lang from a table of count rows, or NULL when the table lacks it. */
const char *sch_err_table_lookup(const ErrorMessage *table, size_t count, int code, SchLang lang);

/* Per-module template tables, each returning NULL for codes it does not know. Implemented by the
 * module that owns the code range; only src/messages/messages.c (the top of the library) calls them,
 * so no module calls upwards to format an error. */
const char *sch_fen_error_template(int code, SchLang lang);
const char *sch_notation_error_template(int code, SchLang lang);
const char *sch_pgn_error_template(int code, SchLang lang);
const char *sch_game_error_template(int code, SchLang lang);
const char *sch_explain_error_template(int code, SchLang lang);

#endif
