/* The store's tests that hold for every backend, against the interface alone: test_store.c runs them
 * on SQLite, test_store_pg.c on PostgreSQL. Each test's TestDir.db names its (fresh, empty) database:
 * a file path or a conninfo, whatever the fixture's opener takes (store_fixture.h). */
#ifndef SCHACH_TESTS_STORE_CASES_H
#define SCHACH_TESTS_STORE_CASES_H

#include <ctype.h>

#include "store/store_accounts.h"
#include "store_fixture.h"

/* A test program may leave out cases its backend does not support yet (SQLite: the row versions,
 * leases, scan and revs of schema 7), so none of them is an unused-function warning. */
#define STORE_CASE static __attribute__((unused)) void

STORE_CASE test_round_trip(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);

    /* Game 2 starts with a move in the same op; game 3 has no moves. */
    StoreOp ops[12], *back[12];
    int n = 0;
    set_create(&ops[n++], 2);
    ops[n - 1].append = true;
    ops[n - 1].ply = 0;
    ops[n - 1].move = move_for(0);
    set_create(&ops[n++], 3);
    for (int ply = 1; ply < 6; ply++)
        set_append(&ops[n++], 2, ply);
    /* The outcome: an update together with the last move. */
    set_append(&ops[n++], 2, 6);
    ops[n - 1].update = true;
    make_record(&ops[n - 1].record, 2);
    GameRecord *final2 = &ops[n - 1].record;
    snprintf(final2->result, sizeof final2->result, "%s", "1-0");
    snprintf(final2->termination, sizeof final2->termination, "%s", "checkmate");
    final2->updated_ms += 60000;
    final2->draw_offer = 1;
    memset(final2->invite_hash, 0, sizeof final2->invite_hash);
    final2->invite_color = -1;
    final2->turn_started_ms = 0;
    final2->plies = 7;
    for (int i = 0; i < n; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, n), n);
    for (int i = 0; i < n; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    store_close(store);
    assert_true(waker_calls(&w) >= 1);
    waker_destroy(&w);

    /* Game 2 is finished: load() leaves it on disk, get() reads it. */
    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], &ops[1].record);
    assert_int_equal(l->move_count[0], 0);
    loaded_free(l);
    store = open_with_waker(d->db, &w);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    char err[256] = "";
    assert_int_equal(store_get(store, final2->id, on_game, l, err, sizeof err), 1);
    assert_int_equal(l->count, 1);
    assert_records_equal(&l->records[0], final2);
    assert_int_equal(l->move_count[0], 7);
    assert_moves(l->moves[0], 7);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);

    /* Damage the database does not see (here: a move row gone) no longer serves the game cut short: its
     * row says it ended at ply 7, so the read fails (the server answers 503 storage). */
    fixture_drop_move(d->db, final2->id, 6);
    store = open_with_waker(d->db, &w);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    err[0] = '\0';
    assert_int_equal(store_get(store, final2->id, on_game, l, err, sizeof err), -1);
    assert_non_null(strstr(err, "damaged: game g00000000002 has 6 moves stored, but its row was written at ply 7"));
    assert_int_equal(l->count, 0);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

/* Sets op to finish game n with result at updated_ms. */
static inline void set_finish(StoreOp *op, int n, const char *result, int64_t updated_ms) {
    memset(op, 0, sizeof *op);
    op->update = true;
    make_record(&op->record, n);
    snprintf(op->record.result, sizeof op->record.result, "%s", result);
    snprintf(op->record.termination, sizeof op->record.termination, "%s", "resignation");
    op->record.updated_ms = updated_ms;
}

/* load() hands out the games in play only (oldest first), get() any game by id and 0 for an unknown
 * one, recent() the finished games with the newest update first, at most max of them. */
STORE_CASE test_load_get_recent(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { GAMES = 6 };
    StoreOp ops[GAMES + 4], *back[GAMES + 4];
    int n = 0;
    for (int g = 0; g < GAMES; g++)
        set_create(&ops[n++], 40 + g);
    set_append(&ops[n++], 41, 0);
    /* Finished in an order that is neither creation nor id order. */
    set_finish(&ops[n++], 41, "1-0", 1800000000300);
    set_finish(&ops[n++], 43, "0-1", 1800000000100);
    set_finish(&ops[n++], 44, "1/2-1/2", 1800000000200);
    for (int i = 0; i < n; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, n), n);
    for (int i = 0; i < n; i++)
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 3);
    assert_string_equal(l->records[0].id, ops[0].record.id);
    assert_string_equal(l->records[1].id, ops[2].record.id);
    assert_string_equal(l->records[2].id, ops[5].record.id);
    loaded_free(l);

    store = open_with_waker(d->db, &w);
    char err[256] = "";
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(store_recent(store, 10, on_game, l, err, sizeof err), 3);
    assert_records_equal(&l->records[0], &ops[GAMES + 1].record); /* 41, updated last */
    assert_int_equal(l->move_count[0], 1);
    assert_moves(l->moves[0], 1);
    assert_records_equal(&l->records[1], &ops[GAMES + 3].record); /* 44 */
    assert_records_equal(&l->records[2], &ops[GAMES + 2].record); /* 43 */
    loaded_free(l);
    l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(store_recent(store, 2, on_game, l, err, sizeof err), 2);
    assert_string_equal(l->records[1].id, ops[GAMES + 3].record.id);
    assert_int_equal(store_get(store, ops[GAMES + 2].record.id, on_game, l, err, sizeof err), 1); /* finished */
    assert_int_equal(store_get(store, ops[0].record.id, on_game, l, err, sizeof err), 1);         /* in play */
    assert_int_equal(l->count, 4);
    assert_records_equal(&l->records[2], &ops[GAMES + 2].record);
    assert_records_equal(&l->records[3], &ops[0].record);
    assert_int_equal(store_get(store, "nosuchgame00", on_game, l, err, sizeof err), 0);
    assert_int_equal(l->count, 4);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

/* Single ops, each awaited before the next: one batch, one wake each. */
STORE_CASE test_wake_once_per_batch(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[5], *back[1];
    set_create(&ops[0], 4);
    for (int i = 1; i < 5; i++)
        set_append(&ops[i], 4, i - 1);
    for (int i = 0; i < 5; i++) {
        store_submit(store, &ops[i]);
        assert_int_equal(collect(store, &w, back, 1), 1);
        assert_ptr_equal(back[0], &ops[i]);
        assert_true(ops[i].ok);
    }
    assert_null(store_take_done(store));
    store_close(store); /* joins the writer: every wake has returned */
    assert_int_equal(waker_calls(&w), 5);
    waker_destroy(&w);
}

#define MANY_GAMES 10
#define MANY_PLIES 100
#define MANY_OPS   (MANY_GAMES + MANY_GAMES * MANY_PLIES)

/* 1010 ops, submitted in two waves while the writer commits: all ok, back in submission order. */
STORE_CASE test_many_ops_in_order(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp *ops = calloc(MANY_OPS, sizeof *ops);
    StoreOp **back = calloc(MANY_OPS, sizeof *back);
    assert_non_null(ops);
    assert_non_null(back);
    int n = 0;
    for (int g = 0; g < MANY_GAMES; g++)
        set_create(&ops[n++], 100 + g);
    for (int ply = 0; ply < MANY_PLIES; ply++)
        for (int g = 0; g < MANY_GAMES; g++)
            set_append(&ops[n++], 100 + g, ply);
    assert_int_equal(n, MANY_OPS);

    int half = MANY_OPS / 2;
    for (int i = 0; i < half; i++)
        store_submit(store, &ops[i]);
    int got = collect_some(store, &w, back, 100, MANY_OPS);
    for (int i = half; i < MANY_OPS; i++)
        store_submit(store, &ops[i]);
    got += collect(store, &w, back + got, MANY_OPS - got);
    assert_int_equal(got, MANY_OPS);
    for (int i = 0; i < MANY_OPS; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    assert_null(store_take_done(store));
    store_close(store);
    assert_true(waker_calls(&w) >= 1);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, MANY_GAMES);
    for (int g = 0; g < MANY_GAMES; g++) {
        assert_records_equal(&l->records[g], &ops[g].record);
        assert_int_equal(l->move_count[g], MANY_PLIES);
        assert_moves(l->moves[g], MANY_PLIES);
    }
    loaded_free(l);
    free(back);
    free(ops);
}

/* 1000 ops queued while the writer is held inside the first batch's wake: they can form at most two
 * batches, so one batch carries at least 500 ops (one wake per batch). */
STORE_CASE test_batches_group(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { N = 1000 };
    StoreOp *ops = calloc(N, sizeof *ops);
    StoreOp **back = calloc(N, sizeof *back);
    assert_non_null(ops);
    assert_non_null(back);
    set_create(&ops[0], 7);
    for (int i = 1; i < N; i++)
        set_append(&ops[i], 7, i - 1);

    waker_set_gate(&w, true);
    for (int i = 0; i < N; i++)
        store_submit(store, &ops[i]);
    waker_set_gate(&w, false);
    assert_int_equal(collect(store, &w, back, N), N);
    for (int i = 0; i < N; i++) {
        assert_ptr_equal(back[i], &ops[i]);
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);
    }
    store_close(store);
    unsigned long batches = waker_calls(&w);
    assert_true(batches >= 1 && batches <= 2);
    assert_true(N / batches > 1);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->move_count[0], N - 1);
    assert_moves(l->moves[0], N - 1);
    loaded_free(l);
    free(back);
    free(ops);
}

/* In one batch: a duplicate ply, an update combined with a duplicate ply, and a second create of a
 * game fail alone (each rolled back whole); the ops around them commit. */
STORE_CASE test_failing_op_rolled_back_alone(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp first[2], *back[2];
    set_create(&first[0], 8);
    set_append(&first[1], 8, 0);
    store_submit(store, &first[0]);
    store_submit(store, &first[1]);
    assert_int_equal(collect(store, &w, back, 2), 2);
    assert_true(first[0].ok && first[1].ok);

    StoreOp ops[7];
    set_append(&ops[0], 8, 1); /* ok */
    set_append(&ops[1], 8, 0); /* duplicate ply */
    ops[1].move.at_ms = 42;
    snprintf(ops[1].move.uci, sizeof ops[1].move.uci, "%s", "h7h8q");
    set_append(&ops[2], 8, 2); /* ok: follows ply 1 */
    set_append(&ops[3], 8, 1); /* duplicate again, with an update that must not stay */
    ops[3].update = true;
    make_record(&ops[3].record, 8);
    snprintf(ops[3].record.result, sizeof ops[3].record.result, "%s", "0-1");
    set_create(&ops[4], 8);    /* the game exists */
    set_append(&ops[5], 8, 9); /* a gap */
    set_create(&ops[6], 9);    /* ok */
    /* Held in wake: the seven ops form at most two batches, and every failing one shares its batch with
     * an op that commits. */
    waker_set_gate(&w, true);
    StoreOp barrier;
    set_append(&barrier, 8, 1000); /* a gap, fails too */
    store_submit(store, &barrier);
    for (int i = 0; i < 7; i++)
        store_submit(store, &ops[i]);
    waker_set_gate(&w, false);
    StoreOp *all[8];
    assert_int_equal(collect(store, &w, all, 8), 8);
    assert_false(barrier.ok);
    assert_true(ops[0].ok);
    assert_false(ops[1].ok);
    assert_false(ops[1].fault); /* the op's own failure, not the storage's */
    assert_non_null(strstr(ops[1].error, "ply 0"));
    assert_true(ops[2].ok);
    assert_false(ops[3].ok);
    assert_true(strlen(ops[3].error) > 0);
    assert_false(ops[4].ok);
    assert_false(ops[4].fault);
    assert_non_null(strstr(ops[4].error, "create of game g00000000008")); /* the backend's words follow */
    assert_false(ops[5].ok);
    assert_true(ops[6].ok);
    store_close(store);
    waker_destroy(&w);

    Loaded *l = reopen_and_load(d->db);
    assert_int_equal(l->count, 2);
    assert_records_equal(&l->records[0], &first[0].record); /* result still "" */
    assert_int_equal(l->move_count[0], 3);
    assert_moves(l->moves[0], 3);
    assert_records_equal(&l->records[1], &ops[6].record);
    loaded_free(l);
}

/* An update of a game that does not exist fails; so does an op that names no write. */
STORE_CASE test_update_missing_game(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[2], *back[2];
    memset(ops, 0, sizeof ops);
    ops[0].update = true;
    make_record(&ops[0].record, 11);
    make_record(&ops[1].record, 11);
    store_submit(store, &ops[0]);
    store_submit(store, &ops[1]);
    assert_int_equal(collect(store, &w, back, 2), 2);
    assert_false(ops[0].ok);
    assert_non_null(strstr(ops[0].error, "no such game"));
    assert_false(ops[1].ok);
    assert_true(strlen(ops[1].error) > 0);
    store_close(store);
    waker_destroy(&w);
}

/* ---- row versions, leases, scan and revs (the interface of several servers on one database) ---- */

/* Reads game n through get(); fails the test when it is not there. */
static inline Loaded *get_game(Store *store, int n) {
    char id[STORE_ID_LEN + 1], err[256] = "";
    snprintf(id, sizeof id, "g%011d", n);
    Loaded *l = calloc(1, sizeof *l);
    assert_non_null(l);
    if (store_get(store, id, on_game, l, err, sizeof err) != 1)
        fail_msg("get %s: %s", id, err);
    return l;
}

/* create gives rev 1, every update and append one more (both in one op: one more); an op made on a rev
 * that is no longer the stored one conflicts and writes nothing; base_rev 0 applies whatever the rev. */
STORE_CASE test_rev_counts_and_conflicts(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 60);
    op.record.rev = 99; /* ignored: the store sets it */
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(op.record.rev, 1);

    memset(&op, 0, sizeof op);
    op.update = true;
    make_record(&op.record, 60);
    op.record.updated_ms += 10;
    op.base_rev = 1;
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(op.record.rev, 2);

    set_append(&op, 60, 0);
    op.base_rev = 2;
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(op.record.rev, 3);

    StoreOp both;
    set_append(&both, 60, 1);
    both.update = true;
    make_record(&both.record, 60);
    both.record.updated_ms += 20;
    both.record.plies = 2;
    both.base_rev = 3;
    submit_and_wait(store, &w, &both);
    assert_true(both.ok);
    assert_int_equal(both.record.rev, 4);

    set_append(&op, 60, 2);
    op.base_rev = 0;
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(op.record.rev, 5);

    /* Stale: made on rev 3. Neither the move nor the row may change. */
    StoreOp stale;
    set_append(&stale, 60, 3);
    stale.base_rev = 3;
    submit_and_wait(store, &w, &stale);
    assert_false(stale.ok);
    assert_true(stale.conflict);
    assert_false(stale.fault);
    StoreOp stale_update;
    memset(&stale_update, 0, sizeof stale_update);
    stale_update.update = true;
    make_record(&stale_update.record, 60);
    snprintf(stale_update.record.result, sizeof stale_update.record.result, "%s", "0-1");
    stale_update.base_rev = 4;
    submit_and_wait(store, &w, &stale_update);
    assert_false(stale_update.ok);
    assert_true(stale_update.conflict);

    /* A plain failure is no conflict: the right rev, the wrong ply. */
    StoreOp gap;
    set_append(&gap, 60, 7);
    gap.base_rev = 5;
    submit_and_wait(store, &w, &gap);
    assert_false(gap.ok);
    assert_false(gap.conflict);
    assert_false(gap.fault);

    Loaded *l = get_game(store, 60);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->records[0].rev, 5);
    assert_records_equal(&l->records[0], &both.record);
    assert_int_equal(l->move_count[0], 3);
    assert_moves(l->moves[0], 3);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);

    /* What load() reads carries the rev too. */
    l = reopen_and_load(d->db);
    assert_int_equal(l->count, 1);
    assert_int_equal(l->records[0].rev, 5);
    loaded_free(l);
}

static inline void set_claim(StoreOp *op, int n, const char *node, int64_t now_ms, int64_t until_ms) {
    memset(op, 0, sizeof *op);
    op->claim = true;
    snprintf(op->record.id, sizeof op->record.id, "g%011d", n);
    snprintf(op->node, sizeof op->node, "%s", node);
    op->now_ms = now_ms;
    op->lease_until_ms = until_ms;
}

/* The first claim wins; another node's conflicts until the lease expired; the holder renews. Claims
 * change no rev. Times are the ops' own (now_ms), so nothing sleeps. */
STORE_CASE test_claim_leases(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp op;
    set_create(&op, 61);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);

    set_claim(&op, 61, "node-a", 1000, 2000);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    set_claim(&op, 61, "node-b", 1500, 2500);
    submit_and_wait(store, &w, &op);
    assert_false(op.ok);
    assert_true(op.conflict);
    assert_false(op.fault);
    set_claim(&op, 61, "node-a", 1500, 3000); /* renewed */
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    set_claim(&op, 61, "node-b", 2500, 4000); /* node-a's first lease would have expired, the renewal holds */
    submit_and_wait(store, &w, &op);
    assert_true(op.conflict);
    set_claim(&op, 61, "node-b", 3001, 4000);
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    set_claim(&op, 61, "node-a", 3500, 5000);
    submit_and_wait(store, &w, &op);
    assert_true(op.conflict);

    /* A claim made on a rev that is gone conflicts; on the right one it applies. */
    set_claim(&op, 61, "node-b", 3500, 5000);
    op.base_rev = 7;
    submit_and_wait(store, &w, &op);
    assert_true(op.conflict);
    set_claim(&op, 61, "node-b", 3500, 5000);
    op.base_rev = 1;
    submit_and_wait(store, &w, &op);
    assert_true(op.ok);
    assert_int_equal(op.record.rev, 1);

    /* No such game: a failure, no conflict. */
    set_claim(&op, 62, "node-a", 1, 2);
    submit_and_wait(store, &w, &op);
    assert_false(op.ok);
    assert_false(op.conflict);

    Loaded *l = get_game(store, 61);
    assert_int_equal(l->records[0].rev, 1);
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

/* Pages through every game, in play or finished, each once, with its moves. */
STORE_CASE test_scan_pages(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    enum { GAMES = 25 };
    StoreOp ops[GAMES * 2], *back[GAMES * 2];
    int n = 0;
    for (int g = 0; g < GAMES; g++) {
        set_create(&ops[n], 200 + g);
        if (g % 3 == 0) { /* with a first move */
            ops[n].append = true;
            ops[n].ply = 0;
            ops[n].move = move_for(0);
        }
        n++;
    }
    for (int g = 0; g < GAMES; g += 4) {
        memset(&ops[n], 0, sizeof ops[n]);
        ops[n].update = true;
        make_record(&ops[n].record, 200 + g);
        snprintf(ops[n].record.result, sizeof ops[n].record.result, "%s", "1-0");
        n++;
    }
    for (int i = 0; i < n; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, n), n);
    for (int i = 0; i < n; i++)
        if (!ops[i].ok)
            fail_msg("op %d: %s", i, ops[i].error);

    Loaded *l = calloc(1, sizeof *l);
    assert_non_null(l);
    char after[STORE_ID_LEN + 1] = "", err[256] = "";
    int pages = 0, got;
    do {
        int before = l->count;
        got = store_scan(store, after, 10, on_game, l, err, sizeof err);
        if (got < 0)
            fail_msg("scan: %s", err);
        assert_int_equal(l->count - before, got);
        if (got > 0)
            snprintf(after, sizeof after, "%s", l->records[l->count - 1].id);
        pages++;
        assert_true(pages <= 4);
    } while (got == 10);
    assert_int_equal(l->count, GAMES);
    assert_int_equal(pages, 3);
    for (int g = 0; g < GAMES; g++) {
        GameRecord want;
        make_record(&want, 200 + g);
        if (g % 4 == 0)
            snprintf(want.result, sizeof want.result, "%s", "1-0");
        assert_records_equal(&l->records[g], &want);
        assert_int_equal(l->move_count[g], g % 3 == 0 ? 1 : 0);
        assert_moves(l->moves[g], l->move_count[g]);
    }
    loaded_free(l);
    store_close(store);
    waker_destroy(&w);
}

typedef struct RevsSeen {
    int count;
    char ids[8][STORE_ID_LEN + 1];
    int64_t revs[8];
} RevsSeen;

static inline void on_rev(void *ctx, const char *id, int64_t rev) {
    RevsSeen *r = ctx;
    assert_true(r->count < 8);
    snprintf(r->ids[r->count], sizeof r->ids[r->count], "%s", id);
    r->revs[r->count++] = rev;
}

static inline int64_t seen_rev(const RevsSeen *r, const char *id) {
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->ids[i], id) == 0)
            return r->revs[i];
    return -1;
}

/* The stored rev of each game asked for that exists. */
STORE_CASE test_revs_lookup(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    StoreOp ops[5], *back[5];
    set_create(&ops[0], 70);
    set_create(&ops[1], 71);
    set_append(&ops[2], 71, 0);
    set_append(&ops[3], 71, 1);
    set_create(&ops[4], 72);
    for (int i = 0; i < 5; i++)
        store_submit(store, &ops[i]);
    assert_int_equal(collect(store, &w, back, 5), 5);
    for (int i = 0; i < 5; i++)
        assert_true(ops[i].ok);
    const char *ids[] = {"g00000000071", "nosuchgame00", "g00000000070", "with\"quote\\"};
    RevsSeen seen = {0};
    char err[256] = "";
    int found = store_revs(store, ids, 4, on_rev, &seen, err, sizeof err);
    if (found < 0)
        fail_msg("revs: %s", err);
    assert_int_equal(found, 2);
    assert_int_equal(seen.count, 2);
    assert_int_equal(seen_rev(&seen, "g00000000071"), 3);
    assert_int_equal(seen_rev(&seen, "g00000000070"), 1);
    assert_int_equal(store_revs(store, ids, 0, on_rev, &seen, err, sizeof err), 0);
    store_close(store);
    waker_destroy(&w);
}

/* Accounts and sessions (store_accounts.h): a name is taken whatever its case, a session finds its
 * account until it expires or is ended, a new password ends the other sessions, and everything is
 * still there after the store was closed and opened again (each call committed before it returned). */
STORE_CASE test_accounts_and_sessions(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    if (!a)
        fail_msg("accounts_open: %s", err);
    AccountRow row = {.key = "magnus",
                      .name = "Magnus",
                      .password_hash = "$argon2id$v=19$m=65536,t=2,p=1$x$y",
                      .created_ms = 1700000000000};
    assert_int_equal(a->vtbl->create(a, &row, err, sizeof err), SA_OK);
    AccountRow again = row;
    snprintf(again.name, sizeof again.name, "%s", "MAGNUS");
    assert_int_equal(a->vtbl->create(a, &again, err, sizeof err), SA_TAKEN);
    AccountRow got;
    assert_int_equal(a->vtbl->get(a, "magnus", &got, err, sizeof err), SA_OK);
    assert_string_equal(got.name, "Magnus");
    assert_string_equal(got.password_hash, row.password_hash);
    assert_true(got.created_ms == row.created_ms);
    assert_int_equal(a->vtbl->get(a, "nobody", &got, err, sizeof err), SA_NOT_FOUND);

    unsigned char s1[STORE_HASH_LEN], s2[STORE_HASH_LEN], s3[STORE_HASH_LEN];
    memset(s1, 1, sizeof s1);
    memset(s2, 2, sizeof s2);
    memset(s3, 3, sizeof s3);
    s1[0] = 0; /* binary, with a NUL inside */
    int64_t now = 1700000001000;
    assert_int_equal(a->vtbl->session_create(a, "magnus", s1, now, now + 1000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "magnus", s2, now, now + 100000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "magnus", s3, now, now + 100000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "nobody", s3, now, now + 1000, err, sizeof err), SA_NOT_FOUND);
    memset(&got, 0, sizeof got);
    assert_int_equal(a->vtbl->session_get(a, s1, now + 999, &got, err, sizeof err), SA_OK);
    assert_string_equal(got.key, "magnus");
    assert_string_equal(got.name, "Magnus");
    assert_int_equal(a->vtbl->session_get(a, s1, now + 1000, &got, err, sizeof err), SA_NOT_FOUND); /* expired */
    assert_int_equal(a->vtbl->session_delete(a, s2, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_delete(a, s2, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->session_get(a, s2, now, &got, err, sizeof err), SA_NOT_FOUND);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);

    /* Durable: another store on the same database sees all of it; a new password ends the other
     * sessions but the one kept. */
    store = open_with_waker(d->db, &w);
    a = store_accounts_open(store, err, sizeof err);
    assert_non_null(a);
    assert_int_equal(a->vtbl->session_get(a, s3, now, &got, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "magnus", s2, now, now + 100000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->revoke_access(a, "magnus", "$argon2id$new", s3, NULL, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_get(a, s2, now, &got, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->session_get(a, s3, now, &got, err, sizeof err), SA_OK);
    assert_string_equal(got.password_hash, "$argon2id$new");
    assert_int_equal(a->vtbl->revoke_access(a, "magnus", "$argon2id$newer", NULL, NULL, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_get(a, s3, now, &got, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->revoke_access(a, "nobody", "$argon2id$x", NULL, NULL, err, sizeof err), SA_NOT_FOUND);
    /* A session of an expired and a live one: creating one clears the account's expired sessions. */
    assert_int_equal(a->vtbl->session_create(a, "magnus", s1, now, now + 10, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "magnus", s2, now + 20, now + 100000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_delete(a, s1, err, sizeof err), SA_NOT_FOUND);
    /* One account holds at most STORE_SESSIONS_MAX sessions: the oldest give way. */
    unsigned char many[STORE_SESSIONS_MAX + 5][STORE_HASH_LEN];
    for (int i = 0; i < STORE_SESSIONS_MAX + 5; i++) {
        memset(many[i], 0x80 + i, STORE_HASH_LEN);
        assert_int_equal(a->vtbl->session_create(a, "magnus", many[i], now + 1000 + i, now + 100000, err, sizeof err),
                         SA_OK);
    }
    for (int i = 0; i < STORE_SESSIONS_MAX + 5; i++)
        assert_int_equal(a->vtbl->session_get(a, many[i], now + 2000, &got, err, sizeof err),
                         i < 5 ? SA_NOT_FOUND : SA_OK);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);
}

/* Game n with the accounts white and black ("" for none) on seat epoch 0, created. */
static inline void create_played_by(Store *store, Waker *w, int n, const char *white, const char *black) {
    StoreOp op;
    set_create(&op, n);
    snprintf(op.record.account[0], sizeof op.record.account[0], "%s", white);
    snprintf(op.record.account[1], sizeof op.record.account[1], "%s", black);
    op.record.seat_epoch[0] = op.record.seat_epoch[1] = 0;
    submit_and_wait(store, w, &op);
    if (!op.ok)
        fail_msg("create game %d: %s", n, op.error);
}

/* Names (schema 14): one whose confusable skeleton (I, l, 1 and O, 0 alike, any case) another account
 * has is SA_CONFUSABLE, the same name in another case SA_TAKEN. Revoking an account's access: its seat
 * epoch and that of every side it plays go up by one, with those rows' revs; its sessions end but the
 * one kept; the password changes only when one is given; other accounts' sides and games stay. */
STORE_CASE test_revoke_access_and_skeletons(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    if (!a)
        fail_msg("accounts_open: %s", err);
    AccountRow row = {.key = "alice01", .name = "alice01", .password_hash = "$argon2id$a", .created_ms = 1};
    assert_int_equal(a->vtbl->create(a, &row, err, sizeof err), SA_OK);
    static const struct {
        const char *name;
        StoreAccountResult want;
    } names[] = {{"aIice01", SA_CONFUSABLE},
                 {"ALICE01", SA_TAKEN},
                 {"a1ice0l", SA_CONFUSABLE},
                 {"AL1CEO1", SA_CONFUSABLE},
                 {"alice02", SA_OK},
                 {"alice_01", SA_OK},
                 {"Bob", SA_OK},
                 {"B0b", SA_CONFUSABLE},
                 {"carol", SA_OK}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        AccountRow other = row;
        snprintf(other.name, sizeof other.name, "%s", names[i].name);
        size_t k = 0;
        for (; names[i].name[k]; k++)
            other.key[k] = (char)tolower((unsigned char)names[i].name[k]);
        other.key[k] = '\0';
        other.created_ms = 2 + (int64_t)i;
        if (a->vtbl->create(a, &other, err, sizeof err) != names[i].want)
            fail_msg("create %s: not %d (%s)", other.name, names[i].want, err);
    }

    create_played_by(store, &w, 40, "alice01", "Bob");
    create_played_by(store, &w, 41, "Bob", "alice01");
    create_played_by(store, &w, 42, "Bob", "carol");
    unsigned char keep[STORE_HASH_LEN], other[STORE_HASH_LEN];
    memset(keep, 7, sizeof keep);
    memset(other, 8, sizeof other);
    int64_t now = 1700000001000;
    assert_int_equal(a->vtbl->session_create(a, "alice01", keep, now, now + 100000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->session_create(a, "alice01", other, now, now + 100000, err, sizeof err), SA_OK);
    int ended = -1;
    assert_int_equal(a->vtbl->revoke_access(a, "alice01", NULL, keep, &ended, err, sizeof err), SA_OK);
    assert_int_equal(ended, 1);
    AccountRow got;
    assert_int_equal(a->vtbl->session_get(a, keep, now, &got, err, sizeof err), SA_OK);
    assert_int_equal(got.seat_epoch, 1);
    assert_string_equal(got.password_hash, "$argon2id$a");
    assert_int_equal(a->vtbl->session_get(a, other, now, &got, err, sizeof err), SA_NOT_FOUND);
    static const struct {
        int n;
        int64_t epoch[2], rev;
    } after[] = {{40, {1, 0}, 2}, {41, {0, 1}, 2}, {42, {0, 0}, 1}};
    for (int i = 0; i < 3; i++) {
        Loaded *l = get_game(store, after[i].n);
        assert_int_equal(l->records[0].seat_epoch[0], after[i].epoch[0]);
        assert_int_equal(l->records[0].seat_epoch[1], after[i].epoch[1]);
        assert_int_equal(l->records[0].rev, after[i].rev);
        loaded_free(l);
    }
    /* With a new password and no session kept: all end, the epoch goes on. */
    assert_int_equal(a->vtbl->revoke_access(a, "alice01", "$argon2id$b", NULL, &ended, err, sizeof err), SA_OK);
    assert_int_equal(ended, 1);
    assert_int_equal(a->vtbl->get(a, "alice01", &got, err, sizeof err), SA_OK);
    assert_int_equal(got.seat_epoch, 2);
    assert_string_equal(got.password_hash, "$argon2id$b");
    Loaded *l = get_game(store, 41);
    assert_int_equal(l->records[0].seat_epoch[1], 2);
    assert_int_equal(l->records[0].rev, 3);
    loaded_free(l);
    assert_int_equal(a->vtbl->revoke_access(a, "nobody", NULL, NULL, &ended, err, sizeof err), SA_NOT_FOUND);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);
}

static inline void count_games(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    (void)record;
    (void)moves;
    *(int *)ctx += 1000 + count;
}

/* Analyses (schema 15): queued once per game, each request counted against its requesters up to their
 * limits for a day; claimed by one node at a time, by another once its lease ended; progress and
 * result only from the node that holds it. And a game read with its moves on this connection. */
STORE_CASE test_analyses(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    if (!a)
        fail_msg("accounts_open: %s", err);
    StoreOp ops[3];
    set_create(&ops[0], 50);
    submit_and_wait(store, &w, &ops[0]);
    assert_true(ops[0].ok);
    set_append(&ops[1], 50, 0);
    submit_and_wait(store, &w, &ops[1]);
    assert_true(ops[1].ok);
    int seen = 0;
    assert_int_equal(a->vtbl->game_get(a, "g00000000050", count_games, &seen, err, sizeof err), 1);
    assert_int_equal(seen, 1001);
    assert_int_equal(a->vtbl->game_get(a, "g00000000051", count_games, &seen, err, sizeof err), 0);

    AnalysisRow row;
    char *result = NULL;
    assert_int_equal(a->vtbl->analysis_get(a, "game1", &row, &result, err, sizeof err), SA_NOT_FOUND);
    int64_t now = 1700000000000;
    const char *both[2] = {"a:anna", "ip:192.0.2.1"};
    const int limits[2] = {2, 3};
    assert_int_equal(a->vtbl->analysis_queue(a, "game1", 81, both, limits, now, &row, err, sizeof err), SA_OK);
    assert_string_equal(row.status, "queued");
    assert_int_equal(a->vtbl->analysis_queue(a, "game1", 81, both, limits, now + 1, &row, err, sizeof err), SA_TAKEN);
    assert_string_equal(row.status, "queued");
    assert_int_equal(row.total, 81);
    assert_int_equal(a->vtbl->analysis_queue(a, "game2", 10, both, limits, now + 2, &row, err, sizeof err), SA_OK);
    /* anna's two are spent; the address has one left, for a visitor without an account. */
    assert_int_equal(a->vtbl->analysis_queue(a, "game3", 10, both, limits, now + 3, &row, err, sizeof err), SA_LIMITED);
    assert_int_equal(a->vtbl->analysis_get(a, "game3", &row, NULL, err, sizeof err), SA_NOT_FOUND);
    const char *address[2] = {NULL, "ip:192.0.2.1"};
    assert_int_equal(a->vtbl->analysis_queue(a, "game3", 10, address, limits, now + 4, &row, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->analysis_queue(a, "game4", 10, address, limits, now + 5, &row, err, sizeof err),
                     SA_LIMITED);
    /* A day later the requests count no more. */
    int64_t later = now + STORE_ANALYSIS_WINDOW_MS + 10;
    assert_int_equal(a->vtbl->analysis_queue(a, "game4", 10, both, limits, later, &row, err, sizeof err), SA_OK);

    assert_int_equal(a->vtbl->analysis_claim(a, "game1", "n1", now, now + 1000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->analysis_claim(a, "game1", "n2", now + 10, now + 1010, err, sizeof err), SA_TAKEN);
    assert_int_equal(a->vtbl->analysis_claim(a, "nothing", "n2", now + 10, now + 1010, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->analysis_progress(a, "game1", "n2", 5, now + 20, now + 1020, err, sizeof err),
                     SA_NOT_FOUND);
    assert_int_equal(a->vtbl->analysis_progress(a, "game1", "n1", 40, now + 20, now + 1020, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->analysis_get(a, "game1", &row, &result, err, sizeof err), SA_OK);
    assert_string_equal(row.status, "running");
    assert_string_equal(row.node, "n1");
    assert_int_equal(row.done, 40);
    assert_int_equal(row.lease_until_ms, now + 1020);
    assert_string_equal(result, "");
    free(result);
    /* n1 went quiet: after its lease n2 takes over, and n1 can no longer write. */
    assert_int_equal(a->vtbl->analysis_claim(a, "game1", "n2", now + 1021, now + 2000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->analysis_finish(a, "game1", "n1", "{}", now + 1100, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->analysis_finish(a, "game1", "n2", "{\"moves\":[]}", now + 1200, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->analysis_get(a, "game1", &row, &result, err, sizeof err), SA_OK);
    assert_string_equal(row.status, "done");
    assert_int_equal(row.done, 81);
    assert_string_equal(result, "{\"moves\":[]}");
    free(result);
    assert_int_equal(a->vtbl->analysis_claim(a, "game1", "n2", now + 1300, now + 2000, err, sizeof err), SA_TAKEN);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);
}

/* The lobby's seeks (store_accounts.h): listed while open and not expired, oldest first; cancelled only
 * with the poster's secret; accepted once: the game's row appears with it, and a second accept, a
 * cancel after it and an accept of an expired seek change nothing. */
STORE_CASE test_seeks(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    if (!a)
        fail_msg("accounts_open: %s", err);
    int64_t now = 1700000000000;
    SeekRow k[3];
    for (int i = 0; i < 3; i++) {
        memset(&k[i], 0, sizeof k[i]);
        snprintf(k[i].id, sizeof k[i].id, "seek%08d", i);
        k[i].created_ms = now + i;
        k[i].expires_ms = now + (i == 2 ? 100 : 600000);
        snprintf(k[i].account, sizeof k[i].account, "%s", i == 0 ? "magnus" : "");
        snprintf(k[i].name, sizeof k[i].name, "%s", i == 0 ? "Magnus" : "");
        k[i].rating = i == 0 ? 1712 : 0;
        k[i].rated = i == 0;
        snprintf(k[i].color, sizeof k[i].color, "%s", i == 1 ? "random" : "white");
        k[i].time = (TimeControl){TIME_LIVE, 5, 3, 0};
        memset(k[i].secret_hash, 0x40 + i, STORE_HASH_LEN);
        k[i].secret_hash[0] = 0;
        assert_int_equal(a->vtbl->seek_create(a, &k[i], err, sizeof err), SA_OK);
    }
    assert_int_equal(a->vtbl->seek_create(a, &k[0], err, sizeof err), SA_TAKEN);
    SeekRow list[8];
    assert_int_equal(a->vtbl->seek_list(a, now + 50, list, 8, err, sizeof err), 3);
    assert_string_equal(list[0].id, "seek00000000");
    assert_string_equal(list[0].name, "Magnus");
    assert_int_equal(list[0].rating, 1712);
    assert_int_equal(list[0].rated, 1);
    assert_memory_equal(list[0].secret_hash, k[0].secret_hash, STORE_HASH_LEN);
    assert_string_equal(list[1].color, "random");
    assert_int_equal(a->vtbl->seek_list(a, now + 200, list, 8, err, sizeof err), 2); /* the third expired */
    assert_int_equal(a->vtbl->seek_list(a, now + 200, list, 1, err, sizeof err), 1);

    /* Cancel: only with the secret's hash. */
    unsigned char wrong[STORE_HASH_LEN];
    memset(wrong, 0x55, sizeof wrong);
    assert_int_equal(a->vtbl->seek_cancel(a, "seek00000001", wrong, now + 200, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->seek_cancel(a, "seek00000001", k[1].secret_hash, now + 200, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->seek_cancel(a, "seek00000001", k[1].secret_hash, now + 200, err, sizeof err),
                     SA_NOT_FOUND);
    SeekRow got;
    assert_int_equal(a->vtbl->seek_get(a, "seek00000001", now + 200, &got, err, sizeof err), SA_NOT_FOUND);

    /* Accept: the game appears with the seek taken; once only. */
    GameRecord g;
    make_record(&g, 40);
    memcpy(g.secret_hash[0], k[0].secret_hash, STORE_HASH_LEN);
    assert_int_equal(a->vtbl->seek_accept(a, "seek00000000", now + 300, 0, &g, "", NULL, err, sizeof err), SA_OK);
    GameRecord g2;
    make_record(&g2, 41);
    assert_int_equal(a->vtbl->seek_accept(a, "seek00000000", now + 301, 1, &g2, "", NULL, err, sizeof err),
                     SA_NOT_FOUND);
    assert_int_equal(a->vtbl->seek_accept(a, "seek00000002", now + 300, 0, &g2, "", NULL, err, sizeof err),
                     SA_NOT_FOUND);
    assert_int_equal(a->vtbl->seek_cancel(a, "seek00000000", k[0].secret_hash, now + 302, err, sizeof err),
                     SA_NOT_FOUND);
    assert_int_equal(a->vtbl->seek_get(a, "seek00000000", now + 10000000, &got, err, sizeof err), SA_OK);
    assert_string_equal(got.game_id, g.id);
    assert_int_equal(got.poster_color, 0);
    assert_int_equal(a->vtbl->seek_list(a, now + 302, list, 8, err, sizeof err), 0);

    /* Hold: a seek posted with a short grace lives its full time once its poster holds it (with the
     * secret); an expired, accepted or unknown seek is not held, and a hold never shortens a seek. */
    SeekRow held = k[1];
    snprintf(held.id, sizeof held.id, "seek00000009");
    held.created_ms = now + 400;
    held.expires_ms = now + 500;
    assert_int_equal(a->vtbl->seek_create(a, &held, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->seek_hold(a, held.id, wrong, now + 450, 600000, err, sizeof err), SA_NOT_FOUND);
    assert_int_equal(a->vtbl->seek_list(a, now + 501, list, 8, err, sizeof err), 0); /* not held: gone */
    assert_int_equal(a->vtbl->seek_hold(a, held.id, held.secret_hash, now + 501, 600000, err, sizeof err),
                     SA_NOT_FOUND); /* too late */
    snprintf(held.id, sizeof held.id, "seek00000010");
    assert_int_equal(a->vtbl->seek_create(a, &held, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->seek_hold(a, held.id, held.secret_hash, now + 450, 600000, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->seek_hold(a, held.id, held.secret_hash, now + 460, 10, err, sizeof err), SA_OK);
    assert_int_equal(a->vtbl->seek_list(a, now + 1000, list, 8, err, sizeof err), 1);
    assert_string_equal(list[0].id, "seek00000010");
    assert_int_equal(list[0].expires_ms, now + 400 + 600000);
    assert_int_equal(a->vtbl->seek_hold(a, "seek00000000", k[0].secret_hash, now + 1000, 600000, err, sizeof err),
                     SA_NOT_FOUND); /* accepted */
    assert_int_equal(a->vtbl->seek_hold(a, "seek00000002", k[2].secret_hash, now + 1000, 600000, err, sizeof err),
                     SA_NOT_FOUND); /* expired */
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);

    /* The game is a game like any other: loaded, with its rev and the poster's secret. */
    Loaded *l = reopen_and_load(d->db);
    int found = -1;
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->records[i].id, g.id) == 0)
            found = i;
    if (g.result[0] == '\0') {
        assert_true(found >= 0);
        assert_records_equal(&l->records[found], &g);
        assert_int_equal(l->records[found].rev, 1);
    }
    loaded_free(l);
    store = open_with_waker(d->db, &w);
    Loaded *one = calloc(1, sizeof *one);
    assert_non_null(one);
    assert_int_equal(store_get(store, g2.id, on_game, one, err, sizeof err), 0); /* never created */
    loaded_free(one);
    store_close(store);
    waker_destroy(&w);
}

static bool rate_ctx_apply(void *ctx, RatingRow *white, RatingRow *black) {
    const char *result = ctx;
    return rating_apply(white, black, result, 1700000000000);
}

/* Ratings (store_accounts.h): a rated game changes both players' ratings once, whoever asks again;
 * the next game starts from the new ratings; a player's ratings and a game's before and after are
 * read back; a computation that fails changes nothing. */
STORE_CASE test_ratings(void **state) {
    TestDir *d = *state;
    Waker w;
    Store *store = open_with_waker(d->db, &w);
    char err[256] = "";
    StoreAccounts *a = store_accounts_open(store, err, sizeof err);
    if (!a)
        fail_msg("accounts_open: %s", err);
    RatingRow before[2], after[2];
    int64_t rev = -1;
    assert_int_equal(a->vtbl->rate_game(a, "game00000001", "blitz", "anna", "bob", 1700000000000, rate_ctx_apply,
                                        (void *)"1-0", before, after, &rev, err, sizeof err),
                     SA_OK);
    assert_true(before[0].g.rating == 1500 && before[1].g.rating == 1500 && before[0].games == 0);
    assert_true(after[0].g.rating > 1500 && after[1].g.rating < 1500);
    assert_int_equal(after[0].games, 1);
    assert_int_equal(rev, 0); /* no such game row here */
    double anna = after[0].g.rating;
    /* Asked again (another node, a retry): nothing changes. */
    assert_int_equal(a->vtbl->rate_game(a, "game00000001", "blitz", "anna", "bob", 1700000000001, rate_ctx_apply,
                                        (void *)"1-0", before, after, &rev, err, sizeof err),
                     SA_TAKEN);
    /* A failed computation (a result that is none) leaves everything as it was. */
    assert_int_equal(a->vtbl->rate_game(a, "game00000002", "blitz", "anna", "bob", 1700000000002, rate_ctx_apply,
                                        (void *)"*", before, after, &rev, err, sizeof err),
                     SA_NOT_FOUND);
    /* The second game starts from the first one's ratings (colours swapped). */
    assert_int_equal(a->vtbl->rate_game(a, "game00000003", "blitz", "bob", "anna", 1700000000003, rate_ctx_apply,
                                        (void *)"1/2-1/2", before, after, &rev, err, sizeof err),
                     SA_OK);
    assert_true(before[1].g.rating == anna);
    assert_int_equal(before[1].games, 1);
    RatingRow rows[RATING_COUNT];
    bool have[RATING_COUNT];
    assert_int_equal(a->vtbl->ratings_of(a, "anna", rows, have, err, sizeof err), SA_OK);
    assert_true(have[RATING_BLITZ] && !have[RATING_BULLET] && !have[RATING_CORRESPONDENCE]);
    assert_int_equal(rows[RATING_BLITZ].games, 2);
    assert_true(rows[RATING_BLITZ].g.rating == after[1].g.rating);
    assert_true(rows[RATING_BLITZ].g.rd < 350);
    assert_int_equal(a->vtbl->ratings_of(a, "nobody", rows, have, err, sizeof err), SA_OK);
    assert_false(have[RATING_BLITZ]);
    int b[2], f[2];
    assert_int_equal(a->vtbl->game_rating(a, "game00000001", b, f, err, sizeof err), SA_OK);
    assert_int_equal(b[0], 1500);
    assert_int_equal(f[0], (int)(anna + 0.5));
    assert_int_equal(a->vtbl->game_rating(a, "game00000002", b, f, err, sizeof err), SA_NOT_FOUND);
    store_accounts_close(a);
    store_close(store);
    waker_destroy(&w);
}

#endif
