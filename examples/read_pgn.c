/* read_pgn: reads the games of a PGN file and walks each game's tree — the main line, its
 * variations and their comments — the third example of docs/library/tutorial.md.
 *
 *     read_pgn FILE.pgn
 *
 * One line per move, indented by how deep the variation is. A game with an error is reported
 * with its game number, line and column, and the reader goes on with the next game.
 */
#include <schach/schach.h>
#include <stdio.h>

/* Called for every move of the tree in file order: before is the position the move is played in,
 * depth how deep in variations it stands (0: the main line). */
static bool print_move(const SchPgnNode *node, const SchPosition *before, int depth, void *ctx) {
    (void)ctx;
    char san[SCH_MOVE_TEXT_MAX];
    sch_san_write(before, node->move, SCH_LANG_EN, san, sizeof san);
    printf("%*s%d%s %s", 4 * depth, "", before->fullmove, sch_pos_turn(before) == SCH_WHITE ? "." : "...", san);
    if (node->clock_ms != SCH_PGN_NO_CLOCK) {
        long long s = node->clock_ms / 1000;
        printf(" [clock %lld:%02lld:%02lld]", s / 3600, s / 60 % 60, s % 60);
    }
    if (node->comment)
        printf(" {%s}", node->comment);
    printf("\n");
    return true; /* false would stop the walk */
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: read_pgn FILE.pgn\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    SchError err;
    SchPgnReader *reader = sch_pgn_reader_from_file(file, &err);
    fclose(file); /* the reader has read what it needs */
    if (!reader) {
        fprintf(stderr, "read_pgn: cannot read %s\n", argv[1]);
        return 1;
    }

    int errors = 0;
    for (;;) {
        SchPgnGame game;
        int status = sch_pgn_read_game(reader, &game, &err);
        if (status == 0) /* the end of the file */
            break;
        if (status < 0) { /* this game has an error; the reader continues with the next one */
            char why[256];
            sch_err_format(&err, SCH_LANG_EN, why, sizeof why);
            printf("game %d, line %d, column %d: %s\n", err.game, err.line, err.column, why);
            errors++;
        }
        const char *white = sch_pgn_tag(&game, "White"), *black = sch_pgn_tag(&game, "Black");
        printf("game %d: %s - %s, %d moves in the tree\n", game.number, white ? white : "?", black ? black : "?",
               sch_pgn_node_count(&game));
        sch_pgn_walk(&game, print_move, NULL);
        sch_pgn_game_free(&game); /* also after an error: the game holds what was read */
    }
    sch_pgn_reader_close(reader);
    return errors ? 1 : 0;
}
