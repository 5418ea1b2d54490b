/* Random secrets, ids and their hashes (libsodium): the games' secrets and invitations, and the
 * accounts' session tokens. Only hashes are ever stored. */
#ifndef SCHACH_SERVER_SECRET_H
#define SCHACH_SERVER_SECRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define SECRET_LEN 43 /* base64url of 32 bytes without padding */

/* Initialises libsodium once; false when it cannot. */
bool secret_init(void);
/* A new secret (SECRET_LEN characters + NUL) and its hash. */
void secret_new(char out[SECRET_LEN + 1], unsigned char hash[STORE_HASH_LEN]);
/* The hash a secret text is stored as. */
void secret_hash(const char *text, unsigned char hash[STORE_HASH_LEN]);
/* Whether text hashes to stored, in constant time; false for an all-zero (unused) stored hash. */
bool secret_matches(const char *text, const unsigned char stored[STORE_HASH_LEN]);
/* Whether a stored hash is in use (someone holds that side / an invitation is open). */
bool secret_is_set(const unsigned char hash[STORE_HASH_LEN]);
/* len random URL-safe characters plus NUL into out. */
void secret_random_id(char *out, size_t len);
/* A uniformly random integer below bound. */
uint32_t secret_random_below(uint32_t bound);

#endif
