/* libFuzzer harness for FEN: arbitrary bytes go to sch_fen_parse(). A rejected FEN must come with an
 * error that formats in both languages; an accepted one must be consistent (sch_pos_ok), survive
 * write -> parse -> write unchanged, and every legal move must make and unmake back to the same
 * position. Build with -DSCHACH_FUZZ=ON (clang); see fuzz/CMakeLists.txt. */
#include "schach/error.h"
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/position.h"
#include "schach/schach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longer inputs only repeat what shorter ones test; the cap keeps the fuzzer on interesting sizes. */
#define INPUT_MAX 256

/* Chess960: the rook of each held right (rights are per rook; X-FEN must name the same rooks). */
static bool same_rooks(const SchPosition *a, const SchPosition *b) {
    for (int i = 0; i < 4; i++)
        if ((a->castling & (1 << i)) && a->castle_rook[i] != b->castle_rook[i])
            return false;
    return true;
}

/* The fields that define a position; Position may contain padding, so no memcmp. */
static bool same_position(const SchPosition *a, const SchPosition *b) {
    return memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->board, b->board, sizeof a->board) == 0 && a->turn == b->turn && a->castling == b->castling &&
           a->ep == b->ep && a->halfmove == b->halfmove && a->fullmove == b->fullmove && a->checkers == b->checkers &&
           a->key == b->key && same_rooks(a, b) && a->chess960 == b->chess960;
}

static void check_rejection(const char *text, const SchError *err) {
    char msg[512];
    CHECK(err->code != SCH_ERR_NONE, "fen_parse failed without an error code for \"%s\"", text);
    for (int lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
        size_t len = sch_err_format(err, (SchLang)lang, msg, sizeof msg);
        CHECK(len > 0, "empty message for code %d", err->code);
    }
}

static void check_round_trip(const SchPosition *pos, const char *text) {
    char fen[SCH_FEN_MAX], again[SCH_FEN_MAX], why[256] = "";
    size_t len = sch_fen_write(pos, fen, sizeof fen);
    CHECK(len == strlen(fen) && len < SCH_FEN_MAX, "fen_write length %zu for \"%s\"", len, text);

    SchPosition reparsed;
    SchError err;
    sch_err_clear(&err);
    CHECK(sch_fen_parse(&reparsed, fen, &err), "own output \"%s\" rejected (code %d) from \"%s\"", fen, err.code, text);
    CHECK(sch_pos_ok(&reparsed, why, sizeof why), "reparsed \"%s\": %s", fen, why);
    sch_fen_write(&reparsed, again, sizeof again);
    CHECK(strcmp(fen, again) == 0, "\"%s\" -> \"%s\" -> \"%s\"", text, fen, again);
}

static void check_moves(SchPosition *pos, const char *text) {
    char why[256] = "";
    SchMoveList list;
    int count = sch_gen_legal(pos, &list);
    CHECK(count >= 0 && count <= SCH_MAX_MOVES, "%d moves in \"%s\"", count, text);
    CHECK(sch_gen_count(pos) == count, "gen_count %d, gen_legal %d in \"%s\"", sch_gen_count(pos), count, text);
    CHECK(sch_gen_has_legal_move(pos) == (count > 0), "gen_has_legal_move wrong in \"%s\"", text);
    SchMove noisy[SCH_MAX_MOVES], quiet[SCH_MAX_MOVES];
    int n_noisy = sch_gen_moves(pos, SCH_GEN_NOISY, noisy), n_quiet = sch_gen_moves(pos, SCH_GEN_QUIET, quiet);
    CHECK(n_noisy + n_quiet == count, "noisy %d + quiet %d != %d in \"%s\"", n_noisy, n_quiet, count, text);

    const SchPosition before = *pos;
    for (int i = 0; i < count; i++) {
        SchMove m = list.moves[i];
        CHECK(sch_gen_is_legal(pos, m), "generated move %#x not legal in \"%s\"", (unsigned)m, text);
        SchUndo undo;
        sch_pos_make(pos, m, &undo);
        CHECK(sch_pos_ok(pos, why, sizeof why), "after move %#x in \"%s\": %s", (unsigned)m, text, why);
        CHECK(!sch_pos_attacked_by(pos, sch_pos_king(pos, (SchColor)!pos->turn), (SchColor)pos->turn),
              "move %#x leaves the king in check in \"%s\"", (unsigned)m, text);
        (void)sch_gen_count(pos);
        sch_pos_unmake(pos, m, &undo);
        CHECK(same_position(pos, &before), "unmake of %#x differs in \"%s\"", (unsigned)m, text);
    }
    /* sch_gen_is_legal says no to every other move of the mover's pieces, of every kind. */
    static uint8_t listed[1 << 16];
    memset(listed, 0, sizeof listed);
    for (int i = 0; i < count; i++)
        listed[list.moves[i]] = 1;
    for (SchBitboard own = pos->by_color[pos->turn]; own; own &= own - 1) {
        SchSquare from = (SchSquare)sch_bb_lsb(own);
        for (int to = 0; to < 64; to++)
            for (int kind_promo = 0; kind_promo < 16; kind_promo++) {
                SchMove m = (SchMove)(from | to << 6 | kind_promo << 12);
                CHECK(sch_gen_is_legal(pos, m) == listed[m], "is_legal(%#x) is %d, the generator says %d in \"%s\"",
                      (unsigned)m, sch_gen_is_legal(pos, m), listed[m], text);
            }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INPUT_MAX)
        return 0;
    char text[INPUT_MAX + 1];
    memcpy(text, data, size);
    text[size] = '\0';

    SchPosition pos;
    SchError err;
    sch_err_clear(&err);
    if (!sch_fen_parse(&pos, text, &err)) {
        check_rejection(text, &err);
        return 0;
    }
    char why[256] = "";
    CHECK(sch_pos_ok(&pos, why, sizeof why), "accepted \"%s\": %s", text, why);
    check_round_trip(&pos, text);
    check_moves(&pos, text);
    return 0;
}
