/* libFuzzer harness for the move parsers (SAN, LAN, UCI).
 *
 * Input "FEN\nmove" parses the move in that position (or in the start position when the FEN is
 * refused); input without a newline is tried as a move in a few fixed positions. Every move a parser
 * returns must be legal and must survive san_write + san_parse, lan_write and uci_write round trips;
 * every refusal must format to a message in both languages.
 * Build: clang -fsanitize=fuzzer,address,undefined -I include fuzz/fuzz_san.c <build>/libschach.a
 * Without libFuzzer, fuzz/replay.c supplies a main() that runs the seed files (see fuzz/CMakeLists.txt).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/schach.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const FIXED_POSITIONS[] = {
    FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
};

static void roundtrip(const Position *pos, Move m, Lang lang) {
    char text[SCHACH_MOVE_TEXT_MAX];
    SchError err;
    err_clear(&err);
    size_t n = san_write(pos, m, lang, text, sizeof text);
    if (n == 0 || n >= sizeof text || san_parse(pos, text, lang, &err) != m)
        abort();
    n = lan_write(pos, m, lang, text, sizeof text);
    if (n == 0 || n >= sizeof text || move_parse(pos, text, lang, &err) != m)
        abort();
    n = uci_write_pos(pos, m, text, sizeof text);
    if (n < 4 || n > 5 || uci_parse(pos, text, &err) != m)
        abort();
}

static void check_result(const Position *pos, Move m, const SchError *err) {
    if (m == MOVE_NONE) {
        char msg[512];
        /* A refusal has a code this module owns, and a message in both languages. */
        if (err->code < 200 || err->code >= 300)
            abort();
        for (Lang lang = LANG_EN; lang <= LANG_DE; lang++)
            if (err_format(err, lang, msg, sizeof msg) == 0 || strlen(msg) >= sizeof msg)
                abort();
        return;
    }
    if (!gen_is_legal(pos, m))
        abort();
    roundtrip(pos, m, LANG_EN);
    roundtrip(pos, m, LANG_DE);
}

static void try_text(const Position *pos, const char *text) {
    for (Lang lang = LANG_EN; lang <= LANG_DE; lang++) {
        SchError err;
        err_clear(&err);
        check_result(pos, san_parse(pos, text, lang, &err), &err);
        err_clear(&err);
        check_result(pos, move_parse(pos, text, lang, &err), &err);
    }
    SchError err;
    err_clear(&err);
    check_result(pos, uci_parse(pos, text, &err), &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready = 0;
    if (!ready) {
        schach_init();
        ready = 1;
    }
    char buf[512];
    size_t n = size < sizeof buf - 1 ? size : sizeof buf - 1;
    memcpy(buf, data, n);
    buf[n] = '\0';
    char *newline = memchr(buf, '\n', n);
    Position pos;
    if (newline) {
        *newline = '\0';
        SchError err;
        err_clear(&err);
        if (!fen_parse(&pos, buf, &err))
            pos_set_start(&pos);
        try_text(&pos, newline + 1);
        return 0;
    }
    for (size_t i = 0; i < sizeof FIXED_POSITIONS / sizeof FIXED_POSITIONS[0]; i++) {
        SchError err;
        err_clear(&err);
        if (!fen_parse(&pos, FIXED_POSITIONS[i], &err))
            abort();
        try_text(&pos, buf);
    }
    return 0;
}
