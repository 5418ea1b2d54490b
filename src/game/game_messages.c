/* Messages of the game module's error codes, in English and German. */
#include "schach/game.h"
#include "util/error_internal.h"

const char *sch_game_error_template(int code, SchLang lang) {
    bool de = lang == SCH_LANG_DE;
    switch (code) {
        case SCH_GAME_ERR_OVER: return de ? "die Partie ist bereits beendet" : "the game is already over";
        case SCH_GAME_ERR_ILLEGAL: return de ? "%1 ist kein regelgemäßer Zug" : "%1 is not a legal move";
        case SCH_GAME_ERR_NOTHING_TO_UNDO:
            return de ? "es gibt keinen Zug, der sich zurücknehmen lässt" : "there is no move to take back";
        case SCH_GAME_ERR_NO_CLAIM:
            return de ? "kein Remis reklamierbar: weder dreifache Stellungswiederholung noch 50-Züge-Regel"
                      : "no draw can be claimed: neither threefold repetition nor the 50-move rule applies";
        case SCH_GAME_ERR_NO_OFFER:
            return de ? "es liegt kein Remisangebot des Gegners vor" : "the opponent has not offered a draw";
        case SCH_GAME_ERR_CLAIM_REJECTED:
            return de ? "die Reklamation ist unberechtigt; der Zug %1 gilt und die Partie geht weiter"
                      : "the claim is incorrect; the move %1 stands and the game goes on";
        case SCH_GAME_ERR_CLAIM_VOID:
            return de ? "der Zug %1 hat die Partie bereits beendet; die Reklamation entfällt"
                      : "the move %1 ended the game by itself; the claim does not apply";
        case SCH_GAME_ERR_CHESS960_NUMBER:
            return de ? "%1 ist keine Chess960-Startstellung (0 bis 959)"
                      : "%1 is not a Chess960 start position (0 to 959)";
        case SCH_GAME_ERR_NULL_IN_CHECK:
            return de ? "ein Nullzug ist im Schach nicht möglich" : "a null move cannot be played in check";
        default: return NULL;
    }
}
