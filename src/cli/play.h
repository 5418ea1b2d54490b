/* schach play: a game at one terminal (or from a script on standard input) between two people, a
 * person and the computer, or the computer against itself. Its files:
 *
 *   cmd_play.c            the command line, and the loop of turns
 *   play_commands.c       a line a person typed: a command, or else a move
 *   play_input.c          lines from standard input, and text turned into a legal move
 *   play_show.c           the game shown: board, moves, whose turn, the ending
 *   play_games.c          a new game, or the last game of a PGN file
 *   play_computer_turn.c  the computer's turn carried out and reported
 *   play_board.c          the board drawn, with figurines and ANSI colours for a terminal or with
 *                         plain letters for a file or a pipe
 *   play_computer.c       the computer's decisions
 */
#ifndef SCHACH_PLAY_H
#define SCHACH_PLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "schach/error.h"
#include "schach/game.h"
#include "schach/pgn.h"
#include "schach/position.h"
#include "schach/types.h"

/* What the board shows besides the pieces. Squares are SCH_SQ_NONE when unused. */
typedef struct BoardView {
    bool color;          /* figurines and ANSI colours (a terminal); else letters and bracket marks */
    bool flip;           /* black at the bottom */
    SchLang lang;        /* piece letters in plain mode */
    SchSquare last_from; /* the last move */
    SchSquare last_to;
    SchSquare check;     /* the king in check */
    SchSquare selected;  /* the piece whose moves are shown */
    SchBitboard targets; /* where the selected piece may go */
} BoardView;

/* A view with nothing marked. */
void board_view_init(BoardView *v, bool color, bool flip, SchLang lang);

/* Draws pos with files and ranks around it and the marks of v, then a legend line for the marks
 * used when v->color is false (brackets are not self-explanatory). */
void board_print(FILE *out, const SchPosition *pos, const BoardView *v);

/* Who plays one side: a person, or the computer at a named level or at an Elo. */
typedef struct PlayPlayer {
    bool computer;
    const EngineLevel *level; /* the computer's level; NULL when it plays at elo */
    int elo;                  /* ENGINE_ELO_MIN..ENGINE_ELO_MAX when level is NULL */
} PlayPlayer;

/* The level "computer" alone means. */
#define PLAY_DEFAULT_LEVEL "club"

/* Parses a player: "human" / "mensch", "computer" (PLAY_DEFAULT_LEVEL), "computer:LEVEL",
 * "computer:ELO", or LEVEL or ELO alone (LEVEL an id of engine_levels(), any case). false when it
 * is none of these. */
bool play_player_parse(const char *text, PlayPlayer *out);

/* Writes the level ids and what they mean, one per line, indented, for help and error messages. */
void play_print_levels(FILE *out, SchLang lang);

/* A computer player: its engine and how long it may think per move. */
typedef struct PlayComputer {
    Engine *engine;
    PlayPlayer spec;
    int think_ms;   /* time per move, 0 for none */
    uint64_t nodes; /* nodes per move, 0 for none (a deterministic budget) */
} PlayComputer;

/* Creates the engine for spec; false when out of memory. At least one of think_ms and nodes is > 0. */
bool play_computer_init(PlayComputer *c, const PlayPlayer *spec, int think_ms, uint64_t nodes);
void play_computer_free(PlayComputer *c);

/* What the computer does on its turn in g (which must not be over). */
typedef struct PlayChoice {
    SchMove move;         /* the move to play (SCH_MOVE_NONE only if g has no legal move) */
    int score;            /* the search's score of it, centipawns from the computer's side */
    bool claim_now;       /* claim the draw available on the board instead of moving */
    bool claim_with_move; /* play move and claim the draw it produces */
    bool accept_draw;     /* accept the opponent's standing draw offer */
} PlayChoice;

/* Searches g and decides by the engine's draw policy (engine_draw_choice, the server's too): it never
 * resigns, claims a threefold repetition or a 50-move draw (now or with its move) when its score is
 * <= 0, and accepts a draw offer when its score is <= ENGINE_DRAW_ACCEPT_SCORE (clearly worse). */
PlayChoice play_computer_choose(PlayComputer *c, const SchGame *g);

/* "computer, Club player" / "Computer, Vereinsspieler" or "computer, Elo 1500". */
void play_computer_describe(const PlayComputer *c, SchLang lang, char *buf, size_t size);

/* ---- the session: shared by cmd_play.c and its play_*.c pieces ------------------------------- */

/* One game at the terminal: the game, how it is shown, who plays it and the line being read. */
typedef struct Play {
    SchPgnGame pg; /* the game and its tags (kept from a loaded PGN) */
    SchLang lang;
    bool color;  /* figurines and ANSI colours */
    bool script; /* standard input is not a terminal: echo every line read */
    bool flip;
    bool quit;
    bool announced; /* the ending of the game has been announced */
    char *line;     /* getline buffer */
    size_t line_cap;
    PlayPlayer players[2];     /* WHITE, BLACK */
    PlayComputer computers[2]; /* the engine of each computer player */
} Play;

static inline SchGame *play_game(Play *p) { return &p->pg.game; }

/* play_show.c: what the person sees. */

/* "White" / "Weiß", "Black" / "Schwarz". */
const char *play_color_word(SchColor c, SchLang lang);
/* "Knight" / "Springer". */
const char *play_piece_word(SchPieceType t, SchLang lang);
/* Prints err's message in the language of p on a line of standard output. */
void play_print_error(const Play *p, const SchError *err);
/* Prints the message of an error code without details (GAME_ERR_*, MOVE_ERR_*). */
void play_print_game_error(const Play *p, int code);
/* A board view of p's game: the last move and a king in check marked. */
void play_view_for(const Play *p, BoardView *v);
/* The board, the moves so far, the last move, and whose turn it is or how the game ended. */
void play_show(const Play *p);
/* Announces an ending once, and forgets the announcement when undo revives the game. status_shown:
 * the ending was just shown by play_show. */
void play_announce(Play *p, bool status_shown);
void play_show_and_announce(Play *p);

/* play_games.c: where a game comes from. */

/* A game played here ends at a dead position (5.2.2), also one read from a PGN file: reading keeps
 * recorded games going past dead positions (SCH_GAME_DEAD_MATERIAL_ONLY), so the position on the board is
 * judged now, as the game would have judged it after its last move, and every move from here on. */
void play_judge_dead_positions(SchGame *g);
/* A new game from the standard position or fen; false (message printed to out, *pg untouched) on a
 * bad FEN. */
bool play_new_game(SchPgnGame *pg, const char *fen, SchLang lang, FILE *out);
/* Replaces *pg by the last game of file (replayed, tags kept). false with a message to out when the
 * file cannot be read, holds no game, or its last game has an error. */
bool play_load_game(SchPgnGame *pg, const char *file, SchLang lang, FILE *out);

/* play_input.c: lines and moves from standard input. */

/* What became of text meant as a move. */
enum { RESOLVE_OK, RESOLVE_BAD, RESOLVE_CANCEL, RESOLVE_EOF };

/* Prints prompt and reads one line (trimmed); NULL at the end of input. In script mode the line is
 * echoed after the prompt so that a transcript reads like a session. */
char *play_read_line(Play *p, const char *prompt);
/* Lowercases ASCII letters and the German capitals Ä Ö Ü in place (UTF-8). */
void play_lowercase(char *s);
/* Skips a move number people copy from game scores: "12." "12..." */
const char *play_skip_move_number(const char *text);
/* A square ("e4") or castling in the word: it is meant as a move even when it is not legal. */
bool play_looks_like_move(const char *word);
/* Turns text into a legal move, asking for the promotion piece when it is missing. Prints the reason
 * when the text is no legal move. parsed/err are the result of sch_game_parse_move on text. RESOLVE_*. */
int play_resolve_move(Play *p, const char *text, SchMove parsed, const SchError *err, SchMove *out);
/* Parses text and resolves it; prints why when it is no move. RESOLVE_*. */
int play_read_move(Play *p, const char *text, SchMove *out);
/* Plays m and shows the board; prints why when the game refuses it. */
void play_move(Play *p, SchMove m);

/* play_computer_turn.c: the computer's turns in the session. */

/* True when the game goes on and the side to move is a computer. */
bool play_computer_to_move(const Play *p);
/* A new game: the engines forget what they learnt. */
void play_clear_computers(Play *p);
/* The White and Black tags of a new game name the computer players ("schach (Club player)"). */
void play_tag_computers(Play *p);
/* The computer's turn: it searches, then answers a draw offer, claims a draw or moves. false when
 * it could do nothing (no move: cannot happen in a game that is not over). */
bool play_computer_turn(Play *p);

/* play_commands.c: answers a line a person typed (not empty, not a # comment): a command (English or
 * German, any unambiguous beginning) or a move in any notation. */
void play_handle_line(Play *p, char *line);

/* The play command: `schach play [--fen FEN | --pgn FILE] [--white P] [--black P] [--think MS] [--nodes N]
 * [--lang de|en] [--ascii] [--flip]`. */
int cmd_play(int argc, char **argv, SchLang lang);

#endif
