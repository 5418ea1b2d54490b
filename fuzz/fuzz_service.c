/* libFuzzer harness for the game service's request handling (docs/api.md): arbitrary bodies for
 * every action against a game that exists, with a store that commits at once.
 *
 * Input: the first byte picks the action, the rest is the request body. In the body, "@w" and "@b"
 * stand for the white and black secrets and "@i" for the invitation, so the fuzzer reaches the paths
 * behind a valid secret. Every request must be answered exactly once (after the wake for changes)
 * with a known status and a JSON body (PGN for ACTION_PGN with 200).
 *
 * A first byte from 128 on hands a body that is JSON to the service parsed (ServiceRequest.json), as
 * the WebSocket does: the object must come back unchanged, and without the service's references.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "service/service.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A store that commits every operation the moment it is submitted. */
typedef struct InstantStore {
    Store base;
    StoreOp *done, **tail;
} InstantStore;

static bool instant_load(Store *s, StoreEachGame each, void *ctx, char *err, size_t n) {
    (void)s, (void)each, (void)ctx, (void)err, (void)n;
    return true;
}
/* Nothing is stored for good: no finished game is ever found again. */
static int instant_get(Store *s, const char *id, StoreEachGame each, void *ctx, char *err, size_t n) {
    (void)s, (void)id, (void)each, (void)ctx, (void)err, (void)n;
    return 0;
}
static int instant_recent(Store *s, int max, StoreEachGame each, void *ctx, char *err, size_t n) {
    (void)s, (void)max, (void)each, (void)ctx, (void)err, (void)n;
    return 0;
}
static void instant_submit(Store *s, StoreOp *op) {
    InstantStore *st = (InstantStore *)s;
    op->ok = true;
    op->next = NULL;
    *st->tail = op;
    st->tail = &op->next;
}
static StoreOp *instant_take_done(Store *s) {
    InstantStore *st = (InstantStore *)s;
    StoreOp *list = st->done;
    st->done = NULL;
    st->tail = &st->done;
    return list;
}
static void instant_close(Store *s) { (void)s; }
static const StoreVtbl INSTANT = {
    .load = instant_load,
    .get = instant_get,
    .recent = instant_recent,
    .submit = instant_submit,
    .take_done = instant_take_done,
    .close = instant_close,
};

typedef struct Answer {
    int calls, status;
    char *body;
} Answer;

static void on_reply(void *ctx, const ServiceAnswer *answer) {
    Answer *a = ctx;
    a->calls++;
    a->status = answer->status;
    free(a->body);
    a->body = malloc(answer->len + 1);
    if (!a->body)
        abort();
    memcpy(a->body, answer->body, answer->len);
    a->body[answer->len] = '\0';
}

/* json, when not NULL, goes instead of body. */
static Answer ask_json(Service *svc, ServiceAction action, const char *game, const char *body, json_t *json) {
    Answer a = {0, 0, NULL};
    ServiceRequest req = {.action = action, .game = game, .body = body, .json = json, .ids = game, .lang = SCH_LANG_EN};
    service_handle(svc, &req, on_reply, &a);
    service_on_wake(svc);
    return a;
}

static Answer ask(Service *svc, ServiceAction action, const char *game, const char *body) {
    return ask_json(svc, action, game, body, NULL);
}

static char *copy_member(const char *json, const char *key) {
    json_t *root = json_loads(json, 0, NULL);
    const char *value = root ? json_string_value(json_object_get(root, key)) : NULL;
    char *out = value ? strdup(value) : NULL;
    json_decref(root);
    return out;
}

/* body with @w, @b, @i replaced by the secrets; caller frees. */
static char *substitute(const char *body, const char *w, const char *b, const char *i) {
    size_t cap = strlen(body) * 50 + 1, n = 0;
    char *out = malloc(cap);
    if (!out)
        abort();
    for (const char *p = body; *p; p++) {
        const char *with = p[0] == '@' && p[1] == 'w'   ? w
                           : p[0] == '@' && p[1] == 'b' ? b
                           : p[0] == '@' && p[1] == 'i' ? i
                                                        : NULL;
        if (with) {
            memcpy(out + n, with, strlen(with));
            n += strlen(with);
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0 || size > 4096)
        return 0;
    InstantStore store = {{&INSTANT}, NULL, NULL};
    store.tail = &store.done;
    Service *svc = service_create(&store.base, NULL, NULL, NULL, 0);
    if (!svc)
        abort();
    /* No cache: a game that ends leaves memory when the request is done, so every input that ends a
     * game also runs the eviction under the sanitizers. */
    service_set_cache_max(svc, 0);
    /* A local game holds both secrets; a friend game has the invitation. */
    Answer local = ask(svc, ACTION_CREATE, NULL,
                       "{\"mode\":\"local\",\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":2}}");
    Answer friend = ask(svc, ACTION_CREATE, NULL, "{\"mode\":\"friend\",\"color\":\"black\"}");
    if (local.calls != 1 || local.status != 201 || friend.calls != 1 || friend.status != 201)
        abort();
    json_t *root = json_loads(local.body, 0, NULL);
    json_t *secrets = json_object_get(root, "secrets");
    char *id = copy_member(local.body, "id"), *invite = copy_member(friend.body, "invite");
    const char *w = json_string_value(json_object_get(secrets, "white"));
    const char *b = json_string_value(json_object_get(secrets, "black"));
    if (!id || !invite || !w || !b)
        abort();

    char *raw = malloc(size);
    if (!raw)
        abort();
    memcpy(raw, data + 1, size - 1);
    raw[size - 1] = '\0';
    char *body = substitute(raw, w, b, invite);
    ServiceAction action = (ServiceAction)(data[0] % (ACTION_RECENT + 1));
    json_t *parsed = data[0] >= 128 ? json_loads(body, JSON_REJECT_DUPLICATES, NULL) : NULL;
    char *before = parsed ? json_dumps(parsed, JSON_COMPACT) : NULL;
    if (parsed && !before)
        abort();
    Answer a = ask_json(svc, action, id, body, parsed);
    if (a.calls != 1 || a.status < 200 || a.status > 503)
        abort();
    if (parsed) {
        char *after = json_dumps(parsed, JSON_COMPACT);
        if (!after || strcmp(before, after) != 0 || parsed->refcount != 1)
            abort(); /* changed, or a reference kept after the answer */
        free(after);
        json_decref(parsed);
        free(before);
    }
    bool pgn = action == ACTION_PGN && a.status == 200;
    json_t *reply = pgn ? NULL : json_loads(a.body, 0, NULL);
    if (!pgn && !reply)
        abort(); /* every non-PGN answer is JSON */
    if (a.status >= 400 && !json_is_object(json_object_get(reply, "error")))
        abort(); /* every error names itself */
    json_decref(reply);

    free(a.body);
    free(body);
    free(raw);
    free(id);
    free(invite);
    json_decref(root);
    free(local.body);
    free(friend.body);
    service_free(svc);
    return 0;
}
