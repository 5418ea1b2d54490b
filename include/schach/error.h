/** @file
 * libschach: errors from parsers of untrusted input (FEN, moves, PGN, ...).
 *
 * A parser fills a caller-owned SchError: a code, where it happened (line, column, game, field)
 * and up to three text arguments. sch_err_format() turns it into a sentence in English or German.
 * An argument written "@white", "@black", "@pawn", "@knight", "@bishop", "@rook", "@queen" or "@king"
 * is a word that sch_err_format translates ("Weiß", "Springer", ...); other arguments are copied as they are.
 * Codes are grouped by module so each module keeps its own message table:
 *   100-199 FEN (fen.h), 200-299 moves/notation (notation.h), 300-399 PGN (pgn.h), 400-499 game (game.h),
 *   500-599 explanations of illegal moves (explain.h).
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_ERROR_H
#define SCH_ERROR_H

#include <stddef.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Codes every module shares. */
enum {
    SCH_ERR_NONE = 0,          /**< no error */
    SCH_ERR_OUT_OF_MEMORY = 1, /**< an allocation failed; the objects involved are as they were */
    SCH_ERR_IO = 2             /**< reading or writing a file failed */
};

/** Text arguments an error carries. */
#define SCH_ERR_ARGS 3
/** Bytes of each argument, NUL included; longer ones are truncated. */
#define SCH_ERR_ARG_MAX 96

/** An error of a parser or an operation: what (code), where, and the texts its message quotes. */
typedef struct SchError {
    int code;                                 /**< SCH_ERR_NONE when there is no error */
    int line;                                 /**< 1-based line of the input, 0 when not applicable */
    int column;                               /**< 1-based column (character) of the input, 0 when not applicable */
    int game;                                 /**< 1-based game number inside a PGN file, 0 when not applicable */
    char args[SCH_ERR_ARGS][SCH_ERR_ARG_MAX]; /**< texts the message template refers to as %1 %2 %3 */
} SchError;

/** Clears err (code SCH_ERR_NONE, no position, empty arguments). err may be NULL. */
void sch_err_clear(SchError *err);

/** Sets code and arguments (NULL for unused ones; long ones are truncated); keeps line/column/game.
 * err may be NULL, then nothing happens. Always returns false so parsers can `return sch_err_set(...)`. */
bool sch_err_set(SchError *err, int code, const char *a1, const char *a2, const char *a3);

/** Copies at most n bytes of untrusted input text into arg (size bytes, NUL-terminated), replacing
 * anything but printable ASCII with '?', so a message never carries control bytes or broken UTF-8. */
void sch_err_text_arg(const char *text, size_t n, char *arg, size_t size);

/** Sets where the error happened. err may be NULL. */
void sch_err_at(SchError *err, int line, int column);

/** Writes the message for err in lang into buf (always NUL-terminated when size > 0), without the
 * position prefix. Returns the length the full message has (like snprintf). */
size_t sch_err_format(const SchError *err, SchLang lang, char *buf, size_t size);

/** The message template of a code in lang ("field 3 (castling): '%1' is not valid"), never NULL. */
const char *sch_err_template(int code, SchLang lang);

#ifdef __cplusplus
}
#endif

#endif
