/* Position building, attack queries, the from-scratch consistency check, and names of pieces and
 * squares. */
#include "schach/position.h"

#include <stdio.h>
#include <string.h>

#include "castling.h"
#include "schach/fen.h"
#include "init.h"

void sch_pos_clear(SchPosition *pos) {
    sch_core_init();
    memset(pos, 0, sizeof *pos);
    memset(pos->board, SCH_NO_PIECE, sizeof pos->board);
    pos->turn = SCH_WHITE;
    pos->ep = SCH_SQ_NONE;
    pos->fullmove = 1;
    sch_castle_set_standard(pos);
}

void sch_pos_put(SchPosition *pos, SchPiece p, SchSquare s) {
    pos->board[s] = (uint8_t)p;
    pos->by_type[sch_piece_type(p)] |= sch_bb_square(s);
    pos->by_color[sch_piece_color(p)] |= sch_bb_square(s);
}

void sch_pos_finish(SchPosition *pos) {
    pos->checkers = sch_pos_attackers_to(pos, sch_pos_king(pos, sch_pos_turn(pos)), sch_pos_occupied(pos)) &
                    pos->by_color[!pos->turn];
    pos->key = sch_pos_compute_key(pos);
}

void sch_pos_set_start(SchPosition *pos) {
    static const SchPieceType back_rank[8] = {SCH_ROOK, SCH_KNIGHT, SCH_BISHOP, SCH_QUEEN,
                                              SCH_KING, SCH_BISHOP, SCH_KNIGHT, SCH_ROOK};
    sch_pos_clear(pos);
    for (int f = 0; f < 8; f++) {
        sch_pos_put(pos, sch_piece_make(SCH_WHITE, back_rank[f]), sch_square_make(f, 0));
        sch_pos_put(pos, sch_piece_make(SCH_WHITE, SCH_PAWN), sch_square_make(f, 1));
        sch_pos_put(pos, sch_piece_make(SCH_BLACK, SCH_PAWN), sch_square_make(f, 6));
        sch_pos_put(pos, sch_piece_make(SCH_BLACK, back_rank[f]), sch_square_make(f, 7));
    }
    pos->castling = SCH_CASTLE_ALL;
    sch_pos_finish(pos);
}

SchBitboard sch_pos_attackers_to(const SchPosition *pos, SchSquare s, SchBitboard occ) {
    SchBitboard diagonal = pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN];
    SchBitboard straight = pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN];
    return (sch_bb_pawn_attacks(SCH_BLACK, s) & sch_pos_pieces(pos, SCH_WHITE, SCH_PAWN)) |
           (sch_bb_pawn_attacks(SCH_WHITE, s) & sch_pos_pieces(pos, SCH_BLACK, SCH_PAWN)) |
           (sch_bb_knight_attacks(s) & pos->by_type[SCH_KNIGHT]) | (sch_bb_king_attacks(s) & pos->by_type[SCH_KING]) |
           (sch_bb_bishop_attacks(s, occ) & diagonal) | (sch_bb_rook_attacks(s, occ) & straight);
}

bool sch_pos_attacked_by(const SchPosition *pos, SchSquare s, SchColor by) {
    return (sch_pos_attackers_to(pos, s, sch_pos_occupied(pos)) & pos->by_color[by]) != 0;
}

uint64_t sch_pos_compute_key(const SchPosition *pos) {
    uint64_t key = castle_key(pos, pos->castling);
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++)
        if (pos->board[s] != SCH_NO_PIECE)
            key ^= sch_zobrist_piece[pos->board[s]][s];
    if (pos->ep != SCH_SQ_NONE)
        key ^= sch_zobrist_ep_file[sch_square_file((SchSquare)pos->ep)];
    if (pos->turn == SCH_BLACK)
        key ^= sch_zobrist_black_to_move;
    return key;
}

/* Writes a failure reason and returns false, so checks read as `return fail(...)`. */
static bool fail(char *why, size_t size, const char *reason, int detail) {
    if (why && size)
        snprintf(why, size, "%s (%d)", reason, detail);
    return false;
}

bool sch_pos_ok(const SchPosition *pos, char *why, size_t size) {
    SchBitboard all = 0;
    for (SchPieceType t = SCH_PAWN; t < SCH_PIECE_TYPE_NB; t++) {
        if (all & pos->by_type[t])
            return fail(why, size, "piece type bitboards overlap", t);
        all |= pos->by_type[t];
    }
    if (pos->by_color[SCH_WHITE] & pos->by_color[SCH_BLACK])
        return fail(why, size, "colour bitboards overlap", 0);
    if (all != sch_pos_occupied(pos))
        return fail(why, size, "type and colour bitboards disagree", 0);
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++) {
        SchPiece p = sch_pos_piece_on(pos, s);
        bool occupied = (all & sch_bb_square(s)) != 0;
        if (p == SCH_NO_PIECE ? occupied
                              : (p > SCH_NO_PIECE ||
                                 !(sch_pos_pieces(pos, sch_piece_color(p), sch_piece_type(p)) & sch_bb_square(s))))
            return fail(why, size, "mailbox disagrees with bitboards on square", s);
    }
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++)
        if (sch_bb_count(sch_pos_pieces(pos, c, SCH_KING)) != 1)
            return fail(why, size, "king count of colour", c);
    if (pos->by_type[SCH_PAWN] & (SCH_BB_RANK_1 | SCH_BB_RANK_8))
        return fail(why, size, "pawn on the first or last rank", 0);
    if (pos->turn > SCH_BLACK || pos->castling > SCH_CASTLE_ALL)
        return fail(why, size, "turn or castling out of range", pos->castling);
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    if (sch_pos_attacked_by(pos, sch_pos_king(pos, them), us))
        return fail(why, size, "the side not to move is in check", them);
    SchBitboard checkers = sch_pos_attackers_to(pos, sch_pos_king(pos, us), all) & pos->by_color[them];
    if (checkers != pos->checkers)
        return fail(why, size, "checkers are stale", sch_bb_count(checkers));
    /* A right needs the king on its back rank and the right's rook there on the right side of it. */
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        SchColor c = (SchColor)(i >> 1);
        SchSquare king = sch_pos_king(pos, c), rook = (SchSquare)pos->castle_rook[i];
        if (rook > SCH_SQ_H8 || sch_square_rank(sch_square_relative(c, king)) != 0 ||
            sch_square_rank(rook) != sch_square_rank(king) || pos->board[rook] != sch_piece_make(c, SCH_ROOK) ||
            ((i & 1) ? rook > king : rook < king))
            return fail(why, size, "castling right without king and rook at home", 1 << i);
    }
    if (pos->ep != SCH_SQ_NONE) {
        SchSquare ep = (SchSquare)pos->ep;
        if (ep > SCH_SQ_H8 || sch_square_rank(ep) != (us == SCH_WHITE ? 5 : 2) || pos->board[ep] != SCH_NO_PIECE)
            return fail(why, size, "bad en passant square", ep);
        SchSquare pushed = us == SCH_WHITE ? ep - 8 : ep + 8;
        if (pos->board[pushed] != sch_piece_make(them, SCH_PAWN))
            return fail(why, size, "en passant without the pawn that moved", ep);
        if (!(sch_bb_pawn_attacks(them, ep) & sch_pos_pieces(pos, us, SCH_PAWN)))
            return fail(why, size, "en passant square set without a pawn that could capture", ep);
    }
    if (pos->key != sch_pos_compute_key(pos))
        return fail(why, size, "Zobrist key is stale", 0);
    return true;
}

static const char letters_en[SCH_PIECE_TYPE_NB + 1] = "PNBRQK";
static const char letters_de[SCH_PIECE_TYPE_NB + 1] = "BSLTDK";

char sch_piece_letter(SchPieceType t, SchLang lang) {
    return t < SCH_PIECE_TYPE_NB ? (lang == SCH_LANG_DE ? letters_de : letters_en)[t] : '?';
}

SchPieceType sch_piece_from_letter(char c, SchLang lang) {
    const char *letters = lang == SCH_LANG_DE ? letters_de : letters_en;
    for (SchPieceType t = SCH_PAWN; t < SCH_PIECE_TYPE_NB; t++)
        if (letters[t] == c)
            return t;
    return SCH_PIECE_TYPE_NB;
}

void sch_square_name(SchSquare s, char buf[3]) {
    buf[0] = (char)('a' + sch_square_file(s));
    buf[1] = (char)('1' + sch_square_rank(s));
    buf[2] = '\0';
}

SchSquare sch_square_parse(const char *text) {
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return SCH_SQ_NONE;
    return sch_square_make(text[0] - 'a', text[1] - '1');
}
