/* The game actions' one table (ServiceVerb, service.h) and the parsed body (ServiceRequest.json) that
 * the WebSocket hands on: every action a game path names has one verb, and a body reaches the service
 * the same whether it comes as text (HTTP) or already parsed (a WebSocket message): the same answers,
 * errors word for word, the same 16 KiB limit, the same changes. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* ---- the table ---- */

static void test_verb_table(void **state) {
    (void)state;
    assert_true(service_verb_count >= 9);
    int verbs_of[ACTION_LEVELS + 1] = {0};
    for (size_t i = 0; i < service_verb_count; i++) {
        const ServiceVerb *v = &service_verbs[i];
        assert_ptr_equal(service_verb(v->name), v); /* each name once */
        assert_true((int)v->action <= ACTION_LEVELS);
        verbs_of[v->action]++;
        if (v->websocket)
            assert_true(v->change); /* a WebSocket message is a change, acknowledged */
    }
    /* The actions of /api/games/{id}/VERB have one verb each; the others (a game's state, creating and
     * listing games, the levels) have none. */
    const struct {
        ServiceAction action;
        const char *name;
        bool change, websocket;
    } want[] = {
        {ACTION_JOIN, "join", true, false},
        {ACTION_MOVE, "move", true, true},
        {ACTION_DRAW, "draw", true, true},
        {ACTION_CLAIM, "claim", true, true},
        {ACTION_RESIGN, "resign", true, true},
        {ACTION_ABORT, "abort", true, true},
        {ACTION_REMATCH, "rematch", true, true},
        {ACTION_TAKEBACK, "takeback", true, true},
        {ACTION_PREMOVE, "premove", true, true},
        {ACTION_PGN, "pgn", false, false},
        {ACTION_POSITIONS, "positions", false, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const ServiceVerb *v = service_verb(want[i].name);
        assert_non_null(v);
        assert_int_equal(v->action, want[i].action);
        assert_int_equal(v->change, want[i].change);
        assert_int_equal(v->websocket, want[i].websocket);
        assert_int_equal(verbs_of[want[i].action], 1);
    }
    const ServiceAction none[] = {ACTION_CREATE, ACTION_STATE, ACTION_LIST, ACTION_RECENT, ACTION_LEVELS};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_int_equal(verbs_of[none[i]], 0);
    const char *unknown[] = {"", "Move", "move ", "state", "ping", "subscribe", "create", "games", "fly", NULL};
    for (int i = 0; i < 10; i++)
        assert_null(service_verb(unknown[i]));
}

/* ---- text and parsed bodies ---- */

/* One request with its body as text or, parsed = true, as the object the text parses to (the way the
 * WebSocket reads a message: duplicate members refused). The answer, settled: by then the service
 * has let go of the object, which it did not change. */
static Reply ask(Env *e, ServiceAction action, const char *game, const char *text, bool parsed, SchLang lang) {
    Reply r = {0};
    json_t *obj = NULL;
    if (parsed) {
        json_error_t jerr;
        obj = json_loads(text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
        if (!obj)
            fail_msg("not JSON: %s (%s)", text, jerr.text);
    }
    char *before = obj ? json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    ServiceRequest req = {.action = action, .game = game, .body = parsed ? NULL : text, .json = obj, .lang = lang};
    service_handle(e->svc, &req, on_reply, &r);
    settle(e, &r);
    assert_int_equal(r.calls, 1);
    if (obj) {
        char *after = json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY);
        assert_string_equal(before, after);
        free(after);
        assert_int_equal(obj->refcount, 1);
        json_decref(obj);
    }
    free(before);
    return r;
}

/* text with "@w" and "@b" replaced by the game's secrets (white, black); static buffer. */
static const char *with_secrets(const char *text, const Game2 *g) {
    static char out[1024];
    size_t n = 0;
    for (const char *p = text; *p && n < sizeof out - 64; p++) {
        if (p[0] == '@' && (p[1] == 'w' || p[1] == 'b')) {
            n += (size_t)snprintf(out + n, sizeof out - n, "%s", g->secret[p[1] == 'b']);
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return out;
}

/* The same text as text and as parsed: the same status and body, byte for byte. */
static void same_answer(Env *e, ServiceAction action, const char *game, const char *text, SchLang lang) {
    Reply t = ask(e, action, game, text, false, lang);
    Reply p = ask(e, action, game, text, true, lang);
    if (t.status != p.status || strcmp(t.body, p.body) != 0)
        fail_msg("%s\n as text:   %d %s\n as parsed: %d %s", text, t.status, t.body, p.status, p.body);
    if (t.status < 400)
        fail_msg("%s: expected an error, got %d %s", text, t.status, t.body);
    free(t.body);
    free(p.body);
}

static void test_errors_word_for_word(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"mode\":\"friend\",\"color\":\"white\"}", &g);
    char *before = state_text(e, g.id);
    struct {
        ServiceAction action;
        const char *text; /* @w white's secret, @b black's */
    } cases[] = {
        {ACTION_MOVE, "{\"secret\":5,\"ply\":0,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":\"0\",\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0.0,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":1e0,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":[\"e4\"]}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":null}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"claim\":true}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"claim\":\"x\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"lang\":5}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"lang\":\"fr\"}"},
        {ACTION_MOVE, "{\"lang\":\"de\",\"secret\":\"@w\",\"ply\":\"0\",\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e5\",\"lang\":\"de\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"colour\":\"white\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\",\"x\":{\"a\":[1,{\"b\":2.5}]}}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0}"},
        {ACTION_MOVE, "{\"secret\":\"@b\",\"ply\":0,\"move\":\"e5\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":7,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":-1,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"secret\":\"@w\",\"ply\":0,\"move\":\"\\u00e9\\u00e9\"}"},
        /* The WebSocket's envelope is accepted, of the right types, and ignored. */
        {ACTION_MOVE, "{\"type\":\"move\",\"game\":\"x\",\"id\":{\"n\":1},\"secret\":5,\"ply\":0,\"move\":\"e4\"}"},
        {ACTION_MOVE, "{\"type\":5,\"secret\":\"@w\",\"ply\":0,\"move\":\"e4\"}"},
        {ACTION_MOVE, "[1]"},
        {ACTION_MOVE, "\"text\""},
        {ACTION_DRAW, "{\"secret\":\"@w\",\"action\":5}"},
        {ACTION_DRAW, "{\"secret\":\"@w\",\"action\":\"maybe\"}"},
        {ACTION_DRAW, "{\"secret\":\"@w\"}"},
        {ACTION_DRAW, "{\"secret\":\"@w\",\"action\":\"accept\"}"},
        {ACTION_CLAIM, "{\"secret\":\"@w\",\"kind\":5}"},
        {ACTION_CLAIM, "{\"secret\":\"@w\",\"kind\":\"yes\"}"},
        {ACTION_CLAIM, "{\"secret\":\"@w\",\"kind\":\"any\",\"lang\":\"de\"}"},
        {ACTION_CLAIM, "{\"secret\":\"@b\",\"kind\":\"any\"}"},
        {ACTION_RESIGN, "{\"secret\":[\"@w\"]}"},
        {ACTION_RESIGN, "{\"secret\":\"@w\",\"extra\":true}"},
        {ACTION_RESIGN, "{}"},
        {ACTION_ABORT, "{\"secret\":{}}"},
        {ACTION_ABORT, "{\"secret\":\"@w\",\"ply\":0}"},
        {ACTION_REMATCH, "{\"secret\":\"@w\"}"},
        {ACTION_REMATCH, "{\"secret\":\"@w\",\"action\":7}"},
        {ACTION_JOIN, "{\"invite\":5}"},
        {ACTION_JOIN, "{\"invite\":\"nope\"}"},
        {ACTION_JOIN, "{}"},
        {ACTION_CREATE, "{\"mode\":5}"},
        {ACTION_CREATE, "{\"mode\":\"friend\",\"time\":{\"type\":\"live\",\"minutes\":\"5\"}}"},
        {ACTION_CREATE, "{\"mode\":\"friend\",\"time\":{\"type\":\"live\",\"minutes\":5.0}}"},
        {ACTION_CREATE, "{\"mode\":\"friend\",\"time\":{\"type\":\"live\"},\"lang\":\"de\"}"},
        {ACTION_CREATE, "{\"mode\":\"computer\",\"level\":\"nope\"}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *text = with_secrets(cases[i].text, &g);
        same_answer(e, cases[i].action, cases[i].action == ACTION_CREATE ? NULL : g.id, text, SCH_LANG_EN);
        same_answer(e, cases[i].action, cases[i].action == ACTION_CREATE ? NULL : g.id, text, SCH_LANG_DE);
    }
    char *after = state_text(e, g.id);
    assert_string_equal(before, after); /* no error changed anything */
    free(before);
    free(after);
}

/* A body of `size` bytes as compact JSON text: {"pad":"xxx..."}. */
static char *padded(size_t size) {
    char *text = malloc(size + 1);
    assert_non_null(text);
    memset(text, 'x', size);
    memcpy(text, "{\"pad\":\"", 8);
    memcpy(text + size - 2, "\"}", 2);
    text[size] = '\0';
    return text;
}

static void test_limit_of_parsed_body(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"mode\":\"friend\"}", &g);
    /* 16 KiB as text: read (and refused for its unknown member); a byte more is too large. */
    char *text = padded(16 * 1024);
    Reply r = ask(e, ACTION_MOVE, g.id, text, true, SCH_LANG_EN);
    assert_int_equal(r.status, 400);
    expect_error(json_loads(r.body, 0, NULL), "bad_request");
    free(r.body);
    same_answer(e, ACTION_MOVE, g.id, text, SCH_LANG_EN);
    free(text);
    text = padded(16 * 1024 + 1);
    r = ask(e, ACTION_MOVE, g.id, text, true, SCH_LANG_EN);
    assert_int_equal(r.status, 413);
    expect_error(json_loads(r.body, 0, NULL), "too_large");
    free(r.body);
    same_answer(e, ACTION_MOVE, g.id, text, SCH_LANG_DE);
    free(text);

    /* Real numbers are longer as jansson writes them (1e9: 1000000000.0): a body that is short as it
     * came counts as the text it makes, as when the WebSocket wrote it out for the service. */
    size_t n = 1400, len = 0;
    char *sent = malloc(16 + n * 4);
    assert_non_null(sent);
    len = (size_t)sprintf(sent, "{\"n\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(sent + len, i ? ",1e9" : "1e9");
    sprintf(sent + len, "]}");
    assert_true(strlen(sent) < 16 * 1024);
    json_t *obj = json_loads(sent, 0, NULL);
    assert_non_null(obj);
    char *dumped = json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_true(strlen(dumped) > 16 * 1024);
    json_decref(obj);
    r = ask(e, ACTION_MOVE, g.id, sent, true, SCH_LANG_EN);
    assert_int_equal(r.status, 413);
    free(r.body);
    r = ask(e, ACTION_MOVE, g.id, dumped, false, SCH_LANG_EN);
    assert_int_equal(r.status, 413);
    free(r.body);
    r = ask(e, ACTION_MOVE, g.id, sent, false, SCH_LANG_EN); /* as text it is read */
    assert_int_equal(r.status, 400);
    free(r.body);
    free(dumped);
    free(sent);
}

/* A move as text in one game and parsed in another, in the same position: the same change. */
static void test_same_changes(void **state) {
    Env *e = *state;
    Game2 a, b;
    new_game(e, "{\"mode\":\"friend\",\"color\":\"white\"}", &a);
    new_game(e, "{\"mode\":\"friend\",\"color\":\"white\"}", &b);
    const char *line[] = {"e4", "e5", "Nf3", "Nc6", "Bb5"};
    for (int ply = 0; ply < 5; ply++) {
        for (int twice = 0; twice < 2; twice++) { /* the second time a repeat */
            char text[256];
            snprintf(text, sizeof text, "{\"secret\":\"%s\",\"ply\":%d,\"move\":\"%s\"}", a.secret[ply % 2], ply,
                     line[ply]);
            Reply ra = ask(e, ACTION_MOVE, a.id, text, false, SCH_LANG_EN);
            snprintf(text, sizeof text, "{\"type\":\"move\",\"secret\":\"%s\",\"ply\":%d,\"move\":\"%s\"}",
                     b.secret[ply % 2], ply, line[ply]);
            Reply rb = ask(e, ACTION_MOVE, b.id, text, true, SCH_LANG_EN);
            assert_int_equal(ra.status, 200);
            assert_int_equal(rb.status, 200);
            assert_int_equal(ra.ply, ply + 1);
            assert_int_equal(rb.ply, ply + 1);
            assert_int_equal(ra.duplicate, twice);
            assert_int_equal(rb.duplicate, twice);
            free(ra.body);
            free(rb.body);
        }
    }
    json_t *sa = state_json(e, a.id), *sb = state_json(e, b.id);
    assert_true(json_equal(json_object_get(sa, "moves"), json_object_get(sb, "moves")));
    json_decref(sa);
    json_decref(sb);

    /* Resignation and a rematch (whose request the service keeps: it takes its own reference). */
    const Game2 *games[] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        char text[256];
        snprintf(text, sizeof text, "{\"secret\":\"%s\"}", games[i]->secret[1]);
        Reply r = ask(e, ACTION_RESIGN, games[i]->id, text, i == 1, SCH_LANG_EN);
        assert_int_equal(r.status, 200);
        free(r.body);
        r = ask(e, ACTION_REMATCH, games[i]->id, text, i == 1, SCH_LANG_EN);
        assert_int_equal(r.status, 200);
        free(r.body);
        snprintf(text, sizeof text, "{\"secret\":\"%s\",\"action\":\"offer\",\"lang\":\"de\"}", games[i]->secret[0]);
        r = ask(e, ACTION_REMATCH, games[i]->id, text, i == 1, SCH_LANG_EN);
        assert_int_equal(r.status, 200);
        json_t *j = json_loads(r.body, 0, NULL);
        assert_non_null(str(j, "id"));
        json_decref(j);
        free(r.body);
    }
    sa = state_json(e, a.id);
    sb = state_json(e, b.id);
    assert_true(json_equal(get(sa, "outcome"), get(sb, "outcome")));
    assert_string_equal(str(sa, "rematch.offered_by"), str(sb, "rematch.offered_by"));
    assert_non_null(str(sb, "rematch.game"));
    json_decref(sa);
    json_decref(sb);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verb_table),
        cmocka_unit_test_setup_teardown(test_errors_word_for_word, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limit_of_parsed_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_changes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
