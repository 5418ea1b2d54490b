/* Message lookup: the top of the library, above every module whose errors it formats. Each module
 * owns its own table (*_messages.c, fen.c); this file only chooses the table by the code's range
 * and fills in the arguments. */
#include <stdio.h>
#include <string.h>

#include "schach/error.h"
#include "util/error_internal.h"

static const char *common_template(int code, SchLang lang) {
    switch (code) {
        case SCH_ERR_NONE: return lang == SCH_LANG_DE ? "kein Fehler" : "no error";
        case SCH_ERR_OUT_OF_MEMORY: return lang == SCH_LANG_DE ? "kein Speicher mehr frei" : "out of memory";
        case SCH_ERR_IO:
            return lang == SCH_LANG_DE ? "Lesen oder Schreiben fehlgeschlagen: %1" : "input/output failed: %1";
        default: return NULL;
    }
}

const char *sch_err_template(int code, SchLang lang) {
    const char *t = NULL;
    if (code < 100)
        t = common_template(code, lang);
    else if (code < 200)
        t = sch_fen_error_template(code, lang);
    else if (code < 300)
        t = sch_notation_error_template(code, lang);
    else if (code < 400)
        t = sch_pgn_error_template(code, lang);
    else if (code < 500)
        t = sch_game_error_template(code, lang);
    else if (code < 600)
        t = sch_explain_error_template(code, lang);
    if (!t)
        t = lang == SCH_LANG_DE ? "unbekannter Fehler" : "unknown error";
    return t;
}

/* Arguments written as "@word" are words to translate (colours, piece names); anything else that
 * starts with '@' is ordinary text and stays as it is. */
static const char *translate_word(const char *arg, SchLang lang) {
    static const char *const words[][2] = {
        {"white", "Weiß"}, {"black", "Schwarz"}, {"pawn", "Bauer"}, {"knight", "Springer"}, {"bishop", "Läufer"},
        {"rook", "Turm"},  {"queen", "Dame"},    {"king", "König"}, {"White", "Weiß"},      {"Black", "Schwarz"},
    };
    if (arg[0] != '@')
        return arg;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(arg + 1, words[i][0]) == 0)
            return words[i][lang == SCH_LANG_DE];
    return arg;
}

size_t sch_err_format(const SchError *err, SchLang lang, char *buf, size_t size) {
    const char *t = sch_err_template(err ? err->code : SCH_ERR_NONE, lang);
    size_t n = 0;
    /* Append one character or string while counting the full length like snprintf. */
#define EMIT(ch)                                                                                                       \
    do {                                                                                                               \
        if (n + 1 < size)                                                                                              \
            buf[n] = (ch);                                                                                             \
        n++;                                                                                                           \
    } while (0)
    for (const char *p = t; *p; p++) {
        if (p[0] == '%' && p[1] >= '1' && p[1] <= '0' + SCH_ERR_ARGS && err) {
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
