/* Messages of the explain module's codes, in English and German.
 *
 * Like every message of the library they are sentence fragments without a final stop, so a caller
 * can put them after "illegal move: " or capitalise them. German avoids the polite "Sie" and names
 * pieces with their article where the sentence needs one (hence one code per piece type there).
 */
#include "schach/explain.h"
#include "util/error_internal.h"

static const ErrorMessage MESSAGES[] = {
    {SCH_EXPLAIN_ERR_OWN_PIECE, "there is already a piece of the same colour on %1 (%2)",
     "auf %1 steht eine eigene Figur (%2)"},
    {SCH_EXPLAIN_ERR_BLOCKED, "the path is blocked at %3 (%1 on %2)", "der Weg ist bei %3 versperrt (%1 auf %2)"},
    {SCH_EXPLAIN_ERR_PINNED, "the %1 on %2 is pinned and would expose the king",
     "die Figur auf %2 (%1) ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_KING_ATTACKED, "the king would be in check on %1", "der König stünde auf %1 im Schach"},
    {SCH_EXPLAIN_ERR_CHECK_NOT_ANSWERED, "the move does not answer the check by the %1 on %2",
     "der Zug wehrt das Schach nicht ab (%1 auf %2)"},
    {SCH_EXPLAIN_ERR_CASTLE_KING_MOVED, "castling is not allowed: the king has already moved",
     "Rochade nicht erlaubt: der König hat sich bereits bewegt"},
    {SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED, "castling is not allowed: the rook on %1 has already moved",
     "Rochade nicht erlaubt: der Turm auf %1 hat sich bereits bewegt"},
    {SCH_EXPLAIN_ERR_CASTLE_ROOK_GONE, "castling is not allowed: the rook on %1 was captured",
     "Rochade nicht erlaubt: der Turm auf %1 wurde geschlagen"},
    {SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT, "castling to this side is not allowed in this position",
     "Rochade nach dieser Seite ist in dieser Stellung nicht erlaubt"},
    {SCH_EXPLAIN_ERR_CASTLE_IN_CHECK, "castling is not allowed: the king is in check",
     "Rochade nicht erlaubt: der König steht im Schach"},
    {SCH_EXPLAIN_ERR_CASTLE_ATTACKED, "castling is not allowed: %1 is attacked",
     "Rochade nicht erlaubt: %1 wird angegriffen"},
    {SCH_EXPLAIN_ERR_CASTLE_OCCUPIED, "castling is not allowed: %1 is occupied",
     "Rochade nicht erlaubt: %1 ist besetzt"},
    {SCH_EXPLAIN_ERR_EP_TOO_LATE, "en passant on %1 is only allowed right after the double step",
     "en passant auf %1 ist nur unmittelbar nach dem Doppelschritt erlaubt"},
    {SCH_EXPLAIN_ERR_PAWN_MOVE,
     "a pawn cannot go from %1 to %2: it moves straight ahead (two squares only from its start square) and "
     "captures diagonally",
     "ein Bauer kann nicht von %1 nach %2 ziehen: er zieht geradeaus (zwei Felder nur vom Ausgangsfeld "
     "aus) und schlägt schräg"},
    {SCH_EXPLAIN_ERR_PINNED_PAWN, "the pawn on %2 is pinned and would expose the king",
     "der Bauer auf %2 ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_PINNED_KNIGHT, "the knight on %2 is pinned and would expose the king",
     "der Springer auf %2 ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_PINNED_BISHOP, "the bishop on %2 is pinned and would expose the king",
     "der Läufer auf %2 ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_PINNED_ROOK, "the rook on %2 is pinned and would expose the king",
     "der Turm auf %2 ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_PINNED_QUEEN, "the queen on %2 is pinned and would expose the king",
     "die Dame auf %2 ist gefesselt und würde den eigenen König preisgeben"},
    {SCH_EXPLAIN_ERR_PINNED_KING, "the king on %2 would be in check", "der König auf %2 stünde im Schach"},
    {SCH_EXPLAIN_ERR_CHECK_BY_PAWN, "the move does not answer the check by the pawn on %2",
     "der Zug wehrt das Schach durch den Bauern auf %2 nicht ab"},
    {SCH_EXPLAIN_ERR_CHECK_BY_KNIGHT, "the move does not answer the check by the knight on %2",
     "der Zug wehrt das Schach durch den Springer auf %2 nicht ab"},
    {SCH_EXPLAIN_ERR_CHECK_BY_BISHOP, "the move does not answer the check by the bishop on %2",
     "der Zug wehrt das Schach durch den Läufer auf %2 nicht ab"},
    {SCH_EXPLAIN_ERR_CHECK_BY_ROOK, "the move does not answer the check by the rook on %2",
     "der Zug wehrt das Schach durch den Turm auf %2 nicht ab"},
    {SCH_EXPLAIN_ERR_CHECK_BY_QUEEN, "the move does not answer the check by the queen on %2",
     "der Zug wehrt das Schach durch die Dame auf %2 nicht ab"},
    {SCH_EXPLAIN_ERR_CHECK_BY_KING, "the move does not answer the check by the king on %2",
     "der Zug wehrt das Schach durch den König auf %2 nicht ab"},
};

const char *sch_explain_error_template(int code, SchLang lang) {
    return sch_err_table_lookup(MESSAGES, sizeof MESSAGES / sizeof MESSAGES[0], code, lang);
}
