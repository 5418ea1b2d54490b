/* The match: engine probes, game slots on threads, results, PGN and reports (see match.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r, localtime_r, sigaction */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "match_internal.h"

#define TR(lang, en, de) ((lang) == SCH_LANG_DE ? (de) : (en))
#define DEFAULT_OPENINGS SCHACH_DATA_DIR "/openings.pgn"

typedef struct Run {
    MatchShared sh;
    OpeningSet openings;
    FILE *out;
    FILE *pgn;
    pthread_mutex_t lock; /* guards everything below */
    int next;             /* next game index to hand out */
    int finished;
    bool stop_new; /* SPRT decided (or interrupted): start no more games */
    int sprt_decision;
    Tally tally;
} Run;

static atomic_int *interrupt_flag;

static void on_interrupt(int sig) {
    (void)sig;
    if (interrupt_flag)
        atomic_store(interrupt_flag, 1);
}

/* Starts each engine once: checks the command and learns its name. */
static bool probe_engines(Run *run) {
    const MatchConfig *cfg = run->sh.cfg;
    for (int e = 0; e < 2; e++) {
        EngineProc *p = malloc(sizeof *p);
        char why[300];
        if (!p)
            return false;
        bool ok = eproc_start(p, &cfg->engines[e], &run->sh.log, "probe", why, sizeof why);
        if (ok && !eproc_handshake(p, &cfg->engines[e], cfg->startup_timeout_ms * 1000, &run->sh.abort_now, cfg->lang,
                                   why, sizeof why)) {
            eproc_close(p, 200000);
            ok = false;
        }
        if (!ok) {
            char command[512] = "";
            for (int i = 0; i < cfg->engines[e].argc; i++)
                snprintf(command + strlen(command), sizeof command - strlen(command), "%s%s", i ? " " : "",
                         cfg->engines[e].argv[i]);
            fprintf(stderr,
                    TR(cfg->lang, "schach match: engine %d (%s) cannot be used: %s\n",
                       "schach match: Engine %d (%s) ist nicht verwendbar: %s\n"),
                    e + 1, command, why);
            free(p);
            return false;
        }
        const char *base = strrchr(cfg->engines[e].argv[0], '/');
        const char *name = cfg->engines[e].name[0] ? cfg->engines[e].name
                           : p->id_name[0]         ? p->id_name
                                                   : (base ? base + 1 : cfg->engines[e].argv[0]);
        snprintf(run->sh.names[e], sizeof run->sh.names[e], "%s", name);
        eproc_close(p, 200000);
        free(p);
    }
    if (!strcmp(run->sh.names[0], run->sh.names[1])) /* tell the two apart in tables and PGN */
        strncat(run->sh.names[1], " (2)", sizeof run->sh.names[1] - strlen(run->sh.names[1]) - 1);
    return true;
}

static void print_progress(Run *run, const GameRecord *rec) {
    const MatchConfig *cfg = run->sh.cfg;
    SchLang lang = cfg->lang;
    char end[300];
    match_describe_end(&run->sh, rec, lang, end, sizeof end);
    const char *white = run->sh.names[rec->first_color == SCH_WHITE ? 0 : 1];
    const char *black = run->sh.names[rec->first_color == SCH_WHITE ? 1 : 0];
    fprintf(run->out,
            TR(lang, "Game %d/%d (White: %s, Black: %s): %s. Score of %s: %d - %d - %d\n",
               "Partie %d/%d (Weiß: %s, Schwarz: %s): %s. Stand von %s: %d - %d - %d\n"),
            rec->index + 1, cfg->games, white, black, end, run->sh.names[0], run->tally.wins, run->tally.losses,
            run->tally.draws);
    fflush(run->out);
}

/* Books a finished game: tally, PGN, progress, periodic report, SPRT. Called with the lock held. */
static void finish_game(Run *run, const GameRecord *rec) {
    const MatchConfig *cfg = run->sh.cfg;
    if (rec->reason == END_ABORTED) {
        run->tally.aborted++;
        return;
    }
    tally_add(&run->tally, rec);
    run->finished++;
    if (run->pgn && !match_write_pgn(run->pgn, &run->sh, rec))
        fprintf(stderr, "%s",
                TR(cfg->lang, "schach match: cannot write the PGN file\n",
                   "schach match: die PGN-Datei kann nicht geschrieben werden\n"));
    print_progress(run, rec);
    double llr;
    int d = match_sprt_decision(cfg, &run->tally, &llr);
    if (d != 0 && !run->stop_new) {
        run->stop_new = true;
        run->sprt_decision = d;
    }
    if (cfg->report_every > 0 && run->finished % cfg->report_every == 0 && run->finished < cfg->games && !run->stop_new)
        match_print_stats(run->out, &run->sh, &run->tally);
}

static void *slot_main(void *arg) {
    void **args = arg;
    Run *run = args[0];
    Slot *slot = args[1];
    for (;;) {
        pthread_mutex_lock(&run->lock);
        bool stop = run->stop_new || atomic_load(&run->sh.abort_now) || run->next >= run->sh.cfg->games;
        int index = stop ? -1 : run->next++;
        pthread_mutex_unlock(&run->lock);
        if (stop)
            break;
        GameRecord rec;
        memset(&rec, 0, sizeof rec);
        rec.index = index;
        rec.opening = (index / 2) % run->openings.count;
        rec.first_color = index % 2 == 0 ? SCH_WHITE : SCH_BLACK;
        match_play_game(&run->sh, slot, &run->openings.items[rec.opening], &rec);
        if (atomic_load(&run->sh.abort_now))
            rec.reason = END_ABORTED;
        pthread_mutex_lock(&run->lock);
        finish_game(run, &rec);
        pthread_mutex_unlock(&run->lock);
        match_record_free(&rec);
    }
    for (int e = 0; e < 2; e++)
        if (slot->running[e])
            eproc_close(&slot->proc[e], 500000);
    return NULL;
}

static bool open_outputs(Run *run) {
    const MatchConfig *cfg = run->sh.cfg;
    if (cfg->pgn_path && !(run->pgn = fopen(cfg->pgn_path, "a"))) {
        fprintf(
            stderr,
            TR(cfg->lang, "schach match: cannot open %s: %s\n", "schach match: %s kann nicht geöffnet werden: %s\n"),
            cfg->pgn_path, strerror(errno));
        return false;
    }
    if (cfg->log_path && !(run->sh.log.file = fopen(cfg->log_path, "w"))) {
        fprintf(
            stderr,
            TR(cfg->lang, "schach match: cannot open %s: %s\n", "schach match: %s kann nicht geöffnet werden: %s\n"),
            cfg->log_path, strerror(errno));
        return false;
    }
    return true;
}

static bool load_openings(Run *run) {
    const MatchConfig *cfg = run->sh.cfg;
    char why[512];
    if (cfg->chess960) {
        /* One start position per pair of games, unless numbers were given. */
        int pairs = cfg->games / 2 + cfg->games % 2;
        bool ok = cfg->chess960_count
                      ? openings_chess960(&run->openings, cfg->chess960_numbers, cfg->chess960_count, cfg->seed)
                      : openings_chess960(&run->openings, NULL, pairs < 1 ? 1 : pairs, cfg->seed);
        if (!ok)
            fprintf(stderr, "schach match: %s\n", TR(cfg->lang, "out of memory", "kein Speicher mehr frei"));
        return ok;
    }
    if (cfg->no_openings)
        return openings_standard(&run->openings);
    const char *path = cfg->openings_path ? cfg->openings_path : DEFAULT_OPENINGS;
    if (!openings_load(&run->openings, path, cfg->lang, why, sizeof why)) {
        fprintf(stderr, "schach match: %s\n", why);
        return false;
    }
    if (cfg->shuffle)
        openings_shuffle(&run->openings, cfg->seed);
    return true;
}

/* Runs the slots on threads (the first on the calling thread). */
static void play_all(Run *run) {
    int n = run->sh.cfg->concurrency < run->sh.cfg->games ? run->sh.cfg->concurrency : run->sh.cfg->games;
    if (n < 1)
        n = 1;
    Slot *slots = calloc((size_t)n, sizeof *slots);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    void *(*args)[2] = calloc((size_t)n, sizeof *args);
    bool *started = calloc((size_t)n, sizeof *started);
    if (!slots || !threads || !args || !started)
        n = 0;
    for (int i = 0; i < n; i++) {
        slots[i].number = i + 1;
        for (int e = 0; e < 2; e++)
            slots[i].proc[e].to_fd = slots[i].proc[e].from_fd = -1; /* not started */
        args[i][0] = run;
        args[i][1] = &slots[i];
        if (i > 0)
            started[i] = pthread_create(&threads[i], NULL, slot_main, args[i]) == 0;
    }
    if (n > 0)
        slot_main(args[0]);
    for (int i = 1; i < n; i++)
        if (started[i])
            pthread_join(threads[i], NULL);
    free(slots);
    free(threads);
    free(args);
    free(started);
}

static void print_final(Run *run) {
    const MatchConfig *cfg = run->sh.cfg;
    SchLang lang = cfg->lang;
    fputc('\n', run->out);
    if (atomic_load(&run->sh.abort_now))
        fprintf(run->out, TR(lang, "Match interrupted after %d games.\n", "Wettkampf nach %d Partien unterbrochen.\n"),
                run->finished);
    else if (run->sprt_decision != 0)
        fprintf(run->out, TR(lang, "SPRT: %s accepted after %d games.\n", "SPRT: %s nach %d Partien angenommen.\n"),
                run->sprt_decision > 0 ? "H1" : "H0", run->finished);
    else
        fprintf(run->out, TR(lang, "Match finished: %d games.\n", "Wettkampf beendet: %d Partien.\n"), run->finished);
    match_print_stats(run->out, &run->sh, &run->tally);
}

int match_run(const MatchConfig *cfg, FILE *out) {
    Run *run = calloc(1, sizeof *run);
    if (!run)
        return 1;
    run->sh.cfg = cfg;
    run->out = out;
    run->sh.log.start_us = match_now_us();
    pthread_mutex_init(&run->sh.log.lock, NULL);
    pthread_mutex_init(&run->lock, NULL);
    atomic_init(&run->sh.abort_now, 0);
    run->tally.pair_first = calloc((size_t)cfg->games / 2 + 1, 1);

    /* A dead engine's pipe must give EPIPE, not kill the runner. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, interrupt = {.sa_handler = on_interrupt}, old_pipe, old_int;
    sigaction(SIGPIPE, &ignore, &old_pipe);
    interrupt_flag = &run->sh.abort_now;
    sigaction(SIGINT, &interrupt, &old_int);

    int status = 1;
    if (run->tally.pair_first && open_outputs(run) && load_openings(run) && probe_engines(run)) {
        fprintf(out,
                TR(cfg->lang, "Match %s vs %s: %d games, %d openings, concurrency %d\n",
                   "Wettkampf %s gegen %s: %d Partien, %d Eröffnungen, %d gleichzeitig\n"),
                run->sh.names[0], run->sh.names[1], cfg->games, run->openings.count, cfg->concurrency);
        fflush(out);
        play_all(run);
        print_final(run);
        status = 0;
    }

    sigaction(SIGINT, &old_int, NULL);
    interrupt_flag = NULL;
    sigaction(SIGPIPE, &old_pipe, NULL);
    if (run->pgn)
        fclose(run->pgn);
    if (run->sh.log.file)
        fclose(run->sh.log.file);
    openings_free(&run->openings);
    free(run->tally.pair_first);
    pthread_mutex_destroy(&run->lock);
    pthread_mutex_destroy(&run->sh.log.lock);
    free(run);
    return status;
}
