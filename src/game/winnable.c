/* Can a colour still checkmate: the entry points, words for the reasons.
 * The material rules, which come first, live with the material module (material.c); the analyses
 * themselves live in winnable_static.c (locked pawn structures) and winnable_search.c (helpmate
 * search, exhaustive search). */
#include "schach/winnable.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "schach/movegen.h"
#include "winnable_internal.h"

/* ---- names and words --------------------------------------------------------------------------- */

const char *sch_win_verdict_name(SchWinnability verdict) {
    switch (verdict) {
        case SCH_WIN_WINNABLE: return "winnable";
        case SCH_WIN_UNWINNABLE: return "unwinnable";
        default: return "undetermined";
    }
}

const char *sch_win_reason_name(SchWinReason reason) {
    static const char *const names[SCH_WIN_REASON_NB] = {
        [SCH_WIN_REASON_CHECKMATED] = "checkmated",       [SCH_WIN_REASON_STALEMATE] = "stalemate",
        [SCH_WIN_REASON_BARE_KING] = "bare_king",         [SCH_WIN_REASON_MATERIAL] = "insufficient_material",
        [SCH_WIN_REASON_LOCKED] = "locked_pawns",         [SCH_WIN_REASON_TRAPPED] = "trapped_pieces",
        [SCH_WIN_REASON_EXHAUSTED] = "no_mate_reachable",
    };
    return reason > SCH_WIN_REASON_NONE && reason < SCH_WIN_REASON_NB ? names[reason] : NULL;
}

const char *sch_win_reason_text(SchWinReason reason, SchLang lang) {
    bool de = lang == SCH_LANG_DE;
    switch (reason) {
        case SCH_WIN_REASON_CHECKMATED:
            return de ? "die Partie ist durch Matt beendet" : "the game is over by checkmate";
        case SCH_WIN_REASON_STALEMATE:
            return de ? "die Partie ist durch Patt beendet" : "the game is over by stalemate";
        case SCH_WIN_REASON_BARE_KING: return de ? "nur der König ist übrig" : "only the king is left";
        case SCH_WIN_REASON_MATERIAL:
            return de ? "das Material reicht nicht zum Matt" : "the material cannot checkmate";
        case SCH_WIN_REASON_LOCKED:
            return de ? "die Bauernketten sind blockiert, keine Figur kann durchbrechen"
                      : "the pawns are locked and no piece can break through";
        case SCH_WIN_REASON_TRAPPED:
            return de ? "die Figuren sind eingesperrt und erreichen den König nie"
                      : "the pieces are trapped and can never reach the king";
        case SCH_WIN_REASON_EXHAUSTED:
            return de ? "keine erreichbare Stellung ist Matt" : "no position any series of moves reaches is checkmate";
        default: return de ? "unbekannt" : "unknown";
    }
}

/* ---- work areas -------------------------------------------------------------------------------- */

SchWinWork *sch_win_work_new(size_t tt_bytes) {
    if (tt_bytes == 0)
        tt_bytes = (size_t)4 << 20;
    size_t entries = 1024;
    while (entries * 2 * sizeof(WinEntry) <= tt_bytes && entries < ((size_t)1 << 30))
        entries *= 2;
    SchWinWork *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    w->table = calloc(entries, sizeof *w->table);
    if (!w->table) {
        free(w);
        return NULL;
    }
    w->mask = entries - 1;
    w->generation = 0;
    w->frames = NULL;
    w->moves = NULL;
    w->bfs = NULL;
    return w;
}

void sch_win_work_free(SchWinWork *work) {
    if (!work)
        return;
    free(work->table);
    free(work->frames);
    free(work->moves);
    free(work->bfs);
    free(work);
}

static pthread_key_t thread_work_key;
static pthread_once_t thread_work_once = PTHREAD_ONCE_INIT;

static void thread_work_free(void *work) { sch_win_work_free(work); }
static void thread_work_key_make(void) { (void)pthread_key_create(&thread_work_key, thread_work_free); }

/* The calling thread's own work area, made on first use; NULL when out of memory. */
static SchWinWork *thread_work(void) {
    pthread_once(&thread_work_once, thread_work_key_make);
    SchWinWork *w = pthread_getspecific(thread_work_key);
    if (!w) {
        w = sch_win_work_new(0);
        if (w && pthread_setspecific(thread_work_key, w) != 0) {
            sch_win_work_free(w);
            w = NULL;
        }
    }
    return w;
}

/* ---- the verdict ------------------------------------------------------------------------------- */

bool sch_win_proof_valid(const SchPosition *pos, SchColor color, const SchWinResult *r) {
    if (r->line_len < 0 || r->line_len > SCH_WIN_LINE_MAX)
        return false;
    SchPosition p = *pos;
    for (int i = 0; i < r->line_len; i++) {
        if (!sch_gen_is_legal(&p, r->line[i]))
            return false;
        SchUndo u;
        sch_pos_make(&p, r->line[i], &u);
    }
    return sch_pos_turn(&p) != color && p.checkers && !sch_gen_has_legal_move(&p);
}

static SchWinnability finish(SchWinResult *r, SchWinnability v, SchWinReason why) {
    r->verdict = v;
    r->reason = v == SCH_WIN_UNWINNABLE ? why : SCH_WIN_REASON_NONE;
    if (v != SCH_WIN_WINNABLE)
        r->line_len = 0;
    return v;
}

/* What both colours' analyses ask of one position in turn, kept per thread for the last position
 * asked about (the whole position is compared, not only its key: an answer here settles verdicts). */
typedef struct MoveFacts {
    bool known, has_move, short_known, short_of_moves;
    SchBitboard by_type[SCH_PIECE_TYPE_NB], by_color[2];
    uint8_t turn, castling, ep, castle_rook[4];
} MoveFacts;

static bool same_position(const MoveFacts *f, const SchPosition *pos) {
    return f->turn == pos->turn && f->castling == pos->castling && f->ep == pos->ep &&
           !memcmp(f->castle_rook, pos->castle_rook, sizeof f->castle_rook) &&
           !memcmp(f->by_color, pos->by_color, sizeof f->by_color) &&
           !memcmp(f->by_type, pos->by_type, sizeof f->by_type);
}

static MoveFacts *move_facts(const SchPosition *pos) {
    static _Thread_local MoveFacts facts;
    if (!facts.known || !same_position(&facts, pos)) {
        memcpy(facts.by_type, pos->by_type, sizeof facts.by_type);
        memcpy(facts.by_color, pos->by_color, sizeof facts.by_color);
        facts.turn = pos->turn;
        facts.castling = pos->castling;
        facts.ep = pos->ep;
        memcpy(facts.castle_rook, pos->castle_rook, sizeof facts.castle_rook);
        facts.known = true;
        facts.has_move = sch_gen_has_legal_move(pos);
        facts.short_known = false;
    }
    return &facts;
}

/* The side to move has at most WIN_FEW_MOVES legal moves out of check, or a single one in check; or
 * the other side would have at most WIN_FEW_REPLIES were it its turn (a king boxed in while the mover
 * has moves to spare). */
static bool short_of_moves(const SchPosition *pos) {
    MoveFacts *facts = move_facts(pos);
    if (facts->short_known)
        return facts->short_of_moves;
    bool check = sch_pos_in_check(pos), answer;
    if (sch_gen_count(pos) <= (check ? 1 : WIN_FEW_MOVES)) {
        answer = true;
    } else if (check) {
        answer = false;
    } else {
        SchPosition other = *pos;
        SchUndo undo;
        sch_pos_make_null(&other, &undo);
        answer = sch_gen_count(&other) <= WIN_FEW_REPLIES;
    }
    facts->short_known = true;
    facts->short_of_moves = answer;
    return answer;
}

SchWinnability sch_can_checkmate(const SchPosition *pos, SchColor color, const SchWinLimits *limits, SchWinWork *work,
                                 SchWinResult *out) {
    SchWinResult local;
    SchWinResult *r = out ? out : &local;
    memset(r, 0, offsetof(SchWinResult, line));
    r->nodes = 0;
    r->blockade = false;
    static const SchWinLimits full_default = {false, 0};
    if (!limits)
        limits = &full_default;

    if (!move_facts(pos)->has_move) {
        if (!sch_pos_in_check(pos))
            return finish(r, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_STALEMATE);
        if (sch_pos_turn(pos) == color)
            return finish(r, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_CHECKMATED);
        return finish(r, SCH_WIN_WINNABLE, SCH_WIN_REASON_NONE); /* already mate: the empty line */
    }
    if (!(pos->by_color[color] & ~pos->by_type[SCH_KING]))
        return finish(r, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_BARE_KING);
    if (sch_win_material_insufficient(pos, color))
        return finish(r, SCH_WIN_UNWINNABLE, SCH_WIN_REASON_MATERIAL);

    SchWinReason why = SCH_WIN_REASON_NONE;
    SchWinnability v = sch_win_static(pos, color, &why, &r->blockade);
    if (v != SCH_WIN_UNDETERMINED)
        return finish(r, v, why);

    /* Quick, where most pawns stand head to head: saturation may settle it; if not, the structure
     * is closed enough that the full analysis is worth its price (the per-move check of a game runs
     * it then). Rare in open play, so the quick pass stays as cheap there. */
    if (limits->quick && !r->blockade && sch_win_nearly_locked(pos)) {
        v = sch_win_saturate(pos, color, &why);
        if (v != SCH_WIN_UNDETERMINED)
            return finish(r, v, why);
        r->blockade = true;
    }

    uint64_t budget = limits->quick ? WIN_QUICK_NODES : (limits->nodes ? limits->nodes : SCH_WIN_DEFAULT_NODES);
    if (!limits->quick && !work)
        work = thread_work();
    if (!limits->quick && !work)
        return finish(r, SCH_WIN_UNDETERMINED, SCH_WIN_REASON_NONE); /* out of memory */
    v = sch_win_search(pos, color, budget, limits->quick ? NULL : work, r, &why);
    /* A proof is only a proof once replayed. */
    if (v == SCH_WIN_WINNABLE && !sch_win_proof_valid(pos, color, r))
        v = SCH_WIN_UNDETERMINED;
    /* Quick and unsettled where the side to move is short of moves: dead positions without locked
     * pawns are mostly of this kind (a king walled in by its own men, a piece that can only shuttle),
     * and in real games the full analysis finds both helpmates there in a fraction of a millisecond. */
    if (limits->quick && v == SCH_WIN_UNDETERMINED && short_of_moves(pos))
        r->blockade = true;
    return finish(r, v, why);
}

SchWinnability sch_dead_position(const SchPosition *pos, const SchWinLimits *limits, SchWinWork *work,
                                 SchWinResult res[2]) {
    SchWinResult local[2];
    SchWinResult *r = res ? res : local;
    for (int c = 0; c < 2; c++) {
        memset(&r[c], 0, offsetof(SchWinResult, line));
        r[c].nodes = 0;
        r[c].blockade = false;
    }
    /* The side with more material is the likelier winner: ask about it first, and stop as soon
     * as one side can mate. */
    SchColor first = SCH_WHITE;
    if (sch_bb_count(pos->by_color[SCH_BLACK]) > sch_bb_count(pos->by_color[SCH_WHITE]))
        first = SCH_BLACK;
    if (sch_can_checkmate(pos, first, limits, work, &r[first]) == SCH_WIN_WINNABLE)
        return SCH_WIN_WINNABLE;
    SchWinnability second = sch_can_checkmate(pos, (SchColor)!first, limits, work, &r[!first]);
    if (second == SCH_WIN_WINNABLE)
        return SCH_WIN_WINNABLE;
    if (r[first].verdict == SCH_WIN_UNWINNABLE && second == SCH_WIN_UNWINNABLE)
        return SCH_WIN_UNWINNABLE;
    return SCH_WIN_UNDETERMINED;
}
