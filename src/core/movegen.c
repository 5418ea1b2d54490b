/* Legal move generation by check and pin masks.
 *
 * First the context: squares the enemy attacks (with our king lifted off the board, so it cannot hide
 * behind itself from a slider), the check mask (where a non-king move must land to answer a single
 * check) and two pin masks (rays from our king through exactly one of our pieces to an enemy slider,
 * one mask for rank/file pins, one for diagonal pins). A pinned piece may only move along its ray.
 * Then every kind of move is one bitboard, written out by small helpers or just counted. */
#include "schach/movegen.h"

#include "castling.h"

typedef struct GenContext {
    SchColor us, them;
    SchSquare king;
    SchBitboard occupied, own, enemy;
    SchBitboard check_mask; /* landing squares that answer the check (everything when not in check) */
    SchBitboard pin_straight, pin_diagonal;
} GenContext;

static SchBitboard pin_rays(const GenContext *c, SchBitboard snipers) {
    SchBitboard pins = 0;
    while (snipers) {
        SchSquare s = sch_bb_pop(&snipers);
        SchBitboard ray = sch_bb_between(c->king, s);
        if (sch_bb_count(ray & c->own) == 1 && !(ray & c->enemy))
            pins |= ray | sch_bb_square(s);
    }
    return pins;
}

/* The subset of squares that no enemy piece attacks once our king has left its square (so the king
 * cannot step back along a slider's ray). Testing only the king's few candidate squares is cheaper
 * than building the enemy's whole attack map. */
/* Whether the enemy attacks s given occupancy occ; cheapest tests first, stopping at the first hit. */
static inline bool enemy_attacks_square(const SchPosition *pos, const GenContext *c, SchSquare s, SchBitboard occ) {
    return (sch_bb_knight_attacks(s) & pos->by_type[SCH_KNIGHT] & c->enemy) ||
           (sch_bb_pawn_attacks(c->us, s) & pos->by_type[SCH_PAWN] & c->enemy) ||
           (sch_bb_king_attacks(s) & pos->by_type[SCH_KING] & c->enemy) ||
           (sch_bb_bishop_attacks(s, occ) & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]) & c->enemy) ||
           (sch_bb_rook_attacks(s, occ) & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]) & c->enemy);
}

static inline SchBitboard safe_squares(const SchPosition *pos, const GenContext *c, SchBitboard squares) {
    SchBitboard occ = c->occupied ^ sch_bb_square(c->king);
    SchBitboard safe = 0;
    while (squares) {
        SchSquare s = sch_bb_pop(&squares);
        if (!enemy_attacks_square(pos, c, s, occ))
            safe |= sch_bb_square(s);
    }
    return safe;
}

static inline void context_init(const SchPosition *pos, GenContext *c) {
    c->us = sch_pos_turn(pos);
    c->them = (SchColor)!c->us;
    c->king = sch_pos_king(pos, c->us);
    c->own = pos->by_color[c->us];
    c->enemy = pos->by_color[c->them];
    c->occupied = c->own | c->enemy;
    c->check_mask = ~0ULL;
    if (pos->checkers)
        c->check_mask = sch_bb_more_than_one(pos->checkers)
                            ? 0
                            : pos->checkers | sch_bb_between(c->king, sch_bb_lsb(pos->checkers));
    SchBitboard straight = c->enemy & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]);
    SchBitboard diagonal = c->enemy & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]);
    c->pin_straight = pin_rays(c, sch_bb_rook_attacks(c->king, c->enemy) & straight);
    c->pin_diagonal = pin_rays(c, sch_bb_bishop_attacks(c->king, c->enemy) & diagonal);
}

/* ---- Writing moves ---- */

static inline SchMove *emit_targets(SchMove *out, SchSquare from, SchBitboard targets) {
    while (targets)
        *out++ = sch_move_make(from, sch_bb_pop(&targets));
    return out;
}

/* Pawn moves to each target square, coming from target - delta. */
static inline SchMove *emit_pawn_moves(SchMove *out, SchBitboard targets, int delta) {
    while (targets) {
        SchSquare to = sch_bb_pop(&targets);
        *out++ = sch_move_make((SchSquare)(to - delta), to);
    }
    return out;
}

static inline SchMove *emit_promotions(SchMove *out, SchBitboard targets, int delta) {
    while (targets) {
        SchSquare to = sch_bb_pop(&targets);
        SchSquare from = (SchSquare)(to - delta);
        for (SchPieceType t = SCH_QUEEN; t >= SCH_KNIGHT; t--)
            *out++ = sch_move_make_promotion(from, to, t);
    }
    return out;
}

/* The pawn moves as bitboards, shared by writing and counting. */
typedef struct PawnTargets {
    SchBitboard push, double_push, capture_west, capture_east; /* destinations, promotions included */
    int forward, west, east;                                   /* square deltas of each kind */
} PawnTargets;

static inline void pawn_targets(const SchPosition *pos, const GenContext *c, PawnTargets *t) {
    SchBitboard pawns = sch_pos_pieces(pos, c->us, SCH_PAWN);
    SchBitboard empty = ~c->occupied;
    SchColor us = c->us;
    /* A straight-pinned pawn may only push along the pin; a diagonal-pinned one never pushes. */
    SchBitboard pushers = pawns & ~c->pin_diagonal;
    SchBitboard push = (sch_bb_shift_forward(us, pushers & ~c->pin_straight) |
                        (sch_bb_shift_forward(us, pushers & c->pin_straight) & c->pin_straight)) &
                       empty;
    SchBitboard double_rank = us == SCH_WHITE ? SCH_BB_RANK_4 : SCH_BB_RANK_5;
    t->double_push = sch_bb_shift_forward(us, push) & empty & double_rank & c->check_mask;
    t->push = push & c->check_mask;
    /* A diagonal-pinned pawn may only capture along the pin; a straight-pinned one never captures. */
    SchBitboard capturers = pawns & ~c->pin_straight;
    SchBitboard free_pawns = capturers & ~c->pin_diagonal, pinned = capturers & c->pin_diagonal;
    SchBitboard targets = c->enemy & c->check_mask;
    SchBitboard west_free = free_pawns & ~SCH_BB_FILE_A, east_free = free_pawns & ~SCH_BB_FILE_H;
    SchBitboard west_pinned = pinned & ~SCH_BB_FILE_A, east_pinned = pinned & ~SCH_BB_FILE_H;
    if (us == SCH_WHITE) {
        t->forward = 8, t->west = 7, t->east = 9;
        t->capture_west = ((west_free << 7) | ((west_pinned << 7) & c->pin_diagonal)) & targets;
        t->capture_east = ((east_free << 9) | ((east_pinned << 9) & c->pin_diagonal)) & targets;
    } else {
        t->forward = -8, t->west = -9, t->east = -7;
        t->capture_west = ((west_free >> 9) | ((west_pinned >> 9) & c->pin_diagonal)) & targets;
        t->capture_east = ((east_free >> 7) | ((east_pinned >> 7) & c->pin_diagonal)) & targets;
    }
}

/* En passant needs a real test: removing two pawns from one rank can expose the king to a rook. */
static inline bool ep_capture_legal(const SchPosition *pos, const GenContext *c, SchSquare from) {
    SchSquare to = (SchSquare)pos->ep, captured = (SchSquare)(to ^ 8);
    if (!(c->check_mask & (sch_bb_square(to) | sch_bb_square(captured))))
        return false;
    SchBitboard occ = (c->occupied ^ sch_bb_square(from) ^ sch_bb_square(captured)) | sch_bb_square(to);
    SchBitboard straight = c->enemy & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]);
    SchBitboard diagonal = c->enemy & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]);
    return !(sch_bb_rook_attacks(c->king, occ) & straight) && !(sch_bb_bishop_attacks(c->king, occ) & diagonal);
}

static inline SchBitboard ep_capturers(const SchPosition *pos, const GenContext *c) {
    if (pos->ep == SCH_SQ_NONE)
        return 0;
    SchBitboard candidates = sch_bb_pawn_attacks(c->them, (SchSquare)pos->ep) & sch_pos_pieces(pos, c->us, SCH_PAWN);
    SchBitboard legal = 0;
    while (candidates) {
        SchSquare from = sch_bb_pop(&candidates);
        if (ep_capture_legal(pos, c, from))
            legal |= sch_bb_square(from);
    }
    return legal;
}

/* Castling by the Chess960 rule, of which standard chess is a case: every square the king and the
 * rook cross or reach is empty but for the two of them, and no square the king crosses or reaches is
 * attacked. Attacks are judged with king and rook lifted off: a rook that shielded the king's target
 * from a slider on the back rank (rook b1, enemy queen a1, king to c1) no longer shields it after
 * castling. For the standard geometry this is exactly the old f1/g1 and b1-d1 test. */
static inline __attribute__((always_inline)) bool castling_allowed(const SchPosition *pos, const GenContext *c,
                                                                   int right) {
    SchSquare rook = (SchSquare)pos->castle_rook[right];
    const CastlePath *squares = &sch_castle_paths[c->king][rook];
    if (c->occupied & squares->empty)
        return false;
    SchBitboard occ = c->occupied ^ sch_bb_square(c->king) ^ sch_bb_square(rook);
    SchBitboard path = squares->path;
    while (path)
        if (enemy_attacks_square(pos, c, sch_bb_pop(&path), occ))
            return false;
    return true;
}

static inline __attribute__((always_inline)) SchMove *emit_castling(const SchPosition *pos, const GenContext *c,
                                                                    SchMove *out) {
    /* Most positions either have no rights left for the mover or are in check: one test each. */
    uint8_t rights = pos->castling & castle_rights_of(c->us);
    if (pos->checkers || !rights)
        return out;
    int h_side = 2 * (int)c->us, a_side = h_side + 1;
    if ((rights & (1 << h_side)) && castling_allowed(pos, c, h_side))
        *out++ = sch_move_make_kind(c->king, castle_king_to(h_side), SCH_MOVE_CASTLING);
    if ((rights & (1 << a_side)) && castling_allowed(pos, c, a_side))
        *out++ = sch_move_make_kind(c->king, castle_king_to(a_side), SCH_MOVE_CASTLING);
    return out;
}

static inline SchMove *emit_pieces(const SchPosition *pos, const GenContext *c, SchMove *out, SchBitboard targets) {
    SchBitboard pinned = c->pin_straight | c->pin_diagonal;
    SchBitboard b = sch_pos_pieces(pos, c->us, SCH_KNIGHT) & ~pinned;
    while (b) {
        SchSquare s = sch_bb_pop(&b);
        out = emit_targets(out, s, sch_bb_knight_attacks(s) & targets);
    }
    /* Pinned sliders move only along their pin; a straight pin stops a diagonal move and vice versa. */
    SchBitboard diagonal = c->own & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]) & ~c->pin_straight;
    SchBitboard straight = c->own & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]) & ~c->pin_diagonal;
    for (b = diagonal & ~c->pin_diagonal; b;) {
        SchSquare s = sch_bb_pop(&b);
        out = emit_targets(out, s, sch_bb_bishop_attacks(s, c->occupied) & targets);
    }
    for (b = diagonal & c->pin_diagonal; b;) {
        SchSquare s = sch_bb_pop(&b);
        out = emit_targets(out, s, sch_bb_bishop_attacks(s, c->occupied) & targets & c->pin_diagonal);
    }
    for (b = straight & ~c->pin_straight; b;) {
        SchSquare s = sch_bb_pop(&b);
        out = emit_targets(out, s, sch_bb_rook_attacks(s, c->occupied) & targets);
    }
    for (b = straight & c->pin_straight; b;) {
        SchSquare s = sch_bb_pop(&b);
        out = emit_targets(out, s, sch_bb_rook_attacks(s, c->occupied) & targets & c->pin_straight);
    }
    return out;
}

int sch_gen_moves(const SchPosition *pos, SchGenKind kind, SchMove *out) {
    GenContext c;
    context_init(pos, &c);
    SchMove *start = out;
    SchBitboard targets = kind == SCH_GEN_NOISY ? c.enemy : kind == SCH_GEN_QUIET ? ~c.occupied : ~c.own;
    SchBitboard king_targets = safe_squares(pos, &c, sch_bb_king_attacks(c.king) & targets);
    SchBitboard last_rank = c.us == SCH_WHITE ? SCH_BB_RANK_8 : SCH_BB_RANK_1;
    if (c.check_mask) { /* no other piece may move against a double check */
        PawnTargets p;
        pawn_targets(pos, &c, &p);
        if (kind != SCH_GEN_QUIET) {
            out = emit_pawn_moves(out, p.capture_west & ~last_rank, p.west);
            out = emit_pawn_moves(out, p.capture_east & ~last_rank, p.east);
            out = emit_promotions(out, p.capture_west & last_rank, p.west);
            out = emit_promotions(out, p.capture_east & last_rank, p.east);
            out = emit_promotions(out, p.push & last_rank, p.forward);
            SchBitboard ep = ep_capturers(pos, &c);
            while (ep)
                *out++ = sch_move_make_kind(sch_bb_pop(&ep), (SchSquare)pos->ep, SCH_MOVE_EN_PASSANT);
        }
        if (kind != SCH_GEN_NOISY) {
            out = emit_pawn_moves(out, p.push & ~last_rank, p.forward);
            out = emit_pawn_moves(out, p.double_push, 2 * p.forward);
        }
        out = emit_pieces(pos, &c, out, targets & c.check_mask);
    }
    out = emit_targets(out, c.king, king_targets);
    if (kind != SCH_GEN_NOISY)
        out = emit_castling(pos, &c, out);
    return (int)(out - start);
}

/* The legal moves' count, by popcounts only; with `any`, stops at the first group of moves that is
 * not empty (the king's first: in most positions it has a safe square, so the question "is there a
 * legal move" costs one attack test per square around it). */
static inline __attribute__((always_inline)) int count_legal(const SchPosition *pos, bool any) {
    GenContext c;
    context_init(pos, &c);
    int count = sch_bb_count(safe_squares(pos, &c, sch_bb_king_attacks(c.king) & ~c.own));
    if (!c.check_mask || (any && count))
        return count;
    PawnTargets p;
    pawn_targets(pos, &c, &p);
    SchBitboard last_rank = c.us == SCH_WHITE ? SCH_BB_RANK_8 : SCH_BB_RANK_1;
    count += sch_bb_count(p.push & ~last_rank) + sch_bb_count(p.double_push) +
             sch_bb_count(p.capture_west & ~last_rank) + sch_bb_count(p.capture_east & ~last_rank);
    count += 4 * (sch_bb_count(p.push & last_rank) + sch_bb_count(p.capture_west & last_rank) +
                  sch_bb_count(p.capture_east & last_rank));
    count += sch_bb_count(ep_capturers(pos, &c));
    if (any && count)
        return count;

    SchBitboard targets = ~c.own & c.check_mask;
    SchBitboard pinned = c.pin_straight | c.pin_diagonal;
    SchBitboard b = sch_pos_pieces(pos, c.us, SCH_KNIGHT) & ~pinned;
    while (b)
        count += sch_bb_count(sch_bb_knight_attacks(sch_bb_pop(&b)) & targets);
    SchBitboard diagonal = c.own & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]) & ~c.pin_straight;
    SchBitboard straight = c.own & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]) & ~c.pin_diagonal;
    for (b = diagonal & ~c.pin_diagonal; b;)
        count += sch_bb_count(sch_bb_bishop_attacks(sch_bb_pop(&b), c.occupied) & targets);
    for (b = diagonal & c.pin_diagonal; b;)
        count += sch_bb_count(sch_bb_bishop_attacks(sch_bb_pop(&b), c.occupied) & targets & c.pin_diagonal);
    for (b = straight & ~c.pin_straight; b;)
        count += sch_bb_count(sch_bb_rook_attacks(sch_bb_pop(&b), c.occupied) & targets);
    for (b = straight & c.pin_straight; b;)
        count += sch_bb_count(sch_bb_rook_attacks(sch_bb_pop(&b), c.occupied) & targets & c.pin_straight);
    uint8_t rights = pos->castling & castle_rights_of(c.us);
    if (rights && !pos->checkers) {
        int h_side = 2 * (int)c.us;
        count += (rights & (1 << h_side)) && castling_allowed(pos, &c, h_side);
        count += (rights & (2 << h_side)) && castling_allowed(pos, &c, h_side + 1);
    }
    return count;
}

int sch_gen_count(const SchPosition *pos) { return count_legal(pos, false); }

/* ---- One move's legality ----
 *
 * The answer the generator gives (is m among sch_gen_moves's moves?) without writing them all: the
 * same context and masks, asked about one piece and one square. The engine asks this of every table
 * move, killer and counter move; writing all moves for it cost a twentieth of its time. */

static bool pawn_move_legal(const SchPosition *pos, const GenContext *c, SchSquare from, SchSquare to) {
    PawnTargets p;
    pawn_targets(pos, c, &p);
    SchBitboard t = sch_bb_square(to);
    int delta = (int)to - (int)from;
    return ((p.push & t) && delta == p.forward) || ((p.double_push & t) && delta == 2 * p.forward) ||
           ((p.capture_west & t) && delta == p.west) || ((p.capture_east & t) && delta == p.east);
}

/* A knight, bishop, rook or queen from -> to (a normal move). */
static bool piece_move_legal(const GenContext *c, SchPieceType type, SchSquare from, SchSquare to) {
    SchBitboard target = sch_bb_square(to) & ~c->own & c->check_mask, f = sch_bb_square(from);
    if (type == SCH_KNIGHT)
        return !(f & (c->pin_straight | c->pin_diagonal)) && (sch_bb_knight_attacks(from) & target);
    if ((type == SCH_BISHOP || type == SCH_QUEEN) && !(f & c->pin_straight) &&
        (sch_bb_bishop_attacks(from, c->occupied) & target & (f & c->pin_diagonal ? c->pin_diagonal : ~0ULL)))
        return true;
    return (type == SCH_ROOK || type == SCH_QUEEN) && !(f & c->pin_diagonal) &&
           (sch_bb_rook_attacks(from, c->occupied) & target & (f & c->pin_straight ? c->pin_straight : ~0ULL));
}

static bool castling_legal(const SchPosition *pos, const GenContext *c, SchSquare to) {
    uint8_t rights = pos->castling & castle_rights_of(c->us);
    if (pos->checkers || !rights)
        return false;
    for (int right = 2 * (int)c->us; right <= 2 * (int)c->us + 1; right++)
        if ((rights & (1 << right)) && castle_king_to(right) == to)
            return castling_allowed(pos, c, right);
    return false;
}

bool sch_gen_is_legal(const SchPosition *pos, SchMove m) {
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    int kind = sch_move_kind(m);
    SchPiece piece = sch_pos_piece_on(pos, from);
    /* Only a promotion has promotion bits: any other move with them is no move the generator writes. */
    if (piece == SCH_NO_PIECE || sch_piece_color(piece) != sch_pos_turn(pos) ||
        (kind != SCH_MOVE_PROMOTION && m != sch_move_make_kind(from, to, kind)))
        return false;
    GenContext c;
    context_init(pos, &c);
    SchPieceType type = sch_piece_type(piece);
    SchBitboard last_rank = c.us == SCH_WHITE ? SCH_BB_RANK_8 : SCH_BB_RANK_1;
    bool to_last_rank = (sch_bb_square(to) & last_rank) != 0;
    switch (kind) {
        case SCH_MOVE_CASTLING: return type == SCH_KING && castling_legal(pos, &c, to);
        case SCH_MOVE_EN_PASSANT:
            return type == SCH_PAWN && pos->ep != SCH_SQ_NONE && to == pos->ep &&
                   (ep_capturers(pos, &c) & sch_bb_square(from));
        case SCH_MOVE_PROMOTION: return type == SCH_PAWN && to_last_rank && pawn_move_legal(pos, &c, from, to);
        default: break;
    }
    if (type == SCH_KING)
        return (sch_bb_king_attacks(from) & ~c.own & sch_bb_square(to)) &&
               !enemy_attacks_square(pos, &c, to, c.occupied ^ sch_bb_square(from));
    if (type == SCH_PAWN)
        return !to_last_rank && pawn_move_legal(pos, &c, from, to);
    return piece_move_legal(&c, type, from, to);
}

bool sch_gen_has_legal_move(const SchPosition *pos) { return count_legal(pos, true) > 0; }

bool sch_gen_ep_legal(const SchPosition *pos) {
    if (pos->ep == SCH_SQ_NONE)
        return false;
    GenContext c;
    context_init(pos, &c);
    return c.check_mask && ep_capturers(pos, &c) != 0;
}
