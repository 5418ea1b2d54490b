/* The UCI protocol loop (see uci.h): commands are read on the caller's thread, the search runs on a
 * thread of its own (uci_search.c), and both write whole lines to the output under one lock. This file
 * holds the loop, the line output and the splitting of lines into words; the commands live in
 * uci_options.c, uci_position.c, uci_go.c and uci_search.c. */
#define _POSIX_C_SOURCE 200809L /* getline */

#include "uci.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "schach/game.h"
#include "uci_internal.h"

/* ---- output ------------------------------------------------------------------------------------ */

/* Writes one line (a newline is added) and flushes it, whole even when both threads write. */
void uci_say(Uci *u, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out_lock);
    vfprintf(u->out, fmt, ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
    va_end(ap);
}

/* Input text as it may appear in a message: printable ASCII, cut to SHOWN_MAX characters. */
const char *uci_shown(const char *text, char *buf, size_t size) {
    size_t len = strlen(text);
    size_t keep = len > SHOWN_MAX ? SHOWN_MAX : len;
    sch_err_text_arg(text, keep, buf, size);
    if (len > keep && strlen(buf) + 4 <= size)
        strcat(buf, "...");
    return buf;
}

/* ---- tokens and numbers ------------------------------------------------------------------------ */

/* Splits line in place at blanks (space, tab, CR, other control characters). false when out of memory. */
static bool tokenize(char *line, Tokens *t) {
    t->n = 0;
    char *s = line;
    for (;;) {
        while (*s && (unsigned char)*s <= ' ')
            s++;
        if (!*s)
            return true;
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 64;
            char **v = realloc(t->v, cap * sizeof *v);
            if (!v)
                return false;
            t->v = v;
            t->cap = cap;
        }
        t->v[t->n++] = s;
        while (*s && (unsigned char)*s > ' ')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* A whole decimal integer (sign allowed) into *v; false for anything else or overflow. */
bool uci_parse_integer(const char *text, long long *v) {
    char *end = NULL;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        return false;
    *v = x;
    return true;
}

/* Joins tokens [from, to) with single spaces into a new string (NULL when out of memory). */
char *uci_join_tokens(const Tokens *t, size_t from, size_t to) {
    size_t len = 1;
    for (size_t i = from; i < to; i++)
        len += strlen(t->v[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    char *p = s;
    for (size_t i = from; i < to; i++) {
        size_t n = strlen(t->v[i]);
        if (i > from)
            *p++ = ' ';
        memcpy(p, t->v[i], n);
        p += n;
        *p = '\0';
    }
    return s;
}

/* ---- the loop ---------------------------------------------------------------------------------- */

static const char *const command_words[] = {"uci",        "debug",    "isready", "setoption", "register",
                                            "ucinewgame", "position", "go",      "stop",      "ponderhit",
                                            "quit",       "d",        "eval"};
enum { COMMAND_WORD_COUNT = sizeof command_words / sizeof command_words[0] };

static bool is_command(const char *word) {
    for (int i = 0; i < COMMAND_WORD_COUNT; i++)
        if (!strcmp(command_words[i], word))
            return true;
    return false;
}

/* Answers one command; false for quit. */
static bool dispatch(Uci *u, const Tokens *t, size_t i) {
    const char *cmd = t->v[i++];
    if (!strcmp(cmd, "uci"))
        uci_cmd_uci(u);
    else if (!strcmp(cmd, "isready"))
        uci_say(u, "readyok");
    else if (!strcmp(cmd, "setoption"))
        uci_cmd_setoption(u, t, i);
    else if (!strcmp(cmd, "ucinewgame")) {
        if (!uci_await_search(u))
            uci_say(u, "info string ucinewgame: refused during go infinite or go ponder (send stop first)");
        else
            engine_clear(u->engine);
    } else if (!strcmp(cmd, "position"))
        uci_cmd_position(u, t, i);
    else if (!strcmp(cmd, "go"))
        uci_cmd_go(u, t, i);
    else if (!strcmp(cmd, "stop"))
        uci_stop_search(u);
    else if (!strcmp(cmd, "ponderhit"))
        uci_cmd_ponderhit(u);
    else if (!strcmp(cmd, "quit"))
        return false;
    else if (!strcmp(cmd, "d"))
        uci_cmd_display(u);
    else if (!strcmp(cmd, "eval"))
        uci_cmd_eval(u);
    /* debug on|off and register need no answer: there is nothing to register or to debug yet. */
    return true;
}

/* Handles one input line; false for quit. Unknown words before a command are skipped (UCI 2.1). */
static bool handle_line(Uci *u, char *line, Tokens *t) {
    if (!tokenize(line, t)) {
        uci_say(u, "info string out of memory reading a line; line ignored");
        return true;
    }
    size_t i = 0;
    while (i < t->n && !is_command(t->v[i]))
        i++;
    char buf[SHOWN_MAX + 8];
    if (i == t->n) {
        if (t->n > 0)
            uci_say(u, "info string unknown command '%s'; line ignored", uci_shown(t->v[0], buf, sizeof buf));
        return true;
    }
    if (i > 0)
        uci_say(u, "info string unknown word '%s' before '%s' skipped", uci_shown(t->v[0], buf, sizeof buf), t->v[i]);
    return dispatch(u, t, i);
}

static bool uci_init(Uci *u, FILE *in, FILE *out, const char *version) {
    memset(u, 0, sizeof *u);
    u->in = in;
    u->out = out;
    u->version = version;
    uci_settings_default(&u->set);
    u->engine = engine_new(&u->set.engine);
    if (!u->engine)
        return false;
    pthread_mutex_init(&u->out_lock, NULL);
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cond, NULL);
    return true;
}

static void uci_release(Uci *u) {
    uci_stop_search(u);
    if (u->has_position)
        sch_game_free(&u->game);
    if (u->job_game_valid)
        sch_game_free(&u->job_game);
    engine_free(u->engine);
    pthread_cond_destroy(&u->cond);
    pthread_mutex_destroy(&u->lock);
    pthread_mutex_destroy(&u->out_lock);
}

int uci_loop(FILE *in, FILE *out, const char *version) {
    Uci u;
    if (!uci_init(&u, in, out, version)) {
        fputs("info string out of memory: cannot create the engine\n", out);
        fflush(out);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    Tokens tokens = {0};
    bool quit = false;
    while (!quit && getline(&line, &cap, in) >= 0)
        quit = !handle_line(&u, line, &tokens);
    if (!quit)
        uci_await_search(&u); /* end of input: a piped "go depth 8" still gets its full answer */
    free(line);
    free(tokens.v);
    uci_release(&u);
    return 0;
}
