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
    Color us, them;
    Square king;
    Bitboard occupied, own, enemy;
    Bitboard check_mask; /* landing squares that answer the check (everything when not in check) */
    Bitboard pin_straight, pin_diagonal;
} GenContext;

static Bitboard pin_rays(const GenContext *c, Bitboard snipers) {
    Bitboard pins = 0;
    while (snipers) {
        Square s = bb_pop(&snipers);
        Bitboard ray = bb_between(c->king, s);
        if (bb_count(ray & c->own) == 1 && !(ray & c->enemy))
            pins |= ray | bb_square(s);
    }
    return pins;
}

/* The subset of squares that no enemy piece attacks once our king has left its square (so the king
 * cannot step back along a slider's ray). Testing only the king's few candidate squares is cheaper
 * than building the enemy's whole attack map. */
/* Whether the enemy attacks s given occupancy occ; cheapest tests first, stopping at the first hit. */
static inline bool enemy_attacks_square(const Position *pos, const GenContext *c, Square s, Bitboard occ) {
    return (bb_knight_attacks(s) & pos->by_type[KNIGHT] & c->enemy) ||
           (bb_pawn_attacks(c->us, s) & pos->by_type[PAWN] & c->enemy) ||
           (bb_king_attacks(s) & pos->by_type[KING] & c->enemy) ||
           (bb_bishop_attacks(s, occ) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & c->enemy) ||
           (bb_rook_attacks(s, occ) & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & c->enemy);
}

static inline Bitboard safe_squares(const Position *pos, const GenContext *c, Bitboard squares) {
    Bitboard occ = c->occupied ^ bb_square(c->king);
    Bitboard safe = 0;
    while (squares) {
        Square s = bb_pop(&squares);
        if (!enemy_attacks_square(pos, c, s, occ))
            safe |= bb_square(s);
    }
    return safe;
}

static inline void context_init(const Position *pos, GenContext *c) {
    c->us = pos_turn(pos);
    c->them = (Color)!c->us;
    c->king = pos_king(pos, c->us);
    c->own = pos->by_color[c->us];
    c->enemy = pos->by_color[c->them];
    c->occupied = c->own | c->enemy;
    c->check_mask = ~0ULL;
    if (pos->checkers)
        c->check_mask =
            bb_more_than_one(pos->checkers) ? 0 : pos->checkers | bb_between(c->king, bb_lsb(pos->checkers));
    Bitboard straight = c->enemy & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    Bitboard diagonal = c->enemy & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    c->pin_straight = pin_rays(c, bb_rook_attacks(c->king, c->enemy) & straight);
    c->pin_diagonal = pin_rays(c, bb_bishop_attacks(c->king, c->enemy) & diagonal);
}

/* ---- Writing moves ---- */

static inline Move *emit_targets(Move *out, Square from, Bitboard targets) {
    while (targets)
        *out++ = move_make(from, bb_pop(&targets));
    return out;
}

/* Pawn moves to each target square, coming from target - delta. */
static inline Move *emit_pawn_moves(Move *out, Bitboard targets, int delta) {
    while (targets) {
        Square to = bb_pop(&targets);
        *out++ = move_make((Square)(to - delta), to);
    }
    return out;
}

static inline Move *emit_promotions(Move *out, Bitboard targets, int delta) {
    while (targets) {
        Square to = bb_pop(&targets);
        Square from = (Square)(to - delta);
        for (PieceType t = QUEEN; t >= KNIGHT; t--)
            *out++ = move_make_promotion(from, to, t);
    }
    return out;
}

/* The pawn moves as bitboards, shared by writing and counting. */
typedef struct PawnTargets {
    Bitboard push, double_push, capture_west, capture_east; /* destinations, promotions included */
    int forward, west, east;                                /* square deltas of each kind */
} PawnTargets;

static inline void pawn_targets(const Position *pos, const GenContext *c, PawnTargets *t) {
    Bitboard pawns = pos_pieces(pos, c->us, PAWN);
    Bitboard empty = ~c->occupied;
    Color us = c->us;
    /* A straight-pinned pawn may only push along the pin; a diagonal-pinned one never pushes. */
    Bitboard pushers = pawns & ~c->pin_diagonal;
    Bitboard push = (bb_shift_forward(us, pushers & ~c->pin_straight) |
                     (bb_shift_forward(us, pushers & c->pin_straight) & c->pin_straight)) &
                    empty;
    Bitboard double_rank = us == WHITE ? BB_RANK_4 : BB_RANK_5;
    t->double_push = bb_shift_forward(us, push) & empty & double_rank & c->check_mask;
    t->push = push & c->check_mask;
    /* A diagonal-pinned pawn may only capture along the pin; a straight-pinned one never captures. */
    Bitboard capturers = pawns & ~c->pin_straight;
    Bitboard free_pawns = capturers & ~c->pin_diagonal, pinned = capturers & c->pin_diagonal;
    Bitboard targets = c->enemy & c->check_mask;
    Bitboard west_free = free_pawns & ~BB_FILE_A, east_free = free_pawns & ~BB_FILE_H;
    Bitboard west_pinned = pinned & ~BB_FILE_A, east_pinned = pinned & ~BB_FILE_H;
    if (us == WHITE) {
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
static inline bool ep_capture_legal(const Position *pos, const GenContext *c, Square from) {
    Square to = (Square)pos->ep, captured = (Square)(to ^ 8);
    if (!(c->check_mask & (bb_square(to) | bb_square(captured))))
        return false;
    Bitboard occ = (c->occupied ^ bb_square(from) ^ bb_square(captured)) | bb_square(to);
    Bitboard straight = c->enemy & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    Bitboard diagonal = c->enemy & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    return !(bb_rook_attacks(c->king, occ) & straight) && !(bb_bishop_attacks(c->king, occ) & diagonal);
}

static inline Bitboard ep_capturers(const Position *pos, const GenContext *c) {
    if (pos->ep == SQ_NONE)
        return 0;
    Bitboard candidates = bb_pawn_attacks(c->them, (Square)pos->ep) & pos_pieces(pos, c->us, PAWN);
    Bitboard legal = 0;
    while (candidates) {
        Square from = bb_pop(&candidates);
        if (ep_capture_legal(pos, c, from))
            legal |= bb_square(from);
    }
    return legal;
}

/* Castling by the Chess960 rule, of which standard chess is a case: every square the king and the
 * rook cross or reach is empty but for the two of them, and no square the king crosses or reaches is
 * attacked. Attacks are judged with king and rook lifted off: a rook that shielded the king's target
 * from a slider on the back rank (rook b1, enemy queen a1, king to c1) no longer shields it after
 * castling. For the standard geometry this is exactly the old f1/g1 and b1-d1 test. */
static inline __attribute__((always_inline)) bool castling_allowed(const Position *pos, const GenContext *c,
                                                                   int right) {
    Square rook = (Square)pos->castle_rook[right];
    const CastlePath *squares = &castle_paths[c->king][rook];
    if (c->occupied & squares->empty)
        return false;
    Bitboard occ = c->occupied ^ bb_square(c->king) ^ bb_square(rook);
    Bitboard path = squares->path;
    while (path)
        if (enemy_attacks_square(pos, c, bb_pop(&path), occ))
            return false;
    return true;
}

static inline __attribute__((always_inline)) Move *emit_castling(const Position *pos, const GenContext *c, Move *out) {
    /* Most positions either have no rights left for the mover or are in check: one test each. */
    uint8_t rights = pos->castling & castle_rights_of(c->us);
    if (pos->checkers || !rights)
        return out;
    int h_side = 2 * (int)c->us, a_side = h_side + 1;
    if ((rights & (1 << h_side)) && castling_allowed(pos, c, h_side))
        *out++ = move_make_kind(c->king, castle_king_to(h_side), MOVE_CASTLING);
    if ((rights & (1 << a_side)) && castling_allowed(pos, c, a_side))
        *out++ = move_make_kind(c->king, castle_king_to(a_side), MOVE_CASTLING);
    return out;
}

static inline Move *emit_pieces(const Position *pos, const GenContext *c, Move *out, Bitboard targets) {
    Bitboard pinned = c->pin_straight | c->pin_diagonal;
    Bitboard b = pos_pieces(pos, c->us, KNIGHT) & ~pinned;
    while (b) {
        Square s = bb_pop(&b);
        out = emit_targets(out, s, bb_knight_attacks(s) & targets);
    }
    /* Pinned sliders move only along their pin; a straight pin stops a diagonal move and vice versa. */
    Bitboard diagonal = c->own & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & ~c->pin_straight;
    Bitboard straight = c->own & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & ~c->pin_diagonal;
    for (b = diagonal & ~c->pin_diagonal; b;) {
        Square s = bb_pop(&b);
        out = emit_targets(out, s, bb_bishop_attacks(s, c->occupied) & targets);
    }
    for (b = diagonal & c->pin_diagonal; b;) {
        Square s = bb_pop(&b);
        out = emit_targets(out, s, bb_bishop_attacks(s, c->occupied) & targets & c->pin_diagonal);
    }
    for (b = straight & ~c->pin_straight; b;) {
        Square s = bb_pop(&b);
        out = emit_targets(out, s, bb_rook_attacks(s, c->occupied) & targets);
    }
    for (b = straight & c->pin_straight; b;) {
        Square s = bb_pop(&b);
        out = emit_targets(out, s, bb_rook_attacks(s, c->occupied) & targets & c->pin_straight);
    }
    return out;
}

int gen_moves(const Position *pos, GenKind kind, Move *out) {
    GenContext c;
    context_init(pos, &c);
    Move *start = out;
    Bitboard targets = kind == GEN_NOISY ? c.enemy : kind == GEN_QUIET ? ~c.occupied : ~c.own;
    Bitboard king_targets = safe_squares(pos, &c, bb_king_attacks(c.king) & targets);
    Bitboard last_rank = c.us == WHITE ? BB_RANK_8 : BB_RANK_1;
    if (c.check_mask) { /* no other piece may move against a double check */
        PawnTargets p;
        pawn_targets(pos, &c, &p);
        if (kind != GEN_QUIET) {
            out = emit_pawn_moves(out, p.capture_west & ~last_rank, p.west);
            out = emit_pawn_moves(out, p.capture_east & ~last_rank, p.east);
            out = emit_promotions(out, p.capture_west & last_rank, p.west);
            out = emit_promotions(out, p.capture_east & last_rank, p.east);
            out = emit_promotions(out, p.push & last_rank, p.forward);
            Bitboard ep = ep_capturers(pos, &c);
            while (ep)
                *out++ = move_make_kind(bb_pop(&ep), (Square)pos->ep, MOVE_EN_PASSANT);
        }
        if (kind != GEN_NOISY) {
            out = emit_pawn_moves(out, p.push & ~last_rank, p.forward);
            out = emit_pawn_moves(out, p.double_push, 2 * p.forward);
        }
        out = emit_pieces(pos, &c, out, targets & c.check_mask);
    }
    out = emit_targets(out, c.king, king_targets);
    if (kind != GEN_NOISY)
        out = emit_castling(pos, &c, out);
    return (int)(out - start);
}

int gen_count(const Position *pos) {
    GenContext c;
    context_init(pos, &c);
    int count = bb_count(safe_squares(pos, &c, bb_king_attacks(c.king) & ~c.own));
    if (!c.check_mask)
        return count;
    PawnTargets p;
    pawn_targets(pos, &c, &p);
    Bitboard last_rank = c.us == WHITE ? BB_RANK_8 : BB_RANK_1;
    count += bb_count(p.push & ~last_rank) + bb_count(p.double_push) + bb_count(p.capture_west & ~last_rank) +
             bb_count(p.capture_east & ~last_rank);
    count += 4 * (bb_count(p.push & last_rank) + bb_count(p.capture_west & last_rank) +
                  bb_count(p.capture_east & last_rank));
    count += bb_count(ep_capturers(pos, &c));

    Bitboard targets = ~c.own & c.check_mask;
    Bitboard pinned = c.pin_straight | c.pin_diagonal;
    Bitboard b = pos_pieces(pos, c.us, KNIGHT) & ~pinned;
    while (b)
        count += bb_count(bb_knight_attacks(bb_pop(&b)) & targets);
    Bitboard diagonal = c.own & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & ~c.pin_straight;
    Bitboard straight = c.own & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & ~c.pin_diagonal;
    for (b = diagonal & ~c.pin_diagonal; b;)
        count += bb_count(bb_bishop_attacks(bb_pop(&b), c.occupied) & targets);
    for (b = diagonal & c.pin_diagonal; b;)
        count += bb_count(bb_bishop_attacks(bb_pop(&b), c.occupied) & targets & c.pin_diagonal);
    for (b = straight & ~c.pin_straight; b;)
        count += bb_count(bb_rook_attacks(bb_pop(&b), c.occupied) & targets);
    for (b = straight & c.pin_straight; b;)
        count += bb_count(bb_rook_attacks(bb_pop(&b), c.occupied) & targets & c.pin_straight);
    uint8_t rights = pos->castling & castle_rights_of(c.us);
    if (rights && !pos->checkers) {
        int h_side = 2 * (int)c.us;
        count += (rights & (1 << h_side)) && castling_allowed(pos, &c, h_side);
        count += (rights & (2 << h_side)) && castling_allowed(pos, &c, h_side + 1);
    }
    return count;
}

bool gen_is_legal(const Position *pos, Move m) {
    Move moves[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

bool gen_has_legal_move(const Position *pos) { return gen_count(pos) > 0; }

bool gen_ep_legal(const Position *pos) {
    if (pos->ep == SQ_NONE)
        return false;
    GenContext c;
    context_init(pos, &c);
    return c.check_mask && ep_capturers(pos, &c) != 0;
}
