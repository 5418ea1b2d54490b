/* Errors of the parsers: setting them (formatting them is src/messages/messages.c, at the top of the
 * library, because it reads every module's table). */
#include "error_internal.h"

#include <stdio.h>
#include <string.h>

void sch_err_clear(SchError *err) {
    if (err)
        memset(err, 0, sizeof *err);
}

bool sch_err_set(SchError *err, int code, const char *a1, const char *a2, const char *a3) {
    if (!err)
        return false;
    const char *args[SCH_ERR_ARGS] = {a1, a2, a3};
    err->code = code;
    for (int i = 0; i < SCH_ERR_ARGS; i++)
        snprintf(err->args[i], sizeof err->args[i], "%s", args[i] ? args[i] : "");
    return false;
}

void sch_err_text_arg(const char *text, size_t n, char *arg, size_t size) {
    if (size == 0)
        return;
    size_t k = 0;
    for (size_t i = 0; i < n && text[i] && k + 1 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        arg[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    arg[k] = '\0';
}

void sch_err_at(SchError *err, int line, int column) {
    if (err) {
        err->line = line;
        err->column = column;
    }
}

const char *sch_err_table_lookup(const ErrorMessage *table, size_t count, int code, SchLang lang) {
    for (size_t i = 0; i < count; i++)
        if (table[i].code == code)
            return lang == SCH_LANG_DE ? table[i].de : table[i].en;
    return NULL;
}
