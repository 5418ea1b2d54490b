/* Engine: the tapered evaluation (see eval.h). Every term goes through add(), which also feeds the
 * tuner's trace, so the trace can never disagree with the evaluation. */
#include <stdlib.h>
#include <string.h>

#include "endgame.h"
#include "eval.h"
#include "schach/game.h"

typedef struct EvalInfo {
    const Position *pos;
    EvalTrace *trace;      /* NULL unless tracing */
    Score score[2];        /* sum of the terms of each colour */
    Bitboard attacked[2];  /* squares attacked by colour c */
    Bitboard attacked2[2]; /* ... at least twice */
    Bitboard attacked_by[2][PIECE_TYPE_NB];
    Bitboard mobility_area[2];
    Bitboard king_zone[2]; /* the king of colour c and the squares around it */
    int king_attackers[2]; /* pieces of colour c attacking the enemy king zone */
    int zone_hits[2][4];   /* attacked enemy king-zone squares, by attacker type - KNIGHT */
    Bitboard passed[2];
} EvalInfo;

static inline void add(EvalInfo *ei, int index, Color c, int count) {
    ei->score[c] += eval_params[index] * count;
    if (ei->trace)
        ei->trace->coeff[index][c] += count;
}

/* ---- board geometry ---- */

static inline Bitboard file_bb(int file) { return BB_FILE_A << file; }

static inline Bitboard adjacent_files(int file) {
    return (file > 0 ? file_bb(file - 1) : 0) | (file < 7 ? file_bb(file + 1) : 0);
}

/* Every square on ranks strictly ahead of `rank` as seen by colour c. */
static inline Bitboard ranks_ahead(Color c, int rank) {
    if (c == WHITE)
        return rank == 7 ? 0 : ~0ULL << (8 * (rank + 1));
    return rank == 0 ? 0 : ~0ULL >> (8 * (8 - rank));
}

static inline Bitboard front_span(Color c, Square s) {
    return file_bb(square_file(s)) & ranks_ahead(c, square_rank(s));
}

static inline Bitboard passed_span(Color c, Square s) {
    int f = square_file(s);
    return (file_bb(f) | adjacent_files(f)) & ranks_ahead(c, square_rank(s));
}

static inline int relative_rank(Color c, Square s) { return square_rank(square_relative(c, s)); }

static inline int distance(Square a, Square b) {
    int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
    return df > dr ? df : dr;
}

static inline int psqt_index(Color c, Square s) {
    Square r = square_relative(c, s);
    int f = square_file(r);
    return square_rank(r) * 4 + (f < 4 ? f : 7 - f);
}

/* ---- setup ---- */

static void note_attacks(EvalInfo *ei, Color c, PieceType t, Bitboard att) {
    ei->attacked2[c] |= ei->attacked[c] & att;
    ei->attacked[c] |= att;
    ei->attacked_by[c][t] |= att;
}

static void eval_info_init(EvalInfo *ei, const Position *pos, EvalTrace *trace) {
    memset(ei, 0, sizeof *ei);
    ei->pos = pos;
    ei->trace = trace;
    for (Color c = WHITE; c <= BLACK; c++) {
        Square king = pos_king(pos, c);
        note_attacks(ei, c, PAWN, bb_pawn_attacks_set(c, pos_pieces(pos, c, PAWN)));
        note_attacks(ei, c, KING, bb_king_attacks(king));
        ei->king_zone[c] = bb_king_attacks(king) | bb_square(king);
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        Bitboard own = pos_pieces(ei->pos, c, PAWN) | pos_pieces(ei->pos, c, KING);
        ei->mobility_area[c] = ~own & ~ei->attacked_by[!c][PAWN];
    }
}

/* ---- terms ---- */

static void eval_material(EvalInfo *ei, Color c) {
    for (PieceType t = PAWN; t <= KING; t++) {
        Bitboard b = pos_pieces(ei->pos, c, t);
        if (t != KING)
            add(ei, EP_MATERIAL + t, c, bb_count(b));
        while (b)
            add(ei, EP_PSQT + t * 32 + psqt_index(c, bb_pop(&b)), c, 1);
    }
}

static bool pawn_is_backward(const Position *pos, Color c, Square s) {
    Bitboard own = pos_pieces(pos, c, PAWN), theirs = pos_pieces(pos, !c, PAWN);
    Bitboard behind_or_level = ~ranks_ahead(c, square_rank(s)) & adjacent_files(square_file(s));
    Square stop = (Square)(c == WHITE ? s + 8 : s - 8);
    return !(own & behind_or_level) && (bb_pawn_attacks(c, stop) & theirs);
}

static void eval_pawn_structure(EvalInfo *ei, Color c) {
    const Position *pos = ei->pos;
    Bitboard own = pos_pieces(pos, c, PAWN), theirs = pos_pieces(pos, !c, PAWN);
    for (Bitboard b = own; b;) {
        Square s = bb_pop(&b);
        int f = square_file(s), r = relative_rank(c, s);
        Bitboard beside = own & adjacent_files(f) & (BB_RANK_1 << (8 * square_rank(s)));
        Bitboard supporters = own & bb_pawn_attacks(!c, s);
        bool doubled = (front_span(c, s) & own) != 0;
        if (doubled)
            add(ei, EP_PAWN_DOUBLED, c, 1);
        if (!(own & adjacent_files(f)))
            add(ei, EP_PAWN_ISOLATED, c, 1);
        else if (!supporters && !beside && pawn_is_backward(pos, c, s))
            add(ei, EP_PAWN_BACKWARD, c, 1);
        if (supporters | beside)
            add(ei, EP_PAWN_CONNECTED + r, c, 1);
        if (!doubled && !(passed_span(c, s) & theirs))
            ei->passed[c] |= bb_square(s);
    }
}

static uint64_t pawn_key(const Position *pos) {
    uint64_t w = pos_pieces(pos, WHITE, PAWN), b = pos_pieces(pos, BLACK, PAWN);
    uint64_t k = w * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return k ^ (k >> 29);
}

/* Pawn structure of both colours, from the cache when it has the entry. */
static void eval_pawns(EvalInfo *ei, PawnCache *cache) {
    uint64_t key = pawn_key(ei->pos);
    PawnEntry *entry = cache ? &cache->entries[key & (PAWN_CACHE_SIZE - 1)] : NULL;
    if (entry && entry->key == key) {
        ei->score[WHITE] += entry->score;
        ei->passed[WHITE] = entry->passed[WHITE];
        ei->passed[BLACK] = entry->passed[BLACK];
        return;
    }
    Score before = ei->score[WHITE] - ei->score[BLACK];
    eval_pawn_structure(ei, WHITE);
    eval_pawn_structure(ei, BLACK);
    if (entry)
        *entry = (PawnEntry){key, ei->score[WHITE] - ei->score[BLACK] - before, {ei->passed[WHITE], ei->passed[BLACK]}};
}

static Bitboard piece_attacks(const Position *pos, PieceType t, Square s) {
    return bb_attacks(t, s, pos_occupied(pos));
}

static bool is_outpost(const EvalInfo *ei, Color c, Square s) {
    int r = relative_rank(c, s);
    Bitboard enemy_pawns = pos_pieces(ei->pos, !c, PAWN);
    Bitboard attackable = adjacent_files(square_file(s)) & ranks_ahead(c, square_rank(s));
    return r >= 3 && r <= 5 && (bb_pawn_attacks(!c, s) & pos_pieces(ei->pos, c, PAWN)) && !(attackable & enemy_pawns);
}

static void eval_minor_extras(EvalInfo *ei, Color c, PieceType t, Square s) {
    if (is_outpost(ei, c, s))
        add(ei, t == KNIGHT ? EP_KNIGHT_OUTPOST : EP_BISHOP_OUTPOST, c, 1);
    Square front = (Square)(c == WHITE ? s + 8 : s - 8);
    if (relative_rank(c, s) < 7 && (pos_pieces(ei->pos, c, PAWN) | pos_pieces(ei->pos, !c, PAWN)) & bb_square(front))
        add(ei, EP_MINOR_BEHIND_PAWN, c, 1);
}

static void eval_rook_extras(EvalInfo *ei, Color c, Square s) {
    Bitboard file = file_bb(square_file(s));
    if (!(file & pos_pieces(ei->pos, c, PAWN)))
        add(ei, file & pos_pieces(ei->pos, !c, PAWN) ? EP_ROOK_SEMI_OPEN_FILE : EP_ROOK_OPEN_FILE, c, 1);
    Bitboard seventh = c == WHITE ? BB_RANK_7 : BB_RANK_2, eighth = c == WHITE ? BB_RANK_8 : BB_RANK_1;
    if ((bb_square(s) & seventh) &&
        ((pos_pieces(ei->pos, !c, PAWN) & seventh) || (pos_pieces(ei->pos, !c, KING) & eighth)))
        add(ei, EP_ROOK_SEVENTH, c, 1);
}

static const int mobility_base[PIECE_TYPE_NB] = {0, EP_MOB_KNIGHT, EP_MOB_BISHOP, EP_MOB_ROOK, EP_MOB_QUEEN, 0};

/* Mobility, king attacks and the piece's own terms for every piece of type t (KNIGHT..QUEEN). */
static void eval_pieces(EvalInfo *ei, Color c, PieceType t) {
    for (Bitboard b = pos_pieces(ei->pos, c, t); b;) {
        Square s = bb_pop(&b);
        Bitboard att = piece_attacks(ei->pos, t, s);
        note_attacks(ei, c, t, att);
        add(ei, mobility_base[t] + bb_count(att & ei->mobility_area[c]), c, 1);
        Bitboard zone = att & ei->king_zone[!c];
        if (zone) {
            ei->king_attackers[c]++;
            ei->zone_hits[c][t - KNIGHT] += bb_count(zone);
        }
        if (t == KNIGHT || t == BISHOP)
            eval_minor_extras(ei, c, t, s);
        else if (t == ROOK)
            eval_rook_extras(ei, c, s);
    }
}

/* Distance (1..6) to the nearest own pawn ahead of the king on `file`, 7 when there is none. */
static int shelter_distance(const Position *pos, Color c, Square king, int file) {
    Bitboard pawns = pos_pieces(pos, c, PAWN) & file_bb(file) & ranks_ahead(c, square_rank(king));
    if (!pawns)
        return 7;
    Square nearest = c == WHITE ? bb_lsb(pawns) : (Square)(63 - __builtin_clzll(pawns));
    return abs(square_rank(nearest) - square_rank(king));
}

/* The safety of c's king: its pawn shelter, and the attack terms of the enemy (credited to it). */
static void eval_king(EvalInfo *ei, Color c) {
    const Position *pos = ei->pos;
    Color them = (Color)!c;
    Square king = pos_king(pos, c);
    int kf = square_file(king);
    for (int f = kf - 1; f <= kf + 1; f++)
        if (f >= 0 && f < 8)
            add(ei, EP_KING_SHELTER + shelter_distance(pos, c, king, f), c, 1);
    if (!(pos_pieces(pos, c, PAWN) & file_bb(kf)))
        add(ei, EP_KING_OPEN_FILE, c, 1);

    /* Attacks count once two pieces join in (one piece alone rarely mates). */
    bool queen = pos_pieces(pos, them, QUEEN) != 0;
    if (ei->king_attackers[them] >= 2 || (queen && ei->king_attackers[them] >= 1 && ei->zone_hits[them][3]))
        for (int i = 0; i < 4; i++)
            add(ei, EP_KING_ATTACK + i, them, ei->zone_hits[them][i]);

    Bitboard occ = pos_occupied(pos);
    Bitboard safe = ~pos->by_color[them] & (~ei->attacked[c] | (ei->attacked2[them] & ~ei->attacked2[c]));
    Bitboard diagonal = bb_bishop_attacks(king, occ), straight = bb_rook_attacks(king, occ);
    Bitboard checks[4] = {bb_knight_attacks(king), diagonal, straight, diagonal | straight};
    for (PieceType t = KNIGHT; t <= QUEEN; t++) {
        int n = bb_count(checks[t - KNIGHT] & ei->attacked_by[them][t] & safe);
        if (n)
            add(ei, EP_SAFE_CHECK + t - KNIGHT, them, n);
    }
}

static void eval_passed(EvalInfo *ei, Color c) {
    const Position *pos = ei->pos;
    Square own_king = pos_king(pos, c), their_king = pos_king(pos, !c);
    for (Bitboard b = ei->passed[c]; b;) {
        Square s = bb_pop(&b);
        int r = relative_rank(c, s);
        Square stop = (Square)(c == WHITE ? s + 8 : s - 8);
        add(ei, EP_PASSED + r, c, 1);
        if (r > 2) {
            add(ei, EP_PASSED_KING_OWN, c, distance(own_king, stop) * (r - 2));
            add(ei, EP_PASSED_KING_THEIRS, c, distance(their_king, stop) * (r - 2));
        }
        if (pos_occupied(pos) & bb_square(stop))
            add(ei, EP_PASSED_BLOCKED + r, c, 1);
        else if (!(front_span(c, s) & ei->attacked[!c]))
            add(ei, EP_PASSED_FREE + r, c, 1);
    }
}

static void eval_threats(EvalInfo *ei, Color c) {
    const Position *pos = ei->pos;
    Color them = (Color)!c;
    Bitboard pieces = pos->by_color[them] & ~pos->by_type[PAWN] & ~pos->by_type[KING];
    Bitboard majors = pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN);
    Bitboard by_minor = ei->attacked_by[c][KNIGHT] | ei->attacked_by[c][BISHOP];
    add(ei, EP_THREAT_BY_PAWN, c, bb_count(ei->attacked_by[c][PAWN] & pieces));
    add(ei, EP_THREAT_BY_MINOR, c, bb_count(by_minor & majors));
    add(ei, EP_THREAT_BY_ROOK, c, bb_count(ei->attacked_by[c][ROOK] & pos_pieces(pos, them, QUEEN)));
    add(ei, EP_HANGING, c, bb_count(pieces & ei->attacked[c] & ~ei->attacked[them]));
}

static int game_phase(const Position *pos) {
    int phase = bb_count(pos->by_type[KNIGHT] | pos->by_type[BISHOP]) + 2 * bb_count(pos->by_type[ROOK]) +
                4 * bb_count(pos->by_type[QUEEN]);
    return phase < EVAL_PHASE_MAX ? phase : EVAL_PHASE_MAX;
}

/* Sum of the terms, blended and scaled, from white's point of view. */
static int eval_terms(EvalInfo *ei, PawnCache *cache) {
    const Position *pos = ei->pos;
    eval_material(ei, WHITE);
    eval_material(ei, BLACK);
    eval_pawns(ei, cache);
    for (PieceType t = KNIGHT; t <= QUEEN; t++) {
        eval_pieces(ei, WHITE, t);
        eval_pieces(ei, BLACK, t);
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        eval_king(ei, c);
        eval_passed(ei, c);
        eval_threats(ei, c);
        if (bb_more_than_one(pos_pieces(pos, c, BISHOP)))
            add(ei, EP_BISHOP_PAIR, c, 1);
    }
    add(ei, EP_TEMPO, pos_turn(pos), 1);

    Score total = ei->score[WHITE] - ei->score[BLACK];
    int mg = score_mg(total), eg = score_eg(total);
    int phase = game_phase(pos);
    int scale = endgame_scale(pos, eg >= 0 ? WHITE : BLACK);
    if (ei->trace) {
        ei->trace->phase = phase;
        ei->trace->scale = scale;
    }
    return (mg * phase + eg * (EVAL_PHASE_MAX - phase) * scale / 64) / EVAL_PHASE_MAX;
}

static int evaluate(const Position *pos, PawnCache *cache, EvalTrace *trace) {
    int white = 0;
    bool dead = pos_insufficient_material(pos);
    if (dead || endgame_basic_mate(pos, &white)) {
        if (trace)
            trace->special = true;
    } else {
        EvalInfo ei;
        eval_info_init(&ei, pos, trace);
        white = eval_terms(&ei, cache);
    }
    return pos_turn(pos) == WHITE ? white : -white;
}

int eval_position(const Position *pos, PawnCache *cache) { return evaluate(pos, cache, NULL); }

int eval_trace(const Position *pos, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return evaluate(pos, NULL, trace);
}
