/* schach serve: what a WebSocket server must check of the bytes a client sends, as pure code (no I/O)
 * that sees the byte stream in chunks of any size.
 *
 * WsHandshake finds where a client's HTTP request heads may end, so that ws_guard.c can hand
 * libwebsockets the bytes of a connection up to the end of a head and no further: the frames that
 * follow an upgrade request are then all checked by WsFrames, even when the client sent them in the
 * same packet as the handshake.
 *
 * WsFrames walks the frame headers of the client's stream (RFC 6455 5.2) and skips payloads by
 * their length. It reports the first frame a server must fail the connection for: not masked (5.1),
 * reserved bits set without an extension, reserved opcodes, a 64-bit length with its top bit set,
 * control frames over 125 bytes or fragmented (5.5), continuation frames outside a fragmented
 * message and data frames inside one (5.4). */
#ifndef SCHACH_SERVER_WS_FRAMES_H
#define SCHACH_SERVER_WS_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the end of HTTP request heads ----------------------------------------------------------- */

/* A head ends with an empty line. libwebsockets 4.1 takes "\r\n\r\n", "\n\n", "\r\n\n" and "\n\r\n"
 * for one; the scanner splits after every line feed that ends a line of nothing but carriage returns
 * (a superset: splitting where lws does not end a head costs one more read, nothing else).
 *
 * Only once "websocket" (in any case) has been seen on the connection: every handshake lws accepts
 * has it (Sec-WebSocket-Key is required, and a header name cannot be folded), ordinary requests do
 * not. So ordinary requests are handed out as they come; otherwise a client that frames a body in a
 * way lws and the server read differently (Content-Length: -1) would have its body read as a request
 * of its own before the server answered the first. */
typedef struct WsHandshake {
    bool line_blank; /* only CRs since the last LF (or since the start) */
    bool at_end;     /* the last byte taken ended such a line */
    bool armed;      /* "websocket" was seen: split at empty lines from here on */
    uint8_t matched; /* bytes of "websocket" matched so far */
} WsHandshake;

/* A fresh connection: at the start of a line. */
void ws_handshake_init(WsHandshake *h);
/* How many of the len bytes to take now: once armed, up to and including the first LF that ends a
 * blank line, else all of them. Advances h over the bytes it returns. */
size_t ws_handshake_take(WsHandshake *h, const void *data, size_t len);

/* ---- client frames --------------------------------------------------------------------------- */

typedef enum {
    WS_FRAME_OK = 0,
    WS_FRAME_UNMASKED,                /* a client frame without the mask bit */
    WS_FRAME_RESERVED_BITS,           /* RSV1..3 set; no extension is ever negotiated */
    WS_FRAME_RESERVED_OPCODE,         /* opcodes 3-7 and 11-15 */
    WS_FRAME_LENGTH,                  /* 64-bit length with the most significant bit set */
    WS_FRAME_CONTROL_TOO_LONG,        /* close, ping or pong with more than 125 bytes */
    WS_FRAME_CONTROL_FRAGMENTED,      /* close, ping or pong without FIN */
    WS_FRAME_UNEXPECTED_CONTINUATION, /* continuation frame with no fragmented message begun */
    WS_FRAME_UNFINISHED_MESSAGE,      /* text or binary frame while a fragmented message is unfinished */
} WsFrameError;

typedef struct WsFrames {
    uint64_t offset;       /* bytes of the stream seen so far */
    uint64_t payload_left; /* payload bytes of the current frame still to skip */
    uint64_t frame_at;     /* stream offset where the current (after an error: the failing) frame starts */
    uint8_t head[10];      /* the current frame's header up to its extended length */
    uint8_t head_len, head_need;
    bool in_message; /* a fragmented text or binary message is unfinished */
    WsFrameError error;
} WsFrames;

/* At the start of the first frame. */
void ws_frames_init(WsFrames *f);
/* Feeds the next len bytes of the stream. Returns WS_FRAME_OK, or the first violation (which stays:
 * once failed, every later call returns it without looking at the bytes). */
WsFrameError ws_frames_feed(WsFrames *f, const void *data, size_t len);
/* A stable lower-case name of an error for the log ("unmasked_frame"). */
const char *ws_frame_error_name(WsFrameError e);

#endif
