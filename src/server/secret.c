/* Secrets, invitation tokens and game ids from libsodium's random generator; only hashes are kept. */
#include <string.h>

#include <sodium.h>

#include "secret.h"

bool secret_init(void) {
    /* sodium_init is safe to call again: it returns 1 when already initialised. */
    return sodium_init() >= 0;
}

void secret_hash(const char *text, unsigned char hash[STORE_HASH_LEN]) {
    crypto_generichash(hash, STORE_HASH_LEN, (const unsigned char *)text, strlen(text), NULL, 0);
}

void secret_new(char out[SECRET_LEN + 1], unsigned char hash[STORE_HASH_LEN]) {
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(out, SECRET_LEN + 1, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    secret_hash(out, hash);
}

bool secret_matches(const char *text, const unsigned char stored[STORE_HASH_LEN]) {
    if (!text || sodium_is_zero(stored, STORE_HASH_LEN))
        return false;
    unsigned char hash[STORE_HASH_LEN];
    secret_hash(text, hash);
    return sodium_memcmp(hash, stored, STORE_HASH_LEN) == 0;
}

void secret_random_id(char *out, size_t len) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char raw[64];
    if (len > sizeof raw)
        len = sizeof raw;
    randombytes_buf(raw, len);
    /* 64 symbols divide 256 evenly, so masking keeps every character equally likely. */
    for (size_t i = 0; i < len; i++)
        out[i] = alphabet[raw[i] & 63];
    out[len] = '\0';
}

uint32_t secret_random_below(uint32_t bound) { return randombytes_uniform(bound); }

bool secret_is_set(const unsigned char hash[STORE_HASH_LEN]) { return !sodium_is_zero(hash, STORE_HASH_LEN); }
