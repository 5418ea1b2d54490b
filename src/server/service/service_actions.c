/* The requests that change a game: create, join, move, draw, claim, resign, abort. Each validates
 * everything it can before anything is written; what it hands to the store is a change that will be
 * applied exactly as tried. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/explain.h"
#include "schach/fen.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

/* ------------------------------------------------------------------------------------------------ */
/* create: parse the body, build the game, submit its row */

typedef struct CreateSpec {
    const char *mode, *color, *fen;
    Variant variant;
    int position;             /* Chess960: the start position's number 0-959, -1 for one at random */
    const EngineLevel *level; /* mode "computer" */
    TimeControl time;
} CreateSpec;

/* Reads and checks the body of a create into *s; false after answering the error. body is freed
 * by the caller; the strings in *s point into it. */
static bool create_parse(Req *r, json_t *body, CreateSpec *s) {
    const char *level_id = NULL, *variant = NULL;
    json_t *time = NULL, *position = NULL;
    Envelope env = {0};
    json_error_t jerr;
    *s = (CreateSpec){"friend", "white", NULL, VARIANT_STANDARD, -1, NULL, {0}};
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s?s, s?o, s?s, s?s, s?s, s?o, " ENVELOPE_FMT, "mode", &s->mode, "color",
                       &s->color, "time", &time, "fen", &s->fen, "level", &level_id, "variant", &variant, "position",
                       &position, ENVELOPE_ARGS(env)) != 0) {
        svc_unpack_failed(r, json_incref(body), &jerr);
        return false;
    }
    bool known_variant = !variant || variant_of(variant, &s->variant), chess960 = s->variant == VARIANT_CHESS960;
    if (position && json_is_integer(position) && json_integer_value(position) >= 0 &&
        json_integer_value(position) < 960)
        s->position = (int)json_integer_value(position);
    bool computer = strcmp(s->mode, "computer") == 0;
    s->level = computer && level_id ? engine_level_find(level_id) : NULL;
    SvcError e = SVC_E_COUNT;
    const char *arg = NULL;
    char shown_level[64];
    if (strcmp(s->mode, "friend") != 0 && strcmp(s->mode, "local") != 0 && !computer)
        e = SVC_E_VALUE, arg = "mode";
    else if (strcmp(s->color, "white") != 0 && strcmp(s->color, "black") != 0 && strcmp(s->color, "random") != 0)
        e = SVC_E_VALUE, arg = "color";
    else if (computer && !level_id)
        e = SVC_E_MISSING, arg = "level";
    else if (!computer && level_id)
        e = SVC_E_UNKNOWN, arg = "level"; /* only games against the computer have a level */
    else if (computer && !s->level) {
        sch_err_text_arg(level_id, strlen(level_id), shown_level, sizeof shown_level);
        e = SVC_E_BAD_LEVEL, arg = shown_level;
    } else if (!known_variant)
        e = SVC_E_VALUE, arg = "variant";
    else if (!chess960 && position)
        e = SVC_E_UNKNOWN, arg = "position"; /* only a Chess960 game has a start position number */
    else if (position && s->position < 0)
        e = SVC_E_VALUE, arg = "position";
    else if (chess960 && s->fen)
        e = SVC_E_UNKNOWN, arg = "fen"; /* the variant gives the start position */
    if (e != SVC_E_COUNT) {
        svc_reply_error(r, e, arg);
        return false;
    }
    return svc_time_parse(r, time, &s->time);
}

/* Side color of rec for the requester, its secret into secret: the logged-in requester's account's
 * (ServiceRequest.account), else a new random one. */
static void take_side(Req *r, GameRecord *rec, SchColor color, char secret[SVC_SECRET_LEN + 1]) {
    const char *account = r->in->account;
    if (account && *account && strlen(account) < sizeof rec->account[color] && strcmp(rec->mode, "local") != 0 &&
        strcmp(rec->account[!color], account) != 0) {
        snprintf(rec->account[color], sizeof rec->account[color], "%s", account);
        rec->seat_epoch[color] = r->in->seat_epoch;
        secret_side(r->svc->site_key, rec->id, color, rec->seat_epoch[color], secret);
        secret_hash(secret, rec->secret_hash[color]);
    } else {
        secret_new(secret, rec->secret_hash[color]);
    }
}

/* The new game of spec s with a fresh id and secrets (into p); NULL after answering the error. */
static SvcGame *create_build(Req *r, const CreateSpec *s, SvcPending *p) {
    SvcGame *g = p->game;
    char chess960_fen[SCH_FEN_MAX];
    const char *fen = s->fen;
    if (s->variant == VARIANT_CHESS960) {
        SchPosition start;
        sch_pos_set_chess960(&start, s->position >= 0 ? s->position : (int)secret_random_below(960));
        sch_fen_write(&start, chess960_fen, sizeof chess960_fen);
        fen = chess960_fen;
    }
    if (fen) {
        SchError err;
        sch_err_clear(&err);
        char message[256];
        if (!svc_game_start(g, fen, SCH_GAME_DEAD_DEFER, &err)) {
            sch_err_format(&err, r->lang, message, sizeof message);
            svc_reply_error(r, SVC_E_FEN, message);
            return NULL;
        }
        if (sch_game_over(&g->game)) {
            svc_reply_error(r, SVC_E_FEN_OVER, NULL);
            return NULL;
        }
    }
    int64_t now = svc_now(r->svc);
    GameRecord *rec = &g->rec;
    /* 72 random bits: a clash with a finished game on disk (which the store would refuse) is not
     * worth a read per game. */
    do
        secret_random_id(rec->id, STORE_ID_LEN);
    while (svc_find(r->svc, rec->id));
    rec->created_ms = rec->updated_ms = now;
    char start[SCH_FEN_MAX], standard[SCH_FEN_MAX];
    SchPosition std_pos;
    sch_pos_set_start(&std_pos);
    sch_fen_write(&g->game.start, start, sizeof start);
    sch_fen_write(&std_pos, standard, sizeof standard);
    if (strcmp(start, standard) != 0)
        snprintf(rec->start_fen, sizeof rec->start_fen, "%s", start);
    snprintf(rec->mode, sizeof rec->mode, "%s", s->mode);
    rec->time = s->time;
    if (rec->time.type == TIME_LIVE)
        rec->clock_ms[SCH_WHITE] = rec->clock_ms[SCH_BLACK] = (int64_t)rec->time.minutes * 60000;
    rec->draw_offer = -1;
    rec->invite_color = -1;
    rec->plies = 0;
    SchColor color = strcmp(s->color, "black") == 0   ? SCH_BLACK
                     : strcmp(s->color, "white") == 0 ? SCH_WHITE
                                                      : (SchColor)secret_random_below(2);
    p->color = color;
    take_side(r, rec, color, p->secret);
    if (strcmp(s->mode, "local") == 0) {
        secret_new(p->secret2, rec->secret_hash[!color]);
    } else if (strcmp(s->mode, "computer") == 0) {
        /* The computer's side has no secret: nobody can move for it, and there is nothing to join. */
        snprintf(rec->level, sizeof rec->level, "%s", s->level->id);
        g->level = s->level;
        g->computer = !color;
    } else {
        secret_new(p->invite, rec->invite_hash);
        rec->invite_color = !color;
    }
    return g;
}

/* Hands the new game's row to the store: it joins the registry once committed. */
static void create_submit(Req *r, SvcPending *p) {
    memset(&p->op, 0, sizeof p->op);
    p->op.create = true;
    p->op.record = p->game->rec;
    svc_pending_submit(r->svc, p);
}

uint64_t svc_action_create(Req *r) {
    static const Field fields[] = {{"mode", 's', false},    {"color", 's', false}, {"time", 'o', false},
                                   {"fen", 's', false},     {"level", 's', false}, {"variant", 's', false},
                                   {"position", 'i', false}};
    json_t *body = svc_body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    CreateSpec spec;
    if (!create_parse(r, body, &spec)) {
        json_decref(body);
        return r->ticket;
    }
    SvcGame *g = svc_game_new();
    SvcPending *p = g ? svc_pending_new(r, g, CH_CREATE, SCH_WHITE) : NULL;
    if (!p) {
        svc_game_free(g);
        json_decref(body);
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    }
    if (!create_build(r, &spec, p)) {
        svc_pending_free(p);
        svc_game_free(g);
        json_decref(body);
        return r->ticket;
    }
    json_decref(body);
    create_submit(r, p);
    return r->ticket;
}

/* ------------------------------------------------------------------------------------------------ */
/* join */

uint64_t svc_action_join(Req *r, SvcGame *g) {
    static const Field fields[] = {{"invite", 's', true}};
    json_t *body = svc_body_parse(r, fields, 1);
    if (!body)
        return r->ticket;
    const char *invite = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s:s, " ENVELOPE_FMT, "invite", &invite, ENVELOPE_ARGS(env)) != 0) {
        svc_unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    bool valid = g->rec.invite_color >= 0 && secret_matches(invite, g->rec.invite_hash);
    json_decref(body);
    /* Who holds no valid invitation learns nothing else about the game; then an ended game takes
     * nobody in, and only then does a change in flight ask for patience. */
    if (!valid)
        return svc_reply_error(r, SVC_E_BAD_INVITE, NULL);
    if (svc_is_over(g))
        return svc_reply_error(r, SVC_E_GAME_OVER, NULL);
    if (g->pending)
        return svc_reply_error(r, SVC_E_BUSY, NULL);
    SchColor color = (SchColor)g->rec.invite_color;
    SvcPending *p = svc_pending_new(r, g, CH_JOIN, color);
    if (!p)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    memset(&p->op, 0, sizeof p->op);
    p->op.update = true;
    p->op.record = g->rec;
    p->op.record.updated_ms = svc_now(r->svc);
    p->op.record.plies = g->game.ply_count;
    take_side(r, &p->op.record, color, p->secret);
    memset(p->op.record.invite_hash, 0, STORE_HASH_LEN);
    p->op.record.invite_color = -1;
    svc_pending_submit(r->svc, p);
    return r->ticket;
}

/* ------------------------------------------------------------------------------------------------ */
/* The checks every change of a running game makes */

/* Who holds secret in g, or -1 after answering 403; -1 after answering 409 busy while another change
 * of g is being committed. */
static int actor_check(Req *r, SvcGame *g, const char *secret) {
    /* -1 also when the secret is missing: 403 like a wrong one (docs/api.md). */
    int color = svc_side_of(r->svc, g, secret);
    if (color < 0) {
        /* While an invitation is open here, another node may have given the side out already. */
        if (g->rec.invite_color < 0 || !svc_handled_again(r, g))
            svc_reply_error(r, SVC_E_BAD_SECRET, NULL);
        return -1;
    }
    if (g->pending) {
        svc_reply_error(r, SVC_E_BUSY, NULL);
        return -1;
    }
    return color;
}

/* false after answering 409 game_over when g has ended, also when its time ran out but the timer has
 * not ended it yet: then the game is ended now instead of accepting a late change. */
static bool running_check(Req *r, SvcGame *g) {
    if (svc_is_over(g)) {
        svc_reply_error(r, SVC_E_GAME_OVER, NULL);
        return false;
    }
    int64_t now = svc_now(r->svc);
    if (svc_time_is_up(g, now)) {
        if (svc_handled_again(r, g))
            return false; /* another node took a move in time that this copy had not heard of */
        if (now >= g->flag_retry_ms)
            svc_timeout_start(r->svc, g, now);
        svc_reply_error(r, SVC_E_GAME_OVER, NULL);
        return false;
    }
    return true;
}

/* Both checks, for actions other than moves. */
static int change_check(Req *r, SvcGame *g, const char *secret) {
    int color = actor_check(r, g, secret);
    return color >= 0 && running_check(r, g) ? color : -1;
}

static int claim_kind(const char *name) {
    if (strcmp(name, "threefold") == 0)
        return SCH_CLAIM_THREEFOLD;
    if (strcmp(name, "fifty") == 0)
        return SCH_CLAIM_FIFTY;
    if (strcmp(name, "any") == 0)
        return 0;
    return -1;
}

/* ------------------------------------------------------------------------------------------------ */
/* move */

/* Whether text, read in the position before g's last move, is that move by color: a repeated request. */
static bool repeats_last_move(const SvcGame *g, SchColor color, const char *text, SchLang lang) {
    int n = g->game.ply_count;
    if (n == 0)
        return false;
    const SchGamePly *last = &g->game.plies[n - 1];
    SchPosition before = g->game.pos;
    sch_pos_unmake(&before, last->move, &last->undo);
    return sch_pos_turn(&before) == color && sch_move_parse(&before, text, lang, NULL) == last->move;
}

/* The answer to a move sent again at ply n - 1 (a retry after a lost answer): the same result. */
static uint64_t move_repeated(Req *r, SvcGame *g, SchColor color, const char *text) {
    if (!repeats_last_move(g, color, text, r->lang))
        return svc_reply_error(r, SVC_E_STALE, NULL);
    size_t len = 0;
    char *reply = svc_with_state(r->svc, g, json_pack("{s:b}", "duplicate", true), &len);
    svc_send_text(r->reply, r->ctx, 200, reply, len, g->game.ply_count, true, false);
    return r->ticket;
}

/* The player names a later ply than this copy has: another node committed a move this one has not heard
 * of yet. Reads the game again; false when the store cannot be read. */
static bool ahead_refresh(Service *svc, SvcGame *g) {
    if (g->store_rev <= g->rec.rev)
        g->store_rev = g->rec.rev + 1;
    return svc_refresh(svc, g);
}

uint64_t svc_action_move(Req *r, SvcGame *g) {
    static const Field fields[] = {
        {"secret", 's', false}, {"ply", 'i', true}, {"move", 's', true}, {"claim", 's', false}};
    json_t *body = svc_body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *text = NULL, *claim = NULL;
    json_int_t ply = 0;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s:I, s:s, s?s, " ENVELOPE_FMT, "secret", &secret, "ply", &ply, "move",
                       &text, "claim", &claim, ENVELOPE_ARGS(env)) != 0) {
        svc_unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    int kind = claim ? claim_kind(claim) : -1;
    int color = -1;
    uint64_t ticket = r->ticket;
    if (claim && kind < 0)
        svc_reply_error(r, SVC_E_VALUE, "claim");
    else if (ply < 0 || ply > 1000000)
        svc_reply_error(r, SVC_E_VALUE, "ply");
    else if ((color = actor_check(r, g, secret)) < 0) {
        /* answered */
    } else if (ply > g->game.ply_count && r->svc->cluster && !ahead_refresh(r->svc, g)) {
        svc_reply_error(r, SVC_E_READ, NULL);
    } else if (ply == g->game.ply_count - 1)
        ticket = move_repeated(r, g, (SchColor)color, text);
    else if (ply != g->game.ply_count)
        svc_reply_error(r, SVC_E_STALE, NULL);
    else if (!running_check(r, g)) {
        /* answered */
    } else if ((SchColor)color != sch_pos_turn(sch_game_position(&g->game)))
        svc_reply_error(r, SVC_E_NOT_YOUR_TURN, NULL);
    else {
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_game_parse_move(&g->game, text, r->lang, &err);
        SvcPending *p = m != SCH_MOVE_NONE ? svc_pending_new(r, g, CH_MOVE, (SchColor)color) : NULL;
        if (m == SCH_MOVE_NONE) {
            char message[512];
            sch_err_format(&err, r->lang, message, sizeof message);
            svc_reply_error(r, SVC_E_ILLEGAL, message);
        } else if (!p || !svc_moves_reserve(g)) {
            svc_pending_free(p);
            svc_reply_error(r, SVC_E_INTERNAL, NULL);
        } else {
            p->move = m;
            p->claim = kind;
            ticket = svc_change_start(r, p);
        }
    }
    json_decref(body);
    return ticket;
}

/* ------------------------------------------------------------------------------------------------ */
/* draw, claim, resign, abort */

/* Reads a body of a "secret" and, unless member is NULL, one required string member into *value; the
 * strings live as long as *body. false after answering the error. */
static bool secret_body(Req *r, const char *member, json_t **body, const char **secret, const char **value) {
    const Field fields[] = {{"secret", 's', false}, {member, 's', true}};
    *body = svc_body_parse(r, fields, member ? 2 : 1);
    if (!*body)
        return false;
    *secret = NULL;
    Envelope env = {0};
    json_error_t jerr;
    int rc = member ? json_unpack_ex(*body, &jerr, 0, "{s?s, s:s, " ENVELOPE_FMT, "secret", secret, member, value,
                                     ENVELOPE_ARGS(env))
                    : json_unpack_ex(*body, &jerr, 0, "{s?s, " ENVELOPE_FMT, "secret", secret, ENVELOPE_ARGS(env));
    if (rc != 0) {
        svc_unpack_failed(r, *body, &jerr);
        return false;
    }
    return true;
}

int svc_offer_action(Req *r, SvcGame *g, DrawAction *out) {
    json_t *body;
    const char *secret, *action;
    if (!secret_body(r, "action", &body, &secret, &action))
        return -1;
    DrawAction d = strcmp(action, "offer") == 0     ? DRAW_OFFER
                   : strcmp(action, "accept") == 0  ? DRAW_ACCEPT
                   : strcmp(action, "decline") == 0 ? DRAW_DECLINE
                                                    : (DrawAction)-1;
    if ((int)d < 0) {
        json_decref(body);
        svc_reply_error(r, SVC_E_VALUE, "action");
        return -1;
    }
    int color = change_check(r, g, secret);
    json_decref(body);
    *out = d;
    return color;
}

uint64_t svc_action_draw(Req *r, SvcGame *g) {
    DrawAction d;
    int color = svc_offer_action(r, g, &d);
    if (color < 0)
        return r->ticket;
    if (d != DRAW_OFFER && g->game.draw_offer != !color)
        return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_NO_OFFER, NULL);
    SvcPending *p = svc_pending_new(r, g, CH_DRAW, (SchColor)color);
    if (!p)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    p->draw = d;
    return svc_change_start(r, p);
}

uint64_t svc_action_claim(Req *r, SvcGame *g) {
    json_t *body;
    const char *secret, *kind_name;
    if (!secret_body(r, "kind", &body, &secret, &kind_name))
        return r->ticket;
    int kind = claim_kind(kind_name);
    if (kind < 0) {
        json_decref(body);
        return svc_reply_error(r, SVC_E_VALUE, "kind");
    }
    int color = change_check(r, g, secret);
    json_decref(body);
    if (color < 0)
        return r->ticket;
    if ((SchColor)color != sch_pos_turn(sch_game_position(&g->game)))
        return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_NOT_YOUR_TURN, NULL);
    /* An incorrect claim would count as a draw offer (9.1.2.4); here it is refused and changes nothing. */
    int holds = sch_game_claims(&g->game);
    if (!(holds & (kind ? kind : SCH_CLAIM_THREEFOLD | SCH_CLAIM_FIFTY)))
        return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_NO_CLAIM, NULL);
    SvcPending *p = svc_pending_new(r, g, CH_CLAIM, (SchColor)color);
    if (!p)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    p->claim = kind;
    return svc_change_start(r, p);
}

int svc_change_check(Req *r, SvcGame *g, const char *secret) { return change_check(r, g, secret); }

uint64_t svc_action_secret_only(Req *r, SvcGame *g, ChangeKind kind) {
    json_t *body;
    const char *secret;
    if (!secret_body(r, NULL, &body, &secret, NULL))
        return r->ticket;
    int color = change_check(r, g, secret);
    json_decref(body);
    if (color < 0)
        return r->ticket;
    if (kind == CH_ABORT && g->game.ply_count >= 2)
        return svc_reply_error(r, SVC_E_CANNOT_ABORT, NULL);
    SvcPending *p = svc_pending_new(r, g, kind, (SchColor)color);
    if (!p)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    return svc_change_start(r, p);
}
