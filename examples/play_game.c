/* play_game: plays a game move by move and says how it ends — the second example of
 * docs/library/tutorial.md.
 *
 *     play_game [--de] MOVE...      e.g.  play_game f3 e5 g4 Qh4#
 *
 * Each move may be written the way people type it: SAN in English or German letters (Nf3, Sf3),
 * long algebraic (g1-f3) or UCI (g1f3). A move that is not legal is refused with the rule that
 * forbids it, and the game goes on from there. After every move the game decides the endings the
 * FIDE Laws make automatic (checkmate, stalemate, dead position, fivefold repetition, 75 moves); the
 * program also says when the player to move could claim a draw (threefold repetition, 50 moves).
 */
#include <schach/schach.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    SchLang lang = SCH_LANG_EN;
    SchGame game;
    sch_game_init(&game); /* the standard starting position; sch_game_init_fen for any other */

    for (int i = 1; i < argc && !sch_game_over(&game); i++) {
        if (strcmp(argv[i], "--de") == 0) {
            lang = SCH_LANG_DE;
            continue;
        }
        /* Read the move as a learner types it; when it is not legal, err says why. */
        SchError err;
        SchMove move = sch_game_parse_move(&game, argv[i], lang, &err);
        if (move == SCH_MOVE_NONE) {
            char why[256];
            sch_err_format(&err, lang, why, sizeof why);
            printf("%s: %s\n", argv[i], why);
            continue;
        }
        /* The SAN must be written before the move is played: it depends on the position. */
        char san[SCH_MOVE_TEXT_MAX];
        sch_san_write(sch_game_position(&game), move, lang, san, sizeof san);
        if (!sch_game_play(&game, move, &err)) { /* only when out of memory, as the move is legal */
            fprintf(stderr, "play_game: out of memory\n");
            sch_game_free(&game);
            return 1;
        }
        int ply = game.ply_count;
        printf("%d%s %s\n", (ply + 1) / 2, ply % 2 ? "." : "...", san);

        int claims = sch_game_claims(&game);
        if (claims & SCH_CLAIM_THREEFOLD)
            printf("the player to move may claim a draw by threefold repetition\n");
        if (claims & SCH_CLAIM_FIFTY)
            printf("the player to move may claim a draw by the 50-move rule\n");
    }

    if (sch_game_over(&game)) {
        char ending[160];
        sch_outcome_describe(&game.outcome, lang, ending, sizeof ending);
        printf("%s\n", ending);
    } else {
        printf("the game goes on: %s to move\n",
               sch_pos_turn(sch_game_position(&game)) == SCH_WHITE ? "White" : "Black");
    }
    sch_game_free(&game); /* the game's history is the one thing it allocates */
    return 0;
}
