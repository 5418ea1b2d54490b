/* A PGN game record: its tag pairs, the replayed game and its tree, which holds every comment. */
#include "pgn_internal.h"

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

void sch_pgn_game_init(SchPgnGame *g) {
    memset(g, 0, sizeof *g);
    sch_game_init(&g->game);
    /* Recorded games may go on past a dead position no site detected; reading keeps every move
     * (schach pgn check reports where the position died). */
    sch_game_set_dead_mode(&g->game, SCH_GAME_DEAD_MATERIAL_ONLY);
    g->result = SCH_RESULT_NONE;
}

void sch_pgn_game_free(SchPgnGame *g) {
    if (!g)
        return;
    for (int i = 0; i < g->tag_count; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    free(g->tags);
    g->tags = NULL;
    g->tag_count = g->tag_capacity = 0;
    sch_pgn_tree_free(g->root);
    g->root = NULL;
    g->node_count = 0;
    sch_game_free(&g->game);
}

const char *sch_pgn_tag(const SchPgnGame *g, const char *name) {
    for (int i = 0; i < g->tag_count; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

bool sch_pgn_set_tag(SchPgnGame *g, const char *name, const char *value) {
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
        SchPgnTag *t = realloc(g->tags, (size_t)cap * sizeof *t);
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

int sch_pgn_main_cover(const SchPgnGame *g, SchPgnNode **last, bool *rest) {
    *last = g->root;
    *rest = false;
    if (!g->root)
        return 0;
    int k = 0;
    while (k < g->game.ply_count && (*last)->main && (*last)->main->move == g->game.plies[k].move) {
        *last = (*last)->main;
        k++;
    }
    *rest = k == g->game.ply_count && (*last)->main;
    return k;
}

/* The tree's node of main-line ply k when the tree holds it, else NULL. */
static SchPgnNode *main_node(const SchPgnGame *g, int ply) {
    SchPgnNode *last;
    bool rest;
    int k = sch_pgn_main_cover(g, &last, &rest);
    if (!last || ply > k)
        return NULL;
    for (; k > ply; k--)
        last = last->parent;
    return last;
}

const char *sch_pgn_comment(const SchPgnGame *g, int ply) {
    const SchPgnNode *n = ply >= 0 ? main_node(g, ply) : NULL;
    return n ? n->comment : NULL;
}

/* The tree's node of main-line ply k, created from the record as far as needed (a main line of the
 * tree that the record left is cut first); NULL when out of memory or past SCH_PGN_MAX_NODES. */
static SchPgnNode *record_node(SchPgnGame *g, int ply) {
    if (!sch_pgn_tree_root(g))
        return NULL;
    SchPgnNode *last;
    bool rest;
    int k = sch_pgn_main_cover(g, &last, &rest);
    if (ply <= k) {
        for (; k > ply; k--)
            last = last->parent;
        return last;
    }
    if (last->main) /* moves taken back and others played without sch_pgn_trim_comments */
        sch_pgn_node_cut(g, last);
    for (; k < ply; k++) {
        bool limit;
        last = sch_pgn_node_new(g, last, g->game.plies[k].move, &limit);
        if (!last)
            return NULL;
    }
    return last;
}

bool sch_pgn_set_comment(SchPgnGame *g, int ply, const char *text) {
    if (ply < 0 || ply > g->game.ply_count)
        return false;
    SchPgnNode *n = main_node(g, ply);
    if (!n && !text)
        return true;
    if (!n)
        n = record_node(g, ply);
    return n && sch_pgn_node_set_comment(n, false, text);
}

void sch_pgn_trim_comments(SchPgnGame *g) {
    SchPgnNode *last;
    bool rest;
    sch_pgn_main_cover(g, &last, &rest);
    if (last && last->main)
        sch_pgn_node_cut(g, last);
}
