/* Accounts and their sessions in the store (issue 13): a connection of their own, apart from the games'
 * writer and reads, used by one thread at a time — the server's accounts worker, which also hashes
 * passwords, so nothing here ever runs on the event loop. Every call is synchronous and durable: it
 * returns once the database committed (SQLite synchronous=FULL, PostgreSQL synchronous_commit on).
 *
 * A name is stored twice: as its key (lower case, the primary key: names are one whatever the case)
 * and as its owner typed it. A password only as its Argon2id string (account.h), a session only as
 * the hash of its token (secret.c), so the database never holds anything a reader could log in with. */
#ifndef SCHACH_SERVER_STORE_ACCOUNTS_H
#define SCHACH_SERVER_STORE_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "store.h"

#define STORE_ACCOUNT_NAME_LEN  STORE_ACCOUNT_LEN
#define STORE_PASSWORD_HASH_LEN 127 /* crypto_pwhash_STRBYTES - 1 */

typedef struct AccountRow {
    char key[STORE_ACCOUNT_NAME_LEN + 1];  /* lower case */
    char name[STORE_ACCOUNT_NAME_LEN + 1]; /* as its owner typed it */
    char password_hash[STORE_PASSWORD_HASH_LEN + 1];
    int64_t created_ms;
    int64_t seat_epoch; /* schema 14: the generation of the account's seat secrets (GameRecord.seat_epoch) */
} AccountRow;

/* A name's confusable skeleton (schema 14, issue 22), in SQL over the text expr: lower case, with the
 * letters and digits that look alike in common fonts made one (I, l and 1 become l; O and 0 become o).
 * Stored beside each account under a unique index, so no name can be registered whose skeleton another
 * account's has ("aIice01" beside "alice01"). Names are ASCII (account.h), so lower() is the same on
 * both backends. */
#define STORE_NAME_SKELETON(expr) "replace(replace(replace(lower(" expr "), 'i', 'l'), '1', 'l'), '0', 'o')"

/* An open challenge in the lobby (schema 10). Its poster holds a secret whose hash is stored here; when
 * someone accepts, the game is created with that hash as the poster's side's secret, so the poster
 * plays on with the secret they already hold. */
typedef struct SeekRow {
    char id[STORE_ID_LEN + 1];
    int64_t created_ms;
    int64_t expires_ms;                  /* gone from the lobby after this */
    char account[STORE_ACCOUNT_LEN + 1]; /* the poster's account key, "" for an anonymous poster */
    char name[STORE_ACCOUNT_LEN + 1];    /* ... and its name as shown */
    int rating;                          /* the poster's rating in the seek's category (0: none) */
    int provisional;                     /* 1: that rating is provisional (shown with "?"; schema 16) */
    int rated;                           /* 1: a rated game (both players need accounts) */
    char color[8];                       /* the poster's side: "white", "black" or "random" */
    TimeControl time;                    /* live or correspondence */
    Variant variant;                     /* standard or Chess960 (schema: SQLite 17, PostgreSQL 18) */
    unsigned char secret_hash[STORE_HASH_LEN];
    char game_id[STORE_ID_LEN + 1]; /* the game once accepted, "" while open */
    int poster_color;               /* once accepted: the Color the poster plays */
    char address[64];               /* the poster's address key (client_limits.h) when anonymous, else "" (schema 13) */
} SeekRow;

/* Quick pairing's rating window (accounts_lobby.c): a waiting rated seek accepts ratings within
 * start + growth × (whole step_ms it has waited), and any rating once it has waited steps × step_ms;
 * floor is the asker's own window (the larger of the two counts; -1: any rating). */
typedef struct SeekWindow {
    int start, growth, steps, floor;
    int64_t step_ms;
} SeekWindow;

/* What a rated game computes from both ratings before it (rating_apply), inside the store's
 * transaction; false leaves everything as it was. */
typedef bool (*StoreRateFn)(void *ctx, RatingRow *white, RatingRow *black);

/* A rated game that ended and has not been rated (the node that ended it went down first). */
typedef struct UnratedGame {
    char id[STORE_ID_LEN + 1];
    char account[2][STORE_ACCOUNT_LEN + 1]; /* the players' names as shown */
    char result[8];
    TimeControl time;
    int64_t updated_ms; /* when it ended */
    Variant variant;    /* a rated game with a start position is a lobby Chess960 game (no other has one) */
} UnratedGame;

/* A game in play of an account. */
typedef struct PlayingGame {
    char id[STORE_ID_LEN + 1];
    int color;                   /* the account's side */
    int moves;                   /* plies played */
    char start_fen[SCH_FEN_MAX]; /* "" for the standard start */
    TimeControl time;
    int64_t updated_ms;
    int64_t seat_epoch; /* the account's side's (GameRecord.seat_epoch) */
    /* Who plays the other side ("your turn" names them, issue 24): their account's name as shown ("" for
     * none), in a rated game the rating they began it with (else 0) and whether it was provisional then
     * (1; schema 18), and the computer's level ("" for a person). */
    char opponent[STORE_ACCOUNT_LEN + 1];
    int rated, opponent_rating, opponent_provisional;
    char level[32];
} PlayingGame;

/* A point of a rating's history: after the game that ended at at_ms. */
typedef struct RatingPoint {
    int64_t at_ms;
    int rating;
} RatingPoint;

/* A finished game of an account, as its player page lists it. */
typedef struct PlayedGame {
    char id[STORE_ID_LEN + 1];
    int64_t created_ms, ended_ms;
    char account[2][STORE_ACCOUNT_LEN + 1];
    char result[8];
    char termination[40];
    char reason[32];
    TimeControl time;
    int rated;
    int rating[2], rating_diff[2];
    int moves;
} PlayedGame;

/* Which of an account's games: all finished ones, or those it won, lost or drew (aborted ones never). */
typedef enum { PLAYED_ALL, PLAYED_WON, PLAYED_LOST, PLAYED_DRAWN } PlayedFilter;
/* Both backends' query of an account's finished games (the columns PlayedGame is read from, in its
 * order), with ph the placeholder of the name and tail the backend's ORDER BY / LIMIT / OFFSET. */
void store_played_sql(PlayedFilter filter, const char *ph, const char *tail, char *out, size_t size);
/* The same for an account's games in play (PlayingGame's columns), and for its finished games with the
 * backend's own select ("SELECT ... FROM games g"). All three are one UNION ALL of a half per side,
 * each answered from that side's index (store_account_games_sql). */
void store_playing_sql(const char *ph, const char *tail, char *out, size_t size);
void store_player_games_sql(const char *select, const char *ph, const char *tail, char *out, size_t size);
void store_account_games_sql(const char *select, const char *ph, const char *cond_white, const char *cond_black,
                             const char *tail, char *out, size_t size);

/* A game's analysis by the engine (schema 15, issue 23): queued by a request, run by one node at a time
 * under a lease it renews while it runs (a node that went down leaves it to whichever node asks next),
 * its result kept once done (shared by everyone who opens the game). */
typedef struct AnalysisRow {
    char game_id[STORE_ID_LEN + 1];
    char status[8]; /* "queued", "running" or "done" */
    int64_t requested_ms, updated_ms;
    char node[STORE_NODE_LEN + 1]; /* running: the node that runs it */
    int64_t lease_until_ms;
    int done, total; /* positions analysed, of total */
} AnalysisRow;

/* How many analyses one requester may ask for in STORE_ANALYSIS_WINDOW_MS. */
#define STORE_ANALYSIS_WINDOW_MS (24LL * 3600 * 1000)

#define STORE_SESSIONS_MAX 50
/* Ratings cannot be farmed (issue 22): of the rated games between the same two accounts that ended in
 * STORE_RATED_PAIR_WINDOW_MS, at most STORE_RATED_PAIR_MAX count for the rating (rate_game). */
#define STORE_RATED_PAIR_MAX       3
#define STORE_RATED_PAIR_WINDOW_MS (24LL * 3600 * 1000)
/* A cluster's open seeks leave the lobby when the process they were posted through has not beaten
 * (seek_beat) for this long; tests shorten it with SCHACH_LOBBY_NODE_DEADLINE_MS. */
#define STORE_LOBBY_NODE_DEADLINE_MS 40000
/* An accepted seek is kept this long (its poster may still ask which game it became). */
#define STORE_SEEK_KEEP_MS (24LL * 3600 * 1000)

/* What a call came to. */
typedef enum {
    SA_OK,
    SA_NOT_FOUND,  /* no such account or session (or an expired session) */
    SA_TAKEN,      /* create: the name (whatever its case) has an account already */
    SA_CONFUSABLE, /* create: another account's name has the same confusable skeleton */
    SA_LIMITED,    /* analysis_queue: a requester reached its limit */
    SA_FAULT       /* the database failed; err says how; nothing changed */
} StoreAccountResult;

typedef struct StoreAccounts StoreAccounts;

typedef struct StoreAccountsVtbl {
    void (*close)(StoreAccounts *a);
    /* Inserts the account; SA_TAKEN when its key exists, SA_CONFUSABLE when its skeleton does. */
    StoreAccountResult (*create)(StoreAccounts *a, const AccountRow *row, char *err, size_t err_size);
    /* Reads the account with this key. */
    StoreAccountResult (*get)(StoreAccounts *a, const char *key, AccountRow *out, char *err, size_t err_size);
    /* Replaces the password hash (NULL: keeps it), ends every session of the account but keep (a hash, or
     * NULL: all; *ended, when not NULL, gets how many ended) and revokes the account's seat secrets: its
     * seat_epoch and that of every side of a game it plays go up by one (those games' revs too, so a
     * copy in a server's memory is behind: its next change conflicts and reads the game again). */
    StoreAccountResult (*revoke_access)(StoreAccounts *a, const char *key, const char *password_hash,
                                        const unsigned char keep[STORE_HASH_LEN], int *ended, char *err,
                                        size_t err_size);
    /* Stores a new session of the account until expires_ms; also removes the account's expired ones and
     * its oldest beyond STORE_SESSIONS_MAX (what one account can make the database hold is bounded). */
    StoreAccountResult (*session_create)(StoreAccounts *a, const char *key, const unsigned char hash[STORE_HASH_LEN],
                                         int64_t now_ms, int64_t expires_ms, char *err, size_t err_size);
    /* The account of a session that has not expired at now_ms. */
    StoreAccountResult (*session_get)(StoreAccounts *a, const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                      AccountRow *out, char *err, size_t err_size);
    /* Ends the session (SA_NOT_FOUND when there was none). */
    StoreAccountResult (*session_delete)(StoreAccounts *a, const unsigned char hash[STORE_HASH_LEN], char *err,
                                         size_t err_size);
    /* The lobby. Stores a new seek (SA_TAKEN: the id exists); removes the expired ones and the accepted
     * ones older than STORE_SEEK_KEEP_MS. */
    StoreAccountResult (*seek_create)(StoreAccounts *a, const SeekRow *seek, char *err, size_t err_size);
    /* Up to max open seeks (not accepted, not expired at now_ms), oldest first; the count or -1. */
    int (*seek_list)(StoreAccounts *a, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size);
    /* How many open seeks the account key posted, or, with account "", the anonymous posters of address
     * (schema 13); -1 on failure. */
    int (*seek_count)(StoreAccounts *a, const char *account, const char *address, int64_t now_ms, char *err,
                      size_t err_size);
    /* Quick pairing: the oldest open seek other than want->id with want's time control and rated, colour
     * "random", not of account (when not "") nor, with account "", of an anonymous poster from address
     * (when not ""), and (rated) a rating within the larger of its window at now_ms and w->floor of
     * want->rating (SeekWindow); SA_NOT_FOUND when there is none. */
    StoreAccountResult (*seek_match)(StoreAccounts *a, const SeekRow *want, const SeekWindow *w, const char *account,
                                     const char *address, int64_t now_ms, SeekRow *out, char *err, size_t err_size);
    /* A cluster's lobby (PostgreSQL; SQLite: nothing to do, SA_OK): this server process is alive at now_ms.
     * Open seeks posted through a process that has not said so for STORE_LOBBY_NODE_DEADLINE_MS (its
     * server died: its posters' pages went with it) are no longer listed, matched, counted or accepted,
     * and go at the next seek_create (which beats for its own process too). */
    StoreAccountResult (*seek_beat)(StoreAccounts *a, int64_t now_ms, char *err, size_t err_size);
    /* One seek by id, open or accepted (not one that expired unaccepted). */
    StoreAccountResult (*seek_get)(StoreAccounts *a, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                   size_t err_size);
    /* Removes an open seek whose secret hashes to hash (SA_NOT_FOUND: none such). */
    StoreAccountResult (*seek_cancel)(StoreAccounts *a, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                      int64_t now_ms, char *err, size_t err_size);
    /* Its poster holds an open seek whose secret hashes to hash (a WebSocket says so): it now expires
     * ttl_ms after it was created, not earlier (a seek posted with "hold" waits only a short grace for
     * that: accounts_lobby.c). SA_NOT_FOUND: no open seek with that id and secret. */
    StoreAccountResult (*seek_hold)(StoreAccounts *a, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                    int64_t now_ms, int64_t ttl_ms, char *err, size_t err_size);
    /* Accepts an open seek: in one transaction marks it taken by game->id with the poster's color and
     * inserts the game's row (rev 1), and, when withdraw is not "", removes the accepter's own open seek
     * withdraw whose secret hashes to withdraw_hash. SA_NOT_FOUND: either was accepted, cancelled or
     * expired meanwhile, or withdraw's secret is not that one (nothing written). */
    /* Ratings. Rates a finished game once (schema 11): in one transaction marks the game rated (SA_TAKEN:
     * it was already, nothing changed), reads both accounts' ratings in the category (a newcomer's when
     * there is none), lets fn compute the new ones, stores them with a point of each one's history, and
     * the game's before and after, in game_ratings and in the game's row (rating, rating_diff; its rev
     * goes up by one: *game_rev, the new rev, 0 when the game's row is not there). before/after get the
     * ratings. When the two accounts already have STORE_RATED_PAIR_MAX games rated in the
     * STORE_RATED_PAIR_WINDOW_MS before now_ms (their common points of rating_history, read through its
     * primary key), the game is recorded the same way but fn is not called: after = before, no rating
     * and no history changes. */
    StoreAccountResult (*rate_game)(StoreAccounts *a, const char *game_id, const char *category, const char *white_key,
                                    const char *black_key, int64_t now_ms, StoreRateFn fn, void *ctx,
                                    RatingRow before[2], RatingRow after[2], int64_t *game_rev, char *err,
                                    size_t err_size);
    /* The account's ratings: have[c] tells which categories it has played in. SA_OK (also with none). */
    StoreAccountResult (*ratings_of)(StoreAccounts *a, const char *key, RatingRow out[RATING_COUNT],
                                     bool have[RATING_COUNT], char *err, size_t err_size);
    /* The site's secret key (32 random bytes, made once by whichever node asks first, the same for
     * every node): the secrets of the sides accounts play are derived from it (accounts.h). */
    StoreAccountResult (*site_key)(StoreAccounts *a, unsigned char key[32], char *err, size_t err_size);
    /* Up to max games in play where the account (by its name as shown) plays a side, newest first; the
     * count or -1. */
    int (*playing)(StoreAccounts *a, const char *name, PlayingGame *out, int max, char *err, size_t err_size);
    /* The newest max points of the account's rating history in a category, oldest first; the count or -1. */
    int (*rating_history)(StoreAccounts *a, const char *key, const char *category, RatingPoint *out, int max, char *err,
                          size_t err_size);
    /* The account's finished games (by its name as shown), newest first, skipping offset; the count or
     * -1. */
    int (*played)(StoreAccounts *a, const char *name, PlayedFilter filter, int offset, PlayedGame *out, int max,
                  char *err, size_t err_size);
    /* Up to max rated games that ended after since_ms and have not been rated; the count or -1. */
    int (*unrated)(StoreAccounts *a, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size);
    /* A rated game's ratings before and after (rounded), SA_NOT_FOUND before it was rated. */
    StoreAccountResult (*game_rating)(StoreAccounts *a, const char *game_id, int before[2], int after[2], char *err,
                                      size_t err_size);
    /* The newest max finished games of the account (by its name as shown; aborted ones never), newest
     * first, each handed to each with its moves as it is read (one at a time: memory holds one game's
     * moves, however many there are); all from one snapshot. The count or -1. */
    int (*player_games)(StoreAccounts *a, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                        size_t err_size);
    StoreAccountResult (*seek_accept)(StoreAccounts *a, const char *id, int64_t now_ms, int poster_color,
                                      const GameRecord *game, const char *withdraw,
                                      const unsigned char withdraw_hash[STORE_HASH_LEN], char *err, size_t err_size);
    /* One game by id with its moves, on this connection (as store.h get): 1, 0 when there is none, -1. */
    int (*game_get)(StoreAccounts *a, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
    /* Analyses (schema 15). The game's analysis into *out and, when result is not NULL, its JSON text
     * (malloc'd; "" until it is done); SA_NOT_FOUND when nobody asked for one. */
    StoreAccountResult (*analysis_get)(StoreAccounts *a, const char *game_id, AnalysisRow *out, char **result,
                                       char *err, size_t err_size);
    /* Queues an analysis of game_id (total positions) in one transaction: SA_TAKEN with *out when the game
     * has one already (nothing counted); SA_LIMITED when requesters[i] (a key such as "a:NAME" or
     * "ip:ADDRESS"; NULL: none) asked for per_day[i] or more in the STORE_ANALYSIS_WINDOW_MS before
     * now_ms (nothing written); else SA_OK: queued, with a request counted for each requester.
     * Requests older than the window are removed. */
    StoreAccountResult (*analysis_queue)(StoreAccounts *a, const char *game_id, int total,
                                         const char *const requesters[2], const int per_day[2], int64_t now_ms,
                                         AnalysisRow *out, char *err, size_t err_size);
    /* Node takes the analysis until until_ms: when it is queued, running under a lease that ended before
     * now_ms, or node's already. SA_TAKEN: another node holds it, or it is done; SA_NOT_FOUND: none. */
    StoreAccountResult (*analysis_claim)(StoreAccounts *a, const char *game_id, const char *node, int64_t now_ms,
                                         int64_t until_ms, char *err, size_t err_size);
    /* The progress of node's run, its lease renewed until until_ms (SA_NOT_FOUND: node lost it). */
    StoreAccountResult (*analysis_progress)(StoreAccounts *a, const char *game_id, const char *node, int done,
                                            int64_t now_ms, int64_t until_ms, char *err, size_t err_size);
    /* Node's run is done: result (JSON text) kept, the status "done" (SA_NOT_FOUND: node lost it). */
    StoreAccountResult (*analysis_finish)(StoreAccounts *a, const char *game_id, const char *node, const char *result,
                                          int64_t now_ms, char *err, size_t err_size);
} StoreAccountsVtbl;

struct StoreAccounts {
    const StoreAccountsVtbl *vtbl;
};

/* A connection for accounts to the store's database; NULL with err filled on failure. Close it before
 * the store. */
StoreAccounts *store_accounts_open(Store *store, char *err, size_t err_size);

static inline void store_accounts_close(StoreAccounts *a) {
    if (a)
        a->vtbl->close(a);
}

#endif
