/* The server's per-address accounting (src/server/base/client_limits.c): connection caps, the two token
 * buckets and their Retry-After, address keys (IPv4, IPv6 per /64, mapped addresses), and that the
 * table stays bounded however many addresses come by, and the frozen clock of the server's tests. Time
 * is passed in, so nothing here waits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "base/client_limits.h"

static Limits *make(int total, int per_address, int creates, int requests, int max_entries) {
    LimitsConfig cfg = {.max_connections = total,
                        .connections_per_address = per_address,
                        .creates_per_minute = creates,
                        .requests_per_minute = requests,
                        .max_entries = max_entries};
    Limits *l = limits_new(&cfg);
    assert_non_null(l);
    return l;
}

static void test_connection_caps(void **state) {
    (void)state;
    Limits *l = make(5, 2, 0, 0, 0);
    LimitsEntry *a1, *a2, *a3, *b1, *b2, *c1;
    assert_int_equal(limits_open(l, "10.0.0.1", true, 0, &a1), LIMITS_OPEN_OK);
    assert_int_equal(limits_open(l, "10.0.0.1", true, 0, &a2), LIMITS_OPEN_OK);
    /* The third from one address is refused; others are still let in. */
    assert_int_equal(limits_open(l, "10.0.0.1", true, 0, &a3), LIMITS_OPEN_PER_ADDRESS);
    assert_int_equal(limits_open(l, "10.0.0.2", true, 0, &b1), LIMITS_OPEN_OK);
    /* A trusted proxy carries many clients: no per-address cap, but the total holds. */
    assert_int_equal(limits_open(l, "10.0.0.9", false, 0, &b2), LIMITS_OPEN_OK);
    assert_int_equal(limits_open(l, "10.0.0.9", false, 0, &c1), LIMITS_OPEN_OK);
    assert_int_equal(limits_connections(l), 5);
    LimitsEntry *d;
    assert_int_equal(limits_open(l, "10.0.0.3", true, 0, &d), LIMITS_OPEN_TOTAL);
    /* Closing gives the count back. */
    limits_close(l, a1);
    assert_int_equal(limits_connections(l), 4);
    assert_int_equal(limits_open(l, "10.0.0.1", true, 0, &a3), LIMITS_OPEN_OK);
    limits_free(l);
}

static void test_buckets_and_retry_after(void **state) {
    (void)state;
    Limits *l = make(100, 0, 3, 0, 0);
    /* A minute's worth at once, then one every 20 s. */
    for (int i = 0; i < 3; i++)
        assert_int_equal(limits_take(l, "192.0.2.7", LIMIT_CREATE, 1000), 0);
    int retry = limits_take(l, "192.0.2.7", LIMIT_CREATE, 1000);
    assert_true(retry >= 20 && retry <= 21); /* never too early: a token is there after it */
    /* Another address has its own bucket; requests are not limited here (0 = off). */
    assert_int_equal(limits_take(l, "192.0.2.8", LIMIT_CREATE, 1000), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(limits_take(l, "192.0.2.7", LIMIT_REQUEST, 1000), 0);
    /* After the wait it said, one more is allowed, and then it is empty again. */
    assert_int_equal(limits_take(l, "192.0.2.7", LIMIT_CREATE, 1000 + (int64_t)retry * 1000), 0);
    assert_true(limits_take(l, "192.0.2.7", LIMIT_CREATE, 1000 + (int64_t)retry * 1000) >= 1);
    limits_free(l);
}

/* SCHACH_LIMITS_CLOCK=frozen (tests of the server): whatever time passes, a bucket never refills, so
 * a test's eleventh attempt is refused however long the ten before it took; the table keeps its
 * addresses (a sweep forgets nothing) and connections are counted as before. */
static void test_frozen_clock_never_refills(void **state) {
    (void)state;
    LimitsConfig cfg = {.max_connections = 100, .creates_per_minute = 3, .frozen = true};
    Limits *l = limits_new(&cfg);
    assert_non_null(l);
    for (int i = 0; i < 3; i++)
        assert_int_equal(limits_take(l, "192.0.2.7", LIMIT_CREATE, 1000 + (int64_t)i * 3600000), 0);
    int64_t much_later = 24LL * 3600000;
    int retry = limits_take(l, "192.0.2.7", LIMIT_CREATE, much_later);
    assert_true(retry >= 20 && retry <= 21); /* Retry-After as with a running clock */
    assert_true(limits_take(l, "192.0.2.7", LIMIT_CREATE, much_later + (int64_t)retry * 1000) >= 1);
    limits_sweep(l, 2 * much_later);
    assert_int_equal(limits_entries(l), 1);
    assert_true(limits_take(l, "192.0.2.7", LIMIT_CREATE, 3 * much_later) >= 1);
    /* Another address has a full bucket of its own. */
    assert_int_equal(limits_take(l, "192.0.2.8", LIMIT_CREATE, much_later), 0);
    LimitsEntry *e;
    assert_int_equal(limits_open(l, "192.0.2.9", true, much_later, &e), LIMITS_OPEN_OK);
    assert_int_equal(limits_connections(l), 1);
    limits_close(l, e);
    limits_free(l);
}

static void test_address_keys(void **state) {
    (void)state;
    char key[LIMITS_ADDRESS_MAX], other[LIMITS_ADDRESS_MAX];
    assert_true(limits_key_from_text("192.0.2.1", key, sizeof key));
    assert_string_equal(key, "192.0.2.1");
    /* IPv6 counts per /64: two hosts of one customer share a key, another /64 does not. */
    assert_true(limits_key_from_text("2001:db8:1:2::5", key, sizeof key));
    assert_true(limits_key_from_text("2001:db8:1:2:ffff::9", other, sizeof other));
    assert_string_equal(key, other);
    assert_true(limits_key_from_text("2001:db8:1:3::5", other, sizeof other));
    assert_string_not_equal(key, other);
    /* An IPv4 client on an IPv6 socket is the IPv4 address. */
    struct sockaddr_in6 sa6;
    memset(&sa6, 0, sizeof sa6);
    sa6.sin6_family = AF_INET6;
    assert_int_equal(inet_pton(AF_INET6, "::ffff:192.0.2.1", &sa6.sin6_addr), 1);
    assert_true(limits_key_from_sockaddr((const struct sockaddr *)&sa6, key, sizeof key));
    assert_string_equal(key, "192.0.2.1");
    struct sockaddr_in sa4;
    memset(&sa4, 0, sizeof sa4);
    sa4.sin_family = AF_INET;
    assert_int_equal(inet_pton(AF_INET, "198.51.100.4", &sa4.sin_addr), 1);
    assert_true(limits_key_from_sockaddr((const struct sockaddr *)&sa4, key, sizeof key));
    assert_string_equal(key, "198.51.100.4");
    /* Not addresses: refused (an X-Forwarded-For value is not trusted blindly). */
    assert_false(limits_key_from_text("example.org", key, sizeof key));
    assert_false(limits_key_from_text("", key, sizeof key));
    assert_false(limits_key_from_text("1.2.3.4.5", key, sizeof key));
    assert_true(limits_canonical_text("2001:DB8::1", key, sizeof key));
    assert_string_equal(key, "2001:db8::1");
}

/* A million addresses passing by leave a table no larger than its cap, and a sweep forgets those that
 * have nothing open and full buckets again: memory does not grow with the addresses ever seen. */
static void test_table_stays_bounded(void **state) {
    (void)state;
    enum { CAP = 1000 };
    Limits *l = make(1 << 20, 4, 2, 10, CAP);
    char key[32];
    int64_t now = 0;
    for (int i = 0; i < 1000000; i++) {
        snprintf(key, sizeof key, "10.%d.%d.%d", (i >> 16) & 255, (i >> 8) & 255, i & 255);
        limits_take(l, key, LIMIT_REQUEST, now);
        assert_true(limits_entries(l) <= CAP);
        if (i % 5000 == 4999) {
            now += 10000;
            limits_sweep(l, now);
        }
    }
    assert_true(limits_entries(l) <= CAP);
    /* A minute later every bucket is full again and nothing is open: all forgotten. */
    now += 61000;
    limits_sweep(l, now);
    assert_int_equal(limits_entries(l), 0);
    /* An address with an open connection is kept by the sweep; a full table refuses new ones. */
    Limits *small = make(100, 4, 2, 10, 2);
    LimitsEntry *e1, *e2, *e3;
    assert_int_equal(limits_open(small, "10.0.0.1", true, 0, &e1), LIMITS_OPEN_OK);
    assert_int_equal(limits_open(small, "10.0.0.2", true, 0, &e2), LIMITS_OPEN_OK);
    assert_int_equal(limits_open(small, "10.0.0.3", true, 0, &e3), LIMITS_OPEN_TABLE_FULL);
    limits_sweep(small, 120000);
    assert_int_equal(limits_entries(small), 2);
    limits_close(small, e1);
    limits_sweep(small, 240000);
    assert_int_equal(limits_entries(small), 1);
    assert_int_equal(limits_open(small, "10.0.0.3", true, 240000, &e3), LIMITS_OPEN_OK);
    limits_free(small);
    limits_free(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connection_caps),
        cmocka_unit_test(test_buckets_and_retry_after),
        cmocka_unit_test(test_frozen_clock_never_refills),
        cmocka_unit_test(test_address_keys),
        cmocka_unit_test(test_table_stays_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
