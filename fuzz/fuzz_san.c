/* libFuzzer harness for the move parsers (SAN, LAN, UCI).
 *
 * Input "FEN\nmove" parses the move in that position (or in the start position when the FEN is
 * refused); input without a newline is tried as a move in a few fixed positions. Every move a parser
 * returns must be legal and must survive sch_san_write + sch_san_parse, sch_lan_write and sch_uci_write round trips;
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
    SCH_FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
};

static void roundtrip(const SchPosition *pos, SchMove m, SchLang lang) {
    char text[SCH_MOVE_TEXT_MAX];
    SchError err;
    sch_err_clear(&err);
    size_t n = sch_san_write(pos, m, lang, text, sizeof text);
    if (n == 0 || n >= sizeof text || sch_san_parse(pos, text, lang, &err) != m)
        abort();
    n = sch_lan_write(pos, m, lang, text, sizeof text);
    if (n == 0 || n >= sizeof text || sch_move_parse(pos, text, lang, &err) != m)
        abort();
    n = sch_uci_write(pos, m, text, sizeof text);
    if (n < 4 || n > 5 || sch_uci_parse(pos, text, &err) != m)
        abort();
}

static void check_result(const SchPosition *pos, SchMove m, const SchError *err) {
    if (m == SCH_MOVE_NONE) {
        char msg[512];
        /* A refusal has a code this module owns, and a message in both languages. */
        if (err->code < 200 || err->code >= 300)
            abort();
        for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++)
            if (sch_err_format(err, lang, msg, sizeof msg) == 0 || strlen(msg) >= sizeof msg)
                abort();
        return;
    }
    if (!sch_gen_is_legal(pos, m))
        abort();
    roundtrip(pos, m, SCH_LANG_EN);
    roundtrip(pos, m, SCH_LANG_DE);
}

static void try_text(const SchPosition *pos, const char *text) {
    for (SchLang lang = SCH_LANG_EN; lang <= SCH_LANG_DE; lang++) {
        SchError err;
        sch_err_clear(&err);
        check_result(pos, sch_san_parse(pos, text, lang, &err), &err);
        sch_err_clear(&err);
        check_result(pos, sch_move_parse(pos, text, lang, &err), &err);
    }
    SchError err;
    sch_err_clear(&err);
    check_result(pos, sch_uci_parse(pos, text, &err), &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char buf[512];
    size_t n = size < sizeof buf - 1 ? size : sizeof buf - 1;
    memcpy(buf, data, n);
    buf[n] = '\0';
    char *newline = memchr(buf, '\n', n);
    SchPosition pos;
    if (newline) {
        *newline = '\0';
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, buf, &err))
            sch_pos_set_start(&pos);
        try_text(&pos, newline + 1);
        return 0;
    }
    for (size_t i = 0; i < sizeof FIXED_POSITIONS / sizeof FIXED_POSITIONS[0]; i++) {
        SchError err;
        sch_err_clear(&err);
        if (!sch_fen_parse(&pos, FIXED_POSITIONS[i], &err))
            abort();
        try_text(&pos, buf);
    }
    return 0;
}
