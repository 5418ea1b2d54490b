/* Chess960 (FIDE Laws, Guidelines II): start positions by number and the castling geometry that does
 * not belong to one hot path. Standard chess is the special case with the king on the e-file and the
 * rooks in the corners. */
#include "castling.h"

#include <string.h>

CastlePath sch_castle_paths[64][64];

void sch_castle_init(void) {
    for (int shift = 0; shift <= 56; shift += 56) /* white's and black's back rank */
        for (int k = 0; k < 8; k++)
            for (int r = 0; r < 8; r++) {
                if (k == r)
                    continue;
                bool a_side = r < k;
                int king_to = a_side ? 2 : 6, rook_to = a_side ? 3 : 5;
                SchBitboard empty = (castle_span(k, king_to) | castle_span(r, rook_to)) & ~(1ULL << k) & ~(1ULL << r);
                SchBitboard path = (castle_span(k, king_to) & ~(1ULL << k)) | (1ULL << king_to);
                sch_castle_paths[k + shift][r + shift] = (CastlePath){empty << shift, path << shift};
            }
}

void sch_castle_set_standard(SchPosition *pos) {
    pos->castle_rook[0] = SCH_SQ_H1;
    pos->castle_rook[1] = SCH_SQ_A1;
    pos->castle_rook[2] = SCH_SQ_H8;
    pos->castle_rook[3] = SCH_SQ_A8;
}

bool sch_castle_is_standard(const SchPosition *pos) {
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        SchColor c = (SchColor)(i >> 1);
        if (sch_pos_king(pos, c) != sch_square_relative(c, SCH_SQ_E1) ||
            pos->castle_rook[i] != sch_square_relative(c, (i & 1) ? SCH_SQ_A1 : SCH_SQ_H1))
            return false;
    }
    return true;
}

/* The back rank of start position n (Scharnagl): n mod 4 places the light-squared bishop (b, d, f, h),
 * the next base-4 digit the dark-squared one (a, c, e, g), the next base-6 digit the queen on the
 * free squares, the rest (0-9) one of the ten ways to put two knights on the five left; rook, king and
 * rook fill the last three squares in that order. */
static void chess960_back_rank(int n, SchPieceType rank[8]) {
    static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    for (int f = 0; f < 8; f++)
        rank[f] = SCH_PIECE_TYPE_NB;
    rank[2 * (n % 4) + 1] = SCH_BISHOP;
    n /= 4;
    rank[2 * (n % 4)] = SCH_BISHOP;
    n /= 4;
    int q = n % 6, k1 = knights[n / 6][0], k2 = knights[n / 6][1];
    for (int f = 0, free = 0; f < 8; f++)
        if (rank[f] == SCH_PIECE_TYPE_NB && free++ == q)
            rank[f] = SCH_QUEEN;
    for (int f = 0, free = 0; f < 8; f++)
        if (rank[f] == SCH_PIECE_TYPE_NB) {
            if (free == k1 || free == k2)
                rank[f] = SCH_KNIGHT;
            free++;
        }
    static const SchPieceType rest[3] = {SCH_ROOK, SCH_KING, SCH_ROOK};
    for (int f = 0, k = 0; f < 8; f++)
        if (rank[f] == SCH_PIECE_TYPE_NB)
            rank[f] = rest[k++];
}

bool sch_pos_set_chess960(SchPosition *pos, int number) {
    if (number < 0 || number > 959)
        return false;
    SchPieceType rank[8];
    chess960_back_rank(number, rank);
    sch_pos_clear(pos);
    int rooks = 0;
    for (int f = 0; f < 8; f++) {
        sch_pos_put(pos, sch_piece_make(SCH_WHITE, rank[f]), sch_square_make(f, 0));
        sch_pos_put(pos, sch_piece_make(SCH_WHITE, SCH_PAWN), sch_square_make(f, 1));
        sch_pos_put(pos, sch_piece_make(SCH_BLACK, SCH_PAWN), sch_square_make(f, 6));
        sch_pos_put(pos, sch_piece_make(SCH_BLACK, rank[f]), sch_square_make(f, 7));
        if (rank[f] == SCH_ROOK) {
            /* The first rook found is on the a-side of the king (right 1), the second on the h-side. */
            int i = rooks++ ? 0 : 1;
            pos->castle_rook[i] = (uint8_t)sch_square_make(f, 0);
            pos->castle_rook[i + 2] = (uint8_t)sch_square_make(f, 7);
        }
    }
    pos->castling = SCH_CASTLE_ALL;
    pos->chess960 = 1;
    sch_pos_finish(pos);
    return true;
}

bool sch_pos_chess960_castles_like_standard(int number) {
    if (number < 0 || number > 959)
        return false;
    SchPieceType rank[8];
    chess960_back_rank(number, rank);
    return rank[0] == SCH_ROOK && rank[4] == SCH_KING && rank[7] == SCH_ROOK;
}

int sch_pos_chess960_number(const SchPosition *pos) {
    if (pos->castling != SCH_CASTLE_ALL || pos->turn != SCH_WHITE || pos->ep != SCH_SQ_NONE ||
        sch_bb_count(sch_pos_occupied(pos)) != 32 || (sch_pos_pieces(pos, SCH_WHITE, SCH_PAWN) != SCH_BB_RANK_2) ||
        (sch_pos_pieces(pos, SCH_BLACK, SCH_PAWN) != SCH_BB_RANK_7))
        return -1;
    for (int n = 0; n < 960; n++) {
        SchPieceType rank[8];
        chess960_back_rank(n, rank);
        bool same = true;
        for (int f = 0; f < 8 && same; f++)
            same = pos->board[sch_square_make(f, 0)] == sch_piece_make(SCH_WHITE, rank[f]) &&
                   pos->board[sch_square_make(f, 7)] == sch_piece_make(SCH_BLACK, rank[f]);
        if (same)
            return n;
    }
    return -1;
}
