/* schach_winhard: the hard labelled positions of the winnability analysis (tests/data/winnable_hard.epd).
 *
 *   schach_winhard gen SEED COUNT PGN...   candidate positions, one "FEN ; group=..." a line
 *   schach_winhard label [LIMIT]           reads candidates, writes labelled lines (see the data file's header)
 *   schach_winhard measure [--nodes N] FILE
 *                                          verdicts of sch_can_checkmate against the labels: wrong,
 *                                          undetermined, average time; dead positions a game ends
 *
 * gen makes three groups: "wall" (random rammed pawn walls and chains, kings and 0-3 pieces placed at
 * random), "game" (a position of a real game whose pawns are locked: an enemy pawn put in front of
 * every pawn that has none, the pieces thinned to 0-3 a side), "trap" (a wall with bishops of the
 * colour of their own pawns, knights and rooks shut in behind it).
 *
 * label proves each colour's label without trusting the analysis's verdicts: WINNABLE by a helpmate
 * (found by the analysis with a large budget, or by the exhaustive search below) that is replayed by
 * the rules core; UNWINNABLE by an exhaustive depth-first search of every position reachable from the
 * position by legal moves of both sides (positions told apart by their Zobrist keys), pruned only
 * where the would-be winner has nothing but the king left. A colour that neither proves within its
 * limits (LIMIT positions, default 3,000,000) is written "unknown" and left out of the figures. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/pgn.h"
#include "schach/schach.h"
#include "schach/winnable.h"

#define GAME_DEAD_NODES 100000 /* what a game's per-move check spends (SCH_GAME_DEAD_NODES) */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int below(int n) { return (int)(rnd() % (uint64_t)n); }

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- gen ---------------------------------------------------------------------------------------- */

typedef struct Board {
    int8_t sq[64]; /* piece + 1, 0 empty */
} Board;

static bool empty_at(const Board *b, int s) { return b->sq[s] == 0; }
static void put(Board *b, SchColor c, SchPieceType t, int s) { b->sq[s] = (int8_t)(sch_piece_make(c, t) + 1); }

/* A random empty square within ranks lo..hi (0-based). */
static int random_square(const Board *b, int lo, int hi) {
    for (int tries = 0; tries < 200; tries++) {
        int s = (lo + below(hi - lo + 1)) * 8 + below(8);
        if (empty_at(b, s))
            return s;
    }
    return -1;
}

static const SchPieceType piece_types[] = {SCH_KNIGHT, SCH_BISHOP, SCH_BISHOP, SCH_ROOK, SCH_QUEEN, SCH_KNIGHT};

/* Writes b as a FEN with side to move; false when the rules core refuses it. */
static bool finish_board(const Board *b, SchColor turn, char *fen, size_t size) {
    SchPosition pos;
    sch_pos_clear(&pos);
    for (int s = 0; s < 64; s++)
        if (b->sq[s])
            sch_pos_put(&pos, (SchPiece)(b->sq[s] - 1), (SchSquare)s);
    pos.turn = (uint8_t)turn;
    sch_pos_finish(&pos);
    char text[SCH_FEN_MAX];
    sch_fen_write(&pos, text, sizeof text);
    SchPosition check;
    SchError err;
    if (!sch_fen_parse(&check, text, &err))
        return false;
    if (!sch_gen_has_legal_move(&check))
        return false;
    snprintf(fen, size, "%s", text);
    return true;
}

/* Places kings and 0..max pieces a side, kings on their own side of the wall mostly. */
static void place_men(Board *b, int max_pieces, bool behind) {
    int wk = random_square(b, 0, behind ? 3 : 7);
    if (wk >= 0)
        put(b, SCH_WHITE, SCH_KING, wk);
    int bk = random_square(b, behind ? 4 : 0, 7);
    if (bk >= 0)
        put(b, SCH_BLACK, SCH_KING, bk);
    for (int c = 0; c < 2; c++) {
        int n = below(max_pieces + 1);
        for (int i = 0; i < n; i++) {
            int s = random_square(b, 0, 7);
            if (s >= 0)
                put(b, (SchColor)c, piece_types[below(6)], s);
        }
    }
}

/* A rammed wall: each file a white pawn with a black one right in front, or nothing; neighbouring
 * files' rams on ranks one apart make chains. */
static void make_wall(Board *b) {
    int rank = 2 + below(3); /* white pawn's rank, 0-based: 2..4 */
    for (int f = 0; f < 8; f++) {
        if (below(8) == 0) {
            rank = 1 + below(5);
            continue; /* an open file */
        }
        int step = below(3) - 1;
        int r = rank + step;
        if (r < 1)
            r = 1;
        if (r > 5)
            r = 5;
        /* Neighbouring rams on one rank could capture each other: keep them apart. */
        if (f > 0 && b->sq[r * 8 + f - 1] == (int8_t)(sch_piece_make(SCH_WHITE, SCH_PAWN) + 1))
            r = r < 5 ? r + 1 : r - 1;
        put(b, SCH_WHITE, SCH_PAWN, r * 8 + f);
        put(b, SCH_BLACK, SCH_PAWN, (r + 1) * 8 + f);
        rank = r;
    }
}

static int gen_wall(char *fen, size_t size) {
    Board b = {0};
    make_wall(&b);
    place_men(&b, 3, below(4) != 0);
    return finish_board(&b, (SchColor)below(2), fen, size);
}

/* A closed chain: every file rammed, neighbouring rams one rank apart (no pawn can capture, no
 * king can pass), less `gaps` files taken away (an open file, or a free pawn). wr[f] receives the
 * white pawn's rank on file f, -1 where the file is open. */
static void make_chain(Board *b, int gaps, int wr[8]) {
    int r = 1 + below(5);
    for (int f = 0; f < 8; f++) {
        if (f > 0) {
            int step = below(2) ? 1 : -1;
            if (r + step < 1 || r + step > 5)
                step = -step;
            r += step;
        }
        wr[f] = r;
    }
    for (int g = 0; g < gaps; g++) {
        int f = below(8);
        if (below(2))
            wr[f] = -1; /* open file */
        else
            wr[f] = -2 - wr[f]; /* only the white pawn stays: encoded below */
    }
    for (int f = 0; f < 8; f++) {
        if (wr[f] >= 0) {
            put(b, SCH_WHITE, SCH_PAWN, wr[f] * 8 + f);
            put(b, SCH_BLACK, SCH_PAWN, (wr[f] + 1) * 8 + f);
        } else if (wr[f] <= -2) {
            int rr = -2 - wr[f];
            if (below(2))
                put(b, SCH_WHITE, SCH_PAWN, rr * 8 + f);
            else
                put(b, SCH_BLACK, SCH_PAWN, (rr + 1) * 8 + f);
            wr[f] = rr;
        }
    }
}

/* An empty square behind colour c's side of the chain (files with an open file count as both). */
static int behind_square(const Board *b, SchColor c, const int wr[8]) {
    for (int tries = 0; tries < 200; tries++) {
        int f = below(8), r = below(8);
        int line = wr[f] < 0 ? 4 : wr[f];
        if (c == SCH_WHITE ? r > line : r < line + 1)
            continue;
        if (empty_at(b, r * 8 + f))
            return r * 8 + f;
    }
    return -1;
}

/* A closed chain (or one with a gap) with kings and 0-2 pieces a side (2-4 for a fortress) shut in
 * behind it. */
static int gen_chain(char *fen, size_t size, int gaps, bool fortress, bool bishops) {
    Board b = {0};
    int wr[8];
    make_chain(&b, gaps, wr);
    for (int c = 0; c < 2; c++) {
        int k = behind_square(&b, (SchColor)c, wr);
        if (k < 0)
            return 0;
        put(&b, (SchColor)c, SCH_KING, k);
    }
    for (int c = 0; c < 2; c++) {
        int n = fortress ? 2 + below(3) : bishops ? 1 + below(2) : below(3);
        for (int i = 0; i < n; i++) {
            int s = fortress || below(6) ? behind_square(&b, (SchColor)c, wr) : random_square(&b, 0, 7);
            if (s >= 0)
                put(&b, (SchColor)c, bishops && below(4) ? SCH_BISHOP : piece_types[below(6)], s);
        }
    }
    return finish_board(&b, (SchColor)below(2), fen, size);
}

typedef struct Games {
    SchPosition *items;
    size_t count, capacity;
} Games;

static void read_positions(const char *file, Games *set) {
    FILE *f = fopen(file, "rb");
    if (!f) {
        perror(file);
        exit(2);
    }
    SchError err;
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    SchPgnGame pg;
    int rc;
    while (r && (rc = sch_pgn_read_game(r, &pg, &err)) != 0) {
        if (rc > 0 && pg.game.ply_count > 30) {
            int pick = 30 + below(pg.game.ply_count - 30);
            SchPosition pos = pg.game.start;
            for (int i = 0; i < pick; i++) {
                SchUndo u;
                sch_game_make_ply(&pos, pg.game.plies[i].move, &u);
            }
            if (set->count == set->capacity) {
                set->capacity = set->capacity ? set->capacity * 2 : 256;
                set->items = realloc(set->items, set->capacity * sizeof *set->items);
                if (!set->items)
                    exit(2);
            }
            set->items[set->count++] = pos;
        }
        sch_pgn_game_free(&pg);
    }
    if (r)
        sch_pgn_reader_close(r);
    fclose(f);
}

/* A real game's position with its pawns locked and its pieces thinned. */
static int gen_game(const Games *games, char *fen, size_t size) {
    const SchPosition *pos = &games->items[below((int)games->count)];
    Board b = {0};
    SchBitboard pieces[2] = {0, 0};
    for (int s = 0; s < 64; s++) {
        SchPiece p = (SchPiece)pos->board[s];
        if (p == SCH_NO_PIECE)
            continue;
        if (sch_piece_type(p) == SCH_PAWN || sch_piece_type(p) == SCH_KING)
            b.sq[s] = (int8_t)(p + 1);
        else
            pieces[sch_piece_color(p)] |= sch_bb_square((SchSquare)s);
    }
    /* Lock: a pawn with an empty square right in front gets an enemy pawn there (if pawns may stand
     * there); one that cannot be locked so goes. */
    for (int s = 0; s < 64; s++) {
        if (!b.sq[s])
            continue;
        SchPiece p = (SchPiece)(b.sq[s] - 1);
        if (sch_piece_type(p) != SCH_PAWN)
            continue;
        SchColor c = sch_piece_color(p);
        int r = s / 8, dir = c == SCH_WHITE ? 1 : -1, front = s + 8 * dir;
        if (r + dir < 0 || r + dir > 7)
            continue;
        int8_t ahead = b.sq[front];
        if (ahead && sch_piece_type((SchPiece)(ahead - 1)) == SCH_PAWN)
            continue; /* blocked already, or behind its own pawn */
        if (!ahead && r + dir >= 1 && r + dir <= 6)
            b.sq[front] = (int8_t)(sch_piece_make((SchColor)!c, SCH_PAWN) + 1);
        else
            b.sq[s] = 0;
    }
    /* Keep 0-3 of each side's pieces, on their squares. */
    for (int c = 0; c < 2; c++) {
        int keep = below(4);
        SchBitboard left = pieces[c];
        while (left && keep > 0) {
            int n = sch_bb_count(left), k = below(n);
            SchBitboard it = left;
            SchSquare s = SCH_SQ_A1;
            for (int i = 0; i <= k; i++)
                s = sch_bb_pop(&it);
            left &= ~sch_bb_square(s);
            if (b.sq[s] == 0) {
                b.sq[s] = (int8_t)(pos->board[s] + 1);
                keep--;
            }
        }
    }
    return finish_board(&b, (SchColor)below(2), fen, size);
}

static int cmd_gen(int argc, char **argv) {
    if (argc < 2)
        return 2;
    rng ^= strtoull(argv[0], NULL, 10) * 0x9E3779B97F4A7C15ULL;
    int count = atoi(argv[1]);
    Games games = {0};
    for (int i = 2; i < argc; i++)
        read_positions(argv[i], &games);
    const char *only = getenv("WINHARD_GROUP"); /* one group only */
    int made[6] = {0, 0, 0, 0, 0, 0};
    static const char *const groups[6] = {"wall", "chain", "gap", "game", "fortress", "bishops"};
    for (int tries = 0; tries < count * 50 && made[0] + made[1] + made[2] + made[3] + made[4] + made[5] < count;
         tries++) {
        int g = tries % 6;
        if (only && strcmp(only, groups[g]) != 0)
            continue;
        if (g == 3 && games.count == 0)
            continue;
        if (!only && made[g] >= (count + 5) / 6)
            continue;
        char fen[SCH_FEN_MAX];
        int ok = g == 0   ? gen_wall(fen, sizeof fen)
                 : g == 1 ? gen_chain(fen, sizeof fen, 0, false, false)
                 : g == 2 ? gen_chain(fen, sizeof fen, 1, false, false)
                 : g == 3 ? gen_game(&games, fen, sizeof fen)
                 : g == 4 ? gen_chain(fen, sizeof fen, 0, true, false)
                          : gen_chain(fen, sizeof fen, below(2), false, true);
        if (!ok)
            continue;
        made[g]++;
        printf("%s ; group=%s\n", fen, groups[g]);
    }
    free(games.items);
    return 0;
}

/* ---- label: independent proofs ------------------------------------------------------------------- */

typedef struct KeySet {
    uint64_t *slots;
    size_t mask, count;
} KeySet;

/* Adds key; false when it was there already. */
static bool keyset_add(KeySet *k, uint64_t key) {
    key |= 1;
    size_t i = key & k->mask;
    while (k->slots[i]) {
        if (k->slots[i] == key)
            return false;
        i = (i + 1) & k->mask;
    }
    k->slots[i] = key;
    k->count++;
    return true;
}

typedef struct Frame {
    SchMoveList list;
    int next;
    SchUndo undo;
} Frame;

#define EX_DEPTH  20000
#define LINE_KEEP 4000

/* Every position reachable from start, depth first: 1 (and the line, when it is at most LINE_KEEP
 * plies) when one is checkmate by winner, 0 when every one was visited and none is, -1 past limit. */
static int exhaust(const SchPosition *start, SchColor winner, size_t limit, KeySet *seen, Frame *stack, SchMove *line,
                   int *line_len) {
    memset(seen->slots, 0, (seen->mask + 1) * sizeof *seen->slots);
    seen->count = 0;
    SchPosition pos = *start;
    keyset_add(seen, pos.key);
    int depth = 0;
    sch_gen_legal(&pos, &stack[0].list);
    stack[0].next = 0;
    while (depth >= 0) {
        Frame *f = &stack[depth];
        if (f->next == f->list.count) {
            if (--depth >= 0)
                sch_pos_unmake(&pos, stack[depth].list.moves[stack[depth].next - 1], &stack[depth].undo);
            continue;
        }
        SchMove m = f->list.moves[f->next++];
        sch_pos_make(&pos, m, &f->undo);
        if (!keyset_add(seen, pos.key)) {
            sch_pos_unmake(&pos, m, &f->undo);
            continue;
        }
        if (seen->count > limit || depth + 1 >= EX_DEPTH)
            return -1;
        Frame *down = &stack[depth + 1];
        int n = sch_gen_legal(&pos, &down->list);
        bool dead_end = n == 0 || !(pos.by_color[winner] & ~pos.by_type[SCH_KING]);
        if (n == 0 && pos.checkers && sch_pos_turn(&pos) != winner) {
            *line_len = 0;
            if (depth + 1 <= LINE_KEEP) {
                for (int i = 0; i <= depth; i++)
                    line[i] = stack[i].list.moves[stack[i].next - 1];
                *line_len = depth + 1;
            }
            return 1;
        }
        if (dead_end) {
            sch_pos_unmake(&pos, m, &f->undo);
            continue;
        }
        down->next = 0;
        depth++;
    }
    return 0;
}

static void write_line(const SchPosition *start, const SchMove *line, int len) {
    SchPosition p = *start;
    for (int i = 0; i < len; i++) {
        char uci[8];
        sch_uci_write(&p, line[i], uci, sizeof uci);
        printf(" %s", uci);
        SchUndo u;
        sch_pos_make(&p, line[i], &u);
    }
}

static bool replays(const SchPosition *start, SchColor winner, const SchMove *line, int len) {
    SchPosition p = *start;
    for (int i = 0; i < len; i++) {
        if (!sch_gen_is_legal(&p, line[i]))
            return false;
        SchUndo u;
        sch_pos_make(&p, line[i], &u);
    }
    return sch_pos_turn(&p) != winner && p.checkers && !sch_gen_has_legal_move(&p);
}

static int cmd_label(int argc, char **argv) {
    size_t limit = argc > 0 ? strtoull(argv[0], NULL, 10) : 3000000;
    KeySet seen;
    size_t cap = 1;
    while (cap < 2 * limit)
        cap <<= 1;
    seen.slots = calloc(cap, sizeof *seen.slots);
    seen.mask = cap - 1;
    Frame *stack = malloc(EX_DEPTH * sizeof *stack);
    SchMove *line = malloc(LINE_KEEP * sizeof *line);
    SchWinWork *work = sch_win_work_new((size_t)64 << 20);
    if (!seen.slots || !stack || !line || !work)
        return 2;
    SchWinLimits big = {false, 2000000};
    char buf[4096];
    while (fgets(buf, sizeof buf, stdin)) {
        buf[strcspn(buf, "\n")] = 0;
        char *semi = strchr(buf, ';');
        if (!semi || buf[0] == '#')
            continue;
        *semi = 0;
        const char *group = semi + 1;
        while (*group == ' ')
            group++;
        SchPosition pos;
        SchError err;
        if (!sch_fen_parse(&pos, buf, &err))
            continue;
        char fen[SCH_FEN_MAX];
        sch_fen_write(&pos, fen, sizeof fen);
        printf("%s", fen);
        for (int c = 0; c < 2; c++) {
            const char *side = c == SCH_WHITE ? "white" : "black";
            SchWinResult r;
            sch_can_checkmate(&pos, (SchColor)c, NULL, work, &r);
            if (r.verdict != SCH_WIN_WINNABLE)
                sch_can_checkmate(&pos, (SchColor)c, &big, work, &r);
            if (r.verdict == SCH_WIN_WINNABLE && replays(&pos, (SchColor)c, r.line, r.line_len)) {
                printf(" ; %s winnable", side);
                write_line(&pos, r.line, r.line_len);
                continue;
            }
            int len = 0;
            int v = exhaust(&pos, (SchColor)c, limit, &seen, stack, line, &len);
            if (v == 1 && len > 0 && replays(&pos, (SchColor)c, line, len)) {
                printf(" ; %s winnable", side);
                write_line(&pos, line, len);
            } else if (v == 0) {
                printf(" ; %s unwinnable exhaustive %zu", side, seen.count);
            } else {
                printf(" ; %s unknown", side);
            }
        }
        printf(" ; %s\n", group);
        fflush(stdout);
    }
    free(seen.slots);
    free(stack);
    free(line);
    sch_win_work_free(work);
    return 0;
}

/* ---- measure ------------------------------------------------------------------------------------ */

typedef struct Labelled {
    SchPosition pos;
    int label[2]; /* SCH_WIN_WINNABLE, SCH_WIN_UNWINNABLE, or SCH_WIN_UNDETERMINED for unknown */
    char group[16];
} Labelled;

/* Parses one line of the hard set; false for comments and blank lines. Exits on a bad line. */
static bool parse_labelled(char *buf, int lineno, Labelled *out) {
    buf[strcspn(buf, "\n")] = 0;
    if (!buf[0] || buf[0] == '#')
        return false;
    char *fields[8];
    int n = 0;
    for (char *tok = strtok(buf, ";"); tok && n < 8; tok = strtok(NULL, ";"))
        fields[n++] = tok;
    SchError err;
    if (n < 4 || !sch_fen_parse(&out->pos, fields[0], &err)) {
        fprintf(stderr, "line %d: bad line\n", lineno);
        exit(2);
    }
    out->label[0] = out->label[1] = SCH_WIN_UNDETERMINED;
    snprintf(out->group, sizeof out->group, "?");
    for (int i = 1; i < n; i++) {
        char *f = fields[i];
        while (*f == ' ')
            f++;
        int c = strncmp(f, "white ", 6) == 0 ? 0 : strncmp(f, "black ", 6) == 0 ? 1 : -1;
        if (c < 0) {
            if (strncmp(f, "group=", 6) == 0)
                sscanf(f + 6, "%15s", out->group);
            continue;
        }
        f += 6;
        if (strncmp(f, "winnable", 8) == 0) {
            /* The label's helpmate must replay to mate. */
            SchPosition p = out->pos;
            char *save = NULL;
            for (char *w = strtok_r(f + 8, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                SchMove m = sch_uci_parse(&p, w, &err);
                if (m == SCH_MOVE_NONE) {
                    fprintf(stderr, "line %d: illegal helpmate move %s\n", lineno, w);
                    exit(2);
                }
                SchUndo u;
                sch_pos_make(&p, m, &u);
            }
            if (!((int)sch_pos_turn(&p) != c && p.checkers && !sch_gen_has_legal_move(&p))) {
                fprintf(stderr, "line %d: the helpmate does not mate\n", lineno);
                exit(2);
            }
            out->label[c] = SCH_WIN_WINNABLE;
        } else if (strncmp(f, "unwinnable", 10) == 0) {
            out->label[c] = SCH_WIN_UNWINNABLE;
        }
    }
    return true;
}

static int cmd_measure(int argc, char **argv) {
    SchWinLimits full = {false, 0};
    const char *file = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
            full.nodes = strtoull(argv[++i], NULL, 10);
        else
            file = argv[i];
    }
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f) {
        fprintf(stderr, "usage: schach_winhard measure [--nodes N] FILE\n");
        return 2;
    }
    SchWinWork *work = sch_win_work_new(0);
    static const SchWinLimits quick = {true, 0};
    static const SchWinLimits game_full = {false, GAME_DEAD_NODES};
    char buf[16384];
    int lineno = 0, positions = 0, labels = 0, wrong = 0, undetermined = 0, unknown = 0, dead = 0, ended = 0,
        ended_quick = 0;
    int by_label[3][3] = {{0}};
    int unknown_verdicts[3] = {0, 0, 0};
    double total = 0, worst = 0;
    char worst_fen[SCH_FEN_MAX] = "";
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        Labelled l;
        if (!parse_labelled(buf, lineno, &l))
            continue;
        positions++;
        for (int c = 0; c < 2; c++) {
            if (l.label[c] == SCH_WIN_UNDETERMINED) {
                /* No proof to hold the verdict against: only counted. */
                SchWinResult r;
                sch_can_checkmate(&l.pos, (SchColor)c, &full, work, &r);
                unknown_verdicts[r.verdict]++;
                unknown++;
                continue;
            }
            labels++;
            SchWinResult r;
            double t0 = seconds();
            sch_can_checkmate(&l.pos, (SchColor)c, &full, work, &r);
            double t = seconds() - t0;
            total += t;
            if (t > worst) {
                worst = t;
                sch_fen_write(&l.pos, worst_fen, sizeof worst_fen);
            }
            by_label[l.label[c]][r.verdict]++;
            if (r.verdict == SCH_WIN_UNDETERMINED)
                undetermined++;
            else if ((int)r.verdict != l.label[c]) {
                wrong++;
                char fen[SCH_FEN_MAX];
                sch_fen_write(&l.pos, fen, sizeof fen);
                printf("WRONG: %s %s: %s\n", fen, c ? "black" : "white", sch_win_verdict_name(r.verdict));
            } else if (r.verdict == SCH_WIN_WINNABLE && !sch_win_proof_valid(&l.pos, (SchColor)c, &r)) {
                wrong++;
                printf("BAD PROOF at line %d\n", lineno);
            }
        }
        if (l.label[0] == SCH_WIN_UNWINNABLE && l.label[1] == SCH_WIN_UNWINNABLE) {
            /* What a game's per-move check does where this position arises: the quick pass, then the
             * full analysis at the game's budget when the quick pass sees a blockade. */
            dead++;
            SchWinResult res[2];
            SchWinnability v = sch_dead_position(&l.pos, &quick, NULL, res);
            if (v == SCH_WIN_UNWINNABLE)
                ended_quick++;
            if (v == SCH_WIN_UNDETERMINED && (res[0].blockade || res[1].blockade))
                v = sch_dead_position(&l.pos, &game_full, work, res);
            if (v == SCH_WIN_UNWINNABLE)
                ended++;
        }
    }
    fclose(f);
    sch_win_work_free(work);
    printf("%d positions, %d labels (%d unknown left out), budget %llu nodes\n", positions, labels, unknown,
           (unsigned long long)(full.nodes ? full.nodes : SCH_WIN_DEFAULT_NODES));
    printf("wrong: %d\nundetermined: %d of %d (%.1f %%): %d of %d winnable, %d of %d unwinnable\n", wrong, undetermined,
           labels, labels ? 100.0 * undetermined / labels : 0.0, by_label[SCH_WIN_WINNABLE][SCH_WIN_UNDETERMINED],
           by_label[SCH_WIN_WINNABLE][0] + by_label[SCH_WIN_WINNABLE][1] + by_label[SCH_WIN_WINNABLE][2],
           by_label[SCH_WIN_UNWINNABLE][SCH_WIN_UNDETERMINED],
           by_label[SCH_WIN_UNWINNABLE][0] + by_label[SCH_WIN_UNWINNABLE][1] + by_label[SCH_WIN_UNWINNABLE][2]);
    printf("average time per label: %.1f µs, worst %.1f ms (%s)\n", labels ? total / labels * 1e6 : 0.0, worst * 1e3,
           worst_fen);
    printf("colours without a label: %d winnable (proof replayed), %d unwinnable, %d undetermined\n",
           unknown_verdicts[SCH_WIN_WINNABLE], unknown_verdicts[SCH_WIN_UNWINNABLE],
           unknown_verdicts[SCH_WIN_UNDETERMINED]);
    printf("dead positions ended by a game's per-move check: %d of %d (%d by the quick pass alone)\n", ended, dead,
           ended_quick);
    return wrong ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "gen"))
        return cmd_gen(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "label"))
        return cmd_label(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "measure"))
        return cmd_measure(argc - 2, argv + 2);
    fprintf(stderr, "usage: schach_winhard gen SEED COUNT PGN... | label [LIMIT] | measure [--nodes N] FILE\n");
    return 2;
}
