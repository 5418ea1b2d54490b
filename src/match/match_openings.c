/* Loading, shuffling and replaying opening sets (see match_openings.h). */
#include "match_openings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/pgn.h"

#define TR(lang, en, de) ((lang) == SCH_LANG_DE ? (de) : (en))

/* The plies of g before its first null move: engines are given real moves only (UCI has no null
 * move), so an opening line from a PGN ends before a "--". */
static int real_plies(const SchGame *g) {
    int n = 0;
    while (n < g->ply_count && g->plies[n].move != SCH_MOVE_NULL)
        n++;
    return n;
}

static bool append(OpeningSet *set, const SchGame *g) {
    Opening *items = realloc(set->items, (size_t)(set->count + 1) * sizeof *items);
    if (!items)
        return false;
    set->items = items;
    Opening *o = &items[set->count];
    sch_fen_write(&g->start, o->fen, sizeof o->fen);
    o->ply_count = real_plies(g);
    o->moves = malloc((size_t)(o->ply_count > 0 ? o->ply_count : 1) * sizeof *o->moves);
    if (!o->moves)
        return false;
    for (int i = 0; i < o->ply_count; i++)
        o->moves[i] = g->plies[i].move;
    set->count++;
    return true;
}

static bool fail_oom(char *why, size_t size, SchLang lang) {
    snprintf(why, size, "%s", TR(lang, "out of memory", "kein Speicher frei"));
    return false;
}

/* Whether a game started from o is over before the engines move. Reading a PGN ends games by
 * material only (recorded games may go on past a dead position), so the line is replayed as a
 * match game replays it, which also ends it at a dead position (5.2.2). */
static bool opening_ends_game(const Opening *o) {
    SchGame g;
    if (!openings_start_game(o, &g))
        return true;
    bool over = sch_game_over(&g);
    sch_game_free(&g);
    return over;
}

bool openings_parse_pgn(OpeningSet *set, const char *text, size_t len, SchLang lang, char *why, size_t why_size) {
    memset(set, 0, sizeof *set);
    SchError err;
    sch_err_clear(&err);
    SchPgnReader *r = sch_pgn_reader_from_buffer(text, len, &err);
    if (!r)
        return fail_oom(why, why_size, lang);
    bool ok = true;
    SchPgnGame pg;
    int rc;
    while (ok && (rc = sch_pgn_read_game(r, &pg, &err)) != 0) {
        if (rc < 0) {
            char msg[256];
            sch_err_format(&err, lang, msg, sizeof msg);
            snprintf(why, why_size, TR(lang, "game %d, line %d, column %d: %s", "Partie %d, Zeile %d, Spalte %d: %s"),
                     err.game, err.line, err.column, msg);
            ok = false;
        } else if (sch_game_over(&pg.game) && real_plies(&pg.game) == pg.game.ply_count) {
            snprintf(why, why_size,
                     TR(lang, "game %d: the opening line ends the game", "Partie %d: die Eröffnung beendet die Partie"),
                     pg.number);
            ok = false;
        } else if (!append(set, &pg.game)) {
            ok = fail_oom(why, why_size, lang);
        } else if (opening_ends_game(&set->items[set->count - 1])) {
            snprintf(why, why_size,
                     TR(lang, "game %d: the opening line ends the game", "Partie %d: die Eröffnung beendet die Partie"),
                     pg.number);
            ok = false;
        }
        sch_pgn_game_free(&pg);
        sch_err_clear(&err);
    }
    sch_pgn_reader_close(r);
    if (ok && set->count == 0) {
        snprintf(why, why_size, "%s", TR(lang, "no opening found", "keine Eröffnung gefunden"));
        ok = false;
    }
    if (!ok)
        openings_free(set);
    return ok;
}

/* Copies the FEN part of one EPD line into fen: four fields, plus the clocks when they are numbers. */
static void epd_fen(const char *line, char *fen, size_t size) {
    const char *p = line;
    size_t out = 0;
    for (int field = 0; field < 6 && *p; field++) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, " \t;");
        if (n == 0)
            break;
        if (field >= 4) { /* a clock only when the word is all digits */
            for (size_t i = 0; i < n; i++)
                if (!isdigit((unsigned char)p[i]))
                    n = 0;
            if (n == 0)
                break;
        }
        if (out + n + 2 > size)
            break;
        if (out)
            fen[out++] = ' ';
        memcpy(fen + out, p, n);
        out += n;
        p += n;
    }
    fen[out] = '\0';
}

bool openings_parse_epd(OpeningSet *set, const char *text, SchLang lang, char *why, size_t why_size) {
    memset(set, 0, sizeof *set);
    int line_no = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\r\n");
        line_no++;
        char line[512], fen[SCH_FEN_MAX + 16];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n;
        if (*p == '\r')
            p++;
        if (*p == '\n')
            p++;
        const char *s = line + strspn(line, " \t");
        if (!*s || *s == '#')
            continue;
        epd_fen(s, fen, sizeof fen);
        SchGame g;
        SchError err;
        sch_err_clear(&err);
        bool good = sch_game_init_fen(&g, fen, &err);
        if (!good || sch_game_over(&g) || !append(set, &g)) {
            char msg[256];
            if (!good)
                sch_err_format(&err, lang, msg, sizeof msg);
            else
                snprintf(msg, sizeof msg, "%s",
                         TR(lang, "the game is over in this position", "die Partie ist in dieser Stellung beendet"));
            snprintf(why, why_size, TR(lang, "line %d: %s", "Zeile %d: %s"), line_no, msg);
            sch_game_free(&g);
            openings_free(set);
            return false;
        }
        sch_game_free(&g);
    }
    if (set->count == 0) {
        snprintf(why, why_size, "%s", TR(lang, "no position found", "keine Stellung gefunden"));
        return false;
    }
    return true;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
        }
        buf = bigger;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i])
            return false;
    return true;
}

bool openings_load(OpeningSet *set, const char *path, SchLang lang, char *why, size_t why_size) {
    memset(set, 0, sizeof *set);
    size_t len = 0;
    char *text = read_all(path, &len);
    if (!text) {
        snprintf(why, why_size, TR(lang, "cannot read %s: %s", "%s kann nicht gelesen werden: %s"), path,
                 strerror(errno));
        return false;
    }
    char inner[400];
    bool ok = ends_with(path, ".epd") || ends_with(path, ".fen")
                  ? openings_parse_epd(set, text, lang, inner, sizeof inner)
                  : openings_parse_pgn(set, text, len, lang, inner, sizeof inner);
    if (!ok)
        snprintf(why, why_size, "%s: %s", path, inner);
    free(text);
    return ok;
}

bool openings_standard(OpeningSet *set) {
    memset(set, 0, sizeof *set);
    SchGame g;
    sch_game_init(&g);
    bool ok = append(set, &g);
    sch_game_free(&g);
    return ok;
}

static uint64_t next_random(uint64_t *state);

bool openings_chess960(OpeningSet *set, const int *numbers, int count, uint64_t seed) {
    memset(set, 0, sizeof *set);
    uint64_t state = seed;
    for (int i = 0; i < count; i++) {
        int n = numbers ? numbers[i] : (int)(next_random(&state) % 960);
        SchGame g;
        /* From the number, not its FEN: the arrays whose castling looks standard stay Chess960. */
        bool ok = sch_game_init_chess960(&g, n, NULL) && append(set, &g);
        sch_game_free(&g);
        if (!ok)
            return false;
    }
    return true;
}

/* splitmix64: a small, well-mixed generator so that a seed gives the same order everywhere. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void openings_shuffle(OpeningSet *set, uint64_t seed) {
    uint64_t state = seed;
    for (int i = set->count - 1; i > 0; i--) {
        int j = (int)(next_random(&state) % (uint64_t)(i + 1));
        Opening t = set->items[i];
        set->items[i] = set->items[j];
        set->items[j] = t;
    }
}

bool openings_start_game(const Opening *o, SchGame *g) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_init_fen(g, o->fen, &err)) {
        sch_game_free(g);
        return false;
    }
    for (int i = 0; i < o->ply_count; i++)
        if (!sch_game_play(g, o->moves[i], &err)) {
            sch_game_free(g);
            return false;
        }
    return true;
}

void openings_free(OpeningSet *set) {
    for (int i = 0; i < set->count; i++)
        free(set->items[i].moves);
    free(set->items);
    set->items = NULL;
    set->count = 0;
}
