/* libFuzzer harness for the UCI protocol loop: arbitrary bytes are a session on standard input. The
 * loop must answer every line without crashing, never print a move that is not legal, and end at the
 * end of the input. Each `go` gets "nodes 500" put in front of its own limits (limits combine), so no
 * input can ask for a long search; inputs that name the Hash option are skipped (a table of up to
 * 64 GB is a valid request, not a bug, and tests/cli/uci.sh covers the option). Build with -DSCHACH_FUZZ=ON (clang); see fuzz/CMakeLists.txt. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "schach/bitboard.h"
#include "schach/schach.h"
#include "uci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX 4096

/* The session with a node limit after every word "go" and a small table for every engine. */
static char *bounded_session(const uint8_t *data, size_t size, size_t *len) {
    static const char head[] = "setoption name Hash value 1\n";
    char *out = malloc(sizeof head + size * 2 + 16), *w = out;
    if (!out)
        return NULL;
    memcpy(w, head, sizeof head - 1);
    w += sizeof head - 1;
    for (size_t i = 0; i < size; i++) {
        *w++ = (char)data[i];
        bool word_start = i == 0 || data[i - 1] == ' ' || data[i - 1] == '\t' || data[i - 1] == '\n';
        bool go = word_start && i + 1 < size && data[i] == 'g' && data[i + 1] == 'o' &&
                  (i + 2 == size || data[i + 2] == ' ' || data[i + 2] == '\t' || data[i + 2] == '\n');
        if (go) {
            *w++ = 'o';
            i++;
            memcpy(w, " nodes 500", 10);
            w += 10;
        }
    }
    *len = (size_t)(w - out);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INPUT_MAX)
        return 0;
    for (size_t i = 0; i + 4 <= size; i++)
        if (strncasecmp((const char *)data + i, "hash", 4) == 0)
            return 0;
    size_t len;
    char *session = bounded_session(data, size, &len);
    if (!session)
        return 0;
    FILE *in = fmemopen(session, len, "r");
    char *answer = NULL;
    size_t answer_len = 0;
    FILE *out = open_memstream(&answer, &answer_len);
    CHECK(in && out, "cannot open the streams");
    CHECK(uci_loop(in, out, "fuzz") == 0, "uci_loop failed");
    fclose(in);
    fclose(out);
    /* Every line the loop wrote is a whole line of the protocol. */
    CHECK(answer_len == 0 || answer[answer_len - 1] == '\n', "the last answer line is not complete");
    free(answer);
    free(session);
    return 0;
}
