/* Changes of a game on their way through the store: made and submitted (service_change.c), applied or
 * refused when they come back (service_commit.c), and the same on several servers sharing one store
 * (service_cluster.c). */
#ifndef SCHACH_SERVER_SERVICE_CHANGE_H
#define SCHACH_SERVER_SERVICE_CHANGE_H

#include "service_internal.h"

/* A change of g by color for the request r (NULL: the service's own); NULL when out of memory. */
SvcPending *svc_pending_new(Req *r, SvcGame *g, ChangeKind kind, SchColor color);
/* Performs p's action on the game; false with err when libschach refuses it. */
bool svc_change_run(SvcGame *g, SvcPending *p, SchError *err);
/* Tries p on its game at now and fills p->op with the write it needs; the game is left as it was.
 * false with err when the change is refused. */
bool svc_change_prepare(SvcPending *p, int64_t now, SchError *err);
/* Hands p's write to the store; p's game counts as changing until it comes back. */
void svc_pending_submit(Service *svc, SvcPending *p);
void svc_pending_unlink(Service *svc, SvcPending *p);
/* Prepares and submits a change for r; on refusal answers with the matching error. */
uint64_t svc_change_start(Req *r, SvcPending *p);
/* The side to move's flag fell (or its deadline passed) and no timer has ended the game yet. */
bool svc_time_is_up(const SvcGame *g, int64_t now);
/* Ends g by time (a change of the service's own). */
void svc_timeout_start(Service *svc, SvcGame *g, int64_t now);
/* Tells every subscriber of g its new state (text of the state object). */
void svc_broadcast(Service *svc, SvcGame *g, const char *state);
/* Hands text to g's subscribers here, to those of one side only unless side is -1; those that
 * unsubscribed meanwhile are dropped after the round. */
void svc_deliver_to(Service *svc, SvcGame *g, int side, const char *text, size_t len);

/* --- service_commit.c: committed or failed writes --- */

/* Applies a committed change to the game in memory, answers and broadcasts it. */
void svc_commit_apply(Service *svc, SvcPending *p);
/* A write failed: the game stays as it was, the requester gets 503 storage. */
void svc_commit_failed(Service *svc, SvcPending *p);
/* An expiry (SvcPending.expiry) did not commit: the next one is tried a second later. */
void svc_expiry_failed(Service *svc);

/* --- service_cluster.c: several servers on one store --- */

/* Whether the store is known to be ahead of g's copy in memory. */
bool svc_game_stale(const SvcGame *g);
/* Reads g again from the store and, when the store is ahead, replaces the copy in memory (clocks,
 * subscribers and the registry's links stay), tells the subscribers and pokes the computer and the
 * rules. false when the read failed (g stays as it was). Not while a change of g is in the store. */
bool svc_refresh(Service *svc, SvcGame *g);
/* Whether another node changed g since this copy was read: the store is asked for g's rev (one small
 * read) and, when it is ahead, g is read again. true when g changed. Not while a change of g is in
 * the store; false on a single node. */
bool svc_catch_up(Service *svc, SvcGame *g);
/* svc_fetch for a read (a state, a PGN, a new watcher): in a cluster the answer holds what the store
 * holds now, not only what the announcements told this node so far. The announcement of another
 * node's commit may still be on its way when the player who made it, or a page that reconnected after
 * its node went away, asks here; so a copy in memory that looks current costs one small read of its
 * rev, and is read again when the store is ahead. While the store cannot say, the copy stands. */
SvcGame *svc_fetch_latest(Service *svc, const char *id, SvcError *err);
/* Before r is refused for what this node knows of g (no draw offer, not the player's turn, an unknown
 * secret, time up): when another node changed g meanwhile (svc_catch_up), r is handled once more on
 * the game read again and true returned (r is answered then); false: the refusal stands. Asks the
 * store once per request. */
bool svc_handled_again(Req *r, SvcGame *g);
/* The store refused p as made on an outdated copy: the game is refreshed and p's request handled once
 * more on it (a move already played by the same request answers as a duplicate), or answered 409
 * stale_ply. */
void svc_commit_conflict(Service *svc, SvcPending *p);
/* Announcements of other nodes' commits: copies behind the store are marked, watched ones refreshed. */
void svc_notices(Service *svc, StoreNotice *list);
/* The computer may think in g now: true when this node holds the lease for g's rev (or there is only
 * one node); otherwise a claim is started (or a retry scheduled) and false returned. */
bool svc_lease_held(Service *svc, SvcGame *g);
/* A claim came back from the store. */
void svc_lease_done(Service *svc, SvcPending *p);

#endif
