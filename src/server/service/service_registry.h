/* The service's games in memory (service_registry.c): by id and by slot, the cache of finished games,
 * reads from the store, the recent list and the timer list. */
#ifndef SCHACH_SERVER_SERVICE_REGISTRY_H
#define SCHACH_SERVER_SERVICE_REGISTRY_H

#include "service_internal.h"

/* A zeroed game at the standard start (computer -1); NULL when out of memory. */
SvcGame *svc_game_new(void);
/* Frees a game that is not registered (or was just unregistered). NULL is fine. */
void svc_game_free(SvcGame *g);
/* Whether something holds g in memory: it is in play, watched, changing or thought about. */
bool svc_game_pinned(const SvcGame *g);
/* The game with this id in memory, or NULL (the store is not asked). */
SvcGame *svc_find(const Service *svc, const char *id);
/* The game with this id: from memory, else read from the store and kept (in play: for good; finished:
 * in the cache). NULL with *err (SVC_E_NOT_FOUND, SVC_E_READ, SVC_E_INTERNAL) when it cannot. */
SvcGame *svc_fetch(Service *svc, const char *id, SvcError *err);
/* The game registered in slot (a subscription's), or NULL. */
SvcGame *svc_slot_game(const Service *svc, uint32_t slot);
/* Adds a new game to memory; false when out of memory. */
bool svc_register(Service *svc, SvcGame *g);
/* After g was used or changed: a finished game nothing holds goes to the front of the cache, a held
 * one out of it. Frees nothing (see svc_leave). */
void svc_touch(Service *svc, SvcGame *g);
/* Every public entry point brackets its work with these: on leaving the outermost one, the cache is
 * trimmed to its size (least recently touched games freed first). */
void svc_enter(Service *svc);
void svc_leave(Service *svc);
/* Starts g's game from fen (sch_game_init_fen_mode); a Chess960 start array other than the standard one
 * is marked Chess960 (pos->chess960) even where its castling looks standard. false with err set. */
bool svc_game_start(SvcGame *g, const char *fen, SchGameDeadMode mode, SchError *err);
/* g's variant: Chess960 when its start is (as svc_game_start marks it), else standard chess. */
Variant svc_game_variant(const SvcGame *g);
/* Builds a game from its stored record and moves; NULL with err filled when they cannot be replayed. */
SvcGame *svc_game_build(const GameRecord *record, const StoredMove *moves, int count, char *err, size_t err_size);
/* Reads every game in play and the recent list at start-up; false with err filled. */
bool svc_registry_load(Service *svc, char *err, size_t err_size);
/* Frees every game in memory and the registry's tables. */
void svc_registry_free(Service *svc);
/* Keeps g (which just finished) in the recent list when it is among the SVC_RECENT_MAX newest. */
void svc_recent_insert(Service *svc, const SvcGame *g);
/* Puts g into the timer list or takes it out, as its clock runs or not; the same for the lists of games
 * nobody began (svc_unstarted_update). */
void svc_timer_update(Service *svc, SvcGame *g);
/* Whether g is in play and not both sides have moved: it expires when nothing happens for a while. */
bool svc_unstarted(const SvcGame *g);
/* Puts g into its list of games nobody began, at the place of its last change, or takes it out. */
void svc_unstarted_update(Service *svc, SvcGame *g);

#endif
