/* A game created (POST /api/games) or joined (POST /api/games/{id}/join) by a logged-in player: the
 * worker reads the session's account, then the service creates or joins with the requester's side the
 * account's (ServiceRequest.account), so that the game is on the player's page, in "my games" and in
 * "your turn" like a lobby game (issue 24). The service's answer passes through unchanged. Without a
 * valid session the request goes to the service as it came (anonymous). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "accounts_internal.h"

uint64_t accounts_game_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx) {
    if (!a->service || (req->game_action != ACTION_CREATE && req->game_action != ACTION_JOIN) ||
        (req->game_action == ACTION_JOIN && (!req->game || strlen(req->game) > STORE_ID_LEN)))
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    AccJob *j = accounts_job_new(a, req, reply, ctx);
    if (!j)
        return accounts_answer_error(a, reply, ctx, ACC_E_INTERNAL, req->lang, NULL, 0);
    j->game_action = req->game_action;
    if (req->game)
        snprintf(j->game_id, sizeof j->game_id, "%s", req->game);
    j->game_body = req->body ? strdup(req->body) : NULL;
    if ((req->body && !j->game_body) || !accounts_worker_submit(a, j)) {
        bool busy = !req->body || j->game_body;
        accounts_job_free(j);
        return accounts_answer_error(a, reply, ctx, busy ? ACC_E_BUSY : ACC_E_INTERNAL, req->lang, NULL, busy ? 1 : 0);
    }
    return j->ticket;
}

/* The worker: who is logged in (nobody when the session is unknown or ended; only a failing store
 * fails the request). */
void accounts_game_run(Accounts *a, AccJob *j) {
    AccountRow row;
    j->username[0] = '\0';
    if (accounts_session_account(a, j, &row, false)) {
        snprintf(j->username, sizeof j->username, "%s", row.name);
        j->seat_epoch = row.seat_epoch;
    }
}

static void unlink_in_service(Accounts *a, AccJob *j) {
    for (AccJob **p = &a->in_service; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            return;
        }
}

static void on_answer(void *ctx, const ServiceAnswer *ans) {
    AccJob *j = ctx;
    unlink_in_service(j->owner, j);
    AccountsAnswer out = {.status = ans->status, .body = ans->body, .len = ans->len, .content_type = ans->content_type};
    if (!j->cancelled)
        j->reply(j->ctx, &out);
    if (j->asking) /* answered inside service_handle: accounts_game_finish frees it after */
        j->answered = true;
    else
        accounts_job_free(j);
}

void accounts_game_finish(Accounts *a, AccJob *j) {
    j->owner = a;
    j->next = a->in_service;
    a->in_service = j;
    ServiceRequest req = {.action = j->game_action,
                          .game = j->game_action == ACTION_JOIN ? j->game_id : NULL,
                          .body = j->game_body,
                          .lang = j->lang,
                          .account = j->username,
                          .seat_epoch = j->seat_epoch};
    /* The service may answer before service_handle returns (a refusal): the job outlives that answer. */
    j->asking = true;
    uint64_t ticket = service_handle(a->service, &req, on_answer, j);
    j->asking = false;
    if (j->answered)
        accounts_job_free(j);
    else
        j->service_ticket = ticket;
}
