/* A program a user of the installed libschach writes: built by tests/cli/install.sh against the
 * installed headers and library only (pkg-config or CMake's find_package), in C and, as
 * consumer.cpp, in C++. It parses a FEN, lists the legal moves in SAN, plays a game to mate and
 * reads a PGN. Exit status 0 when everything agrees with what chess says. */
#include <schach/schach.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "consumer: %s\n", what);
        failures++;
    }
}

static const char PGN[] = "[Event \"Opera\"]\n[White \"Morphy\"]\n[Black \"Duke and Count\"]\n[Result \"1-0\"]\n\n"
                          "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6\n"
                          "9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6\n"
                          "15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

int main(void) {
    printf("slider lookup: %s\n", sch_slider_lookup());

    /* A FEN and its legal moves in SAN. */
    SchPosition pos;
    SchError err;
    check(sch_fen_parse(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &err),
          "Kiwipete FEN refused");
    SchMoveList list;
    sch_gen_legal(&pos, &list);
    check(list.count == 48, "Kiwipete has 48 legal moves");
    int castles = 0;
    printf("moves:");
    for (int i = 0; i < list.count; i++) {
        char san[16];
        sch_san_write(&pos, list.moves[i], SCH_LANG_EN, san, sizeof san);
        castles += strcmp(san, "O-O") == 0 || strcmp(san, "O-O-O") == 0;
        printf(" %s", san);
    }
    printf("\n");
    check(castles == 2, "both castlings in SAN");
    check(sch_perft(&pos, 3) == 97862, "Kiwipete perft 3");

    /* The fool's mate, move by move, to the end. */
    SchGame g;
    sch_game_init(&g);
    const char *moves[] = {"f3", "e5", "g4", "Qh4#"};
    for (int i = 0; i < 4; i++) {
        SchMove m = sch_san_parse(sch_game_position(&g), moves[i], SCH_LANG_EN, &err);
        check(m != SCH_MOVE_NONE && sch_game_play(&g, m, &err), "a move of the fool's mate refused");
    }
    check(sch_game_over(&g) && g.outcome.result == SCH_RESULT_BLACK_WINS && g.outcome.termination == SCH_TERM_CHECKMATE,
          "the fool's mate is checkmate, black wins");
    char text[128];
    sch_outcome_describe(&g.outcome, SCH_LANG_DE, text, sizeof text);
    printf("fool's mate: %s\n", text);
    sch_game_free(&g);

    /* A PGN game. */
    SchPgnReader *r = sch_pgn_reader_from_buffer(PGN, strlen(PGN), &err);
    check(r != NULL, "PGN reader");
    SchPgnGame pg;
    int got = r ? sch_pgn_read_game(r, &pg, &err) : 0;
    check(got == 1, "the PGN game is read");
    if (got != 0) {
        check(pg.game.ply_count == 33, "the opera game has 33 plies");
        check(pg.game.outcome.termination == SCH_TERM_CHECKMATE, "the opera game ends in mate");
        check(sch_pgn_tag(&pg, "White") && strcmp(sch_pgn_tag(&pg, "White"), "Morphy") == 0, "the White tag");
        sch_pgn_game_free(&pg);
    }
    if (r)
        sch_pgn_reader_close(r);

    /* An error message from the library's tables, in German. */
    check(!sch_fen_parse(&pos, "8/8/8/8/8/8/8/8 x - - 0 1", &err), "a bad FEN is refused");
    sch_err_format(&err, SCH_LANG_DE, text, sizeof text);
    printf("bad FEN: %s\n", text);
    check(text[0] != '\0', "the error has a message");

    if (failures == 0)
        printf("consumer: all checks passed\n");
    return failures == 0 ? 0 : 1;
}
