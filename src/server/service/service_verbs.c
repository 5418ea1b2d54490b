/* The game actions by name (service.h): one table for HTTP and the WebSocket. */
#include <string.h>

#include "service.h"

/* clang-format off */
const ServiceVerb service_verbs[] = {
    /* name        action            change  websocket */
    {"join",      ACTION_JOIN,      true,   false},
    {"move",      ACTION_MOVE,      true,   true},
    {"draw",      ACTION_DRAW,      true,   true},
    {"claim",     ACTION_CLAIM,     true,   true},
    {"resign",    ACTION_RESIGN,    true,   true},
    {"abort",     ACTION_ABORT,     true,   true},
    {"rematch",   ACTION_REMATCH,   true,   true},
    {"takeback",  ACTION_TAKEBACK,  true,   true},
    {"premove",   ACTION_PREMOVE,   true,   true},
    {"pgn",       ACTION_PGN,       false,  false},
    {"positions", ACTION_POSITIONS, false,  false},
};
/* clang-format on */
const size_t service_verb_count = sizeof service_verbs / sizeof service_verbs[0];

const ServiceVerb *service_verb(const char *name) {
    for (size_t i = 0; name && i < service_verb_count; i++)
        if (strcmp(service_verbs[i].name, name) == 0)
            return &service_verbs[i];
    return NULL;
}
