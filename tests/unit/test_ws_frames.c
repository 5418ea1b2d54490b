/* The WebSocket stream checks of schach serve: where request heads end (WsHandshake), the frame
 * walker (WsFrames) fed whole and in every split, and ws_guard's recv() on real socket pairs: heads
 * handed out up to their end, masked frames through, the first unmasked frame stopped with its owner
 * told, everything after it drained, other descriptors untouched. */
#define _GNU_SOURCE /* socketpair flags, MSG_DONTWAIT */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http/ws_frames.h"
#include "http/ws_guard.h"

/* ---- frames to feed ---------------------------------------------------------------------------- */

typedef struct Bytes {
    unsigned char b[70000];
    size_t n;
} Bytes;

/* Appends one frame: first byte b0 (FIN, RSV, opcode), payload of len bytes ('a'), masked or not;
 * ext forces the length encoding: 0 minimal, 16 or 64. */
static void add_frame(Bytes *out, unsigned char b0, size_t len, bool masked, int ext) {
    unsigned char m = masked ? 0x80 : 0;
    out->b[out->n++] = b0;
    if (ext == 64 || (ext == 0 && len > 65535)) {
        out->b[out->n++] = m | 127;
        for (int i = 7; i >= 0; i--)
            out->b[out->n++] = (unsigned char)((uint64_t)len >> (8 * i));
    } else if (ext == 16 || (ext == 0 && len > 125)) {
        out->b[out->n++] = m | 126;
        out->b[out->n++] = (unsigned char)(len >> 8);
        out->b[out->n++] = (unsigned char)len;
    } else {
        out->b[out->n++] = (unsigned char)(m | len);
    }
    if (masked)
        for (int i = 0; i < 4; i++)
            out->b[out->n++] = (unsigned char)(0x11 * (i + 1));
    memset(out->b + out->n, 'a', len);
    out->n += len;
}

static WsFrameError feed_whole(const Bytes *in, WsFrames *f) {
    ws_frames_init(f);
    return ws_frames_feed(f, in->b, in->n);
}

/* Feeds in pieces of step bytes; the answer must not depend on how the stream was cut. */
static void assert_same_in_pieces(const Bytes *in, WsFrameError want, uint64_t want_at) {
    for (size_t step = 1; step <= 16; step++) {
        WsFrames f;
        ws_frames_init(&f);
        WsFrameError e = WS_FRAME_OK;
        for (size_t i = 0; i < in->n && !e; i += step)
            e = ws_frames_feed(&f, in->b + i, in->n - i < step ? in->n - i : step);
        assert_int_equal(e, want);
        if (want)
            assert_int_equal(f.frame_at, want_at);
    }
}

static void expect(const Bytes *in, WsFrameError want, uint64_t want_at) {
    WsFrames f;
    assert_int_equal(feed_whole(in, &f), want);
    if (want) {
        assert_int_equal(f.frame_at, want_at);
        assert_int_equal(f.error, want);
    }
    assert_same_in_pieces(in, want, want_at);
}

/* ---- WsHandshake ------------------------------------------------------------------------------- */

static void test_head_ends(void **state) {
    (void)state;
    static const struct {
        const char *text;
        size_t take;
        bool at_end;
    } cases[] = {
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\nFRAMES", 40, true},
        {"GET /ws HTTP/1.1\nUpgrade: websocket\n\nFRAMES", 37, true},
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\n\r\nFRAMES", 39, true},
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\nFRAMES", 39, true},
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\r\nFRAMES", 41, true}, /* lws goes on: one more read */
        {"GET /ws HTTP/1.1\r\nSec-WebSocket-Key: k\r\n\r\nFRAMES", 42, true},
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n", 38, false}, /* no end yet: all of it */
        {"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r", 39, false},
        {"GET /api HTTP/1.1\r\nHost: x\r\n\r\nBODY\n\nMORE", 40, false}, /* no "websocket": as it comes */
        {"GET /api HTTP/1.1\r\nHost: websockex\r\n\r\nBODY", 42, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        WsHandshake h;
        ws_handshake_init(&h);
        size_t take = ws_handshake_take(&h, cases[i].text, strlen(cases[i].text));
        assert_int_equal(take, cases[i].take);
        assert_int_equal(h.at_end, cases[i].at_end);
    }
}

static void test_head_end_across_reads(void **state) {
    (void)state;
    WsHandshake h;
    ws_handshake_init(&h);
    /* The token itself cut in two, then the empty line cut in two. */
    const char *a = "GET /ws HTTP/1.1\r\nUpgrade: webs", *b = "ocket\r\n\r";
    assert_int_equal(ws_handshake_take(&h, a, strlen(a)), strlen(a));
    assert_false(h.armed);
    assert_int_equal(ws_handshake_take(&h, b, strlen(b)), strlen(b));
    assert_true(h.armed);
    assert_false(h.at_end);
    assert_int_equal(ws_handshake_take(&h, "\nXY", 3), 1);
    assert_true(h.at_end);
    /* Armed, a body without empty lines goes out whole; an empty line inside one splits it. */
    assert_int_equal(ws_handshake_take(&h, "{\"a\":1}", 7), 7);
    assert_false(h.at_end);
    assert_int_equal(ws_handshake_take(&h, "x\n\ny", 4), 3);
    assert_true(h.at_end);
    assert_int_equal(ws_handshake_take(&h, "", 0), 0);
    assert_true(h.at_end);
    /* "wwebsocket" and "WEBSOCKET" are found too. */
    for (int k = 0; k < 2; k++) {
        ws_handshake_init(&h);
        const char *t = k ? "x: WEBSOCKET\n\nz" : "x: wwebsocket\n\nz";
        assert_int_equal(ws_handshake_take(&h, t, strlen(t)), strlen(t) - 1);
    }
}

/* ---- WsFrames ---------------------------------------------------------------------------------- */

static void test_masked_frames_pass(void **state) {
    (void)state;
    static Bytes in;
    in.n = 0;
    add_frame(&in, 0x81, 22, true, 0);    /* text */
    add_frame(&in, 0x82, 300, true, 0);   /* binary, 16-bit length */
    add_frame(&in, 0x81, 10, true, 64);   /* a 64-bit length (not minimal, still allowed) */
    add_frame(&in, 0x81, 66000, true, 0); /* 64-bit length */
    add_frame(&in, 0x89, 125, true, 0);   /* ping of the longest allowed */
    add_frame(&in, 0x8a, 0, true, 0);     /* empty pong */
    add_frame(&in, 0x88, 2, true, 0);     /* close */
    expect(&in, WS_FRAME_OK, 0);
    WsFrames f;
    feed_whole(&in, &f);
    assert_int_equal(f.offset, in.n);
    assert_int_equal(f.payload_left, 0);
}

static void test_unmasked_frame_found(void **state) {
    (void)state;
    static Bytes in;
    in.n = 0;
    add_frame(&in, 0x81, 5, true, 0);
    add_frame(&in, 0x81, 300, true, 0);
    size_t at = in.n;
    add_frame(&in, 0x81, 22, false, 0);
    add_frame(&in, 0x81, 5, true, 0);
    expect(&in, WS_FRAME_UNMASKED, at);
    /* Unmasked control frames and a lone unmasked first frame too. */
    in.n = 0;
    add_frame(&in, 0x89, 0, false, 0);
    expect(&in, WS_FRAME_UNMASKED, 0);
}

static void test_error_stays(void **state) {
    (void)state;
    static Bytes in;
    in.n = 0;
    add_frame(&in, 0x81, 3, false, 0);
    WsFrames f;
    assert_int_equal(feed_whole(&in, &f), WS_FRAME_UNMASKED);
    in.n = 0;
    add_frame(&in, 0x81, 3, true, 0);
    assert_int_equal(ws_frames_feed(&f, in.b, in.n), WS_FRAME_UNMASKED);
}

static void test_other_violations(void **state) {
    (void)state;
    static Bytes in;
    static const struct {
        unsigned char b0;
        size_t len;
        WsFrameError want;
    } bad[] = {
        {0xc1, 1, WS_FRAME_RESERVED_BITS},           {0xa1, 1, WS_FRAME_RESERVED_BITS},
        {0x91, 1, WS_FRAME_RESERVED_BITS},           {0x83, 1, WS_FRAME_RESERVED_OPCODE},
        {0x87, 1, WS_FRAME_RESERVED_OPCODE},         {0x8b, 1, WS_FRAME_RESERVED_OPCODE},
        {0x8f, 1, WS_FRAME_RESERVED_OPCODE},         {0x89, 126, WS_FRAME_CONTROL_TOO_LONG},
        {0x88, 200, WS_FRAME_CONTROL_TOO_LONG},      {0x09, 1, WS_FRAME_CONTROL_FRAGMENTED},
        {0x80, 1, WS_FRAME_UNEXPECTED_CONTINUATION},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        in.n = 0;
        add_frame(&in, 0x81, 4, true, 0);
        size_t at = in.n;
        add_frame(&in, bad[i].b0, bad[i].len, true, 0);
        expect(&in, bad[i].want, at);
    }
    /* A 64-bit length with its top bit set. */
    in.n = 0;
    add_frame(&in, 0x81, 0, true, 64);
    in.b[2] = 0x80;
    expect(&in, WS_FRAME_LENGTH, 0);
}

static void test_fragmented_messages(void **state) {
    (void)state;
    static Bytes in;
    in.n = 0;
    add_frame(&in, 0x01, 3, true, 0); /* text, more to come */
    add_frame(&in, 0x89, 1, true, 0); /* a ping in between is fine */
    add_frame(&in, 0x00, 3, true, 0); /* continuation */
    add_frame(&in, 0x80, 3, true, 0); /* last continuation */
    add_frame(&in, 0x02, 3, true, 0); /* binary, more to come */
    add_frame(&in, 0x80, 3, true, 0);
    expect(&in, WS_FRAME_OK, 0);

    in.n = 0;
    add_frame(&in, 0x01, 3, true, 0);
    size_t at = in.n;
    add_frame(&in, 0x81, 3, true, 0); /* a new text message before the first ended */
    expect(&in, WS_FRAME_UNFINISHED_MESSAGE, at);

    in.n = 0;
    add_frame(&in, 0x81, 3, true, 0);
    at = in.n;
    add_frame(&in, 0x80, 3, true, 0); /* continuation after a finished message */
    expect(&in, WS_FRAME_UNEXPECTED_CONTINUATION, at);
}

static void test_error_names(void **state) {
    (void)state;
    assert_string_equal(ws_frame_error_name(WS_FRAME_UNMASKED), "unmasked_frame");
    for (int a = WS_FRAME_OK; a <= WS_FRAME_UNFINISHED_MESSAGE; a++)
        for (int b = a + 1; b <= WS_FRAME_UNFINISHED_MESSAGE; b++)
            assert_string_not_equal(ws_frame_error_name((WsFrameError)a), ws_frame_error_name((WsFrameError)b));
}

/* ---- ws_guard's recv() on socket pairs ------------------------------------------------------- */

static void *told_owner;
static WsFrameError told_why;
static int told_count;

static void on_violation(void *owner, WsFrameError why) {
    told_owner = owner;
    told_why = why;
    told_count++;
}

static void pair(int sv[2]) { assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), 0); }

static void send_all(int fd, const void *data, size_t len) { assert_int_equal(send(fd, data, len, 0), (ssize_t)len); }

static bool readable(int fd) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 0) == 1;
}

static const char HEAD[] = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n";

static void test_guard_checks_frames(void **state) {
    (void)state;
    int sv[2], owner = 0;
    pair(sv);
    assert_true(ws_guard_init(on_violation));
    assert_true(ws_guard_track(sv[0]));
    told_count = 0;

    /* The handshake and two frames in one write: the first read ends with the head. */
    static Bytes out;
    out.n = 0;
    memcpy(out.b, HEAD, sizeof HEAD - 1);
    out.n = sizeof HEAD - 1;
    size_t frames_at = out.n;
    add_frame(&out, 0x81, 5, true, 0);
    size_t bad_at = out.n;
    add_frame(&out, 0x81, 5, false, 0);
    add_frame(&out, 0x81, 5, true, 0);
    send_all(sv[1], out.b, frames_at + (bad_at - frames_at)); /* all but the unmasked frames */

    char buf[4096];
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), (ssize_t)(sizeof HEAD - 1));
    assert_memory_equal(buf, HEAD, sizeof HEAD - 1);
    assert_true(ws_guard_websocket(sv[0], &owner));
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), (ssize_t)(bad_at - frames_at));
    assert_int_equal(told_count, 0);

    /* The unmasked frame: nothing handed out, the owner told once, the rest drained. */
    send_all(sv[1], out.b + bad_at, out.n - bad_at);
    errno = 0;
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), -1);
    assert_int_equal(errno, EAGAIN);
    assert_int_equal(told_count, 1);
    assert_ptr_equal(told_owner, &owner);
    assert_int_equal(told_why, WS_FRAME_UNMASKED);
    assert_false(readable(sv[0]));
    send_all(sv[1], out.b + frames_at, 11);
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), -1);
    assert_int_equal(told_count, 1);
    assert_false(readable(sv[0]));
    /* The end of the stream still reaches the caller. */
    close(sv[1]);
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), 0);
    ws_guard_forget(sv[0]);
    close(sv[0]);
}

static void test_guard_refuses_unchecked_bytes(void **state) {
    (void)state;
    int sv[2], owner = 0;
    pair(sv);
    assert_true(ws_guard_init(on_violation));
    assert_true(ws_guard_track(sv[0]));
    /* Half a head: were lws to call this a handshake, what it holds was never checked. */
    send_all(sv[1], "GET /ws HTTP/1.1\r\nHo", 20);
    char buf[64];
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), 20);
    assert_false(ws_guard_websocket(sv[0], &owner));
    send_all(sv[1], "st: x\r\n\r\n", 9);
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), -1);
    assert_false(readable(sv[0]));
    ws_guard_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
}

/* A body of line feeds would cut every read to one byte: after 64 short reads the connection is read
 * as it comes (and can no longer become a WebSocket). */
static void test_guard_bounds_short_reads(void **state) {
    (void)state;
    int sv[2], owner = 0;
    pair(sv);
    assert_true(ws_guard_init(on_violation));
    assert_true(ws_guard_track(sv[0]));
    static char out[1000];
    memset(out, '\n', sizeof out);
    memcpy(out, "Sec-WebSocket-Key: k\n", 21);
    send_all(sv[1], out, sizeof out);
    char buf[4096];
    size_t got = 0;
    int reads = 0;
    while (got < sizeof out) {
        ssize_t n = recv(sv[0], buf, sizeof buf, 0);
        assert_true(n > 0);
        got += (size_t)n;
        reads++;
    }
    assert_int_equal(got, sizeof out);
    assert_int_equal(reads, 64 + 1);
    assert_false(ws_guard_websocket(sv[0], &owner));
    ws_guard_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
}

static void test_guard_leaves_others_alone(void **state) {
    (void)state;
    int sv[2];
    pair(sv);
    assert_true(ws_guard_init(on_violation));
    static Bytes out;
    out.n = 0;
    memcpy(out.b, HEAD, sizeof HEAD - 1);
    out.n = sizeof HEAD - 1;
    add_frame(&out, 0x81, 5, false, 0);
    send_all(sv[1], out.b, out.n);
    char buf[4096];
    /* Not tracked: everything at once, unmasked or not; peeking is left alone too. */
    assert_int_equal(recv(sv[0], buf, sizeof buf, MSG_PEEK), (ssize_t)out.n);
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), (ssize_t)out.n);
    assert_memory_equal(buf, out.b, out.n);
    /* A tracked then forgotten descriptor is not tracked either. */
    assert_true(ws_guard_track(sv[0]));
    ws_guard_forget(sv[0]);
    send_all(sv[1], out.b, out.n);
    assert_int_equal(recv(sv[0], buf, sizeof buf, 0), (ssize_t)out.n);
    /* Descriptors beyond the table cannot be tracked (the server refuses those connections). */
    assert_false(ws_guard_track(-1));
    assert_false(ws_guard_track(1 << 30));
    close(sv[0]);
    close(sv[1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_head_ends),
        cmocka_unit_test(test_head_end_across_reads),
        cmocka_unit_test(test_masked_frames_pass),
        cmocka_unit_test(test_unmasked_frame_found),
        cmocka_unit_test(test_error_stays),
        cmocka_unit_test(test_other_violations),
        cmocka_unit_test(test_fragmented_messages),
        cmocka_unit_test(test_error_names),
        cmocka_unit_test(test_guard_checks_frames),
        cmocka_unit_test(test_guard_refuses_unchecked_bytes),
        cmocka_unit_test(test_guard_bounds_short_reads),
        cmocka_unit_test(test_guard_leaves_others_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
