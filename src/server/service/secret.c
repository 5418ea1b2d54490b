/* Secrets, invitation tokens and game ids from libsodium's random generator; only hashes are kept. */
#include <stdio.h>
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

static void keyed_secret(const unsigned char key[32], const unsigned char *msg, size_t len, char out[SECRET_LEN + 1]) {
    unsigned char raw[32];
    crypto_generichash(raw, sizeof raw, msg, len, key, 32);
    sodium_bin2base64(out, SECRET_LEN + 1, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
}

void secret_side(const unsigned char key[32], const char *game_id, int color, int64_t epoch, char out[SECRET_LEN + 1]) {
    char msg[96];
    /* Epoch 0 is the derivation from before epochs: the secrets handed out then stay valid. */
    int len = epoch ? snprintf(msg, sizeof msg, "side:%s:%d:%lld", game_id, color, (long long)epoch)
                    : snprintf(msg, sizeof msg, "side:%s:%d", game_id, color);
    keyed_secret(key, (const unsigned char *)msg, (size_t)len, out);
}

void secret_rematch(const unsigned char key[32], const char *game_id, int color,
                    const unsigned char old_hash[STORE_HASH_LEN], char out[SECRET_LEN + 1]) {
    /* A prefix of its own keeps these apart from the accounts' side secrets of the same game. */
    unsigned char msg[64 + STORE_HASH_LEN];
    int len = snprintf((char *)msg, 64, "rematch:%s:%d:", game_id, color);
    memcpy(msg + len, old_hash, STORE_HASH_LEN);
    keyed_secret(key, msg, (size_t)len + STORE_HASH_LEN, out);
}
