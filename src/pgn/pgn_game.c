/* A PGN game record: its tag pairs, the replayed game and the comments between its moves. */
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
    /* Recorded games may go on past a dead position no site detected; reading keeps every move
     * (schach pgn check reports where the position died). */
    game_set_dead_mode(&g->game, GAME_DEAD_MATERIAL_ONLY);
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
    for (int i = 0; i < g->comment_slots; i++)
        free(g->comments[i]);
    free(g->comments);
    g->comments = NULL;
    g->comment_slots = 0;
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

const char *pgn_comment(const PgnGame *g, int ply) {
    return ply >= 0 && ply < g->comment_slots ? g->comments[ply] : NULL;
}

/* A brace comment ends at the first '}', and the export format breaks lines itself: both become
 * blanks, and runs of blanks one space. NULL when nothing but blanks is left (or out of memory). */
static char *comment_text(const char *text, bool *oom) {
    size_t n = strlen(text);
    char *c = malloc(n + 1), *end = c;
    *oom = c == NULL;
    if (!c)
        return NULL;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        bool blank = *s < 0x20 || *s == 0x7F || *s == ' ' || *s == '}';
        if (!blank)
            *end++ = (char)*s;
        else if (end > c && end[-1] != ' ')
            *end++ = ' ';
    }
    while (end > c && end[-1] == ' ')
        end--;
    *end = '\0';
    if (end == c) {
        free(c);
        return NULL;
    }
    return c;
}

bool pgn_set_comment(PgnGame *g, int ply, const char *text) {
    if (ply < 0 || ply > g->game.ply_count)
        return false;
    bool oom = false;
    char *c = text ? comment_text(text, &oom) : NULL;
    if (oom)
        return false;
    if (ply >= g->comment_slots) {
        if (!c)
            return true;
        int slots = g->comment_slots ? g->comment_slots : 8;
        while (slots <= ply)
            slots *= 2;
        char **grown = realloc(g->comments, (size_t)slots * sizeof *grown);
        if (!grown) {
            free(c);
            return false;
        }
        for (int i = g->comment_slots; i < slots; i++)
            grown[i] = NULL;
        g->comments = grown;
        g->comment_slots = slots;
    }
    free(g->comments[ply]);
    g->comments[ply] = c;
    return true;
}

void pgn_trim_comments(PgnGame *g) {
    for (int i = g->game.ply_count + 1; i < g->comment_slots; i++) {
        free(g->comments[i]);
        g->comments[i] = NULL;
    }
}
