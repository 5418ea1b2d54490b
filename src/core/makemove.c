/* Make and unmake. sch_pos_make saves what is hard to recompute (captured piece, rights, en passant,
 * clock, key, checkers) in the caller's Undo, dispatches on the move kind, and keeps the Zobrist key
 * up to date with every board change. */
#include <assert.h>

#include "castling.h"
#include "schach/position.h"

#if SCH_SLOW_CHECKS
#define ASSERT_POS_OK(pos) assert(sch_pos_ok((pos), NULL, 0))
#else
#define ASSERT_POS_OK(pos) ((void)0)
#endif

static inline void add_piece(SchPosition *pos, SchPiece p, SchSquare s) {
    SchBitboard b = sch_bb_square(s);
    pos->board[s] = (uint8_t)p;
    pos->by_type[sch_piece_type(p)] |= b;
    pos->by_color[sch_piece_color(p)] |= b;
}

static inline void remove_piece(SchPosition *pos, SchSquare s) {
    SchPiece p = sch_pos_piece_on(pos, s);
    SchBitboard b = sch_bb_square(s);
    pos->board[s] = SCH_NO_PIECE;
    pos->by_type[sch_piece_type(p)] ^= b;
    pos->by_color[sch_piece_color(p)] ^= b;
}

static inline void move_piece(SchPosition *pos, SchSquare from, SchSquare to) {
    SchPiece p = sch_pos_piece_on(pos, from);
    SchBitboard b = sch_bb_square(from) | sch_bb_square(to);
    pos->board[from] = SCH_NO_PIECE;
    pos->board[to] = (uint8_t)p;
    pos->by_type[sch_piece_type(p)] ^= b;
    pos->by_color[sch_piece_color(p)] ^= b;
}

static inline void save_state(const SchPosition *pos, SchUndo *undo) {
    undo->key = pos->key;
    undo->checkers = pos->checkers;
    undo->halfmove = pos->halfmove;
    undo->castling = pos->castling;
    undo->ep = pos->ep;
    undo->captured = SCH_NO_PIECE;
}

static inline void restore_state(SchPosition *pos, const SchUndo *undo) {
    pos->key = undo->key;
    pos->checkers = undo->checkers;
    pos->halfmove = undo->halfmove;
    pos->castling = undo->castling;
    pos->ep = undo->ep;
}

void sch_pos_make(SchPosition *pos, SchMove m, SchUndo *undo) {
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    SchPiece piece = sch_pos_piece_on(pos, from);
    int kind = sch_move_kind(m);
    uint64_t key = pos->key ^ sch_zobrist_black_to_move;

    save_state(pos, undo);
    if (pos->ep != SCH_SQ_NONE) {
        key ^= sch_zobrist_ep_file[sch_square_file((SchSquare)pos->ep)];
        pos->ep = SCH_SQ_NONE;
    }
    pos->halfmove++;

    SchPiece captured = SCH_NO_PIECE;
    if (kind == SCH_MOVE_CASTLING) {
        /* Chess960: the king may already stand on its target or the rook on the king's, so both leave
         * the board before either lands. */
        int right = sch_castle_index(us, to);
        SchSquare rook_from = (SchSquare)pos->castle_rook[right], rook_to = castle_rook_to(right);
        SchPiece rook = sch_piece_make(us, SCH_ROOK);
        remove_piece(pos, from);
        remove_piece(pos, rook_from);
        add_piece(pos, piece, to);
        add_piece(pos, rook, rook_to);
        key ^= sch_zobrist_piece[piece][from] ^ sch_zobrist_piece[piece][to] ^ sch_zobrist_piece[rook][rook_from] ^
               sch_zobrist_piece[rook][rook_to];
    } else {
        SchSquare capture_square = kind == SCH_MOVE_EN_PASSANT ? (SchSquare)(to ^ 8) : to;
        captured = sch_pos_piece_on(pos, capture_square);
        if (captured != SCH_NO_PIECE) {
            remove_piece(pos, capture_square);
            key ^= sch_zobrist_piece[captured][capture_square];
            pos->halfmove = 0;
            undo->captured = (uint8_t)captured;
        }
        move_piece(pos, from, to);
        key ^= sch_zobrist_piece[piece][from] ^ sch_zobrist_piece[piece][to];
        if (sch_piece_type(piece) == SCH_PAWN) {
            pos->halfmove = 0;
            if (kind == SCH_MOVE_PROMOTION) {
                SchPiece promoted = sch_piece_make(us, sch_move_promotion(m));
                remove_piece(pos, to);
                add_piece(pos, promoted, to);
                key ^= sch_zobrist_piece[piece][to] ^ sch_zobrist_piece[promoted][to];
            } else if ((from ^ to) == 16) {
                /* Record the square passed over only when an enemy pawn could capture there. */
                SchSquare passed = (SchSquare)((from + to) / 2);
                if (sch_bb_pawn_attacks(us, passed) & sch_pos_pieces(pos, them, SCH_PAWN)) {
                    pos->ep = (uint8_t)passed;
                    key ^= sch_zobrist_ep_file[sch_square_file(passed)];
                }
            }
        }
    }

    /* Rights end when the king moves, or when a castling rook moves or is captured (rights are per
     * rook, so a second rook on the same side keeps them). */
    if (pos->castling) {
        uint8_t rights = pos->castling;
        SchPieceType moved = sch_piece_type(piece);
        if (moved == SCH_KING)
            rights &= (uint8_t)~castle_rights_of(us);
        else if (moved == SCH_ROOK)
            rights &= (uint8_t)~castle_rights_on(pos, from);
        if (captured != SCH_NO_PIECE && sch_piece_type(captured) == SCH_ROOK)
            rights &= (uint8_t)~castle_rights_on(pos, to);
        if (rights != pos->castling) {
            key ^= castle_key(pos, pos->castling ^ rights);
            pos->castling = rights;
        }
    }

    pos->turn = (uint8_t)them;
    pos->fullmove += us == SCH_BLACK;
    pos->key = key;
    pos->checkers = sch_pos_attackers_to(pos, sch_pos_king(pos, them), sch_pos_occupied(pos)) & pos->by_color[us];
    ASSERT_POS_OK(pos);
}

void sch_pos_unmake(SchPosition *pos, SchMove m, const SchUndo *undo) {
    SchColor them = sch_pos_turn(pos), us = (SchColor)!them;
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    int kind = sch_move_kind(m);

    if (kind == SCH_MOVE_CASTLING) {
        int right = sch_castle_index(us, to);
        SchSquare rook_from = (SchSquare)pos->castle_rook[right], rook_to = castle_rook_to(right);
        remove_piece(pos, to);
        remove_piece(pos, rook_to);
        add_piece(pos, sch_piece_make(us, SCH_KING), from);
        add_piece(pos, sch_piece_make(us, SCH_ROOK), rook_from);
    } else {
        if (kind == SCH_MOVE_PROMOTION) {
            remove_piece(pos, to);
            add_piece(pos, sch_piece_make(us, SCH_PAWN), to);
        }
        move_piece(pos, to, from);
        if (undo->captured != SCH_NO_PIECE)
            add_piece(pos, (SchPiece)undo->captured, kind == SCH_MOVE_EN_PASSANT ? (SchSquare)(to ^ 8) : to);
    }

    pos->turn = (uint8_t)us;
    pos->fullmove -= us == SCH_BLACK;
    restore_state(pos, undo);
    ASSERT_POS_OK(pos);
}

void sch_pos_make_null(SchPosition *pos, SchUndo *undo) {
    save_state(pos, undo);
    pos->key ^= sch_zobrist_black_to_move;
    if (pos->ep != SCH_SQ_NONE) {
        pos->key ^= sch_zobrist_ep_file[sch_square_file((SchSquare)pos->ep)];
        pos->ep = SCH_SQ_NONE;
    }
    pos->halfmove++;
    pos->fullmove += pos->turn == SCH_BLACK;
    pos->turn ^= 1;
    pos->checkers = 0;
    ASSERT_POS_OK(pos);
}

void sch_pos_unmake_null(SchPosition *pos, const SchUndo *undo) {
    pos->turn ^= 1;
    pos->fullmove -= pos->turn == SCH_BLACK;
    restore_state(pos, undo);
    ASSERT_POS_OK(pos);
}
