/* The engine part of the WebAssembly API (wasm_api.h): the engine of src/engine, one thread, searched
 * in slices so that JavaScript regains control between them (docs/wasm.md: a Web Worker cannot read
 * its messages while the module runs, so a search is a series of slices with the transposition table
 * and the history kept in between). */
#include <string.h>

#include "engine.h"
#include "schach/notation.h"
#include "wasm_internal.h"

/* JavaScript's receiver of the info lines: the JSON text at json, len bytes. */
__attribute__((import_module("env"), import_name("sch_info"))) void sch_wasm_js_info(const char *json, size_t len);

static Engine *engine;
static SchGame engine_game;
static bool engine_game_set;
static JsonOut info_out;

SCH_WASM_EXPORT(sch_wasm_engine_init) int sch_wasm_engine_init(int hash_mb) {
    EngineOptions opt;
    engine_options_default(&opt);
    opt.hash_mb = (size_t)(hash_mb < 1 ? 1 : hash_mb > 1024 ? 1024 : hash_mb);
    if (engine) {
        return engine_set_options(engine, &opt);
    }
    engine = engine_new(&opt);
    return engine != NULL;
}

SCH_WASM_EXPORT(sch_wasm_engine_clear) void sch_wasm_engine_clear(void) {
    if (engine)
        engine_clear(engine);
}

SCH_WASM_EXPORT(sch_wasm_engine_position)
const char *sch_wasm_engine_position(const char *fen, const char *moves, int chess960) {
    SchGame g;
    if (!wasm_load_game(&g, fen, moves, chess960, &wasm_out))
        return jo_finish(&wasm_out);
    if (engine_game_set)
        sch_game_free(&engine_game);
    engine_game = g;
    engine_game_set = true;
    char fen_now[SCH_FEN_MAX];
    sch_fen_write(&g.pos, fen_now, sizeof fen_now);
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"fen\":");
    jo_str(&wasm_out, fen_now);
    jo_raw(&wasm_out, "}");
    return jo_finish(&wasm_out);
}

/* {"cp":N} or {"mate":N} (moves, negative when the side to move is mated), as UCI counts them. */
static void score_json(JsonOut *j, int score) {
    if (score >= ENGINE_MATE_BOUND) {
        jo_raw(j, "{\"mate\":");
        jo_int(j, (ENGINE_MATE - score + 1) / 2);
    } else if (score <= -ENGINE_MATE_BOUND) {
        jo_raw(j, "{\"mate\":");
        jo_int(j, -((ENGINE_MATE + score) / 2));
    } else {
        jo_raw(j, "{\"cp\":");
        jo_int(j, score);
    }
    jo_raw(j, "}");
}

/* The pv in UCI, English and German SAN: "pv":[...],"san":[...],"san_de":[...]. */
static void pv_json(JsonOut *j, const SchPosition *root, const SchMove *pv, int length) {
    static const char *const keys[3] = {"pv", "san", "san_de"};
    for (int part = 0; part < 3; part++) {
        SchPosition pos = *root;
        jo_key(j, keys[part]);
        jo_raw(j, "[");
        for (int i = 0; i < length && sch_gen_is_legal(&pos, pv[i]); i++) {
            char text[SCH_MOVE_TEXT_MAX];
            if (part == 0)
                sch_uci_write(&pos, pv[i], text, sizeof text);
            else
                sch_san_write(&pos, pv[i], part == 1 ? SCH_LANG_EN : SCH_LANG_DE, text, sizeof text);
            jo_sep(j);
            jo_str(j, text);
            SchUndo undo;
            sch_pos_make(&pos, pv[i], &undo);
        }
        jo_raw(j, "]");
    }
}

static void on_info(const EngineInfo *info, void *ctx) {
    (void)ctx;
    JsonOut *j = &info_out;
    jo_reset(j);
    jo_raw(j, "{\"depth\":");
    jo_int(j, info->depth);
    jo_key(j, "seldepth");
    jo_int(j, info->seldepth);
    jo_key(j, "multipv");
    jo_int(j, info->multipv);
    jo_key(j, "score");
    score_json(j, info->score);
    jo_key(j, "bound");
    jo_str(j, info->lowerbound ? "lower" : info->upperbound ? "upper" : NULL);
    jo_key(j, "nodes");
    jo_int(j, (int64_t)info->nodes);
    jo_key(j, "time");
    jo_int(j, info->time_ms);
    jo_key(j, "hashfull");
    jo_int(j, info->hashfull);
    pv_json(j, &engine_game.pos, info->pv, info->pv_length);
    jo_raw(j, "}");
    if (!j->oom)
        sch_wasm_js_info(j->data, j->len);
}

SCH_WASM_EXPORT(sch_wasm_engine_slice)
const char *sch_wasm_engine_slice(int depth, int multipv, double nodes, int movetime) {
    if (!engine && !sch_wasm_engine_init(16)) {
        jo_reset(&wasm_out);
        jo_raw(&wasm_out, "{\"ok\":false,\"error\":{\"en\":\"out of memory\",\"de\":\"kein Speicher mehr\"}}");
        return jo_finish(&wasm_out);
    }
    if (!engine_game_set) {
        sch_game_init(&engine_game);
        engine_game_set = true;
    }
    EngineLimits limits = {0};
    limits.depth = depth < 1 ? 1 : depth >= ENGINE_MAX_PLY ? ENGINE_MAX_PLY - 1 : depth;
    limits.multipv = multipv < 1 ? 1 : multipv > ENGINE_MAX_MULTIPV ? ENGINE_MAX_MULTIPV : multipv;
    limits.nodes = nodes > 0 ? (uint64_t)nodes : 0;
    limits.movetime = movetime > 0 ? movetime : 0;
    EngineResult r = engine_search(engine, &engine_game, &limits, on_info, NULL);
    const SchPosition *pos = &engine_game.pos;
    char text[SCH_MOVE_TEXT_MAX];
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"depth\":");
    jo_int(&wasm_out, r.depth);
    jo_key(&wasm_out, "nodes");
    jo_int(&wasm_out, (int64_t)r.nodes);
    jo_key(&wasm_out, "time");
    jo_int(&wasm_out, r.time_ms);
    jo_key(&wasm_out, "score");
    score_json(&wasm_out, r.score);
    jo_key(&wasm_out, "best");
    if (r.best != SCH_MOVE_NONE) {
        sch_uci_write(pos, r.best, text, sizeof text);
        jo_str(&wasm_out, text);
        jo_key(&wasm_out, "best_san");
        sch_san_write(pos, r.best, SCH_LANG_EN, text, sizeof text);
        jo_str(&wasm_out, text);
        jo_key(&wasm_out, "ponder");
        SchPosition after = *pos;
        SchUndo undo;
        sch_pos_make(&after, r.best, &undo);
        if (r.ponder != SCH_MOVE_NONE && sch_gen_is_legal(&after, r.ponder)) {
            sch_uci_write(&after, r.ponder, text, sizeof text);
            jo_str(&wasm_out, text);
        } else {
            jo_raw(&wasm_out, "null");
        }
    } else {
        jo_raw(&wasm_out, "null,\"best_san\":null,\"ponder\":null");
    }
    jo_raw(&wasm_out, "}");
    return jo_finish(&wasm_out);
}

SCH_WASM_EXPORT(sch_wasm_bench) const char *sch_wasm_bench(int depth) {
    int64_t ms = 0;
    EngineOptions defaults; /* the engine's default evaluation, as `schach bench` searches */
    engine_options_default(&defaults);
    uint64_t nodes = engine_bench(depth, !defaults.use_nnue, &ms, NULL, NULL);
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"nodes\":");
    jo_int(&wasm_out, (int64_t)nodes);
    jo_key(&wasm_out, "ms");
    jo_int(&wasm_out, ms);
    jo_raw(&wasm_out, "}");
    return jo_finish(&wasm_out);
}
