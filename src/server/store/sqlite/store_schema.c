/* The SQLite store's schema: versioned migrations (PRAGMA user_version) and WAL mode. */
#include "store_sqlite_internal.h"

#include <stdio.h>
#include <string.h>

/* The schema, one step per version: step i brings user_version from i to i+1 in one transaction.
 * Never edit a step that has shipped; append a new one. */
static const char *const store_migrations[] = {
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  start_fen TEXT NOT NULL,"
    "  mode TEXT NOT NULL,"
    "  time_type TEXT NOT NULL,"
    "  minutes INTEGER NOT NULL,"
    "  increment INTEGER NOT NULL,"
    "  days INTEGER NOT NULL,"
    "  secret_hash_white BLOB,"
    "  secret_hash_black BLOB,"
    "  invite_hash BLOB,"
    "  invite_color INTEGER NOT NULL,"
    "  result TEXT NOT NULL,"
    "  termination TEXT NOT NULL,"
    "  draw_offer INTEGER NOT NULL,"
    "  clock_white_ms INTEGER NOT NULL,"
    "  clock_black_ms INTEGER NOT NULL,"
    "  turn_started_ms INTEGER NOT NULL"
    ");"
    /* Finished games by age: what a clean-up of old games walks. */
    "CREATE INDEX games_finished_by_update ON games(updated_ms) WHERE result <> '';"
    "CREATE TABLE moves ("
    "  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    "  ply INTEGER NOT NULL CHECK (ply >= 0),"
    "  uci TEXT NOT NULL,"
    "  at_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, ply)"
    ") WITHOUT ROWID;",
    /* 2: games against the computer name the engine level they play at ("" for other games). */
    "ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT '';",
    /* 3: start-up reads only the games in play, whatever the number of finished ones. */
    "CREATE INDEX games_in_play ON games(created_ms, id) WHERE result = '';",
    /* 4: facts about the store itself; start-up writes one (opened_ms) to prove the database, its WAL
     * and their folder are writable before anything is acknowledged. */
    "CREATE TABLE store_meta (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;",
    /* 5: how many moves the game had when its row was last written (-1: written before this step),
     * so a read can tell a move list cut short by damage from a whole one: bit-rot was seen to serve
     * a game of 117 plies with 54 and no error. Costs nothing per move: the row is written anyway when
     * a game ends, and at every move of a game with a clock. */
    "ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT -1;",
    /* 6: why a dead position or a 6.9 draw is one (winnable.h's reason name, e.g. "locked_pawns"; ""
     * for every other ending): it comes from an analysis with a budget, too dear to run again when a
     * finished game is read. */
    "ALTER TABLE games ADD COLUMN reason TEXT NOT NULL DEFAULT '';",
    /* 7: several servers on one database (PostgreSQL has the same steps): rev counts the committed
     * changes of a game, so a change made on an outdated copy is refused instead of overwriting a
     * newer one; lease_node, lease_rev and lease_until_ms say which server thinks for the computer
     * in a game, at which rev, and until when (a lease ends early when the game moves on). */
    "ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;"
    "ALTER TABLE games ADD COLUMN lease_node TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN lease_rev INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN lease_until_ms INTEGER NOT NULL DEFAULT 0;",
    /* 8: accounts (optional for players) and their sessions (store_accounts.h): the name's key in lower
     * case, the name as typed, the password's Argon2id string; a session only as its token's hash. */
    "CREATE TABLE accounts ("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  name TEXT NOT NULL,"
    "  password_hash TEXT NOT NULL,"
    "  created_ms INTEGER NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE TABLE sessions ("
    "  token_hash BLOB PRIMARY KEY NOT NULL,"
    "  account_key TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,"
    "  created_ms INTEGER NOT NULL,"
    "  expires_ms INTEGER NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE INDEX sessions_by_account ON sessions(account_key, expires_ms);",
    /* 9: who plays a game with an account, rated or casual, and the ratings before and after; a
     * player's games are found by the side's account, newest first. */
    "ALTER TABLE games ADD COLUMN account_white TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN account_black TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rating_white INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rating_black INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rating_diff_white INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rating_diff_black INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX games_by_white_account ON games(account_white, created_ms) WHERE account_white <> '';"
    "CREATE INDEX games_by_black_account ON games(account_black, created_ms) WHERE account_black <> '';",
    /* 10: the lobby's open challenges (store_accounts.h SeekRow); open ones are listed by age. */
    "CREATE TABLE seeks ("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  expires_ms INTEGER NOT NULL,"
    "  account_key TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  rating INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL,"
    "  color TEXT NOT NULL,"
    "  time_type TEXT NOT NULL,"
    "  minutes INTEGER NOT NULL,"
    "  increment INTEGER NOT NULL,"
    "  days INTEGER NOT NULL,"
    "  secret_hash BLOB NOT NULL,"
    "  game_id TEXT NOT NULL DEFAULT '',"
    "  poster_color INTEGER NOT NULL DEFAULT -1"
    ") WITHOUT ROWID;"
    "CREATE INDEX seeks_open ON seeks(created_ms) WHERE game_id = '';",
    /* 11: ratings per account and category (Glicko-2: rating, deviation, volatility), a point of
     * history per rated game, and each rated game's ratings before and after (its row there says it
     * was rated: exactly once, whichever node asks). */
    "CREATE TABLE ratings ("
    "  account_key TEXT NOT NULL,"
    "  category TEXT NOT NULL,"
    "  rating REAL NOT NULL,"
    "  rd REAL NOT NULL,"
    "  volatility REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (account_key, category)"
    ") WITHOUT ROWID;"
    "CREATE TABLE rating_history ("
    "  account_key TEXT NOT NULL,"
    "  category TEXT NOT NULL,"
    "  at_ms INTEGER NOT NULL,"
    "  game_id TEXT NOT NULL,"
    "  rating INTEGER NOT NULL,"
    "  PRIMARY KEY (account_key, category, at_ms, game_id)"
    ") WITHOUT ROWID;"
    "CREATE TABLE game_ratings ("
    "  game_id TEXT PRIMARY KEY NOT NULL,"
    "  category TEXT NOT NULL,"
    "  at_ms INTEGER NOT NULL,"
    "  white_before INTEGER NOT NULL DEFAULT 0,"
    "  white_after INTEGER NOT NULL DEFAULT 0,"
    "  black_before INTEGER NOT NULL DEFAULT 0,"
    "  black_after INTEGER NOT NULL DEFAULT 0"
    ") WITHOUT ROWID;",
    /* 12: a finished game's rematch (store.h GameRecord): the standing offer, the last refusal, and the
     * new game, written with the new game's row in one transaction. */
    "ALTER TABLE games ADD COLUMN rematch_offer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rematch_decline INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rematch_game TEXT NOT NULL DEFAULT '';",
    /* 13: the address of a seek's anonymous poster (the cap of open seeks per address), and the open
     * seeks found by poster and by time control (the caps per account and address, quick pairing). */
    "ALTER TABLE seeks ADD COLUMN poster_address TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX seeks_by_account ON seeks(account_key) WHERE game_id = '';"
    "CREATE INDEX seeks_by_address ON seeks(poster_address) WHERE game_id = '';"
    "CREATE INDEX seeks_by_time ON seeks(time_type, minutes, increment, days, rated, created_ms)"
    " WHERE game_id = '';",
    /* 14 (issue 22): the generation of an account's seat secrets, on the account and on each side it
     * plays (raised together by a password change and by "log out everywhere", which revokes every
     * secret handed out before), and the name's confusable skeleton (store_accounts.h STORE_NAME_SKELETON),
     * unique, so that "aIice01" cannot sit beside "alice01". Accounts made before that share a skeleton
     * keep their names: all but the oldest get their key appended, which no new skeleton can match. */
    "ALTER TABLE accounts ADD COLUMN seat_epoch INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';"
    "UPDATE accounts SET skeleton = " STORE_NAME_SKELETON(
        "name") ";"
                "UPDATE accounts SET skeleton = skeleton || ':' || key WHERE EXISTS (SELECT 1 FROM accounts o"
                " WHERE o.skeleton = accounts.skeleton AND (o.created_ms < accounts.created_ms"
                " OR (o.created_ms = accounts.created_ms AND o.key < accounts.key)));"
                "CREATE UNIQUE INDEX accounts_by_skeleton ON accounts(skeleton);"
                "ALTER TABLE games ADD COLUMN seat_epoch_white INTEGER NOT NULL DEFAULT 0;"
                "ALTER TABLE games ADD COLUMN seat_epoch_black INTEGER NOT NULL DEFAULT 0;",
    /* 15 (issue 23): the engine's analyses of finished games (store_accounts.h AnalysisRow), and who
     * asked for them (the limits per account and address per day; rows older than a day go). */
    "CREATE TABLE analyses ("
    "  game_id TEXT PRIMARY KEY NOT NULL,"
    "  status TEXT NOT NULL,"
    "  requested_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  node TEXT NOT NULL DEFAULT '',"
    "  lease_until_ms INTEGER NOT NULL DEFAULT 0,"
    "  done INTEGER NOT NULL DEFAULT 0,"
    "  total INTEGER NOT NULL,"
    "  result TEXT NOT NULL DEFAULT ''"
    ") WITHOUT ROWID;"
    "CREATE TABLE analysis_requests ("
    "  requester TEXT NOT NULL,"
    "  at_ms INTEGER NOT NULL,"
    "  game_id TEXT NOT NULL,"
    "  PRIMARY KEY (requester, at_ms, game_id)"
    ") WITHOUT ROWID;"
    "CREATE INDEX analysis_requests_by_time ON analysis_requests(at_ms);",
    /* 16 (issue 24): whether a seek's rating is provisional (the lobby shows it with "?"). */
    "ALTER TABLE seeks ADD COLUMN provisional INTEGER NOT NULL DEFAULT 0;",
    /* 17 (issue 24): a seek's variant ("standard" or "chess960"); quick pairing pairs the same only. */
    "ALTER TABLE seeks ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';",
    /* 18 (issue 24): whether each side's rating was provisional as a rated game began (the game page
     * and the lists show it with "?"). Older games say no: their ratings show as before. */
    ("ALTER TABLE games ADD COLUMN provisional_white INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN provisional_black INTEGER NOT NULL DEFAULT 0;"),
};
#define STORE_SCHEMA_VERSION ((int)(sizeof store_migrations / sizeof store_migrations[0]))

/* Runs a statement that returns one integer row (PRAGMA user_version). */
static bool query_int(sqlite3 *db, const char *sql, int *out, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *out = sqlite3_column_int(st, 0);
    else
        store_set_err(err, err_size, "%s: %s", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return ok;
}

/* WAL lets load() read while the writer commits and makes each commit one sequential log write. */
bool store_enable_wal(sqlite3 *db, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    bool ok = false;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        ok = mode && strcmp(mode, "wal") == 0;
        if (!ok)
            store_set_err(err, err_size, "the database cannot use WAL mode (journal mode stays %s)", mode ? mode : "?");
    } else {
        store_set_err(err, err_size, "PRAGMA journal_mode = WAL: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return ok;
}

/* Brings the schema up to STORE_SCHEMA_VERSION, one transaction per step. */
bool store_migrate(sqlite3 *db, char *err, size_t err_size) {
    int version = 0;
    if (!query_int(db, "PRAGMA user_version", &version, err, err_size))
        return false;
    if (version > STORE_SCHEMA_VERSION) {
        store_set_err(err, err_size, "the database has schema version %d, newer than this program's %d", version,
                      STORE_SCHEMA_VERSION);
        return false;
    }
    for (; version < STORE_SCHEMA_VERSION; version++) {
        char what[64], bump[64];
        snprintf(what, sizeof what, "schema migration %d", version + 1);
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
        /* user_version lives in the database header, so it commits or rolls back with the step. */
        if (!store_exec(db, "BEGIN IMMEDIATE", what, err, err_size))
            return false;
        if (!store_exec(db, store_migrations[version], what, err, err_size) ||
            !store_exec(db, bump, what, err, err_size) || !store_exec(db, "COMMIT", what, err, err_size)) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return false;
        }
    }
    return true;
}
