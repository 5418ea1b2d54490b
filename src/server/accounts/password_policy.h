/* What a password must not be (NIST SP 800-63B, 5.1.1.2; docs/api.md "Accounts"): passwords are
 * compared and hashed in Unicode NFC (libunistring), so "café" typed with a combining accent is the
 * same password as with the precomposed letter; and a password on the list of common passwords is
 * refused. The list (one password a line, lines starting "#!comment:" skipped, compared without ASCII
 * case) is read once when the server starts — by default john-data's /usr/share/john/password.lst —
 * and only read afterwards, by any thread. Memory: password_policy_load allocates the list (freed by
 * password_policy_free); password_nfc allocates nothing. */
#ifndef SCHACH_SERVER_PASSWORD_POLICY_H
#define SCHACH_SERVER_PASSWORD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "accounts.h"

/* Debian's john-data: about 3,500 passwords most commonly seen. */
#define PASSWORD_POLICY_DEFAULT_LIST ACCOUNTS_COMMON_PASSWORDS

/* Reads the list at path (replacing one read before). false with err filled when it cannot be read or
 * holds no password at all (then no list is in force). Call before any thread checks passwords. */
bool password_policy_load(const char *path, char *err, size_t err_size);
/* How many passwords the list in force holds (0: none loaded: nothing counts as common). */
size_t password_policy_count(void);
void password_policy_free(void);

/* Whether the password (NFC, len bytes) is on the list, whatever its ASCII case. */
bool password_policy_is_common(const char *password, size_t len);

/* The NFC form of s (len bytes of UTF-8) into out (out_size bytes, NUL added), its length in
 * *out_len. false when s is not UTF-8 or the form does not fit. */
bool password_nfc(const char *s, size_t len, char *out, size_t out_size, size_t *out_len);

#endif
