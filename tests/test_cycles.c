/* The cycle algebra (src/cycle_algebra.c, src/cycles.c) against brute
 * force: the walk of every position (clipt_cycle_segments_walk and a plain
 * walk here), and the modular arithmetic (src/modular.c) against trial
 * division and direct products. */
#include "support.h"
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- modular arithmetic --------------------------------------------------- */

static int brute_is_prime(uint64_t n)
{
    if (n < 2)
        return 0;
    for (uint64_t d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

static void check_factors(uint64_t n)
{
    clipt_factors f;
    uint64_t product = 1;
    clipt_factor64(n, &f);
    for (unsigned i = 0; i < f.count; i++) {
        if (!clipt_is_prime64(f.p[i]) || (i > 0 && f.p[i] <= f.p[i - 1]) || f.e[i] == 0)
            fail_msg("factor %u of %llu: %llu^%u", i, (unsigned long long)n,
                     (unsigned long long)f.p[i], f.e[i]);
        for (unsigned e = 0; e < f.e[i]; e++)
            product *= f.p[i];
    }
    if (product != n)
        fail_msg("the factors of %llu multiply to %llu", (unsigned long long)n,
                 (unsigned long long)product);
}

static void test_modular(void **state)
{
    uint64_t seed = 13;
    (void)state;
    for (uint64_t n = 0; n < 20000; n++)
        if (clipt_is_prime64(n) != brute_is_prime(n))
            fail_msg("is_prime(%llu)", (unsigned long long)n);
    /* strong pseudoprimes to small bases, and large primes */
    assert_false(clipt_is_prime64(3215031751u));
    assert_false(clipt_is_prime64(2152302898747u));
    assert_true(clipt_is_prime64(1099511627791u));      /* 2^40 + 15 */
    assert_true(clipt_is_prime64(18446744073709551557u)); /* 2^64 - 59 */
    for (uint64_t n = 1; n < 5000; n++)
        check_factors(n);
    check_factors(1099511627791u * 3);
    check_factors(4294967291u * (uint64_t)4294967279u); /* two 32-bit primes */
    check_factors((uint64_t)1 << 62);
    for (int i = 0; i < 2000; i++)
        check_factors(test_rand(&seed) >> (test_rand(&seed) % 40));
    for (int i = 0; i < 2000; i++) {
        const uint64_t m = 2 + test_rand(&seed) % ((uint64_t)1 << (1 + i % 62));
        const uint64_t x = test_rand(&seed) % m, y = test_rand(&seed) % m;
        __extension__ const unsigned __int128 p = (unsigned __int128)x * y;
        assert_true(clipt_mulmod(x, y, m) == (uint64_t)(p % m));
        const uint64_t inv = clipt_invmod(x, m);
        if (clipt_gcd64(x, m) == 1)
            assert_true(clipt_mulmod(x, inv, m) == 1 % m);
        else
            assert_true(inv == 0);
    }
}

/* ---- cycles against the walk ------------------------------------------------ */

static uint64_t dest(uint64_t p, uint64_t a, uint64_t b)
{
    return clipt_transpose_destination(p, a, b);
}

/* Lists the a x b transposition's cycles algebraically and checks them:
 * every moving position in exactly one listed cycle, lengths right,
 * classes consistent; then cuts them for a few segment lengths and checks
 * the segments against the cycles and against the walk's counts. */
static void check_shape(uint64_t a, uint64_t b)
{
    const uint64_t ab = a * b;
    clipt_cycle_list l;
    unsigned char *seen = calloc((size_t)ab + 1, 1);
    uint64_t covered = 0, moving = 0;
    assert_non_null(seen);
    if (clipt_cycle_list_find(a, b, SIZE_MAX, &l) != CLIPT_SUCCESS)
        fail_msg("%llu x %llu: no cycle list", (unsigned long long)a, (unsigned long long)b);
    for (uint64_t p = 0; p < ab; p++)
        moving += dest(p, a, b) != p;
    for (size_t i = 0; i < l.count; i++) {
        uint64_t p = l.leader[i], steps = 0;
        /* longest first, then by leader */
        if (p == 0 || p >= ab ||
            (i > 0 && (l.length[i] > l.length[i - 1] ||
                       (l.length[i] == l.length[i - 1] && p <= l.leader[i - 1]))))
            fail_msg("%llu x %llu: leader %zu is %llu", (unsigned long long)a,
                     (unsigned long long)b, i, (unsigned long long)p);
        do {
            if (seen[p])
                fail_msg("%llu x %llu: position %llu in two listed cycles",
                         (unsigned long long)a, (unsigned long long)b, (unsigned long long)p);
            seen[p] = 1;
            p = dest(p, a, b);
            steps++;
        } while (p != l.leader[i]);
        if (steps != l.length[i] || steps < 2)
            fail_msg("%llu x %llu: cycle of %llu has %llu positions, listed %llu",
                     (unsigned long long)a, (unsigned long long)b,
                     (unsigned long long)l.leader[i], (unsigned long long)steps,
                     (unsigned long long)l.length[i]);
        covered += steps;
    }
    if (covered != moving || l.cs.moved != moving)
        fail_msg("%llu x %llu: cycles cover %llu positions (classes say %llu), %llu move",
                 (unsigned long long)a, (unsigned long long)b, (unsigned long long)covered,
                 (unsigned long long)l.cs.moved, (unsigned long long)moving);
    /* every length on small shapes, two on large ones (the walks cost) */
    static const uint32_t lens[] = {3, 32, 1, 2, 16, 64};
    for (size_t k = 0; k < (ab <= 4096 ? COUNT(lens) : 2); k++) {
        clipt_segments s, w;
        uint64_t segments, saved;
        unsigned char *slot_used, *is_start;
        memset(seen, 0, (size_t)ab + 1);
        assert_int_equal(clipt_cycle_list_cut(&l, lens[k], SIZE_MAX, &s), CLIPT_SUCCESS);
        assert_int_equal(clipt_cycle_segments_walk(a, b, lens[k], SIZE_MAX, &w), CLIPT_SUCCESS);
        clipt_cycle_list_count(&l, lens[k], &segments, &saved);
        if (s.count != w.count || s.saved != w.saved || segments != s.count || saved != s.saved)
            fail_msg("%llu x %llu by %u: %zu segments (%zu saved), the walk %zu (%zu)",
                     (unsigned long long)a, (unsigned long long)b, lens[k], s.count, s.saved,
                     w.count, w.saved);
        slot_used = calloc(s.saved + 1, 1);
        is_start = calloc((size_t)ab + 1, 1);
        assert_non_null(slot_used);
        assert_non_null(is_start);
        for (size_t g = 0; g < s.count; g++)
            is_start[s.start[g]] = 1;
        for (size_t g = 0; g < s.count; g++) {
            const int whole = (s.length[g] & CLIPT_SEGMENT_WHOLE_CYCLE) != 0;
            const uint32_t len = s.length[g] & ~CLIPT_SEGMENT_WHOLE_CYCLE;
            uint64_t p = s.start[g];
            assert_true(len >= 1 && len <= lens[k]);
            if (!whole) {
                assert_true(s.slot[g] < s.saved);
                assert_false(slot_used[s.slot[g]]);
                slot_used[s.slot[g]] = 1;
            }
            for (uint32_t i = 0; i < len; i++, p = dest(p, a, b)) {
                if (seen[p])
                    fail_msg("%llu x %llu by %u: position %llu in two segments",
                             (unsigned long long)a, (unsigned long long)b, lens[k],
                             (unsigned long long)p);
                seen[p] = 1;
            }
            /* a whole cycle closes on itself; a cut one runs into the
             * start of its cycle's next segment */
            if (whole)
                assert_true(p == s.start[g]);
            else if (!is_start[p])
                fail_msg("%llu x %llu by %u: segment %zu runs into %llu, no segment start",
                         (unsigned long long)a, (unsigned long long)b, lens[k], g,
                         (unsigned long long)p);
        }
        for (uint64_t p = 0; p < ab; p++)
            if (seen[p] != (dest(p, a, b) != p))
                fail_msg("%llu x %llu by %u: position %llu %s", (unsigned long long)a,
                         (unsigned long long)b, lens[k], (unsigned long long)p,
                         seen[p] ? "is fixed but in a segment" : "moves but is in no segment");
        free(slot_used);
        free(is_start);
        clipt_segments_free(&s);
        clipt_segments_free(&w);
    }
    clipt_cycle_list_free(&l);
    free(seen);
}

static void test_all_small(void **state)
{
    (void)state;
    for (uint64_t a = 1; a <= 64; a++)
        for (uint64_t b = 1; b <= 64; b++)
            check_shape(a, b);
}

/* a x b with a*b - 1 = n for a chosen n: a is a divisor of n + 1. */
static void check_minus_one(uint64_t n, uint64_t *seed)
{
    const uint64_t ab = n + 1;
    uint64_t a = 1;
    for (int tries = 0; tries < 64; tries++) {
        const uint64_t d = 1 + test_rand(seed) % (ab < 4096 ? ab : 4096);
        if (ab % d == 0 && d > a)
            a = d;
    }
    check_shape(a, ab / a);
    check_shape(ab / a, a);
}

static void test_special(void **state)
{
    uint64_t seed = 7;
    (void)state;
    /* N with many divisors, powers of two, primes, 2^k * odd */
    static const uint64_t n[] = {720720, 1081080, 2162160, 65536, 1u << 20, 1u << 21,
                                 65521, 1048573, 999983, 3 << 16, 5 << 17, 45 << 14,
                                 1u << 22, 510510, 9699690};
    for (size_t i = 0; i < COUNT(n); i++)
        check_minus_one(n[i], &seed);
    static const uint64_t pairs[][2] = {{1, 100000}, {100000, 1}, {1000, 1000}, {1024, 1024},
                                        {2, 1 << 20}, {1 << 20, 2}, {3, 349525}, {4097, 255},
                                        {2711, 156}, {102, 2677}, {3672, 7}, {1, 1}, {2, 1}};
    for (size_t i = 0; i < COUNT(pairs); i++)
        check_shape(pairs[i][0], pairs[i][1]);
}

static void test_random(void **state)
{
    uint64_t seed = 2026;
    (void)state;
    for (int i = 0; i < 300; i++) {
        /* a*b log-uniform up to 2^19 */
        const uint64_t ab = (uint64_t)1 << test_rand_range(&seed, 6, 19);
        const uint64_t a = test_rand_range(&seed, 1, ab < 3000 ? ab : 3000);
        const uint64_t b = test_rand_range(&seed, 1, ab / a);
        check_shape(a, b);
    }
}

/* Beyond what a walk can check: the classes still add up (the fixed
 * positions in [1, N) are the multiples of N / gcd(a - 1, N)), each
 * leader's cycle closes after exactly its length, and segments of large N
 * (above 2^32: 128-bit products) step right. */
static void test_large(void **state)
{
    uint64_t seed = 99;
    (void)state;
    for (int i = 0; i < 60; i++) {
        const uint64_t a = test_rand_range(&seed, 2, 1u << 20);
        const uint64_t b = test_rand_range(&seed, 2, (i % 2 ? (uint64_t)1 << 40 : 1u << 28) / a);
        clipt_cycle_list l;
        const clipt_status st = clipt_cycle_list_find(a, b, 1u << 20, &l);
        if (st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS)
            continue; /* too many cycles to list: the classes were still checked below */
        assert_int_equal(st, CLIPT_SUCCESS);
        const uint64_t N = a * b - 1;
        assert_true(l.cs.moved == N - clipt_gcd64(a - 1, N));
        for (size_t k = 0; k < l.count && k < 200; k++) {
            const uint64_t x = l.leader[k], L = l.length[k];
            clipt_factors f;
            assert_true(clipt_mulmod(x, clipt_powmod(a, L, N), N) == x);
            clipt_factor64(L, &f);
            for (unsigned j = 0; j < f.count; j++)
                assert_true(clipt_mulmod(x, clipt_powmod(a, L / f.p[j], N), N) != x);
            /* the destination formula and the product agree */
            assert_true(dest(x, a, b) == clipt_mulmod(x, a, N));
        }
        clipt_cycle_list_free(&l);
    }
}

/* The caps: many short cycles refuse, so that the flag-based kernel moves
 * the stage (a square has (a*a - a) / 2 cycles of 2). */
static void test_caps(void **state)
{
    clipt_cycle_list l;
    clipt_segments s;
    (void)state;
    assert_int_equal(clipt_cycle_list_find(1000, 1000, CLIPT_MAX_CYCLES, &l),
                     CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    assert_int_equal(clipt_cycle_list_find(300, 300, CLIPT_MAX_CYCLES, &l), CLIPT_SUCCESS);
    assert_int_equal(l.count, (300 * 300 - 300) / 2);
    assert_int_equal(clipt_cycle_list_cut(&l, 16, l.count - 1, &s),
                     CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    assert_int_equal(clipt_cycle_list_cut(&l, 16, l.count, &s), CLIPT_SUCCESS);
    clipt_segments_free(&s);
    clipt_cycle_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modular),  cmocka_unit_test(test_all_small),
        cmocka_unit_test(test_special),  cmocka_unit_test(test_random),
        cmocka_unit_test(test_large),    cmocka_unit_test(test_caps),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
