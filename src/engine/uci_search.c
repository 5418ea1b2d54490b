/* UCI: the search thread and its control. `go` starts a thread that runs engine_search, prints the
 * info lines of each iteration and, once released (stop, ponderhit or its own end), the bestmove; the
 * reading thread stops it, waits for it or passes ponderhit on. Apart from the loop because this is
 * the one place where the two threads meet: every flag shared between them is read and written here. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "uci_internal.h"

enum { INFO_LINE_MAX = 256 + ENGINE_MAX_PLY * 6 };

/* The score as UCI writes it: "cp 35" or "mate 3" / "mate -2" (moves, not plies). */
static void score_text(int score, char *buf, size_t size) {
    if (score >= ENGINE_MATE_BOUND)
        snprintf(buf, size, "mate %d", (ENGINE_MATE - score + 1) / 2);
    else if (score <= -ENGINE_MATE_BOUND)
        snprintf(buf, size, "mate %d", -((ENGINE_MATE + score) / 2));
    else
        snprintf(buf, size, "cp %d", score);
}

static void mark_started(Uci *u) {
    pthread_mutex_lock(&u->lock);
    if (!u->started) {
        u->started = true;
        pthread_cond_broadcast(&u->cond);
    }
    pthread_mutex_unlock(&u->lock);
}

/* Called on the search thread after each iteration. */
static void on_info(const EngineInfo *info, void *ctx) {
    Uci *u = ctx;
    mark_started(u);
    char line[INFO_LINE_MAX], score[32];
    score_text(info->score, score, sizeof score);
    int len = snprintf(
        line, sizeof line, "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d time %lld",
        info->depth, info->seldepth, info->multipv > 0 ? info->multipv : 1, score,
        info->lowerbound   ? " lowerbound"
        : info->upperbound ? " upperbound"
                           : "",
        (unsigned long long)info->nodes, (unsigned long long)info->nps, info->hashfull, (long long)info->time_ms);
    if (info->pv_length > 0 && len > 0 && (size_t)len + 3 < sizeof line) {
        strcpy(line + len, " pv");
        len += 3;
    }
    /* Chess960 castling is written from the position it is played in (king takes rook). */
    SchPosition walk = u->job_game.pos;
    for (int i = 0; i < info->pv_length && i < ENGINE_MAX_PLY && len > 0; i++) {
        char move[SCH_MOVE_TEXT_MAX];
        sch_uci_write(&walk, info->pv[i], move, sizeof move);
        if (walk.chess960 && sch_gen_is_legal(&walk, info->pv[i])) {
            SchUndo undo;
            sch_pos_make(&walk, info->pv[i], &undo);
        }
        if ((size_t)len + 1 + strlen(move) >= sizeof line)
            break;
        len += snprintf(line + len, sizeof line - (size_t)len, " %s", move);
    }
    uci_say(u, "%s", line);
}

/* go infinite waits for stop, go ponder for stop or ponderhit, before bestmove may be printed. */
static void wait_for_release(Uci *u) {
    pthread_mutex_lock(&u->lock);
    while (!u->stop_seen && (u->job_limits.infinite || (u->job_limits.ponder && !u->ponderhit_seen)))
        pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
}

/* "bestmove e2e4 ponder e7e5"; the ponder move only when it is legal after the best move. */
static void print_bestmove(Uci *u, const EngineResult *r) {
    if (r->best == SCH_MOVE_NONE) {
        uci_say(u, "bestmove (none)"); /* what GUIs and python-chess read; Stockfish says the same */
        return;
    }
    char best[SCH_MOVE_TEXT_MAX], ponder[SCH_MOVE_TEXT_MAX];
    sch_uci_write(&u->job_game.pos, r->best, best, sizeof best);
    SchPosition after = u->job_game.pos;
    SchUndo undo;
    sch_pos_make(&after, r->best, &undo);
    if (r->ponder != SCH_MOVE_NONE && sch_gen_is_legal(&after, r->ponder)) {
        sch_uci_write(&after, r->ponder, ponder, sizeof ponder);
        uci_say(u, "bestmove %s ponder %s", best, ponder);
    } else {
        uci_say(u, "bestmove %s", best);
    }
}

static void *search_main(void *arg) {
    Uci *u = arg;
    EngineResult r;
    memset(&r, 0, sizeof r);
    const SchPosition *pos = sch_game_position(&u->job_game);
    if (sch_gen_has_legal_move(pos)) {
        r = engine_search(u->engine, &u->job_game, &u->job_limits, on_info, u);
        /* The search's totals at its end (every thread's nodes), as Stockfish closes a search: the
         * last iteration's line counted only up to its own end. */
        uci_say(u, "info nodes %llu nps %llu time %lld", (unsigned long long)r.nodes,
                (unsigned long long)(r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms : r.nodes),
                (long long)r.time_ms);
    } else
        uci_say(u, "info depth 0 score %s", sch_pos_in_check(pos) ? "mate 0" : "cp 0");
    mark_started(u);
    pthread_mutex_lock(&u->lock);
    u->engine_done = true;
    pthread_mutex_unlock(&u->lock);
    wait_for_release(u);
    print_bestmove(u, &r);
    pthread_mutex_lock(&u->lock);
    u->finished = true;
    pthread_cond_broadcast(&u->cond);
    pthread_mutex_unlock(&u->lock);
    return NULL;
}

/* Joins a search thread that has printed its bestmove; afterwards thread_alive tells whether one
 * still searches. */
static void reap(Uci *u) {
    if (!u->thread_alive)
        return;
    pthread_mutex_lock(&u->lock);
    bool done = u->finished;
    pthread_mutex_unlock(&u->lock);
    if (done) {
        pthread_join(u->thread, NULL);
        u->thread_alive = false;
    }
}

/* True when the running search ends only on stop: go infinite, go ponder before ponderhit, or a go
 * without any limit for the side to move. */
static bool search_unbounded(Uci *u) {
    const EngineLimits *l = &u->job_limits;
    pthread_mutex_lock(&u->lock);
    bool pondering = l->ponder && !u->ponderhit_seen;
    pthread_mutex_unlock(&u->lock);
    SchColor stm = sch_pos_turn(sch_game_position(&u->job_game));
    bool limited = l->depth || l->nodes || l->movetime || l->mate || l->time[stm];
    return l->infinite || pondering || !limited;
}

/* Before a command that changes what a search uses (go, setoption, ucinewgame): waits for a running
 * search that ends by its own limits, so a script of commands runs in order. false, without
 * waiting, when the search only ends on stop. */
bool uci_await_search(Uci *u) {
    reap(u);
    if (!u->thread_alive)
        return true;
    if (search_unbounded(u))
        return false;
    pthread_join(u->thread, NULL);
    u->thread_alive = false;
    return true;
}

/* Ends a running search: its bestmove is printed before this returns. The engine is only told while
 * engine_search runs: a stop it receives between searches would end the next one (engine.c clears
 * the flag when a search ends, so that a stop right after "go" is never lost). */
void uci_stop_search(Uci *u) {
    reap(u);
    if (!u->thread_alive)
        return;
    pthread_mutex_lock(&u->lock);
    u->stop_seen = true;
    pthread_cond_broadcast(&u->cond);
    if (!u->engine_done)
        engine_stop(u->engine);
    pthread_mutex_unlock(&u->lock);
    pthread_join(u->thread, NULL);
    u->thread_alive = false;
}

/* Starts the search of job_game within job_limits and returns once the engine is searching, so a
 * stop or ponderhit read next cannot arrive before the engine listens for it. */
bool uci_start_search(Uci *u) {
    u->started = u->engine_done = u->finished = u->stop_seen = u->ponderhit_seen = false;
    if (pthread_create(&u->thread, NULL, search_main, u) != 0)
        return false;
    u->thread_alive = true;
    pthread_mutex_lock(&u->lock);
    while (!u->started)
        pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
    return true;
}

void uci_cmd_ponderhit(Uci *u) {
    reap(u);
    if (!u->thread_alive || !u->job_limits.ponder) {
        uci_say(u, "info string ponderhit: no 'go ponder' search is running; ignored");
        return;
    }
    pthread_mutex_lock(&u->lock);
    u->ponderhit_seen = true;
    pthread_cond_broadcast(&u->cond);
    if (!u->engine_done)
        engine_ponderhit(u->engine);
    pthread_mutex_unlock(&u->lock);
}
