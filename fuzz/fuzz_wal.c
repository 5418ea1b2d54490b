/* libFuzzer harness for the WAL validator (store_wal_scan, store_check.c): arbitrary bytes are a -wal
 * file. The scan must never read outside the file, and what it reports must hang together: frames
 * counted valid fit in the file, the committed ones are among them, the break follows them, and the
 * verdict matches what was found. The seeds (fuzz/corpus/wal/) are real WAL files of a database with
 * 512-byte pages: clean, with a torn tail, with a damaged frame or header, and a header alone. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "store/sqlite/store_sqlite_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Input {
    const uint8_t *data;
    size_t size;
} Input;

static bool read_input(void *ctx, uint64_t offset, void *buf, size_t len) {
    const Input *in = ctx;
    CHECK(offset <= in->size && len <= in->size - offset, "read of %zu bytes at %llu past the end (%zu)", len,
          (unsigned long long)offset, in->size);
    memcpy(buf, in->data + offset, len);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Input in = {data, size};
    StoreWalScan scan;
    store_wal_scan(size, read_input, &in, &scan);
    CHECK(!scan.read_error, "read error on an in-memory file of %zu bytes", size);
    if (scan.verdict == STORE_WAL_BAD_HEADER)
        CHECK(size > 32 && scan.page_size == 0 && scan.valid_frames == 0, "bad header with %zu bytes", size);
    if (scan.page_size == 0) {
        CHECK(scan.valid_frames == 0 && scan.commits_after == 0, "frames without a valid header");
        return 0;
    }
    uint64_t frame = 24 + (uint64_t)scan.page_size;
    uint64_t frames = (size - 32) / frame;
    CHECK(scan.valid_frames <= frames, "%llu valid frames of %llu", (unsigned long long)scan.valid_frames,
          (unsigned long long)frames);
    CHECK(scan.committed_frames <= scan.valid_frames, "committed past the valid frames");
    CHECK(scan.break_frame == scan.valid_frames, "break at %llu after %llu valid frames",
          (unsigned long long)scan.break_frame, (unsigned long long)scan.valid_frames);
    CHECK(scan.commits_after + scan.valid_frames <= frames, "more commits after the break than frames");
    CHECK((scan.verdict == STORE_WAL_LOST_COMMITS) == (scan.commits_after > 0), "verdict %d with %llu commits after",
          (int)scan.verdict, (unsigned long long)scan.commits_after);
    return 0;
}
