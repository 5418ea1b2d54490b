/* schach_mkgames: a database of finished games for the server benchmark (bench/server.sh, part
 * "scale"), written straight into SQLite so that a million games take a minute, not hours of play.
 *
 *   schach_mkgames DB FINISHED [IN_PLAY [PLIES]]
 *
 * The schema comes from the server's own store (store_sqlite_open migrates a new file), so the rows
 * are exactly what `schach serve` reads. Each game replays one of 256 random legal lines of PLIES
 * (default 60) plies on average from a fixed seed; finished games end by resignation, games in play
 * wait for the side to move. Every game gets random secret hashes, as real ones have.
 */
#define _POSIX_C_SOURCE 200809L

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "store/store.h"

#define LINES    256
#define MAX_LINE 400

typedef struct Line {
    char uci[MAX_LINE][8];
    int count;
} Line;

static Line lines[LINES];
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/* Random legal lines, lengths spread over plies/2 .. 3*plies/2, none ending the game by the rules
 * (the stored result is a resignation, which must still be possible in the last position). */
static void make_lines(int plies) {
    for (int i = 0; i < LINES; i++) {
        SchGame g;
        sch_game_init(&g);
        int length = plies / 2 + (int)(rng_next() % (uint64_t)(plies + 1));
        if (length >= MAX_LINE)
            length = MAX_LINE - 1;
        Line *l = &lines[i];
        l->count = 0;
        for (int p = 0; p < length; p++) {
            SchMoveList list;
            sch_gen_legal(sch_game_position(&g), &list);
            SchMove m = list.moves[rng_next() % (uint64_t)list.count];
            SchGame probe;
            if (!sch_game_copy(&probe, &g))
                break;
            bool ends = !sch_game_play(&probe, m, NULL) || sch_game_over(&probe);
            sch_game_free(&probe);
            if (ends)
                break;
            sch_uci_write(&g.pos, m, l->uci[l->count], sizeof l->uci[0]);
            sch_game_play(&g, m, NULL);
            l->count++;
        }
        sch_game_free(&g);
    }
}

static void random_id(char out[STORE_ID_LEN + 1]) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 0; i < STORE_ID_LEN; i++)
        out[i] = alphabet[rng_next() % 64];
    out[STORE_ID_LEN] = '\0';
}

static void random_hash(unsigned char out[STORE_HASH_LEN]) {
    for (int i = 0; i < STORE_HASH_LEN; i += 8) {
        uint64_t r = rng_next();
        memcpy(out + i, &r, 8);
    }
}

static void die(sqlite3 *db, const char *what) {
    fprintf(stderr, "schach_mkgames: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}

static void exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        die(db, sql);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 5) {
        fputs("usage: schach_mkgames DB FINISHED [IN_PLAY [PLIES]]\n", stderr);
        return 2;
    }
    const char *path = argv[1];
    long finished = atol(argv[2]), in_play = argc > 3 ? atol(argv[3]) : 0;
    int plies = argc > 4 ? atoi(argv[4]) : 60;
    if (finished < 0 || in_play < 0 || plies < 2) {
        fputs("schach_mkgames: counts must be >= 0 and PLIES >= 2\n", stderr);
        return 2;
    }
    /* The store creates the file and brings its schema up to date, then lets go of it. */
    char err[256];
    Store *store = store_sqlite_open(path, NULL, NULL, err, sizeof err);
    if (!store) {
        fprintf(stderr, "schach_mkgames: %s\n", err);
        return 1;
    }
    store_close(store);
    make_lines(plies);

    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        die(db, "open");
    exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144");
    sqlite3_stmt *game = NULL, *move = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO games (id, created_ms, updated_ms, start_fen, mode, time_type, minutes,"
                           " increment, days, secret_hash_white, secret_hash_black, invite_hash, invite_color,"
                           " result, termination, draw_offer, clock_white_ms, clock_black_ms, turn_started_ms,"
                           " level, plies) VALUES (?1, ?2, ?3, '', 'local', 'none', 0, 0, 0, ?4, ?5, NULL, -1, ?6,"
                           " ?7, -1, 0, 0, 0, '', ?8)",
                           -1, &game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO moves (game_id, ply, uci, at_ms) VALUES (?1, ?2, ?3, ?4)", -1, &move,
                           NULL) != SQLITE_OK)
        die(db, "prepare");

    int64_t t = 1700000000000LL;
    long total = finished + in_play;
    exec(db, "BEGIN");
    for (long i = 0; i < total; i++) {
        bool over = i < finished;
        const Line *l = &lines[rng_next() % LINES];
        char id[STORE_ID_LEN + 1];
        unsigned char white[STORE_HASH_LEN], black[STORE_HASH_LEN];
        random_id(id);
        random_hash(white);
        random_hash(black);
        int64_t created = t + i * 1000;
        int64_t updated = created + (int64_t)l->count * 5000;
        /* Whoever is to move resigns: the other side wins. */
        const char *result = l->count % 2 == 0 ? "0-1" : "1-0";
        sqlite3_bind_text(game, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(game, 2, created);
        sqlite3_bind_int64(game, 3, updated);
        sqlite3_bind_blob(game, 4, white, STORE_HASH_LEN, SQLITE_STATIC);
        sqlite3_bind_blob(game, 5, black, STORE_HASH_LEN, SQLITE_STATIC);
        sqlite3_bind_text(game, 6, over ? result : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(game, 7, over ? "resignation" : "", -1, SQLITE_STATIC);
        sqlite3_bind_int(game, 8, over ? l->count : 0);
        if (sqlite3_step(game) != SQLITE_DONE) {
            if (sqlite3_errcode(db) == SQLITE_CONSTRAINT) { /* an id drawn twice: draw again */
                sqlite3_reset(game);
                i--;
                continue;
            }
            die(db, "insert game");
        }
        sqlite3_reset(game);
        for (int p = 0; p < l->count; p++) {
            sqlite3_bind_text(move, 1, id, -1, SQLITE_STATIC);
            sqlite3_bind_int(move, 2, p);
            sqlite3_bind_text(move, 3, l->uci[p], -1, SQLITE_STATIC);
            sqlite3_bind_int64(move, 4, created + (int64_t)p * 5000);
            if (sqlite3_step(move) != SQLITE_DONE)
                die(db, "insert move");
            sqlite3_reset(move);
        }
        if (i % 20000 == 19999) {
            exec(db, "COMMIT; BEGIN");
            fprintf(stderr, "\rschach_mkgames: %ld of %ld games", i + 1, total);
        }
    }
    exec(db, "COMMIT");
    sqlite3_finalize(game);
    sqlite3_finalize(move);
    exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    if (sqlite3_close(db) != SQLITE_OK)
        die(db, "close");
    fprintf(stderr, "\rschach_mkgames: %ld finished and %ld games in play in %s\n", finished, in_play, path);
    return 0;
}
