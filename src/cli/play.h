/* schach play: two people play a game at one terminal (or from a script on standard input).
 *
 * cmd_play.c reads moves and commands and keeps the game; play_board.c draws the board, either with
 * figurines and ANSI colours for a terminal or with plain letters for a file or a pipe.
 */
#ifndef SCHACH_PLAY_H
#define SCHACH_PLAY_H

#include <stdbool.h>
#include <stdio.h>

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

/* The play command: `schach play [--fen FEN | --pgn FILE] [--lang de|en] [--ascii] [--flip]`. */
int cmd_play(int argc, char **argv, Lang lang);

#endif
