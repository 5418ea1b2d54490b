/* The service's errors: HTTP status, machine code, and a sentence in English and German. */
#include <stdio.h>
#include <string.h>

#include "service_state.h"

typedef struct ErrorRow {
    int status;
    const char *code;
    const char *en;
    const char *de;
} ErrorRow;

/* Indexed by SvcError; every template takes at most one %s. */
static const ErrorRow rows[SVC_E_COUNT] = {
    [SVC_E_BAD_JSON] = {400, "bad_json", "The request is not a JSON object.", "Die Anfrage ist kein JSON-Objekt."},
    [SVC_E_MISSING] = {400, "bad_request", "The member '%s' is missing.", "Das Feld „%s“ fehlt."},
    [SVC_E_NOT_STRING] = {400, "bad_request", "The member '%s' must be a string.",
                          "Das Feld „%s“ muss eine Zeichenkette sein."},
    [SVC_E_NOT_INTEGER] = {400, "bad_request", "The member '%s' must be a whole number.",
                           "Das Feld „%s“ muss eine ganze Zahl sein."},
    [SVC_E_NOT_OBJECT] = {400, "bad_request", "The member '%s' must be an object.",
                          "Das Feld „%s“ muss ein Objekt sein."},
    [SVC_E_UNKNOWN] = {400, "bad_request", "The member '%s' is not known here.", "Das Feld „%s“ ist hier unbekannt."},
    [SVC_E_VALUE] = {400, "bad_request", "The member '%s' has a value that is not allowed.",
                     "Das Feld „%s“ hat einen unzulässigen Wert."},
    [SVC_E_FEN] = {400, "bad_request", "The member 'fen' is not a valid position: %s",
                   "Das Feld „fen“ ist keine gültige Stellung: %s"},
    [SVC_E_FEN_OVER] = {400, "bad_request", "The member 'fen' gives a position in which the game is already over.",
                        "Das Feld „fen“ ergibt eine Stellung, in der die Partie schon beendet ist."},
    [SVC_E_BAD_SECRET] = {403, "bad_secret", "This secret does not let you play in this game.",
                          "Mit diesem Geheimnis kannst du in dieser Partie nicht spielen."},
    [SVC_E_BAD_INVITE] = {403, "bad_invite", "This invitation is unknown or has already been used.",
                          "Diese Einladung ist unbekannt oder wurde schon verwendet."},
    [SVC_E_NOT_FOUND] = {404, "not_found", "There is no game with this id.",
                         "Es gibt keine Partie mit dieser Kennung."},
    [SVC_E_NO_PATH] = {404, "not_found", "There is nothing at this address.", "Unter dieser Adresse gibt es nichts."},
    [SVC_E_METHOD] = {405, "method_not_allowed", "This method is not allowed here.",
                      "Diese Methode ist hier nicht erlaubt."},
    [SVC_E_NOT_YOUR_TURN] = {409, "not_your_turn", "It is not your turn.", "Du bist nicht am Zug."},
    [SVC_E_STALE] = {409, "stale_ply", "The game has changed in the meantime; reload it and try again.",
                     "Die Partie hat sich inzwischen geändert; lade sie neu und versuche es noch einmal."},
    [SVC_E_GAME_OVER] = {409, "game_over", "The game is over.", "Die Partie ist beendet."},
    [SVC_E_BUSY] = {409, "busy", "Another change of this game is being saved; please try again.",
                    "Eine andere Änderung dieser Partie wird gerade gespeichert; bitte versuche es noch einmal."},
    [SVC_E_NO_CLAIM] = {409, "no_claim", "There is no draw to claim now.", "Jetzt kann kein Remis beansprucht werden."},
    [SVC_E_NO_OFFER] = {409, "no_offer", "There is no draw offer to answer.",
                        "Es gibt kein Remisangebot zu beantworten."},
    [SVC_E_CANNOT_ABORT] = {409, "cannot_abort", "A game can only be aborted before both sides have moved.",
                            "Eine Partie kann nur abgebrochen werden, bevor beide Seiten gezogen haben."},
    [SVC_E_NOT_OVER] = {409, "not_over", "A rematch can only be offered once the game is over.",
                        "Eine Revanche kann erst angeboten werden, wenn die Partie beendet ist."},
    [SVC_E_NO_REMATCH] = {409, "no_rematch", "There is no rematch offer to decline or withdraw.",
                          "Es gibt kein Revancheangebot, das abgelehnt oder zurückgezogen werden könnte."},
    [SVC_E_REMATCH_MADE] = {409, "rematch_made", "The rematch has been started already.",
                            "Die Revanche hat schon begonnen."},
    [SVC_E_TAKEBACK_RATED] = {409, "takeback_rated", "Moves cannot be taken back in a rated game.",
                              "In einer gewerteten Partie können keine Züge zurückgenommen werden."},
    [SVC_E_TAKEBACK_COMPUTER] = {409, "takeback_computer", "Moves cannot be taken back in a game against the computer.",
                                 "In einer Partie gegen den Computer können keine Züge zurückgenommen werden."},
    [SVC_E_NO_TAKEBACK] = {409, "no_takeback", "You have no move to take back.",
                           "Du hast keinen Zug, der zurückgenommen werden könnte."},
    [SVC_E_NO_TAKEBACK_OFFER] = {409, "no_takeback_offer", "There is no takeback request to answer.",
                                 "Es gibt keine Bitte um Zugrücknahme, auf die du antworten könntest."},
    [SVC_E_NO_PREMOVE] = {409, "no_premove", "Premoves are only possible in games with a clock.",
                          "Vorauszüge sind nur in Partien mit Uhr möglich."},
    [SVC_E_TOO_LARGE] = {413, "too_large", "The request is larger than 16 KiB.", "Die Anfrage ist größer als 16 KiB."},
    [SVC_E_ILLEGAL] = {422, "illegal_move", "%s", "%s"},
    [SVC_E_BAD_LEVEL] = {422, "unknown_level", "There is no computer level '%s' (GET /api/levels lists them).",
                         "Es gibt keine Computerstufe „%s“ (GET /api/levels nennt alle)."},
    [SVC_E_STORAGE] = {503, "storage", "The change could not be saved; nothing was changed. Please try again later.",
                       "Die Änderung konnte nicht gespeichert werden; es wurde nichts geändert. Bitte versuche es "
                       "später noch einmal."},
    [SVC_E_READ] = {503, "storage", "The game could not be read from storage; please try again later.",
                    "Die Partie konnte nicht aus dem Speicher gelesen werden; bitte versuche es später noch einmal."},
    [SVC_E_INTERNAL] = {500, "storage", "The server ran out of memory; nothing was changed.",
                        "Dem Server ging der Speicher aus; es wurde nichts geändert."},
};

int svc_error_status(SvcError e) { return rows[e].status; }

const char *svc_error_code(SvcError e) { return rows[e].code; }

json_t *svc_error_json(SvcError e, SchLang lang, const char *arg) {
    char message[512];
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    snprintf(message, sizeof message, lang == SCH_LANG_DE ? rows[e].de : rows[e].en, arg ? arg : "");
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    return json_pack("{s:{s:s, s:s}}", "error", "code", rows[e].code, "message", message);
}

int service_error(const char *code, SchLang lang, char **body, size_t *len) {
    /* The errors a transport meets before a request reaches the service. */
    static const struct {
        const char *code;
        SvcError e;
    } transport[] = {{"bad_json", SVC_E_BAD_JSON},
                     {"not_found", SVC_E_NO_PATH},
                     {"method_not_allowed", SVC_E_METHOD},
                     {"too_large", SVC_E_TOO_LARGE},
                     {"storage", SVC_E_INTERNAL}};
    SvcError e = SVC_E_NO_PATH;
    for (size_t i = 0; i < sizeof transport / sizeof transport[0]; i++)
        if (code && strcmp(transport[i].code, code) == 0)
            e = transport[i].e;
    json_t *j = svc_error_json(e, lang, NULL);
    *body = j ? svc_dump(j, len) : NULL;
    json_decref(j);
    return rows[e].status;
}
