/* schach serve: the browser UI's files. GET and HEAD only (http_api.c answers other methods with
 * 405 and Allow). "/" and the single-page app's "/g/<id>", "/@/<name>", "/account", "/analysis" and "/editor" are index.html; "/vendor/chessground/…"
 * is chessground's npm folder; everything else a file under the web folder. Every file is resolved
 * with realpath and served only when it lies inside its folder, so neither "..", nor a symlink,
 * nor anything lws might decode leads out of it. Files are small: each is read whole.
 *
 * Each file goes out with a strong ETag (a hash of its bytes) and "Cache-Control: no-cache": a browser
 * keeps it and asks again with If-None-Match, and an unchanged file is answered 304 without a body. A
 * text file is sent gzip-compressed to a browser that accepts it (zlib; libwebsockets' own compression
 * is not built into Debian's package). What was read and compressed is kept in a small cache keyed by
 * the file's path, size, change time and inode, so a visit costs a stat() per file, not a read and a
 * compression. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>
#include <zlib.h>

#include "http_internal.h"

static const char *mime_type(const char *name) {
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".mjs", "application/javascript"},
        {".js", "application/javascript"},
        {".map", "application/json"},
        {".json", "application/json"},
        {".css", "text/css"},
        {".svg", "image/svg+xml"},
        {".woff2", "font/woff2"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"}, /* schach.wasm (docs/wasm.md): streaming compilation needs this type */
    };
    const char *dot = strrchr(name, '.');
    const char *slash = strrchr(name, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcmp(dot, types[i][0]))
                return types[i][1];
    return "application/octet-stream";
}

/* No "." or ".." segment, no backslash: the path is a plain walk down from the folder. */
static bool plain_relative(const char *rel) {
    if (!*rel || strchr(rel, '\\'))
        return false;
    for (const char *seg = rel; seg;) {
        const char *next = strchr(seg, '/');
        size_t n = next ? (size_t)(next - seg) : strlen(seg);
        if ((n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
            return false;
        seg = next ? next + 1 : NULL;
    }
    return true;
}

/* ---- the cache of files as sent ---- */

#define STATIC_CACHE_FILES 64
#define STATIC_GZIP_MIN    1024 /* smaller files are not worth compressing */

typedef struct StaticFile {
    char path[PATH_MAX]; /* the real path; "" for an empty slot */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    char *data;
    size_t len;
    char *gz; /* NULL when the file is not worth compressing */
    size_t gz_len;
    char etag[48];
    uint64_t used; /* for replacing the least recently used */
} StaticFile;

struct StaticCache {
    StaticFile files[STATIC_CACHE_FILES];
    uint64_t clock;
};

void http_static_cache_free(struct StaticCache *cache) {
    if (!cache)
        return;
    for (int i = 0; i < STATIC_CACHE_FILES; i++) {
        free(cache->files[i].data);
        free(cache->files[i].gz);
    }
    free(cache);
}

static bool compressible(const char *type) {
    return !strncmp(type, "text/", 5) || !strcmp(type, "application/javascript") || !strcmp(type, "application/json") ||
           !strcmp(type, "image/svg+xml") || !strcmp(type, "image/x-icon") || !strcmp(type, "application/wasm");
}

/* gzip of data (RFC 1952, zlib's deflate with a gzip wrapper); NULL when it is not smaller. */
static char *gzip_of(const char *data, size_t len, size_t *out_len) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)len);
    char *out = malloc(cap);
    if (out) {
        z.next_in = (Bytef *)(uintptr_t)data;
        z.avail_in = (uInt)len;
        z.next_out = (Bytef *)out;
        z.avail_out = (uInt)cap;
        if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out >= len) {
            free(out);
            out = NULL;
        } else {
            *out_len = z.total_out;
        }
    }
    deflateEnd(&z);
    return out;
}

static bool same_time(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* Reads root/rel into a new buffer when it is a regular file inside root (after resolving every
 * symlink). NULL otherwise. */
static char *read_confined(const char *root, const char *rel, size_t *len) {
    char joined[PATH_MAX], real[PATH_MAX];
    if (!root[0] || !plain_relative(rel) ||
        (size_t)snprintf(joined, sizeof joined, "%s/%s", root, rel) >= sizeof joined)
        return NULL;
    if (!realpath(joined, real))
        return NULL;
    size_t rootlen = strlen(root);
    if (strncmp(real, root, rootlen) != 0 || real[rootlen] != '/')
        return NULL;
    FILE *f = fopen(real, "rb");
    if (!f)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= STATIC_MAX_FILE) {
        buf = malloc((size_t)st.st_size + 1);
        if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
            free(buf);
            buf = NULL;
        }
        *len = (size_t)st.st_size;
    }
    fclose(f);
    return buf;
}

/* The file root/rel as sent: from the cache while it has not changed, else read (and compressed) again.
 * NULL when there is no such file inside root. */
static StaticFile *cached(struct HttpServer *srv, const char *root, const char *rel) {
    char joined[PATH_MAX], real[PATH_MAX];
    struct stat st;
    if (!root[0] || !plain_relative(rel) ||
        (size_t)snprintf(joined, sizeof joined, "%s/%s", root, rel) >= sizeof joined || !realpath(joined, real) ||
        stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    if (!srv->static_cache && !(srv->static_cache = calloc(1, sizeof *srv->static_cache)))
        return NULL;
    struct StaticCache *cache = srv->static_cache;
    StaticFile *slot = &cache->files[0];
    for (int i = 0; i < STATIC_CACHE_FILES; i++) {
        StaticFile *f = &cache->files[i];
        if (f->path[0] && !strcmp(f->path, real)) {
            if (f->dev == st.st_dev && f->ino == st.st_ino && f->size == st.st_size &&
                same_time(&f->mtime, &st.st_mtim) && same_time(&f->ctime, &st.st_ctim)) {
                f->used = ++cache->clock;
                return f;
            }
            slot = f; /* changed: read again into its own slot */
            break;
        }
        if (!f->path[0] || f->used < slot->used)
            slot = f;
    }
    size_t len = 0;
    char *data = read_confined(root, rel, &len);
    if (!data)
        return NULL;
    free(slot->data);
    free(slot->gz);
    memset(slot, 0, sizeof *slot);
    snprintf(slot->path, sizeof slot->path, "%s", real);
    slot->dev = st.st_dev;
    slot->ino = st.st_ino;
    slot->size = st.st_size;
    slot->mtime = st.st_mtim;
    slot->ctime = st.st_ctim;
    slot->data = data;
    slot->len = len;
    if (len >= STATIC_GZIP_MIN && compressible(mime_type(rel)))
        slot->gz = gzip_of(data, len, &slot->gz_len);
    unsigned char hash[16];
    char hex[33];
    crypto_generichash(hash, sizeof hash, (const unsigned char *)data, len, NULL, 0);
    sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
    snprintf(slot->etag, sizeof slot->etag, "\"%s\"", hex);
    slot->used = ++cache->clock;
    return slot;
}

/* Whether an If-None-Match header lists this tag (or is "*"). The compressed and the plain form share
 * one tag: they are the same file (weak comparison, as RFC 9110 allows for If-None-Match). */
static bool not_modified(struct lws *wsi, const char *etag) {
    char buf[512];
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH);
    if (len <= 0 || len >= (int)sizeof buf || lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_IF_NONE_MATCH) != len)
        return false;
    return !strcmp(buf, "*") || strstr(buf, etag) != NULL;
}

/* Whether the client accepts gzip (an Accept-Encoding that names it, not with q=0). */
static bool accepts_gzip(struct lws *wsi) {
    char buf[256];
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING);
    if (len <= 0 || len >= (int)sizeof buf || lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_ACCEPT_ENCODING) != len)
        return false;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (strncmp(tok, "gzip", 4) != 0 || (tok[4] && tok[4] != ';' && tok[4] != ' '))
            continue;
        const char *q = strstr(tok, "q=");
        return !q || strtod(q + 2, NULL) > 0;
    }
    return false;
}

/* The single-page app's addresses, all answered with index.html: the home page, a game, a player's
 * page, the account page, the analysis board and the board editor. */
static bool is_page(const char *path) {
    return !strcmp(path, "/") || !strncmp(path, "/g/", 3) || !strncmp(path, "/@/", 3) || !strcmp(path, "/account") ||
           !strcmp(path, "/analysis") || !strcmp(path, "/editor");
}

void http_static(HttpConn *c, const char *path) {
    struct HttpServer *srv = c->srv;
    const char *root = srv->web_dir, *rel = path + 1;
    if (is_page(path))
        rel = "index.html";
    else if (!strncmp(path, "/vendor/chessground/", 20))
        root = srv->vendor_dir, rel = path + 20;
    StaticFile *f = cached(srv, root, rel);
    if (!f) {
        http_error(c, 404, "no_path");
        return;
    }
    c->static_file = true;
    snprintf(c->etag, sizeof c->etag, "%s", f->etag);
    if (not_modified(c->wsi, f->etag)) {
        http_set_response(c, 304, mime_type(rel), "", 0);
        return;
    }
    c->gzip = f->gz && accepts_gzip(c->wsi);
    if (c->gzip)
        http_set_response(c, 200, mime_type(rel), f->gz, f->gz_len);
    else
        http_set_response(c, 200, mime_type(rel), f->data, f->len);
}
