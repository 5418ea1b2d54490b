/* Position building, attack queries, the from-scratch consistency check, and names of pieces and
 * squares. */
#include "schach/position.h"

#include <stdio.h>
#include <string.h>

#include "castling.h"
#include "schach/fen.h"
#include "init.h"

void pos_clear(Position *pos) {
    schach_init();
    memset(pos, 0, sizeof *pos);
    memset(pos->board, NO_PIECE, sizeof pos->board);
    pos->turn = WHITE;
    pos->ep = SQ_NONE;
    pos->fullmove = 1;
    castle_set_standard(pos);
}

void pos_put(Position *pos, Piece p, Square s) {
    pos->board[s] = (uint8_t)p;
    pos->by_type[piece_type(p)] |= bb_square(s);
    pos->by_color[piece_color(p)] |= bb_square(s);
}

void pos_finish(Position *pos) {
    pos->checkers = pos_attackers_to(pos, pos_king(pos, pos_turn(pos)), pos_occupied(pos)) & pos->by_color[!pos->turn];
    pos->key = pos_compute_key(pos);
}

void pos_set_start(Position *pos) {
    static const PieceType back_rank[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    pos_clear(pos);
    for (int f = 0; f < 8; f++) {
        pos_put(pos, piece_make(WHITE, back_rank[f]), square_make(f, 0));
        pos_put(pos, piece_make(WHITE, PAWN), square_make(f, 1));
        pos_put(pos, piece_make(BLACK, PAWN), square_make(f, 6));
        pos_put(pos, piece_make(BLACK, back_rank[f]), square_make(f, 7));
    }
    pos->castling = CASTLE_ALL;
    pos_finish(pos);
}

Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occ) {
    Bitboard diagonal = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    Bitboard straight = pos->by_type[ROOK] | pos->by_type[QUEEN];
    return (bb_pawn_attacks(BLACK, s) & pos_pieces(pos, WHITE, PAWN)) |
           (bb_pawn_attacks(WHITE, s) & pos_pieces(pos, BLACK, PAWN)) | (bb_knight_attacks(s) & pos->by_type[KNIGHT]) |
           (bb_king_attacks(s) & pos->by_type[KING]) | (bb_bishop_attacks(s, occ) & diagonal) |
           (bb_rook_attacks(s, occ) & straight);
}

bool pos_attacked_by(const Position *pos, Square s, Color by) {
    return (pos_attackers_to(pos, s, pos_occupied(pos)) & pos->by_color[by]) != 0;
}

uint64_t pos_compute_key(const Position *pos) {
    uint64_t key = castle_key(pos, pos->castling);
    for (Square s = SQ_A1; s <= SQ_H8; s++)
        if (pos->board[s] != NO_PIECE)
            key ^= zobrist_piece[pos->board[s]][s];
    if (pos->ep != SQ_NONE)
        key ^= zobrist_ep_file[square_file((Square)pos->ep)];
    if (pos->turn == BLACK)
        key ^= zobrist_black_to_move;
    return key;
}

/* Writes a failure reason and returns false, so checks read as `return fail(...)`. */
static bool fail(char *why, size_t size, const char *reason, int detail) {
    if (why && size)
        snprintf(why, size, "%s (%d)", reason, detail);
    return false;
}

bool pos_ok(const Position *pos, char *why, size_t size) {
    Bitboard all = 0;
    for (PieceType t = PAWN; t < PIECE_TYPE_NB; t++) {
        if (all & pos->by_type[t])
            return fail(why, size, "piece type bitboards overlap", t);
        all |= pos->by_type[t];
    }
    if (pos->by_color[WHITE] & pos->by_color[BLACK])
        return fail(why, size, "colour bitboards overlap", 0);
    if (all != pos_occupied(pos))
        return fail(why, size, "type and colour bitboards disagree", 0);
    for (Square s = SQ_A1; s <= SQ_H8; s++) {
        Piece p = pos_piece_on(pos, s);
        bool occupied = (all & bb_square(s)) != 0;
        if (p == NO_PIECE ? occupied
                          : (p > NO_PIECE || !(pos_pieces(pos, piece_color(p), piece_type(p)) & bb_square(s))))
            return fail(why, size, "mailbox disagrees with bitboards on square", s);
    }
    for (Color c = WHITE; c <= BLACK; c++)
        if (bb_count(pos_pieces(pos, c, KING)) != 1)
            return fail(why, size, "king count of colour", c);
    if (pos->by_type[PAWN] & (BB_RANK_1 | BB_RANK_8))
        return fail(why, size, "pawn on the first or last rank", 0);
    if (pos->turn > BLACK || pos->castling > CASTLE_ALL)
        return fail(why, size, "turn or castling out of range", pos->castling);
    Color us = pos_turn(pos), them = (Color)!us;
    if (pos_attacked_by(pos, pos_king(pos, them), us))
        return fail(why, size, "the side not to move is in check", them);
    Bitboard checkers = pos_attackers_to(pos, pos_king(pos, us), all) & pos->by_color[them];
    if (checkers != pos->checkers)
        return fail(why, size, "checkers are stale", bb_count(checkers));
    /* A right needs the king on its back rank and the right's rook there on the right side of it. */
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        Color c = (Color)(i >> 1);
        Square king = pos_king(pos, c), rook = (Square)pos->castle_rook[i];
        if (rook > SQ_H8 || square_rank(square_relative(c, king)) != 0 || square_rank(rook) != square_rank(king) ||
            pos->board[rook] != piece_make(c, ROOK) || ((i & 1) ? rook > king : rook < king))
            return fail(why, size, "castling right without king and rook at home", 1 << i);
    }
    if (pos->ep != SQ_NONE) {
        Square ep = (Square)pos->ep;
        if (ep > SQ_H8 || square_rank(ep) != (us == WHITE ? 5 : 2) || pos->board[ep] != NO_PIECE)
            return fail(why, size, "bad en passant square", ep);
        Square pushed = us == WHITE ? ep - 8 : ep + 8;
        if (pos->board[pushed] != piece_make(them, PAWN))
            return fail(why, size, "en passant without the pawn that moved", ep);
        if (!(bb_pawn_attacks(them, ep) & pos_pieces(pos, us, PAWN)))
            return fail(why, size, "en passant square set without a pawn that could capture", ep);
    }
    if (pos->key != pos_compute_key(pos))
        return fail(why, size, "Zobrist key is stale", 0);
    return true;
}

static const char letters_en[PIECE_TYPE_NB + 1] = "PNBRQK";
static const char letters_de[PIECE_TYPE_NB + 1] = "BSLTDK";

char piece_letter(PieceType t, Lang lang) {
    return t < PIECE_TYPE_NB ? (lang == LANG_DE ? letters_de : letters_en)[t] : '?';
}

PieceType piece_from_letter(char c, Lang lang) {
    const char *letters = lang == LANG_DE ? letters_de : letters_en;
    for (PieceType t = PAWN; t < PIECE_TYPE_NB; t++)
        if (letters[t] == c)
            return t;
    return PIECE_TYPE_NB;
}

void square_name(Square s, char buf[3]) {
    buf[0] = (char)('a' + square_file(s));
    buf[1] = (char)('1' + square_rank(s));
    buf[2] = '\0';
}

Square square_parse(const char *text) {
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return SQ_NONE;
    return square_make(text[0] - 'a', text[1] - '1');
}
