/* The requests: their bodies (service_body.c) and the actions that answer them (service_actions.c,
 * service_read.c, service_rematch.c). */
#ifndef SCHACH_SERVER_SERVICE_REQUESTS_H
#define SCHACH_SERVER_SERVICE_REQUESTS_H

#include "service_internal.h"

typedef struct Field {
    const char *name;
    char type; /* 's' string, 'i' integer, 'o' object, '*' anything */
    bool required;
} Field;

/* The WebSocket envelope, accepted (and ignored) in every body: put ENVELOPE_FMT at the end of a
 * json_unpack format and ENVELOPE_ARGS(e) at the end of its arguments. */
#define ENVELOPE_FMT     "s?s, s?s, s?o, s?s !}"
#define ENVELOPE_ARGS(e) "type", &(e).type, "game", &(e).game, "id", &(e).id, "lang", &(e).lang

typedef struct Envelope {
    const char *type, *game, *lang;
    json_t *id;
} Envelope;

/* Parses r's body as an object with fields; NULL after answering the error. Sets r->lang from a
 * "lang" member unless the query chose the language. */
json_t *svc_body_parse(Req *r, const Field *fields, size_t n);
/* Checks members of obj against fields (unknown, missing, wrong type); prefix ("time.") qualifies
 * nested names. true, or false after answering the error. */
bool svc_members_check(Req *r, json_t *obj, const Field *fields, size_t n, bool with_envelope, const char *prefix);
/* Answers the error of a strict unpack (out-of-range integers jansson refuses) and frees obj. */
bool svc_unpack_failed(Req *r, json_t *obj, const json_error_t *jerr);

/* The create body's "time" member (NULL: none): every member present only where its type allows and
 * within its range. true, or false after answering 400 naming the member. */
bool svc_time_parse(Req *r, json_t *time, TimeControl *t);

/* --- service_actions.c, service_read.c: the requests --- */

uint64_t svc_action_create(Req *r);
uint64_t svc_action_join(Req *r, SvcGame *g);
uint64_t svc_action_move(Req *r, SvcGame *g);
uint64_t svc_action_draw(Req *r, SvcGame *g);
uint64_t svc_action_claim(Req *r, SvcGame *g);
uint64_t svc_action_secret_only(Req *r, SvcGame *g, ChangeKind kind); /* resign, abort */
uint64_t svc_action_state(Req *r, SvcGame *g);
uint64_t svc_action_pgn(Req *r, SvcGame *g);
uint64_t svc_action_positions(Req *r, SvcGame *g);
uint64_t svc_action_list(Req *r);
uint64_t svc_action_recent(Req *r);
uint64_t svc_action_rematch(Req *r, SvcGame *g); /* service_rematch.c */
/* service_actions.c, for the actions in files of their own: who holds secret in g while g goes on and
 * nothing of it is being saved, -1 after answering (403 bad_secret, 409 busy or game_over). */
int svc_change_check(Req *r, SvcGame *g, const char *secret);
/* A draw or takeback request's body {"secret", "action": "offer"|"accept"|"decline"}: the requester's
 * colour with the action in *out, or -1 when the request was refused (already answered). */
int svc_offer_action(Req *r, SvcGame *g, DrawAction *out);
uint64_t svc_action_takeback(Req *r, SvcGame *g); /* service_takeback.c */
uint64_t svc_action_premove(Req *r, SvcGame *g);  /* service_premove.c */
/* service_takeback.c: the plies of an accepted takeback taken from g (CH_TAKEBACK in svc_change_run),
 * and the row it leaves (clocks as they were before the first of them, no offers, the moves cut). */
bool svc_takeback_run(SvcGame *g, const SvcPending *p, SchError *err);
void svc_takeback_record(const SvcGame *g, const SvcPending *p, GameRecord *rec);
/* A committed takeback: g->moves_text loses the entries of the plies taken back (g is after them). */
void svc_takeback_committed(SvcGame *g);
/* service_premove.c: plays or drops g's premove once its ply has come (after every commit and refresh). */
void svc_premove_poke(Service *svc, SvcGame *g);
/* A rematch change came back committed: the new game registered, the old one's row taken, both told. */
void svc_rematch_committed(Service *svc, SvcPending *p);
/* The state's "rematch" member: null, or {"offered_by","declined_by","game"}. New reference. */
json_t *svc_rematch_json(const SvcGame *g);

#endif
