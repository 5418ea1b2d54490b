/* The game service against the real SQLite store: whole games, every error of docs/api.md, draws,
 * claims, resignation, abort, invitations, local mode, clocks and deadlines on an injected clock,
 * PGN, lists; replies only after the commit; restoring from the database. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* ---- tests ---- */

static void test_whole_game(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"mode\":\"friend\",\"color\":\"white\",\"time\":{\"type\":\"none\"}}", &g);
    assert_int_equal((int)strlen(g.id), 12);
    assert_int_equal((int)strlen(g.secret[0]), 43);
    assert_int_equal((int)strlen(g.secret[1]), 43);

    Events ev = {0}, ev2 = {0};
    uint64_t sub = service_subscribe(e->svc, g.id, on_event, &ev);
    assert_true(sub != 0);
    assert_int_equal(ev.count, 1); /* the state right away */
    uint64_t sub2 = service_subscribe(e->svc, g.id, on_event, &ev2);
    assert_int_equal(service_subscribe(e->svc, "nosuchgame00", on_event, &ev2), 0);

    /* The first move: no answer and no broadcast before the store committed and the loop woke. */
    Reply r = {0};
    char body[256];
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":0,\"move\":\"e4\"}", g.secret[0]);
    unsigned seen = wakes_now(e);
    ServiceRequest req = {.action = ACTION_MOVE, .game = g.id, .body = body, .lang = SCH_LANG_EN};
    service_handle(e->svc, &req, on_reply, &r);
    assert_int_equal(r.calls, 0);
    char *before = state_text(e, g.id);
    assert_non_null(strstr(before, "\"ply\":0")); /* the uncommitted move is not shown */
    free(before);
    wait_wake_after(e, seen);
    assert_int_equal(r.calls, 0);
    assert_int_equal(ev.count, 1);
    service_on_wake(e->svc);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/json");
    json_t *j = json_loads(r.body, 0, NULL);
    assert_int_equal(json_integer_value(get(j, "state.ply")), 1);
    assert_string_equal(str(j, "state.last_move"), "e2e4");
    json_decref(j);
    free(r.body);
    assert_int_equal(ev.count, 2);
    assert_int_equal(ev2.count, 2);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_string_equal(str(msg, "type"), "state");
    assert_string_equal(str(msg, "game"), g.id);
    assert_int_equal(json_integer_value(get(msg, "state.ply")), 1);
    json_decref(msg);
    service_unsubscribe(e->svc, sub2);

    /* SAN, German SAN, UCI, king-takes-rook castling, promotion with capture, mate. */
    int ply = play(e, &g, 1, "a7a5 Sf3 a4 Lc4 a3");
    j = state_json(e, g.id);
    const json_t *king = get(j, "legal.e1");
    assert_true(array_has(king, "g1") && array_has(king, "h1") && array_has(king, "f1"));
    json_decref(j);
    ply = play(e, &g, ply, "e1h1 axb2 Ne5");
    j = state_json(e, g.id);
    assert_true(array_has(get(j, "promotions"), "b2a1"));
    assert_true(array_has(get(j, "promotions"), "b2c1"));
    json_decref(j);
    ply = play(e, &g, ply, "bxa1=Q Dh5 Qxb1");
    j = move_as(e, &g, 0, ply, "Qxf7#", NULL, SCH_LANG_EN, 200);
    const json_t *st = get(j, "state");
    assert_int_equal(json_integer_value(get(st, "ply")), 13);
    assert_string_equal(str(st, "outcome.result"), "1-0");
    assert_string_equal(str(st, "outcome.termination"), "checkmate");
    assert_string_equal(str(st, "outcome.winner"), "white");
    assert_int_equal(json_object_size(get(st, "legal")), 0);
    assert_true(json_is_true(get(st, "check")));
    assert_true(json_is_false(get(st, "can_abort")));
    const json_t *moves = get(st, "moves");
    assert_int_equal(json_array_size(moves), 13);
    assert_string_equal(str(json_array_get(moves, 2), "san_de"), "Sf3");
    assert_string_equal(str(json_array_get(moves, 2), "san"), "Nf3");
    assert_string_equal(str(json_array_get(moves, 6), "san"), "O-O");
    assert_string_equal(str(json_array_get(moves, 6), "san_de"), "0-0");
    assert_string_equal(str(json_array_get(moves, 6), "uci"), "e1g1");
    assert_string_equal(str(json_array_get(moves, 9), "uci"), "b2a1q");
    assert_string_equal(str(json_array_get(moves, 9), "san_de"), "bxa1=D");
    assert_string_equal(str(json_array_get(moves, 12), "san"), "Qxf7#");
    json_decref(j);
    assert_int_equal(ev.count, 14);
    assert_int_equal(ev2.count, 2);
    service_unsubscribe(e->svc, sub);

    assert_state_survives_restart(e, g.id);
    free(ev.last);
    free(ev2.last);
}

static void test_errors(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"mode\":\"friend\",\"color\":\"white\",\"time\":{\"type\":\"none\"}}", &g);
    play(e, &g, 0, "e4 e5");
    char *before = state_text(e, g.id);
    char body[20000];

    expect_error(request(e, ACTION_MOVE, g.id, "{", SCH_LANG_EN, 400), "bad_json");
    expect_error(request(e, ACTION_MOVE, g.id, "[1]", SCH_LANG_EN, 400), "bad_json");
    expect_error(request(e, ACTION_MOVE, g.id, NULL, SCH_LANG_EN, 400), "bad_json");
    expect_error(request(e, ACTION_MOVE, g.id, "{\"ply\":2,\"ply\":2}", SCH_LANG_EN, 400), "bad_json");
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2,\"move\":\"Nf3\",\"x\":1}", g.secret[0]);
    json_t *j = request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 400);
    assert_non_null(strstr(str(j, "error.message"), "'x'"));
    expect_error(j, "bad_request");
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":\"2\",\"move\":\"Nf3\"}", g.secret[0]);
    j = request(e, ACTION_MOVE, g.id, body, SCH_LANG_DE, 400);
    assert_non_null(strstr(str(j, "error.message"), "ply"));
    expect_error(j, "bad_request");
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2,\"move\":5}", g.secret[0]);
    expect_error(request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 400), "bad_request");
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2}", g.secret[0]);
    expect_error(request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 400), "bad_request");
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2,\"move\":\"Nf3\",\"claim\":\"maybe\"}", g.secret[0]);
    expect_error(request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 400), "bad_request");
    expect_error(request(e, ACTION_MOVE, g.id, "{\"ply\":2,\"move\":\"Nf3\"}", SCH_LANG_EN, 403), "bad_secret");
    expect_error(request(e, ACTION_MOVE, g.id, "{\"secret\":\"nope\",\"ply\":2,\"move\":\"Nf3\"}", SCH_LANG_EN, 403),
                 "bad_secret");
    expect_error(move_as(e, &g, 1, 2, "Nf6", NULL, SCH_LANG_EN, 409), "not_your_turn");
    expect_error(request(e, ACTION_MOVE, "nosuchgame00", body, SCH_LANG_EN, 404), "not_found");
    expect_error(request(e, ACTION_STATE, "short", NULL, SCH_LANG_EN, 404), "not_found");
    expect_error(move_as(e, &g, 0, 5, "Nf3", NULL, SCH_LANG_EN, 409), "stale_ply");
    expect_error(move_as(e, &g, 0, 0, "Nf3", NULL, SCH_LANG_EN, 409), "stale_ply");
    memset(body, ' ', sizeof body);
    memcpy(body, "{\"x\":1}", 7);
    body[sizeof body - 1] = '\0';
    expect_error(request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 413), "too_large");

    /* Illegal moves are explained in the requester's language. */
    j = move_as(e, &g, 0, 2, "Ke3", NULL, SCH_LANG_EN, 422);
    char en[512];
    snprintf(en, sizeof en, "%s", str(j, "error.message"));
    expect_error(j, "illegal_move");
    j = move_as(e, &g, 0, 2, "Ke3", NULL, SCH_LANG_DE, 422);
    assert_string_not_equal(en, str(j, "error.message"));
    assert_non_null(strstr(en, "e3"));
    assert_non_null(strstr(str(j, "error.message"), "e3"));
    expect_error(j, "illegal_move");
    /* The body's "lang" chooses the language unless the query did. */
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2,\"move\":\"Ke3\",\"lang\":\"de\"}", g.secret[0]);
    j = request(e, ACTION_MOVE, g.id, body, SCH_LANG_EN, 422);
    assert_string_not_equal(en, str(j, "error.message"));
    expect_error(j, "illegal_move");
    Reply r = {0};
    ServiceRequest req = {
        .action = ACTION_MOVE, .game = g.id, .body = body, .lang = SCH_LANG_EN, .lang_explicit = true};
    service_handle(e->svc, &req, on_reply, &r);
    j = json_loads(r.body, 0, NULL);
    assert_string_equal(en, str(j, "error.message"));
    expect_error(j, "illegal_move");
    free(r.body);
    expect_error(move_as(e, &g, 0, 2, "hello", NULL, SCH_LANG_EN, 422), "illegal_move");

    /* Draw answers without an offer, claims that do not hold, abort after both moved. */
    expect_error(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"accept\"", 409), "no_offer");
    expect_error(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"decline\"", 409), "no_offer");
    expect_error(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"dance\"", 400), "bad_request");
    expect_error(action_as(e, &g, ACTION_CLAIM, 0, ",\"kind\":\"any\"", 409), "no_claim");
    expect_error(action_as(e, &g, ACTION_CLAIM, 1, ",\"kind\":\"threefold\"", 409), "not_your_turn");
    expect_error(action_as(e, &g, ACTION_ABORT, 0, NULL, 409), "cannot_abort");
    expect_error(action_as(e, &g, ACTION_RESIGN, 0, ",\"extra\":true", 400), "bad_request");
    expect_error(
        request(e, ACTION_JOIN, g.id, "{\"invite\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}", SCH_LANG_EN, 403),
        "bad_invite");

    /* Busy: while one change is being committed, another is refused. */
    Reply first = {0};
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":2,\"move\":\"Nf3\"}", g.secret[0]);
    ServiceRequest mv = {.action = ACTION_MOVE, .game = g.id, .body = body};
    service_handle(e->svc, &mv, on_reply, &first);
    assert_int_equal(first.calls, 0);
    expect_error(action_as(e, &g, ACTION_DRAW, 1, ",\"action\":\"offer\"", 409), "busy");
    Reply again = {0};
    service_handle(e->svc, &mv, on_reply, &again); /* the same move again while it is committed */
    assert_int_equal(again.calls, 1);
    j = json_loads(again.body, 0, NULL);
    expect_error(j, "busy");
    free(again.body);
    settle(e, &first);
    assert_int_equal(first.status, 200);
    assert_int_equal(first.ply, 3); /* the facts a WebSocket acknowledgement is built from */
    assert_false(first.duplicate);
    free(first.body);
    char *after_move = state_text(e, g.id);
    Reply repeat = {0};
    service_handle(e->svc, &mv, on_reply, &repeat); /* the same request once more: a duplicate */
    assert_int_equal(repeat.calls, 1);
    assert_int_equal(repeat.status, 200);
    assert_true(repeat.duplicate);
    assert_int_equal(repeat.ply, 3);
    free(repeat.body);

    /* A repeated move (the answer got lost): 200, duplicate, nothing played twice. */
    j = move_as(e, &g, 0, 2, "g1f3", NULL, SCH_LANG_EN, 200);
    assert_true(json_is_true(get(j, "duplicate")));
    assert_int_equal(json_integer_value(get(j, "state.ply")), 3);
    json_decref(j);
    expect_error(move_as(e, &g, 0, 2, "Nc3", NULL, SCH_LANG_EN, 409), "stale_ply");
    expect_error(move_as(e, &g, 1, 2, "Nf3", NULL, SCH_LANG_EN, 409), "stale_ply");
    char *after = state_text(e, g.id);
    assert_string_equal(after_move, after);
    free(after);

    /* Nothing above changed the stored game either. */
    free(after_move);
    assert_state_survives_restart(e, g.id);

    /* Game over. */
    json_decref(action_as(e, &g, ACTION_RESIGN, 1, NULL, 200));
    char *over = state_text(e, g.id);
    expect_error(move_as(e, &g, 1, 3, "Nc6", NULL, SCH_LANG_EN, 409), "game_over");
    expect_error(action_as(e, &g, ACTION_RESIGN, 0, NULL, 409), "game_over");
    expect_error(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 409), "game_over");
    after = state_text(e, g.id);
    assert_string_equal(over, after);
    free(over);
    free(after);
    free(before);
}

static void test_create_validation(void **state) {
    Env *e = *state;
    const char *bad[] = {
        "{\"mode\":\"solo\"}",
        "{\"color\":\"green\"}",
        "{\"mode\":1}",
        "{\"time\":\"5+3\"}",
        "{\"time\":{\"type\":\"live\"}}",
        "{\"time\":{\"type\":\"live\",\"minutes\":0,\"increment\":5}}",
        "{\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":3,\"days\":1}}",
        "{\"time\":{\"type\":\"live\",\"minutes\":500,\"increment\":0}}",
        "{\"time\":{\"type\":\"correspondence\",\"days\":0}}",
        "{\"time\":{\"type\":\"blitz\"}}",
        "{\"time\":{\"minutes\":5}}",
        "{\"time\":{\"type\":\"live\",\"minutes\":5,\"seconds\":3}}",
        "{\"fen\":\"not a fen\"}",
        "{\"fen\":\"7k/5QQ1/8/8/8/8/8/K7 b - - 0 1\"}",
        "{\"lang\":\"fr\"}",
        "{\"mode\":\"friend\",\"players\":2}",
        "{\"variant\":\"crazyhouse\"}",
        "{\"position\":3}",
        "{\"variant\":\"standard\",\"position\":3}",
        "{\"variant\":\"chess960\",\"position\":960}",
        "{\"variant\":\"chess960\",\"position\":-1}",
        "{\"variant\":\"chess960\",\"position\":\"3\"}",
        "{\"variant\":\"chess960\",\"fen\":\"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_error(request(e, ACTION_CREATE, NULL, bad[i], SCH_LANG_EN, 400), "bad_request");
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"fen\":\"xx\"}", SCH_LANG_DE, 400);
    assert_non_null(strstr(str(j, "error.message"), "Stellung"));
    json_decref(j);

    /* Defaults: a friend game, the creator white, no clock; the WebSocket envelope is accepted. */
    j = request(e, ACTION_CREATE, NULL, "{\"type\":\"create\",\"id\":7}", SCH_LANG_EN, 201);
    assert_string_equal(str(j, "color"), "white");
    assert_string_equal(str(j, "state.mode"), "friend");
    assert_string_equal(str(j, "state.time.type"), "none");
    assert_true(json_is_null(get(j, "state.clock")));
    assert_true(json_is_null(get(j, "state.start_fen")));
    assert_string_equal(str(j, "state.variant"), "standard");
    assert_true(json_is_null(get(j, "state.chess960")));
    assert_true(json_is_true(get(j, "state.players.white")));
    assert_true(json_is_false(get(j, "state.players.black")));
    assert_true(json_is_true(get(j, "state.can_abort")));
    assert_int_equal(json_integer_value(get(j, "state.created")), T0);
    assert_int_equal((int)strlen(str(j, "invite")), 43);
    assert_null(get(j, "secrets"));
    json_decref(j);

    /* From a position. */
    j = request(e, ACTION_CREATE, NULL, "{\"fen\":\"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\",\"color\":\"black\"}",
                SCH_LANG_EN, 201);
    assert_string_equal(str(j, "color"), "black");
    assert_string_equal(str(j, "state.start_fen"), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    assert_string_equal(str(j, "state.turn"), "black");
    json_decref(j);
    j = request(e, ACTION_CREATE, NULL,
                "{\"color\":\"random\",\"time\":{\"type\":\"live\",\"minutes\":3,\"increment\":2}}", SCH_LANG_EN, 201);
    assert_true(strcmp(str(j, "color"), "white") == 0 || strcmp(str(j, "color"), "black") == 0);
    assert_int_equal(json_integer_value(get(j, "state.clock.white")), 180000);
    assert_true(json_is_null(get(j, "state.clock.running")));
    json_decref(j);
}

static void test_join(void **state) {
    Env *e = *state;
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"color\":\"black\"}", SCH_LANG_EN, 201);
    char id[16], invite[64], join[128];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(invite, sizeof invite, "%s", str(j, "invite"));
    json_decref(j);
    Events ev = {0};
    service_subscribe(e->svc, id, on_event, &ev);
    snprintf(join, sizeof join, "{\"invite\":\"%s\"}", invite);
    j = request(e, ACTION_JOIN, id, join, SCH_LANG_EN, 200);
    assert_string_equal(str(j, "color"), "white");
    assert_int_equal((int)strlen(str(j, "secret")), 43);
    assert_true(json_is_true(get(j, "state.players.white")));
    json_decref(j);
    assert_int_equal(ev.count, 2);
    expect_error(request(e, ACTION_JOIN, id, join, SCH_LANG_EN, 403), "bad_invite"); /* spent */
    expect_error(request(e, ACTION_JOIN, id, "{}", SCH_LANG_EN, 400), "bad_request");
    expect_error(request(e, ACTION_JOIN, "nosuchgame00", join, SCH_LANG_EN, 404), "not_found");
    /* Spent after a restart too. */
    env_close(e);
    env_open(e);
    expect_error(request(e, ACTION_JOIN, id, join, SCH_LANG_EN, 403), "bad_invite");
    free(ev.last);
}

static void test_local_mode(void **state) {
    Env *e = *state;
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"mode\":\"local\"}", SCH_LANG_EN, 201);
    assert_true(json_is_null(get(j, "invite")));
    assert_string_equal(str(j, "secret"), str(j, "secrets.white"));
    assert_string_not_equal(str(j, "secrets.white"), str(j, "secrets.black"));
    assert_true(json_is_true(get(j, "state.players.white")));
    assert_true(json_is_true(get(j, "state.players.black")));
    assert_string_equal(str(j, "state.mode"), "local");
    Game2 g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.secret[0], sizeof g.secret[0], "%s", str(j, "secrets.white"));
    snprintf(g.secret[1], sizeof g.secret[1], "%s", str(j, "secrets.black"));
    json_decref(j);
    play(e, &g, 0, "d4 d5 c4");
    expect_error(move_as(e, &g, 0, 3, "e5", NULL, SCH_LANG_EN, 409), "not_your_turn");
}

static void test_draw_offers(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    play(e, &g, 0, "e4 e5");
    json_t *j = action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 200);
    assert_string_equal(str(j, "state.draw_offer"), "white");
    json_decref(j);
    expect_error(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"accept\"", 409), "no_offer");
    j = action_as(e, &g, ACTION_DRAW, 1, ",\"action\":\"decline\"", 200);
    assert_true(json_is_null(get(j, "state.draw_offer")));
    json_decref(j);
    /* An offer lapses when the opponent moves; the offerer's own move keeps it. */
    json_decref(action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"offer\"", 200));
    j = move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200);
    assert_string_equal(str(j, "state.draw_offer"), "white");
    json_decref(j);
    j = move_as(e, &g, 1, 3, "Nc6", NULL, SCH_LANG_EN, 200);
    assert_true(json_is_null(get(j, "state.draw_offer")));
    json_decref(j);
    /* The offer survives a restart. */
    json_decref(action_as(e, &g, ACTION_DRAW, 1, ",\"action\":\"offer\"", 200));
    env_close(e);
    env_open(e);
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"draw_offer\":\"black\""));
    free(s);
    j = action_as(e, &g, ACTION_DRAW, 0, ",\"action\":\"accept\"", 200);
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "state.outcome.termination"), "agreement");
    assert_true(json_is_null(get(j, "state.outcome.winner")));
    json_decref(j);
    env_close(e);
    env_open(e);
    s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"termination\":\"agreement\""));
    free(s);
}

static void test_claims(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    int ply = play(e, &g, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"claims\":[\"threefold_repetition\"]"));
    free(s);
    expect_error(action_as(e, &g, ACTION_CLAIM, 0, ",\"kind\":\"fifty\"", 409), "no_claim");
    json_t *j = action_as(e, &g, ACTION_CLAIM, 0, ",\"kind\":\"threefold\"", 200);
    assert_string_equal(str(j, "state.outcome.termination"), "threefold_repetition");
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_int_equal(json_array_size(get(j, "state.claims")), 0);
    json_decref(j);
    expect_error(move_as(e, &g, 0, ply, "Nf3", NULL, SCH_LANG_EN, 409), "game_over");
    env_close(e);
    env_open(e);
    s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"termination\":\"threefold_repetition\""));
    free(s);

    /* A claim with the move that produces the repetition (9.2.1.1). */
    Game2 h;
    new_game(e, "{}", &h);
    ply = play(e, &h, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    j = move_as(e, &h, 1, ply, "Ng8", ",\"claim\":\"threefold\"", SCH_LANG_EN, 200);
    assert_int_equal(json_integer_value(get(j, "state.ply")), 8);
    assert_string_equal(str(j, "state.outcome.termination"), "threefold_repetition");
    assert_null(get(j, "claim_rejected"));
    json_decref(j);

    /* The 50-move rule, from a position where 100 plies passed without capture or pawn move. */
    Game2 f;
    new_game(e, "{\"fen\":\"4k3/8/8/8/8/8/8/R3K3 w - - 100 80\"}", &f);
    s = state_text(e, f.id);
    assert_non_null(strstr(s, "\"claims\":[\"fifty_moves\"]"));
    free(s);
    expect_error(action_as(e, &f, ACTION_CLAIM, 0, ",\"kind\":\"threefold\"", 409), "no_claim");
    j = action_as(e, &f, ACTION_CLAIM, 0, ",\"kind\":\"any\"", 200);
    assert_string_equal(str(j, "state.outcome.termination"), "fifty_moves");
    json_decref(j);

    /* An incorrect claim: the move stands, the claim becomes a draw offer (9.5, 9.1.2.4). */
    Game2 k;
    new_game(e, "{}", &k);
    j = move_as(e, &k, 0, 0, "e4", ",\"claim\":\"fifty\"", SCH_LANG_EN, 200);
    assert_true(json_is_true(get(j, "claim_rejected")));
    assert_int_equal(json_integer_value(get(j, "state.ply")), 1);
    assert_true(json_is_null(get(j, "state.outcome")));
    assert_string_equal(str(j, "state.draw_offer"), "white");
    json_decref(j);
}

static void test_resign_abort(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    json_t *j = action_as(e, &g, ACTION_ABORT, 1, NULL, 200);
    assert_string_equal(str(j, "state.outcome.result"), "*");
    assert_string_equal(str(j, "state.outcome.termination"), "aborted");
    assert_true(json_is_null(get(j, "state.outcome.winner")));
    assert_true(json_is_false(get(j, "state.can_abort")));
    assert_int_equal(json_object_size(get(j, "state.legal")), 0);
    json_decref(j);
    expect_error(move_as(e, &g, 0, 0, "e4", NULL, SCH_LANG_EN, 409), "game_over");
    env_close(e);
    env_open(e);
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"termination\":\"aborted\""));
    free(s);

    Game2 h;
    new_game(e, "{}", &h);
    play(e, &h, 0, "e4");
    json_decref(action_as(e, &h, ACTION_ABORT, 0, NULL, 200)); /* one side moved: still allowed */
    Game2 k;
    new_game(e, "{}", &k);
    play(e, &k, 0, "e4 c5");
    expect_error(action_as(e, &k, ACTION_ABORT, 1, NULL, 409), "cannot_abort");
    j = action_as(e, &k, ACTION_RESIGN, 0, NULL, 200); /* resigning out of turn is fine */
    assert_string_equal(str(j, "state.outcome.result"), "0-1");
    assert_string_equal(str(j, "state.outcome.termination"), "resignation");
    assert_string_equal(str(j, "state.outcome.winner"), "black");
    json_decref(j);
    env_close(e);
    env_open(e);
    s = state_text(e, k.id);
    assert_non_null(strstr(s, "\"result\":\"0-1\",\"termination\":\"resignation\""));
    free(s);
}

static void test_live_clock(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":3}}", &g);
    /* Before both moved no clock runs; only the game's expiry, should nobody begin it (6 h). */
    assert_int_equal(service_next_timer_ms(e->svc), 6 * 3600 * 1000LL);
    e->now += 10000;
    play(e, &g, 0, "e4");
    e->now += 20000;
    json_t *j = move_as(e, &g, 1, 1, "e5", NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_integer_value(get(j, "state.clock.white")), 300000);
    assert_int_equal(json_integer_value(get(j, "state.clock.black")), 300000);
    assert_string_equal(str(j, "state.clock.running"), "white");
    assert_true(json_is_false(get(j, "state.can_abort")));
    json_decref(j);
    assert_int_equal(service_next_timer_ms(e->svc), 300000);
    e->now += 7000;
    j = move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_integer_value(get(j, "state.clock.white")), 300000 - 7000 + 3000);
    assert_string_equal(str(j, "state.clock.running"), "black");
    json_decref(j);
    e->now += 1000;
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"black\":299000"));
    free(s);
    assert_int_equal(service_next_timer_ms(e->svc), 299000);

    /* The clock survives a restart. */
    env_close(e);
    env_open(e);
    assert_int_equal(service_next_timer_ms(e->svc), 299000);

    /* Black's flag falls: the timer ends the game, written through the store, and tells subscribers. */
    Events ev = {0};
    service_subscribe(e->svc, g.id, on_event, &ev);
    e->now += 299000;
    assert_int_equal(service_next_timer_ms(e->svc), 0);
    unsigned seen = wakes_now(e);
    service_on_timer(e->svc);
    assert_int_equal(service_next_timer_ms(e->svc), -1); /* committing: nothing to schedule */
    settle_timer(e, seen);
    assert_int_equal(ev.count, 2);
    json_t *msg = json_loads(ev.last, 0, NULL);
    assert_string_equal(str(msg, "state.outcome.result"), "1-0");
    assert_string_equal(str(msg, "state.outcome.termination"), "time_forfeit");
    assert_int_equal(json_integer_value(get(msg, "state.clock.black")), 0);
    assert_true(json_is_null(get(msg, "state.clock.running")));
    json_decref(msg);
    free(ev.last);
    assert_int_equal(service_next_timer_ms(e->svc), -1);
    env_close(e);
    env_open(e);
    s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"termination\":\"time_forfeit\""));
    free(s);
}

/* The flag falls, but the opponent has a bare king and cannot mate: a draw (6.9). A move that comes
 * after the flag fell, before the timer ran, ends the game too. */
static void test_clock_insufficient(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e,
             "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0},\"fen\":\"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"}",
             &g);
    play(e, &g, 0, "Qd2 Kf7");
    e->now += 60001;
    unsigned seen = wakes_now(e);
    expect_error(move_as(e, &g, 0, 2, "Qd5", NULL, SCH_LANG_EN, 409), "game_over");
    settle_timer(e, seen);
    json_t *j = state_json(e, g.id);
    assert_string_equal(str(j, "outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "outcome.termination"), "timeout_insufficient_material");
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    json_decref(j);
}

static void test_correspondence(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"time\":{\"type\":\"correspondence\",\"days\":2}}", &g);
    play(e, &g, 0, "e4");
    e->now += 5 * 86400000LL; /* before both moved, no deadline */
    json_t *j = move_as(e, &g, 1, 1, "c5", NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_integer_value(get(j, "state.clock.deadline")), e->now + 2 * 86400000LL);
    assert_string_equal(str(j, "state.clock.running"), "white");
    json_decref(j);
    e->now += 86400000LL;
    j = move_as(e, &g, 0, 2, "Nf3", NULL, SCH_LANG_EN, 200);
    assert_int_equal(json_integer_value(get(j, "state.clock.deadline")), e->now + 2 * 86400000LL);
    json_decref(j);
    assert_int_equal(service_next_timer_ms(e->svc), 2 * 86400000LL);
    e->now += 2 * 86400000LL;
    unsigned seen = wakes_now(e);
    service_on_timer(e->svc);
    settle_timer(e, seen);
    j = state_json(e, g.id);
    assert_string_equal(str(j, "outcome.result"), "1-0");
    assert_string_equal(str(j, "outcome.termination"), "abandoned");
    assert_true(json_is_null(get(j, "clock.deadline")));
    json_decref(j);
}

/* The PGN with its text on one line (the writer breaks lines at 80 characters). */
static char *pgn_line(Env *e, const char *id, SchLang lang) {
    char *text = pgn_of(e, id, lang);
    for (char *c = text; *c; c++)
        if (*c == '\n' && c[1] != '\n' && c[1] != '[' && (c == text || c[-1] != '\n'))
            *c = ' ';
    return text;
}

static void test_pgn(void **state) {
    Env *e = *state;
    assert_true(service_set_public_url("https://schach.example/"));
    Game2 g;
    new_game(e, "{\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":3}}", &g);
    /* Clocks (the page's clocksAt): the first two moves cost nothing; then each costs its mover the
     * time since the move before and gives back 3 s. */
    static const struct {
        int64_t at;
        const char *san;
    } moves[] = {{1000, "e4"}, {4000, "e5"}, {14000, "Nf3"}, {21500, "Nc6"}, {81500, "Bb5"}};
    for (int i = 0; i < 5; i++) {
        e->now = T0 + moves[i].at;
        play(e, &g, i, moves[i].san);
    }
    json_t *j = state_json(e, g.id);
    assert_int_equal(json_integer_value(get(j, "clock.white")), 236000); /* 300 - 10 + 3 - 60 + 3 s */
    assert_int_equal(json_integer_value(get(j, "clock.black")), 295500); /* 300 - 7.5 + 3 s */
    json_decref(j);
    json_decref(action_as(e, &g, ACTION_RESIGN, 1, NULL, 200));
    char *en = pgn_line(e, g.id, SCH_LANG_EN);
    /* As lichess writes it: rated or casual and the category, the game's address, its start in UTC. */
    assert_non_null(strstr(en, "[Event \"Casual blitz game\"]"));
    char site[80];
    snprintf(site, sizeof site, "[Site \"https://schach.example/g/%s\"]", g.id);
    assert_non_null(strstr(en, site));
    assert_non_null(strstr(en, "[Date \"2025.11.22\"]"));
    assert_non_null(strstr(en, "[UTCDate \"2025.11.22\"]"));
    assert_non_null(strstr(en, "[UTCTime \"08:26:40\"]"));
    assert_non_null(strstr(en, "[White \"?\"]"));
    assert_non_null(strstr(en, "[Result \"1-0\"]"));
    /* The standard's Termination; what ended it in words after the last move. */
    assert_non_null(strstr(en, "[Termination \"normal\"]"));
    assert_null(strstr(en, "WhiteRatingDiff")); /* casual */
    assert_non_null(strstr(en, "[TimeControl \"300+3\"]"));
    assert_non_null(strstr(en, "1. e4 {[%clk 0:05:00]} 1... e5 {[%clk 0:05:00]} 2. Nf3 {[%clk 0:04:53]} 2... Nc6 "
                               "{[%clk 0:04:55]} 3. Bb5 {[%clk 0:03:56] Black resigns – White wins 1-0} 1-0"));
    char *de = pgn_line(e, g.id, SCH_LANG_DE);
    assert_non_null(strstr(de, "2. Sf3 {[%clk 0:04:53]}"));
    assert_non_null(strstr(de, "3. Lb5 {[%clk 0:03:56] Schwarz gibt auf – Weiß gewinnt 1:0} 1-0"));
    assert_non_null(strstr(de, "[Termination \"normal\"]"));
    free(en);
    free(de);
    Game2 h;
    new_game(e, "{}", &h);
    json_decref(action_as(e, &h, ACTION_ABORT, 0, NULL, 200));
    char *ab = pgn_line(e, h.id, SCH_LANG_EN);
    assert_non_null(strstr(ab, "[Event \"Casual unlimited game\"]"));
    assert_non_null(strstr(ab, "[Result \"*\"]"));
    assert_non_null(strstr(ab, "[Termination \"unterminated\"]"));
    assert_non_null(strstr(ab, "[TimeControl \"-\"]"));
    assert_non_null(strstr(ab, "{Game aborted} *"));
    free(ab);
    /* A draw by repetition says where the position stood; no clock, no [%clk]. A game in play is
     * "unterminated". */
    Game2 r;
    new_game(e, "{\"time\":{\"type\":\"correspondence\",\"days\":3}}", &r);
    play(e, &r, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    char *open = pgn_line(e, r.id, SCH_LANG_EN);
    assert_non_null(strstr(open, "[Event \"Casual correspondence game\"]"));
    assert_non_null(strstr(open, "[TimeControl \"1/259200\"]"));
    assert_non_null(strstr(open, "[Termination \"unterminated\"]"));
    assert_null(strstr(open, "%clk"));
    free(open);
    json_decref(move_as(e, &r, 1, 7, "Ng8", ",\"claim\":\"threefold\"", SCH_LANG_EN, 200));
    char *rep = pgn_line(e, r.id, SCH_LANG_EN);
    assert_non_null(strstr(rep, "[Termination \"normal\"]"));
    assert_non_null(strstr(rep, "4. Ng1 Ng8 {Draw by threefold repetition (claimed): the starting position stood "
                                "after 2…Ng8 and 4…Ng8} 1/2-1/2"));
    char *rde = pgn_line(e, r.id, SCH_LANG_DE);
    assert_non_null(strstr(rde, ": dieselbe Stellung zu Beginn, nach 2. … Sg8 und 4. … Sg8} 1/2-1/2"));
    free(rep);
    free(rde);
    /* The state says where the position stood once a threefold repetition can be claimed. */
    Game2 s;
    new_game(e, "{}", &s);
    play(e, &s, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    j = state_json(e, s.id);
    assert_true(json_is_null(get(j, "repetition")));
    json_decref(j);
    play(e, &s, 7, "Ng8");
    j = state_json(e, s.id);
    assert_true(array_has(get(j, "claims"), "threefold_repetition"));
    assert_int_equal(json_array_size(get(j, "repetition.plies")), 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(json_integer_value(json_array_get(get(j, "repetition.plies"), (size_t)i)), 4 * i);
    assert_string_equal(str(j, "repetition.text"), "the starting position stood after 2…Ng8 and 4…Ng8");
    assert_string_equal(str(j, "repetition.text_de"), "dieselbe Stellung zu Beginn, nach 2. … Sg8 und 4. … Sg8");
    json_decref(j);
    json_decref(action_as(e, &s, ACTION_CLAIM, 0, ",\"kind\":\"threefold\"", 200));
    j = state_json(e, s.id);
    assert_string_equal(str(j, "outcome.termination"), "threefold_repetition");
    assert_string_equal(str(j, "repetition.text"), "the starting position stood after 2…Ng8 and 4…Ng8");
    json_decref(j);
    expect_error(request(e, ACTION_PGN, "nosuchgame00", NULL, SCH_LANG_EN, 404), "not_found");
}

static void test_cancel_and_transport_errors(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{}", &g);
    Events ev = {0};
    service_subscribe(e->svc, g.id, on_event, &ev);
    Reply r = {0};
    char body[256];
    snprintf(body, sizeof body, "{\"secret\":\"%s\",\"ply\":0,\"move\":\"e4\"}", g.secret[0]);
    ServiceRequest req = {.action = ACTION_MOVE, .game = g.id, .body = body};
    unsigned seen = wakes_now(e);
    uint64_t ticket = service_handle(e->svc, &req, on_reply, &r);
    service_cancel(e->svc, ticket);
    settle_timer(e, seen);
    assert_int_equal(r.calls, 0);  /* the requester went away */
    assert_int_equal(ev.count, 2); /* the move happened all the same */
    free(ev.last);

    char *out;
    size_t len;
    assert_int_equal(service_error("not_found", SCH_LANG_DE, &out, &len), 404);
    json_t *j = json_loads(out, 0, NULL);
    free(out);
    assert_string_equal(str(j, "error.code"), "not_found");
    json_decref(j);
    assert_int_equal(service_error("method_not_allowed", SCH_LANG_EN, &out, &len), 405);
    free(out);
    assert_int_equal(service_error("too_large", SCH_LANG_EN, &out, &len), 413);
    free(out);
    assert_int_equal(service_error("bad_json", SCH_LANG_EN, &out, &len), 400);
    free(out);
}

/* A start position only Chess960 rules explain (king on b1, rooks on a1 and h1 with both rights):
 * O-O-O takes the king to c1, where a plain king move also goes. The stored and announced move must
 * say castling (king takes rook, "b1a1"), and the legal list must show the real rook squares, or a
 * restart replays the game as Kc1 (found by fuzz.san). */
static void test_castling_off_the_e_file(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"fen\":\"r3k2r/8/8/8/8/8/8/RK5R w KQkq - 0 1\"}", &g);
    json_t *j = state_json(e, g.id);
    const json_t *king = get(j, "legal.b1");
    assert_true(array_has(king, "a1") && array_has(king, "h1") && array_has(king, "c1") && array_has(king, "g1"));
    json_decref(j);
    int ply = play(e, &g, 0, "O-O-O O-O");
    assert_int_equal(ply, 2);
    j = state_json(e, g.id);
    assert_string_equal(str(j, "fen"), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
    assert_string_equal(str(json_array_get(get(j, "moves"), 0), "uci"), "b1a1");
    assert_string_equal(str(json_array_get(get(j, "moves"), 1), "uci"), "e8h8");
    assert_string_equal(str(j, "last_move"), "e8h8");
    json_decref(j);

    /* The PGN says Chess960, so that other programs read KQkq with the king on b1 as X-FEN. */
    char *pgn = pgn_of(e, g.id, SCH_LANG_EN);
    assert_non_null(strstr(pgn, "[Variant \"Chess960\"]"));
    assert_non_null(strstr(pgn, "[FEN \"r3k2r/8/8/8/8/8/8/RK5R w KQkq - 0 1\"]"));
    assert_non_null(strstr(pgn, "1. O-O-O O-O"));
    free(pgn);

    assert_state_survives_restart(e, g.id);
}

/* Chess960 games: a numbered or a random start array; one whose castling looks standard (692,
 * RBBQKNNR) is still Chess960 (UCI king takes rook, PGN Variant), also after a restart; 518 is the
 * standard game. */
static void test_chess960_games(void **state) {
    Env *e = *state;
    json_t *j = request(e, ACTION_CREATE, NULL, "{\"variant\":\"chess960\",\"position\":0}", SCH_LANG_EN, 201);
    assert_string_equal(str(j, "state.start_fen"), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    assert_string_equal(str(j, "state.variant"), "chess960");
    assert_int_equal(json_integer_value(get(j, "state.chess960")), 0);
    json_decref(j);

    j = request(e, ACTION_CREATE, NULL, "{\"variant\":\"chess960\",\"position\":518}", SCH_LANG_EN, 201);
    assert_true(json_is_null(get(j, "state.start_fen")));
    assert_string_equal(str(j, "state.variant"), "standard");
    json_decref(j);

    for (int i = 0; i < 5; i++) { /* at random: a start array (518 is the standard game) */
        j = request(e, ACTION_CREATE, NULL, "{\"variant\":\"chess960\"}", SCH_LANG_EN, 201);
        const json_t *number = get(j, "state.chess960");
        if (json_is_null(number)) {
            assert_true(json_is_null(get(j, "state.start_fen")));
        } else {
            assert_true(json_integer_value(number) >= 0 && json_integer_value(number) < 960);
            assert_string_equal(str(j, "state.variant"), "chess960");
            assert_non_null(strstr(str(j, "state.start_fen"), "/pppppppp/8/8/8/8/PPPPPPPP/"));
        }
        json_decref(j);
    }

    Game2 g;
    new_game(e, "{\"mode\":\"local\",\"variant\":\"chess960\",\"position\":692}", &g);
    j = state_json(e, g.id);
    assert_string_equal(str(j, "start_fen"), "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1");
    assert_string_equal(str(j, "variant"), "chess960");
    assert_int_equal(json_integer_value(get(j, "chess960")), 692);
    json_decref(j);
    int ply = play(e, &g, 0, "Nh3 Nh6 Ne3 Ne6 O-O");
    j = state_json(e, g.id);
    assert_int_equal(ply, 5);
    assert_string_equal(str(json_array_get(get(j, "moves"), 4), "uci"), "e1h1");
    assert_string_equal(str(j, "fen"), "rbbqk2r/pppppppp/4n2n/8/8/4N2N/PPPPPPPP/RBBQ1RK1 b kq - 5 3");
    json_decref(j);
    char *pgn = pgn_of(e, g.id, SCH_LANG_DE);
    assert_non_null(strstr(pgn, "[Variant \"Chess960\"]"));
    assert_non_null(strstr(pgn, "[Event \"Casual Chess960 unlimited game\"]"));
    assert_non_null(strstr(pgn, "3. 0-0"));
    free(pgn);
    assert_state_survives_restart(e, g.id);

    /* The browser's game lists say the variant too. */
    Reply r = {0};
    ServiceRequest list = {.action = ACTION_LIST, .ids = g.id};
    service_handle(e->svc, &list, on_reply, &r);
    j = json_loads(r.body, 0, NULL);
    free(r.body);
    assert_string_equal(str(json_array_get(get(j, "games"), 0), "variant"), "chess960");
    json_decref(j);
}

/* Issue 22: a game nobody began (not both sides moved) is aborted when nothing happened in it for 6 h
 * (live clock) or 7 days (otherwise), counted from its last change, also after a restart; it leaves
 * memory unless it is watched. A game both sides moved in stays. */
static void test_unstarted_expiry(void **state) {
    Env *e = *state;
    const int64_t live_ms = 6 * 3600 * 1000LL, slow_ms = 7 * 86400 * 1000LL;
    const char *live = "{\"time\":{\"type\":\"live\",\"minutes\":5,\"increment\":3}}";
    Game2 a, b, c, d;
    json_t *j = request(e, ACTION_CREATE, NULL, live, SCH_LANG_EN, 201); /* a: live, nobody joined */
    snprintf(a.id, sizeof a.id, "%s", str(j, "id"));
    json_decref(j);
    e->now += 1000;
    new_game(e, "{}", &b); /* b: no clock, joined at T0 + 1 s, nobody moved */
    e->now += 1000;
    new_game(e, live, &c);
    play(e, &c, 0, "e4"); /* c: live, one side moved at T0 + 2 s */
    new_game(e, "{}", &d);
    play(e, &d, 0, "e4 e5"); /* d: begun */
    ServiceStats st;
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 4);
    assert_int_equal(service_next_timer_ms(e->svc), live_ms - 2000);

    /* Not a millisecond early. */
    e->now = T0 + live_ms - 1;
    assert_int_equal(service_next_timer_ms(e->svc), 1);
    service_on_timer(e->svc);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 4);

    /* a expires: aborted in the store, and out of memory. */
    e->now = T0 + live_ms;
    assert_int_equal(service_next_timer_ms(e->svc), 0);
    unsigned seen = wakes_now(e);
    service_on_timer(e->svc);
    settle_timer(e, seen);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 3);
    assert_int_equal(st.games_in_memory, 3);
    char *s = state_text(e, a.id); /* read from the store again (and cached) */
    assert_non_null(strstr(s, "\"result\":\"*\",\"termination\":\"aborted\""));
    free(s);

    /* c expires 6 h after its first move; its watcher hears of it, and it stays while watched. */
    Events ev = {0};
    uint64_t sub = service_subscribe(e->svc, c.id, on_event, &ev);
    assert_int_equal(service_next_timer_ms(e->svc), 2000);
    e->now = T0 + 2000 + live_ms;
    seen = wakes_now(e);
    service_on_timer(e->svc);
    settle_timer(e, seen);
    assert_int_equal(ev.count, 2);
    assert_non_null(strstr(ev.last, "\"termination\":\"aborted\""));
    free(ev.last);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 2);
    assert_int_equal(st.games_in_memory, 4); /* b, d, the watched c, the cached a */
    service_unsubscribe(e->svc, sub);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_memory, 3);

    /* After a restart: b, loaded at start, expires 7 days after its join; d never does. */
    env_close(e);
    env_open(e);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 2);
    assert_int_equal(service_next_timer_ms(e->svc), T0 + 1000 + slow_ms - e->now);
    e->now = T0 + 1000 + slow_ms;
    seen = wakes_now(e);
    service_on_timer(e->svc);
    settle_timer(e, seen);
    service_stats(e->svc, &st);
    assert_int_equal(st.games_in_play, 1);
    assert_int_equal(st.games_in_memory, 1);
    assert_int_equal(service_next_timer_ms(e->svc), -1); /* d has no clock and began */
    s = state_text(e, b.id);
    assert_non_null(strstr(s, "\"termination\":\"aborted\""));
    free(s);
    e->now += 365 * 86400 * 1000LL;
    service_on_timer(e->svc);
    j = state_json(e, d.id);
    assert_true(json_is_null(get(j, "outcome")));
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    json_decref(j);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_whole_game, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_validation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_join, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_draw_offers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claims, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resign_abort, setup, teardown),
        cmocka_unit_test_setup_teardown(test_live_clock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_insufficient, setup, teardown),
        cmocka_unit_test_setup_teardown(test_correspondence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pgn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_and_transport_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_castling_off_the_e_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chess960_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unstarted_expiry, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
