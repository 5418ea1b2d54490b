/* Engine: the tapered evaluation (see eval.h). Every term goes through add(), which also feeds the
 * tuner's trace, so the trace can never disagree with the evaluation. */
#include <stdlib.h>
#include <string.h>

#include "endgame.h"
#include "eval.h"
#include "schach/game.h"

typedef struct EvalInfo {
    const SchPosition *pos;
    EvalTrace *trace;         /* NULL unless tracing */
    Score score[2];           /* sum of the terms of each colour */
    SchBitboard attacked[2];  /* squares attacked by colour c */
    SchBitboard attacked2[2]; /* ... at least twice */
    SchBitboard attacked_by[2][SCH_PIECE_TYPE_NB];
    SchBitboard mobility_area[2];
    SchBitboard king_zone[2]; /* the king of colour c and the squares around it */
    int king_attackers[2];    /* pieces of colour c attacking the enemy king zone */
    int zone_hits[2][4];      /* attacked enemy king-zone squares, by attacker type - KNIGHT */
    SchBitboard passed[2];
} EvalInfo;

static inline void add(EvalInfo *ei, int index, SchColor c, int count) {
    ei->score[c] += eval_params[index] * count;
    if (ei->trace)
        ei->trace->coeff[index][c] += count;
}

/* ---- board geometry ---- */

static inline SchBitboard file_bb(int file) { return SCH_BB_FILE_A << file; }

static inline SchBitboard adjacent_files(int file) {
    return (file > 0 ? file_bb(file - 1) : 0) | (file < 7 ? file_bb(file + 1) : 0);
}

/* Every square on ranks strictly ahead of `rank` as seen by colour c. */
static inline SchBitboard ranks_ahead(SchColor c, int rank) {
    if (c == SCH_WHITE)
        return rank == 7 ? 0 : ~0ULL << (8 * (rank + 1));
    return rank == 0 ? 0 : ~0ULL >> (8 * (8 - rank));
}

static inline SchBitboard front_span(SchColor c, SchSquare s) {
    return file_bb(sch_square_file(s)) & ranks_ahead(c, sch_square_rank(s));
}

static inline SchBitboard passed_span(SchColor c, SchSquare s) {
    int f = sch_square_file(s);
    return (file_bb(f) | adjacent_files(f)) & ranks_ahead(c, sch_square_rank(s));
}

static inline int relative_rank(SchColor c, SchSquare s) { return sch_square_rank(sch_square_relative(c, s)); }

static inline int distance(SchSquare a, SchSquare b) {
    int df = abs(sch_square_file(a) - sch_square_file(b)), dr = abs(sch_square_rank(a) - sch_square_rank(b));
    return df > dr ? df : dr;
}

static inline int psqt_index(SchColor c, SchSquare s) {
    SchSquare r = sch_square_relative(c, s);
    int f = sch_square_file(r);
    return sch_square_rank(r) * 4 + (f < 4 ? f : 7 - f);
}

/* ---- setup ---- */

static void note_attacks(EvalInfo *ei, SchColor c, SchPieceType t, SchBitboard att) {
    ei->attacked2[c] |= ei->attacked[c] & att;
    ei->attacked[c] |= att;
    ei->attacked_by[c][t] |= att;
}

static void eval_info_init(EvalInfo *ei, const SchPosition *pos, EvalTrace *trace) {
    memset(ei, 0, sizeof *ei);
    ei->pos = pos;
    ei->trace = trace;
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        SchSquare king = sch_pos_king(pos, c);
        note_attacks(ei, c, SCH_PAWN, sch_bb_pawn_attacks_set(c, sch_pos_pieces(pos, c, SCH_PAWN)));
        note_attacks(ei, c, SCH_KING, sch_bb_king_attacks(king));
        ei->king_zone[c] = sch_bb_king_attacks(king) | sch_bb_square(king);
    }
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        SchBitboard own = sch_pos_pieces(ei->pos, c, SCH_PAWN) | sch_pos_pieces(ei->pos, c, SCH_KING);
        ei->mobility_area[c] = ~own & ~ei->attacked_by[!c][SCH_PAWN];
    }
}

/* ---- terms ---- */

static void eval_material(EvalInfo *ei, SchColor c) {
    for (SchPieceType t = SCH_PAWN; t <= SCH_KING; t++) {
        SchBitboard b = sch_pos_pieces(ei->pos, c, t);
        if (t != SCH_KING)
            add(ei, EP_MATERIAL + t, c, sch_bb_count(b));
        while (b)
            add(ei, EP_PSQT + t * 32 + psqt_index(c, sch_bb_pop(&b)), c, 1);
    }
}

static bool pawn_is_backward(const SchPosition *pos, SchColor c, SchSquare s) {
    SchBitboard own = sch_pos_pieces(pos, c, SCH_PAWN), theirs = sch_pos_pieces(pos, !c, SCH_PAWN);
    SchBitboard behind_or_level = ~ranks_ahead(c, sch_square_rank(s)) & adjacent_files(sch_square_file(s));
    SchSquare stop = (SchSquare)(c == SCH_WHITE ? s + 8 : s - 8);
    return !(own & behind_or_level) && (sch_bb_pawn_attacks(c, stop) & theirs);
}

static void eval_pawn_structure(EvalInfo *ei, SchColor c) {
    const SchPosition *pos = ei->pos;
    SchBitboard own = sch_pos_pieces(pos, c, SCH_PAWN), theirs = sch_pos_pieces(pos, !c, SCH_PAWN);
    for (SchBitboard b = own; b;) {
        SchSquare s = sch_bb_pop(&b);
        int f = sch_square_file(s), r = relative_rank(c, s);
        SchBitboard beside = own & adjacent_files(f) & (SCH_BB_RANK_1 << (8 * sch_square_rank(s)));
        SchBitboard supporters = own & sch_bb_pawn_attacks(!c, s);
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
            ei->passed[c] |= sch_bb_square(s);
    }
}

static uint64_t pawn_key(const SchPosition *pos) {
    uint64_t w = sch_pos_pieces(pos, SCH_WHITE, SCH_PAWN), b = sch_pos_pieces(pos, SCH_BLACK, SCH_PAWN);
    uint64_t k = w * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return k ^ (k >> 29);
}

/* Pawn structure of both colours, from the cache when it has the entry. */
static void eval_pawns(EvalInfo *ei, PawnCache *cache) {
    uint64_t key = pawn_key(ei->pos);
    PawnEntry *entry = cache ? &cache->entries[key & (PAWN_CACHE_SIZE - 1)] : NULL;
    if (entry && entry->key == key) {
        ei->score[SCH_WHITE] += entry->score;
        ei->passed[SCH_WHITE] = entry->passed[SCH_WHITE];
        ei->passed[SCH_BLACK] = entry->passed[SCH_BLACK];
        return;
    }
    Score before = ei->score[SCH_WHITE] - ei->score[SCH_BLACK];
    eval_pawn_structure(ei, SCH_WHITE);
    eval_pawn_structure(ei, SCH_BLACK);
    if (entry)
        *entry = (PawnEntry){
            key, ei->score[SCH_WHITE] - ei->score[SCH_BLACK] - before, {ei->passed[SCH_WHITE], ei->passed[SCH_BLACK]}};
}

static SchBitboard piece_attacks(const SchPosition *pos, SchPieceType t, SchSquare s) {
    return sch_bb_attacks(t, s, sch_pos_occupied(pos));
}

static bool is_outpost(const EvalInfo *ei, SchColor c, SchSquare s) {
    int r = relative_rank(c, s);
    SchBitboard enemy_pawns = sch_pos_pieces(ei->pos, !c, SCH_PAWN);
    SchBitboard attackable = adjacent_files(sch_square_file(s)) & ranks_ahead(c, sch_square_rank(s));
    return r >= 3 && r <= 5 && (sch_bb_pawn_attacks(!c, s) & sch_pos_pieces(ei->pos, c, SCH_PAWN)) &&
           !(attackable & enemy_pawns);
}

static void eval_minor_extras(EvalInfo *ei, SchColor c, SchPieceType t, SchSquare s) {
    if (is_outpost(ei, c, s))
        add(ei, t == SCH_KNIGHT ? EP_KNIGHT_OUTPOST : EP_BISHOP_OUTPOST, c, 1);
    SchSquare front = (SchSquare)(c == SCH_WHITE ? s + 8 : s - 8);
    if (relative_rank(c, s) < 7 &&
        (sch_pos_pieces(ei->pos, c, SCH_PAWN) | sch_pos_pieces(ei->pos, !c, SCH_PAWN)) & sch_bb_square(front))
        add(ei, EP_MINOR_BEHIND_PAWN, c, 1);
}

static void eval_rook_extras(EvalInfo *ei, SchColor c, SchSquare s) {
    SchBitboard file = file_bb(sch_square_file(s));
    if (!(file & sch_pos_pieces(ei->pos, c, SCH_PAWN)))
        add(ei, file & sch_pos_pieces(ei->pos, !c, SCH_PAWN) ? EP_ROOK_SEMI_OPEN_FILE : EP_ROOK_OPEN_FILE, c, 1);
    SchBitboard seventh = c == SCH_WHITE ? SCH_BB_RANK_7 : SCH_BB_RANK_2,
                eighth = c == SCH_WHITE ? SCH_BB_RANK_8 : SCH_BB_RANK_1;
    if ((sch_bb_square(s) & seventh) &&
        ((sch_pos_pieces(ei->pos, !c, SCH_PAWN) & seventh) || (sch_pos_pieces(ei->pos, !c, SCH_KING) & eighth)))
        add(ei, EP_ROOK_SEVENTH, c, 1);
}

static const int mobility_base[SCH_PIECE_TYPE_NB] = {0, EP_MOB_KNIGHT, EP_MOB_BISHOP, EP_MOB_ROOK, EP_MOB_QUEEN, 0};

/* Mobility, king attacks and the piece's own terms for every piece of type t (KNIGHT..QUEEN). */
static void eval_pieces(EvalInfo *ei, SchColor c, SchPieceType t) {
    for (SchBitboard b = sch_pos_pieces(ei->pos, c, t); b;) {
        SchSquare s = sch_bb_pop(&b);
        SchBitboard att = piece_attacks(ei->pos, t, s);
        note_attacks(ei, c, t, att);
        add(ei, mobility_base[t] + sch_bb_count(att & ei->mobility_area[c]), c, 1);
        SchBitboard zone = att & ei->king_zone[!c];
        if (zone) {
            ei->king_attackers[c]++;
            ei->zone_hits[c][t - SCH_KNIGHT] += sch_bb_count(zone);
        }
        if (t == SCH_KNIGHT || t == SCH_BISHOP)
            eval_minor_extras(ei, c, t, s);
        else if (t == SCH_ROOK)
            eval_rook_extras(ei, c, s);
    }
}

/* Distance (1..6) to the nearest own pawn ahead of the king on `file`, 7 when there is none. */
static int shelter_distance(const SchPosition *pos, SchColor c, SchSquare king, int file) {
    SchBitboard pawns = sch_pos_pieces(pos, c, SCH_PAWN) & file_bb(file) & ranks_ahead(c, sch_square_rank(king));
    if (!pawns)
        return 7;
    SchSquare nearest = c == SCH_WHITE ? sch_bb_lsb(pawns) : (SchSquare)(63 - __builtin_clzll(pawns));
    return abs(sch_square_rank(nearest) - sch_square_rank(king));
}

/* The safety of c's king: its pawn shelter, and the attack terms of the enemy (credited to it). */
static void eval_king(EvalInfo *ei, SchColor c) {
    const SchPosition *pos = ei->pos;
    SchColor them = (SchColor)!c;
    SchSquare king = sch_pos_king(pos, c);
    int kf = sch_square_file(king);
    for (int f = kf - 1; f <= kf + 1; f++)
        if (f >= 0 && f < 8)
            add(ei, EP_KING_SHELTER + shelter_distance(pos, c, king, f), c, 1);
    if (!(sch_pos_pieces(pos, c, SCH_PAWN) & file_bb(kf)))
        add(ei, EP_KING_OPEN_FILE, c, 1);

    /* Attacks count once two pieces join in (one piece alone rarely mates). */
    bool queen = sch_pos_pieces(pos, them, SCH_QUEEN) != 0;
    if (ei->king_attackers[them] >= 2 || (queen && ei->king_attackers[them] >= 1 && ei->zone_hits[them][3]))
        for (int i = 0; i < 4; i++)
            add(ei, EP_KING_ATTACK + i, them, ei->zone_hits[them][i]);

    SchBitboard occ = sch_pos_occupied(pos);
    SchBitboard safe = ~pos->by_color[them] & (~ei->attacked[c] | (ei->attacked2[them] & ~ei->attacked2[c]));
    SchBitboard diagonal = sch_bb_bishop_attacks(king, occ), straight = sch_bb_rook_attacks(king, occ);
    SchBitboard checks[4] = {sch_bb_knight_attacks(king), diagonal, straight, diagonal | straight};
    for (SchPieceType t = SCH_KNIGHT; t <= SCH_QUEEN; t++) {
        int n = sch_bb_count(checks[t - SCH_KNIGHT] & ei->attacked_by[them][t] & safe);
        if (n)
            add(ei, EP_SAFE_CHECK + t - SCH_KNIGHT, them, n);
    }
}

static void eval_passed(EvalInfo *ei, SchColor c) {
    const SchPosition *pos = ei->pos;
    SchSquare own_king = sch_pos_king(pos, c), their_king = sch_pos_king(pos, !c);
    for (SchBitboard b = ei->passed[c]; b;) {
        SchSquare s = sch_bb_pop(&b);
        int r = relative_rank(c, s);
        SchSquare stop = (SchSquare)(c == SCH_WHITE ? s + 8 : s - 8);
        add(ei, EP_PASSED + r, c, 1);
        if (r > 2) {
            add(ei, EP_PASSED_KING_OWN, c, distance(own_king, stop) * (r - 2));
            add(ei, EP_PASSED_KING_THEIRS, c, distance(their_king, stop) * (r - 2));
        }
        if (sch_pos_occupied(pos) & sch_bb_square(stop))
            add(ei, EP_PASSED_BLOCKED + r, c, 1);
        else if (!(front_span(c, s) & ei->attacked[!c]))
            add(ei, EP_PASSED_FREE + r, c, 1);
    }
}

static void eval_threats(EvalInfo *ei, SchColor c) {
    const SchPosition *pos = ei->pos;
    SchColor them = (SchColor)!c;
    SchBitboard pieces = pos->by_color[them] & ~pos->by_type[SCH_PAWN] & ~pos->by_type[SCH_KING];
    SchBitboard majors = sch_pos_pieces(pos, them, SCH_ROOK) | sch_pos_pieces(pos, them, SCH_QUEEN);
    SchBitboard by_minor = ei->attacked_by[c][SCH_KNIGHT] | ei->attacked_by[c][SCH_BISHOP];
    add(ei, EP_THREAT_BY_PAWN, c, sch_bb_count(ei->attacked_by[c][SCH_PAWN] & pieces));
    add(ei, EP_THREAT_BY_MINOR, c, sch_bb_count(by_minor & majors));
    add(ei, EP_THREAT_BY_ROOK, c, sch_bb_count(ei->attacked_by[c][SCH_ROOK] & sch_pos_pieces(pos, them, SCH_QUEEN)));
    add(ei, EP_HANGING, c, sch_bb_count(pieces & ei->attacked[c] & ~ei->attacked[them]));
}

static int game_phase(const SchPosition *pos) {
    int phase = sch_bb_count(pos->by_type[SCH_KNIGHT] | pos->by_type[SCH_BISHOP]) +
                2 * sch_bb_count(pos->by_type[SCH_ROOK]) + 4 * sch_bb_count(pos->by_type[SCH_QUEEN]);
    return phase < EVAL_PHASE_MAX ? phase : EVAL_PHASE_MAX;
}

/* Sum of the terms, blended and scaled, from white's point of view. */
static int eval_terms(EvalInfo *ei, PawnCache *cache) {
    const SchPosition *pos = ei->pos;
    eval_material(ei, SCH_WHITE);
    eval_material(ei, SCH_BLACK);
    eval_pawns(ei, cache);
    for (SchPieceType t = SCH_KNIGHT; t <= SCH_QUEEN; t++) {
        eval_pieces(ei, SCH_WHITE, t);
        eval_pieces(ei, SCH_BLACK, t);
    }
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        eval_king(ei, c);
        eval_passed(ei, c);
        eval_threats(ei, c);
        if (sch_bb_more_than_one(sch_pos_pieces(pos, c, SCH_BISHOP)))
            add(ei, EP_BISHOP_PAIR, c, 1);
    }
    add(ei, EP_TEMPO, sch_pos_turn(pos), 1);

    Score total = ei->score[SCH_WHITE] - ei->score[SCH_BLACK];
    int mg = score_mg(total), eg = score_eg(total);
    int phase = game_phase(pos);
    int scale = endgame_scale(pos, eg >= 0 ? SCH_WHITE : SCH_BLACK);
    if (ei->trace) {
        ei->trace->phase = phase;
        ei->trace->scale = scale;
    }
    return (mg * phase + eg * (EVAL_PHASE_MAX - phase) * scale / 64) / EVAL_PHASE_MAX;
}

static int evaluate(const SchPosition *pos, PawnCache *cache, EvalTrace *trace) {
    int white = 0;
    bool dead = sch_pos_insufficient_material(pos);
    if (dead || endgame_basic_mate(pos, &white)) {
        if (trace)
            trace->special = true;
    } else {
        EvalInfo ei;
        eval_info_init(&ei, pos, trace);
        white = eval_terms(&ei, cache);
    }
    return sch_pos_turn(pos) == SCH_WHITE ? white : -white;
}

int eval_position(const SchPosition *pos, PawnCache *cache) { return evaluate(pos, cache, NULL); }

int eval_trace(const SchPosition *pos, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return evaluate(pos, NULL, trace);
}
