/* Accounts (issue 13, optional for players): user names and passwords. A name is shown as its owner
 * typed it and compared without case ("Magnus" and "magnus" are one name); a password is kept only as
 * libsodium's Argon2id string (crypto_pwhash_str: salt and parameters inside), never in plain text.
 * Hashing costs about 64 MiB and tens of milliseconds by design, so the server runs it on a worker
 * thread, never on the event loop. Session tokens are secrets like the games' (secret_new): random,
 * sent to the browser once, stored only as their hash. */
#ifndef SCHACH_SERVER_ACCOUNT_H
#define SCHACH_SERVER_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include <sodium.h>

#define ACCOUNT_NAME_MIN     3
#define ACCOUNT_NAME_MAX     20
#define ACCOUNT_PASSWORD_MIN 8
#define ACCOUNT_PASSWORD_MAX 256 /* bytes: a bound on the work a request can ask for */
#define ACCOUNT_HASH_LEN     crypto_pwhash_STRBYTES

typedef enum {
    ACCOUNT_OK,
    ACCOUNT_NAME_LENGTH,       /* fewer than ACCOUNT_NAME_MIN or more than ACCOUNT_NAME_MAX characters */
    ACCOUNT_NAME_CHARACTERS,   /* a character other than ASCII letters, digits, '_' and '-' */
    ACCOUNT_NAME_EDGE,         /* starts or ends with '_' or '-', or has two of them in a row */
    ACCOUNT_PASSWORD_LENGTH,   /* fewer than ACCOUNT_PASSWORD_MIN characters (in NFC) or more than MAX bytes */
    ACCOUNT_PASSWORD_NUL,      /* contains a NUL byte (or is not text at all) */
    ACCOUNT_PASSWORD_IS_NAME,  /* the same as the user name, whatever the case */
    ACCOUNT_PASSWORD_BLANK,    /* only white space (Unicode's White_Space property) */
    ACCOUNT_PASSWORD_REPEATED, /* one character repeated ("aaaaaaaa") */
    ACCOUNT_PASSWORD_COMMON    /* on the list of common passwords (password_policy.h), whatever its case */
} AccountCheck;

/* Whether name may be a user name (ACCOUNT_OK) or why not. NULL is ACCOUNT_NAME_LENGTH. */
AccountCheck account_name_check(const char *name);

/* The name as it is compared and stored as a key: lower case. key has room for ACCOUNT_NAME_MAX + 1;
 * false for a name account_name_check refuses. */
bool account_name_key(const char *name, char key[ACCOUNT_NAME_MAX + 1]);

/* Whether password (len bytes, not necessarily NUL-terminated) is acceptable for the user name. Its
 * characters are counted, and it is compared, in Unicode NFC (password_policy.h); no composition
 * rules (NIST SP 800-63B). */
AccountCheck account_password_check(const char *password, size_t len, const char *name);

/* The cost of a new hash. ACCOUNT_HASH_INTERACTIVE, libsodium's interactive limits (64 MiB, two passes),
 * is every server's; ACCOUNT_HASH_TEST, libsodium's least (8 KiB, one pass), only the test suite's
 * (SCHACH_PASSWORD_HASH=test), which hashes hundreds of passwords on two cores. Both are Argon2id
 * strings with their parameters inside, so either verifies wherever it is read. */
typedef enum { ACCOUNT_HASH_INTERACTIVE, ACCOUNT_HASH_TEST } AccountHashCost;

/* Hashes password's NFC form into out (Argon2id at the given cost). false when libsodium could not
 * (out of memory). */
bool account_password_hash(const char *password, size_t len, AccountHashCost cost, char out[ACCOUNT_HASH_LEN]);

/* Whether password matches a stored hash, in time that does not depend on where they differ: its NFC
 * form, or (a hash made before passwords were normalised) its bytes as typed. false too for a hash
 * that is not one of ours. */
bool account_password_verify(const char hash[ACCOUNT_HASH_LEN], const char *password, size_t len);

/* The check's words, in English or German. */
const char *account_check_text(AccountCheck check, bool german);

#endif
