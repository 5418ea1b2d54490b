/* A played game as PGN (libschach's sch_pgn_write), and how it ended in words (see match_internal.h).
 *
 * A match game adds to the export format PlyCount, TimeControl, the Termination values "rules
 * infraction" and "adjudication" of the PGN standard, a comment per engine move when asked for, and
 * one after the last move that says how the game ended.
 */
#include <string.h>

#include "match_internal.h"
#include "schach/pgn.h"

const char *match_termination_tag(const GameRecord *rec) {
    switch (rec->reason) {
        case END_TIME:
        case END_NO_ANSWER: return "time forfeit";
        case END_CRASH:
        case END_STARTUP: return "abandoned";
        case END_ILLEGAL: return "rules infraction";
        case END_ADJ_RESIGN:
        case END_ADJ_DRAW: return "adjudication";
        case END_ABORTED:
        case END_NONE: return "unterminated";
        default: return "normal";
    }
}

/* Seconds without needless zeros: 10000 -> "10", 100 -> "0.1". */
static void seconds_text(int64_t ms, char *buf, size_t size) {
    int n = snprintf(buf, size, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

/* German writes "0,25 s" where English writes "0.25 s". */
static void decimal_comma(char *text) {
    char *dot = strchr(text, '.');
    if (dot)
        *dot = ',';
}

/* "10+0.1", "60" or "-" without a clock. */
static void time_control(const MatchConfig *cfg, char *buf, size_t size) {
    if (!cfg->has_clock) {
        snprintf(buf, size, "-");
        return;
    }
    char base[24], inc[24];
    seconds_text(cfg->base_ms, base, sizeof base);
    seconds_text(cfg->inc_ms, inc, sizeof inc);
    if (cfg->inc_ms > 0)
        snprintf(buf, size, "%s+%s", base, inc);
    else
        snprintf(buf, size, "%s", base);
}

static bool set_tags(SchPgnGame *pg, const MatchShared *sh, const GameRecord *rec) {
    const MatchConfig *cfg = sh->cfg;
    char round[16], tc[48], plies[16];
    snprintf(round, sizeof round, "%d", rec->index + 1);
    time_control(cfg, tc, sizeof tc);
    snprintf(plies, sizeof plies, "%d", rec->game.ply_count);
    return sch_pgn_set_tag(pg, "Event", cfg->event ? cfg->event : "schach match") && sch_pgn_set_tag(pg, "Site", "?") &&
           sch_pgn_set_tag(pg, "Date", rec->date) && sch_pgn_set_tag(pg, "Round", round) &&
           sch_pgn_set_tag(pg, "White", sh->names[rec->first_color == SCH_WHITE ? 0 : 1]) &&
           sch_pgn_set_tag(pg, "Black", sh->names[rec->first_color == SCH_WHITE ? 1 : 0]) &&
           sch_pgn_set_tag(pg, "Termination", match_termination_tag(rec)) && sch_pgn_set_tag(pg, "TimeControl", tc) &&
           sch_pgn_set_tag(pg, "PlyCount", plies) &&
           (!rec->game.start.chess960 || sch_pgn_set_tag(pg, "Variant", "Chess960"));
}

/* "+0.35/12 0.213s" / "-M3/20 1.002s" / "book". */
static void note_comment(const MoveNote *n, char *buf, size_t size) {
    if (!n->engine) {
        snprintf(buf, size, "book");
        return;
    }
    char score[32] = "";
    int magnitude = n->score < 0 ? -n->score : n->score;
    if (n->has_score && n->is_mate)
        snprintf(score, sizeof score, "%sM%d/%d ", n->score > 0 ? "+" : "-", magnitude, n->depth);
    else if (n->has_score)
        snprintf(score, sizeof score, "%s%d.%02d/%d ", n->score < 0 ? "-" : "+", magnitude / 100, magnitude % 100,
                 n->depth);
    snprintf(buf, size, "%s%lld.%03llds", score, (long long)(n->time_ms / 1000), (long long)(n->time_ms % 1000));
}

static bool set_comments(SchPgnGame *pg, const MatchShared *sh, const GameRecord *rec) {
    int plies = rec->game.ply_count;
    if (sh->cfg->pgn_comments) {
        for (int i = 0; i < plies && i < rec->note_capacity; i++) {
            char comment[64];
            note_comment(&rec->notes[i], comment, sizeof comment);
            if (!sch_pgn_set_comment(pg, i + 1, comment))
                return false;
        }
    }
    /* The engine's note on the last move and the ending share its comment. */
    char end[256], last[384];
    match_describe_end(sh, rec, SCH_LANG_EN, end, sizeof end);
    const char *note = sch_pgn_comment(pg, plies);
    snprintf(last, sizeof last, "%s%s%s", note ? note : "", note ? " " : "", end);
    return sch_pgn_set_comment(pg, plies, last);
}

bool match_write_pgn(FILE *out, const MatchShared *sh, const GameRecord *rec) {
    SchPgnGame pg;
    sch_pgn_game_init(&pg);
    sch_game_free(&pg.game);
    bool ok = sch_game_copy(&pg.game, &rec->game) && set_tags(&pg, sh, rec) && set_comments(&pg, sh, rec) &&
              sch_pgn_write(out, &pg, SCH_LANG_EN) && fflush(out) == 0;
    sch_pgn_game_free(&pg);
    return ok;
}

static const char *color_word(SchColor c, SchLang lang) {
    return lang == SCH_LANG_DE ? (c == SCH_WHITE ? "Weiß" : "Schwarz") : (c == SCH_WHITE ? "White" : "Black");
}

void match_describe_end(const MatchShared *sh, const GameRecord *rec, SchLang lang, char *buf, size_t size) {
    (void)sh;
    bool de = lang == SCH_LANG_DE;
    char outcome[160], why[128] = "";
    sch_outcome_describe(&rec->game.outcome, lang, outcome, sizeof outcome);
    SchColor c = rec->culprit < 0 ? SCH_WHITE : (rec->culprit == 0 ? rec->first_color : (SchColor)!rec->first_color);
    const char *who = color_word(c, lang);
    switch (rec->reason) {
        case END_NO_ANSWER:
            snprintf(why, sizeof why, de ? "%s hat nicht rechtzeitig geantwortet" : "%s did not answer in time", who);
            break;
        case END_CRASH:
            snprintf(why, sizeof why, de ? "die Engine von %s hat sich beendet" : "%s's engine exited", who);
            break;
        case END_STARTUP:
            snprintf(why, sizeof why, de ? "die Engine von %s startet nicht" : "%s's engine did not start", who);
            break;
        case END_ILLEGAL:
            snprintf(why, sizeof why, de ? "%s spielte den unzulässigen Zug '%s'" : "%s played the illegal move '%s'",
                     who, rec->detail);
            break;
        case END_TIME: {
            char used[24], left[24];
            seconds_text(rec->flag_used_ms, used, sizeof used);
            seconds_text(rec->flag_clock_ms, left, sizeof left);
            if (de) {
                decimal_comma(used);
                decimal_comma(left);
            }
            snprintf(why, sizeof why,
                     de ? "%s brauchte %s s mit %s s auf der Uhr" : "%s took %s s with %s s on the clock", who, used,
                     left);
            break;
        }
        case END_ADJ_RESIGN:
        case END_ADJ_DRAW:
            snprintf(why, sizeof why, "%s", de ? "nach Bewertungen entschieden" : "adjudicated by scores");
            break;
        case END_ABORTED: snprintf(buf, size, "%s", de ? "Partie abgebrochen" : "Game aborted"); return;
        default: break;
    }
    if (rec->reason == END_ILLEGAL) {
        /* The Game records an abandonment; say the result without that word. */
        SchColor winner = rec->game.outcome.winner;
        snprintf(outcome, sizeof outcome, de ? "%s gewinnt %s" : "%s wins %s", color_word(winner, lang),
                 winner == SCH_WHITE ? (de ? "1:0" : "1-0") : (de ? "0:1" : "0-1"));
    }
    if (why[0])
        snprintf(buf, size, "%s: %s", why, outcome);
    else
        snprintf(buf, size, "%s", outcome);
}
