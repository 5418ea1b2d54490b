/* legal_moves: the legal moves of a position in SAN — the first thing most users of a chess library
 * ask it. The first example of docs/library/tutorial.md.
 *
 *     legal_moves [--de] [FEN]      (the starting position without a FEN)
 *
 * Prints the side to move and every legal move in SAN, with English letters or, with --de, German
 * ones (K D T L S). An invalid FEN is refused with a message that says what and where.
 */
#include <schach/schach.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    SchLang lang = SCH_LANG_EN;
    const char *fen = SCH_FEN_START;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--de") == 0)
            lang = SCH_LANG_DE;
        else
            fen = argv[i];
    }

    /* Parse the FEN: on failure the error says which field is wrong and why. */
    SchPosition pos;
    SchError err;
    if (!sch_fen_parse(&pos, fen, &err)) {
        char message[256];
        sch_err_format(&err, lang, message, sizeof message);
        fprintf(stderr, "legal_moves: invalid FEN: column %d: %s\n", err.column, message);
        return 1;
    }

    /* Generate the legal moves into a list on the stack: the library allocates nothing here. */
    SchMoveList list;
    sch_gen_legal(&pos, &list);

    printf("%s to move, %d legal moves:", sch_pos_turn(&pos) == SCH_WHITE ? "White" : "Black", list.count);
    for (int i = 0; i < list.count; i++) {
        char san[SCH_MOVE_TEXT_MAX];
        sch_san_write(&pos, list.moves[i], lang, san, sizeof san);
        printf(" %s", san);
    }
    printf("\n");
    if (list.count == 0)
        printf("%s\n", sch_pos_in_check(&pos) ? "checkmate" : "stalemate");
    return 0;
}
