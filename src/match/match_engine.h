/* A UCI engine as a child process: started with fork/exec in its own process group, talked to over
 * two pipes, read without blocking (poll with deadlines), and killed when it will not quit.
 * One EngineProc belongs to one thread. Times are monotonic microseconds (match_now_us).
 */
#ifndef SCHACH_MATCH_ENGINE_H
#define SCHACH_MATCH_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "match.h"

#define ENGINE_LINE_MAX 8192 /* longer lines are cut (the rest is dropped) */

/* Where the UCI traffic is logged (shared by all slots), or a NULL file. */
typedef struct MatchLog {
    FILE *file;
    pthread_mutex_t lock;
    int64_t start_us;
} MatchLog;

typedef struct EngineProc {
    pid_t pid;   /* 0 when not running */
    int to_fd;   /* the engine's standard input */
    int from_fd; /* the engine's standard output */
    bool eof;    /* the engine closed its output (exited or crashed) */
    char id_name[MATCH_NAME_MAX];
    char label[MATCH_NAME_MAX + 16]; /* for the log: "slot 2 Stockfish" */
    MatchLog *log;
    size_t len; /* bytes waiting in buf */
    char buf[ENGINE_LINE_MAX * 2];
} EngineProc;

typedef enum { READ_LINE = 0, READ_TIMEOUT, READ_EOF, READ_STOPPED } ReadStatus;

/* Monotonic clock in microseconds. */
int64_t match_now_us(void);

/* Starts spec's program with pipes on its standard input and output (standard error goes to
 * /dev/null). false with a message in why when it cannot be started (not found, not executable). */
bool eproc_start(EngineProc *p, const EngineSpec *spec, MatchLog *log, const char *label, char *why, size_t why_size);
/* Sends one line (a newline is added). false when the engine is gone or does not read until
 * deadline_us. */
bool eproc_send(EngineProc *p, const char *line, int64_t deadline_us);
/* Reads the next line (without its end of line) into line. READ_TIMEOUT at deadline_us, READ_EOF
 * when the engine closed its output, READ_STOPPED when *stop became true while waiting. */
ReadStatus eproc_read_line(EngineProc *p, char *line, size_t size, int64_t deadline_us, const atomic_int *stop);
/* UCI start: "uci" until "uciok" (remembering "id name"), the options, "isready" until "readyok".
 * false with why when the engine does not answer in time or exits. */
bool eproc_handshake(EngineProc *p, const EngineSpec *spec, int64_t timeout_us, const atomic_int *stop, SchLang lang,
                     char *why, size_t why_size);
/* "isready" until "readyok" (other lines are skipped). */
bool eproc_sync(EngineProc *p, int64_t timeout_us, const atomic_int *stop);
/* Sends "quit", waits up to grace_us for the exit, then kills the process group; reaps it. */
void eproc_close(EngineProc *p, int64_t grace_us);

#endif
