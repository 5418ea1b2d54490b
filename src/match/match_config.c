/* Match configuration: defaults, engine specifications, time controls (see match.h). */
#include "match.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void match_config_init(MatchConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->games = 2;
    cfg->concurrency = 1;
    cfg->move_timeout_ms = 30000;
    cfg->startup_timeout_ms = 10000;
    cfg->report_every = 10;
    cfg->lang = SCH_LANG_EN;
    cfg->seed = 1;
}

/* Splits text at spaces and tabs in place, appending the words to spec->argv. */
static bool split_command(char *text, EngineSpec *spec) {
    for (char *p = text;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            return true;
        if (spec->argc >= MATCH_MAX_ARGS)
            return false;
        spec->argv[spec->argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
}

static bool parse_word(char *word, EngineSpec *spec, bool *has_cmd) {
    char *eq = strchr(word, '=');
    if (!eq || eq == word)
        return false;
    *eq = '\0';
    char *value = eq + 1;
    bool ok = true;
    if (!strcmp(word, "cmd")) {
        /* cmd= comes first in argv even when arg= words precede it. */
        EngineSpec words = {.argc = 0};
        ok = !*has_cmd && split_command(value, &words) && words.argc > 0 && words.argc + spec->argc <= MATCH_MAX_ARGS;
        if (ok) {
            memmove(spec->argv + words.argc, spec->argv, (size_t)spec->argc * sizeof spec->argv[0]);
            memcpy(spec->argv, words.argv, (size_t)words.argc * sizeof spec->argv[0]);
            spec->argc += words.argc;
            *has_cmd = true;
        }
    } else if (!strcmp(word, "arg")) {
        ok = spec->argc < MATCH_MAX_ARGS;
        if (ok)
            spec->argv[spec->argc++] = value;
    } else if (!strcmp(word, "name")) {
        ok = *value && strlen(value) < sizeof spec->name;
        if (ok)
            strcpy(spec->name, value);
    } else if (!strcmp(word, "dir")) {
        spec->dir = value;
    } else if (!strncmp(word, "option.", 7) && word[7]) {
        EngineOption *o = &spec->options[spec->option_count];
        ok = spec->option_count < MATCH_MAX_OPTIONS && strlen(word + 7) < sizeof o->name &&
             strlen(value) < sizeof o->value;
        if (ok) {
            strcpy(o->name, word + 7);
            strcpy(o->value, value);
            spec->option_count++;
        }
    } else {
        ok = false;
    }
    *eq = '=';
    return ok;
}

bool match_parse_engine(char **words, int count, EngineSpec *spec, const char **bad) {
    memset(spec, 0, sizeof *spec);
    bool has_cmd = false;
    for (int i = 0; i < count; i++) {
        if (!parse_word(words[i], spec, &has_cmd)) {
            *bad = words[i];
            return false;
        }
    }
    spec->argv[spec->argc] = NULL;
    if (!has_cmd) {
        *bad = NULL;
        return false;
    }
    return true;
}

/* Reads seconds with an optional fraction and an optional "M:" prefix into milliseconds. */
static bool parse_seconds(const char *text, size_t len, int64_t *ms) {
    int64_t whole = 0, minutes = 0, frac = 0, scale = 1000;
    size_t i = 0;
    bool digits = false;
    for (; i < len && isdigit((unsigned char)text[i]); i++, digits = true)
        whole = whole * 10 + (text[i] - '0');
    if (i < len && text[i] == ':' && digits) {
        minutes = whole;
        whole = 0;
        digits = false;
        for (i++; i < len && isdigit((unsigned char)text[i]); i++, digits = true)
            whole = whole * 10 + (text[i] - '0');
    }
    if (i < len && text[i] == '.') {
        for (i++; i < len && isdigit((unsigned char)text[i]); i++, digits = true)
            if (scale > 1) {
                scale /= 10;
                frac += (text[i] - '0') * scale;
            }
    }
    if (!digits || i != len || whole > 100000000 || minutes > 1000000)
        return false;
    *ms = (minutes * 60 + whole) * 1000 + frac;
    return true;
}

bool match_parse_tc(const char *text, int64_t *base_ms, int64_t *inc_ms) {
    const char *plus = strchr(text, '+');
    size_t base_len = plus ? (size_t)(plus - text) : strlen(text);
    *inc_ms = 0;
    if (!parse_seconds(text, base_len, base_ms) || *base_ms <= 0)
        return false;
    return !plus || parse_seconds(plus + 1, strlen(plus + 1), inc_ms);
}
