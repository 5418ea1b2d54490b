/* The game service's dead positions (FIDE 5.2.2) and flag falls (6.9) beyond material, against the
 * real SQLite store: the full analyses run on the computer's worker thread, never in the request;
 * their verdicts end games through the store, survive restarts and reach subscribers. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime, pthread_cond_timedwait */

#include "service_harness.h"

/* Qe5-g7+ leaves a dead position that only the full analysis shows dead (the quick pass sees the
 * queen that may still move and the blockade, nothing more). */
#define QUEEN_GIFT "8/7k/7p/4Q1pP/1p1p1pP1/1PpPpP2/2P1P3/3K4 w - - 0 1"

/* One worker thread: the analyses' home. */

static void workers_on(Env *e) {
    ServiceComputerConfig cfg = {.threads = 1, .hash_mb = 1, .depth = 1};
    char err[256];
    if (!service_computer_start(e->svc, &cfg, env_wake, e, err, sizeof err))
        fail_msg("computer: %s", err);
}

/* A wall of kings and pawns the move g4 locks: the quick pass proves it at once, in the request. */
static void test_dead_at_once(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1\"}", &g);
    json_t *j = move_as(e, &g, 0, 0, "g4", NULL, SCH_LANG_EN, 200);
    assert_string_equal(str(j, "state.outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "state.outcome.termination"), "dead_position");
    assert_string_equal(str(j, "state.outcome.reason"), "locked_pawns");
    assert_true(json_is_null(get(j, "state.outcome.winner")));
    json_decref(j);
    expect_error(move_as(e, &g, 1, 1, "Kb6", NULL, SCH_LANG_EN, 409), "game_over");
}

/* White's queen gives itself up on g7 with check (Kxg7 is forced) and nothing else of White's can
 * get past the chain: only the full analysis (an exhaustive search) shows the position dead. The move is answered at once; the worker's verdict ends the game
 * through the store, and the ending survives a restart. */
static void test_dead_by_worker(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    new_game(e, "{\"fen\":\"" QUEEN_GIFT "\"}", &g);
    Events ev = {0};
    service_subscribe(e->svc, g.id, on_event, &ev);
    json_t *j = move_as(e, &g, 0, 0, "Qg7+", NULL, SCH_LANG_EN, 200);
    json_decref(j);
    j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    assert_string_equal(str(j, "outcome.reason"), "locked_pawns");
    assert_int_equal(json_integer_value(get(j, "ply")), 1);
    json_decref(j);
    assert_true(ev.count >= 2); /* the move, then the ending */
    free(ev.last);
    env_close(e);
    env_open(e);
    char *s = state_text(e, g.id);
    j = json_loads(s, 0, NULL);
    free(s);
    /* The reason was stored with the ending: the analysis does not run again when a game is read. */
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    assert_string_equal(str(j, "outcome.reason"), "locked_pawns");
    assert_string_equal(str(j, "outcome.text"), "Draw: dead position – the pawns are locked and no piece can break "
                                                "through, no checkmate is possible any more");
    assert_string_equal(str(j, "outcome.text_de"), "Remis: tote Stellung – die Bauernketten sind blockiert, keine "
                                                   "Figur kann durchbrechen, kein Matt ist mehr möglich");
    json_decref(j);
}

/* The same without workers (a service whose computer never started): the analysis runs inline. */
static void test_dead_without_workers(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"fen\":\"" QUEEN_GIFT "\"}", &g);
    json_decref(move_as(e, &g, 0, 0, "Qg7+", NULL, SCH_LANG_EN, 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    json_decref(j);
}

/* Flag falls judged on the worker: K+N v K+R, White's flag: the knight can mate (the rook blocks a
 * flight square), so Black wins; K+N v K+Q: the knight never mates the queen's king, a draw. A move
 * after the flag fell is refused while the verdict is on its way. */
static void test_flag_fall_judged(void **state) {
    Env *e = *state;
    workers_on(e);
    static const struct {
        const char *fen, *result, *termination;
    } cases[] = {
        {"8/8/8/4k1n1/8/8/8/R3K3 w - - 0 1", "0-1", "time_forfeit"},
        {"8/8/8/4k1n1/8/8/8/3QK3 w - - 0 1", "1/2-1/2", "timeout_insufficient_material"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game2 g;
        char body[256];
        snprintf(body, sizeof body, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0},\"fen\":\"%s\"}",
                 cases[i].fen);
        new_game(e, body, &g);
        play(e, &g, 0, "Ke2 Nf3");
        e->now += 60001;
        expect_error(move_as(e, &g, 0, 2, "Kxf3", NULL, SCH_LANG_EN, 409), "game_over");
        json_t *j = wait_for_end(e, g.id);
        assert_string_equal(str(j, "outcome.result"), cases[i].result);
        assert_string_equal(str(j, "outcome.termination"), cases[i].termination);
        assert_int_equal(json_integer_value(get(j, "ply")), 2);
        json_decref(j);
    }
}

/* A game in play survives a restart and still hands its locked positions to the workers: the move
 * that locks the wall after the restart ends the game. */
static void test_loaded_dead_game_ends(void **state) {
    Env *e = *state;
    Game2 g;
    new_game(e, "{\"fen\":\"8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1\"}", &g);
    /* Two king moves: the wall stays open on the g-file. */
    play(e, &g, 0, "Kb1 Kb6");
    char *s = state_text(e, g.id);
    assert_non_null(strstr(s, "\"outcome\":null"));
    free(s);
    env_close(e);
    env_open(e);
    workers_on(e);
    json_decref(move_as(e, &g, 0, 2, "g4", NULL, SCH_LANG_EN, 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    json_decref(j);
}

/* White to move after ...Qb7+: the king must take the queen (Kxb7 is its only move), so Black can
 * never mate, though a queen is mating material. White's flag falls: a draw by 6.9
 * (timeout_unwinnable), which material alone would have called a win for Black. */
#define QUEEN_LOST_FEN "K7/8/1q3R2/1k6/8/8/3P4/8 w - - 0 1"

/* A live game of 1 minute from QUEEN_LOST_FEN after d3 Qb7+: the clock runs, White is to move. */
static void queen_lost_game(Env *e, Game2 *g) {
    new_game(e, "{\"time\":{\"type\":\"live\",\"minutes\":1,\"increment\":0},\"fen\":\"" QUEEN_LOST_FEN "\"}", g);
    play(e, g, 0, "d3 Qb7+");
}

static void expect_queen_lost_draw(const json_t *j) {
    assert_string_equal(str(j, "outcome.result"), "1/2-1/2");
    assert_string_equal(str(j, "outcome.termination"), "timeout_unwinnable");
    assert_string_equal(str(j, "outcome.reason"), "no_mate_reachable");
    assert_true(json_is_null(get(j, "outcome.winner")));
    assert_non_null(strstr(str(j, "outcome.text"), "Time ran out, but the opponent cannot checkmate ("));
    assert_non_null(
        strstr(str(j, "outcome.text_de"), "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen ("));
    assert_int_equal(json_integer_value(get(j, "ply")), 2);
    assert_int_equal(json_integer_value(get(j, "clock.white")), 0);
}

/* 6.9 beyond material, judged on the worker; the reason survives a restart. */
static void test_flag_fall_unwinnable(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    queen_lost_game(e, &g);
    e->now += 60001;
    service_on_timer(e->svc);
    json_t *j = wait_for_end(e, g.id);
    expect_queen_lost_draw(j);
    json_decref(j);
    env_close(e);
    env_open(e);
    char *s = state_text(e, g.id);
    j = json_loads(s, 0, NULL);
    free(s);
    expect_queen_lost_draw(j);
    json_decref(j);
}

/* While the 6.9 verdict is on its way the game takes no move and shows no outcome, the timers leave it
 * alone (no timer of 0 ms for as long as the worker takes), and a restart before the verdict was
 * stored decides the flag fall again. */
static void test_flag_verdict_on_its_way(void **state) {
    Env *e = *state;
    workers_on(e);
    Game2 g;
    queen_lost_game(e, &g);
    e->now += 60001;
    assert_int_equal(service_next_timer_ms(e->svc), 0);
    service_on_timer(e->svc); /* the flag fell: the analysis goes to the worker */
    /* The test delivers no wake-up: to the service the verdict is still on its way. */
    assert_int_equal(service_next_timer_ms(e->svc), -1);
    e->now += 5000;
    assert_int_equal(service_next_timer_ms(e->svc), -1);
    expect_error(move_as(e, &g, 0, 2, "Kxb7", NULL, SCH_LANG_EN, 409), "game_over");
    char *s = state_text(e, g.id);
    json_t *j = json_loads(s, 0, NULL);
    free(s);
    assert_true(json_is_null(get(j, "outcome")));
    assert_int_equal(json_integer_value(get(j, "clock.white")), 0);
    assert_string_equal(str(j, "clock.running"), "white");
    json_decref(j);

    /* The server stops before the verdict is stored; after the restart the timer decides again (here
     * without workers: inline). */
    env_close(e);
    env_open(e);
    assert_int_equal(service_next_timer_ms(e->svc), 0);
    unsigned seen = wakes_now(e);
    service_on_timer(e->svc);
    settle_timer(e, seen);
    s = state_text(e, g.id);
    j = json_loads(s, 0, NULL);
    free(s);
    expect_queen_lost_draw(j);
    json_decref(j);
}

/* The analyses have a thread of their own: a dead position is settled while the only search worker
 * is busy (here: held for an hour) with the computer's move in another game. */
static void test_analysis_not_behind_search(void **state) {
    Env *e = *state;
    ServiceComputerConfig cfg = {.threads = 1, .hash_mb = 1, .depth = 1, .delay_ms = 3600000};
    char err[256];
    if (!service_computer_start(e->svc, &cfg, env_wake, e, err, sizeof err))
        fail_msg("computer: %s", err);
    json_t *c = request(e, ACTION_CREATE, NULL, "{\"mode\":\"computer\",\"level\":\"club\",\"color\":\"black\"}",
                        SCH_LANG_EN, 201); /* the computer has White: it starts thinking */
    json_decref(c);
    Game2 g;
    new_game(e, "{\"fen\":\"" QUEEN_GIFT "\"}", &g);
    json_decref(move_as(e, &g, 0, 0, "Qg7+", NULL, SCH_LANG_EN, 200));
    json_t *j = wait_for_end(e, g.id);
    assert_string_equal(str(j, "outcome.termination"), "dead_position");
    json_decref(j);
}

/* Writes a game in play straight through the store, as a server from before dead positions left it:
 * from fen, with the moves (UCI, space-separated) played past the moment the position died. */
static void store_old_game(Env *e, const char *id, const char *fen, const char *moves) {
    StoreOp ops[16];
    memset(ops, 0, sizeof ops);
    GameRecord *rec = &ops[0].record;
    snprintf(rec->id, sizeof rec->id, "%s", id);
    rec->created_ms = rec->updated_ms = T0;
    snprintf(rec->start_fen, sizeof rec->start_fen, "%s", fen);
    snprintf(rec->mode, sizeof rec->mode, "local");
    rec->time.type = TIME_NONE;
    rec->invite_color = -1;
    rec->draw_offer = -1;
    ops[0].create = true;
    int n = 1;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", moves);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok && n < 16; tok = strtok_r(NULL, " ", &save), n++) {
        ops[n].append = true;
        snprintf(ops[n].record.id, sizeof ops[n].record.id, "%s", id);
        ops[n].ply = n - 1;
        snprintf(ops[n].move.uci, sizeof ops[n].move.uci, "%s", tok);
        ops[n].move.at_ms = T0 + n;
    }
    unsigned seen = wakes_now(e);
    for (int i = 0; i < n; i++)
        store_submit(e->store, &ops[i]);
    int back = 0;
    while (back < n) {
        for (StoreOp *op = store_take_done(e->store); op; op = op->next, back++)
            assert_true(op->ok);
        if (back < n) {
            wait_wake_after(e, seen);
            seen = wakes_now(e);
        }
    }
}

/* Games an older server let go on past a dead position are read back whole and ended when the server
 * starts: one the quick pass proves at load, one only the worker's full analysis settles. The ending
 * stands at the last stored ply (a dead position stays dead). */
static void test_stored_games_past_dead_positions(void **state) {
    Env *e = *state;
    store_old_game(e, "oldwall00001", "8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1", "g3g4 a6b6 a1b1");
    store_old_game(e, "oldqueen0001", QUEEN_GIFT, "e5g7");
    env_close(e);
    env_open(e);
    workers_on(e);
    const char *ids[] = {"oldwall00001", "oldqueen0001"};
    const int plies[] = {3, 1};
    for (int i = 0; i < 2; i++) {
        json_t *j = wait_for_end(e, ids[i]);
        assert_string_equal(str(j, "outcome.termination"), "dead_position");
        assert_string_equal(str(j, "outcome.reason"), "locked_pawns");
        assert_int_equal(json_integer_value(get(j, "ply")), plies[i]);
        json_decref(j);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dead_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dead_by_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dead_without_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flag_fall_judged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loaded_dead_game_ends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flag_fall_unwinnable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flag_verdict_on_its_way, setup, teardown),
        cmocka_unit_test_setup_teardown(test_analysis_not_behind_search, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stored_games_past_dead_positions, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
