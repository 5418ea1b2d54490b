/* Playing one game between the two engines of a slot (see match_internal.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r, localtime_r, sigaction */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match_adjudicate.h"
#include "match_internal.h"
#include "schach/fen.h"
#include "schach/notation.h"

#define GRACE_US 200000 /* how long a quitting engine may take before it is killed */

/* Per game: the colours' engines and clocks. */
typedef struct Table {
    MatchShared *sh;
    Slot *slot;
    GameRecord *rec;
    int engine_of[2];    /* engine index playing WHITE / BLACK */
    int64_t clock_us[2]; /* remaining time of WHITE / BLACK */
    AdjudicationState adj;
} Table;

static void stop_engine(Slot *slot, int e) {
    if (slot->running[e])
        eproc_close(&slot->proc[e], GRACE_US);
    slot->running[e] = false;
}

/* Starts engine e of the slot when it is not running (first game, or after a failure). */
static bool ensure_running(MatchShared *sh, Slot *slot, int e) {
    if (slot->running[e])
        return true;
    const MatchConfig *cfg = sh->cfg;
    char label[MATCH_NAME_MAX + 16], why[256];
    snprintf(label, sizeof label, "%d:%s", slot->number, sh->names[e]);
    if (!eproc_start(&slot->proc[e], &cfg->engines[e], &sh->log, label, why, sizeof why))
        return false;
    if (!eproc_handshake(&slot->proc[e], &cfg->engines[e], cfg->startup_timeout_ms * 1000, &sh->abort_now, cfg->lang,
                         why, sizeof why)) {
        eproc_close(&slot->proc[e], GRACE_US);
        return false;
    }
    slot->running[e] = true;
    return true;
}

/* Ends the game by an error of the engine playing color. */
static void forfeit(Table *t, SchColor color, EndReason reason) {
    GameRecord *rec = t->rec;
    SchError err;
    sch_err_clear(&err);
    rec->reason = reason;
    rec->culprit = t->engine_of[color];
    if (reason == END_ILLEGAL)
        sch_game_abandon(&rec->game, color, &err);
    else
        sch_game_time_forfeit(&rec->game, color, &err); /* a draw when the opponent cannot mate (6.9) */
    if (reason != END_ILLEGAL)
        stop_engine(t->slot, t->engine_of[color]); /* hung or gone: a fresh process next game */
}

static bool prepare_engines(Table *t) {
    const MatchConfig *cfg = t->sh->cfg;
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        int e = t->engine_of[c];
        if (!ensure_running(t->sh, t->slot, e)) {
            forfeit(t, (SchColor)c, END_STARTUP);
            return false;
        }
        EngineProc *p = &t->slot->proc[e];
        if (!eproc_send(p, "ucinewgame", match_now_us() + cfg->startup_timeout_ms * 1000) ||
            !eproc_sync(p, cfg->startup_timeout_ms * 1000, &t->sh->abort_now)) {
            if (atomic_load(&t->sh->abort_now))
                return false;
            forfeit(t, (SchColor)c, p->eof ? END_CRASH : END_NO_ANSWER);
            return false;
        }
    }
    return true;
}

/* "position startpos moves ..." or "position fen ... moves ..." for the game so far. */
static char *position_command(const SchGame *g) {
    char fen[SCH_FEN_MAX], start[SCH_FEN_MAX];
    SchPosition standard;
    sch_pos_set_start(&standard);
    sch_fen_write(&g->start, fen, sizeof fen);
    sch_fen_write(&standard, start, sizeof start);
    size_t size = 32 + SCH_FEN_MAX + (size_t)g->ply_count * 6;
    char *cmd = malloc(size);
    if (!cmd)
        return NULL;
    size_t n = strcmp(fen, start) ? (size_t)snprintf(cmd, size, "position fen %s", fen)
                                  : (size_t)snprintf(cmd, size, "position startpos");
    if (g->ply_count > 0)
        n += (size_t)snprintf(cmd + n, size - n, " moves");
    SchPosition walk = g->start; /* Chess960 castling is written from the position it is played in */
    for (int i = 0; i < g->ply_count; i++) {
        char uci[SCH_MOVE_TEXT_MAX];
        SchUndo undo;
        sch_uci_write(&walk, g->plies[i].move, uci, sizeof uci);
        sch_pos_make(&walk, g->plies[i].move, &undo);
        n += (size_t)snprintf(cmd + n, size - n, " %s", uci);
    }
    return cmd;
}

static void go_command(const Table *t, char *buf, size_t size) {
    const MatchConfig *cfg = t->sh->cfg;
    size_t n = (size_t)snprintf(buf, size, "go");
    if (cfg->has_clock)
        n += (size_t)snprintf(buf + n, size - n, " wtime %lld btime %lld winc %lld binc %lld",
                              (long long)(t->clock_us[SCH_WHITE] / 1000), (long long)(t->clock_us[SCH_BLACK] / 1000),
                              (long long)cfg->inc_ms, (long long)cfg->inc_ms);
    if (cfg->nodes > 0)
        n += (size_t)snprintf(buf + n, size - n, " nodes %lld", (long long)cfg->nodes);
    if (cfg->depth > 0)
        n += (size_t)snprintf(buf + n, size - n, " depth %d", cfg->depth);
    if (cfg->movetime_ms > 0)
        snprintf(buf + n, size - n, " movetime %lld", (long long)cfg->movetime_ms);
}

/* Reads "depth N" and "score cp N | mate N" out of an info line. */
static void parse_info(const char *line, MoveNote *note) {
    char copy[ENGINE_LINE_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    char *tok = strtok_r(copy, " \t", &save);
    while (tok) {
        char *next = strtok_r(NULL, " \t", &save);
        if (!strcmp(tok, "depth") && next) {
            note->depth = atoi(next);
        } else if (!strcmp(tok, "score") && next) {
            char *value = strtok_r(NULL, " \t", &save);
            if (value && (!strcmp(next, "cp") || !strcmp(next, "mate"))) {
                note->has_score = true;
                note->is_mate = !strcmp(next, "mate");
                note->score = atoi(value);
            }
            next = strtok_r(NULL, " \t", &save);
        }
        tok = next;
    }
}

/* Waits for "bestmove" and copies its move word into move. */
static ReadStatus read_bestmove(EngineProc *p, int64_t deadline, const atomic_int *stop, MoveNote *note, char *move,
                                size_t size) {
    char line[ENGINE_LINE_MAX];
    for (;;) {
        ReadStatus st = eproc_read_line(p, line, sizeof line, deadline, stop);
        if (st != READ_LINE)
            return st;
        const char *s = line + strspn(line, " \t");
        if (!strncmp(s, "info", 4) && (s[4] == ' ' || s[4] == '\t'))
            parse_info(s, note);
        else if (!strncmp(s, "bestmove", 8) && (s[8] == ' ' || s[8] == '\t' || s[8] == '\0')) {
            s += 8;
            s += strspn(s, " \t");
            size_t n = strcspn(s, " \t");
            snprintf(move, size, "%.*s", (int)(n < size ? n : size - 1), s);
            return READ_LINE;
        }
    }
}

/* Centipawns for adjudication: mate scores become +-ADJ_MATE_SCORE. */
static int adjudication_score(const MoveNote *n) {
    if (!n->is_mate)
        return n->score;
    return n->score > 0 ? ADJ_MATE_SCORE : -ADJ_MATE_SCORE;
}

/* Stores the note of ply (0-based), growing the array as the game goes on. */
static bool record_note(GameRecord *rec, int ply, const MoveNote *note) {
    if (ply >= rec->note_capacity) {
        int cap = rec->note_capacity ? rec->note_capacity * 2 : 256;
        while (cap <= ply)
            cap *= 2;
        MoveNote *notes = realloc(rec->notes, (size_t)cap * sizeof *notes);
        if (!notes)
            return false;
        memset(notes + rec->note_capacity, 0, (size_t)(cap - rec->note_capacity) * sizeof *notes);
        rec->notes = notes;
        rec->note_capacity = cap;
    }
    rec->notes[ply] = *note;
    return true;
}

/* One move of the engine to move. Returns false when the game ended or was aborted. */
static bool play_move(Table *t) {
    const MatchConfig *cfg = t->sh->cfg;
    GameRecord *rec = t->rec;
    SchColor side = sch_pos_turn(sch_game_position(&rec->game));
    EngineProc *p = &t->slot->proc[t->engine_of[side]];
    char *pos_cmd = position_command(&rec->game);
    char go[160], move[32] = "";
    go_command(t, go, sizeof go);
    int64_t now = match_now_us();
    int64_t budget_us = cfg->has_clock ? t->clock_us[side] + cfg->timemargin_ms * 1000
                                       : (cfg->movetime_ms + cfg->move_timeout_ms) * 1000;
    bool sent = pos_cmd && eproc_send(p, pos_cmd, now + 1000000) && eproc_send(p, go, now + 1000000);
    free(pos_cmd);
    int64_t start = match_now_us();
    MoveNote note = {.engine = true};
    ReadStatus st = sent ? read_bestmove(p, start + budget_us, &t->sh->abort_now, &note, move, sizeof move) : READ_EOF;
    int64_t elapsed_us = match_now_us() - start;
    note.time_ms = elapsed_us / 1000;
    if (st == READ_STOPPED) {
        rec->reason = END_ABORTED;
        return false;
    }
    if (st == READ_EOF) {
        forfeit(t, side, END_CRASH);
        return false;
    }
    if (cfg->has_clock) {
        t->clock_us[side] -= elapsed_us;
        if (st == READ_TIMEOUT || t->clock_us[side] < -cfg->timemargin_ms * 1000) {
            rec->flag_used_ms = elapsed_us / 1000;
            rec->flag_clock_ms = (t->clock_us[side] + elapsed_us) / 1000;
            forfeit(t, side, END_TIME);
            return false;
        }
        t->clock_us[side] = (t->clock_us[side] > 0 ? t->clock_us[side] : 0) + cfg->inc_ms * 1000;
    } else if (st == READ_TIMEOUT) {
        forfeit(t, side, END_NO_ANSWER);
        return false;
    }
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_uci_parse(sch_game_position(&rec->game), move, &err);
    if (m == SCH_MOVE_NONE || !sch_game_play(&rec->game, m, &err)) {
        snprintf(rec->detail, sizeof rec->detail, "%s", move);
        forfeit(t, side, END_ILLEGAL);
        return false;
    }
    record_note(rec, rec->game.ply_count - 1, &note);
    if (sch_game_over(&rec->game)) {
        rec->reason = END_RULES;
        return false;
    }
    if (adjudicate_rules(&rec->game)) {
        rec->reason = END_CLAIM;
        return false;
    }
    SchColor loser = side;
    Adjudication a =
        adjudicate_scores(cfg, &t->adj, &rec->game, side, note.has_score, adjudication_score(&note), &loser);
    if (a != ADJ_NONE && adjudicate_apply(&rec->game, a, loser)) {
        rec->reason = a == ADJ_RESIGN ? END_ADJ_RESIGN : END_ADJ_DRAW;
        return false;
    }
    return true;
}

static void set_date(GameRecord *rec) {
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(rec->date, sizeof rec->date, "%Y.%m.%d", &tm);
    else
        snprintf(rec->date, sizeof rec->date, "????.??.??");
}

void match_play_game(MatchShared *sh, Slot *slot, const Opening *op, GameRecord *rec) {
    const MatchConfig *cfg = sh->cfg;
    rec->culprit = -1;
    rec->reason = END_NONE;
    set_date(rec);
    if (!openings_start_game(op, &rec->game)) {
        sch_game_init(&rec->game); /* cannot happen with a checked opening set */
        rec->reason = END_ABORTED;
        return;
    }
    if (cfg->chess960) /* castling to the engines as king takes rook, as UCI_Chess960 says */
        rec->game.start.chess960 = rec->game.pos.chess960 = 1;
    MoveNote book = {.engine = false};
    for (int i = 0; i < rec->game.ply_count; i++)
        record_note(rec, i, &book);
    Table t = {.sh = sh, .slot = slot, .rec = rec};
    t.engine_of[rec->first_color] = 0;
    t.engine_of[!rec->first_color] = 1;
    t.clock_us[SCH_WHITE] = t.clock_us[SCH_BLACK] = cfg->base_ms * 1000;
    if (adjudicate_rules(&rec->game)) { /* an opening ending in a claimable draw */
        rec->reason = END_CLAIM;
        return;
    }
    if (!prepare_engines(&t)) {
        if (rec->reason == END_NONE)
            rec->reason = END_ABORTED;
        return;
    }
    while (play_move(&t))
        ;
    if (rec->reason == END_ABORTED)
        for (int e = 0; e < 2; e++)
            stop_engine(slot, e); /* mid-search: do not reuse */
}

void match_record_free(GameRecord *rec) {
    sch_game_free(&rec->game);
    free(rec->notes);
    rec->notes = NULL;
    rec->note_capacity = 0;
}
