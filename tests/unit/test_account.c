/* Accounts' names and passwords (src/server/accounts/account.c): which names and passwords are accepted and why
 * not, names compared without case, and password storage: an Argon2id string that holds no trace of
 * the password, verifies the right one and only that one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "accounts/account.h"

static void names(void **state) {
    (void)state;
    static const struct {
        const char *name;
        AccountCheck want;
    } cases[] = {
        {"abc", ACCOUNT_OK},
        {"Magnus_Carlsen", ACCOUNT_OK},
        {"a-b-c-1-2-3", ACCOUNT_OK},
        {"12345678901234567890", ACCOUNT_OK},
        {"ab", ACCOUNT_NAME_LENGTH},
        {"", ACCOUNT_NAME_LENGTH},
        {"123456789012345678901", ACCOUNT_NAME_LENGTH},
        {"with space", ACCOUNT_NAME_CHARACTERS},
        {"Jürgen", ACCOUNT_NAME_CHARACTERS},
        {"a.b.c", ACCOUNT_NAME_CHARACTERS},
        {"<script>", ACCOUNT_NAME_CHARACTERS},
        {"bob'--", ACCOUNT_NAME_CHARACTERS},
        {"_abc", ACCOUNT_NAME_EDGE},
        {"abc-", ACCOUNT_NAME_EDGE},
        {"a__b", ACCOUNT_NAME_EDGE},
        {"a-_b", ACCOUNT_NAME_EDGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (account_name_check(cases[i].name) != cases[i].want)
            fail_msg("'%s': %d, want %d", cases[i].name, account_name_check(cases[i].name), cases[i].want);
        assert_true(strlen(account_check_text(cases[i].want, false)) > 1);
        assert_true(strlen(account_check_text(cases[i].want, true)) > 1);
    }
    assert_int_equal(account_name_check(NULL), ACCOUNT_NAME_LENGTH);
    char a[ACCOUNT_NAME_MAX + 1], b[ACCOUNT_NAME_MAX + 1];
    assert_true(account_name_key("Magnus_Carlsen", a));
    assert_true(account_name_key("mAGNUS_cARLSEN", b));
    assert_string_equal(a, "magnus_carlsen");
    assert_string_equal(a, b);
    assert_false(account_name_key("no way", a));
}

static void passwords(void **state) {
    (void)state;
    assert_int_equal(account_password_check("correct horse", 13, "bob"), ACCOUNT_OK);
    assert_int_equal(account_password_check("short", 5, "bob"), ACCOUNT_PASSWORD_LENGTH);
    /* Eight characters of German are more than eight bytes; seven are too few however many bytes. */
    assert_int_equal(account_password_check("äöüßäöüß", strlen("äöüßäöüß"), "bob"), ACCOUNT_OK);
    assert_int_equal(account_password_check("äöüßäöü", strlen("äöüßäöü"), "bob"), ACCOUNT_PASSWORD_LENGTH);
    assert_int_equal(account_password_check("pass\0word", 9, "bob"), ACCOUNT_PASSWORD_NUL);
    assert_int_equal(account_password_check("Alice_Wonder", 12, "alice_wonder"), ACCOUNT_PASSWORD_IS_NAME);
    char longer[ACCOUNT_PASSWORD_MAX + 2];
    for (size_t i = 0; i < sizeof longer; i++) /* not one character repeated: that is too weak */
        longer[i] = (char)('a' + i % 26);
    assert_int_equal(account_password_check(longer, ACCOUNT_PASSWORD_MAX, "bob"), ACCOUNT_OK);
    assert_int_equal(account_password_check(longer, ACCOUNT_PASSWORD_MAX + 1, "bob"), ACCOUNT_PASSWORD_LENGTH);
}

static void storage_holds_no_plaintext(void **state) {
    (void)state;
    const char *pw = "Sizilianisch-Najdorf-6.Lg5";
    char hash[ACCOUNT_HASH_LEN], again[ACCOUNT_HASH_LEN];
    assert_true(account_password_hash(pw, strlen(pw), ACCOUNT_HASH_INTERACTIVE, hash));
    assert_non_null(memchr(hash, '\0', sizeof hash));
    /* Every server's cost: libsodium's interactive limits, 64 MiB and two passes. */
    assert_int_equal(strncmp(hash, "$argon2id$v=19$m=65536,t=2,p=1$", 31), 0);
    assert_null(strstr(hash, pw));
    assert_null(strstr(hash, "Najdorf"));
    /* Salted: the same password twice gives two different strings, both of which verify. */
    assert_true(account_password_hash(pw, strlen(pw), ACCOUNT_HASH_INTERACTIVE, again));
    assert_string_not_equal(hash, again);
    assert_true(account_password_verify(hash, pw, strlen(pw)));
    assert_true(account_password_verify(again, pw, strlen(pw)));
    assert_false(account_password_verify(hash, "sizilianisch-najdorf-6.lg5", strlen(pw)));
    assert_false(account_password_verify(hash, pw, strlen(pw) - 1));
    /* A stored value that is not one of our hashes never verifies. */
    char junk[ACCOUNT_HASH_LEN];
    memset(junk, 'A', sizeof junk);
    assert_false(account_password_verify(junk, pw, strlen(pw)));
    snprintf(junk, sizeof junk, "%s", pw);
    assert_false(account_password_verify(junk, pw, strlen(pw)));
}

/* The tests' cost (SCHACH_PASSWORD_HASH=test): libsodium's least, still a salted Argon2id string that
 * verifies only its password; and either kind verifies whatever the cost new hashes are made at. */
static void cheap_hashes_for_tests(void **state) {
    (void)state;
    const char *pw = "Caro-Kann-Vorstoss";
    char cheap[ACCOUNT_HASH_LEN], again[ACCOUNT_HASH_LEN];
    assert_true(account_password_hash(pw, strlen(pw), ACCOUNT_HASH_TEST, cheap));
    assert_int_equal(strncmp(cheap, "$argon2id$v=19$m=8,t=1,p=1$", 27), 0);
    assert_null(strstr(cheap, pw));
    assert_true(account_password_hash(pw, strlen(pw), ACCOUNT_HASH_TEST, again));
    assert_string_not_equal(cheap, again);
    assert_true(account_password_verify(cheap, pw, strlen(pw)));
    assert_false(account_password_verify(cheap, "caro-kann-vorstoss", strlen(pw)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names),
        cmocka_unit_test(passwords),
        cmocka_unit_test(storage_holds_no_plaintext),
        cmocka_unit_test(cheap_hashes_for_tests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
