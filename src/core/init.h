/* Internal to src/core: the steps of schach_init(). */
#ifndef SCHACH_CORE_INIT_H
#define SCHACH_CORE_INIT_H

/* Fills the leaper, magic, between and line tables. */
void bb_init_tables(void);
/* Fills the Zobrist keys from a fixed seed. */
void zobrist_init(void);

#endif
