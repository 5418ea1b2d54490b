/* schach match: games between two UCI engines with openings, clocks, adjudication, PGN and Elo.
 *
 * A MatchConfig describes the match; match_run() plays it on cfg->concurrency threads, each thread
 * a "slot" owning its own two engine processes, and prints progress and the final table.
 * Everything the config points to is owned by the caller and must outlive match_run().
 */
#ifndef SCHACH_MATCH_H
#define SCHACH_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "schach/types.h"

#define MATCH_NAME_MAX     64
#define MATCH_MAX_ARGS     32
#define MATCH_MAX_OPTIONS  32
#define MATCH_CHESS960_MAX 64

typedef struct EngineOption {
    char name[128];
    char value[256];
} EngineOption;

/* One engine: how to start it and what to set. argv[0] is the program (searched in PATH when it has
 * no '/'), argv[argc] is NULL. */
typedef struct EngineSpec {
    char name[MATCH_NAME_MAX]; /* empty: the engine's "id name" */
    const char *argv[MATCH_MAX_ARGS + 1];
    int argc;
    const char *dir; /* working directory, or NULL */
    EngineOption options[MATCH_MAX_OPTIONS];
    int option_count;
} EngineSpec;

typedef struct MatchConfig {
    EngineSpec engines[2];
    int games;       /* total games; games 2k and 2k+1 share an opening with colours swapped */
    int concurrency; /* games played at once */
    /* Limits per move. A clock when has_clock; nodes/depth/movetime are sent with "go" when > 0. */
    bool has_clock;
    int64_t base_ms, inc_ms;
    int64_t nodes;
    int depth;
    int64_t movetime_ms;
    int64_t timemargin_ms;      /* a clock may fall this far below zero before the flag falls */
    int64_t move_timeout_ms;    /* without a clock: longest wait for bestmove beyond movetime */
    int64_t startup_timeout_ms; /* uci -> uciok and isready -> readyok */
    /* Openings: a PGN or EPD file; NULL means data/openings.pgn; none starts every game from the
     * standard position. */
    const char *openings_path;
    bool no_openings;
    bool shuffle;
    /* Chess960: games from Chess960 start positions (each pair with colours swapped), the listed
     * numbers in turn, or random ones from seed when chess960_count is 0; the engines get
     * UCI_Chess960. Replaces the openings. */
    bool chess960;
    int chess960_numbers[MATCH_CHESS960_MAX];
    int chess960_count;
    uint64_t seed;
    /* Output. */
    const char *pgn_path; /* NULL: no PGN */
    bool pgn_comments;    /* {score/depth time} after every engine move */
    const char *log_path; /* NULL: no log of the UCI traffic */
    const char *event;    /* PGN Event, NULL: "schach match" */
    int report_every;     /* full statistics every N games (0: only at the end) */
    SchLang lang;
    /* Adjudication by engine scores (centipawns from the mover's view), off unless enabled. */
    bool resign_on;
    int resign_moves, resign_score;
    bool draw_on;
    int draw_start, draw_moves, draw_score;
    /* SPRT: stop when the log-likelihood ratio crosses a bound. */
    bool sprt_on;
    double elo0, elo1, alpha, beta;
} MatchConfig;

/* Defaults: 2 games, concurrency 1, no clock, move timeout 30 s, startup timeout 10 s, report every
 * 10 games, the shipped openings, English. Engines empty. */
void match_config_init(MatchConfig *cfg);

/* Parses one engine's KEY=VALUE words (cmd=, name=, arg=, dir=, option.NAME=VALUE) into *spec.
 * Options and the name are copied; argv and dir point into the words (cmd= is split at spaces in
 * place, so parse a cmd= word only once). false with
 * the offending word in *bad when a word is unknown or cmd= is missing. */
bool match_parse_engine(char **words, int count, EngineSpec *spec, const char **bad);

/* Parses a time control "SECONDS[+INCREMENT]" (decimals allowed, e.g. "10+0.1", "60", "1:30+1")
 * into milliseconds. false when malformed or the base is not positive. */
bool match_parse_tc(const char *text, int64_t *base_ms, int64_t *inc_ms);

/* Plays the match and prints progress lines and the final table to out. Returns 0 when the match
 * ran (whatever its result), 1 when it could not run (an engine does not start, an unreadable
 * opening file, an unwritable PGN or log file): the reason is then printed to stderr. */
int match_run(const MatchConfig *cfg, FILE *out);

#endif
