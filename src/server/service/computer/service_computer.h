/* The service's work on the computer's workers (computer.h): the computer player's plumbing
 * (service_computer.c), the rules' analyses off the event loop (service_rules.c), and how the computer
 * player behaves (service_computer_policy.c, docs/api.md). */
#ifndef SCHACH_SERVER_SERVICE_COMPUTER_H
#define SCHACH_SERVER_SERVICE_COMPUTER_H

#include "service/service_internal.h"

/* Whatever the computer has to do in g now: answer a draw offer made on the opponent's turn, play a
 * search result that waited, or start thinking. Called after every change of a game against it. */
void svc_computer_poke(Service *svc, SvcGame *g);
/* A search came back: kept for its game when the game still waits for it, else dropped. */
void svc_computer_result(Service *svc, const ComputerJob *job);

/* service_rules.c: the rules' analyses off the event loop. */
/* Starts what g waits for: the full dead-position analysis of its position, or the change that ends
 * it as dead once that analysis came back. Call whenever g may have changed (like svc_computer_poke). */
void svc_rules_poke(Service *svc, SvcGame *g);
/* A game read from the store: from now on its dead positions are deferred to the workers; a game in
 * play whose position is dead by the rules (an older server let it go on) is ended at the next poke. */
void svc_rules_loaded(SvcGame *g);
/* A JOB_DEAD or JOB_FLAG came back. */
void svc_rules_result(Service *svc, const ComputerJob *job);
/* A live game's flag fell: true when the 6.9 verdict for its position is at hand (in g->flag_*);
 * otherwise the analysis is started (once) and svc_timeout_start is called again when it is done. */
bool svc_flag_judged(Service *svc, SvcGame *g, int64_t now);

/* --- service_computer_policy.c: how the computer player behaves (docs/api.md) --- */

typedef enum { SVC_ACT_MOVE, SVC_ACT_CLAIM, SVC_ACT_ACCEPT_DRAW } SvcComputerAct;

/* The level named by a game record (NULL when the record has none or names an unknown one), and the
 * Color the computer plays in it: the side nobody holds (-1 when the game is not against it). */
const EngineLevel *svc_computer_level(const GameRecord *rec);
int svc_computer_color(const GameRecord *rec);
/* The limits of the computer's next search in g at now: from the clock and increment in live games,
 * else the level's thinking budget (or cfg->think_ms); cfg->depth caps every search. */
void svc_computer_limits(const SvcGame *g, const ServiceComputerConfig *cfg, int64_t now, EngineLimits *out);
/* What the computer does with its search result (best move, score from its side) on its turn in g
 * (the engine's draw policy, engine_draw_choice): accept the opponent's standing draw offer, claim a
 * draw, or play the move; *claim receives the claim to make with the move (0: any) or -1. */
SvcComputerAct svc_computer_choose(const SvcGame *g, SchMove best, int score, int *claim);
/* Whether the computer accepts the opponent's draw offer in g now, when it is the opponent's turn:
 * by its latest evaluation, else by the static evaluation of the position. */
bool svc_computer_accepts_offer(const SvcGame *g);
/* The state's "computer" member: null, or its color, level id, names and Elo. New reference. */
json_t *svc_computer_json(const SvcGame *g);
/* The computer's name in a PGN, e.g. "schach (Club player)", into out. */
void svc_computer_name(const EngineLevel *level, SchLang lang, char *out, size_t size);
/* GET /api/levels: {"levels":[{id, name, name_de, elo}, ...]}. New reference. */
json_t *svc_levels_json(void);

#endif
