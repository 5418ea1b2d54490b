/* schach serve: the checks a WebSocket server owes a client's byte stream (ws_frames.h). Pure code:
 * state machines fed with chunks as they come off the socket; payloads are skipped by their length,
 * so the cost is a few operations per frame, not per byte. */
#include "ws_frames.h"

#include <string.h>

/* ---- the end of HTTP request heads ----------------------------------------------------------- */

void ws_handshake_init(WsHandshake *h) {
    h->line_blank = true;
    h->at_end = false;
    h->armed = false;
    h->matched = 0;
}

static const char TOKEN[] = "websocket"; /* no letter repeats its first: a mismatch restarts at 0 or 1 */

size_t ws_handshake_take(WsHandshake *h, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        if (!h->armed) {
            unsigned char lower = c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
            h->matched = lower == (unsigned char)TOKEN[h->matched] ? (uint8_t)(h->matched + 1) : lower == 'w';
            h->armed = h->matched == sizeof TOKEN - 1;
        }
        if (c == '\n') {
            if (h->line_blank && h->armed) {
                h->at_end = true; /* line_blank stays: the next byte starts a line */
                return i + 1;
            }
            h->line_blank = true;
        } else if (c != '\r') {
            h->line_blank = false;
        }
    }
    if (len > 0)
        h->at_end = false;
    return len;
}

/* ---- client frames --------------------------------------------------------------------------- */

enum {
    OP_CONTINUATION = 0x0,
    OP_TEXT = 0x1,
    OP_BINARY = 0x2,
    OP_CLOSE = 0x8,
    FIN = 0x80,
    RSV = 0x70,
    OPCODE = 0x0f,
    MASK = 0x80,
    LEN7 = 0x7f,
    MASK_KEY = 4,
    CONTROL_MAX = 125,
};

void ws_frames_init(WsFrames *f) {
    memset(f, 0, sizeof *f);
    f->head_need = 2;
}

/* The first byte alone: reserved bits, opcode, fragmentation. */
static WsFrameError check_first(const WsFrames *f, unsigned char b0) {
    unsigned op = b0 & OPCODE;
    if (b0 & RSV)
        return WS_FRAME_RESERVED_BITS;
    if ((op > OP_BINARY && op < OP_CLOSE) || op > 0xa)
        return WS_FRAME_RESERVED_OPCODE;
    if (op >= OP_CLOSE && !(b0 & FIN))
        return WS_FRAME_CONTROL_FRAGMENTED;
    if (op == OP_CONTINUATION && !f->in_message)
        return WS_FRAME_UNEXPECTED_CONTINUATION;
    if (op != OP_CONTINUATION && op < OP_CLOSE && f->in_message)
        return WS_FRAME_UNFINISHED_MESSAGE;
    return WS_FRAME_OK;
}

/* The second byte: the mask bit (5.1) and a control frame's length. Sets how long the header is. */
static WsFrameError check_second(WsFrames *f, unsigned char b0, unsigned char b1) {
    if (!(b1 & MASK))
        return WS_FRAME_UNMASKED;
    unsigned len7 = b1 & LEN7;
    if ((b0 & OPCODE) >= OP_CLOSE && len7 > CONTROL_MAX)
        return WS_FRAME_CONTROL_TOO_LONG;
    f->head_need = (uint8_t)(2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0));
    return WS_FRAME_OK;
}

/* The whole header up to the mask key is in: the payload length, the message state. */
static WsFrameError finish_head(WsFrames *f) {
    unsigned char b0 = f->head[0];
    unsigned len7 = f->head[1] & LEN7;
    uint64_t length = len7;
    if (len7 >= 126) {
        length = 0;
        for (int i = 2; i < f->head_need; i++)
            length = length << 8 | f->head[i];
        if (len7 == 127 && (length >> 63))
            return WS_FRAME_LENGTH;
    }
    unsigned op = b0 & OPCODE;
    if (op < OP_CLOSE)
        f->in_message = !(b0 & FIN);
    f->payload_left = MASK_KEY + length; /* the key is skipped like the payload: it is never checked */
    f->head_len = 0;
    f->head_need = 2;
    return WS_FRAME_OK;
}

WsFrameError ws_frames_feed(WsFrames *f, const void *data, size_t len) {
    if (f->error)
        return f->error;
    const unsigned char *p = data;
    size_t i = 0;
    while (i < len) {
        if (f->payload_left) {
            size_t skip = len - i;
            if ((uint64_t)skip > f->payload_left)
                skip = (size_t)f->payload_left;
            i += skip;
            f->payload_left -= skip;
            continue;
        }
        if (f->head_len == 0)
            f->frame_at = f->offset + i; /* where this frame starts */
        unsigned char b = p[i++];
        f->head[f->head_len++] = b;
        WsFrameError e = WS_FRAME_OK;
        if (f->head_len == 1)
            e = check_first(f, b);
        else if (f->head_len == 2)
            e = check_second(f, f->head[0], b);
        if (!e && f->head_len == f->head_need)
            e = finish_head(f);
        if (e) {
            f->error = e;
            f->offset += i;
            return e;
        }
    }
    f->offset += len;
    return WS_FRAME_OK;
}

const char *ws_frame_error_name(WsFrameError e) {
    switch (e) {
        case WS_FRAME_OK: return "ok";
        case WS_FRAME_UNMASKED: return "unmasked_frame";
        case WS_FRAME_RESERVED_BITS: return "reserved_bits";
        case WS_FRAME_RESERVED_OPCODE: return "reserved_opcode";
        case WS_FRAME_LENGTH: return "frame_length";
        case WS_FRAME_CONTROL_TOO_LONG: return "control_frame_too_long";
        case WS_FRAME_CONTROL_FRAGMENTED: return "control_frame_fragmented";
        case WS_FRAME_UNEXPECTED_CONTINUATION: return "unexpected_continuation";
        case WS_FRAME_UNFINISHED_MESSAGE: return "unfinished_message";
    }
    return "unknown";
}
