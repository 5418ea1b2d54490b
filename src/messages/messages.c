/* Message lookup: the top of the library, above every module whose errors it formats. Each module
 * owns its own table (*_messages.c, fen.c); this file only chooses the table by the code's range
 * and fills in the arguments. */
#include <stdio.h>
#include <string.h>

#include "schach/error.h"
#include "util/error_internal.h"

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
