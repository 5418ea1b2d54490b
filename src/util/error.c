/* Errors of the parsers: setting them and formatting them in English or German. */
#include "schach/error.h"

#include <stdio.h>
#include <string.h>

void err_clear(SchError *err) {
    if (err)
        memset(err, 0, sizeof *err);
}

bool err_set(SchError *err, int code, const char *a1, const char *a2, const char *a3) {
    if (!err)
        return false;
    const char *args[SCHACH_ERR_ARGS] = {a1, a2, a3};
    err->code = code;
    for (int i = 0; i < SCHACH_ERR_ARGS; i++)
        snprintf(err->args[i], sizeof err->args[i], "%s", args[i] ? args[i] : "");
    return false;
}

void err_text_arg(const char *text, size_t n, char *arg, size_t size) {
    if (size == 0)
        return;
    size_t k = 0;
    for (size_t i = 0; i < n && text[i] && k + 1 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        arg[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    arg[k] = '\0';
}

void err_at(SchError *err, int line, int column) {
    if (err) {
        err->line = line;
        err->column = column;
    }
}

const char *err_table_lookup(const ErrorMessage *table, size_t count, int code, Lang lang) {
    for (size_t i = 0; i < count; i++)
        if (table[i].code == code)
            return lang == LANG_DE ? table[i].de : table[i].en;
    return NULL;
}

static const char *common_template(int code, Lang lang) {
    switch (code) {
        case ERR_NONE: return lang == LANG_DE ? "kein Fehler" : "no error";
        case ERR_OUT_OF_MEMORY: return lang == LANG_DE ? "kein Speicher mehr frei" : "out of memory";
        case ERR_IO: return lang == LANG_DE ? "Lesen oder Schreiben fehlgeschlagen: %1" : "input/output failed: %1";
        default: return NULL;
    }
}

const char *err_template(int code, Lang lang) {
    const char *t = NULL;
    if (code < 100)
        t = common_template(code, lang);
    else if (code < 200)
        t = fen_error_template(code, lang);
    else if (code < 300)
        t = notation_error_template(code, lang);
    else if (code < 400)
        t = pgn_error_template(code, lang);
    else if (code < 500)
        t = game_error_template(code, lang);
    else if (code < 600)
        t = explain_error_template(code, lang);
    if (!t)
        t = lang == LANG_DE ? "unbekannter Fehler" : "unknown error";
    return t;
}

/* Arguments written as "@word" are words to translate (colours, piece names); anything else that
 * starts with '@' is ordinary text and stays as it is. */
static const char *translate_word(const char *arg, Lang lang) {
    static const char *const words[][2] = {
        {"white", "Weiß"}, {"black", "Schwarz"}, {"pawn", "Bauer"}, {"knight", "Springer"}, {"bishop", "Läufer"},
        {"rook", "Turm"},  {"queen", "Dame"},    {"king", "König"}, {"White", "Weiß"},      {"Black", "Schwarz"},
    };
    if (arg[0] != '@')
        return arg;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(arg + 1, words[i][0]) == 0)
            return words[i][lang == LANG_DE];
    return arg;
}

size_t err_format(const SchError *err, Lang lang, char *buf, size_t size) {
    const char *t = err_template(err ? err->code : ERR_NONE, lang);
    size_t n = 0;
    /* Append one character or string while counting the full length like snprintf. */
#define EMIT(ch)                                                                                                       \
    do {                                                                                                               \
        if (n + 1 < size)                                                                                              \
            buf[n] = (ch);                                                                                             \
        n++;                                                                                                           \
    } while (0)
    for (const char *p = t; *p; p++) {
        if (p[0] == '%' && p[1] >= '1' && p[1] <= '0' + SCHACH_ERR_ARGS && err) {
            for (const char *a = translate_word(err->args[p[1] - '1'], lang); *a; a++)
                EMIT(*a);
            p++;
        } else {
            EMIT(*p);
        }
    }
#undef EMIT
    if (size > 0)
        buf[n < size ? n : size - 1] = '\0';
    return n;
}
