/* Internal to libschach: the tables every other function reads (attacks, Zobrist keys, castling
 * paths), built by sch_core_init(). There is no initialisation call in the public API: the library's
 * constructor (src/core/bitboard.c) runs sch_core_init() when the program or libschach.so is loaded, in
 * the object file that holds the attack tables, so a static link that uses any of them runs it too.
 * The few entry points that may be reached first by another library's constructor call it again
 * (pthread_once: it runs once, whichever thread asks first). */
#ifndef SCH_CORE_INIT_H
#define SCH_CORE_INIT_H

/* Builds every table once; cheap after the first call. */
void sch_core_init(void);
/* As in schach/schach.h. */
const char *sch_slider_lookup(void);

/* Fills the leaper, magic, between and line tables. */
void sch_bb_init_tables(void);
/* Fills the Zobrist keys from a fixed seed. */
void sch_zobrist_init(void);

#endif
