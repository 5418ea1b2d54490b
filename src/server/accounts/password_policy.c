/* The common passwords and the Unicode normal form (password_policy.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "password_policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <uninorm.h>
#include <unistr.h>

/* Longer lines cannot be a password anyone types (ACCOUNT_PASSWORD_MAX is 256 bytes). */
#define LINE_MAX_BYTES 1024

static char **list;
static size_t list_count;

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

static int compare(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void free_list(char **l, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

void password_policy_free(void) {
    free_list(list, list_count);
    list = NULL;
    list_count = 0;
}

size_t password_policy_count(void) { return list_count; }

bool accounts_load_common_passwords(const char *path, char *err, size_t err_size) {
    return password_policy_load(path, err, err_size);
}

bool password_policy_load(const char *path, char *err, size_t err_size) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "cannot read the list of common passwords %s: %s", path, strerror(errno));
        return false;
    }
    char **l = NULL, line[LINE_MAX_BYTES + 2];
    size_t n = 0, cap = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        if (line[len] == '\0' && !feof(f)) { /* too long: skip the rest of the line */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            continue;
        }
        line[len] = '\0';
        if (len == 0 || !strncmp(line, "#!comment:", 10))
            continue;
        char nfc[LINE_MAX_BYTES * 4];
        size_t nfc_len;
        if (!password_nfc(line, len, nfc, sizeof nfc, &nfc_len))
            continue; /* not UTF-8: no one can send it */
        for (size_t i = 0; i < nfc_len; i++)
            nfc[i] = lower(nfc[i]);
        if (n == cap) {
            size_t c2 = cap ? cap * 2 : 4096;
            char **grown = realloc(l, c2 * sizeof *l);
            if (!grown) {
                ok = false;
                break;
            }
            l = grown, cap = c2;
        }
        if (!(l[n] = strdup(nfc)))
            ok = false;
        else
            n++;
    }
    if (ferror(f)) {
        snprintf(err, err_size, "cannot read the list of common passwords %s: %s", path, strerror(errno));
        ok = false;
    } else if (!ok) {
        snprintf(err, err_size, "out of memory reading the list of common passwords %s", path);
    } else if (n == 0) {
        snprintf(err, err_size, "the list of common passwords %s holds no password", path);
        ok = false;
    }
    fclose(f);
    if (!ok) {
        free_list(l, n);
        return false;
    }
    qsort(l, n, sizeof *l, compare);
    password_policy_free();
    list = l;
    list_count = n;
    return true;
}

bool password_policy_is_common(const char *password, size_t len) {
    if (!list_count || len > LINE_MAX_BYTES * 4)
        return false;
    char key[LINE_MAX_BYTES * 4 + 1];
    for (size_t i = 0; i < len; i++)
        key[i] = lower(password[i]);
    key[len] = '\0';
    const char *k = key;
    bool found = bsearch(&k, list, list_count, sizeof *list, compare) != NULL;
    sodium_memzero(key, sizeof key);
    return found;
}

bool password_nfc(const char *s, size_t len, char *out, size_t out_size, size_t *out_len) {
    if (out_size == 0 || u8_check((const uint8_t *)s, len) != NULL)
        return false;
    size_t n = out_size - 1;
    /* With room enough libunistring writes into out; otherwise it allocates, and the form is too long. */
    uint8_t *r = u8_normalize(UNINORM_NFC, (const uint8_t *)s, len, (uint8_t *)out, &n);
    if (!r)
        return false;
    if (r != (uint8_t *)out) {
        sodium_memzero(r, n);
        free(r);
        return false;
    }
    out[n] = '\0';
    *out_len = n;
    return true;
}
