/* User names and password hashes (account.h). */
#include "account.h"

#include <string.h>

#include <unictype.h>
#include <unistr.h>

#include "password_policy.h"

static bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

AccountCheck account_name_check(const char *name) {
    if (!name)
        return ACCOUNT_NAME_LENGTH;
    size_t n = strlen(name);
    if (n < ACCOUNT_NAME_MIN || n > ACCOUNT_NAME_MAX)
        return ACCOUNT_NAME_LENGTH;
    for (size_t i = 0; i < n; i++)
        if (!is_alnum(name[i]) && name[i] != '_' && name[i] != '-')
            return ACCOUNT_NAME_CHARACTERS;
    /* Separators only between letters and digits: "-x-", "a__b" and the like look like other names. */
    if (!is_alnum(name[0]) || !is_alnum(name[n - 1]))
        return ACCOUNT_NAME_EDGE;
    for (size_t i = 1; i < n; i++)
        if (!is_alnum(name[i]) && !is_alnum(name[i - 1]))
            return ACCOUNT_NAME_EDGE;
    return ACCOUNT_OK;
}

bool account_name_key(const char *name, char key[ACCOUNT_NAME_MAX + 1]) {
    if (account_name_check(name) != ACCOUNT_OK)
        return false;
    size_t i = 0;
    for (; name[i]; i++)
        key[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
    key[i] = '\0';
    return true;
}

/* Room for a password's NFC form: normalising can make text longer, never more than 3 times. */
#define NFC_MAX (ACCOUNT_PASSWORD_MAX * 3 + 1)

/* What a password is compared and hashed as: its NFC form in out (the bytes as they came when they are
 * not UTF-8: JSON text always is). */
static void normal_form(const char *password, size_t len, char out[NFC_MAX], size_t *out_len) {
    if (len > ACCOUNT_PASSWORD_MAX || !password_nfc(password, len, out, NFC_MAX, out_len)) {
        *out_len = len < NFC_MAX ? len : NFC_MAX - 1;
        memcpy(out, password, *out_len);
    }
}

static AccountCheck check_normal(const char *p, size_t len, const char *name) {
    /* Characters (code points) of the NFC form; whether all are white space; whether all are one. */
    size_t n = 0;
    bool blank = true, same = true;
    ucs4_t first = 0;
    for (size_t i = 0; i < len;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, (const uint8_t *)p + i, len - i);
        i += k > 0 ? (size_t)k : 1;
        blank = blank && uc_is_property_white_space(c);
        if (n == 0)
            first = c;
        same = same && c == first;
        n++;
    }
    if (n < ACCOUNT_PASSWORD_MIN)
        return ACCOUNT_PASSWORD_LENGTH;
    if (blank)
        return ACCOUNT_PASSWORD_BLANK;
    if (same)
        return ACCOUNT_PASSWORD_REPEATED;
    if (name && strlen(name) == len) {
        size_t i = 0;
        for (; i < len; i++) {
            char a = p[i], b = name[i];
            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z')
                b = (char)(b - 'A' + 'a');
            if (a != b)
                break;
        }
        if (i == len)
            return ACCOUNT_PASSWORD_IS_NAME;
    }
    if (password_policy_is_common(p, len))
        return ACCOUNT_PASSWORD_COMMON;
    return ACCOUNT_OK;
}

AccountCheck account_password_check(const char *password, size_t len, const char *name) {
    if (!password)
        return ACCOUNT_PASSWORD_NUL;
    if (memchr(password, '\0', len))
        return ACCOUNT_PASSWORD_NUL;
    if (len > ACCOUNT_PASSWORD_MAX)
        return ACCOUNT_PASSWORD_LENGTH;
    char nfc[NFC_MAX];
    size_t n;
    normal_form(password, len, nfc, &n);
    AccountCheck c = check_normal(nfc, n, name);
    sodium_memzero(nfc, sizeof nfc);
    return c;
}

bool account_password_hash(const char *password, size_t len, AccountHashCost cost, char out[ACCOUNT_HASH_LEN]) {
    if (sodium_init() < 0)
        return false;
    char nfc[NFC_MAX];
    size_t n;
    normal_form(password, len, nfc, &n);
    bool test = cost == ACCOUNT_HASH_TEST;
    bool ok = crypto_pwhash_str(out, nfc, n, test ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                test ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    sodium_memzero(nfc, sizeof nfc);
    return ok;
}

bool account_password_verify(const char hash[ACCOUNT_HASH_LEN], const char *password, size_t len) {
    if (sodium_init() < 0 || !memchr(hash, '\0', ACCOUNT_HASH_LEN))
        return false;
    char nfc[NFC_MAX];
    size_t n;
    normal_form(password, len, nfc, &n);
    bool match = crypto_pwhash_str_verify(hash, nfc, n) == 0;
    /* A hash made before passwords were normalised is of the bytes as they were typed. */
    if (!match && (n != len || memcmp(nfc, password, len) != 0))
        match = crypto_pwhash_str_verify(hash, password, len) == 0;
    sodium_memzero(nfc, sizeof nfc);
    return match;
}

const char *account_check_text(AccountCheck check, bool german) {
    switch (check) {
        case ACCOUNT_OK: return german ? "in Ordnung" : "fine";
        case ACCOUNT_NAME_LENGTH:
            return german ? "Der Benutzername muss 3 bis 20 Zeichen lang sein."
                          : "The user name must be 3 to 20 characters long.";
        case ACCOUNT_NAME_CHARACTERS:
            return german ? "Der Benutzername darf nur Buchstaben (a–z), Ziffern, _ und - enthalten."
                          : "The user name may contain only letters (a–z), digits, _ and -.";
        case ACCOUNT_NAME_EDGE:
            return german ? "_ und - dürfen nur zwischen Buchstaben oder Ziffern stehen."
                          : "_ and - may only stand between letters or digits.";
        case ACCOUNT_PASSWORD_LENGTH:
            return german ? "Das Passwort muss mindestens 8 Zeichen lang sein (höchstens 256 Byte)."
                          : "The password must be at least 8 characters long (at most 256 bytes).";
        case ACCOUNT_PASSWORD_NUL:
            return german ? "Das Passwort darf kein NUL-Zeichen enthalten."
                          : "The password must not contain a NUL character.";
        case ACCOUNT_PASSWORD_IS_NAME:
            return german ? "Das Passwort darf nicht der Benutzername sein."
                          : "The password must not be the user name.";
        case ACCOUNT_PASSWORD_BLANK:
            return german ? "Das Passwort darf nicht nur aus Leerzeichen bestehen."
                          : "The password must not be only white space.";
        case ACCOUNT_PASSWORD_REPEATED:
            return german ? "Das Passwort darf nicht ein einziges Zeichen wiederholen."
                          : "The password must not be one character repeated.";
        case ACCOUNT_PASSWORD_COMMON:
            return german
                       ? "Dieses Passwort ist zu verbreitet: Es steht auf einer Liste, die Angreifer zuerst probieren."
                       : "This password is too common: it is on a list attackers try first.";
    }
    return "?";
}
