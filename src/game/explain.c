/* Why a move is refused, in the words of the rules. (First version: the notation module's reasons;
 * the explain module replaces this.) */
#include "schach/explain.h"

#include "schach/notation.h"

Move game_parse_move(const Game *g, const char *text, Lang lang, SchError *err) {
    return move_parse(&g->pos, text, lang, err);
}

bool game_explain_move(const Game *g, Square from, Square to, PieceType promo, SchError *err) {
    return move_explain(&g->pos, from, to, promo, "", err);
}

const char *explain_error_template(int code, Lang lang) {
    (void)code;
    (void)lang;
    return NULL;
}
