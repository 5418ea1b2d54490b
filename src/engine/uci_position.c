/* UCI: the position the GUI sets up (`position startpos|fen ... moves ...`, all or nothing) and the
 * debugging commands that show it (`d`, `eval`). Apart from the loop and from `go`: it builds the
 * Game every search starts from and knows the rules of replaying moves under UCI. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "uci_internal.h"

/* Plays m, also after an automatic ending that leaves legal moves: the GUI is the arbiter. The game
 * decides dead positions by material only (SCH_GAME_DEAD_MATERIAL_ONLY): the full analysis after each
 * replayed move of a locked position would cost milliseconds per ply on every "position" command,
 * time the engine's clock pays, and the search needs none of it. */
static bool play_on(SchGame *g, SchMove m, SchError *err) {
    if (sch_game_over(g))
        memset(&g->outcome, 0, sizeof g->outcome);
    return sch_game_play(g, m, err);
}

/* With UCI_Chess960 every position uses Chess960 notation (a 960 FEN switches it on by itself). */
static void set_chess960(const Uci *u, SchGame *g) {
    if (u->set.chess960)
        g->pos.chess960 = g->start.chess960 = 1;
}

/* Sets up g (which must be fresh) from tokens [i, end): "startpos" or "fen <fields>". */
static bool position_base(Uci *u, SchGame *g, const Tokens *t, size_t i, size_t end) {
    char buf[SHOWN_MAX + 8];
    if (i < end && !strcasecmp(t->v[i], "startpos")) {
        if (i + 1 < end) {
            uci_say(u, "info string position: unexpected '%s' after startpos; no position until a valid one",
                    uci_shown(t->v[i + 1], buf, sizeof buf));
            return false;
        }
        sch_game_init(g);
        sch_game_set_dead_mode(g, SCH_GAME_DEAD_MATERIAL_ONLY);
        set_chess960(u, g);
        return true;
    }
    if (i >= end || strcasecmp(t->v[i], "fen")) {
        uci_say(u, "info string position: expected 'startpos' or 'fen <FEN>'%s%s%s; no position until a valid one",
                i < end ? " instead of '" : "", i < end ? uci_shown(t->v[i], buf, sizeof buf) : "", i < end ? "'" : "");
        return false;
    }
    char *fen = uci_join_tokens(t, i + 1, end);
    if (!fen) {
        uci_say(u, "info string position: out of memory; no position until a valid one");
        return false;
    }
    SchError err;
    sch_err_clear(&err);
    bool ok = sch_game_init_fen_mode(g, fen, SCH_GAME_DEAD_MATERIAL_ONLY, &err);
    if (!ok) {
        char msg[256];
        sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
        uci_say(u, "info string position: invalid FEN: %s; no position until a valid one", msg);
    } else if (sch_game_over(g) && sch_gen_has_legal_move(sch_game_position(g))) {
        memset(&g->outcome, 0, sizeof g->outcome);
    }
    free(fen);
    if (ok)
        set_chess960(u, g);
    return ok;
}

/* Plays the moves [i, n) on g; reports the first bad one. */
static bool position_moves(Uci *u, SchGame *g, const Tokens *t, size_t i) {
    for (size_t k = i; k < t->n; k++) {
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_uci_parse(sch_game_position(g), t->v[k], &err);
        if (m == SCH_MOVE_NONE || !play_on(g, m, &err)) {
            char msg[256], buf[SHOWN_MAX + 8];
            sch_err_format(&err, SCH_LANG_EN, msg, sizeof msg);
            uci_say(u, "info string position: move %zu '%s' cannot be played: %s; no position until a valid one",
                    k - i + 1, uci_shown(t->v[k], buf, sizeof buf), msg);
            return false;
        }
    }
    return true;
}

/* position startpos|fen <FEN> [moves m1 m2 ...]: all or nothing. */
void uci_cmd_position(Uci *u, const Tokens *t, size_t i) {
    size_t moves = i;
    while (moves < t->n && strcasecmp(t->v[moves], "moves"))
        moves++;
    SchGame g;
    sch_game_init(&g);
    sch_game_free(&g);
    bool ok = position_base(u, &g, t, i, moves) && position_moves(u, &g, t, moves + 1);
    if (!ok) {
        /* The GUI meant a position we could not set up: searching the previous one would answer a
         * question it never asked, so until a valid position arrives `go` answers bestmove (none). */
        sch_game_free(&g);
        if (u->has_position)
            sch_game_free(&u->game);
        u->has_position = false;
        u->position_refused = true;
        return;
    }
    if (u->has_position)
        sch_game_free(&u->game);
    u->game = g;
    u->has_position = true;
    u->position_refused = false;
}

/* ---- debugging commands ------------------------------------------------------------------------ */

/* d: the board from white's side, its FEN and how many legal moves there are. */
void uci_cmd_display(Uci *u) {
    if (!u->has_position) {
        uci_say(u, "info string d: no position yet");
        return;
    }
    const SchPosition *pos = sch_game_position(&u->game);
    for (int rank = 7; rank >= 0; rank--) {
        char row[32];
        int len = 0;
        for (int file = 0; file < 8; file++) {
            SchPiece p = sch_pos_piece_on(pos, sch_square_make(file, rank));
            char c = p == SCH_NO_PIECE ? '.' : "PNBRQKpnbrqk"[p];
            len += snprintf(row + len, sizeof row - (size_t)len, " %c", c);
        }
        uci_say(u, "%d%s", rank + 1, row);
    }
    uci_say(u, "  a b c d e f g h");
    char fen[SCH_FEN_MAX];
    sch_fen_write(pos, fen, sizeof fen);
    uci_say(u, "Fen: %s", fen);
    uci_say(u, "Legal moves: %d", sch_gen_count(pos));
}

void uci_cmd_eval(Uci *u) {
    if (!u->has_position) {
        uci_say(u, "info string eval: no position yet");
        return;
    }
    const SchPosition *pos = sch_game_position(&u->game);
    const char *side = sch_pos_turn(pos) == SCH_WHITE ? "white" : "black";
    if (u->set.engine.use_nnue)
        uci_say(u, "info string eval %d cp (from %s's point of view; static, no search; NNUE)",
                engine_evaluate_nnue(u->engine, pos), side);
    uci_say(u, "info string eval %d cp (from %s's point of view; static, no search%s)", engine_evaluate(pos), side,
            u->set.engine.use_nnue ? "; classical" : "");
}
