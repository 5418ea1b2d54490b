/** @file
 * libschach: move notation — SAN (English and German letters), long algebraic, UCI.
 *
 * Output is standard: SAN disambiguates by file, then rank, then both, only when needed, and adds
 * "+" or "#". English castles "O-O"/"O-O-O"; German writes K D T L S, "0-0"/"0-0-0", "e8=D" and marks
 * en passant captures "exd6 e.p." (after a check mark: "exd6+ e.p.").
 * Input is strict plus the lenient forms people type: 0-0 or O-O, an "e.p." suffix, missing or wrong
 * "+"/"#", "!?"-style suffixes, over-disambiguation, missing "=", lowercase promotion letter, and
 * letters of either language (the lang argument decides only 'B': bishop in English, pawn in German).
 * Errors say why: "ambiguous: Nbd2 or Nfd2", "no knight can reach d2".
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_NOTATION_H
#define SCH_NOTATION_H

#include <stddef.h>

#include "error.h"
#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Enough for any SAN, LAN or UCI text this library writes, including the NUL. */
#define SCH_MOVE_TEXT_MAX 16

enum {
    SCH_MOVE_ERR_EMPTY = 200,       /**< no move text */
    SCH_MOVE_ERR_SYNTAX,            /**< %1: the text, which is not a move in any notation */
    SCH_MOVE_ERR_NO_PIECE,          /**< %1: English piece letter, %2: target square: generic form of the
                             * per-piece codes below (which sch_san_parse reports) */
    SCH_MOVE_ERR_AMBIGUOUS,         /**< %1: all candidates but the last, comma-separated ("Nbd2" or
                             * "Qa1, Qb2"), %2: the last one; in the letters of the parse language */
    SCH_MOVE_ERR_ILLEGAL,           /**< %1: the move text: not legal in this position */
    SCH_MOVE_ERR_PROMOTION_MISSING, /**< %1: the move: a pawn reaching the last rank must promote */
    SCH_MOVE_ERR_PROMOTION_BAD,     /**< %1: the move: promotion where none is possible */
    /** notation.c may add codes below this line */
    /** "no <piece> can reach %2", one code per piece type so each language can inflect the noun
     * (German "keine Dame", "kein Turm"); code = SCH_MOVE_ERR_NO_PAWN + SchPieceType.
     * %1: English piece letter ("N"), %2: target square. */
    SCH_MOVE_ERR_NO_PAWN,
    SCH_MOVE_ERR_NO_KNIGHT,
    SCH_MOVE_ERR_NO_BISHOP,
    SCH_MOVE_ERR_NO_ROOK,
    SCH_MOVE_ERR_NO_QUEEN,
    SCH_MOVE_ERR_NO_KING,
    SCH_MOVE_ERR_EMPTY_SQUARE,    /**< %1: the from square, which is empty */
    SCH_MOVE_ERR_WRONG_COLOR,     /**< %1: the from square, which holds an opponent's piece */
    SCH_MOVE_ERR_KING_EXPOSED,    /**< %1: the move text: the piece could go there, but the own king
                                * would be (or stay) in check */
    SCH_MOVE_ERR_CASTLE_RIGHTS,   /**< %1: the move text: king or rook has moved (right lost) */
    SCH_MOVE_ERR_CASTLE_IN_CHECK, /**< %1: the move text: castling out of check */
    SCH_MOVE_ERR_CASTLE_BLOCKED,  /**< %1: the move text: pieces between king and rook */
    SCH_MOVE_ERR_CASTLE_ATTACKED, /**< %1: the move text, %2: attacked square the king crosses or lands on */
    SCH_MOVE_ERR_PROMOTION_PIECE, /**< %1: the move text: promotion to a king or pawn */
    SCH_MOVE_ERR_DID_YOU_MEAN,    /**< %1: the move text, %2: the legal move(s) it most likely meant */
};

/** Longest move text read; longer input is refused (and shown cut to this length in messages). */
#define SCH_MOVE_INPUT_MAX 40

/** What a move text says before any position is consulted: the parts of SAN, long algebraic or UCI. */
typedef struct SchMoveText {
    SchPieceType piece; /**< SCH_PIECE_TYPE_NB when no piece letter was given */
    int from_file;      /**< 0-7, or -1 when not given */
    int from_rank;      /**< 0-7, or -1 when not given */
    SchSquare to;       /**< SCH_SQ_NONE for castling */
    SchPieceType promo; /**< SCH_PIECE_TYPE_NB when none was given; may be PAWN or KING, which callers refuse */
    int castle;         /**< 0 none, 1 king side, 2 queen side */
    char separator;     /**< 'x', ':', '-' or 0: what stood between origin and target */
    size_t length;      /**< length of the text without surrounding white space; 0 means empty */
    char shown[SCH_MOVE_INPUT_MAX + 1]; /**< that text as printable ASCII, for messages */
} SchMoveText;

/** Reads the parts of text (trimmed; suffixes + # ! ? e.p. dropped; letters of both languages, 'B'
 * by lang) into *out. Returns false when the text is empty, longer than SCH_MOVE_INPUT_MAX, or no
 * move in any notation; out->length and out->shown are filled in every case. */
bool sch_move_text_read(const char *text, SchLang lang, SchMoveText *out);

/** Writes the SAN of legal move m in pos ("Nf3", "Sf3", "O-O", "0-0", "exd6 e.p.", "e8=D#").
 * Returns the length; buf needs SCH_MOVE_TEXT_MAX bytes. */
size_t sch_san_write(const SchPosition *pos, SchMove m, SchLang lang, char *buf, size_t size);

/** Parses SAN (strict or lenient, see above; also long algebraic) and returns the legal move, or
 * SCH_MOVE_NONE with err set (err is left alone on success). text must be NUL-terminated. */
SchMove sch_san_parse(const SchPosition *pos, const char *text, SchLang lang, SchError *err);

/** Writes long algebraic notation: "e2-e4", "Ng1-f3" / "Sg1-f3", "e4xd5", "O-O", "e7-e8=Q", with
 * "+"/"#" and German "e.p." as in sch_san_write. sch_san_parse and sch_move_parse read it back. */
size_t sch_lan_write(const SchPosition *pos, SchMove m, SchLang lang, char *buf, size_t size);

/** Parses UCI text into a legal move; castling is accepted as the king's move to its target ("e1g1")
 * unless a plain king move reads the same, and as king-takes-own-rook ("e1h1", Chess960's form).
 * Returns SCH_MOVE_NONE with err set when malformed or illegal. */
SchMove sch_uci_parse(const SchPosition *pos, const char *text, SchError *err);

/** Sets err to why the move from -> to (promotion promo, SCH_PIECE_TYPE_NB for none), which must not be
 * legal in pos, is not legal: empty or enemy from square, castling reasons, promotion problems,
 * king left in check, or SCH_MOVE_ERR_ILLEGAL. text is the move as the user wrote it (for %1).
 * Always returns false. */
bool sch_move_explain(const SchPosition *pos, SchSquare from, SchSquare to, SchPieceType promo, const char *text,
                      SchError *err);

/** Sets err to why castling of the side to move towards the h-side (O-O, h_side true) or the a-side
 * (O-O-O) is not legal in pos (Chess960 rule; standard chess is a case). Always returns false. */
bool sch_move_explain_castling(const SchPosition *pos, bool h_side, const char *text, SchError *err);

/** Writes the UCI notation of move m played in pos: "e2e4", "e7e8q", castling as the king's move
 * ("e1g1") in standard chess and, when pos->chess960, as the king taking its own rook ("e1h1",
 * "b1a1"; the UCI_Chess960 convention). SCH_MOVE_NONE and the null move SCH_MOVE_NULL are "0000". A move that is not legal in pos is
 * written by its squares. Returns the length (like snprintf); buf needs SCH_MOVE_TEXT_MAX bytes. */
size_t sch_uci_write(const SchPosition *pos, SchMove m, char *buf, size_t size);

/** Parses a move in any notation people use: UCI, long algebraic (with '-' or 'x'), or SAN in English
 * or German. Returns the legal move, or SCH_MOVE_NONE with err set (the most helpful reason). */
SchMove sch_move_parse(const SchPosition *pos, const char *text, SchLang lang, SchError *err);

#ifdef __cplusplus
}
#endif

#endif
