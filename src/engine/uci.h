/* The UCI protocol over the engine: one client of engine.h, like the terminal and the web server.
 *
 * uci_loop() reads commands line by line and answers them; the search runs on its own thread, so
 * isready, stop, ponderhit and quit are read and answered while it searches. Each `go` is answered by
 * exactly one `bestmove` (for `go infinite` and `go ponder` only after stop or ponderhit), and
 * `bestmove 0000` when the side to move has no legal move. Every output line is flushed at once.
 *
 * Bad input never stops the loop: it is answered with `info string <what is wrong>` and ignored.
 *   - unknown words before a command are skipped (UCI 2.1: "joho debug on" is "debug on"); a line
 *     without any command is reported;
 *   - a bad `position` (invalid FEN, illegal or malformed move in the list, stray words) changes
 *     nothing: the previous position stays. Until one `position` succeeds there is no position and
 *     `go` is refused (no bestmove);
 *   - `go` with a parameter that is not a number, a missing value, depth/nodes/mate <= 0 or a
 *     negative movestogo is refused as a whole (no search, no bestmove). A clock that is zero or
 *     negative (wtime, btime, movetime) means "move at once" (1 ms) and a negative increment 0: a
 *     GUI in time trouble still gets a move. Unknown words in `go` and illegal searchmoves are
 *     reported and skipped;
 *   - setoption with an unknown name or a value out of range or of the wrong type is refused and the
 *     option keeps its value.
 * go, setoption and ucinewgame sent while a search runs wait for it when it ends by its own limits
 * (depth, nodes, movetime, mate, clock), so a script of commands runs in order; while a search runs
 * that only stop ends (go infinite, go ponder before ponderhit, go without limits) they are refused.
 * position, isready, d and eval are answered at once, also while searching.
 * Moves after an automatic ending that still leaves legal moves (fivefold repetition, 75-move rule,
 * dead position) are accepted: under UCI the GUI is the arbiter.
 * Debug commands: `d` (board, FEN, legal move count), `eval` (static evaluation), `debug on|off`.
 */
#ifndef SCHACH_UCI_H
#define SCHACH_UCI_H

#include <stdio.h>
#include "schach/schach.h"

/* Speaks UCI on in/out until `quit` or the end of in, then stops a running search and joins its
 * thread. At the end of in (unlike quit) a search that ends by its own limits is first allowed to
 * finish, so `printf 'position startpos\ngo depth 8\n' | schach uci` answers after depth 8. version is printed in "id name schach <version>".
 * Returns 0, or 1 when the engine cannot be created (out of memory). */
int uci_loop(FILE *in, FILE *out, const char *version);

#endif
