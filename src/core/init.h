/* Internal to libschach: the steps of schach_init(), and its declaration for the library's own files
 * (users get it from the umbrella schach/schach.h, which a lower layer must not include). */
#ifndef SCHACH_CORE_INIT_H
#define SCHACH_CORE_INIT_H

/* As in schach/schach.h. */
void schach_init(void);
const char *schach_slider_lookup(void);

/* Fills the leaper, magic, between and line tables. */
void bb_init_tables(void);
/* Fills the Zobrist keys from a fixed seed. */
void zobrist_init(void);

#endif
