// The same checks as consumer.c, compiled as C++: the public headers must work from C++ (extern "C",
// no C-only syntax), and a C++ program links the C library without any glue of its own.
#include <schach/schach.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

int main() {
    SchPosition pos;
    SchError err;
    if (!sch_fen_parse(&pos, SCH_FEN_START, &err))
        return 1;
    SchMoveList list;
    sch_gen_legal(&pos, &list);
    std::vector<std::string> sans;
    for (int i = 0; i < list.count; i++) {
        char san[16];
        sch_san_write(&pos, list.moves[i], SCH_LANG_DE, san, sizeof san);
        sans.emplace_back(san);
    }
    std::cout << "C++: " << sans.size() << " moves, first " << sans.front() << "\n";
    if (sans.size() != 20 || sch_perft(&pos, 4) != 197281)
        return 1;

    SchGame g;
    sch_game_init(&g);
    for (const char *text : {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"}) {
        SchMove m = sch_san_parse(sch_game_position(&g), text, SCH_LANG_EN, &err);
        if (m == SCH_MOVE_NONE || !sch_game_play(&g, m, &err))
            return 1;
    }
    bool mate = sch_game_over(&g) && g.outcome.result == SCH_RESULT_WHITE_WINS && g.outcome.termination == SCH_TERM_CHECKMATE;
    sch_game_free(&g);
    if (!mate)
        return 1;

    const std::string pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    SchPgnReader *r = sch_pgn_reader_from_buffer(pgn.c_str(), pgn.size(), &err);
    SchPgnGame pg;
    if (!r || sch_pgn_read_game(r, &pg, &err) != 1)
        return 1;
    bool ok = pg.game.ply_count == 4 && std::strcmp(sch_pgn_tag(&pg, "Black"), "B") == 0;
    sch_pgn_game_free(&pg);
    sch_pgn_reader_close(r);
    std::cout << "C++: scholar's mate and a PGN game read, lookup " << sch_slider_lookup() << "\n";
    return ok ? 0 : 1;
}
