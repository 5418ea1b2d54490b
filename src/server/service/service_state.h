/* What a game's state says: its clocks and deadlines (service_clock.c, docs/api.md "Clocks") and the
 * state object and summaries as JSON (service_json.c). */
#ifndef SCHACH_SERVER_SERVICE_STATE_H
#define SCHACH_SERVER_SERVICE_STATE_H

#include "service_internal.h"

/* Whether the game's time runs now: a time control, both sides have moved, the game goes on. */
bool svc_clock_running(const SvcGame *g);
/* Live: what color has left at now (never below 0); the stored value when its clock stands. */
int64_t svc_time_left(const SvcGame *g, SchColor color, int64_t now);
/* Correspondence: when the side to move loses, or 0 when no deadline runs. */
int64_t svc_deadline(const SvcGame *g);
/* Whether a clock or deadline runs; then *ms is the time from now until it expires (<= 0: expired). */
bool svc_expiry(const SvcGame *g, int64_t now, int64_t *ms);
/* Updates rec's clock fields for a move by the side to move of g (before the move) at now: the mover's
 * time is charged and the increment added while the clock runs; plies_after is g's ply count after it. */
void svc_clock_after_move(const SvcGame *g, GameRecord *rec, int plies_after, int64_t now);
/* The same rule replayed from the stored moves' times (a takeback, the PGN's [%clk]): the ply that
 * made the count plies_after, by mover, played at at; clock and *started (when the running turn began,
 * 0 before the clock runs) as the record keeps them before it, updated. */
void svc_clock_replay(const TimeControl *time, int plies_after, SchColor mover, int64_t at, int64_t clock[2],
                      int64_t *started);
/* Stops the clock in rec when the game ends at now: the side to move is charged its time. */
void svc_clock_stop(const SvcGame *g, GameRecord *rec, int64_t now);

/* --- service_json.c: the state object, summaries --- */

/* Makes room for one more entry in g->moves_text; false when out of memory. */
bool svc_moves_reserve(SvcGame *g);
/* Appends the entry of legal move m, to be played in pos, to g->moves_text (room reserved before). */
void svc_moves_append(SvcGame *g, const SchPosition *pos, SchMove m, int64_t at_ms);
/* The state object of docs/api.md at now as compact JSON text (malloc'd, *len bytes); NULL when out
 * of memory. */
char *svc_state_text(const SvcGame *g, int64_t now, size_t *len);
/* obj (consumed) as compact JSON text with one more member name (a plain key) whose value is the JSON
 * text raw, e.g. {"state": <state text>}. malloc'd, NULL when out of memory. */
char *svc_json_with(json_t *obj, const char *name, const char *raw, size_t *len);
/* The summary of docs/api.md. New reference. */
json_t *svc_summary_json(const SvcGame *g);
/* json_dumps compactly; NULL when out of memory. Caller frees. */
char *svc_dump(const json_t *j, size_t *len);

#endif
