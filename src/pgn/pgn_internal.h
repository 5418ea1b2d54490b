/* Internal to the PGN module: the tree's building blocks shared by reader, writer and game record. */
#ifndef SCHACH_PGN_INTERNAL_H
#define SCHACH_PGN_INTERNAL_H

#include "schach/pgn.h"

/* Appends a node for m under parent without checking m; NULL when out of memory or past
 * SCH_PGN_MAX_NODES (*limit tells which). parent NULL makes the root. */
SchPgnNode *sch_pgn_node_new(SchPgnGame *g, SchPgnNode *parent, SchMove m, bool *limit);
/* Frees a node, its main line and every variation below it. */
void sch_pgn_tree_free(SchPgnNode *n);
/* Frees every child of n (main and variations). */
void sch_pgn_node_cut(SchPgnGame *g, SchPgnNode *n);
/* text with line breaks and '}' made blanks and runs of blanks one space; NULL when nothing is left
 * or out of memory (*oom). */
char *sch_pgn_comment_text(const char *text, bool *oom);
/* Splits text (a comment after n's move, blanks already joined) as pgn.h says: the first well-formed
 * [%clk] and [%eval] into n's fields when they are not set yet, every other [%...] command verbatim
 * into n->commands (replaced; NULL when there is none), the rest into n->comment (replaced; NULL when
 * nothing is left). false when out of memory (n's comment and commands untouched). */
bool sch_pgn_split_commands(SchPgnNode *n, const char *text);
/* Splits the comment after every move of the tree, and the root's, so; false when out of memory. */
bool sch_pgn_tree_commands(SchPgnNode *root);
/* How far the tree's main line agrees with the record: the number of plies k (0..ply_count) whose
 * moves are the same, with *last the tree's node of ply k (the root for 0; NULL without a tree). *rest
 * is true when the record ends at k and the tree goes on: the tree was built by hand. */
int sch_pgn_main_cover(const SchPgnGame *g, SchPgnNode **last, bool *rest);
/* Plays m, a legal move or a null move (SCH_MOVE_NULL, "--"), on pos. */
void sch_pgn_play(SchPosition *pos, SchMove m);

#endif
