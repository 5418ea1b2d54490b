/** @file
 * libschach: Portable Game Notation — reading many games tolerantly, writing the export format.
 *
 * The reader builds a game tree: the main line with its variations ( ... ) nested to any depth (up
 * to SCH_PGN_MAX_DEPTH), NAGs ($0..$255, and the suffixes ! ? !! ?? !? ?! as NAGs 1-6), comments {} and ;
 * before and after moves, the commands [%clk h:mm:ss(.s)] and [%eval x.yz | #3] read into fields of
 * the move and the other [%...] commands kept apart from the comment's text, null moves ("--", "Z0"),
 * empty variations "()", % escape lines, the results (also "½-½"), and English and German piece
 * letters. Every move, also inside variations, is checked for legality; a variation replaces the
 * move it follows, so it starts from the position before that move. On an error the reader records
 * game, line, column and token, then skips to the next game, so one bad game never stops a file.
 * The writer emits the export format (PGN standard, section 8): Seven Tag Roster first, SetUp/FEN
 * when the game did not start from the standard position, a Termination tag when a rule ended the
 * game, NAGs as $n, brace comments, variations in parentheses, lines of at most 80 characters, and
 * the letters of the chosen language. Reading what it wrote gives the same tree again.
 *
 * Out of memory: every function that allocates says so; the others never allocate.
 */
#ifndef SCH_PGN_H
#define SCH_PGN_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Error codes of the PGN module. Error arguments that are words or sentences come in both languages,
 * because a reader does not know the language its errors will be shown in: each template picks its own. */
enum {
    SCH_PGN_ERR_TOKEN = 300,  /**< %1: unexpected token */
    SCH_PGN_ERR_TAG,          /**< %1: the token where a tag pair went wrong */
    SCH_PGN_ERR_UNTERMINATED, /**< %1/%2: what is not closed ("comment", "string") in English/German,
                              %3: its opening character */
    SCH_PGN_ERR_MOVE,         /**< %1: the move token, %2/%3: why it cannot be played, in English/German */
    SCH_PGN_ERR_FEN,          /**< %1/%2: the FEN tag's problem in English/German, %3: the FEN */
    SCH_PGN_ERR_RESULT,       /**< %1: termination marker, %2: the Result tag or the result of the final position */
    SCH_PGN_ERR_VARIATION,    /**< %1: the parenthesis that is not matched */
    /* pgn.c may add codes below this line */
    SCH_PGN_ERR_LIMIT,   /**< %1/%2: what there is too much of, in English/German, %3: the limit */
    SCH_PGN_ERR_NAG,     /**< %1: a NAG outside $0..$255 */
    SCH_PGN_WARN_RESULT, /**< a warning, not an error: %1: the Result tag, %2: the movetext's marker (it counts) */
};

/** Bounds of one game, so that hostile input cannot make the reader allocate without end. */
enum {
    SCH_PGN_MAX_DEPTH = 64,      /**< variations nested inside each other */
    SCH_PGN_MAX_NODES = 100000,  /**< moves in a game, variations included */
    SCH_PGN_MAX_COMMENT = 16384, /**< bytes in one comment (comments in a row are joined) */
    SCH_PGN_MAX_NAGS = 8,        /**< NAGs on one move */
    SCH_PGN_MAX_EMPTY = 255,     /**< empty variations "()" to one move */
};

/** clock_ms of a move without a [%clk] command. */
#define SCH_PGN_NO_CLOCK (-1)

/** A node of the game tree. The root stands for the start position and has no move; every other
 * node is a move played from its parent's position. A node's first child (main) is the main
 * continuation, the first child's siblings (next, next->next, ...) are the variations that replace
 * it, in file order.
 *
 * Comments and commands. The comment after a move (and the root's, before the first move) is kept in
 * three parts: the first well-formed [%clk h:mm:ss(.s)] and [%eval x.yz | #3 (,depth)] in the fields
 * clock_ms and eval, every other [%...] command ([%cal], [%csl], [%ts], unknown ones, a malformed or a
 * second [%clk]/[%eval]) verbatim in commands (in file order, one space between them, also where the
 * file glued them together), and the remaining text in comment: comment never holds a command. Several
 * comments in a row are read as one. The writer puts them together in a fixed order:
 * {[%clk ...] [%eval ...] commands comment}, each part only when there is one.
 *
 * An empty variation "()" (no move of its own; a comment or variations inside it are dropped with it)
 * has no node: it counts in empty_variations of the move it replaces, and is written as "()" after
 * that move's other variations, so reading and writing again gives it back. Walkers visit moves only;
 * a visitor finds the empty variations on the node. */
typedef struct SchPgnNode {
    SchMove move;                   /**< SCH_MOVE_NULL for a null move; SCH_MOVE_NONE at the root */
    uint8_t nag_count;              /**< NAGs in nags */
    uint8_t nags[SCH_PGN_MAX_NAGS]; /**< in file order */
    uint8_t empty_variations;       /**< empty variations "()" that replace this move (see above) */
    char *comment_before;           /**< comment before the move (at the start of a variation, after one) or
                                       NULL: the text as written, commands included */
    char *comment;                  /**< text of the comment after the move (the root's: before the first
                                       move) without any [%...] command, or NULL */
    char *commands;                 /**< the [%...] commands of that comment other than the fields' (see above) */
    int64_t clock_ms;               /**< [%clk] of the comment after the move, or SCH_PGN_NO_CLOCK */
    bool has_eval;                  /**< [%eval] of the comment after the move, from White's view: */
    bool eval_mate;                 /**< eval is "mate in eval moves" (negative: Black mates), else centipawns */
    int eval;                       /**< the evaluation, when has_eval */
    int eval_depth;                 /**< the ",depth" of an [%eval], 0 when not given */
    struct SchPgnNode *parent;      /**< NULL at the root */
    struct SchPgnNode *main;        /**< first child: the main continuation, or NULL */
    struct SchPgnNode *next;        /**< the next sibling: the next variation to the same move, or NULL */
    struct SchPgnNode *last;        /**< the last child (NULL without children): appending does not walk the list */
} SchPgnNode;

/** A tag pair. */
typedef struct SchPgnTag {
    char *name;  /**< "Event", "White", ... */
    char *value; /**< the value, unquoted */
} SchPgnTag;

/** A game. game holds the main line as a game record (endings, claims, repetitions), null moves
 * (SCH_MOVE_NULL) included; the tree at root holds all of it, and a game read agrees with its record
 * move for move. The tree is the only store of comments, NAGs and variations. A game built by playing
 * moves into game has no tree (root NULL) or a shorter one: it is written from the tree as far as the
 * tree agrees with the record, then from the record (without comments, until sch_pgn_set_comment puts
 * its plies into the tree); where the record ends, the tree goes on. */
typedef struct SchPgnGame {
    SchPgnTag *tags;  /**< in file order */
    int tag_count;    /**< tags in tags */
    int tag_capacity; /**< tags there is room for */
    SchGame game;     /**< the replayed game (moves up to the first error) */
    SchResult result; /**< the game termination marker at the end of the movetext (SCH_RESULT_NONE for "*") */
    int number;       /**< 1-based game number in the file */
    int line;         /**< line where the game starts */
    SchPgnNode *root; /**< the game tree (see above), NULL when there is none */
    int node_count;   /**< moves in the tree */
    SchError warning; /**< code SCH_ERR_NONE, or a warning about a game that was read (SCH_PGN_WARN_RESULT) */
} SchPgnGame;

/** A reader of PGN games, one after the other (opaque). */
typedef struct SchPgnReader SchPgnReader;

/** Opens a reader over the len bytes at text (not copied: keep them alive until the reader is closed).
 * text needs no NUL at text[len]: the reader never reads past len. A NUL byte inside the text is a
 * blank like a space, also in comments and tag values. NULL when out of memory (err set). Close with
 * sch_pgn_reader_close. */
SchPgnReader *sch_pgn_reader_from_buffer(const char *text, size_t len, SchError *err);
/** Opens a reader over the rest of file f (read whole now, as sch_pgn_reader_from_buffer reads its
 * text). NULL when out of memory or the file cannot be read (err set). */
SchPgnReader *sch_pgn_reader_from_file(FILE *f, SchError *err);
/** Closes a reader; r may be NULL. */
void sch_pgn_reader_close(SchPgnReader *r);

/** Reads the next game into *out (initialised by this call; free with sch_pgn_game_free after 1 and -1).
 * A Result tag that contradicts the termination marker leaves the game readable: the marker counts
 * (g->result, and what sch_pgn_write writes) and out->warning says SCH_PGN_WARN_RESULT. Without a marker the
 * game's result is the Result tag's.
 * Returns 1 on success, 0 at end of input (out untouched), -1 on an error in this game: err (may be
 * NULL) has code, game, line, column and token (SCH_ERR_OUT_OF_MEMORY, with the game number, when
 * memory ran out), *out holds the game up to the error, and the next call continues with the
 * following game (after this one's termination marker, or at the next line that starts with '[').
 * A missing termination marker before EOF or the next tag section is fine.
 * The game starts from the FEN tag when there is one (unless SetUp is "0"). Piece letters may be
 * English or German, decided per game; moves after an ending by the rules are errors. */
int sch_pgn_read_game(SchPgnReader *r, SchPgnGame *out, SchError *err);
/** Frees what g holds (tags, record, tree); g may be NULL. */
void sch_pgn_game_free(SchPgnGame *g);

/** Initialises an empty SchPgnGame around a fresh game from the start position (for writing); it
 * allocates nothing. */
void sch_pgn_game_init(SchPgnGame *g);
/** Value of a tag, or NULL. */
const char *sch_pgn_tag(const SchPgnGame *g, const char *name);
/** Sets or replaces a tag (copied). false when out of memory. */
bool sch_pgn_set_tag(SchPgnGame *g, const char *name, const char *value);

/** The comment text after main-line ply k (k = 0: before the first move; the node's comment, see
 * "Comments and commands" at SchPgnNode), or NULL: NULL too where the tree does not hold ply k of the record.
 * Several comments in a row become one, separated by a space, and line breaks become spaces. */
const char *sch_pgn_comment(const SchPgnGame *g, int ply);
/** Sets (text copied; line breaks and '}' become spaces; its commands taken out as by
 * sch_pgn_node_set_comment) or with NULL removes the comment after ply k, 0 <= k <= the game's ply
 * count, on the tree's main line: the root and the nodes of the record's plies up to k are created
 * when the tree does not hold them yet (a main line of the tree that the record left, after moves were
 * taken back and others played without sch_pgn_trim_comments, is cut first). false when out of
 * memory, past SCH_PGN_MAX_NODES or SCH_PGN_MAX_COMMENT, or when k is out of that range. */
bool sch_pgn_set_comment(SchPgnGame *g, int ply, const char *text);
/** After moves were taken back (sch_game_undo): removes the tree's main-line moves past the record's
 * last ply, with their comments and variations, so that they are not written. */
void sch_pgn_trim_comments(SchPgnGame *g);

/** Where sch_pgn_write_to puts the text: len bytes at text (not NUL-terminated) and the caller's ctx.
 * Returns false to stop the writing (e.g. on a write error). */
typedef bool (*SchPgnSink)(const char *text, size_t len, void *ctx);

/** Writes g in export format with the letters of lang, then a blank line. Result (tag and marker) is
 * the game's outcome, else g->result. A Termination tag the caller set is kept (the standard has
 * values such as "rules infraction" and "adjudication" that no rule gives); without one, a game a
 * rule or a player ended gets "normal", "time forfeit" or "abandoned". A Chess960 game
 * (start.chess960) without a Variant tag gets [Variant "Chess960"]. The tags come in a fixed order,
 * whatever the order they were read or set in: the Seven Tag Roster, Variant, SetUp, FEN, Termination,
 * then the other tags in their order. Each move is followed by its NAGs ($n), its comment
 * in braces ({[%clk ...] [%eval ...] commands text}, see SchPgnNode) and its
 * variations; a black move gets its number "12..." at the start, after a comment and after a
 * variation. The main line is the tree's as far as it agrees with the record, then the record's
 * (moves played after reading) or, where the record ends, the tree's.
 * The text goes to sink in chunks of up to a few KiB, in order; when sink returns false writing stops
 * and sink is not called again. Returns false when sink returned false or when out of memory (what
 * sink got so far is then only part of the game). */
bool sch_pgn_write_to(const SchPgnGame *g, SchLang lang, SchPgnSink sink, void *ctx);
/** sch_pgn_write_to into out; false on a write error (also one out had before) or out of memory. */
bool sch_pgn_write(FILE *out, const SchPgnGame *g, SchLang lang);
/** sch_pgn_write_to into a new NUL-terminated string (free it with sch_free), its length in *len (len
 * may be NULL); NULL when out of memory. */
char *sch_pgn_write_string(const SchPgnGame *g, SchLang lang, size_t *len);
/** Frees what the library allocated for the caller (sch_pgn_write_string's text): for programs in
 * other languages, whose free may not be the C library's. NULL is fine. */
void sch_free(void *p);

/* ---------------------------------------------------------------- the tree
 * Walking: start at sch_pgn_root, follow main for the main line and next for the variations. */

/** The root of g's tree, or NULL when g has none (a game built by playing into g->game). */
const SchPgnNode *sch_pgn_root(const SchPgnGame *g);
/** The root, created (from g->game's start) when g has none yet; NULL when out of memory. */
SchPgnNode *sch_pgn_tree_root(SchPgnGame *g);
/** Appends the move m as the last child of parent (the main continuation when it is the first) and
 * returns it; m must be legal after parent (or SCH_MOVE_NULL, not in check). NULL with err set when
 * it is not, when out of memory or past SCH_PGN_MAX_NODES. The record g->game is not changed. */
SchPgnNode *sch_pgn_node_add(SchPgnGame *g, SchPgnNode *parent, SchMove m, SchError *err);
/** Sets (text copied, blanks joined as in sch_pgn_set_comment; NULL removes) the comment after the move
 * or, with before, the one before it (kept as given). The commands in a comment after the move are
 * taken out of it as when reading (see SchPgnNode): a [%clk]/[%eval] sets its
 * field, other commands replace n->commands; fields and commands the text does not hold stay, also
 * when text is NULL. false when out of memory or longer than SCH_PGN_MAX_COMMENT. */
bool sch_pgn_node_set_comment(SchPgnNode *n, bool before, const char *text);
/** Adds a NAG (0..255); false when it is out of range or the node has SCH_PGN_MAX_NAGS already. */
bool sch_pgn_node_add_nag(SchPgnNode *n, int nag);
/** Moves from the root to n: 0 at the root. */
int sch_pgn_node_ply(const SchPgnNode *n);
/** The position after n's move (the start position at the root). false when out of memory. */
bool sch_pgn_node_position(const SchPgnGame *g, const SchPgnNode *n, SchPosition *out);
/** Moves in the tree (the root not counted). */
int sch_pgn_node_count(const SchPgnGame *g);

/** Called for every move of the tree in file order (a move, then its variations, then the next main
 * move): before is the position before the move, depth the variation nesting (0: main line).
 * Returning false stops the walk. */
typedef bool (*SchPgnVisitor)(const SchPgnNode *n, const SchPosition *before, int depth, void *ctx);
/** Walks g's tree; false when the visitor stopped it. */
bool sch_pgn_walk(const SchPgnGame *g, SchPgnVisitor visit, void *ctx);
/** True when the two trees have the same moves, NAGs, comments, commands, clocks and evaluations. */
bool sch_pgn_tree_equal(const SchPgnNode *a, const SchPgnNode *b);

/** The commands of the comment after n's move as the writer puts them, in braces without the text:
 * the fields, then commands ("[%clk 1:02:03.4] [%eval -0.25] [%csl Ga6]"); "" when there are none.
 * Truncated to fit size bytes (NUL included). */
void sch_pgn_node_commands(const SchPgnNode *n, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
