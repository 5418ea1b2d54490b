/* FEN: a strict parser that says which field is wrong and why, and a writer.
 * Parsing reads each of the six fields in turn; after the board is built, rules about the whole
 * position (kings, pawns, checks, material) reject impossible positions. */
#include "schach/fen.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "castling.h"
#include "schach/movegen.h"
#include "util/error_internal.h"

/* Field boundaries inside the text: start offset and length. */
typedef struct Field {
    const char *start;
    size_t length;
} Field;

static bool field_error(SchError *err, const char *text, Field f, int code) {
    char value[SCH_ERR_ARG_MAX];
    snprintf(value, sizeof value, "%.*s", (int)(f.length < sizeof value - 1 ? f.length : sizeof value - 1), f.start);
    sch_err_set(err, code, value, NULL, NULL);
    sch_err_at(err, 1, (int)(f.start - text) + 1);
    return false;
}

static bool error_at(SchError *err, const char *text, const char *where, int code, const char *a1, const char *a2) {
    sch_err_set(err, code, a1, a2, NULL);
    sch_err_at(err, 1, (int)(where - text) + 1);
    return false;
}

static const char *color_word(SchColor c) { return c == SCH_WHITE ? "@white" : "@black"; }

static bool parse_board(SchPosition *pos, const char *text, Field f, SchError *err) {
    int rank = 7, file = 0;
    for (size_t i = 0; i < f.length; i++) {
        const char *at = f.start + i;
        char ch = *at;
        if (ch == '/') {
            if (file != 8) {
                char r[12], n[12];
                snprintf(r, sizeof r, "%d", rank + 1);
                snprintf(n, sizeof n, "%d", file);
                return error_at(err, text, at, SCH_FEN_ERR_RANK_LENGTH, r, n);
            }
            if (--rank < 0)
                return error_at(err, text, at, SCH_FEN_ERR_RANKS, "9+", NULL);
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8) {
                char r[12], n[12];
                snprintf(r, sizeof r, "%d", rank + 1);
                snprintf(n, sizeof n, "%d", file);
                return error_at(err, text, at, SCH_FEN_ERR_RANK_LENGTH, r, n);
            }
        } else {
            SchPieceType t = sch_piece_from_letter((char)toupper((unsigned char)ch), SCH_LANG_EN);
            if (t == SCH_PIECE_TYPE_NB || !isalpha((unsigned char)ch)) {
                char c[8];
                snprintf(c, sizeof c, isprint((unsigned char)ch) ? "%c" : "\\x%02x", (unsigned char)ch);
                return error_at(err, text, at, SCH_FEN_ERR_PIECE, c, NULL);
            }
            if (file >= 8) {
                char r[12];
                snprintf(r, sizeof r, "%d", rank + 1);
                return error_at(err, text, at, SCH_FEN_ERR_RANK_LENGTH, r, "9+");
            }
            sch_pos_put(pos, sch_piece_make(isupper((unsigned char)ch) ? SCH_WHITE : SCH_BLACK, t),
                        sch_square_make(file, rank));
            file++;
        }
    }
    if (rank != 0) {
        char n[12];
        snprintf(n, sizeof n, "%d", 8 - rank);
        return error_at(err, text, f.start, SCH_FEN_ERR_RANKS, n, NULL);
    }
    if (file != 8) {
        char n[12];
        snprintf(n, sizeof n, "%d", file);
        return error_at(err, text, f.start + f.length, SCH_FEN_ERR_RANK_LENGTH, "1", n);
    }
    return true;
}

/* The outermost rook of colour c on its back rank beyond the king towards the h-side (h_side) or the
 * a-side, or SCH_SQ_NONE: what X-FEN's K and Q mean. */
static SchSquare outer_rook(const SchPosition *pos, SchColor c, bool h_side) {
    SchSquare king = sch_pos_king(pos, c);
    SchBitboard rooks = sch_pos_pieces(pos, c, SCH_ROOK) & (SCH_BB_RANK_1 << (8 * sch_square_rank(king)));
    rooks &= h_side ? ~((sch_bb_square(king) << 1) - 1) : sch_bb_square(king) - 1;
    if (!rooks)
        return SCH_SQ_NONE;
    return h_side ? (SchSquare)(63 - __builtin_clzll(rooks)) : sch_bb_lsb(rooks);
}

/* Castling rights: KQkq (X-FEN: the outermost rook on that side) or Shredder/X-FEN file letters
 * (A-H white, a-h black: the rook on that file). Each right needs the king on its back rank and the
 * rook there on that side of it. */
static bool parse_castling(SchPosition *pos, const char *text, Field f, SchError *err) {
    pos->castling = 0;
    if (f.length == 1 && f.start[0] == '-')
        return true;
    if (f.length > 4)
        return field_error(err, text, f, SCH_FEN_ERR_CASTLING);
    for (size_t i = 0; i < f.length; i++) {
        char ch = f.start[i];
        char lower = (char)tolower((unsigned char)ch);
        if (!(lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'h')))
            return field_error(err, text, f, SCH_FEN_ERR_CASTLING);
        SchColor c = isupper((unsigned char)ch) ? SCH_WHITE : SCH_BLACK;
        SchSquare king = sch_pos_king(pos, c), rook;
        char right[2] = {ch, '\0'};
        if (sch_square_rank(sch_square_relative(c, king)) != 0)
            return error_at(err, text, f.start + i, SCH_FEN_ERR_CASTLING_PIECES, right, NULL);
        if (lower == 'k' || lower == 'q') {
            rook = outer_rook(pos, c, lower == 'k');
        } else {
            rook = sch_square_make(lower - 'a', sch_square_rank(king));
            if (pos->board[rook] != sch_piece_make(c, SCH_ROOK))
                rook = SCH_SQ_NONE;
        }
        if (rook == SCH_SQ_NONE)
            return error_at(err, text, f.start + i, SCH_FEN_ERR_CASTLING_PIECES, right, NULL);
        int idx = 2 * (int)c + (rook < king);
        if (pos->castling & (1 << idx))
            return field_error(err, text, f, SCH_FEN_ERR_CASTLING);
        pos->castling |= (uint8_t)(1 << idx);
        pos->castle_rook[idx] = (uint8_t)rook;
    }
    /* Positions that only Chess960 can reach switch its notation on (UCI king-takes-rook). */
    if (!sch_castle_is_standard(pos))
        pos->chess960 = 1;
    return true;
}

static bool parse_ep(SchPosition *pos, const char *text, Field f, SchError *err) {
    pos->ep = SCH_SQ_NONE;
    if (f.length == 1 && f.start[0] == '-')
        return true;
    SchSquare s = f.length == 2 ? sch_square_parse(f.start) : SCH_SQ_NONE;
    if (s == SCH_SQ_NONE)
        return field_error(err, text, f, SCH_FEN_ERR_EP);
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    if (sch_square_rank(s) != (us == SCH_WHITE ? 5 : 2))
        return field_error(err, text, f, SCH_FEN_ERR_EP_RANK);
    /* The pawn that just made the double step stands in front of s; s and its start square are empty. */
    SchSquare pushed = us == SCH_WHITE ? s - 8 : s + 8, origin = us == SCH_WHITE ? s + 8 : s - 8;
    if (pos->board[pushed] != sch_piece_make(them, SCH_PAWN) || pos->board[s] != SCH_NO_PIECE ||
        pos->board[origin] != SCH_NO_PIECE)
        return field_error(err, text, f, SCH_FEN_ERR_EP_PAWN);
    /* Keep it only when a pawn could capture, which is how sch_pos_make records it too. */
    if (sch_bb_pawn_attacks(them, s) & sch_pos_pieces(pos, us, SCH_PAWN))
        pos->ep = (uint8_t)s;
    return true;
}

static bool parse_number(const char *text, Field f, int max, int *out, SchError *err, int code) {
    if (f.length == 0 || f.length > 6)
        return field_error(err, text, f, code);
    int v = 0;
    for (size_t i = 0; i < f.length; i++) {
        if (!isdigit((unsigned char)f.start[i]))
            return field_error(err, text, f, code);
        v = v * 10 + (f.start[i] - '0');
    }
    if (v > max)
        return field_error(err, text, f, code);
    *out = v;
    return true;
}

/* Rules about the whole position that no legal game can break. */
static bool check_position(const SchPosition *pos, const char *text, SchError *err) {
    char a[16], b[16];
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        int kings = sch_bb_count(sch_pos_pieces(pos, c, SCH_KING));
        if (kings != 1)
            return error_at(err, text, text, kings ? SCH_FEN_ERR_TWO_KINGS : SCH_FEN_ERR_NO_KING, color_word(c), NULL);
    }
    SchBitboard bad_pawns = pos->by_type[SCH_PAWN] & (SCH_BB_RANK_1 | SCH_BB_RANK_8);
    if (bad_pawns) {
        sch_square_name(sch_bb_lsb(bad_pawns), a);
        return error_at(err, text, text, SCH_FEN_ERR_PAWN_RANK, a, NULL);
    }
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        int pawns = sch_bb_count(sch_pos_pieces(pos, c, SCH_PAWN)), pieces = sch_bb_count(pos->by_color[c]);
        snprintf(b, sizeof b, "%d", pawns);
        if (pawns > 8)
            return error_at(err, text, text, SCH_FEN_ERR_TOO_MANY_PAWNS, color_word(c), b);
        snprintf(b, sizeof b, "%d", pieces);
        if (pieces > 16)
            return error_at(err, text, text, SCH_FEN_ERR_TOO_MANY_PIECES, color_word(c), b);
        /* Every piece beyond the initial set must be a promoted pawn. */
        int extra = 0;
        static const int initial[SCH_PIECE_TYPE_NB] = {8, 2, 2, 2, 1, 1};
        for (SchPieceType t = SCH_KNIGHT; t <= SCH_QUEEN; t++) {
            int n = sch_bb_count(sch_pos_pieces(pos, c, t));
            if (n > initial[t])
                extra += n - initial[t];
        }
        if (extra > 8 - pawns)
            return error_at(err, text, text, SCH_FEN_ERR_TOO_MANY_PROMOTED, color_word(c), NULL);
    }
    SchColor us = sch_pos_turn(pos), them = (SchColor)!us;
    if (sch_pos_attacked_by(pos, sch_pos_king(pos, them), us))
        return error_at(err, text, text, SCH_FEN_ERR_OPPONENT_IN_CHECK, NULL, NULL);
    int checkers = sch_bb_count(pos->checkers);
    if (checkers > 2) {
        snprintf(a, sizeof a, "%d", checkers);
        return error_at(err, text, text, SCH_FEN_ERR_TOO_MANY_CHECKERS, a, NULL);
    }
    if (checkers == 2) {
        /* A double check comes from a discovered check plus the moved piece: never two pawns,
         * never a pawn and a knight, never two knights, never two pieces of one slider kind along
         * lines that one move could not both open. Reject the cases no move can produce. */
        SchBitboard ch = pos->checkers;
        int pawns = sch_bb_count(ch & pos->by_type[SCH_PAWN]), knights = sch_bb_count(ch & pos->by_type[SCH_KNIGHT]);
        if (pawns + knights >= 2)
            return error_at(err, text, text, SCH_FEN_ERR_IMPOSSIBLE_CHECK, NULL, NULL);
    }
    return true;
}

bool sch_fen_parse(SchPosition *pos, const char *text, SchError *err) {
    sch_pos_clear(pos);
    sch_err_clear(err);
    if (!text)
        text = "";
    Field fields[7];
    int count = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            p++;
        if (count == 6) {
            Field extra = {start, (size_t)(p - start)};
            return field_error(err, text, extra, SCH_FEN_ERR_TRAILING);
        }
        fields[count++] = (Field){start, (size_t)(p - start)};
    }
    if (count == 0)
        return error_at(err, text, text, SCH_FEN_ERR_EMPTY, NULL, NULL);
    if (count != 4 && count != 6) {
        char n[12];
        snprintf(n, sizeof n, "%d", count);
        return error_at(err, text, text, SCH_FEN_ERR_FIELDS, n, NULL);
    }
    if (!parse_board(pos, text, fields[0], err))
        return false;
    if (fields[1].length != 1 || (fields[1].start[0] != 'w' && fields[1].start[0] != 'b'))
        return field_error(err, text, fields[1], SCH_FEN_ERR_TURN);
    pos->turn = fields[1].start[0] == 'w' ? SCH_WHITE : SCH_BLACK;
    /* Kings must be known before castling and check tests look at them. */
    for (SchColor c = SCH_WHITE; c <= SCH_BLACK; c++) {
        int kings = sch_bb_count(sch_pos_pieces(pos, c, SCH_KING));
        if (kings != 1)
            return error_at(err, text, fields[0].start, kings ? SCH_FEN_ERR_TWO_KINGS : SCH_FEN_ERR_NO_KING,
                            color_word(c), NULL);
    }
    if (!parse_castling(pos, text, fields[2], err) || !parse_ep(pos, text, fields[3], err))
        return false;
    int halfmove = 0, fullmove = 1;
    if (count == 6) {
        if (!parse_number(text, fields[4], 9999, &halfmove, err, SCH_FEN_ERR_HALFMOVE) ||
            !parse_number(text, fields[5], 9999, &fullmove, err, SCH_FEN_ERR_FULLMOVE))
            return false;
        if (fullmove == 0)
            return field_error(err, text, fields[5], SCH_FEN_ERR_FULLMOVE);
    }
    pos->halfmove = (uint16_t)halfmove;
    pos->fullmove = (uint16_t)fullmove;
    sch_pos_finish(pos);
    return check_position(pos, text, err);
}

size_t sch_fen_write(const SchPosition *pos, char *buf, size_t size) {
    char out[SCH_FEN_MAX];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            SchPiece p = sch_pos_piece_on(pos, sch_square_make(file, rank));
            if (p == SCH_NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            char letter = sch_piece_letter(sch_piece_type(p), SCH_LANG_EN);
            out[n++] = sch_piece_color(p) == SCH_WHITE ? letter : (char)tolower((unsigned char)letter);
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (rank)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = pos->turn == SCH_WHITE ? 'w' : 'b';
    out[n++] = ' ';
    if (!pos->castling)
        out[n++] = '-';
    /* X-FEN: K/Q/k/q when the right's rook is the outermost on its side (always so in standard chess),
     * otherwise the rook's file letter (uppercase for white). */
    static const char letters[] = "KQkq";
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        SchColor c = (SchColor)(i >> 1);
        SchSquare rook = (SchSquare)pos->castle_rook[i];
        if (outer_rook(pos, c, !(i & 1)) == rook)
            out[n++] = letters[i];
        else
            out[n++] = (char)((c == SCH_WHITE ? 'A' : 'a') + sch_square_file(rook));
    }
    out[n++] = ' ';
    if (sch_gen_ep_legal(pos)) {
        sch_square_name((SchSquare)pos->ep, out + n);
        n += 2;
    } else {
        out[n++] = '-';
    }
    n += (size_t)snprintf(out + n, sizeof out - n, " %u %u", (unsigned)pos->halfmove, (unsigned)pos->fullmove);
    if (size > 0)
        snprintf(buf, size, "%s", out);
    return n;
}

const char *sch_fen_error_template(int code, SchLang lang) {
    bool de = lang == SCH_LANG_DE;
    switch (code) {
        case SCH_FEN_ERR_EMPTY: return de ? "die FEN ist leer" : "the FEN is empty";
        case SCH_FEN_ERR_FIELDS:
            return de ? "eine FEN hat 6 Felder (oder 4), gefunden: %1" : "a FEN has 6 fields (or 4), found %1";
        case SCH_FEN_ERR_RANKS:
            return de ? "Feld 1 (Brett): 8 Reihen erwartet, gefunden: %1"
                      : "field 1 (board): expected 8 ranks, found %1";
        case SCH_FEN_ERR_RANK_LENGTH:
            return de ? "Feld 1 (Brett): Reihe %1 beschreibt %2 Felder statt 8"
                      : "field 1 (board): rank %1 describes %2 squares, not 8";
        case SCH_FEN_ERR_PIECE:
            return de ? "Feld 1 (Brett): '%1' ist kein Figurenbuchstabe (PNBRQK/pnbrqk)"
                      : "field 1 (board): '%1' is not a piece letter (PNBRQK/pnbrqk)";
        case SCH_FEN_ERR_TURN:
            return de ? "Feld 2 (am Zug): '%1' ist ungültig (w oder b)"
                      : "field 2 (side to move): '%1' is not valid (w or b)";
        case SCH_FEN_ERR_CASTLING:
            return de ? "Feld 3 (Rochade): '%1' ist ungültig" : "field 3 (castling): '%1' is not valid";
        case SCH_FEN_ERR_CASTLING_PIECES:
            return de ? "Feld 3 (Rochade): '%1' verlangt König und Turm auf ihren Ausgangsfeldern"
                      : "field 3 (castling): '%1' needs the king and the rook on their original squares";
        case SCH_FEN_ERR_EP:
            return de ? "Feld 4 (en passant): '%1' ist ungültig" : "field 4 (en passant): '%1' is not valid";
        case SCH_FEN_ERR_EP_RANK:
            return de ? "Feld 4 (en passant): '%1' liegt für die Seite am Zug auf der falschen Reihe"
                      : "field 4 (en passant): '%1' is on the wrong rank for the side to move";
        case SCH_FEN_ERR_EP_PAWN:
            return de ? "Feld 4 (en passant): auf '%1' folgt kein Doppelschritt eines Bauern"
                      : "field 4 (en passant): '%1' does not follow a pawn's double step";
        case SCH_FEN_ERR_HALFMOVE:
            return de ? "Feld 5 (Halbzugzähler): '%1' ist ungültig" : "field 5 (halfmove clock): '%1' is not valid";
        case SCH_FEN_ERR_FULLMOVE:
            return de ? "Feld 6 (Zugnummer): '%1' ist ungültig" : "field 6 (fullmove number): '%1' is not valid";
        case SCH_FEN_ERR_TRAILING:
            return de ? "unerwarteter Text nach Feld 6: '%1'" : "unexpected text after field 6: '%1'";
        case SCH_FEN_ERR_NO_KING: return de ? "Feld 1 (Brett): %1 hat keinen König" : "field 1 (board): %1 has no king";
        case SCH_FEN_ERR_TWO_KINGS:
            return de ? "Feld 1 (Brett): %1 hat mehr als einen König" : "field 1 (board): %1 has more than one king";
        case SCH_FEN_ERR_PAWN_RANK:
            return de ? "Feld 1 (Brett): Bauer auf der ersten oder letzten Reihe (%1)"
                      : "field 1 (board): pawn on the first or last rank (%1)";
        case SCH_FEN_ERR_TOO_MANY_PAWNS:
            return de ? "Feld 1 (Brett): %1 hat %2 Bauern (höchstens 8)"
                      : "field 1 (board): %1 has %2 pawns (at most 8)";
        case SCH_FEN_ERR_TOO_MANY_PIECES:
            return de ? "Feld 1 (Brett): %1 hat %2 Steine (höchstens 16)"
                      : "field 1 (board): %1 has %2 pieces (at most 16)";
        case SCH_FEN_ERR_OPPONENT_IN_CHECK:
            return de ? "die Seite, die nicht am Zug ist, steht im Schach" : "the side not to move is in check";
        case SCH_FEN_ERR_TOO_MANY_CHECKERS:
            return de ? "der König steht %1-fach im Schach; mehr als Doppelschach ist unmöglich"
                      : "the king is in check by %1 pieces; more than a double check is impossible";
        case SCH_FEN_ERR_IMPOSSIBLE_CHECK:
            return de ? "dieses Doppelschach kann durch keinen Zug entstehen" : "no move can produce this double check";
        case SCH_FEN_ERR_TOO_MANY_PROMOTED:
            return de ? "Feld 1 (Brett): %1 hat mehr umgewandelte Figuren als fehlende Bauern"
                      : "field 1 (board): %1 has more promoted pieces than missing pawns";
        default: return NULL;
    }
}
