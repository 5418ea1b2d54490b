/* Game analysis: the engines that search a game's positions, one thread each (see analysis.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "schach/movegen.h"

/* One engine and its own copy of the game, moved to the position it searches. */
typedef struct Worker {
    struct Analyser *owner;
    Engine *engine;
    SchGame game; /* a copy of the analysed game (history for repetitions), or ply_count 0 without one */
    bool has_game;
    EngineInfo last; /* the last complete report of the running search */
    bool has_last;
} Worker;

/* The game being analysed and how far the workers are. */
typedef struct Job {
    const SchGame *game;
    AnalysisResult *out;
    AnalysisProgressFn progress;
    void *ctx;
    atomic_int next; /* positions handed out */
    int total;
    int done;    /* under lock */
    bool failed; /* under lock: out of memory */
} Job;

struct Analyser {
    AnalysisOptions opt;
    EngineLimits limits;
    int workers;
    Worker worker[ANALYSIS_THREADS_MAX];
    atomic_bool stop;
    pthread_mutex_t lock;
    Job *job;
};

void analysis_options_default(AnalysisOptions *opt) { *opt = (AnalysisOptions){ANALYSIS_DEFAULT_NODES, 0, 0, 1, 16}; }

Analyser *analyser_new(const AnalysisOptions *opt) {
    AnalysisOptions o;
    if (opt)
        o = *opt;
    else
        analysis_options_default(&o);
    if (o.threads < 1 || o.threads > ANALYSIS_THREADS_MAX || o.depth < 0 || o.movetime < 0 || o.depth > ENGINE_MAX_PLY)
        return NULL;
    if (o.hash_mb == 0)
        o.hash_mb = 16;
    if (!o.nodes && !o.depth && !o.movetime)
        o.nodes = ANALYSIS_DEFAULT_NODES;
    Analyser *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->opt = o;
    if (o.nodes)
        a->limits.nodes = o.nodes;
    else if (o.depth)
        a->limits.depth = o.depth;
    else
        a->limits.movetime = o.movetime;
    a->limits.multipv = 1;
    atomic_init(&a->stop, false);
    if (pthread_mutex_init(&a->lock, NULL) != 0) {
        free(a);
        return NULL;
    }
    EngineOptions eo;
    engine_options_default(&eo);
    eo.hash_mb = o.hash_mb;
    eo.threads = 1;
    for (int i = 0; i < o.threads; i++) {
        a->worker[i].owner = a;
        if (!(a->worker[i].engine = engine_new(&eo))) {
            analyser_free(a);
            return NULL;
        }
        a->workers++;
    }
    return a;
}

void analyser_free(Analyser *a) {
    if (!a)
        return;
    for (int i = 0; i < a->workers; i++) {
        engine_free(a->worker[i].engine);
        if (a->worker[i].has_game)
            sch_game_free(&a->worker[i].game);
    }
    pthread_mutex_destroy(&a->lock);
    free(a);
}

void analyser_stop(Analyser *a) {
    atomic_store(&a->stop, true);
    for (int i = 0; i < a->workers; i++)
        engine_stop(a->worker[i].engine);
}

void analyser_resume(Analyser *a) { atomic_store(&a->stop, false); }

void analysis_result_free(AnalysisResult *r) {
    if (!r)
        return;
    free(r->positions);
    free(r->moves);
    r->positions = NULL;
    r->moves = NULL;
    r->ply_count = 0;
}

/* Keeps the last report of the principal line that is not a mere bound; stops when asked to. */
static void on_info(const EngineInfo *info, void *ctx) {
    Worker *w = ctx;
    if (info->multipv <= 1 && !info->lowerbound && !info->upperbound && info->pv_length > 0) {
        w->last = *info;
        w->has_last = true;
    }
    if (atomic_load(&w->owner->stop))
        engine_stop(w->engine);
}

/* Moves the worker's copy of the game to ply (undoing or replaying the record's moves). */
static bool seek(Worker *w, const SchGame *src, int ply) {
    while (w->game.ply_count > ply)
        if (!sch_game_undo(&w->game))
            return false;
    while (w->game.ply_count < ply)
        if (!sch_game_play(&w->game, src->plies[w->game.ply_count].move, NULL))
            return false;
    return true;
}

/* Whether the rules ended the game at its last position by themselves: the score is then known. */
static bool ended_by_rules(const SchGame *g, int *score) {
    switch (g->outcome.termination) {
        case SCH_TERM_CHECKMATE: *score = g->outcome.winner == SCH_WHITE ? ENGINE_MATE : -ENGINE_MATE; return true;
        case SCH_TERM_STALEMATE:
        case SCH_TERM_INSUFFICIENT_MATERIAL:
        case SCH_TERM_DEAD_POSITION:
        case SCH_TERM_FIVEFOLD_REPETITION:
        case SCH_TERM_SEVENTYFIVE_MOVES: *score = 0; return true;
        default: return false;
    }
}

static bool analyse_position(Worker *w, Job *job, int index) {
    AnalysisPosition *p = &job->out->positions[index];
    const SchGame *src = job->game;
    memset(p, 0, sizeof *p);
    p->best = SCH_MOVE_NONE;
    int score;
    if (index == src->ply_count && ended_by_rules(src, &score)) {
        p->score = score;
        return true;
    }
    if (!seek(w, src, index))
        return false;
    const SchPosition *pos = sch_game_position(&w->game);
    if (!sch_gen_has_legal_move(pos)) { /* a record that goes on after its end: judge the board */
        p->score = sch_pos_in_check(pos) ? (sch_pos_turn(pos) == SCH_WHITE ? -ENGINE_MATE : ENGINE_MATE) : 0;
        return true;
    }
    w->has_last = false;
    EngineResult res = engine_search(w->engine, &w->game, &w->owner->limits, on_info, w);
    int sign = sch_pos_turn(pos) == SCH_WHITE ? 1 : -1;
    p->score = sign * res.score;
    p->best = res.best;
    p->depth = res.depth;
    p->nodes = res.nodes;
    if (w->has_last && w->last.pv[0] == res.best) {
        p->line_length = w->last.pv_length < ANALYSIS_LINE_MAX ? w->last.pv_length : ANALYSIS_LINE_MAX;
        memcpy(p->line, w->last.pv, (size_t)p->line_length * sizeof p->line[0]);
    } else {
        p->line[0] = res.best;
        p->line_length = 1;
        if (res.ponder != SCH_MOVE_NONE) {
            p->line[1] = res.ponder;
            p->line_length = 2;
        }
    }
    return true;
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Analyser *a = w->owner;
    Job *job = a->job;
    while (!atomic_load(&a->stop)) {
        int k = atomic_fetch_add(&job->next, 1);
        if (k >= job->total)
            break;
        bool ok = analyse_position(w, job, job->total - 1 - k); /* the last position first */
        pthread_mutex_lock(&a->lock);
        if (!ok) {
            job->failed = true;
            atomic_store(&a->stop, true);
        } else {
            job->done++;
            if (job->progress)
                job->progress(job->done, job->total, job->ctx);
        }
        pthread_mutex_unlock(&a->lock);
    }
    return NULL;
}

/* The SAN of the played moves, the best moves and the lines, in both languages. */
static void write_moves(AnalysisResult *r, const SchGame *g) {
    SchPosition pos = g->start;
    for (int i = 0; i <= r->ply_count; i++) {
        AnalysisPosition *p = &r->positions[i];
        if (p->best != SCH_MOVE_NONE && sch_gen_is_legal(&pos, p->best)) {
            sch_uci_write(&pos, p->best, p->best_uci, sizeof p->best_uci);
            SchPosition line = pos;
            int k = 0;
            for (; k < p->line_length && p->line[k] != SCH_MOVE_NONE && sch_gen_is_legal(&line, p->line[k]); k++) {
                for (int lang = 0; lang < 2; lang++)
                    sch_san_write(&line, p->line[k], (SchLang)lang, p->line_san[lang][k], SCH_MOVE_TEXT_MAX);
                SchUndo u;
                sch_pos_make(&line, p->line[k], &u);
            }
            p->line_length = k;
            for (int lang = 0; lang < 2; lang++)
                memcpy(p->best_san[lang], p->line_san[lang][0], SCH_MOVE_TEXT_MAX);
        } else {
            p->best = SCH_MOVE_NONE;
            p->line_length = 0;
        }
        if (i == r->ply_count)
            break;
        AnalysisMove *m = &r->moves[i];
        m->move = g->plies[i].move;
        for (int lang = 0; lang < 2; lang++) {
            if (m->move == SCH_MOVE_NULL)
                strcpy(m->san[lang], "--");
            else
                sch_san_write(&pos, m->move, (SchLang)lang, m->san[lang], SCH_MOVE_TEXT_MAX);
        }
        SchUndo u;
        sch_game_make_ply(&pos, m->move, &u);
    }
}

/* Gives each worker its copy of game (the outcome cleared, so that every move can be taken back). */
static bool copy_game(Worker *w, const SchGame *game) {
    if (w->has_game)
        sch_game_free(&w->game);
    w->has_game = false;
    if (!sch_game_copy(&w->game, game))
        return false;
    w->has_game = true;
    w->game.outcome = (SchOutcome){SCH_RESULT_NONE, SCH_TERM_NONE, SCH_WHITE, 0};
    w->game.draw_offer = -1;
    engine_clear(w->engine); /* a new game ("ucinewgame"): the same result on every run */
    return true;
}

bool analyser_run(Analyser *a, const SchGame *game, AnalysisResult *out, AnalysisProgressFn progress, void *ctx) {
    memset(out, 0, sizeof *out);
    int n = game->ply_count;
    out->ply_count = n;
    out->first_mover = sch_pos_turn(&game->start);
    out->positions = calloc((size_t)n + 1, sizeof *out->positions);
    out->moves = calloc(n > 0 ? (size_t)n : 1, sizeof *out->moves);
    if (!out->positions || !out->moves) {
        analysis_result_free(out);
        return false;
    }
    for (int i = 0; i < a->workers; i++)
        if (!copy_game(&a->worker[i], game))
            return false;
    Job job = {game, out, progress, ctx, 0, n + 1, 0, false};
    atomic_init(&job.next, 0);
    a->job = &job;
    int threads = a->workers < n + 1 ? a->workers : n + 1;
    pthread_t tid[ANALYSIS_THREADS_MAX];
    int started = 1;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&tid[i], NULL, worker_main, &a->worker[i]) != 0)
            break; /* fewer threads: the others share the work */
        started++;
    }
    worker_main(&a->worker[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    a->job = NULL;
    if (job.failed || job.done < job.total)
        return false;
    write_moves(out, game);
    analysis_summarise(out);
    return true;
}
