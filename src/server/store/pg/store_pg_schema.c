/* The PostgreSQL store's schema: the same versioned steps as SQLite's (store_schema.c), one to one
 * by version number, in PostgreSQL's types. The version lives in the table schach_schema (one row). */
#include "store_pg_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Step i brings the version from i to i+1 in one transaction. Never edit a step that has shipped;
 * append a new one, and the same step to SQLite's list. */
static const char *const pg_migrations[] = {
    /* 1: games and their moves. */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  created_ms BIGINT NOT NULL,"
    "  updated_ms BIGINT NOT NULL,"
    "  start_fen TEXT NOT NULL,"
    "  mode TEXT NOT NULL,"
    "  time_type TEXT NOT NULL,"
    "  minutes INTEGER NOT NULL,"
    "  increment INTEGER NOT NULL,"
    "  days INTEGER NOT NULL,"
    "  secret_hash_white BYTEA,"
    "  secret_hash_black BYTEA,"
    "  invite_hash BYTEA,"
    "  invite_color INTEGER NOT NULL,"
    "  result TEXT NOT NULL,"
    "  termination TEXT NOT NULL,"
    "  draw_offer INTEGER NOT NULL,"
    "  clock_white_ms BIGINT NOT NULL,"
    "  clock_black_ms BIGINT NOT NULL,"
    "  turn_started_ms BIGINT NOT NULL"
    ");"
    "CREATE INDEX games_finished_by_update ON games(updated_ms) WHERE result <> '';"
    "CREATE TABLE moves ("
    "  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    "  ply INTEGER NOT NULL CHECK (ply >= 0),"
    "  uci TEXT NOT NULL,"
    "  at_ms BIGINT NOT NULL,"
    "  PRIMARY KEY (game_id, ply)"
    ");",
    /* 2: the engine level of games against the computer. */
    "ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT '';",
    /* 3: start-up reads only the games in play. */
    "CREATE INDEX games_in_play ON games(created_ms, id) WHERE result = '';",
    /* 4: facts about the store itself. */
    "CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT);",
    /* 5: the ply count a row was written at (-1: before this step), checked by reads. */
    "ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT -1;",
    /* 6: why a dead position or a 6.9 draw is one. */
    "ALTER TABLE games ADD COLUMN reason TEXT NOT NULL DEFAULT '';",
    /* 7: the row's version (every committed change raises it) and the lease on the game's work (which
     * node, for which rev: it ends when the game moves on, and until when).
     * From here on every move rewrites its game's row (rev): room left on each page lets PostgreSQL
     * put the new version beside the old one (a HOT update, no new index entries) when no indexed
     * column changed. */
    "ALTER TABLE games ADD COLUMN rev BIGINT NOT NULL DEFAULT 1;"
    "ALTER TABLE games ADD COLUMN lease_node TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN lease_rev BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN lease_until_ms BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE games SET (fillfactor = 80);",
    /* 8: accounts and their sessions (store_accounts.h). */
    "CREATE TABLE accounts ("
    "  key TEXT PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  password_hash TEXT NOT NULL,"
    "  created_ms BIGINT NOT NULL"
    ");"
    "CREATE TABLE sessions ("
    "  token_hash BYTEA PRIMARY KEY,"
    "  account_key TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,"
    "  created_ms BIGINT NOT NULL,"
    "  expires_ms BIGINT NOT NULL"
    ");"
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
    "  created_ms BIGINT NOT NULL,"
    "  expires_ms BIGINT NOT NULL,"
    "  account_key TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  rating INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL,"
    "  color TEXT NOT NULL,"
    "  time_type TEXT NOT NULL,"
    "  minutes INTEGER NOT NULL,"
    "  increment INTEGER NOT NULL,"
    "  days INTEGER NOT NULL,"
    "  secret_hash BYTEA NOT NULL,"
    "  game_id TEXT NOT NULL DEFAULT '',"
    "  poster_color INTEGER NOT NULL DEFAULT -1"
    ");"
    "CREATE INDEX seeks_open ON seeks(created_ms) WHERE game_id = '';",
    /* 11: ratings per account and category (Glicko-2: rating, deviation, volatility), a point of
     * history per rated game, and each rated game's ratings before and after (its row there says it
     * was rated: exactly once, whichever node asks). */
    "CREATE TABLE ratings ("
    "  account_key TEXT NOT NULL,"
    "  category TEXT NOT NULL,"
    "  rating DOUBLE PRECISION NOT NULL,"
    "  rd DOUBLE PRECISION NOT NULL,"
    "  volatility DOUBLE PRECISION NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  updated_ms BIGINT NOT NULL,"
    "  PRIMARY KEY (account_key, category)"
    ");"
    "CREATE TABLE rating_history ("
    "  account_key TEXT NOT NULL,"
    "  category TEXT NOT NULL,"
    "  at_ms BIGINT NOT NULL,"
    "  game_id TEXT NOT NULL,"
    "  rating INTEGER NOT NULL,"
    "  PRIMARY KEY (account_key, category, at_ms, game_id)"
    ");"
    "CREATE TABLE game_ratings ("
    "  game_id TEXT PRIMARY KEY NOT NULL,"
    "  category TEXT NOT NULL,"
    "  at_ms BIGINT NOT NULL,"
    "  white_before INTEGER NOT NULL DEFAULT 0,"
    "  white_after INTEGER NOT NULL DEFAULT 0,"
    "  black_before INTEGER NOT NULL DEFAULT 0,"
    "  black_after INTEGER NOT NULL DEFAULT 0"
    ");",
    /* 12: a finished game's rematch (store.h GameRecord): the standing offer, the last refusal, and the
     * new game, written with the new game's row in one statement. */
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
    "ALTER TABLE accounts ADD COLUMN seat_epoch BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';"
    "UPDATE accounts SET skeleton = " STORE_NAME_SKELETON(
        "name") ";"
                "UPDATE accounts SET skeleton = skeleton || ':' || key WHERE EXISTS (SELECT 1 FROM accounts o"
                " WHERE o.skeleton = accounts.skeleton AND (o.created_ms < accounts.created_ms"
                " OR (o.created_ms = accounts.created_ms AND o.key < accounts.key)));"
                "CREATE UNIQUE INDEX accounts_by_skeleton ON accounts(skeleton);"
                "ALTER TABLE games ADD COLUMN seat_epoch_white BIGINT NOT NULL DEFAULT 0;"
                "ALTER TABLE games ADD COLUMN seat_epoch_black BIGINT NOT NULL DEFAULT 0;",
    /* 15 (issue 23): the engine's analyses of finished games (store_accounts.h AnalysisRow), and who
     * asked for them (the limits per account and address per day; rows older than a day go). */
    "CREATE TABLE analyses ("
    "  game_id TEXT PRIMARY KEY NOT NULL,"
    "  status TEXT NOT NULL,"
    "  requested_ms BIGINT NOT NULL,"
    "  updated_ms BIGINT NOT NULL,"
    "  node TEXT NOT NULL DEFAULT '',"
    "  lease_until_ms BIGINT NOT NULL DEFAULT 0,"
    "  done INTEGER NOT NULL DEFAULT 0,"
    "  total INTEGER NOT NULL,"
    "  result TEXT NOT NULL DEFAULT ''"
    ");"
    "CREATE TABLE analysis_requests ("
    "  requester TEXT NOT NULL,"
    "  at_ms BIGINT NOT NULL,"
    "  game_id TEXT NOT NULL,"
    "  PRIMARY KEY (requester, at_ms, game_id)"
    ");"
    "CREATE INDEX analysis_requests_by_time ON analysis_requests(at_ms);",
    /* 16 (issue 24): whether a seek's rating is provisional (the lobby shows it with "?"). */
    "ALTER TABLE seeks ADD COLUMN provisional INTEGER NOT NULL DEFAULT 0;",
    /* 17 (issue 24): the server process each open seek was posted through, and when each process last
     * said it was alive (store_accounts.h seek_beat): a dead server's seeks leave the lobby. */
    ("ALTER TABLE seeks ADD COLUMN node TEXT NOT NULL DEFAULT '';"
     "CREATE TABLE lobby_nodes (node TEXT PRIMARY KEY, seen_ms BIGINT NOT NULL);"),
    /* 18 (issue 24): a seek's variant ("standard" or "chess960"); quick pairing pairs the same only. */
    "ALTER TABLE seeks ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';",
    /* 19 (issue 24): whether each side's rating was provisional as a rated game began (the game page
     * and the lists show it with "?"). Older games say no: their ratings show as before. */
    ("ALTER TABLE games ADD COLUMN provisional_white INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN provisional_black INTEGER NOT NULL DEFAULT 0;"),
};
#define PG_SCHEMA_VERSION ((int)(sizeof pg_migrations / sizeof pg_migrations[0]))

int store_pg_schema_version(void) { return PG_SCHEMA_VERSION; }

/* Runs sql inside the open transaction; on failure rolls it back and fills err with what. */
static bool step_exec(PGconn *conn, const char *sql, const char *what, char *err, size_t err_size) {
    char why[300];
    if (store_pg_exec(conn, sql, why, sizeof why))
        return true;
    store_pg_set_err(err, err_size, "%s: %s", what, why);
    PQclear(PQexec(conn, "ROLLBACK"));
    return false;
}

/* The version under the migration lock, in a transaction that is left open; -1 on failure. */
static int locked_version(PGconn *conn, char *err, size_t err_size) {
    char sql[160];
    snprintf(sql, sizeof sql, "BEGIN; SELECT pg_advisory_xact_lock(%lld)", (long long)STORE_PG_MIGRATION_LOCK);
    if (!step_exec(conn, sql, "schema migration", err, err_size))
        return -1;
    PGresult *res = PQexec(conn, "SELECT version FROM schach_schema");
    int version = -1;
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0)) {
        version = atoi(PQgetvalue(res, 0, 0));
    } else {
        char why[300];
        store_pg_set_err(err, err_size, "reading the schema version: %s",
                         PQresultStatus(res) == PGRES_TUPLES_OK ? "schach_schema does not hold one row"
                                                                : store_pg_message(conn, res, why, sizeof why));
        PQclear(PQexec(conn, "ROLLBACK"));
    }
    PQclear(res);
    return version;
}

bool store_pg_migrate(PGconn *conn, char *err, size_t err_size) {
    /* The version table itself, once: under the lock, so two nodes never both create it. */
    char sql[400];
    snprintf(sql, sizeof sql,
             "BEGIN; SELECT pg_advisory_xact_lock(%lld);"
             " CREATE TABLE IF NOT EXISTS schach_schema (version INTEGER NOT NULL);"
             " INSERT INTO schach_schema SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schach_schema); COMMIT",
             (long long)STORE_PG_MIGRATION_LOCK);
    if (!step_exec(conn, sql, "creating the schema version table", err, err_size))
        return false;
    /* Each step in its own transaction, the version read again under the lock each time: another node
     * may have applied steps meanwhile. */
    for (;;) {
        int version = locked_version(conn, err, err_size);
        if (version < 0)
            return false;
        if (version > PG_SCHEMA_VERSION) {
            PQclear(PQexec(conn, "ROLLBACK"));
            store_pg_set_err(err, err_size, "the database has schema version %d, newer than this program's %d", version,
                             PG_SCHEMA_VERSION);
            return false;
        }
        if (version == PG_SCHEMA_VERSION)
            return step_exec(conn, "COMMIT", "schema migration", err, err_size);
        char what[64];
        snprintf(what, sizeof what, "schema migration %d", version + 1);
        snprintf(sql, sizeof sql, "UPDATE schach_schema SET version = %d; COMMIT", version + 1);
        if (!step_exec(conn, pg_migrations[version], what, err, err_size) || !step_exec(conn, sql, what, err, err_size))
            return false;
    }
}
