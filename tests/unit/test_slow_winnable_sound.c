/* Soundness of the winnability analysis against an independent exhaustive helpmate search
 * (helpmate_oracle.h), on 3,000 random legal positions: 2,200 with the kings and 1-4 other men, 800
 * built around locked pawn walls (kings anywhere, 0-2 pieces, a pawn or two taken away):
 *  - where the search finds a helpmate by a colour, sch_can_checkmate (full and quick mode) must never
 *    answer SCH_WIN_UNWINNABLE for that colour;
 *  - every SCH_WIN_WINNABLE answer's proof must replay with the rules core to checkmate;
 *  - a proof no longer than the depth searched must be matched by the search (checks the search);
 *  - where material alone shows a colour cannot mate (the plain rules written here), the analysis
 *    must say so in both modes and the search must find nothing;
 *  - the answers are the same when asked again, and sch_dead_position agrees with the two colours.
 * And a census of the small material sets: whether any checkmate exists at all for K+N or K+B
 * against K+Q, K+R, ... (none for K+N v K+Q, K+B v K+R, K+B v K+Q: that colour can never mate).
 * The positions come from a fixed seed, so every run checks the same ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpmate_oracle.h"
#include "schach/fen.h"
#include "schach/schach.h"

/* Positions per family. The search goes MIN_DEPTH plies deep, and one ply deeper at a time while
 * the next depth promises to stay under its node budget (estimated from the growth of the last
 * one: node counts, not time, so every run is the same), at most MAX_DEPTH: with DEEP_NODES where
 * the analysis says unwinnable (where soundness is at stake), with SAMPLE_NODES where the full mode
 * leaves the question open and on every SAMPLE-th position (to check the search against the
 * analysis's proofs). Where the full mode proves a helpmate and the quick mode does not deny it,
 * soundness is not in question and the search is skipped. */
#ifndef RANDOM_POSITIONS
#define RANDOM_POSITIONS 2200
#endif
#ifndef WALL_POSITIONS
#define WALL_POSITIONS 800
#endif
#define MIN_DEPTH    4
#define MAX_DEPTH    8
#define DEEP_NODES   150000
#define SAMPLE_NODES 15000
#define SAMPLE       4
/* The full mode's budget here: enough for the short helpmates these positions have. */
#define FULL_NODES 50000

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* splitmix64: a fixed sequence of good 64-bit numbers. */
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int rng_below(int n) { return (int)(rng_next() % (uint64_t)n); }

/* A random empty square; pawns never on the first or last rank. */
static SchSquare random_empty(const SchPosition *pos, bool pawn) {
    for (;;) {
        SchSquare s = (SchSquare)rng_below(64);
        if (pos->board[s] != SCH_NO_PIECE)
            continue;
        if (pawn && (sch_square_rank(s) == 0 || sch_square_rank(s) == 7))
            continue;
        return s;
    }
}

/* Pawns, minor pieces and rooks often, queens less: the interesting verdicts are near the edge of
 * what can mate. */
static SchPieceType random_type(void) {
    static const SchPieceType types[] = {SCH_PAWN,   SCH_PAWN,   SCH_PAWN,   SCH_PAWN,   SCH_KNIGHT,
                                         SCH_KNIGHT, SCH_KNIGHT, SCH_BISHOP, SCH_BISHOP, SCH_BISHOP,
                                         SCH_BISHOP, SCH_ROOK,   SCH_ROOK,   SCH_QUEEN};
    return types[rng_below((int)(sizeof types / sizeof types[0]))];
}

/* Keeps only positions sch_fen_parse accepts (the side not to move not in check, no impossible checks,
 * ...): writes pos as FEN and parses it back into pos. */
static bool legalise(SchPosition *pos, char *fen) {
    sch_pos_finish(pos);
    sch_fen_write(pos, fen, SCH_FEN_MAX);
    SchError err;
    return sch_fen_parse(pos, fen, &err);
}

/* Kings and 1-4 other men of either colour on random squares, either side to move. */
static bool random_sparse(SchPosition *pos, char *fen) {
    sch_pos_clear(pos);
    sch_pos_put(pos, SCH_W_KING, random_empty(pos, false));
    sch_pos_put(pos, SCH_B_KING, random_empty(pos, false));
    int men = 1 + rng_below(4);
    for (int i = 0; i < men; i++) {
        SchPieceType t = random_type();
        sch_pos_put(pos, sch_piece_make((SchColor)rng_below(2), t), random_empty(pos, t == SCH_PAWN));
    }
    pos->turn = (uint8_t)rng_below(2);
    return legalise(pos, fen);
}

/* Locked pawn structures (white pawns below, black pawns above, every pawn blocked head-on), as
 * board fields of a FEN. */
static const char *const walls[] = {
    "8/8/8/p1p1p1p1/P1P1P1P1/8/8/8",  "8/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8",
    "8/8/8/p1p1p3/P1P1P3/8/8/8",      "8/8/1p1p4/pPpP1p1p/P1P2P1P/8/8/8",
    "8/8/8/2p1p3/1pP1Pp2/1P3P2/8/8",  "8/8/p7/Pp1p1p2/1P1P1P2/8/8/8",
    "8/8/8/3p1p2/p1pP1P1p/P1P4P/8/8", "8/8/8/pp6/PP6/8/8/8",
    "8/8/p1p5/P1P5/8/8/8/8",          "8/3p4/2pP4/1pP5/1P6/8/8/8",
};

/* One of the walls with 0-2 of its pawns taken away, the kings on random squares and 0-2 other
 * pieces: positions near the locked structures the static analysis judges. */
static bool random_wall(SchPosition *pos, char *fen) {
    char text[SCH_FEN_MAX + 16];
    snprintf(text, sizeof text, "%s w - - 0 1", walls[rng_below((int)(sizeof walls / sizeof walls[0]))]);
    /* Parsing a FEN without kings fails; read the board by hand. */
    sch_pos_clear(pos);
    int rank = 7, file = 0;
    for (const char *p = text; *p && *p != ' '; p++) {
        if (*p == '/') {
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else {
            sch_pos_put(pos, *p == 'P' ? SCH_W_PAWN : SCH_B_PAWN, sch_square_make(file++, rank));
        }
    }
    int drop = rng_below(3);
    for (int i = 0; i < drop; i++) {
        SchSquare s = (SchSquare)rng_below(64);
        if (pos->board[s] != SCH_NO_PIECE) {
            /* Rebuild without s: there is no pos_remove. */
            SchPosition copy = *pos;
            sch_pos_clear(pos);
            for (int q = 0; q < 64; q++)
                if (q != (int)s && copy.board[q] != SCH_NO_PIECE)
                    sch_pos_put(pos, (SchPiece)copy.board[q], (SchSquare)q);
        }
    }
    sch_pos_put(pos, SCH_W_KING, random_empty(pos, false));
    sch_pos_put(pos, SCH_B_KING, random_empty(pos, false));
    int pieces = rng_below(3);
    for (int i = 0; i < pieces; i++) {
        static const SchPieceType types[] = {SCH_KNIGHT, SCH_BISHOP, SCH_BISHOP, SCH_BISHOP, SCH_ROOK, SCH_QUEEN};
        sch_pos_put(pos, sch_piece_make((SchColor)rng_below(2), types[rng_below(6)]), random_empty(pos, false));
    }
    pos->turn = (uint8_t)rng_below(2);
    return legalise(pos, fen);
}

/* Material that can never mate, by the plain rules (no pawns anywhere for the last two): a bare
 * king; K+N against a bare king; bishops all on one square colour against a bare king. */
static bool plainly_insufficient(const SchPosition *pos, SchColor c) {
    SchBitboard ours = pos->by_color[c] & ~pos->by_type[SCH_KING], theirs = pos->by_color[!c] & ~pos->by_type[SCH_KING];
    if (!ours)
        return true;
    if (theirs || pos->by_type[SCH_PAWN])
        return false;
    if (ours == (ours & pos->by_type[SCH_KNIGHT]) && !sch_bb_more_than_one(ours))
        return true;
    return ours == (ours & pos->by_type[SCH_BISHOP]) &&
           (!(ours & SCH_BB_LIGHT_SQUARES) || !(ours & SCH_BB_DARK_SQUARES));
}

typedef struct Counts {
    int positions, answers;
    int full[3], quick[3]; /* by Winnability */
    int helpmates, proofs, material, undetermined_with_helpmate, repeated, searched, unwinnable_searched;
    int depth[MAX_DEPTH + 1]; /* answers by the depth the search completed */
    uint64_t oracle_nodes;
} Counts;

/* The search, deepened one ply at a time while the next depth promises to stay within budget
 * nodes: returns the length of a shortest helpmate (or -1) and the depth it completed in *depth. */
static int search_helpmate(const SchPosition *start, SchColor c, uint64_t budget, SchMove *line, int *depth,
                           uint64_t *nodes) {
    SchPosition pos = *start;
    uint64_t used = 0, last = 1, before = 1;
    for (int d = 0; d <= MAX_DEPTH; d++) {
        int len = -1;
        uint64_t spent = 0;
        bool found = oracle_dfs(&pos, c, d, 0, line, &len, &spent);
        used += spent;
        *depth = d;
        if (found) {
            *nodes += used;
            return len;
        }
        before = last;
        last = spent;
        /* The next depth costs about spent * (spent / before) nodes. */
        if (d >= MIN_DEPTH && (double)spent * (double)spent / (double)before > (double)budget)
            break;
    }
    *nodes += used;
    return -1;
}

static void check_answer(const char *fen, const SchPosition *pos, SchColor c, const char *mode, const SchWinResult *r) {
    char why[160];
    const char *side = c == SCH_WHITE ? "white" : "black";
    if (r->verdict == SCH_WIN_WINNABLE && !oracle_replay(pos, c, r, why, sizeof why))
        fail_msg("%s: %s mode, %s winnable, but the proof fails: %s", fen, mode, side, why);
    if (r->verdict == SCH_WIN_UNWINNABLE && (r->reason <= SCH_WIN_REASON_NONE || r->reason >= SCH_WIN_REASON_NB))
        fail_msg("%s: %s mode, %s unwinnable without a reason (%d)", fen, mode, side, (int)r->reason);
}

static void check_position(const char *fen, const SchPosition *pos, SchWinWork *work, Counts *k) {
    static const SchWinLimits quick = {true, 0}, full = {false, FULL_NODES};
    k->positions++;
    SchWinResult res[2];
    for (int ci = 0; ci < 2; ci++) {
        SchColor c = (SchColor)ci;
        const char *side = c == SCH_WHITE ? "white" : "black";
        SchWinResult rq, *rf = &res[c];
        sch_can_checkmate(pos, c, &quick, work, &rq);
        sch_can_checkmate(pos, c, &full, work, rf);
        check_answer(fen, pos, c, "quick", &rq);
        check_answer(fen, pos, c, "full", rf);
        k->answers++;
        k->quick[rq.verdict]++;
        k->full[rf->verdict]++;
        k->proofs += (rq.verdict == SCH_WIN_WINNABLE) + (rf->verdict == SCH_WIN_WINNABLE);
        if (rq.verdict != SCH_WIN_UNDETERMINED && rf->verdict != SCH_WIN_UNDETERMINED && rq.verdict != rf->verdict)
            fail_msg("%s: %s: quick says %s, full says %s", fen, side, sch_win_verdict_name(rq.verdict),
                     sch_win_verdict_name(rf->verdict));

        bool plain = plainly_insufficient(pos, c), lib = sch_win_material_insufficient(pos, c);
        if (plain) {
            k->material++;
            if (!lib)
                fail_msg("%s: %s cannot mate by material, win_material_insufficient says it can", fen, side);
            if (rq.verdict != SCH_WIN_UNWINNABLE || rf->verdict != SCH_WIN_UNWINNABLE)
                fail_msg("%s: %s cannot mate by material, but quick says %s and full %s", fen, side,
                         sch_win_verdict_name(rq.verdict), sch_win_verdict_name(rf->verdict));
        }

        /* The search: thorough where the analysis says unwinnable, a sample elsewhere. */
        bool unwinnable = rq.verdict == SCH_WIN_UNWINNABLE || rf->verdict == SCH_WIN_UNWINNABLE;
        bool sampled = rf->verdict == SCH_WIN_UNDETERMINED || k->positions % SAMPLE == 0;
        if (!unwinnable && !sampled)
            continue;
        SchMove line[MAX_DEPTH];
        int depth;
        int found = search_helpmate(pos, c, unwinnable ? DEEP_NODES : SAMPLE_NODES, line, &depth, &k->oracle_nodes);
        k->searched++;
        k->unwinnable_searched += unwinnable;
        k->depth[depth]++;
        if (found >= 0) {
            char text[64];
            oracle_line_text(line, found, text, sizeof text);
            k->helpmates++;
            if (rq.verdict == SCH_WIN_UNWINNABLE || rf->verdict == SCH_WIN_UNWINNABLE)
                fail_msg("%s: %s has the helpmate %s, but the analysis says unwinnable (quick: %s, full: %s/%s)", fen,
                         side, text, sch_win_verdict_name(rq.verdict), sch_win_verdict_name(rf->verdict),
                         sch_win_reason_name(rf->reason) ? sch_win_reason_name(rf->reason) : "-");
            if (rf->verdict == SCH_WIN_UNDETERMINED) {
                k->undetermined_with_helpmate++;
                print_message("full mode (%d nodes) undetermined, yet %s has the %d-ply helpmate %s: %s\n", FULL_NODES,
                              side, found, text, fen);
            }
        }
        if ((plain || lib) && found >= 0)
            fail_msg("%s: %s has a helpmate, yet material is said to be insufficient", fen, side);
        if (rf->verdict == SCH_WIN_WINNABLE && rf->line_len <= depth && (found < 0 || found > rf->line_len))
            fail_msg(
                "%s: the analysis proves a %d-ply helpmate by %s the search (depth %d) missed: the search is wrong",
                fen, rf->line_len, side, depth);
    }

    /* Asked again (every fourth position, to save time), the answers are the same; sch_dead_position
     * agrees with the colours' answers. */
    if (k->positions % 4 == 0) {
        k->repeated++;
        for (int c = 0; c < 2; c++) {
            SchWinResult again;
            sch_can_checkmate(pos, (SchColor)c, &full, work, &again);
            if (again.verdict != res[c].verdict || again.nodes != res[c].nodes)
                fail_msg("%s: asked twice about %s: %s (%llu nodes), then %s (%llu nodes)", fen, c ? "black" : "white",
                         sch_win_verdict_name(res[c].verdict), (unsigned long long)res[c].nodes,
                         sch_win_verdict_name(again.verdict), (unsigned long long)again.nodes);
        }
        SchWinResult both[2];
        SchWinnability dead = sch_dead_position(pos, &full, work, both);
        SchWinnability expect = SCH_WIN_UNDETERMINED;
        if (res[SCH_WHITE].verdict == SCH_WIN_WINNABLE || res[SCH_BLACK].verdict == SCH_WIN_WINNABLE)
            expect = SCH_WIN_WINNABLE;
        else if (res[SCH_WHITE].verdict == SCH_WIN_UNWINNABLE && res[SCH_BLACK].verdict == SCH_WIN_UNWINNABLE)
            expect = SCH_WIN_UNWINNABLE;
        if (dead != expect)
            fail_msg("%s: dead_position says %s, the colours say %s and %s", fen, sch_win_verdict_name(dead),
                     sch_win_verdict_name(res[SCH_WHITE].verdict), sch_win_verdict_name(res[SCH_BLACK].verdict));
    }
}

static void print_counts(const char *family, const Counts *k) {
    print_message("%s: %d positions, %d answers (position and colour)\n", family, k->positions, k->answers);
    print_message("  full:  %d winnable, %d unwinnable, %d undetermined\n", k->full[SCH_WIN_WINNABLE],
                  k->full[SCH_WIN_UNWINNABLE], k->full[SCH_WIN_UNDETERMINED]);
    print_message("  quick: %d winnable, %d unwinnable, %d undetermined\n", k->quick[SCH_WIN_WINNABLE],
                  k->quick[SCH_WIN_UNWINNABLE], k->quick[SCH_WIN_UNDETERMINED]);
    print_message("  search: %d answers searched (%d of them unwinnable), %d helpmates found (%d of them left "
                  "undetermined by the full mode), %llu nodes; depth completed:",
                  k->searched, k->unwinnable_searched, k->helpmates, k->undetermined_with_helpmate,
                  (unsigned long long)k->oracle_nodes);
    for (int d = MIN_DEPTH; d <= MAX_DEPTH; d++)
        print_message(" %d plies %d,", d, k->depth[d]);
    print_message("\n  %d proofs replayed, %d material cases, %d positions asked twice\n", k->proofs, k->material,
                  k->repeated);
}

static void run_family(const char *family, bool (*make)(SchPosition *, char *), int count, Counts *k) {
    SchWinWork *work = sch_win_work_new(0);
    assert_non_null(work);
    SchPosition pos;
    char fen[SCH_FEN_MAX];
    for (int made = 0; made < count;) {
        if (!make(&pos, fen))
            continue;
        made++;
        check_position(fen, &pos, work, k);
    }
    sch_win_work_free(work);
    print_counts(family, k);
}

static void test_random_sparse(void **state) {
    (void)state;
    Counts k = {0};
    run_family("kings and 1-4 men", random_sparse, RANDOM_POSITIONS, &k);
    /* The test did something: the searches found helpmates and the material rules applied. */
    assert_int_equal(k.positions, RANDOM_POSITIONS);
    assert_true(k.unwinnable_searched >= RANDOM_POSITIONS / 4 && k.searched >= RANDOM_POSITIONS / 2);
    assert_true(k.helpmates >= RANDOM_POSITIONS / 20);
    assert_true(k.material >= 50);
    assert_true(k.full[SCH_WIN_UNWINNABLE] >= k.material);
    assert_true(k.proofs >= RANDOM_POSITIONS);
}

static void test_random_walls(void **state) {
    (void)state;
    Counts k = {0};
    run_family("locked pawn walls, kings anywhere, 0-2 pieces", random_wall, WALL_POSITIONS, &k);
    assert_int_equal(k.positions, WALL_POSITIONS);
    assert_true(k.unwinnable_searched >= 20 && k.searched >= WALL_POSITIONS / 2);
    assert_true(k.helpmates >= 20);
    assert_true(k.proofs >= WALL_POSITIONS);
}

/* ---- census of checkmates with small material ------------------------------------------------ */

/* Counts the checkmates of the black king, black to move, with exactly these men: the white king,
 * the black king, a white piece and at most one black piece (no pawns). Every placement is tried;
 * without the black piece the white piece must already give check (the black piece could only
 * block it), which skips most placements. */
static long count_mates(SchPiece white, SchPiece black) {
    long mates = 0;
    for (int wk = 0; wk < 64; wk++)
        for (int bk = 0; bk < 64; bk++) {
            if (bk == wk || (sch_bb_king_attacks((SchSquare)wk) & sch_bb_square((SchSquare)bk)))
                continue;
            for (int w = 0; w < 64; w++) {
                if (w == wk || w == bk)
                    continue;
                SchPosition pos;
                sch_pos_clear(&pos);
                sch_pos_put(&pos, SCH_W_KING, (SchSquare)wk);
                sch_pos_put(&pos, SCH_B_KING, (SchSquare)bk);
                sch_pos_put(&pos, white, (SchSquare)w);
                pos.turn = SCH_BLACK;
                sch_pos_finish(&pos);
                if (!sch_pos_in_check(&pos))
                    continue;
                if (black == SCH_NO_PIECE) {
                    mates += !sch_gen_has_legal_move(&pos);
                    continue;
                }
                for (int b = 0; b < 64; b++) {
                    if (b == wk || b == bk || b == w)
                        continue;
                    SchPosition with = pos;
                    sch_pos_put(&with, black, (SchSquare)b);
                    sch_pos_finish(&with);
                    /* Legal: black in check, the white king (not to move) not attacked. */
                    if (sch_pos_in_check(&with) && !sch_pos_attacked_by(&with, (SchSquare)wk, SCH_BLACK) &&
                        !sch_gen_has_legal_move(&with))
                        mates++;
                }
            }
        }
    return mates;
}

static void test_material_census(void **state) {
    (void)state;
    /* White's knight or bishop against each black piece: a mate needs the black piece to block a
     * flight square without being able to take the checking piece. */
    static const struct {
        const char *name;
        SchPiece white, black;
        bool mates;
    } sets[] = {
        {"K+N v K", SCH_W_KNIGHT, SCH_NO_PIECE, false},  {"K+N v K+N", SCH_W_KNIGHT, SCH_B_KNIGHT, true},
        {"K+N v K+B", SCH_W_KNIGHT, SCH_B_BISHOP, true}, {"K+N v K+R", SCH_W_KNIGHT, SCH_B_ROOK, true},
        {"K+N v K+Q", SCH_W_KNIGHT, SCH_B_QUEEN, false}, {"K+B v K", SCH_W_BISHOP, SCH_NO_PIECE, false},
        {"K+B v K+N", SCH_W_BISHOP, SCH_B_KNIGHT, true}, {"K+B v K+B", SCH_W_BISHOP, SCH_B_BISHOP, true},
        {"K+B v K+R", SCH_W_BISHOP, SCH_B_ROOK, false},  {"K+B v K+Q", SCH_W_BISHOP, SCH_B_QUEEN, false},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        long mates = count_mates(sets[i].white, sets[i].black);
        print_message("%-10s %7ld checkmates of the lone side's king\n", sets[i].name, mates);
        if ((mates > 0) != sets[i].mates)
            fail_msg("%s: %ld checkmates, expected %s", sets[i].name, mates, sets[i].mates ? "some" : "none");
    }
    /* K+N v K+Q has no checkmate, and every capture leaves K+N v K (no checkmate either) or a bare
     * king: the knight's side can never mate, whatever the analysis makes of it. */
    SchPosition pos;
    SchError err;
    assert_true(sch_fen_parse(&pos, "8/8/8/3k4/8/2q5/8/4K1N1 w - - 0 1", &err));
    SchWinResult r;
    sch_can_checkmate(&pos, SCH_WHITE, NULL, NULL, &r);
    print_message("K+N v K+Q, white: %s (%s)\n", sch_win_verdict_name(r.verdict),
                  sch_win_reason_name(r.reason) ? sch_win_reason_name(r.reason) : "-");
    assert_int_not_equal(r.verdict, SCH_WIN_WINNABLE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_sparse),
        cmocka_unit_test(test_random_walls),
        cmocka_unit_test(test_material_census),
    };
    return cmocka_run_group_tests_name("winnability soundness", tests, NULL, NULL);
}
