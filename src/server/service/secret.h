/* Random secrets, ids and their hashes (libsodium): the games' secrets and invitations, and the
 * accounts' session tokens. Only hashes are ever stored. */
#ifndef SCHACH_SERVER_SECRET_H
#define SCHACH_SERVER_SECRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

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
/* The secret of side color of game_id played by an account: derived from the site's key (32 bytes,
 * store_accounts.h site_key) and the side's seat epoch (GameRecord.seat_epoch), so any server can hand
 * it out again without storing it, and a new epoch revokes every secret of the one before. */
void secret_side(const unsigned char key[32], const char *game_id, int color, int64_t epoch, char out[SECRET_LEN + 1]);
/* The secret of an anonymous side color of a rematch game_id: derived from the site's key and the stored
 * hash of the secret that side's player held in the old game, so the server can give it again to
 * whoever proves that old secret, at any later call, without storing it. */
void secret_rematch(const unsigned char key[32], const char *game_id, int color,
                    const unsigned char old_hash[STORE_HASH_LEN], char out[SECRET_LEN + 1]);
/* A uniformly random integer below bound. */
uint32_t secret_random_below(uint32_t bound);

#endif
