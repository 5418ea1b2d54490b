/* Where a repeated position stood (FIDE 9.2): the plies after which it occurred and the same in
 * words with move numbers, for a threefold repetition claimed or claimable, with a move or without. */
#include "schach/game.h"

#include <stdio.h>
#include <string.h>

#include "schach/movegen.h"
#include "schach/notation.h"

int sch_game_repetition_plies(const SchGame *g, SchMove m, int *plies, int max) {
    uint64_t key;
    int at, halfmove;
    if (m == SCH_MOVE_NONE) {
        at = g->ply_count;
        key = sch_game_key_at(g, at);
        halfmove = g->pos.halfmove;
    } else {
        if (sch_game_over(g) || m == SCH_MOVE_NULL || !sch_gen_is_legal(&g->pos, m))
            return 0;
        SchPosition after = g->pos;
        SchUndo undo;
        sch_game_make_ply(&after, m, &undo);
        at = g->ply_count + 1;
        key = sch_game_repetition_key(&after);
        halfmove = after.halfmove;
    }
    /* As the record counts repetitions: a capture or pawn move cannot be undone, so only the last
     * halfmove plies can hold the position, and only those with the same player to move. */
    int lowest = at - halfmove < 0 ? 0 : at - halfmove;
    int first = at;
    while (first - 2 >= lowest)
        first -= 2;
    int n = 0;
    for (int i = first; i <= at; i += 2) {
        bool same = i == at || sch_game_key_at(g, i) == key;
        if (same && n < max)
            plies[n] = i;
        n += same;
    }
    return n;
}

/* "21…Kg7" / "21. … Kg7" or "21. Kg1": the move that made ply index `index` (1-based), played in pos. */
static void numbered(const SchPosition *pos, SchMove m, SchLang lang, char *buf, size_t size) {
    char san[SCH_MOVE_TEXT_MAX];
    if (m == SCH_MOVE_NULL)
        snprintf(san, sizeof san, "--");
    else
        sch_san_write(pos, m, lang, san, sizeof san);
    if (sch_pos_turn(pos) == SCH_WHITE)
        snprintf(buf, size, "%d. %s", (int)pos->fullmove, san);
    else
        snprintf(buf, size, lang == SCH_LANG_DE ? "%d. … %s" : "%d…%s", (int)pos->fullmove, san);
}

size_t sch_game_repetition_describe(const SchGame *g, SchMove m, SchLang lang, char *buf, size_t size) {
    int plies[SCH_GAME_REPETITION_MAX * 40];
    int max = (int)(sizeof plies / sizeof plies[0]);
    int total = sch_game_repetition_plies(g, m, plies, max);
    if (size)
        buf[0] = '\0';
    if (total < 2)
        return 0;
    int n = total < max ? total : max;
    int from = n > SCH_GAME_REPETITION_MAX ? n - SCH_GAME_REPETITION_MAX : 0; /* the latest ones */
    /* The moves' texts: replay the record from its start up to each listed ply. */
    char text[SCH_GAME_REPETITION_MAX][SCH_MOVE_TEXT_MAX + 16];
    SchPosition pos = g->start;
    int done = 0; /* plies applied to pos */
    for (int k = from; k < n; k++) {
        int index = plies[k];
        char *out = text[k - from];
        if (index == 0) {
            snprintf(out, sizeof text[0], "%s", "");
            continue;
        }
        while (done < index - 1) {
            SchUndo undo;
            sch_game_make_ply(&pos, g->plies[done].move, &undo);
            done++;
        }
        SchMove move = index - 1 < g->ply_count ? g->plies[index - 1].move : m;
        numbered(&pos, move, lang, out, sizeof text[0]);
    }
    bool de = lang == SCH_LANG_DE;
    size_t len = 0;
    int count = n - from;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int w = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, __VA_ARGS__);                     \
        len += w > 0 ? (size_t)w : 0;                                                                                  \
    } while (0)
    for (int k = 0; k < count; k++) {
        const char *t = text[k];
        const char *sep = k == 0 ? "" : k == count - 1 ? (de ? " und " : " and ") : ", ";
        if (de) {
            if (k == 0)
                PUT("%s", t[0] ? "dieselbe Stellung nach " : "dieselbe Stellung zu Beginn");
            else if (k == 1 && !text[0][0])
                PUT("%s", count == 2 ? " und nach " : ", nach ");
            else
                PUT("%s", sep);
            PUT("%s", t);
        } else {
            if (k == 0)
                PUT("%s%s", t[0] ? "the position after " : "the starting position", t);
            else
                PUT("%s%s%s", k == 1 ? " stood after " : "", k == 1 ? "" : sep, t);
        }
    }
#undef PUT
    return len;
}
