/* schach serve: the browser UI's files. GET and HEAD only (http_api.c answers other methods with
 * 405 and Allow). "/" and the single-page app's "/g/<id>" are index.html; "/vendor/chessground/…"
 * is chessground's npm folder; everything else a file under the web folder. Every file is resolved
 * with realpath and served only when it lies inside its folder, so neither "..", nor a symlink,
 * nor anything lws might decode leads out of it. Files are small: each is read whole. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

void http_static(HttpConn *c, const char *path) {
    struct HttpServer *srv = c->srv;
    const char *root = srv->web_dir, *rel = path + 1;
    if (!strcmp(path, "/") || !strncmp(path, "/g/", 3))
        rel = "index.html";
    else if (!strncmp(path, "/vendor/chessground/", 20))
        root = srv->vendor_dir, rel = path + 20;
    size_t len = 0;
    char *data = read_confined(root, rel, &len);
    if (!data) {
        http_error(c, 404, "no_path");
        return;
    }
    http_set_response(c, 200, mime_type(rel), data, len);
    free(data);
}
