/* schach serve: checks the frames WebSocket clients send before libwebsockets parses them.
 *
 * Why: RFC 6455 5.1 says a server MUST close the connection upon a client frame that is not masked.
 * libwebsockets 4.1.6 (Debian's) records the mask bit of each frame in a private field and never
 * checks it, and no public API tells the server; so an unmasked frame would be taken as any other.
 *
 * How: lws reads every connection with recv() (verified with strace on 4.1.6: recvfrom(fd, buf, n,
 * 0, NULL, NULL), and recv is what libwebsockets.so.17 imports). ws_guard.c defines recv() in the
 * schach executable, which wins over libc's for the calls from the shared library (ELF symbol
 * interposition), and forwards to the kernel through recvfrom(). Descriptors it was not told about
 * pass straight through after one table lookup; that covers every descriptor of the store's writer,
 * the computer's workers and any other thread.
 *
 * For an accepted connection (ws_guard_track, from the connection filter) it peeks at what came and,
 * once "websocket" was seen on it, hands lws the bytes only up to the empty line that ends a request
 * head (ws_frames.h), so that when lws takes a head as a WebSocket handshake it holds no byte beyond
 * it (a connection whose reads had to be cut short more than 64 times is read as it comes and can no
 * longer upgrade). Ordinary HTTP costs one peek per read. From
 * ws_guard_websocket on (LWS_CALLBACK_ESTABLISHED) every byte read is walked by WsFrames; at the
 * first frame a server must fail, that read and all later ones hand lws nothing (EAGAIN, the data is
 * drained so the loop does not spin) and on_violation tells the connection's owner, which closes it
 * with Close 1002.
 *
 * All calls but recv() are made from the event loop's thread. recv() is safe from any thread and
 * allocates nothing. */
#ifndef SCHACH_SERVER_WS_GUARD_H
#define SCHACH_SERVER_WS_GUARD_H

#include <stdbool.h>

#include "ws_frames.h"

/* Told about a WebSocket whose client broke the framing (from inside lws's read on the loop thread;
 * the bytes of that read never reach lws). owner as given to ws_guard_websocket. */
typedef void (*WsGuardViolation)(void *owner, WsFrameError why);

/* Sizes the table for every descriptor below the open-files limit now in force (the server raises it
 * first) and sets the callback. Once per process; later calls only set the callback. false when out
 * of memory. */
bool ws_guard_init(WsGuardViolation on_violation);
/* A connection was accepted on fd: watch its request heads. false when fd is beyond the table (the
 * connection must then be refused: its frames could not be checked). */
bool ws_guard_track(int fd);
/* The connection on fd became a WebSocket: check its frames from here on. false (and fd is drained
 * from now on) when lws may already hold bytes read past the handshake, which were never checked. */
bool ws_guard_websocket(int fd, void *owner);
/* The connection on fd is closing: forget it (no callback for it any more). */
void ws_guard_forget(int fd);

#endif
