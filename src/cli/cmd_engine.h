/* The subcommands over the engine: schach uci (cmd_uci.c) and schach bench (cmd_bench.c).
 * Same contract as the commands in cli.h. */
#ifndef SCHACH_CMD_ENGINE_H
#define SCHACH_CMD_ENGINE_H

#include "schach/types.h"

/* schach uci: the UCI protocol on standard input and output until quit or end of input. */
int cmd_uci(int argc, char **argv, Lang lang);
/* schach bench [DEPTH]: the engine's fixed benchmark; the last line is
 * "bench: <nodes> nodes <nps> nps <ms> ms". */
int cmd_bench(int argc, char **argv, Lang lang);

#endif
