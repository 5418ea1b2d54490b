/* Runs a fuzz harness over files without libFuzzer, so the ordinary and sanitizer builds replay the
 * seed corpora (and any finding saved there) as a regression test, with gcc as well as clang.
 * Usage: replay_NAME FILE_OR_FOLDER... ; exit status 0 when every input ran (a failed check aborts). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return false;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *grown = realloc(data, cap *= 2);
            if (!grown)
                free(data);
            data = grown;
        }
    }
    bool ok = data && !ferror(f);
    fclose(f);
    if (ok)
        LLVMFuzzerTestOneInput(data, len);
    else
        fprintf(stderr, "%s: cannot read\n", path);
    free(data);
    return ok;
}

/* Replays path, or every regular file in it when it is a folder; counts the inputs in *count. */
static bool replay(const char *path, int *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return replay_file(path);
    }
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (stat(child, &st) == 0 && S_ISREG(st.st_mode)) {
            ++*count;
            ok = replay_file(child) && ok;
        }
    }
    closedir(dir);
    return ok;
}

int main(int argc, char **argv) {
    bool ok = true;
    int count = 0;
    for (int i = 1; i < argc; i++)
        ok = replay(argv[i], &count) && ok;
    printf("%s: %d inputs replayed\n", argc > 0 ? argv[0] : "replay", count);
    return ok ? 0 : 1;
}
