/* Make and unmake. pos_make saves what is hard to recompute (captured piece, rights, en passant,
 * clock, key, checkers) in the caller's Undo, dispatches on the move kind, and keeps the Zobrist key
 * up to date with every board change. */
#include <assert.h>

#include "castling.h"
#include "schach/position.h"

#if SCHACH_SLOW_CHECKS
#define ASSERT_POS_OK(pos) assert(pos_ok((pos), NULL, 0))
#else
#define ASSERT_POS_OK(pos) ((void)0)
#endif

static inline void add_piece(Position *pos, Piece p, Square s) {
    Bitboard b = bb_square(s);
    pos->board[s] = (uint8_t)p;
    pos->by_type[piece_type(p)] |= b;
    pos->by_color[piece_color(p)] |= b;
}

static inline void remove_piece(Position *pos, Square s) {
    Piece p = pos_piece_on(pos, s);
    Bitboard b = bb_square(s);
    pos->board[s] = NO_PIECE;
    pos->by_type[piece_type(p)] ^= b;
    pos->by_color[piece_color(p)] ^= b;
}

static inline void move_piece(Position *pos, Square from, Square to) {
    Piece p = pos_piece_on(pos, from);
    Bitboard b = bb_square(from) | bb_square(to);
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)p;
    pos->by_type[piece_type(p)] ^= b;
    pos->by_color[piece_color(p)] ^= b;
}

static inline void save_state(const Position *pos, Undo *undo) {
    undo->key = pos->key;
    undo->checkers = pos->checkers;
    undo->halfmove = pos->halfmove;
    undo->castling = pos->castling;
    undo->ep = pos->ep;
    undo->captured = NO_PIECE;
}

static inline void restore_state(Position *pos, const Undo *undo) {
    pos->key = undo->key;
    pos->checkers = undo->checkers;
    pos->halfmove = undo->halfmove;
    pos->castling = undo->castling;
    pos->ep = undo->ep;
}

void pos_make(Position *pos, Move m, Undo *undo) {
    Color us = pos_turn(pos), them = (Color)!us;
    Square from = move_from(m), to = move_to(m);
    Piece piece = pos_piece_on(pos, from);
    int kind = move_kind(m);
    uint64_t key = pos->key ^ zobrist_black_to_move;

    save_state(pos, undo);
    if (pos->ep != SQ_NONE) {
        key ^= zobrist_ep_file[square_file((Square)pos->ep)];
        pos->ep = SQ_NONE;
    }
    pos->halfmove++;

    Piece captured = NO_PIECE;
    if (kind == MOVE_CASTLING) {
        /* Chess960: the king may already stand on its target or the rook on the king's, so both leave
         * the board before either lands. */
        int right = castle_index(us, to);
        Square rook_from = (Square)pos->castle_rook[right], rook_to = castle_rook_to(right);
        Piece rook = piece_make(us, ROOK);
        remove_piece(pos, from);
        remove_piece(pos, rook_from);
        add_piece(pos, piece, to);
        add_piece(pos, rook, rook_to);
        key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to] ^ zobrist_piece[rook][rook_from] ^
               zobrist_piece[rook][rook_to];
    } else {
        Square capture_square = kind == MOVE_EN_PASSANT ? (Square)(to ^ 8) : to;
        captured = pos_piece_on(pos, capture_square);
        if (captured != NO_PIECE) {
            remove_piece(pos, capture_square);
            key ^= zobrist_piece[captured][capture_square];
            pos->halfmove = 0;
            undo->captured = (uint8_t)captured;
        }
        move_piece(pos, from, to);
        key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
        if (piece_type(piece) == PAWN) {
            pos->halfmove = 0;
            if (kind == MOVE_PROMOTION) {
                Piece promoted = piece_make(us, move_promotion(m));
                remove_piece(pos, to);
                add_piece(pos, promoted, to);
                key ^= zobrist_piece[piece][to] ^ zobrist_piece[promoted][to];
            } else if ((from ^ to) == 16) {
                /* Record the square passed over only when an enemy pawn could capture there. */
                Square passed = (Square)((from + to) / 2);
                if (bb_pawn_attacks(us, passed) & pos_pieces(pos, them, PAWN)) {
                    pos->ep = (uint8_t)passed;
                    key ^= zobrist_ep_file[square_file(passed)];
                }
            }
        }
    }

    /* Rights end when the king moves, or when a castling rook moves or is captured (rights are per
     * rook, so a second rook on the same side keeps them). */
    if (pos->castling) {
        uint8_t rights = pos->castling;
        PieceType moved = piece_type(piece);
        if (moved == KING)
            rights &= (uint8_t)~castle_rights_of(us);
        else if (moved == ROOK)
            rights &= (uint8_t)~castle_rights_on(pos, from);
        if (captured != NO_PIECE && piece_type(captured) == ROOK)
            rights &= (uint8_t)~castle_rights_on(pos, to);
        if (rights != pos->castling) {
            key ^= castle_key(pos, pos->castling ^ rights);
            pos->castling = rights;
        }
    }

    pos->turn = (uint8_t)them;
    pos->fullmove += us == BLACK;
    pos->key = key;
    pos->checkers = pos_attackers_to(pos, pos_king(pos, them), pos_occupied(pos)) & pos->by_color[us];
    ASSERT_POS_OK(pos);
}

void pos_unmake(Position *pos, Move m, const Undo *undo) {
    Color them = pos_turn(pos), us = (Color)!them;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);

    if (kind == MOVE_CASTLING) {
        int right = castle_index(us, to);
        Square rook_from = (Square)pos->castle_rook[right], rook_to = castle_rook_to(right);
        remove_piece(pos, to);
        remove_piece(pos, rook_to);
        add_piece(pos, piece_make(us, KING), from);
        add_piece(pos, piece_make(us, ROOK), rook_from);
    } else {
        if (kind == MOVE_PROMOTION) {
            remove_piece(pos, to);
            add_piece(pos, piece_make(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (undo->captured != NO_PIECE)
            add_piece(pos, (Piece)undo->captured, kind == MOVE_EN_PASSANT ? (Square)(to ^ 8) : to);
    }

    pos->turn = (uint8_t)us;
    pos->fullmove -= us == BLACK;
    restore_state(pos, undo);
    ASSERT_POS_OK(pos);
}

void pos_make_null(Position *pos, Undo *undo) {
    save_state(pos, undo);
    pos->key ^= zobrist_black_to_move;
    if (pos->ep != SQ_NONE) {
        pos->key ^= zobrist_ep_file[square_file((Square)pos->ep)];
        pos->ep = SQ_NONE;
    }
    pos->halfmove++;
    pos->fullmove += pos->turn == BLACK;
    pos->turn ^= 1;
    pos->checkers = 0;
    ASSERT_POS_OK(pos);
}

void pos_unmake_null(Position *pos, const Undo *undo) {
    pos->turn ^= 1;
    pos->fullmove -= pos->turn == BLACK;
    restore_state(pos, undo);
    ASSERT_POS_OK(pos);
}
