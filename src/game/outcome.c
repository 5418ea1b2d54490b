/* Outcomes for machines (result strings, termination names) and for people (English, German). */
#include "schach/game.h"
#include "schach/winnable.h"

#include <stdio.h>

const char *result_string(Result r) {
    switch (r) {
        case RESULT_WHITE_WINS: return "1-0";
        case RESULT_BLACK_WINS: return "0-1";
        case RESULT_DRAW: return "1/2-1/2";
        default: return "*";
    }
}

const char *termination_name(Termination t) {
    static const char *const names[TERM_NB] = {
        [TERM_CHECKMATE] = "checkmate",
        [TERM_STALEMATE] = "stalemate",
        [TERM_INSUFFICIENT_MATERIAL] = "insufficient_material",
        [TERM_FIVEFOLD_REPETITION] = "fivefold_repetition",
        [TERM_SEVENTYFIVE_MOVES] = "seventyfive_moves",
        [TERM_THREEFOLD_REPETITION] = "threefold_repetition",
        [TERM_FIFTY_MOVES] = "fifty_moves",
        [TERM_RESIGNATION] = "resignation",
        [TERM_AGREEMENT] = "agreement",
        [TERM_TIME_FORFEIT] = "time_forfeit",
        [TERM_TIMEOUT_INSUFFICIENT] = "timeout_insufficient_material",
        [TERM_ABANDONED] = "abandoned",
        [TERM_DEAD_POSITION] = "dead_position",
        [TERM_TIMEOUT_UNWINNABLE] = "timeout_unwinnable",
    };
    return t > TERM_NONE && t < TERM_NB ? names[t] : NULL;
}

/* Draw endings described by one fixed sentence. */
static const char *draw_sentence(Termination t, Lang lang) {
    bool de = lang == LANG_DE;
    switch (t) {
        case TERM_STALEMATE: return de ? "Patt – remis" : "Stalemate – draw";
        case TERM_INSUFFICIENT_MATERIAL:
            return de ? "Remis: kein Matt mehr möglich (ungenügendes Material)"
                      : "Draw: no checkmate possible (insufficient material)";
        case TERM_FIVEFOLD_REPETITION:
            return de ? "Remis durch fünffache Stellungswiederholung" : "Draw by fivefold repetition";
        case TERM_SEVENTYFIVE_MOVES: return de ? "Remis durch die 75-Züge-Regel" : "Draw by the 75-move rule";
        case TERM_THREEFOLD_REPETITION:
            return de ? "Remis durch dreifache Stellungswiederholung (reklamiert)"
                      : "Draw by threefold repetition (claimed)";
        case TERM_FIFTY_MOVES:
            return de ? "Remis durch die 50-Züge-Regel (reklamiert)" : "Draw by the 50-move rule (claimed)";
        case TERM_AGREEMENT: return de ? "Remis durch Vereinbarung" : "Draw by agreement";
        case TERM_TIMEOUT_INSUFFICIENT:
            return de ? "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen – remis"
                      : "Time ran out, but the opponent cannot checkmate – draw";
        default: return NULL;
    }
}

static const char *color_name(Color c, Lang lang) {
    if (lang == LANG_DE)
        return c == WHITE ? "Weiß" : "Schwarz";
    return c == WHITE ? "White" : "Black";
}

/* "White wins 1-0", "Schwarz gewinnt 0:1", "draw"/"remis" (capitalised when it stands alone). */
static void result_words(const Outcome *o, Lang lang, bool alone, char *buf, size_t size) {
    bool de = lang == LANG_DE;
    if (o->result == RESULT_WHITE_WINS || o->result == RESULT_BLACK_WINS) {
        Color w = o->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        const char *score = w == WHITE ? (de ? "1:0" : "1-0") : (de ? "0:1" : "0-1");
        snprintf(buf, size, "%s %s %s", color_name(w, lang), de ? "gewinnt" : "wins", score);
    } else if (o->result == RESULT_DRAW) {
        snprintf(buf, size, "%s", alone ? (de ? "Remis" : "Draw") : (de ? "remis" : "draw"));
    } else {
        snprintf(buf, size, "%s", de ? "Partie läuft" : "Game in progress");
    }
}

/* The part before the dash for endings that name who did what. */
static void lead_words(const Outcome *o, Lang lang, char *buf, size_t size) {
    bool de = lang == LANG_DE;
    bool decisive = o->result == RESULT_WHITE_WINS || o->result == RESULT_BLACK_WINS;
    Color loser = o->result == RESULT_WHITE_WINS ? BLACK : WHITE;
    switch (o->termination) {
        case TERM_CHECKMATE: snprintf(buf, size, "%s", de ? "Schachmatt" : "Checkmate"); break;
        case TERM_RESIGNATION:
            if (decisive)
                snprintf(buf, size, "%s %s", color_name(loser, lang), de ? "gibt auf" : "resigns");
            else
                snprintf(buf, size, "%s", de ? "Aufgabe" : "Resignation");
            break;
        case TERM_TIME_FORFEIT:
            if (decisive)
                snprintf(buf, size, "%s %s", color_name(loser, lang),
                         de ? "hat die Zeit überschritten" : "lost on time");
            else
                snprintf(buf, size, "%s", de ? "Zeitüberschreitung" : "Time forfeit");
            break;
        case TERM_ABANDONED: snprintf(buf, size, "%s", de ? "Partie abgebrochen" : "Game abandoned"); break;
        default: buf[0] = '\0'; break;
    }
}

/* Draws by a dead position or by 6.9 without a material reason: the sentence names the reason. */
static bool unwinnable_sentence(const Outcome *o, Lang lang, char *buf, size_t size, size_t *len) {
    bool de = lang == LANG_DE;
    bool known = o->reason > WIN_REASON_NONE && o->reason < WIN_REASON_NB;
    const char *why = known ? win_reason_text((WinReason)o->reason, lang) : NULL;
    int n;
    if (o->termination == TERM_DEAD_POSITION) {
        if (why)
            n = snprintf(buf, size,
                         de ? "Remis: tote Stellung – %s, kein Matt ist mehr möglich"
                            : "Draw: dead position – %s, no checkmate is possible any more",
                         why);
        else
            n = snprintf(buf, size, "%s",
                         de ? "Remis: tote Stellung – kein Matt ist mehr möglich"
                            : "Draw: dead position – no checkmate is possible any more");
    } else if (o->termination == TERM_TIMEOUT_UNWINNABLE) {
        if (why)
            n = snprintf(buf, size,
                         de ? "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen (%s) – remis"
                            : "Time ran out, but the opponent cannot checkmate (%s) – draw",
                         why);
        else
            n = snprintf(buf, size, "%s",
                         de ? "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen – remis"
                            : "Time ran out, but the opponent cannot checkmate – draw");
    } else {
        return false;
    }
    *len = n < 0 ? 0 : (size_t)n;
    return true;
}

size_t outcome_describe(const Outcome *o, Lang lang, char *buf, size_t size) {
    size_t len;
    if (o->result == RESULT_DRAW && unwinnable_sentence(o, lang, buf, size, &len))
        return len;
    const char *sentence = o->result == RESULT_DRAW ? draw_sentence(o->termination, lang) : NULL;
    if (sentence)
        return (size_t)snprintf(buf, size, "%s", sentence);
    char lead[96], result[64];
    lead[0] = '\0';
    if (o->result != RESULT_NONE)
        lead_words(o, lang, lead, sizeof lead);
    result_words(o, lang, lead[0] == '\0', result, sizeof result);
    if (lead[0] == '\0')
        return (size_t)snprintf(buf, size, "%s", result);
    return (size_t)snprintf(buf, size, "%s – %s", lead, result);
}
