/* The helpers of util/ that the tool, the tests and tuning/ share, on the
 * host: splitmix64 against its published sequence, divisors against brute
 * force, medians and percentiles, the reference transpose and the
 * comparisons (with errors planted), the sequence names, permutations as
 * text and the random tensor set. */
#include "support.h"
#include "divisors.h"
#include "plan_text.h"
#include "tensor_set.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The first outputs for seed 1234567, as the generator's reference
 * implementation (Steele, Lea and Flood; Vigna's C version) gives them. */
static void test_splitmix64_sequence(void **state)
{
    static const uint64_t want[] = {6457827717110365317ull, 3203168211198807973ull,
                                    9817491932198370423ull, 4593380528125082431ull,
                                    16408922859458223821ull};
    uint64_t s = 1234567;
    (void)state;
    for (size_t i = 0; i < COUNT(want); i++)
        assert_true(util_splitmix64(&s) == want[i]);
}

static void test_rand_range_bounds(void **state)
{
    uint64_t s = 7;
    size_t seen_lo = 0, seen_hi = 0;
    (void)state;
    for (int i = 0; i < 10000; i++) {
        const size_t v = util_rand_range(&s, 10, 17);
        assert_true(v >= 10 && v <= 17);
        seen_lo += v == 10;
        seen_hi += v == 17;
    }
    assert_true(seen_lo > 0 && seen_hi > 0);
    assert_int_equal(util_rand_range(&s, 5, 5), 5);
}

static void check_divisors_of(size_t x)
{
    size_t want[2048], got[2048], n = 0;
    for (size_t d = 1; d <= x && n < COUNT(want); d++)
        if (x % d == 0)
            want[n++] = d;
    if (util_divisors(x, NULL, 0) != n)
        fail_msg("%zu: util_divisors counts %zu divisors, there are %zu", x,
                 util_divisors(x, NULL, 0), n);
    assert_int_equal(util_divisors(x, got, COUNT(got)), n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%zu: divisor %zu is %zu, expected %zu", x, i, got[i], want[i]);
}

/* Every x up to 3000, squares and primes among them; a short array gets
 * the smallest divisors only. */
static void test_divisors(void **state)
{
    size_t part[10];
    (void)state;
    for (size_t x = 1; x <= 3000; x++)
        check_divisors_of(x);
    check_divisors_of(720720);
    assert_int_equal(util_divisors(720720, part, COUNT(part)), 240);
    for (size_t i = 0; i < COUNT(part); i++) /* 720720 = lcm(1, ..., 16) */
        assert_int_equal(part[i], i + 1);
}

static void test_median_percentile(void **state)
{
    double odd[] = {5, 1, 4, 2, 3}, even[] = {8, 2, 6, 4}, one[] = {3};
    double p[] = {10, 0, 40, 30, 20};
    (void)state;
    assert_true(util_median(odd, COUNT(odd)) == 3);
    assert_true(util_median(even, COUNT(even)) == 5);
    assert_true(util_median(one, 1) == 3);
    assert_true(util_percentile(p, COUNT(p), 0) == 0);
    assert_true(util_percentile(p, COUNT(p), 1) == 40);
    assert_true(util_percentile(p, COUNT(p), 0.5) == 20);
    assert_true(util_percentile(p, COUNT(p), 0.1) == 4); /* between 0 and 10 */
    assert_true(util_percentile(p, COUNT(p), 0.9) == 36);
}

/* hostmat_transpose against the element-by-element definition; the plain
 * and the threaded comparison find planted errors, the first of them. */
static void test_transpose_and_compare(void **state)
{
    static const size_t shapes[][2] = {{1, 1}, {1, 77}, {77, 1}, {63, 65}, {130, 200}};
    static const size_t elems[] = {1, 2, 4, 8, 16};
    (void)state;
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t e = 0; e < COUNT(elems); e++) {
            const size_t rows = shapes[i][0], cols = shapes[i][1], elem = elems[e];
            const size_t count = rows * cols, bytes = count * elem;
            unsigned char *in = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
            size_t first = 0;
            assert_true(in && out && want);
            hostmat_fill(in, count, elem);
            for (size_t r = 0; r < rows; r++)
                for (size_t c = 0; c < cols; c++)
                    memcpy(want + (c * rows + r) * elem, in + (r * cols + c) * elem, elem);
            hostmat_transpose(in, out, rows, cols, elem);
            assert_memory_equal(out, want, bytes);
            assert_int_equal(hostmat_compare(out, want, count, elem, NULL), 0);
            assert_int_equal(
                hostmat_compare_transposed(out, in, rows, cols, elem, 4, NULL), 0);
            /* two wrong elements: the last and, where there is one, the middle */
            out[bytes - 1] ^= 1;
            out[(count / 2) * elem] ^= 0x80;
            assert_int_equal(hostmat_compare(out, want, count, elem, &first),
                             count > 1 ? 2 : 1);
            assert_int_equal(first, count / 2);
            first = 0;
            assert_int_equal(hostmat_compare_transposed(out, in, rows, cols, elem, 3, &first),
                             count > 1 ? 2 : 1);
            assert_int_equal(first, count / 2);
            free(in);
            free(out);
            free(want);
        }
}

/* Every element of the pattern differs from every other (elem >= 4). */
static void test_fill_distinct(void **state)
{
    enum { N = 4096 };
    unsigned char *a = malloc((size_t)N * 16), *b = malloc((size_t)N * 16);
    (void)state;
    assert_true(a && b);
    hostmat_fill(a, N, 4);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < i; j++)
            assert_true(memcmp(a + i * 4, a + j * 4, 4) != 0);
    /* a range is the same pattern, from its first element on */
    hostmat_fill(a, N, 16);
    hostmat_fill_range(b, 1000, N - 1000, 16);
    assert_memory_equal(a + 1000 * 16, b, (size_t)(N - 1000) * 16);
    free(a);
    free(b);
}

static void test_sequence_names(void **state)
{
    static const clipt_sequence seqs[] = {
        CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2, CLIPT_SEQUENCE_3_1,
        CLIPT_SEQUENCE_3_2, CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};
    clipt_sequence s = CLIPT_SEQUENCE_3_1;
    (void)state;
    for (size_t i = 0; i < COUNT(seqs); i++) {
        clipt_sequence back = CLIPT_SEQUENCE_AUTO;
        assert_true(plan_text_parse_sequence(plan_text_sequence(seqs[i]), &back));
        assert_int_equal(back, seqs[i]);
    }
    assert_string_equal(plan_text_sequence(CLIPT_SEQUENCE_4_2), "4.2");
    assert_string_equal(plan_text_sequence(CLIPT_SEQUENCE_AUTO), "?");
    assert_true(plan_text_parse_sequence("auto", &s) && s == CLIPT_SEQUENCE_AUTO);
    s = CLIPT_SEQUENCE_3_1;
    assert_false(plan_text_parse_sequence("5.5", &s));
    assert_false(plan_text_parse_sequence("?", &s));
    assert_int_equal(s, CLIPT_SEQUENCE_3_1);
}

/* hostmat_compare_permuted against hostmat_permute: every permutation of
 * small 3-D and 4-D arrays (dimensions of 1 and primes among them), every
 * element size, 1 and 5 threads; then errors planted. */
static void check_permuted(unsigned ndim, const size_t *dims, const unsigned *perm,
                           size_t elem)
{
    size_t count = 1, first = 0;
    for (unsigned i = 0; i < ndim; i++)
        count *= dims[i];
    unsigned char *in = malloc(count * elem), *out = malloc(count * elem);
    assert_true(in && out);
    hostmat_fill(in, count, elem);
    hostmat_permute(in, out, ndim, dims, perm, elem);
    /* hostmat_permute against the definition: output element k has the
     * coordinates c[t] (last axis fastest) and comes from the input's
     * element with coordinate c[t] on axis perm[t] */
    for (size_t k = 0; k < count; k++) {
        size_t c[4], rest = k, src = 0;
        for (unsigned t = ndim; t-- > 0;) {
            c[t] = rest % dims[perm[t]];
            rest /= dims[perm[t]];
        }
        for (unsigned a = 0; a < ndim; a++) {
            unsigned t = 0;
            while (perm[t] != a)
                t++;
            src = src * dims[a] + c[t];
        }
        assert_memory_equal(out + k * elem, in + src * elem, elem);
    }
    assert_int_equal(hostmat_compare_permuted(out, in, ndim, dims, perm, elem, 1, NULL), 0);
    assert_int_equal(hostmat_compare_permuted(out, in, ndim, dims, perm, elem, 5, NULL), 0);
    out[(count - 1) * elem] ^= 0x40;
    out[(count / 3) * elem + elem - 1] ^= 1;
    assert_int_equal(hostmat_compare_permuted(out, in, ndim, dims, perm, elem, 5, &first),
                     count > 1 && count / 3 != count - 1 ? 2 : 1);
    assert_int_equal(first, count / 3);
    free(in);
    free(out);
}

static int next_permutation(unsigned *p, unsigned n)
{
    unsigned i = n - 1, j = n - 1;
    while (i > 0 && p[i - 1] >= p[i])
        i--;
    if (i == 0)
        return 0;
    while (p[j] <= p[i - 1])
        j--;
    unsigned t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
    for (unsigned a = i, b = n - 1; a < b; a++, b--) {
        t = p[a];
        p[a] = p[b];
        p[b] = t;
    }
    return 1;
}

static void test_compare_permuted(void **state)
{
    static const size_t shapes[][4] = {{5, 7, 3, 0}, {1, 13, 4, 0}, {3, 1, 5, 7}, {2, 9, 11, 6}};
    static const size_t elems[] = {1, 2, 4, 8, 16};
    (void)state;
    for (size_t s = 0; s < COUNT(shapes); s++) {
        const unsigned ndim = shapes[s][3] ? 4 : 3;
        for (size_t e = 0; e < COUNT(elems); e++) {
            unsigned perm[4] = {0, 1, 2, 3};
            do
                check_permuted(ndim, shapes[s], perm, elems[e]);
            while (next_permutation(perm, ndim));
        }
    }
    /* the 2-D case is the transpose */
    {
        const size_t dims[2] = {37, 300};
        const unsigned perm[2] = {1, 0};
        unsigned char *in = malloc(37 * 300 * 4), *out = malloc(37 * 300 * 4);
        assert_true(in && out);
        hostmat_fill(in, 37 * 300, 4);
        hostmat_transpose(in, out, 37, 300, 4);
        assert_int_equal(hostmat_compare_permuted(out, in, 2, dims, perm, 4, 3, NULL), 0);
        free(in);
        free(out);
    }
}

static void test_permutation_text(void **state)
{
    plan_text_permutation p, back;
    char text[128];
    memset(&p, 0, sizeof p);
    memset(&back, 0, sizeof back);
    (void)state;
    assert_true(plan_text_parse_permutation("64x256x56x56:0,2,3,1", &p));
    plan_text_format_permutation(&p, text, sizeof text);
    assert_string_equal(text, "64x256x56x56:0,2,3,1");
    assert_true(plan_text_parse_permutation(text, &back));
    assert_memory_equal(&back, &p, sizeof p);
    /* cut to fit, still terminated */
    plan_text_format_permutation(&p, text, 8);
    assert_string_equal(text, "64x256x");
}

/* The tensor set: the same cases for the same seed (a prefix for a
 * smaller count), ranks 3 to 6, no identity, sizes in range, a CNN layout
 * change every tenth case. */
static void check_tensor_set(uint64_t seed, size_t elem, size_t max_bytes)
{
    enum { N = 200 };
    plan_text_permutation *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b);
    double lo, hi;
    size_t in_range = 0;
    assert_true(a && b);
    tensor_set_make(seed, N, elem, max_bytes, a);
    tensor_set_make(seed, N / 2, elem, max_bytes, b);
    assert_memory_equal(a, b, N / 2 * sizeof *a);
    tensor_set_range(max_bytes, &lo, &hi);
    for (size_t k = 0; k < N; k++) {
        double bytes = (double)elem;
        int identity = 1;
        unsigned seen = 0;
        for (unsigned i = 0; i < a[k].ndim; i++) {
            bytes *= (double)a[k].dims[i];
            identity &= a[k].perm[i] == i;
            seen |= 1u << a[k].perm[i];
            assert_true(a[k].dims[i] >= 1);
        }
        assert_int_equal(seen, (1u << a[k].ndim) - 1);
        assert_false(identity);
        assert_true(bytes <= hi);
        in_range += bytes >= lo;
        if (k % 10 == 0) {
            static const unsigned nhwc[] = {0, 2, 3, 1}, nchw[] = {0, 3, 1, 2};
            assert_int_equal(a[k].ndim, 4);
            assert_memory_equal(a[k].perm, (k / 10) % 2 ? nchw : nhwc, sizeof nhwc);
        } else {
            assert_true(a[k].ndim >= 3 && a[k].ndim <= 6);
        }
    }
    /* a CNN case of one image may stay below lo; nothing else may */
    assert_true(in_range >= N - N / 10);
    tensor_set_make(seed + 1, N / 2, elem, max_bytes, b);
    assert_true(memcmp(a, b, N / 2 * sizeof *a) != 0);
    free(a);
    free(b);
}

static void test_tensor_set(void **state)
{
    double lo, hi;
    (void)state;
    check_tensor_set(1, 4, 0);
    check_tensor_set(15, 8, 0);
    check_tensor_set(7, 4, 200000);
    check_tensor_set(3, 2, 20000);
    tensor_set_range(0, &lo, &hi);
    assert_true(lo == 1e7 && hi == 1e9);
    tensor_set_range(200000, &lo, &hi);
    assert_true(lo == 2000 && hi == 200000);
    tensor_set_range(5000000000u, &lo, &hi);
    assert_true(lo == 1e7 && hi == 1e9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_sequence),
        cmocka_unit_test(test_rand_range_bounds),
        cmocka_unit_test(test_divisors),
        cmocka_unit_test(test_median_percentile),
        cmocka_unit_test(test_transpose_and_compare),
        cmocka_unit_test(test_fill_distinct),
        cmocka_unit_test(test_sequence_names),
        cmocka_unit_test(test_compare_permuted),
        cmocka_unit_test(test_permutation_text),
        cmocka_unit_test(test_tensor_set),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
