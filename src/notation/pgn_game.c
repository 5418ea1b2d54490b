/* A PGN game record: its tag pairs and the replayed game. */
#include "schach/pgn.h"

#include <stdlib.h>
#include <string.h>

/* strdup is POSIX, not C17. */
static char *copy_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

void pgn_game_init(PgnGame *g) {
    memset(g, 0, sizeof *g);
    game_init(&g->game);
    g->result = RESULT_NONE;
}

void pgn_game_free(PgnGame *g) {
    if (!g)
        return;
    for (int i = 0; i < g->tag_count; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    free(g->tags);
    g->tags = NULL;
    g->tag_count = g->tag_capacity = 0;
    game_free(&g->game);
}

const char *pgn_tag(const PgnGame *g, const char *name) {
    for (int i = 0; i < g->tag_count; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

bool pgn_set_tag(PgnGame *g, const char *name, const char *value) {
    char *v = copy_text(value);
    if (!v)
        return false;
    for (int i = 0; i < g->tag_count; i++) {
        if (strcmp(g->tags[i].name, name) == 0) {
            free(g->tags[i].value);
            g->tags[i].value = v;
            return true;
        }
    }
    if (g->tag_count == g->tag_capacity) {
        int cap = g->tag_capacity ? 2 * g->tag_capacity : 8;
        PgnTag *t = realloc(g->tags, (size_t)cap * sizeof *t);
        if (!t) {
            free(v);
            return false;
        }
        g->tags = t;
        g->tag_capacity = cap;
    }
    char *n = copy_text(name);
    if (!n) {
        free(v);
        return false;
    }
    g->tags[g->tag_count].name = n;
    g->tags[g->tag_count].value = v;
    g->tag_count++;
    return true;
}
