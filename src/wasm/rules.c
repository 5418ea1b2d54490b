/* The rules part of the WebAssembly API (wasm_api.h): positions, legal moves, playing a move, FEN
 * validation. Everything comes from libschach; nothing here knows a rule of chess. */
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "wasm_internal.h"

SCH_WASM_EXPORT(sch_wasm_alloc) void *sch_wasm_alloc(size_t size) { return malloc(size ? size : 1); }

SCH_WASM_EXPORT(sch_wasm_free) void sch_wasm_free(void *p) { free(p); }

JsonOut wasm_out;

void wasm_error(JsonOut *j, const SchError *err, int ply) {
    char en[512], de[512];
    sch_err_format(err, SCH_LANG_EN, en, sizeof en);
    sch_err_format(err, SCH_LANG_DE, de, sizeof de);
    jo_reset(j);
    jo_raw(j, "{\"ok\":false,\"error\":{\"code\":");
    jo_int(j, err->code);
    const char *name = wasm_error_name(err->code);
    if (name) {
        jo_key(j, "name");
        jo_str(j, name);
    }
    if (ply >= 0) {
        jo_key(j, "ply");
        jo_int(j, ply);
    }
    if (err->line) {
        jo_key(j, "line");
        jo_int(j, err->line);
        jo_key(j, "column");
        jo_int(j, err->column);
    }
    jo_key(j, "en");
    jo_str(j, en);
    jo_key(j, "de");
    jo_str(j, de);
    jo_raw(j, "}}");
}

const char *wasm_error_name(int code) {
    static const char *const fen_names[] = {"empty",
                                            "fields",
                                            "ranks",
                                            "rank_length",
                                            "piece",
                                            "turn",
                                            "castling",
                                            "castling_pieces",
                                            "ep",
                                            "ep_rank",
                                            "ep_pawn",
                                            "halfmove",
                                            "fullmove",
                                            "trailing",
                                            "no_king",
                                            "two_kings",
                                            "pawn_rank",
                                            "too_many_pawns",
                                            "too_many_pieces",
                                            "opponent_in_check",
                                            "too_many_checkers",
                                            "impossible_check",
                                            "too_many_promoted"};
    if (code >= SCH_FEN_ERR_EMPTY && code <= SCH_FEN_ERR_TOO_MANY_PROMOTED)
        return fen_names[code - SCH_FEN_ERR_EMPTY];
    if (code == SCH_GAME_ERR_OVER)
        return "game_over";
    if (code == SCH_GAME_ERR_ILLEGAL)
        return "illegal";
    return NULL;
}

SchMove wasm_parse_move(const SchPosition *pos, const char *text, SchError *err) {
    SchMove m = sch_move_parse(pos, text, SCH_LANG_EN, err);
    if (m == SCH_MOVE_NONE) {
        SchError de;
        SchMove m2 = sch_move_parse(pos, text, SCH_LANG_DE, &de);
        if (m2 != SCH_MOVE_NONE)
            return m2;
    }
    return m;
}

bool wasm_load_game(SchGame *g, const char *fen, const char *moves, int chess960, JsonOut *j) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, fen && *fen ? fen : SCH_FEN_START, &err)) {
        wasm_error(j, &err, -1);
        return false;
    }
    if (chess960)
        g->start.chess960 = g->pos.chess960 = 1;
    const char *p = moves ? moves : "";
    char word[SCH_MOVE_INPUT_MAX + 8];
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " \t\n\r");
        size_t k = n < sizeof word - 1 ? n : sizeof word - 1;
        memcpy(word, p, k);
        word[k] = 0;
        p += n;
        /* Move numbers ("1.", "12...") are skipped, as schach moves does. */
        size_t digits = strspn(word, "0123456789");
        if (digits && word[digits] == '.' && strspn(word + digits, ".") == strlen(word + digits))
            continue;
        SchMove m = wasm_parse_move(&g->pos, word, &err);
        if (m == SCH_MOVE_NONE || !sch_game_play(g, m, &err)) {
            wasm_error(j, &err, g->ply_count);
            sch_game_free(g);
            return false;
        }
    }
    return true;
}

void wasm_move_json(JsonOut *j, const SchPosition *pos, SchMove m) {
    char uci[SCH_MOVE_TEXT_MAX], san[SCH_MOVE_TEXT_MAX], san_de[SCH_MOVE_TEXT_MAX], sq[3];
    sch_uci_write(pos, m, uci, sizeof uci);
    sch_san_write(pos, m, SCH_LANG_EN, san, sizeof san);
    sch_san_write(pos, m, SCH_LANG_DE, san_de, sizeof san_de);
    jo_raw(j, "{\"uci\":");
    jo_str(j, uci);
    jo_key(j, "san");
    jo_str(j, san);
    jo_key(j, "san_de");
    jo_str(j, san_de);
    jo_key(j, "from");
    sch_square_name(sch_move_from(m), sq);
    jo_str(j, sq);
    jo_key(j, "to");
    /* The square the piece lands on as people see it; UCI's own target is in uci. */
    SchSquare to = sch_move_to(m);
    sch_square_name(to, sq);
    jo_str(j, sq);
    jo_key(j, "promotion");
    if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
        char letter[2] = {(char)(sch_piece_letter(sch_move_promotion(m), SCH_LANG_EN) | 0x20), 0};
        jo_str(j, letter);
    } else {
        jo_raw(j, "null");
    }
    jo_key(j, "castling");
    jo_bool(j, sch_move_kind(m) == SCH_MOVE_CASTLING);
    jo_raw(j, "}");
}

typedef struct MoveRow {
    char uci[SCH_MOVE_TEXT_MAX];
    SchMove move;
} MoveRow;

static int compare_rows(const void *a, const void *b) {
    return strcmp(((const MoveRow *)a)->uci, ((const MoveRow *)b)->uci);
}

void wasm_state_json(JsonOut *j, const SchGame *g) {
    const SchPosition *pos = sch_game_position(g);
    char fen[SCH_FEN_MAX];
    sch_fen_write(pos, fen, sizeof fen);
    bool over = sch_game_over(g);
    jo_raw(j, "{\"fen\":");
    jo_str(j, fen);
    jo_key(j, "turn");
    jo_str(j, sch_pos_turn(pos) == SCH_WHITE ? "white" : "black");
    jo_key(j, "check");
    jo_bool(j, sch_pos_in_check(pos));
    bool has_move = sch_gen_has_legal_move(pos);
    jo_key(j, "checkmate");
    jo_bool(j, !has_move && sch_pos_in_check(pos));
    jo_key(j, "stalemate");
    jo_bool(j, !has_move && !sch_pos_in_check(pos));
    jo_key(j, "insufficient_material");
    jo_bool(j, sch_pos_insufficient_material(pos));
    jo_key(j, "chess960");
    jo_bool(j, pos->chess960 != 0);
    jo_key(j, "ply");
    jo_int(j, g->ply_count);
    jo_key(j, "moves");
    jo_raw(j, "[");
    if (!over) {
        static MoveRow rows[SCH_MAX_MOVES];
        SchMoveList list;
        sch_gen_legal(pos, &list);
        for (int i = 0; i < list.count; i++) {
            rows[i].move = list.moves[i];
            sch_uci_write(pos, list.moves[i], rows[i].uci, sizeof rows[i].uci);
        }
        qsort(rows, (size_t)list.count, sizeof rows[0], compare_rows);
        for (int i = 0; i < list.count; i++) {
            jo_sep(j);
            wasm_move_json(j, pos, rows[i].move);
        }
    }
    jo_raw(j, "]");
    jo_key(j, "outcome");
    if (over) {
        char en[256], de[256];
        sch_outcome_describe(&g->outcome, SCH_LANG_EN, en, sizeof en);
        sch_outcome_describe(&g->outcome, SCH_LANG_DE, de, sizeof de);
        jo_raw(j, "{\"result\":");
        jo_str(j, sch_result_string(g->outcome.result));
        jo_key(j, "termination");
        jo_str(j, sch_termination_name(g->outcome.termination));
        const char *reason = sch_win_reason_name((SchWinReason)g->outcome.reason);
        if (g->outcome.reason && reason) {
            jo_key(j, "reason");
            jo_str(j, reason);
        }
        jo_key(j, "en");
        jo_str(j, en);
        jo_key(j, "de");
        jo_str(j, de);
        jo_raw(j, "}");
    } else {
        jo_raw(j, "null");
    }
    int claims = over ? 0 : sch_game_claims(g);
    jo_key(j, "claims");
    jo_raw(j, "[");
    if (claims & SCH_CLAIM_THREEFOLD) {
        jo_sep(j);
        jo_str(j, "threefold_repetition");
    }
    if (claims & SCH_CLAIM_FIFTY) {
        jo_sep(j);
        jo_str(j, "fifty_moves");
    }
    jo_raw(j, "]}");
}

SCH_WASM_EXPORT(sch_wasm_state) const char *sch_wasm_state(const char *fen, const char *moves, int chess960) {
    SchGame g;
    if (!wasm_load_game(&g, fen, moves, chess960, &wasm_out))
        return jo_finish(&wasm_out);
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"state\":");
    wasm_state_json(&wasm_out, &g);
    jo_raw(&wasm_out, "}");
    sch_game_free(&g);
    return jo_finish(&wasm_out);
}

SCH_WASM_EXPORT(sch_wasm_play)
const char *sch_wasm_play(const char *fen, const char *moves, int chess960, const char *move) {
    SchGame g;
    if (!wasm_load_game(&g, fen, moves, chess960, &wasm_out))
        return jo_finish(&wasm_out);
    SchError err;
    sch_err_clear(&err);
    SchPosition before = g.pos;
    SchMove m = wasm_parse_move(&g.pos, move ? move : "", &err);
    if (m == SCH_MOVE_NONE || !sch_game_play(&g, m, &err)) {
        wasm_error(&wasm_out, &err, g.ply_count);
        sch_game_free(&g);
        return jo_finish(&wasm_out);
    }
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"move\":");
    wasm_move_json(&wasm_out, &before, m);
    jo_key(&wasm_out, "state");
    wasm_state_json(&wasm_out, &g);
    jo_raw(&wasm_out, "}");
    sch_game_free(&g);
    return jo_finish(&wasm_out);
}

SCH_WASM_EXPORT(sch_wasm_validate) const char *sch_wasm_validate(const char *fen) {
    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    if (!sch_fen_parse(&pos, fen ? fen : "", &err)) {
        wasm_error(&wasm_out, &err, -1);
        return jo_finish(&wasm_out);
    }
    char text[SCH_FEN_MAX];
    sch_fen_write(&pos, text, sizeof text);
    jo_reset(&wasm_out);
    jo_raw(&wasm_out, "{\"ok\":true,\"fen\":");
    jo_str(&wasm_out, text);
    jo_raw(&wasm_out, "}");
    return jo_finish(&wasm_out);
}
