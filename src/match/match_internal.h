/* Shared inside the match runner: one played game, its end, the running tally and the reports. */
#ifndef SCHACH_MATCH_INTERNAL_H
#define SCHACH_MATCH_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>

#include "match.h"
#include "match_engine.h"
#include "match_openings.h"
#include "match_stats.h"
#include "schach/game.h"

/* Why a game ended, beyond the Game's own termination. */
typedef enum {
    END_NONE = 0,
    END_RULES,      /* checkmate, stalemate, dead position, fivefold, 75 moves (the rules core) */
    END_CLAIM,      /* a claimable draw the runner claimed at once */
    END_TIME,       /* the clock ran out (more than the time margin below zero) */
    END_NO_ANSWER,  /* no bestmove within the move timeout (no clock) */
    END_CRASH,      /* the engine exited or closed its output */
    END_STARTUP,    /* the engine did not start or did not answer uci/isready */
    END_ILLEGAL,    /* an illegal or malformed bestmove */
    END_ADJ_RESIGN, /* adjudicated by scores: a loss */
    END_ADJ_DRAW,   /* adjudicated by scores: a draw */
    END_ABORTED     /* the match was interrupted; the game does not count */
} EndReason;

/* Protocol errors counted per engine. */
typedef enum { PERR_ILLEGAL = 0, PERR_TIME, PERR_CRASH, PERR_STARTUP, PERR_NB } ProtocolError;

/* What an engine said about its move (for PGN comments and adjudication). */
typedef struct MoveNote {
    bool engine; /* false for opening (book) moves */
    bool has_score;
    bool is_mate;
    int score; /* centipawns from the mover's view, or moves to mate (negative: being mated) */
    int depth;
    int64_t time_ms;
} MoveNote;

typedef struct GameRecord {
    int index;            /* 0-based game number */
    int opening;          /* index into the opening set */
    SchColor first_color; /* colour of the first engine (cfg->engines[0]) */
    SchGame game;
    MoveNote *notes; /* one per ply of game */
    int note_capacity;
    EndReason reason;
    int culprit;                         /* engine index (0 or 1) whose error ended the game, or -1 */
    char detail[64];                     /* the illegal move text */
    int64_t flag_used_ms, flag_clock_ms; /* on a time forfeit: the move's time and the clock it had */
    char date[11];                       /* YYYY.MM.DD when the game started */
} GameRecord;

/* One game slot: its two engine processes (index = engine number), restarted when they fail. */
typedef struct Slot {
    int number; /* 1-based, for the log */
    EngineProc proc[2];
    bool running[2];
} Slot;

typedef struct MatchShared {
    const MatchConfig *cfg;
    char names[2][MATCH_NAME_MAX];
    MatchLog log;
    atomic_int abort_now; /* Ctrl-C: stop the games in progress */
} MatchShared;

/* Plays game rec->index from opening op in slot; fills rec (rec->game is initialised here; free it
 * with match_record_free). */
void match_play_game(MatchShared *sh, Slot *slot, const Opening *op, GameRecord *rec);
void match_record_free(GameRecord *rec);

/* Writes rec as PGN (export format, English letters, optional comments); false on a write error. */
bool match_write_pgn(FILE *out, const MatchShared *sh, const GameRecord *rec);

/* The PGN Termination value of a finished game: normal, time forfeit, rules infraction,
 * adjudication, abandoned or unterminated. */
const char *match_termination_tag(const GameRecord *rec);

/* One sentence on how the game ended, in lang ("Black exceeded the time – White wins 1-0"). */
void match_describe_end(const MatchShared *sh, const GameRecord *rec, SchLang lang, char *buf, size_t size);

/* The running result from the first engine's view. */
typedef struct Tally {
    int wins, losses, draws;
    int penta[STATS_PENTA];
    signed char *pair_first; /* per opening pair: half points of the first finished game + 1, 0 none */
    int errors[2][PERR_NB];
    int aborted;
} Tally;

/* Adds a finished game (not an aborted one) to t. */
void tally_add(Tally *t, const GameRecord *rec);

/* Prints the statistics block (score, Elo, LOS, SPRT, protocol errors). */
void match_print_stats(FILE *out, const MatchShared *sh, const Tally *t);
/* The SPRT decision so far: -1 H0 accepted, 1 H1 accepted, 0 continue (also when SPRT is off). */
/* The SPRT decides only from this many finished pairs on: the LLR's normal approximation takes the
 * variance from the pairs themselves, and a handful of equal results (with the 0.001 weights of the
 * empty cells) makes it tiny and the LLR huge: one lost pair used to accept H0 after two games. */
#define MATCH_SPRT_MIN_PAIRS 10
int match_sprt_decision(const MatchConfig *cfg, const Tally *t, double *llr);

#endif
