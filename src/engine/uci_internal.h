/* The UCI front end's pieces (uci.c, uci_options.c, uci_position.c, uci_go.c, uci_search.c) share
 * the session state and these functions; uci.h is all that the rest of the project sees. */
#ifndef SCHACH_UCI_INTERNAL_H
#define SCHACH_UCI_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "schach/game.h"

enum { SHOWN_MAX = 40 }; /* input quoted in messages is cut to this many characters */

/* The settings behind the options: what the Engine keeps plus what only the protocol uses. */
typedef struct Settings {
    EngineOptions engine;
    int multipv;
    bool ponder;
    bool chess960; /* UCI_Chess960: castling written king-takes-rook, X-FEN castling fields */
} Settings;

typedef struct Uci {
    FILE *in, *out;
    const char *version;
    Engine *engine;
    Settings set;
    SchGame game;          /* the position of the last `position`, when it was valid */
    bool has_position;     /* game holds it; false before the first and after a refused one */
    bool position_refused; /* the last `position` was refused: go answers bestmove (none) */

    /* The search. job_* are written by the reading thread only while no search thread exists. */
    pthread_t thread;
    bool thread_alive; /* started and not yet joined (reading thread only) */
    SchGame job_game;
    bool job_game_valid;
    EngineLimits job_limits;
    SchMove job_moves[SCH_MAX_MOVES];

    pthread_mutex_t out_lock; /* whole lines on out */
    pthread_mutex_t lock;     /* the flags below */
    pthread_cond_t cond;
    bool started;     /* the engine has begun searching: stop and ponderhit reach it now */
    bool engine_done; /* engine_search returned: a stop now would wait for the next search */
    bool finished;    /* bestmove printed */
    bool stop_seen;   /* stop or quit arrived */
    bool ponderhit_seen;
} Uci;

typedef struct Tokens {
    char **v;
    size_t n, cap;
} Tokens;

/* ---- uci.c: output, tokens and numbers --------------------------------------------------------- */

/* Writes one line (a newline is added) and flushes it, whole even when both threads write. */
__attribute__((format(printf, 2, 3))) void uci_say(Uci *u, const char *fmt, ...);
/* Input text as it may appear in a message: printable ASCII, cut to SHOWN_MAX characters. */
const char *uci_shown(const char *text, char *buf, size_t size);
/* A whole decimal integer (sign allowed) into *v; false for anything else or overflow. */
bool uci_parse_integer(const char *text, long long *v);
/* Joins tokens [from, to) with single spaces into a new string (NULL when out of memory). */
char *uci_join_tokens(const Tokens *t, size_t from, size_t to);

/* ---- uci_options.c ----------------------------------------------------------------------------- */

void uci_settings_default(Settings *s);
/* uci: id, the options with their defaults, uciok. */
void uci_cmd_uci(Uci *u);
/* setoption name <id> [value <x>]. */
void uci_cmd_setoption(Uci *u, const Tokens *t, size_t i);

/* ---- uci_position.c ---------------------------------------------------------------------------- */

/* position startpos|fen <FEN> [moves m1 m2 ...]: all or nothing. */
void uci_cmd_position(Uci *u, const Tokens *t, size_t i);
/* d: the board, its FEN and the number of legal moves. */
void uci_cmd_display(Uci *u);
/* eval: the static evaluation of the position. */
void uci_cmd_eval(Uci *u);

/* ---- uci_go.c ---------------------------------------------------------------------------------- */

/* go [parameters]: starts a search of the position, or reports why not. */
void uci_cmd_go(Uci *u, const Tokens *t, size_t i);

/* ---- uci_search.c ------------------------------------------------------------------------------ */

/* Starts the search of job_game within job_limits and returns once the engine is searching. */
bool uci_start_search(Uci *u);
/* Waits for a running search that ends by its own limits; false, without waiting, when it only
 * ends on stop. */
bool uci_await_search(Uci *u);
/* Ends a running search: its bestmove is printed before this returns. */
void uci_stop_search(Uci *u);
/* ponderhit: the pondered move was played, the search goes on under its clock. */
void uci_cmd_ponderhit(Uci *u);

#endif
