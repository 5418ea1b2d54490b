/* schach play: a game at one terminal (or from a script on standard input) between two people, a
 * person and the computer, or the computer against itself.
 *
 * cmd_play.c reads moves and commands and keeps the game; play_board.c draws the board, either with
 * figurines and ANSI colours for a terminal or with plain letters for a file or a pipe;
 * play_computer.c makes the computer's decisions.
 */
#ifndef SCHACH_PLAY_H
#define SCHACH_PLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "schach/game.h"
#include "schach/position.h"
#include "schach/types.h"

/* What the board shows besides the pieces. Squares are SQ_NONE when unused. */
typedef struct BoardView {
    bool color;       /* figurines and ANSI colours (a terminal); else letters and bracket marks */
    bool flip;        /* black at the bottom */
    Lang lang;        /* piece letters in plain mode */
    Square last_from; /* the last move */
    Square last_to;
    Square check;     /* the king in check */
    Square selected;  /* the piece whose moves are shown */
    Bitboard targets; /* where the selected piece may go */
} BoardView;

/* A view with nothing marked. */
void board_view_init(BoardView *v, bool color, bool flip, Lang lang);

/* Draws pos with files and ranks around it and the marks of v, then a legend line for the marks
 * used when v->color is false (brackets are not self-explanatory). */
void board_print(FILE *out, const Position *pos, const BoardView *v);

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
void play_print_levels(FILE *out, Lang lang);

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
    Move move;            /* the move to play (MOVE_NONE only if g has no legal move) */
    int score;            /* the search's score of it, centipawns from the computer's side */
    bool claim_now;       /* claim the draw available on the board instead of moving */
    bool claim_with_move; /* play move and claim the draw it produces */
    bool accept_draw;     /* accept the opponent's standing draw offer */
} PlayChoice;

/* Searches g and decides by the engine's draw policy (engine_draw_choice, the server's too): it never
 * resigns, claims a threefold repetition or a 50-move draw (now or with its move) when its score is
 * <= 0, and accepts a draw offer when its score is <= ENGINE_DRAW_ACCEPT_SCORE (clearly worse). */
PlayChoice play_computer_choose(PlayComputer *c, const Game *g);

/* "computer, Club player" / "Computer, Vereinsspieler" or "computer, Elo 1500". */
void play_computer_describe(const PlayComputer *c, Lang lang, char *buf, size_t size);

/* The play command: `schach play [--fen FEN | --pgn FILE] [--white P] [--black P] [--think MS] [--nodes N]
 * [--lang de|en] [--ascii] [--flip]`. */
int cmd_play(int argc, char **argv, Lang lang);

#endif
