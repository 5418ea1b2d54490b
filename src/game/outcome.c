/* Outcomes for machines (result strings, termination names) and for people (English, German). */
#include "schach/game.h"
#include "schach/winnable.h"

#include <stdio.h>

const char *sch_result_string(SchResult r) {
    switch (r) {
        case SCH_RESULT_WHITE_WINS: return "1-0";
        case SCH_RESULT_BLACK_WINS: return "0-1";
        case SCH_RESULT_DRAW: return "1/2-1/2";
        default: return "*";
    }
}

const char *sch_termination_name(SchTermination t) {
    static const char *const names[SCH_TERM_NB] = {
        [SCH_TERM_CHECKMATE] = "checkmate",
        [SCH_TERM_STALEMATE] = "stalemate",
        [SCH_TERM_INSUFFICIENT_MATERIAL] = "insufficient_material",
        [SCH_TERM_FIVEFOLD_REPETITION] = "fivefold_repetition",
        [SCH_TERM_SEVENTYFIVE_MOVES] = "seventyfive_moves",
        [SCH_TERM_THREEFOLD_REPETITION] = "threefold_repetition",
        [SCH_TERM_FIFTY_MOVES] = "fifty_moves",
        [SCH_TERM_RESIGNATION] = "resignation",
        [SCH_TERM_AGREEMENT] = "agreement",
        [SCH_TERM_TIME_FORFEIT] = "time_forfeit",
        [SCH_TERM_TIMEOUT_INSUFFICIENT] = "timeout_insufficient_material",
        [SCH_TERM_ABANDONED] = "abandoned",
        [SCH_TERM_DEAD_POSITION] = "dead_position",
        [SCH_TERM_TIMEOUT_UNWINNABLE] = "timeout_unwinnable",
    };
    return t > SCH_TERM_NONE && t < SCH_TERM_NB ? names[t] : NULL;
}

/* Draw endings described by one fixed sentence. */
static const char *draw_sentence(SchTermination t, SchLang lang) {
    bool de = lang == SCH_LANG_DE;
    switch (t) {
        case SCH_TERM_STALEMATE: return de ? "Patt – remis" : "Stalemate – draw";
        case SCH_TERM_INSUFFICIENT_MATERIAL:
            return de ? "Remis: kein Matt mehr möglich (ungenügendes Material)"
                      : "Draw: no checkmate possible (insufficient material)";
        case SCH_TERM_FIVEFOLD_REPETITION:
            return de ? "Remis durch fünffache Stellungswiederholung" : "Draw by fivefold repetition";
        case SCH_TERM_SEVENTYFIVE_MOVES: return de ? "Remis durch die 75-Züge-Regel" : "Draw by the 75-move rule";
        case SCH_TERM_THREEFOLD_REPETITION:
            return de ? "Remis durch dreifache Stellungswiederholung (reklamiert)"
                      : "Draw by threefold repetition (claimed)";
        case SCH_TERM_FIFTY_MOVES:
            return de ? "Remis durch die 50-Züge-Regel (reklamiert)" : "Draw by the 50-move rule (claimed)";
        case SCH_TERM_AGREEMENT: return de ? "Remis durch Vereinbarung" : "Draw by agreement";
        case SCH_TERM_TIMEOUT_INSUFFICIENT:
            return de ? "Zeit überschritten, aber der Gegner kann nicht mehr mattsetzen – remis"
                      : "Time ran out, but the opponent cannot checkmate – draw";
        default: return NULL;
    }
}

static const char *color_name(SchColor c, SchLang lang) {
    if (lang == SCH_LANG_DE)
        return c == SCH_WHITE ? "Weiß" : "Schwarz";
    return c == SCH_WHITE ? "White" : "Black";
}

/* "White wins 1-0", "Schwarz gewinnt 0:1", "draw"/"remis" (capitalised when it stands alone). */
static void result_words(const SchOutcome *o, SchLang lang, bool alone, char *buf, size_t size) {
    bool de = lang == SCH_LANG_DE;
    if (o->result == SCH_RESULT_WHITE_WINS || o->result == SCH_RESULT_BLACK_WINS) {
        SchColor w = o->result == SCH_RESULT_WHITE_WINS ? SCH_WHITE : SCH_BLACK;
        const char *score = w == SCH_WHITE ? (de ? "1:0" : "1-0") : (de ? "0:1" : "0-1");
        snprintf(buf, size, "%s %s %s", color_name(w, lang), de ? "gewinnt" : "wins", score);
    } else if (o->result == SCH_RESULT_DRAW) {
        snprintf(buf, size, "%s", alone ? (de ? "Remis" : "Draw") : (de ? "remis" : "draw"));
    } else {
        snprintf(buf, size, "%s", de ? "Partie läuft" : "Game in progress");
    }
}

/* The part before the dash for endings that name who did what. */
static void lead_words(const SchOutcome *o, SchLang lang, char *buf, size_t size) {
    bool de = lang == SCH_LANG_DE;
    bool decisive = o->result == SCH_RESULT_WHITE_WINS || o->result == SCH_RESULT_BLACK_WINS;
    SchColor loser = o->result == SCH_RESULT_WHITE_WINS ? SCH_BLACK : SCH_WHITE;
    switch (o->termination) {
        case SCH_TERM_CHECKMATE: snprintf(buf, size, "%s", de ? "Schachmatt" : "Checkmate"); break;
        case SCH_TERM_RESIGNATION:
            if (decisive)
                snprintf(buf, size, "%s %s", color_name(loser, lang), de ? "gibt auf" : "resigns");
            else
                snprintf(buf, size, "%s", de ? "Aufgabe" : "Resignation");
            break;
        case SCH_TERM_TIME_FORFEIT:
            if (decisive)
                snprintf(buf, size, "%s %s", color_name(loser, lang),
                         de ? "hat die Zeit überschritten" : "lost on time");
            else
                snprintf(buf, size, "%s", de ? "Zeitüberschreitung" : "Time forfeit");
            break;
        case SCH_TERM_ABANDONED: snprintf(buf, size, "%s", de ? "Partie abgebrochen" : "Game abandoned"); break;
        default: buf[0] = '\0'; break;
    }
}

/* Draws by a dead position or by 6.9 without a material reason: the sentence names the reason. */
static bool unwinnable_sentence(const SchOutcome *o, SchLang lang, char *buf, size_t size, size_t *len) {
    bool de = lang == SCH_LANG_DE;
    bool known = o->reason > SCH_WIN_REASON_NONE && o->reason < SCH_WIN_REASON_NB;
    const char *why = known ? sch_win_reason_text((SchWinReason)o->reason, lang) : NULL;
    int n;
    if (o->termination == SCH_TERM_DEAD_POSITION) {
        if (why)
            n = snprintf(buf, size,
                         de ? "Remis: tote Stellung – %s, kein Matt ist mehr möglich"
                            : "Draw: dead position – %s, no checkmate is possible any more",
                         why);
        else
            n = snprintf(buf, size, "%s",
                         de ? "Remis: tote Stellung – kein Matt ist mehr möglich"
                            : "Draw: dead position – no checkmate is possible any more");
    } else if (o->termination == SCH_TERM_TIMEOUT_UNWINNABLE) {
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

size_t sch_outcome_describe(const SchOutcome *o, SchLang lang, char *buf, size_t size) {
    size_t len;
    if (o->result == SCH_RESULT_DRAW && unwinnable_sentence(o, lang, buf, size, &len))
        return len;
    const char *sentence = o->result == SCH_RESULT_DRAW ? draw_sentence(o->termination, lang) : NULL;
    if (sentence)
        return (size_t)snprintf(buf, size, "%s", sentence);
    char lead[96], result[64];
    lead[0] = '\0';
    if (o->result != SCH_RESULT_NONE)
        lead_words(o, lang, lead, sizeof lead);
    result_words(o, lang, lead[0] == '\0', result, sizeof result);
    if (lead[0] == '\0')
        return (size_t)snprintf(buf, size, "%s", result);
    return (size_t)snprintf(buf, size, "%s – %s", lead, result);
}
