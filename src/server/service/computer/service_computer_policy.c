/* How the computer player behaves, as pure decisions over a game in memory (docs/api.md "Playing
 * against the computer"); service_computer.c does the plumbing (jobs, results, changes through the
 * store).
 *
 * It thinks within the game's time: with a live clock the engine manages its own clock and increment
 * as a player would; without one (no clock, correspondence, or a live game whose clock has not started
 * yet) each move gets the level's budget, so weaker levels answer faster. About draws it follows the
 * engine's policy (engine_draw_choice), the same as in `schach play`. */
#include <stdio.h>
#include <string.h>

#include "service_computer.h"
#include "service/service_state.h"

/* Thinking time per move without a running live clock: 150 ms at skill 0 up to 1450 ms at 20. */
static int budget_ms(const EngineLevel *level) { return 150 + 65 * (level ? level->skill : 20); }

const EngineLevel *svc_computer_level(const GameRecord *rec) {
    if (strcmp(rec->mode, "computer") != 0 || !rec->level[0])
        return NULL;
    return engine_level_find(rec->level);
}

int svc_computer_color(const GameRecord *rec) {
    if (strcmp(rec->mode, "computer") != 0)
        return -1;
    /* The person holds one side; the computer plays the side that has no secret. */
    return secret_is_set(rec->secret_hash[SCH_WHITE]) ? SCH_BLACK : SCH_WHITE;
}

void svc_computer_limits(const SvcGame *g, const ServiceComputerConfig *cfg, int64_t now, EngineLimits *out) {
    memset(out, 0, sizeof *out);
    if (g->rec.time.type == TIME_LIVE && svc_clock_running(g)) {
        for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
            int64_t left = svc_time_left(g, (SchColor)c, now);
            out->time[c] = left < 1 ? 1 : left > 1000000000 ? 1000000000 : (int)left; /* 0 would mean no clock */
            out->inc[c] = g->rec.time.increment * 1000;
        }
    } else {
        out->movetime = cfg && cfg->think_ms > 0 ? cfg->think_ms : budget_ms(g->level);
    }
    if (cfg && cfg->depth > 0)
        out->depth = cfg->depth;
}

SvcComputerAct svc_computer_choose(const SvcGame *g, SchMove best, int score, int *claim) {
    *claim = -1;
    switch (engine_draw_choice(&g->game, best, score)) {
        case ENGINE_DRAW_ACCEPT: return SVC_ACT_ACCEPT_DRAW;
        case ENGINE_DRAW_CLAIM: return SVC_ACT_CLAIM;
        case ENGINE_DRAW_CLAIM_WITH_MOVE: *claim = 0; return SVC_ACT_MOVE;
        case ENGINE_DRAW_NONE: break;
    }
    return SVC_ACT_MOVE;
}

bool svc_computer_accepts_offer(const SvcGame *g) {
    int score = g->score;
    if (!g->has_score) {
        const SchPosition *pos = sch_game_position(&g->game);
        score = engine_evaluate(pos);
        if ((int)sch_pos_turn(pos) != g->computer)
            score = -score;
    }
    return engine_accepts_draw(score);
}

json_t *svc_computer_json(const SvcGame *g) {
    if (g->computer < 0)
        return json_null();
    const EngineLevel *l = g->level;
    return json_pack("{s:s, s:s, s:s, s:s, s:i}", "color", g->computer == SCH_WHITE ? "white" : "black", "level",
                     l ? l->id : g->rec.level, "name", l ? l->name_en : g->rec.level, "name_de",
                     l ? l->name_de : g->rec.level, "elo", l ? l->elo : 0);
}

void svc_computer_name(const EngineLevel *level, SchLang lang, char *out, size_t size) {
    const char *name = level ? (lang == SCH_LANG_DE ? level->name_de : level->name_en) : "?";
    snprintf(out, size, "schach (%s)", name);
}

json_t *svc_levels_json(void) {
    int count = 0;
    const EngineLevel *levels = engine_levels(&count);
    json_t *list = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:i}", "id", levels[i].id, "name", levels[i].name_en,
                                              "name_de", levels[i].name_de, "elo", levels[i].elo));
    return json_pack("{s:o}", "levels", list);
}
