/* Number theory (src/factor.h) and the tile rules (src/choice.h), against
 * brute force. */
#include "support.h"
#include "choice.h"
#include "factor.h"

#include <stdlib.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- references ---------------------------------------------------------- */

static size_t brute_divisors(size_t x, size_t *out)
{
    size_t k = 0;
    for (size_t d = 1; d <= x; d++)
        if (x % d == 0)
            out[k++] = d;
    return k;
}

/* Smallest divisor of x in [lo, hi], 0 if none. */
static size_t brute_smallest_in(size_t x, size_t lo, size_t hi)
{
    for (size_t d = lo; d <= hi && d <= x; d++)
        if (d > 0 && x % d == 0)
            return d;
    return 0;
}

static size_t brute_largest_upto(size_t x, size_t limit)
{
    size_t best = 1;
    for (size_t d = 1; d <= x && d <= limit; d++)
        if (x % d == 0)
            best = d;
    return best;
}

/* ---- clipt_divisors ------------------------------------------------------- */

static void check_divisors_of(size_t x)
{
    size_t *want = malloc((x + 1) * sizeof *want);
    size_t n = brute_divisors(x, want);
    size_t count = clipt_divisors(x, NULL, 0);
    size_t *got = malloc((count + 1) * sizeof *got);
    assert_non_null(got);
    if (count != n)
        fail_msg("clipt_divisors(%zu) counts %zu divisors, there are %zu", x, count, n);
    got[count] = 12345;
    assert_int_equal(clipt_divisors(x, got, count), n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("divisor %zu of %zu: got %zu, expected %zu", i, x, got[i], want[i]);
    assert_int_equal(got[count], 12345); /* nothing written past cap */
    free(got);
    free(want);
}

static void test_divisors_known(void **state)
{
    static const struct { size_t x, count; } known[] = {
        {1, 1}, {2, 2}, {3, 2}, {97, 2}, {4099, 2}, {65521, 2}, {4, 3},
        {9, 3}, {36, 9}, {49, 3}, {1024, 11}, {4096, 13}, {720720, 240},
        {1000000, 49}};
    (void)state;
    for (size_t i = 0; i < COUNT(known); i++) {
        if (clipt_divisors(known[i].x, NULL, 0) != known[i].count)
            fail_msg("%zu has %zu divisors", known[i].x, known[i].count);
        check_divisors_of(known[i].x);
    }
}

static void test_divisors_sweep(void **state)
{
    (void)state;
    for (size_t x = 1; x <= 3000; x++)
        check_divisors_of(x);
}

/* A short output array receives the first (smallest) divisors only. */
static void test_divisors_capped(void **state)
{
    size_t all[240], part[241];
    (void)state;
    assert_int_equal(clipt_divisors(720720, all, 240), 240);
    for (size_t cap = 0; cap < 240; cap += 17) {
        part[cap] = 777;
        assert_int_equal(clipt_divisors(720720, part, cap), 240);
        for (size_t i = 0; i < cap; i++)
            assert_int_equal(part[i], all[i]);
        assert_int_equal(part[cap], 777);
    }
}

/* ---- clipt_isqrt ----------------------------------------------------------- */

static void check_isqrt(size_t x)
{
    size_t r = clipt_isqrt(x);
    /* r*r <= x < (r+1)^2, written without overflow */
    if ((r > 0 && r > x / r) || (r + 1) <= x / (r + 1))
        fail_msg("clipt_isqrt(%zu) = %zu", x, r);
}

static void test_isqrt(void **state)
{
    static const struct { size_t x, r; } known[] = {
        {0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 2}, {8, 2}, {9, 3}, {15, 3},
        {16, 4}, {17, 4}, {99, 9}, {100, 10}, {4294967295u, 65535}};
    uint64_t seed = 7;
    (void)state;
    for (size_t i = 0; i < COUNT(known); i++)
        assert_int_equal(clipt_isqrt(known[i].x), known[i].r);
    for (size_t x = 0; x < 200000; x++)
        check_isqrt(x);
    check_isqrt(SIZE_MAX);
    check_isqrt(SIZE_MAX - 1);
    for (int i = 0; i < 10000; i++) {
        /* around large squares, where a float sqrt rounds wrongly */
        size_t k = (size_t)(test_rand(&seed) % ((size_t)1 << (sizeof(size_t) * 4)));
        check_isqrt(k * k);
        check_isqrt(k * k - (k > 0));
        check_isqrt(k * k + 1);
    }
#if SIZE_MAX > 0xffffffffu
    assert_int_equal(clipt_isqrt(SIZE_MAX), 0xffffffffu);
    assert_int_equal(clipt_isqrt((size_t)0xfffffffe00000001u), 0xffffffffu);
    assert_int_equal(clipt_isqrt((size_t)0xfffffffe00000000u), 0xfffffffeu);
    assert_int_equal(clipt_isqrt((size_t)1 << 62), (size_t)1 << 31);
#endif
}

/* ---- divisors in a range, gcd ---------------------------------------------- */

/* The smallest (largest) divisor of x in [lo, hi] that is a multiple of
 * step, 0 if none, by trying them all. */
static size_t brute_in(size_t x, size_t lo, size_t hi, size_t step, int largest)
{
    size_t found = 0;
    for (size_t d = 1; d <= x && d <= hi; d++)
        if (d >= lo && x % d == 0 && d % step == 0) {
            found = d;
            if (!largest)
                break;
        }
    return found;
}

static void test_divisors_in_range(void **state)
{
    static const size_t steps[] = {1, 2, 3, 8};
    (void)state;
    for (size_t x = 1; x <= 400; x++)
        for (size_t lo = 0; lo <= 30; lo += 3)
            for (size_t hi = lo; hi <= lo + 450; hi += 37)
                for (size_t k = 0; k < COUNT(steps); k++) {
                    const size_t small = clipt_smallest_divisor_in(x, lo, hi, steps[k]);
                    const size_t large = clipt_largest_divisor_in(x, lo, hi, steps[k]);
                    if (small != brute_in(x, lo, hi, steps[k], 0) ||
                        large != brute_in(x, lo, hi, steps[k], 1))
                        fail_msg("divisors of %zu in [%zu, %zu], multiples of %zu: "
                                 "smallest %zu, largest %zu; want %zu, %zu",
                                 x, lo, hi, steps[k], small, large,
                                 brute_in(x, lo, hi, steps[k], 0),
                                 brute_in(x, lo, hi, steps[k], 1));
                }
}

static void test_gcd(void **state)
{
    (void)state;
    for (size_t a = 0; a <= 200; a++)
        for (size_t b = 0; b <= 200; b++) {
            size_t want = 0;
            for (size_t d = 1; d <= (a > b ? a : b); d++)
                if (a % d == 0 && b % d == 0)
                    want = d;
            if (clipt_gcd(a, b) != want)
                fail_msg("gcd(%zu, %zu) = %zu, want %zu", a, b, clipt_gcd(a, b), want);
        }
}

/* ---- Algorithm 5 ------------------------------------------------------------ */

static const struct { size_t min, max; } ranges[] = {
    {24, 64}, {24, 90}, {24, 723}, {4, 8}, {2, 2}, {1, 5}, {30, 31}};

/* Without padding: dims below min or inside [min, max] stay whole (the
 * whole dimension is one tile); larger ones take the smallest divisor in
 * [min, max], else the largest divisor <= max. */
static void check_alg5_plain(size_t dim, size_t min, size_t max)
{
    clipt_tile_choice c = clipt_tile_alg5(dim, min, max, 0);
    size_t want = dim <= max ? dim : brute_smallest_in(dim, min, max);
    if (!want)
        want = brute_largest_upto(dim, max);
    if (c.dim != dim || c.factor != want)
        fail_msg("alg5(%zu, %zu, %zu, no pad) = {%zu, %zu}, expected {%zu, %zu}",
                 dim, min, max, c.dim, c.factor, dim, want);
}

/* With padding: the smallest dim' >= dim that has a divisor in [min, max],
 * and that divisor; dim' - dim < min. */
static void check_alg5_padded(size_t dim, size_t min, size_t max)
{
    clipt_tile_choice c = clipt_tile_alg5(dim, min, max, 1);
    if (dim <= max) {
        if (c.dim != dim || c.factor != dim)
            fail_msg("alg5(%zu, %zu, %zu, pad) = {%zu, %zu}: a dimension <= max "
                     "stays whole", dim, min, max, c.dim, c.factor);
        return;
    }
    if (c.factor < min || c.factor > max || c.dim % c.factor != 0 ||
        c.dim < dim || c.dim - dim >= min)
        fail_msg("alg5(%zu, %zu, %zu, pad) = {%zu, %zu}", dim, min, max, c.dim,
                 c.factor);
    for (size_t d = dim; d < c.dim; d++)
        if (brute_smallest_in(d, min, max))
            fail_msg("alg5(%zu, %zu, %zu, pad) pads to %zu, but %zu needs less",
                     dim, min, max, c.dim, d);
    assert_int_equal(c.factor, brute_smallest_in(c.dim, min, max));
}

static void test_alg5(void **state)
{
    (void)state;
    for (size_t r = 0; r < COUNT(ranges); r++)
        for (size_t dim = 1; dim <= 3000; dim++) {
            check_alg5_plain(dim, ranges[r].min, ranges[r].max);
            check_alg5_padded(dim, ranges[r].min, ranges[r].max);
        }
}

/* Cases worked out by hand. */
static void test_alg5_examples(void **state)
{
    static const struct { size_t dim, min, max; int pad; size_t pdim, factor; } ex[] = {
        {7200, 24, 723, 0, 7200, 24}, {1800, 24, 723, 0, 1800, 24},
        {999, 24, 723, 0, 999, 27},   {4099, 24, 723, 0, 4099, 1},
        {4099, 24, 723, 1, 4100, 25}, {17, 24, 723, 1, 17, 17},
        {4096, 24, 64, 0, 4096, 32},  {4097, 24, 64, 1, 4100, 25},
        {9973, 24, 90, 0, 9973, 1},   {9973, 24, 90, 1, 9975, 25}};
    (void)state;
    for (size_t i = 0; i < COUNT(ex); i++) {
        clipt_tile_choice c = clipt_tile_alg5(ex[i].dim, ex[i].min, ex[i].max, ex[i].pad);
        if (c.dim != ex[i].pdim || c.factor != ex[i].factor)
            fail_msg("alg5(%zu, %zu, %zu, %d) = {%zu, %zu}, expected {%zu, %zu}",
                     ex[i].dim, ex[i].min, ex[i].max, ex[i].pad, c.dim, c.factor,
                     ex[i].pdim, ex[i].factor);
    }
}

/* ---- Algorithm 1 ------------------------------------------------------------ */

/* Aligned Algorithm 5: a multiple of step when one divides dim; else the
 * plain unpadded choice when there is one; else the nearest padded
 * dimension with an aligned factor.  Checked against brute force. */
static void test_alg5_aligned(void **state)
{
    static const struct {
        size_t dim, factor, padded;
    } examples[] = {
        {3000, 40, 3000},   /* 32 does not divide 3000, 40 does      */
        {3737, 37, 3737},   /* 37 x 101: no multiple of 8, no padding */
        {9973, 0, 0},       /* prime: padded, checked below           */
        {64, 64, 64},       /* within [min, max]: one whole tile      */
    };
    (void)state;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        clipt_tile_choice c = clipt_tile_alg5_aligned(examples[i].dim, 32, 376, 1, 8);
        if (examples[i].factor) {
            assert_int_equal(c.factor, examples[i].factor);
            assert_int_equal(c.dim, examples[i].padded);
        }
        assert_int_equal(c.dim % c.factor, 0);
    }
    for (size_t dim = 1000; dim < 3000; dim++) {
        clipt_tile_choice c = clipt_tile_alg5_aligned(dim, 32, 376, 1, 8);
        size_t aligned = 0, any = 0;
        for (size_t f = 32; f <= 376; f++)
            if (dim % f == 0) {
                if (!any)
                    any = f;
                if (!aligned && f % 8 == 0)
                    aligned = f;
            }
        if (aligned || any) {
            assert_int_equal(c.dim, dim);
            assert_int_equal(c.factor, aligned ? aligned : any);
        } else {
            /* the smallest larger dimension with an aligned factor, if it
             * pads by at most 2 %; else Algorithm 5's padding */
            size_t d = dim + 1, found = 0;
            for (; d <= dim + dim / 50 && !found; d++)
                for (size_t f = 32; f <= 376 && !found; f += 8)
                    found = d % f == 0 ? f : 0;
            if (found) {
                assert_int_equal(c.dim, d - 1);
                assert_int_equal(c.factor, found);
            } else {
                const clipt_tile_choice plain = clipt_tile_alg5(dim, 32, 376, 1);
                assert_int_equal(c.dim, plain.dim);
                assert_int_equal(c.factor, plain.factor);
            }
            assert_true(c.dim > dim && c.dim % c.factor == 0);
            assert_true(c.factor >= 32 && c.factor <= 376);
        }
    }
    /* step 1 is Algorithm 5 itself */
    for (size_t dim = 1000; dim < 1200; dim++) {
        clipt_tile_choice a = clipt_tile_alg5_aligned(dim, 32, 109, 1, 1);
        clipt_tile_choice b = clipt_tile_alg5(dim, 32, 109, 1);
        assert_int_equal(a.dim, b.dim);
        assert_int_equal(a.factor, b.factor);
    }
}

static void test_alg1(void **state)
{
    static const size_t limits[] = {1, 10, 72, 1000};
    (void)state;
    for (size_t l = 0; l < COUNT(limits); l++)
        for (size_t dim = 1; dim <= 3000; dim++)
            if (clipt_tile_alg1(dim, limits[l]) != brute_largest_upto(dim, limits[l]))
                fail_msg("alg1(%zu, %zu) = %zu, expected %zu", dim, limits[l],
                         clipt_tile_alg1(dim, limits[l]),
                         brute_largest_upto(dim, limits[l]));
    assert_int_equal(clipt_tile_alg1(7200, 72), 72);
    assert_int_equal(clipt_tile_alg1(4099, 72), 1);
    assert_int_equal(clipt_tile_alg1(50, 72), 50);
}

/* ---- Algorithm 2 ------------------------------------------------------------ */

/* Divisors of x strictly inside (min, max); when there are none, the
 * Algorithm 5 fallback alone. */
static size_t alg2_candidates(size_t x, size_t min, size_t max, size_t lm,
                              size_t *out)
{
    size_t *all = malloc((x + 1) * sizeof *all);
    size_t n, k = 0;
    assert_non_null(all);
    n = brute_divisors(x, all);
    for (size_t i = 0; i < n; i++)
        if (all[i] > min && all[i] < max)
            out[k++] = all[i];
    free(all);
    if (k == 0)
        out[k++] = clipt_tile_alg5(x, min, clipt_isqrt(lm), 0).factor;
    return k;
}

static size_t lm_use(size_t m, size_t n, size_t lm)
{
    return m * n > lm ? 0 : lm / (m * n) * m * n;
}

static int contains(const size_t *list, size_t n, size_t x)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == x)
            return 1;
    return 0;
}

static void check_alg2(size_t M, size_t N, size_t min, size_t lm)
{
    const size_t max = clipt_isqrt(lm) + 1;
    size_t *cm = malloc((M + 1) * sizeof *cm), *cn = malloc((N + 1) * sizeof *cn);
    size_t km, kn, best = 0, m = 0, n = 0;
    assert_true(cm && cn);
    km = alg2_candidates(M, min, max, lm, cm);
    kn = alg2_candidates(N, min, max, lm, cn);
    for (size_t i = 0; i < km; i++)
        for (size_t j = 0; j < kn; j++)
            if (lm_use(cm[i], cn[j], lm) > best)
                best = lm_use(cm[i], cn[j], lm);
    clipt_tile_alg2(M, N, min, max, lm, &m, &n);
    if (best == 0) { /* nothing fits: both sides fall back */
        assert_int_equal(m, clipt_tile_alg5(M, min, clipt_isqrt(lm), 0).factor);
        assert_int_equal(n, clipt_tile_alg5(N, min, clipt_isqrt(lm), 0).factor);
    } else if (!contains(cm, km, m) || !contains(cn, kn, n) ||
               lm_use(m, n, lm) != best) {
        fail_msg("alg2(%zu, %zu, min %zu, lm %zu) = (%zu, %zu) using %zu words, "
                 "best is %zu", M, N, min, lm, m, n, lm_use(m, n, lm), best);
    }
    free(cm);
    free(cn);
}

static void test_alg2(void **state)
{
    static const size_t pairs[][2] = {
        {1800, 7200}, {7200, 1800}, {1000, 999}, {4099, 4096}, {4099, 4099},
        {97, 89}, {256, 4096}, {360, 840}, {720720, 48}, {64, 64}, {30, 30}};
    static const size_t lms[] = {524032, 12032, 1000};
    uint64_t seed = 11;
    (void)state;
    for (size_t l = 0; l < COUNT(lms); l++) {
        for (size_t p = 0; p < COUNT(pairs); p++)
            check_alg2(pairs[p][0], pairs[p][1], 24, lms[l]);
        for (int i = 0; i < 40; i++)
            check_alg2(test_rand_range(&seed, 1, 20000),
                       test_rand_range(&seed, 1, 20000), 24, lms[l]);
    }
}

/* A hand-worked case: 1800 x 7200 with 12032 words: the pair with the best
 * use among divisors in (24, 110) is 40 x 100 (3 tiles, 12000 words). */
static void test_alg2_example(void **state)
{
    size_t m = 0, n = 0;
    (void)state;
    clipt_tile_alg2(1800, 7200, 24, 110, 12032, &m, &n);
    assert_int_equal(lm_use(m, n, 12032), 12000);
    /* a prime side has no eligible divisor and falls back to Algorithm 5 */
    clipt_tile_alg2(4099, 7200, 24, 110, 12032, &m, &n);
    assert_int_equal(m, 1);
    assert_true(n > 24 && n < 110 && 7200 % n == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divisors_known),
        cmocka_unit_test(test_divisors_sweep),
        cmocka_unit_test(test_divisors_capped),
        cmocka_unit_test(test_isqrt),
        cmocka_unit_test(test_divisors_in_range),
        cmocka_unit_test(test_gcd),
        cmocka_unit_test(test_alg5),
        cmocka_unit_test(test_alg5_examples),
        cmocka_unit_test(test_alg5_aligned),
        cmocka_unit_test(test_alg1),
        cmocka_unit_test(test_alg2),
        cmocka_unit_test(test_alg2_example),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
