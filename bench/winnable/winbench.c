/* schach_winbench: the winnability analysis (winnable.h) on real-game positions, one thread.
 *
 *   schach_winbench [--nodes N] [--positions FILE] PGN...
 *
 * The positions: the final position of every decisive game of the PGN files, and ten positions
 * picked at random (a fixed seed) from every game. Each is analysed for both colours in quick mode
 * and in full mode (budget N, default SCH_WIN_DEFAULT_NODES), three times over for the quick mode (its
 * times are tiny); every proof is replayed. Prints per mode the average and worst time per position
 * (both colours), the verdict counts and the nodes, and checks the targets: quick <= 2 us average,
 * full <= 100 us average with none undetermined. --positions also writes the positions, one FEN per
 * line. Exit status 1 when a target is missed or a proof fails. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/pgn.h"
#include "schach/winnable.h"
#include "schach/schach.h"

#define RANDOM_PER_GAME 10
#define QUICK_ROUNDS    3

typedef struct Set {
    SchPosition *items;
    size_t count, capacity;
} Set;

static void add(Set *s, const SchPosition *pos) {
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? s->capacity * 2 : 1024;
        s->items = realloc(s->items, s->capacity * sizeof *s->items);
        if (!s->items) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    s->items[s->count++] = *pos;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void read_games(const char *file, Set *set, int *games, int *decisive) {
    FILE *f = fopen(file, "rb");
    if (!f) {
        perror(file);
        exit(2);
    }
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    if (!r) {
        fprintf(stderr, "%s: cannot read\n", file);
        exit(2);
    }
    SchPgnGame pg;
    int rc;
    while ((rc = sch_pgn_read_game(r, &pg, &err)) != 0) {
        if (rc > 0) {
            const SchGame *g = &pg.game;
            (*games)++;
            if (pg.result == SCH_RESULT_WHITE_WINS || pg.result == SCH_RESULT_BLACK_WINS) {
                add(set, &g->pos);
                (*decisive)++;
            }
            int picks[RANDOM_PER_GAME];
            for (int k = 0; k < RANDOM_PER_GAME; k++)
                picks[k] = g->ply_count ? (int)(next_random() % (uint64_t)g->ply_count) : -1;
            SchPosition pos = g->start;
            for (int i = 0; i < g->ply_count; i++) {
                SchUndo u;
                sch_game_make_ply(&pos, g->plies[i].move, &u); /* a null move too */
                for (int k = 0; k < RANDOM_PER_GAME; k++)
                    if (picks[k] == i)
                        add(set, &pos);
            }
        }
        sch_pgn_game_free(&pg);
    }
    sch_pgn_reader_close(r);
    fclose(f);
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Figures {
    double total, worst;
    int verdicts[3];
    uint64_t nodes;
    int bad_proofs;
} Figures;

/* Times both colours of every position; the time of a position is the sum of both. */
static void measure(const Set *set, const SchWinLimits *limits, SchWinWork *work, Figures *fig, char *worst_fen) {
    memset(fig, 0, sizeof *fig);
    for (size_t i = 0; i < set->count; i++) {
        const SchPosition *pos = &set->items[i];
        SchWinResult res[2];
        double start = seconds();
        for (int c = 0; c < 2; c++)
            sch_can_checkmate(pos, (SchColor)c, limits, work, &res[c]);
        double t = seconds() - start;
        fig->total += t;
        if (t > fig->worst) {
            fig->worst = t;
            sch_fen_write(pos, worst_fen, SCH_FEN_MAX);
        }
        for (int c = 0; c < 2; c++) {
            fig->verdicts[res[c].verdict]++;
            fig->nodes += res[c].nodes;
            if (res[c].verdict == SCH_WIN_WINNABLE && !sch_win_proof_valid(pos, (SchColor)c, &res[c]))
                fig->bad_proofs++;
        }
    }
}

static void report(const char *mode, const Figures *f, size_t positions, const char *worst_fen) {
    printf("| %s | %.2f µs | %.0f µs | %d | %d | %d | %.0f |\n", mode, f->total / (double)positions * 1e6,
           f->worst * 1e6, f->verdicts[SCH_WIN_WINNABLE], f->verdicts[SCH_WIN_UNWINNABLE],
           f->verdicts[SCH_WIN_UNDETERMINED], (double)f->nodes / (double)positions);
    printf("  worst: %s\n", worst_fen);
}

int main(int argc, char **argv) {
    SchWinLimits full = {false, 0}, quick = {true, 0};
    const char *positions_out = NULL;
    Set set = {0};
    int games = 0, decisive = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
            full.nodes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--positions") && i + 1 < argc)
            positions_out = argv[++i];
        else
            read_games(argv[i], &set, &games, &decisive);
    }
    if (set.count == 0) {
        fprintf(stderr, "usage: schach_winbench [--nodes N] [--positions FILE] PGN...\n");
        return 2;
    }
    if (positions_out) {
        FILE *f = fopen(positions_out, "w");
        for (size_t i = 0; f && i < set.count; i++) {
            char fen[SCH_FEN_MAX];
            sch_fen_write(&set.items[i], fen, sizeof fen);
            fprintf(f, "%s\n", fen);
        }
        if (f)
            fclose(f);
    }
    SchWinWork *work = sch_win_work_new(0);
    if (!work)
        return 2;
    /* Warm the work area's pages and the caches once. */
    Figures warm, qf, ff;
    char worst_q[SCH_FEN_MAX] = "", worst_f[SCH_FEN_MAX] = "";
    measure(&set, &full, work, &warm, worst_f);

    printf("%zu positions (both colours each) from %d games: the final positions of the %d decisive ones and "
           "%d random positions of each\n\n",
           set.count, games, decisive, RANDOM_PER_GAME);
    printf("| Mode | Average per position | Worst | Winnable | Unwinnable | Undetermined | Nodes per position |\n");
    printf("|---|---|---|---|---|---|---|\n");
    Figures best_q;
    for (int round = 0; round < QUICK_ROUNDS; round++) {
        measure(&set, &quick, NULL, &qf, worst_q);
        if (round == 0 || qf.total < best_q.total)
            best_q = qf;
    }
    report("quick", &best_q, set.count, worst_q);
    measure(&set, &full, work, &ff, worst_f);
    report("full", &ff, set.count, worst_f);
    sch_win_work_free(work);

    double quick_avg = best_q.total / (double)set.count * 1e6, full_avg = ff.total / (double)set.count * 1e6;
    bool ok = true;
    printf("\ntarget quick <= 2 µs average: %s (%.2f µs)\n", quick_avg <= 2 ? "PASS" : "MISS", quick_avg);
    ok &= quick_avg <= 2;
    printf("target full <= 100 µs average: %s (%.2f µs)\n", full_avg <= 100 ? "PASS" : "MISS", full_avg);
    ok &= full_avg <= 100;
    printf("target full: none undetermined: %s (%d)\n", ff.verdicts[SCH_WIN_UNDETERMINED] == 0 ? "PASS" : "MISS",
           ff.verdicts[SCH_WIN_UNDETERMINED]);
    ok &= ff.verdicts[SCH_WIN_UNDETERMINED] == 0;
    printf("proofs replayed to mate: %s (%d failed)\n", ff.bad_proofs + best_q.bad_proofs == 0 ? "PASS" : "FAIL",
           ff.bad_proofs + best_q.bad_proofs);
    ok &= ff.bad_proofs + best_q.bad_proofs == 0;
    free(set.items);
    return ok ? 0 : 1;
}
