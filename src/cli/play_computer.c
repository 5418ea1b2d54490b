/* schach play: the computer as a player - who it is, how long it thinks, and what it decides on its
 * turn (a move, a claim, the answer to a draw offer). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "play.h"

/* An Elo number in the engine's range, or 0. */
static int parse_elo(const char *text) {
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < ENGINE_ELO_MIN || v > ENGINE_ELO_MAX)
        return 0;
    return (int)v;
}

/* A level id or an Elo into *out (which says computer); false when it is neither. */
static bool parse_strength(const char *text, PlayPlayer *out) {
    out->computer = true;
    out->level = engine_level_find(text);
    out->elo = out->level ? 0 : parse_elo(text);
    return out->level || out->elo;
}

bool play_player_parse(const char *text, PlayPlayer *out) {
    memset(out, 0, sizeof *out);
    if (!strcasecmp(text, "human") || !strcasecmp(text, "mensch"))
        return true;
    if (!strcasecmp(text, "computer"))
        return parse_strength(PLAY_DEFAULT_LEVEL, out);
    if (!strncasecmp(text, "computer:", 9))
        return parse_strength(text + 9, out);
    return parse_strength(text, out);
}

void play_print_levels(FILE *out, SchLang lang) {
    int count = 0;
    const EngineLevel *levels = engine_levels(&count);
    for (int i = 0; i < count; i++) {
        const char *name = CLI_TR(lang, levels[i].name_en, levels[i].name_de);
        if (levels[i].elo > 0)
            fprintf(out, CLI_TR(lang, "    %-10s %s, about %d Elo\n", "    %-10s %s, etwa %d Elo\n"), levels[i].id,
                    name, levels[i].elo);
        else
            fprintf(out, "    %-10s %s\n", levels[i].id, name);
    }
    char range[24];
    snprintf(range, sizeof range, "%d-%d", ENGINE_ELO_MIN, ENGINE_ELO_MAX);
    fprintf(out,
            CLI_TR(lang, "    %-10s an Elo rating (the engine limits its strength to it)\n",
                   "    %-10s eine Elo-Zahl (die Engine begrenzt ihre Stärke darauf)\n"),
            range);
}

bool play_computer_init(PlayComputer *c, const PlayPlayer *spec, int think_ms, uint64_t nodes) {
    EngineOptions opt;
    engine_options_default(&opt);
    if (spec->level) {
        opt.skill = spec->level->skill;
    } else {
        opt.limit_strength = true;
        opt.elo = spec->elo;
    }
    c->spec = *spec;
    c->think_ms = think_ms;
    c->nodes = nodes;
    c->engine = engine_new(&opt);
    return c->engine != NULL;
}

void play_computer_free(PlayComputer *c) {
    engine_free(c->engine);
    c->engine = NULL;
}

PlayChoice play_computer_choose(PlayComputer *c, const SchGame *g) {
    EngineLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.movetime = c->think_ms;
    limits.nodes = c->nodes;
    EngineResult r = engine_search(c->engine, g, &limits, NULL, NULL);
    PlayChoice ch;
    memset(&ch, 0, sizeof ch);
    ch.move = r.best;
    ch.score = r.score;
    EngineDrawChoice draw = engine_draw_choice(g, r.best, r.score);
    ch.accept_draw = draw == ENGINE_DRAW_ACCEPT;
    ch.claim_now = draw == ENGINE_DRAW_CLAIM;
    ch.claim_with_move = draw == ENGINE_DRAW_CLAIM_WITH_MOVE;
    return ch;
}

void play_computer_describe(const PlayComputer *c, SchLang lang, char *buf, size_t size) {
    if (c->spec.level)
        snprintf(buf, size, "%s, %s", CLI_TR(lang, "computer", "Computer"),
                 CLI_TR(lang, c->spec.level->name_en, c->spec.level->name_de));
    else
        snprintf(buf, size, "%s, Elo %d", CLI_TR(lang, "computer", "Computer"), c->spec.elo);
}
