/* The C API of schach.wasm: libschach and the engine for the browser (docs/wasm.md).
 *
 * Strings go in as NUL-terminated UTF-8 in the module's linear memory (JavaScript writes them into
 * blocks from sch_wasm_alloc and frees them with sch_wasm_free); every answer is one JSON text owned by
 * the module and valid until the next call that answers. An answer is {"ok":true,...} or
 * {"ok":false,"error":{"code":N,"en":WHY,"de":WARUM,...}}. Only the functions below are exported.
 */
#ifndef SCHACH_WASM_API_H
#define SCHACH_WASM_API_H

#include <stddef.h>

#define SCH_WASM_EXPORT(name) __attribute__((export_name(#name), visibility("default")))

/* Memory for the strings JavaScript passes in. */
void *sch_wasm_alloc(size_t size);
void sch_wasm_free(void *p);

/* The game from fen (NULL or "": the standard position) after moves (space-separated, any notation:
 * UCI, long algebraic, SAN in English or German; NULL: none); chess960 non-zero reads and writes
 * castling as Chess960 does. The state: fen, turn, check, checkmate, stalemate, moves (uci, san,
 * san_de, from, to, promotion), outcome, claims, insufficient material. */
const char *sch_wasm_state(const char *fen, const char *moves, int chess960);
/* The same game, then move (any notation) played: {"ok":true,"move":{uci,san,san_de,from,to,promotion},
 * "state":{...}} or the reason it is refused (en, de). */
const char *sch_wasm_play(const char *fen, const char *moves, int chess960, const char *move);
/* Whether fen is a legal position for play: {"ok":true,"fen":NORMALISED} or the reason (code, name,
 * en, de). */
const char *sch_wasm_validate(const char *fen);

/* The first game of a PGN text as a tree (docs/wasm.md: tags, fen, result, comment, moves with
 * variations, comments and NAGs), or the error with line and column. */
const char *sch_wasm_pgn_parse(const char *text, size_t len);
/* A game tree in the line format of docs/wasm.md written as PGN (lang 0 English, 1 German letters):
 * {"ok":true,"pgn":TEXT}. */
const char *sch_wasm_pgn_write(const char *ops, int lang);

/* The engine: one, with a hash_mb table (1..1024); false when out of memory. */
int sch_wasm_engine_init(int hash_mb);
/* The engine's position (as sch_wasm_state reads it): {"ok":true,"fen":...} or the reason. */
const char *sch_wasm_engine_position(const char *fen, const char *moves, int chess960);
/* Forgets what the engine learnt (a new game). */
void sch_wasm_engine_clear(void);
/* One slice of a search: iterative deepening up to depth, multipv lines, at most nodes nodes (0: no
 * limit) and movetime ms (0: no limit); the table and history stay for the next slice. Each completed
 * iteration's lines go to the imported env.sch_info as JSON. Answers {"ok":true,"depth":COMPLETED,
 * "nodes":N,"best":UCI|null,"ponder":UCI|null,"best_san":...,"score":{cp}|{mate}}. */
const char *sch_wasm_engine_slice(int depth, int multipv, double nodes, int movetime);
/* The engine's fixed benchmark (schach bench) at depth (0: its default): {"nodes":N,"ms":T}. */
const char *sch_wasm_bench(int depth);

#endif
