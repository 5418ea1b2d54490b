/* libschach: Portable Game Notation — reading many games tolerantly, writing the export format.
 *
 * The reader understands tags, move numbers, comments {} and ; (kept with the move they follow),
 * NAGs $n and "!?"-style suffixes, variations ( ... ) (skipped, but checked for balance), % escape
 * lines, results, and English and German piece letters. On an error it records game, line, column
 * and token, then skips to the next game, so one bad game never stops a file.
 * The writer emits the export format: Seven Tag Roster first, SetUp/FEN when the game did not start
 * from the standard position, a Termination tag when a rule ended the game, brace comments, lines of
 * at most 80 characters, and the letters of the chosen language.
 */
#ifndef SCHACH_PGN_H
#define SCHACH_PGN_H

#include <stdio.h>

#include "error.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error arguments that are words or sentences come in both languages, because a reader does not
 * know the language its errors will be shown in: each template picks its own. */
enum {
    PGN_ERR_TOKEN = 300,  /* %1: unexpected token */
    PGN_ERR_TAG,          /* %1: the token where a tag pair went wrong */
    PGN_ERR_UNTERMINATED, /* %1/%2: what is not closed ("comment", "string") in English/German,
                              %3: its opening character */
    PGN_ERR_MOVE,         /* %1: the move token, %2/%3: why it cannot be played, in English/German */
    PGN_ERR_FEN,          /* %1/%2: the FEN tag's problem in English/German, %3: the FEN */
    PGN_ERR_RESULT,       /* %1: termination marker, %2: the Result tag or the result of the final position */
    PGN_ERR_VARIATION,    /* %1: the parenthesis that is not matched */
    /* pgn.c may add codes below this line */
};

typedef struct PgnTag {
    char *name;
    char *value;
} PgnTag;

typedef struct PgnGame {
    PgnTag *tags; /* in file order */
    int tag_count;
    int tag_capacity;
    Game game;         /* the replayed game (moves up to the first error) */
    char **comments;   /* comments[k]: the comment after ply k (0: before the first move), or NULL */
    int comment_slots; /* entries in comments (at most game.ply_count + 1 are written) */
    Result result;     /* the game termination marker at the end of the movetext (RESULT_NONE for "*") */
    int number;        /* 1-based game number in the file */
    int line;          /* line where the game starts */
} PgnGame;

typedef struct PgnReader PgnReader;

/* Opens a reader over a NUL-terminated buffer of length len (not copied: keep it alive), or a file.
 * Returns NULL when out of memory / the file cannot be read (err set). Close with pgn_reader_close. */
PgnReader *pgn_reader_from_buffer(const char *text, size_t len, SchError *err);
PgnReader *pgn_reader_from_file(FILE *f, SchError *err);
void pgn_reader_close(PgnReader *r);

/* Reads the next game into *out (initialised by this call; free with pgn_game_free after 1 and -1).
 * Returns 1 on success, 0 at end of input (out untouched), -1 on an error in this game: err (may be
 * NULL) has code, game, line, column and token, *out holds the game up to the error, and the next
 * call continues with the following game (after this one's termination marker, or at the next line
 * that starts with '['). A missing termination marker before EOF or the next tag section is fine.
 * The game starts from the FEN tag when there is one (unless SetUp is "0"). Piece letters may be
 * English or German, decided per game; moves after an ending by the rules are errors. */
int pgn_read_game(PgnReader *r, PgnGame *out, SchError *err);
void pgn_game_free(PgnGame *g);

/* Initialises an empty PgnGame around a fresh game from the start position (for writing). */
void pgn_game_init(PgnGame *g);
/* Value of a tag, or NULL. */
const char *pgn_tag(const PgnGame *g, const char *name);
/* Sets or replaces a tag (copied). false when out of memory. */
bool pgn_set_tag(PgnGame *g, const char *name, const char *value);

/* The comment after ply k (k = 0: before the first move), or NULL. Main-line comments of a file are
 * read in; several in a row become one, separated by a space, and line breaks become spaces. */
const char *pgn_comment(const PgnGame *g, int ply);
/* Sets (text copied; line breaks and '}' become spaces) or with NULL removes the comment after ply
 * k, 0 <= k <= the game's ply count. false when out of memory or k is out of that range. */
bool pgn_set_comment(PgnGame *g, int ply, const char *text);
/* Removes the comments after the game's last ply, e.g. after moves were taken back. */
void pgn_trim_comments(PgnGame *g);

/* Writes g in export format with the letters of lang, then a blank line. Result (tag and marker) is
 * the game's outcome, else g->result. A Termination tag the caller set is kept (the standard has
 * values such as "rules infraction" and "adjudication" that no rule gives); without one, a game a
 * rule or a player ended gets "normal", "time forfeit" or "abandoned". Other tags keep their order
 * after the roster, SetUp/FEN and Termination. Comments are written in braces, the one after the
 * last move before the result. Returns false on a write error. */
bool pgn_write(FILE *out, const PgnGame *g, Lang lang);

#ifdef __cplusplus
}
#endif

#endif
