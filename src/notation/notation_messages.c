/* Messages of the notation module's error codes, in English and German. */
#include "schach/error.h"
#include "schach/notation.h"
#include "util/error_internal.h"

static const ErrorMessage MESSAGES[] = {
    {SCH_MOVE_ERR_EMPTY, "no move given", "kein Zug angegeben"},
    {SCH_MOVE_ERR_SYNTAX, "'%1' is not a move", "'%1' ist kein Zug"},
    {SCH_MOVE_ERR_NO_PIECE, "no piece can reach %2", "keine Figur kann %2 erreichen"},
    {SCH_MOVE_ERR_AMBIGUOUS, "ambiguous: %1 or %2", "mehrdeutig: %1 oder %2"},
    {SCH_MOVE_ERR_ILLEGAL, "%1 is not legal in this position", "%1 ist in dieser Stellung nicht erlaubt"},
    {SCH_MOVE_ERR_PROMOTION_MISSING, "%1: a pawn reaching the last rank must promote (e.g. =Q)",
     "%1: ein Bauer auf der letzten Reihe muss umgewandelt werden (z. B. =D)"},
    {SCH_MOVE_ERR_PROMOTION_BAD, "%1: only a pawn reaching the last rank promotes",
     "%1: nur ein Bauer, der die letzte Reihe erreicht, wird umgewandelt"},
    {SCH_MOVE_ERR_NO_PAWN, "no pawn can reach %2", "kein Bauer kann %2 erreichen"},
    {SCH_MOVE_ERR_NO_KNIGHT, "no knight can reach %2", "kein Springer kann %2 erreichen"},
    {SCH_MOVE_ERR_NO_BISHOP, "no bishop can reach %2", "kein Läufer kann %2 erreichen"},
    {SCH_MOVE_ERR_NO_ROOK, "no rook can reach %2", "kein Turm kann %2 erreichen"},
    {SCH_MOVE_ERR_NO_QUEEN, "no queen can reach %2", "keine Dame kann %2 erreichen"},
    {SCH_MOVE_ERR_NO_KING, "no king can reach %2", "kein König kann %2 erreichen"},
    {SCH_MOVE_ERR_EMPTY_SQUARE, "there is no piece on %1", "auf %1 steht keine Figur"},
    {SCH_MOVE_ERR_WRONG_COLOR, "the piece on %1 belongs to the opponent", "die Figur auf %1 gehört dem Gegner"},
    {SCH_MOVE_ERR_KING_EXPOSED, "%1 would leave the king in check", "nach %1 stünde der eigene König im Schach"},
    {SCH_MOVE_ERR_CASTLE_RIGHTS, "%1: castling to that side is no longer allowed (king or rook has moved)",
     "%1: Rochade nach dieser Seite ist nicht mehr erlaubt (König oder Turm hat gezogen)"},
    {SCH_MOVE_ERR_CASTLE_IN_CHECK, "%1: a king in check cannot castle",
     "%1: aus dem Schach darf nicht rochiert werden"},
    {SCH_MOVE_ERR_CASTLE_BLOCKED, "%1: there are pieces between king and rook",
     "%1: zwischen König und Turm stehen Figuren"},
    {SCH_MOVE_ERR_CASTLE_ATTACKED, "%1: the king would cross or land on %2, which is attacked",
     "%1: der König würde über das angegriffene Feld %2 ziehen oder darauf landen"},
    {SCH_MOVE_ERR_PROMOTION_PIECE, "%1: a pawn promotes only to a queen, rook, bishop or knight",
     "%1: ein Bauer wird nur in Dame, Turm, Läufer oder Springer umgewandelt"},
    {SCH_MOVE_ERR_DID_YOU_MEAN, "%1 does not fit this position; did you mean %2?",
     "%1 passt nicht zur Stellung; gemeint ist wohl %2"},
};

const char *sch_notation_error_template(int code, SchLang lang) {
    return sch_err_table_lookup(MESSAGES, sizeof MESSAGES / sizeof MESSAGES[0], code, lang);
}
