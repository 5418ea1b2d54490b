/* A played game as PGN, and how it ended in words (see match_internal.h).
 *
 * Written here rather than with pgn_write because a match game carries what pgn_write has no room
 * for: engine comments per move, PlyCount and TimeControl, and the Termination values "rules
 * infraction" and "adjudication" of the PGN standard.
 */
#include <string.h>

#include "match_internal.h"
#include "schach/fen.h"
#include "schach/notation.h"

#define PGN_LINE_MAX 80

typedef struct Line {
    FILE *out;
    size_t len;
    char buf[PGN_LINE_MAX + 1];
} Line;

static void line_flush(Line *l) {
    if (l->len > 0) {
        fwrite(l->buf, 1, l->len, l->out);
        fputc('\n', l->out);
    }
    l->len = 0;
}

/* Adds a token; a token never crosses the 80-column limit (longer ones are split at spaces). */
static void line_put(Line *l, const char *token) {
    size_t n = strlen(token);
    if (n > PGN_LINE_MAX) {
        const char *space = memchr(token, ' ', PGN_LINE_MAX);
        size_t cut = space ? (size_t)(space - token) : PGN_LINE_MAX;
        char head[PGN_LINE_MAX + 1];
        memcpy(head, token, cut);
        head[cut] = '\0';
        line_put(l, head);
        line_put(l, token + cut + (space ? 1 : 0));
        return;
    }
    if (l->len > 0 && l->len + 1 + n > PGN_LINE_MAX)
        line_flush(l);
    if (l->len > 0)
        l->buf[l->len++] = ' ';
    memcpy(l->buf + l->len, token, n);
    l->len += n;
}

static void tag(FILE *out, const char *name, const char *value) {
    fprintf(out, "[%s \"", name);
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c < 0x20 || *c == 0x7F ? ' ' : *c, out);
    }
    fputs("\"]\n", out);
}

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

static void write_tags(FILE *out, const MatchShared *sh, const GameRecord *rec) {
    const MatchConfig *cfg = sh->cfg;
    char round[16], fen[SCHACH_FEN_MAX], start[SCHACH_FEN_MAX], tc[48], plies[16];
    snprintf(round, sizeof round, "%d", rec->index + 1);
    tag(out, "Event", cfg->event ? cfg->event : "schach match");
    tag(out, "Site", "?");
    tag(out, "Date", rec->date);
    tag(out, "Round", round);
    tag(out, "White", sh->names[rec->first_color == WHITE ? 0 : 1]);
    tag(out, "Black", sh->names[rec->first_color == WHITE ? 1 : 0]);
    tag(out, "Result", result_string(rec->game.outcome.result));
    Position standard;
    pos_set_start(&standard);
    fen_write(&rec->game.start, fen, sizeof fen);
    fen_write(&standard, start, sizeof start);
    if (strcmp(fen, start)) {
        tag(out, "SetUp", "1");
        tag(out, "FEN", fen);
    }
    time_control(cfg, tc, sizeof tc);
    tag(out, "TimeControl", tc);
    tag(out, "Termination", match_termination_tag(rec));
    snprintf(plies, sizeof plies, "%d", rec->game.ply_count);
    tag(out, "PlyCount", plies);
}

/* "{+0.35/12 0.213s}" / "{-M3/20 1.002s}" / "{book}". */
static void note_comment(const MoveNote *n, char *buf, size_t size) {
    if (!n->engine) {
        snprintf(buf, size, "{book}");
        return;
    }
    char score[32] = "";
    if (n->has_score && n->is_mate)
        snprintf(score, sizeof score, "%sM%d/%d ", n->score > 0 ? "+" : "-", n->score > 0 ? n->score : -n->score,
                 n->depth);
    else if (n->has_score)
        snprintf(score, sizeof score, "%s%d.%02d/%d ", n->score < 0 ? "-" : "+",
                 (n->score < 0 ? -n->score : n->score) / 100, (n->score < 0 ? -n->score : n->score) % 100, n->depth);
    snprintf(buf, size, "{%s%lld.%03llds}", score, (long long)(n->time_ms / 1000), (long long)(n->time_ms % 1000));
}

static void write_moves(FILE *out, const MatchShared *sh, const GameRecord *rec) {
    Line l = {.out = out};
    Position pos = rec->game.start;
    for (int i = 0; i < rec->game.ply_count; i++) {
        Move m = rec->game.plies[i].move;
        char san[SCHACH_MOVE_TEXT_MAX], unit[SCHACH_MOVE_TEXT_MAX + 16], comment[64];
        san_write(&pos, m, LANG_EN, san, sizeof san);
        if (pos_turn(&pos) == WHITE)
            snprintf(unit, sizeof unit, "%u. %s", (unsigned)pos.fullmove, san);
        else if (i == 0 || sh->cfg->pgn_comments)
            snprintf(unit, sizeof unit, "%u... %s", (unsigned)pos.fullmove, san);
        else
            snprintf(unit, sizeof unit, "%s", san);
        line_put(&l, unit);
        if (sh->cfg->pgn_comments && i < rec->note_capacity) {
            note_comment(&rec->notes[i], comment, sizeof comment);
            line_put(&l, comment);
        }
        Undo undo;
        pos_make(&pos, m, &undo);
    }
    char end[256], comment[260];
    match_describe_end(sh, rec, LANG_EN, end, sizeof end);
    snprintf(comment, sizeof comment, "{%s}", end);
    line_put(&l, comment);
    line_put(&l, result_string(rec->game.outcome.result));
    line_flush(&l);
}

bool match_write_pgn(FILE *out, const MatchShared *sh, const GameRecord *rec) {
    write_tags(out, sh, rec);
    fputc('\n', out);
    write_moves(out, sh, rec);
    fputc('\n', out);
    fflush(out);
    return !ferror(out);
}

static const char *color_word(Color c, Lang lang) {
    return lang == LANG_DE ? (c == WHITE ? "Weiß" : "Schwarz") : (c == WHITE ? "White" : "Black");
}

void match_describe_end(const MatchShared *sh, const GameRecord *rec, Lang lang, char *buf, size_t size) {
    (void)sh;
    bool de = lang == LANG_DE;
    char outcome[160], why[128] = "";
    outcome_describe(&rec->game.outcome, lang, outcome, sizeof outcome);
    Color c = rec->culprit < 0 ? WHITE : (rec->culprit == 0 ? rec->first_color : (Color)!rec->first_color);
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
        Color winner = rec->game.outcome.winner;
        snprintf(outcome, sizeof outcome, de ? "%s gewinnt %s" : "%s wins %s", color_word(winner, lang),
                 winner == WHITE ? (de ? "1:0" : "1-0") : (de ? "0:1" : "0-1"));
    }
    if (why[0])
        snprintf(buf, size, "%s: %s", why, outcome);
    else
        snprintf(buf, size, "%s", outcome);
}
