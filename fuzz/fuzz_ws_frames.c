/* libFuzzer harness for the WebSocket stream checks of schach serve (src/server/http/ws_frames.h).
 * Input: one byte that chooses how the rest is cut into reads, then the bytes a client sends.
 *
 *  - WsFrames fed the stream whole and fed it in pieces must agree with each other and with a plain
 *    reference walker over the whole buffer (written here from RFC 6455 5.2, not from ws_frames.c):
 *    same verdict, same failing frame, same offset reached.
 *  - WsHandshake fed the stream in pieces must hand it out exactly up to each empty line after the
 *    first "websocket". */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "http/ws_frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: the verdict on the whole stream, and where the failing frame starts. */
static WsFrameError reference(const uint8_t *p, size_t n, uint64_t *bad_at) {
    bool in_message = false;
    size_t i = 0;
    while (i < n) {
        *bad_at = i;
        unsigned b0 = p[i], op = b0 & 0xf;
        bool fin = b0 & 0x80, control = op >= 8;
        if (b0 & 0x70)
            return WS_FRAME_RESERVED_BITS;
        if ((op >= 3 && op <= 7) || op >= 11)
            return WS_FRAME_RESERVED_OPCODE;
        if (control && !fin)
            return WS_FRAME_CONTROL_FRAGMENTED;
        if (op == 0 && !in_message)
            return WS_FRAME_UNEXPECTED_CONTINUATION;
        if ((op == 1 || op == 2) && in_message)
            return WS_FRAME_UNFINISHED_MESSAGE;
        if (i + 1 >= n)
            return WS_FRAME_OK;
        unsigned b1 = p[i + 1], len7 = b1 & 0x7f;
        if (!(b1 & 0x80))
            return WS_FRAME_UNMASKED;
        if (control && len7 > 125)
            return WS_FRAME_CONTROL_TOO_LONG;
        size_t ext = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
        if (i + 2 + ext > n)
            return WS_FRAME_OK;
        uint64_t len = len7;
        if (ext) {
            len = 0;
            for (size_t k = 0; k < ext; k++)
                len = len << 8 | p[i + 2 + k];
            if (ext == 8 && (len >> 63))
                return WS_FRAME_LENGTH;
        }
        if (!control)
            in_message = !fin;
        uint64_t next = (uint64_t)i + 2 + ext + 4 + len;
        if (next >= n)
            return WS_FRAME_OK;
        i = (size_t)next;
    }
    return WS_FRAME_OK;
}

/* The length of the next piece: from a small generator seeded by the input's first byte. */
static size_t piece(uint32_t *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return 1 + (*seed >> 16) % 23;
}

static void check_frames(const uint8_t *p, size_t n, uint8_t cut) {
    uint64_t want_at = 0;
    WsFrameError want = reference(p, n, &want_at);

    WsFrames whole;
    ws_frames_init(&whole);
    WsFrameError e = ws_frames_feed(&whole, p, n);
    CHECK(e == want, "whole: %s, reference: %s", ws_frame_error_name(e), ws_frame_error_name(want));
    if (want)
        CHECK(whole.frame_at == want_at, "whole: failing frame at %llu, reference %llu",
              (unsigned long long)whole.frame_at, (unsigned long long)want_at);
    else
        CHECK(whole.offset == n, "whole: offset %llu of %zu", (unsigned long long)whole.offset, n);

    WsFrames cut_up;
    ws_frames_init(&cut_up);
    uint32_t seed = cut;
    e = WS_FRAME_OK;
    for (size_t i = 0; i < n && !e;) {
        size_t k = piece(&seed);
        if (k > n - i)
            k = n - i;
        e = ws_frames_feed(&cut_up, p + i, k);
        i += k;
    }
    CHECK(e == want, "in pieces: %s, reference: %s", ws_frame_error_name(e), ws_frame_error_name(want));
    if (want)
        CHECK(cut_up.frame_at == want_at, "in pieces: failing frame at %llu, reference %llu",
              (unsigned long long)cut_up.frame_at, (unsigned long long)want_at);
    if (e)
        CHECK(ws_frames_feed(&cut_up, p, n) == e, "a failed stream must stay failed");
}

/* Where the first "websocket" (any case) ends, by a plain search; SIZE_MAX when there is none. */
static size_t token_end(const uint8_t *p, size_t n) {
    static const char token[] = "websocket";
    for (size_t i = 0; i + 9 <= n; i++) {
        size_t k = 0;
        while (k < 9 && (p[i + k] >= 'A' && p[i + k] <= 'Z' ? p[i + k] - 'A' + 'a' : p[i + k]) == token[k])
            k++;
        if (k == 9)
            return i + 9;
    }
    return SIZE_MAX;
}

/* The reference for WsHandshake: every place a read must end, i.e. after each LF that ends a line of
 * nothing but CRs, once "websocket" has been seen. Each piece must be taken up to the next such place
 * in it, or whole. */
static void check_handshake(const uint8_t *p, size_t n, uint8_t cut) {
    static size_t ends[4096];
    size_t nends = 0, armed_from = token_end(p, n);
    bool line_blank = true;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            if (line_blank && i >= armed_from)
                ends[nends++] = i + 1;
            line_blank = true;
        } else if (p[i] != '\r') {
            line_blank = false;
        }
    }
    WsHandshake h;
    ws_handshake_init(&h);
    uint32_t seed = cut ^ 0x5a;
    size_t e = 0;
    for (size_t i = 0; i < n;) {
        size_t k = piece(&seed);
        if (k > n - i)
            k = n - i;
        size_t take = ws_handshake_take(&h, p + i, k);
        while (e < nends && ends[e] <= i)
            e++;
        size_t want = e < nends && ends[e] <= i + k ? ends[e] - i : k;
        CHECK(take == want, "took %zu of %zu at %zu, want %zu", take, k, i, want);
        bool at_end = e < nends && ends[e] == i + take;
        CHECK(h.at_end == at_end, "at_end %d at %zu", h.at_end, i + take);
        i += take;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 4096)
        return 0;
    check_frames(data + 1, size - 1, data[0]);
    check_handshake(data + 1, size - 1, data[0]);
    return 0;
}
