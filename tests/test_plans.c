/* Automatic plans end to end: prime shapes, 300 random shapes (general,
 * skinny, prime), on PoCL's own local memory and on a GPU-like 48 KiB one
 * (which makes plans tile, pad and fall back as on a GPU); and the memory
 * cost of padding over the papers' random shapes (no device needed). */
#include "support.h"
#include "plan.h"
#include "timing.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* Runs the automatic plan of context `cx` on one shape; fails unless exact. */
static void run_auto(test_env *env, clipt_context cx, size_t rows, size_t cols,
                     size_t elem, size_t offset)
{
    static char describe[16384];
    test_env with = *env;
    size_t bad = 0;
    clipt_status s;
    with.ctx = cx;
    describe[0] = '\0';
    s = test_run_transpose(&with, rows, cols, elem, offset, NULL, &bad, describe,
                           sizeof describe);
    if (s != CLIPT_SUCCESS || bad != 0)
        fail_msg("%zu x %zu, %zu-byte elements at %zu: %s, %zu bytes wrong\n%s", rows,
                 cols, elem, offset, clipt_status_string(s), bad, describe);
}

static const size_t primes[][2] = {
    {97, 89}, {1009, 1013}, {4099, 17}, {17, 4099}, {2003, 3001}};

static void test_prime_shapes(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context gpu_like = test_context_limited(env, 48 * 1024);
    for (size_t i = 0; i < COUNT(primes); i++)
        for (size_t e = 0; e < COUNT(elem_sizes); e++) {
            /* the big prime shape with the small sizes only: time */
            if (primes[i][0] * primes[i][1] > 2000000 && elem_sizes[e] > 4)
                continue;
            run_auto(env, env->ctx, primes[i][0], primes[i][1], elem_sizes[e], 0);
            run_auto(env, gpu_like, primes[i][0], primes[i][1], elem_sizes[e],
                     elem_sizes[e] * 3);
        }
    clipt_context_release(gpu_like);
}

static int is_prime(size_t x)
{
    if (x < 2)
        return 0;
    for (size_t d = 2; d * d <= x; d++)
        if (x % d == 0)
            return 0;
    return 1;
}

static size_t random_prime(uint64_t *seed, size_t lo, size_t hi)
{
    size_t x = test_rand_range(seed, lo, hi);
    while (!is_prime(x))
        x = x + 1 > hi ? lo : x + 1;
    return x;
}

/* log-uniform in [lo, hi] */
static size_t random_long_side(uint64_t *seed, double lo, double hi)
{
    double u = (double)(test_rand(seed) >> 11) / 9007199254740992.0;
    return (size_t)(lo * __builtin_exp(u * __builtin_log(hi / lo)));
}

/* 300 shapes, fixed seed: 180 general up to 3000 x 3000, 60 skinny (one
 * side 2..32, the other up to 10^6, both orientations), 60 with prime
 * sides; every element size; alternately PoCL's and the GPU-like memory. */
static void test_random_auto(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context gpu_like = test_context_limited(env, 48 * 1024);
    uint64_t seed = 300;
    for (size_t i = 0; i < 300; i++) {
        size_t rows, cols, elem = elem_sizes[test_rand(&seed) % COUNT(elem_sizes)];
        if (i < 180) {
            rows = test_rand_range(&seed, 1, 3000);
            cols = test_rand_range(&seed, 1, 3000);
        } else if (i < 240) {
            size_t short_side = test_rand_range(&seed, 2, 32);
            size_t long_side = random_long_side(&seed, 1e3, 1e6);
            if (long_side > 200000 && elem > 4)
                elem = 4; /* keeps the CPU reference quick */
            rows = i % 2 ? short_side : long_side;
            cols = i % 2 ? long_side : short_side;
        } else {
            rows = random_prime(&seed, 2, 3000);
            cols = random_prime(&seed, 2, 3000);
        }
        run_auto(env, i % 2 ? gpu_like : env->ctx, rows, cols, elem, elem * (i % 3));
    }
    clipt_context_release(gpu_like);
}

/* Padding overhead over 1000 shapes with rows, cols uniform in
 * [1000, 20000], on a 48 KiB device with Algorithm 5's default Min = 24.
 * TPDS 2016 §7.2 reports max 0.43 % and median 0.01 % for fp32 (max 0.47 %,
 * median 0.03 % for fp64); clipt must be no worse.  The paper gives the
 * median to two decimals, so "no worse" is < 0.015 % for fp32. */
static void check_overhead(size_t elem, unsigned align_bytes, double max_limit,
                           double median_limit)
{
    clipt_device_profile profile;
    clipt_plan_options o;
    double overhead[1000];
    uint64_t seed = 2016;
    memset(&profile, 0, sizeof profile);
    profile.local_mem_bytes = 48 * 1024;
    profile.max_wg_size = 1024;
    profile.compute_units = 132;
    profile.type = CL_DEVICE_TYPE_GPU;
    profile.simd_width = 32;
    clipt_tuning_select(&profile);
    profile.tuning.min_super = 24;
    profile.tuning.align_bytes = align_bytes;
    clipt_plan_options_init(&o);
    for (size_t i = 0; i < COUNT(overhead); i++) {
        size_t rows = test_rand_range(&seed, 1000, 20000);
        size_t cols = test_rand_range(&seed, 1000, 20000);
        clipt_plan_choice ch;
        assert_status(clipt_plan_choose(&profile, rows, cols, elem, &o, &profile.tuning, &ch),
                      CLIPT_SUCCESS);
        assert_true(ch.prows % ch.m == 0 && ch.pcols % ch.n == 0);
        overhead[i] = 100.0 * ((double)ch.prows * (double)ch.pcols - (double)rows * (double)cols) /
                      ((double)rows * (double)cols);
    }
    {
        double median = util_median(overhead, COUNT(overhead)); /* sorts overhead */
        double max = overhead[COUNT(overhead) - 1];
        print_message("padding overhead, %zu-byte elements, %u-byte aligned factors, 1000 "
                      "shapes in [1000, 20000]^2, 48 KiB: max %.3f %%, median %.4f %% "
                      "(limit: max %.2f %%)\n",
                      elem, align_bytes, max, median, max_limit);
        assert_true(max <= max_limit);
        assert_true(median < median_limit);
    }
}

static void test_padding_overhead(void **state)
{
    (void)state;
    /* Algorithm 5 as in the paper: no alignment preference */
    check_overhead(4, 1, 0.43, 0.015);
    check_overhead(8, 1, 0.47, 0.035);
    /* the GPU default: padding that is needed anyway pads to 32-byte
     * multiples, which costs a little more room (bounds measured, not from
     * the paper) */
    check_overhead(4, 32, 1.5, 0.1);
    check_overhead(8, 32, 1.5, 0.1);
}

int main(void)
{
    const struct CMUnitTest device_tests[] = {
        cmocka_unit_test(test_prime_shapes),
        cmocka_unit_test(test_random_auto),
    };
    const struct CMUnitTest host_tests[] = {
        cmocka_unit_test(test_padding_overhead),
    };
    int failed = cmocka_run_group_tests(host_tests, NULL, NULL);
    if (getenv("CLIPT_TEST_HOST_ONLY"))
        return failed;
    return failed | cmocka_run_group_tests(device_tests, test_group_open, test_group_close);
}
