/* Messages of the PGN module's error codes, in English and German.
 * Where an argument is itself a sentence or a word, the reader stores it in both languages (see
 * pgn.h) and each template picks its own. */
#include "schach/error.h"
#include "schach/pgn.h"
#include "util/error_internal.h"

static const ErrorMessage templates[] = {
    {SCH_PGN_ERR_TOKEN, "unexpected token '%1'", "unerwartetes Symbol '%1'"},
    {SCH_PGN_ERR_TAG, "malformed tag pair at '%1'", "fehlerhaftes Tag-Paar bei '%1'"},
    {SCH_PGN_ERR_UNTERMINATED, "%1 opened by '%3' is not closed", "%2, begonnen mit '%3', wird nicht geschlossen"},
    {SCH_PGN_ERR_MOVE, "move '%1' is not possible: %2", "Zug '%1' ist nicht möglich: %3"},
    {SCH_PGN_ERR_FEN, "the FEN tag is not valid: %1", "der FEN-Tag ist ungültig: %2"},
    {SCH_PGN_ERR_RESULT, "the result '%1' contradicts '%2'", "das Ergebnis '%1' widerspricht '%2'"},
    {SCH_PGN_ERR_VARIATION, "unbalanced parenthesis '%1' of a variation",
     "nicht ausgeglichene Klammer '%1' einer Variante"},
    {SCH_PGN_ERR_LIMIT, "too many %1 (at most %3)", "zu viele %2 (höchstens %3)"},
    {SCH_PGN_ERR_NAG, "NAG '%1' is not between $0 and $255", "NAG '%1' liegt nicht zwischen $0 und $255"},
    {SCH_PGN_WARN_RESULT, "the Result tag '%1' contradicts the result '%2' after the moves, which counts",
     "der Result-Tag '%1' widerspricht dem Ergebnis '%2' nach den Zügen, das gilt"},
};

const char *sch_pgn_error_template(int code, SchLang lang) {
    return sch_err_table_lookup(templates, sizeof templates / sizeof templates[0], code, lang);
}
