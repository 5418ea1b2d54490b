/* The schach program: helpers shared by the subcommands (language, option parsing, messages, JSON).
 *
 * Every subcommand is `int cmd_NAME(int argc, char **argv, Lang lang)`: argv[0] is the subcommand's
 * name, lang the message language chosen so far (a global --lang or the environment); a --lang of the
 * subcommand overrides it. It returns an exit status: CLI_OK, CLI_FAIL or CLI_USAGE.
 */
#ifndef SCHACH_CLI_H
#define SCHACH_CLI_H

#include <jansson.h>
#include <stdbool.h>

#include "schach/error.h"
#include "schach/types.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Picks the English or German string literal. A macro, not a function, so that the compiler still
 * checks printf formats against their arguments in both languages. */
#define CLI_TR(lang, en, de) ((lang) == SCH_LANG_DE ? (de) : (en))

/* The language the environment asks for: the first non-empty of LC_ALL, LC_MESSAGES, LANG;
 * German when it starts with "de", else English. */
SchLang cli_env_lang(void);

/* Parses "de" or "en" (any case) into *out; false for anything else. */
bool cli_parse_lang(const char *text, SchLang *out);

/* Scans argv[1..] for the last --lang X / --lang=X and stores it in *lang (unchanged when absent).
 * Returns false, with *bad set to the offending value (or NULL when the value is missing), when
 * the value is not a language. Lets --help and early errors use the right language. */
bool cli_scan_lang(int argc, char **argv, SchLang *lang, const char **bad);

/* True when argv[1..] holds --help or -h. */
bool cli_wants_help(int argc, char **argv);

/* Matches argv[*i] against option name ("--fen") in the forms "--fen VALUE" and "--fen=VALUE".
 * Returns 0 when it is another argument, 1 with *value set (advancing *i past a separate value),
 * -1 when the option is there but its value is missing. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Prints "schach: " and the formatted message and a newline to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "schach CMD: " and the formatted message to stderr, then a hint to `schach CMD --help`.
 * Returns CLI_USAGE so commands can `return cli_usage(...)`. */
int cli_usage(SchLang lang, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Usage error for an unknown option or a missing or invalid --lang value (see cli_scan_lang). */
int cli_bad_lang(SchLang lang, const char *cmd, const char *bad);

/* Writes err's message in lang into buf, prefixed by "line L, column C: " when it has a position. */
void cli_format_error(const SchError *err, SchLang lang, char *buf, size_t size);

/* A JSON string of text; bytes that are not valid UTF-8 become '?' so the output is always valid.
 * Returns a new reference (never NULL unless out of memory). */
json_t *cli_json_string(const char *text);

/* The JSON array of claim names for CLAIM_* bits: ["threefold_repetition","fifty_moves"]. */
json_t *cli_claims_json(int claims);

/* Writes obj compactly on one line of stdout and releases it. false on a write error. */
bool cli_print_json(json_t *obj);

/* --chess960 [N]: off, Chess960 notation only (on the standard position or a FEN), or start position
 * N (0-959). */
enum { CLI_CHESS960_OFF = -2, CLI_CHESS960_MODE = -1 };
struct SchGame;
/* Applies a --chess960 value to a freshly initialised game: start position N replaces its start;
 * any value but CLI_CHESS960_OFF switches Chess960 notation on (UCI king-takes-rook castling). */
void cli_chess960_game(struct SchGame *g, int c960);

int cmd_perft(int argc, char **argv, SchLang lang);
int cmd_moves(int argc, char **argv, SchLang lang);
int cmd_pgn(int argc, char **argv, SchLang lang);
/* schach serve (cmd_serve.c): the HTTP/WebSocket server for games in the browser. */
int cmd_serve(int argc, char **argv, SchLang lang);
/* schach backup --db PATH FILE (cmd_backup.c): an online, consistent copy of the server's database. */
int cmd_backup(int argc, char **argv, SchLang lang);
/* schach db copy --from DB --to DB (cmd_db.c): every game of one store into another. */
int cmd_db(int argc, char **argv, SchLang lang);
/* schach uci (cmd_uci.c): the UCI protocol on standard input and output until quit or end of input. */
int cmd_uci(int argc, char **argv, SchLang lang);
/* schach bench [DEPTH] (cmd_bench.c): the engine's fixed benchmark; the last line is
 * "bench: <nodes> nodes <nps> nps <ms> ms". */
int cmd_bench(int argc, char **argv, SchLang lang);
/* schach match (cmd_match.c): games between two UCI engines, with Elo. */
int cmd_match(int argc, char **argv, SchLang lang);
/* schach winnable (cmd_winnable.c): whether each side can still checkmate (dead positions, 6.9). */
int cmd_winnable(int argc, char **argv, SchLang lang);
/* schach analyse (cmd_analyse.c): every game of PGN files analysed by the engine, annotated or as JSON. */
int cmd_analyse(int argc, char **argv, SchLang lang);

#endif
