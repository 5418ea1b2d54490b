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

const char *win_verdict_name(Winnability verdict) {
    switch (verdict) {
        case WIN_WINNABLE: return "winnable";
        case WIN_UNWINNABLE: return "unwinnable";
        default: return "undetermined";
    }
}

const char *win_reason_name(WinReason reason) {
    static const char *const names[WIN_REASON_NB] = {
        [WIN_REASON_CHECKMATED] = "checkmated",       [WIN_REASON_STALEMATE] = "stalemate",
        [WIN_REASON_BARE_KING] = "bare_king",         [WIN_REASON_MATERIAL] = "insufficient_material",
        [WIN_REASON_LOCKED] = "locked_pawns",         [WIN_REASON_TRAPPED] = "trapped_pieces",
        [WIN_REASON_EXHAUSTED] = "no_mate_reachable",
    };
    return reason > WIN_REASON_NONE && reason < WIN_REASON_NB ? names[reason] : NULL;
}

const char *win_reason_text(WinReason reason, Lang lang) {
    bool de = lang == LANG_DE;
    switch (reason) {
        case WIN_REASON_CHECKMATED: return de ? "die Partie ist durch Matt beendet" : "the game is over by checkmate";
        case WIN_REASON_STALEMATE: return de ? "die Partie ist durch Patt beendet" : "the game is over by stalemate";
        case WIN_REASON_BARE_KING: return de ? "nur der König ist übrig" : "only the king is left";
        case WIN_REASON_MATERIAL: return de ? "das Material reicht nicht zum Matt" : "the material cannot checkmate";
        case WIN_REASON_LOCKED:
            return de ? "die Bauernketten sind blockiert, keine Figur kann durchbrechen"
                      : "the pawns are locked and no piece can break through";
        case WIN_REASON_TRAPPED:
            return de ? "die Figuren sind eingesperrt und erreichen den König nie"
                      : "the pieces are trapped and can never reach the king";
        case WIN_REASON_EXHAUSTED:
            return de ? "keine erreichbare Stellung ist Matt" : "no position any series of moves reaches is checkmate";
        default: return de ? "unbekannt" : "unknown";
    }
}

/* ---- work areas -------------------------------------------------------------------------------- */

WinWork *win_work_new(size_t tt_bytes) {
    if (tt_bytes == 0)
        tt_bytes = (size_t)4 << 20;
    size_t entries = 1024;
    while (entries * 2 * sizeof(WinEntry) <= tt_bytes && entries < ((size_t)1 << 30))
        entries *= 2;
    WinWork *w = malloc(sizeof *w);
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
    return w;
}

void win_work_free(WinWork *work) {
    if (!work)
        return;
    free(work->table);
    free(work->frames);
    free(work->moves);
    free(work);
}

static pthread_key_t thread_work_key;
static pthread_once_t thread_work_once = PTHREAD_ONCE_INIT;

static void thread_work_free(void *work) { win_work_free(work); }
static void thread_work_key_make(void) { (void)pthread_key_create(&thread_work_key, thread_work_free); }

/* The calling thread's own work area, made on first use; NULL when out of memory. */
static WinWork *thread_work(void) {
    pthread_once(&thread_work_once, thread_work_key_make);
    WinWork *w = pthread_getspecific(thread_work_key);
    if (!w) {
        w = win_work_new(0);
        if (w && pthread_setspecific(thread_work_key, w) != 0) {
            win_work_free(w);
            w = NULL;
        }
    }
    return w;
}

/* ---- the verdict ------------------------------------------------------------------------------- */

bool win_proof_valid(const Position *pos, Color color, const WinResult *r) {
    if (r->line_len < 0 || r->line_len > WIN_LINE_MAX)
        return false;
    Position p = *pos;
    for (int i = 0; i < r->line_len; i++) {
        if (!gen_is_legal(&p, r->line[i]))
            return false;
        Undo u;
        pos_make(&p, r->line[i], &u);
    }
    return pos_turn(&p) != color && p.checkers && !gen_has_legal_move(&p);
}

static Winnability finish(WinResult *r, Winnability v, WinReason why) {
    r->verdict = v;
    r->reason = v == WIN_UNWINNABLE ? why : WIN_REASON_NONE;
    if (v != WIN_WINNABLE)
        r->line_len = 0;
    return v;
}

Winnability can_checkmate(const Position *pos, Color color, const WinLimits *limits, WinWork *work, WinResult *out) {
    WinResult local;
    WinResult *r = out ? out : &local;
    memset(r, 0, offsetof(WinResult, line));
    r->nodes = 0;
    r->blockade = false;
    static const WinLimits full_default = {false, 0};
    if (!limits)
        limits = &full_default;

    if (!gen_has_legal_move(pos)) {
        if (!pos_in_check(pos))
            return finish(r, WIN_UNWINNABLE, WIN_REASON_STALEMATE);
        if (pos_turn(pos) == color)
            return finish(r, WIN_UNWINNABLE, WIN_REASON_CHECKMATED);
        return finish(r, WIN_WINNABLE, WIN_REASON_NONE); /* already mate: the empty line */
    }
    if (!(pos->by_color[color] & ~pos->by_type[KING]))
        return finish(r, WIN_UNWINNABLE, WIN_REASON_BARE_KING);
    if (win_material_insufficient(pos, color))
        return finish(r, WIN_UNWINNABLE, WIN_REASON_MATERIAL);

    WinReason why = WIN_REASON_NONE;
    Winnability v = win_static(pos, color, &why, &r->blockade);
    if (v != WIN_UNDETERMINED)
        return finish(r, v, why);

    uint64_t budget = limits->quick ? WIN_QUICK_NODES : (limits->nodes ? limits->nodes : WIN_DEFAULT_NODES);
    if (!limits->quick && !work)
        work = thread_work();
    if (!limits->quick && !work)
        return finish(r, WIN_UNDETERMINED, WIN_REASON_NONE); /* out of memory */
    v = win_search(pos, color, budget, limits->quick ? NULL : work, r, &why);
    /* A proof is only a proof once replayed. */
    if (v == WIN_WINNABLE && !win_proof_valid(pos, color, r))
        v = WIN_UNDETERMINED;
    return finish(r, v, why);
}

Winnability dead_position(const Position *pos, const WinLimits *limits, WinWork *work, WinResult res[2]) {
    WinResult local[2];
    WinResult *r = res ? res : local;
    for (int c = 0; c < 2; c++) {
        memset(&r[c], 0, offsetof(WinResult, line));
        r[c].nodes = 0;
        r[c].blockade = false;
    }
    /* The side with more material is the likelier winner: ask about it first, and stop as soon
     * as one side can mate. */
    Color first = WHITE;
    if (bb_count(pos->by_color[BLACK]) > bb_count(pos->by_color[WHITE]))
        first = BLACK;
    if (can_checkmate(pos, first, limits, work, &r[first]) == WIN_WINNABLE)
        return WIN_WINNABLE;
    Winnability second = can_checkmate(pos, (Color)!first, limits, work, &r[!first]);
    if (second == WIN_WINNABLE)
        return WIN_WINNABLE;
    if (r[first].verdict == WIN_UNWINNABLE && second == WIN_UNWINNABLE)
        return WIN_UNWINNABLE;
    return WIN_UNDETERMINED;
}
