/* schach_tune selfplay: games of the engine against itself, for the Texel tuner (text) or as the
 * training data of the NNUE evaluation (binary records, tools/nnue_data.h).
 *
 *   schach_tune selfplay [--games N] [--nodes N] [--threads N] [--per-game N] [--seed N]
 *                        [--out FILE] [--first-game N]
 *
 * Every game number n (--first-game .. --first-game + --games - 1) is a game of its own: its random
 * opening and its tag come from a hash of (--seed, n), so another seed or another range of numbers
 * gives other games. The search is limited by nodes, one engine per thread with its own tables
 * cleared before each game, so a game is the same whichever thread plays it.
 *
 * With --out, each kept position becomes a 32-byte record appended to FILE: positions after the
 * opening (the 9th ply on) that are not in check, where no capture or promotion wins material
 * (tune_is_quiet) and where the search's best move is not a capture or a promotion (its score is then
 * the score of a quiet position, not of a pending exchange). --per-game 0 (the default with --out)
 * keeps them all. Resuming: each finished game is appended whole, then a line "seed game bytes" to
 * FILE.games (bytes: FILE's size after it). A new run reads FILE.games, cuts FILE back to the last
 * complete game (a run killed mid-write leaves nothing half) and skips the game numbers of its seed
 * already there; so the same command line run again continues where it stopped.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "nnue_data.h"
#include "schach/movegen.h"
#include "schach/pgn.h"
#include "schach/schach.h"
#include "tune.h"

typedef struct SelfPlay {
    int first, games, nodes, per_game;
    uint64_t seed;
    FILE *out, *index;    /* binary mode: the records and FILE.games */
    unsigned char *done;  /* binary mode: game numbers (minus first) already in FILE */
    long long bytes;      /* FILE's size */
    pthread_mutex_t lock; /* output, counters */
    int next, played;
    long long positions;
    double started, last_report;
} SelfPlay;

static uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static uint64_t xorshift(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A random opening of 8 legal plies that a 4-ply search finds within a pawn of equality. */
static bool random_opening(Engine *e, SchGame *g, uint64_t *rng) {
    for (int tries = 0; tries < 100; tries++) {
        sch_game_free(g);
        sch_game_init(g);
        for (int i = 0; i < 8 && !sch_game_over(g); i++) {
            SchMoveList list;
            sch_gen_legal(sch_game_position(g), &list);
            sch_game_play(g, list.moves[xorshift(rng) % (uint64_t)list.count], NULL);
        }
        if (sch_game_over(g))
            continue;
        EngineLimits lim = {.depth = 4};
        EngineResult r = engine_search(e, g, &lim, NULL, NULL);
        if (r.score > -100 && r.score < 100)
            return true;
    }
    return false;
}

/* What the search said about the position before each ply (ENGINE_MAX_PLY * 4 is far beyond any
 * game: adjudication ends draws at 200 plies, and the 75-move rule everything else). */
typedef struct Searched {
    int score;
    SchMove best;
    bool valid;
} Searched;

enum { SELFPLAY_MAX_PLIES = 1024 };

static bool is_tactical(const SchPosition *pos, SchMove m) {
    int kind = sch_move_kind(m);
    return kind == SCH_MOVE_PROMOTION || kind == SCH_MOVE_EN_PASSANT ||
           (kind == SCH_MOVE_NORMAL && pos->board[sch_move_to(m)] != SCH_NO_PIECE);
}

static int clamp_score(int score) {
    return score > NNUE_SCORE_CLAMP ? NNUE_SCORE_CLAMP : score < -NNUE_SCORE_CLAMP ? -NNUE_SCORE_CLAMP : score;
}

/* The game's records: the positions to keep, then (per_game > 0) a random pick of per_game of them.
 * Returns how many were written to buf (room for SELFPLAY_MAX_PLIES records). */
static int game_records(const SelfPlay *sp, const SchGame *g, const Searched *searched, SchResult result, uint8_t tag,
                        uint64_t *rng, uint8_t *buf) {
    uint8_t code = result == SCH_RESULT_WHITE_WINS ? 2 : result == SCH_RESULT_BLACK_WINS ? 0 : 1;
    SchPosition pos = g->start;
    int count = 0;
    for (int i = 0; i <= g->ply_count && i < SELFPLAY_MAX_PLIES; i++) {
        if (i > 0) {
            SchUndo u;
            sch_game_make_ply(&pos, g->plies[i - 1].move, &u);
        }
        const Searched *s = &searched[i];
        if (i < 9 || !s->valid || s->best == SCH_MOVE_NONE || is_tactical(&pos, s->best) || !tune_is_quiet(&pos))
            continue;
        NnueRecord rec = {.stm = pos.turn,
                          .result = code,
                          .score = (int16_t)clamp_score(s->score),
                          .fullmove = pos.fullmove,
                          .halfmove = (uint8_t)(pos.halfmove > 255 ? 255 : pos.halfmove),
                          .tag = tag};
        for (int sq = 0; sq < 64; sq++)
            if (pos.board[sq] != SCH_NO_PIECE) {
                rec.square[rec.count] = (uint8_t)sq;
                rec.code[rec.count++] = pos.board[sq];
            }
        nnue_record_encode(&rec, buf + (size_t)count++ * NNUE_RECORD_SIZE);
    }
    if (sp->per_game <= 0 || count <= sp->per_game)
        return count;
    /* A random pick of per_game, kept in game order. */
    bool keep[SELFPLAY_MAX_PLIES] = {false};
    for (int k = 0; k < sp->per_game;) {
        int j = (int)(xorshift(rng) % (uint64_t)count);
        if (!keep[j])
            keep[j] = true, k++;
    }
    int n = 0;
    for (int j = 0; j < count; j++)
        if (keep[j])
            memmove(buf + (size_t)n++ * NNUE_RECORD_SIZE, buf + (size_t)j * NNUE_RECORD_SIZE, NNUE_RECORD_SIZE);
    return n;
}

/* Called with the lock held: a line every 30 seconds and at the end. */
static void report(SelfPlay *sp, bool last) {
    double t = now_seconds();
    if (!last && t - sp->last_report < 30)
        return;
    sp->last_report = t;
    double hours = (t - sp->started) / 3600;
    fprintf(stderr, "schach_tune: %d games, %lld positions, %.0f positions/hour, %.0f games/hour\n", sp->played,
            sp->positions, hours > 0 ? (double)sp->positions / hours : 0, hours > 0 ? sp->played / hours : 0);
}

/* Plays game number n; writes its positions (text or records). */
static void selfplay_game(SelfPlay *sp, Engine *e, int n, Searched *searched, uint8_t *buf) {
    uint64_t hash = splitmix64(sp->seed ^ splitmix64((uint64_t)n));
    uint64_t rng = hash | 1;
    SchGame g;
    sch_game_init(&g);
    engine_clear(e);
    memset(searched, 0, SELFPLAY_MAX_PLIES * sizeof *searched);
    SchResult result = SCH_RESULT_NONE;
    if (random_opening(e, &g, &rng)) {
        int winning = 0, quiet = 0;
        while (!sch_game_over(&g) && result == SCH_RESULT_NONE) {
            EngineLimits lim = {.nodes = (uint64_t)sp->nodes};
            EngineResult r = engine_search(e, &g, &lim, NULL, NULL);
            if (g.ply_count < SELFPLAY_MAX_PLIES)
                searched[g.ply_count] = (Searched){.score = r.score, .best = r.best, .valid = true};
            SchColor stm = (SchColor)sch_game_position(&g)->turn;
            int white_score = stm == SCH_WHITE ? r.score : -r.score;
            winning = white_score >= 1000    ? (winning > 0 ? winning + 1 : 1)
                      : white_score <= -1000 ? (winning < 0 ? winning - 1 : -1)
                                             : 0;
            quiet = white_score > -50 && white_score < 50 ? quiet + 1 : 0;
            if (winning >= 6)
                result = SCH_RESULT_WHITE_WINS;
            else if (winning <= -6)
                result = SCH_RESULT_BLACK_WINS;
            else if (g.ply_count >= 200 && quiet >= 10)
                result = SCH_RESULT_DRAW;
            else if (r.best == SCH_MOVE_NONE || !sch_game_play(&g, r.best, NULL))
                break;
        }
        if (sch_game_over(&g))
            result = g.outcome.result;
    }
    pthread_mutex_lock(&sp->lock);
    if (sp->out) { /* a game without a result (no balanced opening found) is noted as done too */
        int count =
            result == SCH_RESULT_NONE ? 0 : game_records(sp, &g, searched, result, (uint8_t)(hash >> 56), &rng, buf);
        size_t bytes = (size_t)count * NNUE_RECORD_SIZE;
        if (fwrite(buf, 1, bytes, sp->out) == bytes && fflush(sp->out) == 0) {
            sp->bytes += (long long)bytes;
            sp->positions += count;
            fprintf(sp->index, "%llu %d %lld\n", (unsigned long long)sp->seed, n, sp->bytes);
            fflush(sp->index);
        } else {
            fputs("schach_tune: cannot write the records\n", stderr);
            exit(1);
        }
    } else if (result != SCH_RESULT_NONE) {
        SchPgnGame pg = {.game = g, .result = result};
        sp->positions += tune_extract_game(&pg, 9, sp->per_game);
    }
    sp->played++;
    report(sp, false);
    pthread_mutex_unlock(&sp->lock);
    sch_game_free(&g);
}

static void *selfplay_thread(void *arg) {
    SelfPlay *sp = arg;
    Engine *e = engine_new(NULL);
    Searched *searched = malloc(SELFPLAY_MAX_PLIES * sizeof *searched);
    uint8_t *buf = malloc((size_t)SELFPLAY_MAX_PLIES * NNUE_RECORD_SIZE);
    if (e && searched && buf) {
        for (;;) {
            pthread_mutex_lock(&sp->lock);
            while (sp->next < sp->games && sp->done && sp->done[sp->next])
                sp->next++;
            int n = sp->next < sp->games ? sp->first + sp->next++ : -1;
            pthread_mutex_unlock(&sp->lock);
            if (n < 0)
                break;
            selfplay_game(sp, e, n, searched, buf);
        }
    }
    free(buf);
    free(searched);
    engine_free(e);
    return NULL;
}

/* Opens FILE and FILE.games for appending after cutting FILE back to its last complete game, and
 * marks the games of this seed that are there already. */
static bool open_output(SelfPlay *sp, const char *path) {
    char index_path[4096];
    if (snprintf(index_path, sizeof index_path, "%s.games", path) >= (int)sizeof index_path)
        return false;
    sp->done = calloc((size_t)sp->games, 1);
    if (!sp->done)
        return false;
    long long complete = 0;
    bool have_index = false;
    FILE *idx = fopen(index_path, "r");
    if (idx) {
        char line[256];
        while (fgets(line, sizeof line, idx)) {
            unsigned long long seed;
            int n;
            long long bytes;
            if (!strchr(line, '\n') || sscanf(line, "%llu %d %lld", &seed, &n, &bytes) != 3)
                continue; /* a line cut short by a kill */
            have_index = true;
            if (bytes > complete)
                complete = bytes;
            if (seed == sp->seed && n >= sp->first && n - sp->first < sp->games)
                sp->done[n - sp->first] = 1;
        }
        fclose(idx);
    }
    struct stat st;
    long long size = stat(path, &st) == 0 ? (long long)st.st_size : 0;
    if (!have_index)
        complete = size - size % NNUE_RECORD_SIZE; /* records from elsewhere: keep every whole one */
    if (size < complete) {
        fprintf(stderr, "schach_tune: %s is shorter than %s says\n", path, index_path);
        return false;
    }
    if (size > complete && truncate(path, (off_t)complete) != 0)
        return false;
    sp->bytes = complete;
    sp->out = fopen(path, "ab");
    sp->index = fopen(index_path, "a");
    return sp->out && sp->index;
}

int tune_cmd_selfplay(int argc, char **argv) {
    SelfPlay sp = {.games = 1000, .nodes = 5000, .per_game = -1};
    int threads = 2;
    const char *out = NULL;
    for (int i = 0; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--games"))
            sp.games = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--nodes"))
            sp.nodes = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--per-game"))
            sp.per_game = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            sp.seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--first-game"))
            sp.first = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else {
            fprintf(stderr, "schach_tune selfplay: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (sp.per_game < 0)
        sp.per_game = out ? 0 : 12;
    if (threads < 1 || threads > 64 || sp.games < 1 || sp.nodes < 1 || sp.first < 0 || sp.games > 1 << 30 ||
        sp.first > (1 << 30) - sp.games || (!out && sp.per_game < 1)) {
        fputs("schach_tune selfplay: bad arguments\n", stderr);
        return 2;
    }
    if (out && !open_output(&sp, out)) {
        fprintf(stderr, "schach_tune: cannot open %s for appending\n", out);
        return 1;
    }
    tune_seed(sp.seed);
    pthread_mutex_init(&sp.lock, NULL);
    sp.started = sp.last_report = now_seconds();
    pthread_t tid[64];
    for (int i = 0; i < threads; i++)
        pthread_create(&tid[i], NULL, selfplay_thread, &sp);
    for (int i = 0; i < threads; i++)
        pthread_join(tid[i], NULL);
    report(&sp, true);
    fprintf(stderr, "schach_tune: %lld positions from %d games\n", sp.positions, sp.played);
    if (sp.out)
        fclose(sp.out);
    if (sp.index)
        fclose(sp.index);
    free(sp.done);
    return 0;
}
