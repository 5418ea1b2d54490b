/* What the files of the WebAssembly API share (src/wasm). */
#ifndef SCHACH_WASM_INTERNAL_H
#define SCHACH_WASM_INTERNAL_H

#include <stdbool.h>

#include "json_out.h"
#include "schach/game.h"
#include "wasm_api.h"

/* The answer of the last call (its text stays until the next call). */
extern JsonOut wasm_out;

/* j becomes {"ok":false,"error":{code,name?,ply?,line?,column?,en,de}} (ply < 0: none). */
void wasm_error(JsonOut *j, const SchError *err, int ply);
/* A short name of a FEN or game error code for programs ("two_kings"), or NULL. */
const char *wasm_error_name(int code);
/* A move in any notation, English letters first, then German. */
SchMove wasm_parse_move(const SchPosition *pos, const char *text, SchError *err);
/* g from fen and moves (see sch_wasm_state); false with the error in j (g then needs no freeing). */
bool wasm_load_game(SchGame *g, const char *fen, const char *moves, int chess960, JsonOut *j);
/* {uci,san,san_de,from,to,promotion,castling} of legal move m in pos. */
void wasm_move_json(JsonOut *j, const SchPosition *pos, SchMove m);
/* The state object of g (see sch_wasm_state). */
void wasm_state_json(JsonOut *j, const SchGame *g);

#endif
