/* The automatic plan's C2R and R2C (src/choice.c, tuning
 * c2r_column_bytes): on the H100's profile a single matrix with coprime
 * sides whose columns are at most 12288 bytes (and whose rows stay on
 * chip) gets C2R, else one whose rows are (and whose columns stay on
 * chip) gets R2C, bit-exact for every element size and every padding
 * policy, with no padding; longer columns and rows too, of 4- and 8-byte
 * elements, when both sides are at least 1000 and one side fits local
 * memory (the split column pass); a common factor, longer columns and rows, a
 * batch, the passes of an N-D permutation, a forced algorithm, sequence,
 * tile or tile rule, and the option c2r_column_bytes=1 keep the TPDS
 * sequences; the option can also turn C2R on; the default (PoCL) and the
 * derived GPU profiles never choose either. */
#include "support.h"
#include "choice.h"
#include "factor.h"
#include "plan.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define H100 "NVIDIA H100 80GB HBM3", "NVIDIA Corporation"

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};
static const clipt_padding paddings[] = {CLIPT_PADDING_AUTO, CLIPT_PADDING_NONE,
                                         CLIPT_PADDING_SCRATCH, CLIPT_PADDING_OFF};

static clipt_plan_options options(clipt_padding padding)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.padding = padding;
    return o;
}

/* The algorithm of the plan c makes for rows x cols with o; with its
 * buffer size (the matrix exactly, for C2R) into *buffer when not NULL. */
static clipt_algorithm algorithm_of(clipt_context c, size_t rows, size_t cols, size_t elem,
                                    const clipt_plan_options *o, size_t *buffer)
{
    clipt_plan p;
    clipt_plan_info info;
    assert_status(clipt_plan_create(c, rows, cols, elem, o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    if (buffer)
        *buffer = clipt_plan_buffer_size(p);
    clipt_plan_release(p);
    return info.algorithm;
}

/* Runs o on the H100-like env at an offset, fails unless exact and the
 * two passes of C2R (or of R2C, `inverse`; automatic, described so) ran. */
static void run_auto(test_env *gpu, size_t rows, size_t cols, size_t elem,
                     const clipt_plan_options *o, int inverse)
{
    static char text[16384];
    char want[160];
    size_t mismatch = 0;
    const clipt_status s =
        test_run_transpose(gpu, rows, cols, elem, 3 * elem, o, &mismatch, text, sizeof text);
    if (s != CLIPT_SUCCESS || mismatch)
        fail_msg("%zu x %zu, %zu-byte elements, padding %d: %s, %zu bytes differ", rows, cols,
                 elem, (int)o->padding, clipt_status_string(s), mismatch);
    snprintf(want, sizeof want,
             "algorithm: %s (automatic: coprime sides, %s of %zu bytes, at most "
             "c2r_column_bytes=12288): 2 passes",
             inverse ? "R2C" : "C2R", inverse ? "rows" : "columns",
             (inverse ? cols : rows) * elem);
    if (!strstr(text, want) || !strstr(text, "(no padding)") || strstr(text, "sequence:"))
        fail_msg("%zu x %zu, %zu-byte elements: not the automatic %s plan:\n%s", rows, cols,
                 elem, inverse ? "R2C" : "C2R", text);
}


/* On the H100-like profile: every small shape (rows, cols, the element
 * sizes it runs with, or-ed) with each of its element sizes and every
 * padding policy runs the automatic C2R (R2C with `inverse`) exactly;
 * every large one (rows, cols, elem) plans it with a buffer of the matrix
 * itself, and the first `runs` of them run with AUTO and NONE. */
static void check_rule(test_env *env, const size_t (*small)[3], size_t num_small,
                       const size_t (*large)[3], size_t num_large, size_t runs, int inverse)
{
    test_env gpu = *env;
    unsigned value = 0;
    gpu.ctx = test_context_gpu_like(env, H100);
    assert_status(clipt_context_tuning(gpu.ctx, "c2r_column_bytes", &value), CLIPT_SUCCESS);
    assert_int_equal(value, 12288);
    for (size_t i = 0; i < num_small; i++)
        for (size_t e = 0; e < COUNT(elem_sizes); e++)
            for (size_t k = 0; k < COUNT(paddings); k++) {
                const clipt_plan_options o = options(paddings[k]);
                if (small[i][2] & elem_sizes[e])
                    run_auto(&gpu, small[i][0], small[i][1], elem_sizes[e], &o, inverse);
            }
    for (size_t i = 0; i < num_large; i++)
        for (size_t k = 0; k < COUNT(paddings); k++) {
            const clipt_plan_options o = options(paddings[k]);
            const size_t rows = large[i][0], cols = large[i][1], elem = large[i][2];
            size_t buffer = 0;
            assert_int_equal(algorithm_of(gpu.ctx, rows, cols, elem, &o, &buffer),
                             inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R);
            assert_int_equal(buffer, rows * cols * elem);
            if (i < runs &&
                (paddings[k] == CLIPT_PADDING_AUTO || paddings[k] == CLIPT_PADDING_NONE))
                run_auto(&gpu, rows, cols, elem, &o, inverse);
        }
    clipt_context_release(gpu.ctx);
}

/* Coprime sides, short columns (rows no longer, or R2C's columns past the
 * limit): C2R with every padding policy, the buffer the matrix itself;
 * exact on 4-, 8- and 16-byte elements (small shapes; 1 and 2 bytes keep
 * TPDS: test_tpds_kept) and on 4- and 8-byte elements of larger ones, the
 * last one byte-column from the limit (1531 x 8 = 12248 bytes). */
static void test_coprime_short_columns(void **state)
{
    static const size_t small[][3] = {{2, 3, 28},   {97, 101, 28}, {64, 101, 28},
                                      {5, 513, 28}, {131, 640, 28}};
    static const size_t large[][3] = {{1111, 2003, 4}, {2003, 3001, 4}, {1531, 2048, 8},
                                      {1316, 1777, 8}, {3071, 3073, 4}};
    check_rule(TEST_ENV(state), small, COUNT(small), large, COUNT(large), COUNT(large), 0);
}

/* Coprime sides, columns past the limit but short rows: R2C with every
 * padding policy, the buffer the matrix itself; exact on 4-, 8- and
 * 16-byte elements (3079 rows: past 12288 bytes of 4-byte elements; 797
 * rows of 16 bytes: 12752) and on 4- and 8-byte elements of larger ones
 * (rows of 1024 elements, columns one element past the limit); the last
 * two only planned (too large for a test's run). */
static void test_coprime_short_rows(void **state)
{
    static const size_t small[][3] = {{3079, 7, 4}, {3079, 64, 12}, {797, 9, 16}};
    static const size_t large[][3] = {{4000, 1001, 4}, {3073, 1024, 4}, {1537, 1024, 8},
                                      {20011, 2999, 4}, {13001, 1531, 8}};
    check_rule(TEST_ENV(state), small, COUNT(small), large, COUNT(large), 3, 1);
}

/* On the H100's profile: what keeps the sequences. */
static void test_tpds_kept(void **state)
{
    /* a common factor with columns and rows past 1800 elements (there
     * C2R's third pass lost), columns and rows
     * past 12288 bytes and past local memory (12289 x 12301 fp32, 6151 x
     * 6143 fp64), 16-byte ones past local memory and registers too (7211 x
     * 7213: 7168 on chip), the limit's first column and row over
     * with a side below 1000 (800 x 811 x 16), single rows and columns
     * (nothing moves), and
     * short columns (or rows) whose rows (columns) do not stay on chip
     * (48 KiB of local memory and a work-group's step of registers: 20480
     * fp32, 14336 fp64, 7168 16-byte elements): skinny shapes; and 1- and
     * 2-byte elements, with columns or rows short enough (and 1-byte ones
     * with both sides past 1000, 2003 x 3001) */
    static const size_t shapes[][3] = {
        {2400, 3000, 4}, {2000, 1900, 8}, {12289, 12301, 4}, {6151, 6143, 8},
        {7211, 7213, 16}, {1, 997, 4},    {997, 1, 8},      {800, 811, 16},
        {7, 1000003, 4}, {1000003, 7, 4}, {101, 40009, 4},  {40009, 101, 4},
        {5, 30011, 8},   {30011, 5, 8},   {3, 15013, 16},   {15013, 3, 16},
        {97, 101, 1},    {101, 97, 2},    {12301, 7, 1},    {7, 6151, 2},
        {2003, 3001, 1}};
    test_env *env = TEST_ENV(state);
    clipt_context c = test_context_gpu_like(env, H100);
    clipt_plan_options o = options(CLIPT_PADDING_AUTO);
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t k = 0; k < COUNT(paddings); k++) {
            o = options(paddings[k]);
            assert_int_equal(algorithm_of(c, shapes[i][0], shapes[i][1], shapes[i][2], &o, NULL),
                             CLIPT_ALGORITHM_TPDS);
        }
    /* the same C2R shape with the TPDS plan asked for in any way */
    for (int way = 0; way < 5; way++) {
        o = options(CLIPT_PADDING_AUTO);
        if (way == 0)
            o.algorithm = CLIPT_ALGORITHM_TPDS;
        else if (way == 1)
            o.sequence = CLIPT_SEQUENCE_3_1;
        else if (way == 2)
            o.tile_m = 11;
        else if (way == 3)
            o.tile_rule = CLIPT_TILE_RULE_ALG5;
        else
            assert_status(clipt_plan_options_set_tuning(&o, "c2r_column_bytes", 1),
                          CLIPT_SUCCESS);
        assert_int_equal(algorithm_of(c, 1111, 2003, 4, &o, NULL), CLIPT_ALGORITHM_TPDS);
    }
    /* forced TPDS, exact */
    {
        test_env gpu = *env;
        size_t mismatch = 0;
        gpu.ctx = c;
        o = options(CLIPT_PADDING_NONE);
        o.algorithm = CLIPT_ALGORITHM_TPDS;
        assert_status(test_run_transpose(&gpu, 97, 101, 8, 0, &o, &mismatch, NULL, 0),
                      CLIPT_SUCCESS);
        assert_int_equal(mismatch, 0);
    }
    clipt_context_release(c);
}

/* Both sides' lines past the limit, one side in local memory (16-byte
 * elements: on chip, 3079 x 3083 past local memory): the split column
 * pass, C2R or R2C by the shorter columns, exact (the two smallest run,
 * AUTO and NONE; the rest planned), on 2- to 16-byte elements. */
static void test_split_columns(void **state)
{
    static const size_t c2r[][3] = {{1543, 1549, 8},  {4001, 9001, 4}, {20011, 2999, 8},
                                    {1009, 1013, 16}, {7001, 9001, 2}, {3079, 3083, 16}};
    static const size_t r2c[][3] = {{3079, 3073, 4},  {9001, 4001, 4}, {2999, 20011, 8},
                                    {1013, 1009, 16}, {9001, 7001, 2}, {3083, 3079, 16}};
    static char text[16384];
    test_env gpu = *TEST_ENV(state);
    gpu.ctx = test_context_gpu_like(TEST_ENV(state), H100);
    for (int inverse = 0; inverse < 2; inverse++)
        for (size_t i = 0; i < COUNT(c2r); i++) {
            const size_t *s = inverse ? r2c[i] : c2r[i];
            for (size_t k = 0; k < COUNT(paddings); k++) {
                const clipt_plan_options o = options(paddings[k]);
                size_t buffer = 0, mismatch = 0;
                assert_int_equal(algorithm_of(gpu.ctx, s[0], s[1], s[2], &o, &buffer),
                                 inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R);
                assert_int_equal(buffer, s[0] * s[1] * s[2]);
                if (i > 0 || k > 1)
                    continue;
                assert_status(test_run_transpose(&gpu, s[0], s[1], s[2], s[2], &o, &mismatch,
                                                 text, sizeof text),
                              CLIPT_SUCCESS);
                assert_int_equal(mismatch, 0);
                if (!strstr(text, inverse ? "more than c2r_column_bytes=12288, columns in "
                                            "local memory): 2 passes"
                                          : "more than c2r_column_bytes=12288, rows in local "
                                            "memory): 2 passes"))
                    fail_msg("%zu x %zu: not the split rule:\n%s", s[0], s[1], text);
            }
        }
    clipt_context_release(gpu.ctx);
}

/* The split clause skips a walk whose cycles hold at most 16 bytes of a
 * column (-cols of order 2 to 16 / elem modulo rows): 4268 x 7567 and
 * 1000 x 1001 2-byte (C2R's walk: cycles of 2 rows; R2C's: long, or
 * moving nothing) take R2C, the second exact; so do 4000 x 9001 fp32
 * (cycles of 4) and 2000 x 2001 fp64 (2), and their transposes C2R;
 * where both walks are short the TPDS sequences (1000 x 1443 2-byte: 4
 * and 2 rows; 1001 x 1088: 6 and 8); 16-byte elements and longer cycles
 * keep C2R (1000 x 1001 x 16; 3100 x 3239 fp32: 5 rows); on the H100's
 * and the H200's profiles alike. */
static void test_short_walks(void **state)
{
    static const struct {
        size_t rows, cols, elem;
        clipt_algorithm want;
    } cases[] = {{4268, 7567, 2, CLIPT_ALGORITHM_R2C},  {1000, 1001, 2, CLIPT_ALGORITHM_R2C},
                 {4000, 9001, 4, CLIPT_ALGORITHM_R2C},  {9001, 4000, 4, CLIPT_ALGORITHM_C2R},
                 {2000, 2001, 8, CLIPT_ALGORITHM_R2C},  {2001, 2000, 8, CLIPT_ALGORITHM_C2R},
                 {1000, 1443, 2, CLIPT_ALGORITHM_TPDS}, {1001, 1088, 2, CLIPT_ALGORITHM_TPDS},
                 {1000, 1001, 16, CLIPT_ALGORITHM_C2R}, {3100, 3239, 4, CLIPT_ALGORITHM_C2R}};
    static char text[16384];
    static const char *const names[][2] = {{H100}, {"NVIDIA H200", "NVIDIA Corporation"}};
    for (size_t d = 0; d < COUNT(names); d++) {
        test_env gpu = *TEST_ENV(state);
        gpu.ctx = test_context_gpu_like(TEST_ENV(state), names[d][0], names[d][1]);
        for (size_t i = 0; i < COUNT(cases); i++)
            for (size_t k = 0; k < COUNT(paddings); k++) {
                const clipt_plan_options o = options(paddings[k]);
                const clipt_algorithm got = algorithm_of(gpu.ctx, cases[i].rows, cases[i].cols,
                                                         cases[i].elem, &o, NULL);
                if (got != cases[i].want)
                    fail_msg("%s: %zu x %zu x %zu, padding %d: algorithm %d, not %d",
                             names[d][0], cases[i].rows, cases[i].cols, cases[i].elem,
                             (int)paddings[k], (int)got, (int)cases[i].want);
            }
        if (d == 0) {
            const clipt_plan_options o = options(CLIPT_PADDING_NONE);
            size_t mismatch = 0;
            assert_status(test_run_transpose(&gpu, 1000, 1001, 2, 2, &o, &mismatch, text,
                                             sizeof text),
                          CLIPT_SUCCESS);
            assert_int_equal(mismatch, 0);
            if (!strstr(text, "algorithm: R2C (automatic"))
                fail_msg("1000 x 1001 2-byte: not the automatic R2C:\n%s", text);
        }
        clipt_context_release(gpu.ctx);
    }
}

/* Where both C2R and R2C take short columns, the shorter ones (2207 x
 * 1525 fp32: R2C 1.43x C2R on the H100); with a common factor, columns of
 * at most CLIPT_C2R_GCD_MAX_COLUMN elements and rows in local memory, in
 * three passes (the rotation first), exact. */
static void test_shorter_columns_and_common_factors(void **state)
{
    static const size_t long_rows[][3] = {{12186, 1408, 4}, {1356, 16372, 4}, {1422, 12399, 8},
                                          {12052, 1526, 8}, {12588, 1524, 8}};
    static char text[16384];
    test_env gpu = *TEST_ENV(state);
    clipt_plan_options o = options(CLIPT_PADDING_AUTO);
    size_t mismatch = 0;
    gpu.ctx = test_context_gpu_like(TEST_ENV(state), H100);
    assert_int_equal(algorithm_of(gpu.ctx, 2207, 1525, 4, &o, NULL), CLIPT_ALGORITHM_R2C);
    assert_int_equal(algorithm_of(gpu.ctx, 1525, 2207, 4, &o, NULL), CLIPT_ALGORITHM_C2R);
    assert_int_equal(algorithm_of(gpu.ctx, 1116, 2631, 4, &o, NULL), CLIPT_ALGORITHM_C2R);
    assert_int_equal(algorithm_of(gpu.ctx, 2631, 1116, 8, &o, NULL), CLIPT_ALGORITHM_R2C);
    assert_int_equal(algorithm_of(gpu.ctx, 2034, 4030, 4, &o, NULL), CLIPT_ALGORITHM_TPDS);
    assert_int_equal(algorithm_of(gpu.ctx, 4030, 2034, 4, &o, NULL), CLIPT_ALGORITHM_TPDS);
    assert_int_equal(algorithm_of(gpu.ctx, 1116, 2631, 2, &o, NULL), CLIPT_ALGORITHM_TPDS);
    /* a common factor and rows past local memory: C2R/R2C lost 0.81-0.93x */
    for (size_t i = 0; i < COUNT(long_rows); i++)
        assert_int_equal(algorithm_of(gpu.ctx, long_rows[i][0], long_rows[i][1],
                                      long_rows[i][2], &o, NULL),
                         CLIPT_ALGORITHM_TPDS);
    assert_status(test_run_transpose(&gpu, 1116, 2631, 4, 4, &o, &mismatch, text, sizeof text),
                  CLIPT_SUCCESS);
    assert_int_equal(mismatch, 0);
    if (!strstr(text, "algorithm: C2R (automatic: sides with the common factor 3, columns of "
                      "at most 1800 elements, columns of 4464 bytes, at most "
                      "c2r_column_bytes=12288): 3 passes (column rotation, row shuffle"))
        fail_msg("1116 x 2631: not the automatic three-pass C2R:\n%s", text);
    {
        clipt_plan p;
        assert_status(clipt_plan_create(gpu.ctx, 2631, 1116, 8, &o, &p), CLIPT_SUCCESS);
        assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
        clipt_plan_release(p);
        if (!strstr(text, "algorithm: R2C (automatic: sides with the common factor 3, rows of "
                          "at most 1800 elements, rows of 8928 bytes, at most "
                          "c2r_column_bytes=12288): 3 passes (column unshuffle, row "
                          "unshuffle, column unrotation, on the 1116 x 2631 view)"))
            fail_msg("2631 x 1116 fp64: not the automatic three-pass R2C:\n%s", text);
    }
    clipt_context_release(gpu.ctx);
}

/* The option turns C2R off (above) and on: a long-column shape with the
 * limit raised, named in describe's tuning line. */
static void test_option_raises_the_limit(void **state)
{
    test_env gpu = *TEST_ENV(state);
    clipt_plan_options o = options(CLIPT_PADDING_AUTO);
    clipt_plan p;
    char text[16384];
    gpu.ctx = test_context_gpu_like(TEST_ENV(state), H100);
    assert_status(clipt_plan_options_set_tuning(&o, "c2r_column_bytes", 16384), CLIPT_SUCCESS);
    assert_status(clipt_plan_create(gpu.ctx, 3073, 12289, 4, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    clipt_plan_release(p);
    if (!strstr(text, "columns of 12292 bytes, at most c2r_column_bytes=16384): 2 passes") ||
        !strstr(text, "[option c2r_column_bytes=16384]"))
        fail_msg("3073 x 12289 with c2r_column_bytes=16384:\n%s", text);
    clipt_context_release(gpu.ctx);
}

/* Batches and the passes of N-D permutations keep their choice; a 2-D
 * permutation is clipt_plan_create's plan, C2R's here. */
static void test_batches_and_permutations(void **state)
{
    static const size_t batch[3] = {3, 97, 101}, two[2] = {97, 101};
    static const size_t three[3] = {97, 5, 101};
    static const unsigned swap[3] = {0, 2, 1}, flip[2] = {1, 0}, reverse[3] = {2, 1, 0};
    test_env gpu = *TEST_ENV(state);
    const clipt_device_profile *profile;
    clipt_plan_options o = options(CLIPT_PADDING_OFF);
    clipt_plan_choice ch;
    clipt_plan p;
    size_t mismatch = 0;
    gpu.ctx = test_context_gpu_like(TEST_ENV(state), H100);
    profile = &gpu.ctx->profile;
    assert_status(clipt_plan_choose_batch(profile, 1, 97, 101, 4, &o, &profile->tuning, &ch),
                  CLIPT_SUCCESS);
    assert_int_equal(ch.algorithm, CLIPT_ALGORITHM_C2R);
    assert_status(clipt_plan_choose_batch(profile, 3, 97, 101, 4, &o, &profile->tuning, &ch),
                  CLIPT_SUCCESS);
    assert_int_equal(ch.algorithm, CLIPT_ALGORITHM_TPDS);
    assert_status(clipt_plan_choose_batch(profile, 1, 4001, 101, 4, &o, &profile->tuning, &ch),
                  CLIPT_SUCCESS);
    assert_int_equal(ch.algorithm, CLIPT_ALGORITHM_R2C);
    assert_status(clipt_plan_choose_batch(profile, 3, 4001, 101, 4, &o, &profile->tuning, &ch),
                  CLIPT_SUCCESS);
    assert_int_equal(ch.algorithm, CLIPT_ALGORITHM_TPDS);
    assert_status(clipt_plan_create_permute(gpu.ctx, 3, batch, swap, 4, NULL, &p),
                  CLIPT_SUCCESS);
    for (unsigned i = 0; i < p->nd.num_passes; i++)
        assert_int_equal(p->pass_choice[i].algorithm, CLIPT_ALGORITHM_TPDS);
    clipt_plan_release(p);
    assert_status(clipt_plan_create_permute(gpu.ctx, 3, three, reverse, 4, NULL, &p),
                  CLIPT_SUCCESS);
    assert_true(p->nd.num_passes > 1);
    for (unsigned i = 0; i < p->nd.num_passes; i++)
        assert_int_equal(p->pass_choice[i].algorithm, CLIPT_ALGORITHM_TPDS);
    clipt_plan_release(p);
    assert_status(test_run_permute(&gpu, 3, three, reverse, 4, 0, NULL, &mismatch, NULL, 0),
                  CLIPT_SUCCESS);
    assert_int_equal(mismatch, 0);
    assert_status(clipt_plan_create_permute(gpu.ctx, 2, two, flip, 8, NULL, &p), CLIPT_SUCCESS);
    assert_int_equal(p->choice.algorithm, CLIPT_ALGORITHM_C2R);
    clipt_plan_release(p);
    assert_status(test_run_permute(&gpu, 2, two, flip, 8, 0, NULL, &mismatch, NULL, 0),
                  CLIPT_SUCCESS);
    assert_int_equal(mismatch, 0);
    clipt_context_release(gpu.ctx);
}

/* The default (PoCL) profile, a GPU the table does not know and a GPU's
 * local memory on the test device: c2r_column_bytes 1, and 3000 random
 * coprime shapes with every element size and padding never choose C2R. */
static void test_other_profiles_never(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context contexts[3] = {env->ctx, test_context_gpu_like(env, "Some GPU", "Some Vendor"),
                                 test_context_limited(env, 48 * 1024)};
    uint64_t seed = 1140;
    size_t tried = 0;
    for (size_t c = 0; c < COUNT(contexts); c++) {
        const clipt_device_profile *profile = &contexts[c]->profile;
        unsigned value = 0;
        assert_status(clipt_context_tuning(contexts[c], "c2r_column_bytes", &value),
                      CLIPT_SUCCESS);
        assert_int_equal(value, 1);
        for (size_t i = 0; i < 1000; i++) {
            const size_t rows = test_rand_range(&seed, 2, 3000);
            const size_t cols = test_rand_range(&seed, 2, 20000);
            const clipt_plan_options o = options(paddings[i % COUNT(paddings)]);
            clipt_plan_choice ch;
            if (clipt_gcd(rows, cols) != 1)
                continue;
            assert_status(clipt_plan_choose(profile, rows, cols, elem_sizes[i % 5], &o,
                                            &profile->tuning, &ch),
                          CLIPT_SUCCESS);
            if (ch.algorithm != CLIPT_ALGORITHM_TPDS)
                fail_msg("%s: %zu x %zu chose C2R or R2C",
                         clipt_context_tuning_entry(contexts[c]), rows, cols);
            tried++;
        }
    }
    assert_true(tried > 1000);
    /* and a plan made there */
    assert_int_equal(algorithm_of(env->ctx, 97, 101, 4, NULL, NULL), CLIPT_ALGORITHM_TPDS);
    clipt_context_release(contexts[1]);
    clipt_context_release(contexts[2]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coprime_short_columns),
        cmocka_unit_test(test_coprime_short_rows),
        cmocka_unit_test(test_tpds_kept),
        cmocka_unit_test(test_split_columns),
        cmocka_unit_test(test_short_walks),
        cmocka_unit_test(test_shorter_columns_and_common_factors),
        cmocka_unit_test(test_option_raises_the_limit),
        cmocka_unit_test(test_batches_and_permutations),
        cmocka_unit_test(test_other_profiles_never),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
