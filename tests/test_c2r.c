/* The C2R decomposition (clipt_plan_options.algorithm = C2R) and its
 * inverse R2C: bit-exact against the CPU reference on every element size,
 * with the units in local memory, (on a context whose local memory is cut
 * down) in global scratch, and with the column shuffles split in a
 * reflection and a row walk; the walk's cycle table; their passes as the
 * plan reports them; their option checks; a sub-buffer. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "support.h"
#include "c2r_walk.h"
#include "modular.h"
#include "plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

typedef struct c2r_shape {
    size_t rows, cols;
} c2r_shape;

/* 1 x N, N x 1, tiny, primes, powers of two, gcd > 1 (rotation) and
 * coprime (two passes), skinny both ways, a row one element past a
 * column block, rows one element past the 512 4-byte elements that
 * test_global_scratch's local memory holds (the rest in scratch), a row
 * whose rest does not fit the registers of a work-group's step (9001:
 * more than 1024 x 8 past those 512). */
static const c2r_shape shapes[] = {
    {1, 1},    {1, 37},   {41, 1},   {2, 2},    {3, 4},     {4, 6},     {6, 4},
    {5, 7},    {97, 101}, {101, 97}, {64, 128}, {256, 256}, {12, 18},   {60, 84},
    {35, 64},  {3, 1000}, {1000, 3}, {2, 4097}, {4097, 2},  {131, 257}, {200, 330},
    {5, 513},  {512, 9},  {129, 17}, {3, 9001}};

/* The kernel style the plans are made with (0: the device's): the GPU
 * style moves C2R_BATCH elements per work-item step, the CPU style one. */
static unsigned forced_style;
/* The algorithm forced (C2R, or R2C where a test says so). */
static clipt_algorithm forced_algorithm = CLIPT_ALGORITHM_C2R;

static clipt_plan_options c2r_options(void)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.algorithm = forced_algorithm;
    o.kernel_style = forced_style;
    return o;
}

static void run_c2r(test_env *env, size_t rows, size_t cols, size_t elem, size_t offset)
{
    const clipt_plan_options o = c2r_options();
    size_t mismatch = 0;
    clipt_status s = test_run_transpose(env, rows, cols, elem, offset, &o, &mismatch, NULL, 0);
    if (s != CLIPT_SUCCESS || mismatch)
        fail_msg("%s %zu x %zu, %zu-byte elements at byte offset %zu: %s, %zu bytes differ",
                 forced_algorithm == CLIPT_ALGORITHM_R2C ? "R2C" : "C2R", rows, cols, elem,
                 offset, clipt_status_string(s), mismatch);
}

/* Every shape and element size, with C2R and with R2C. */
static void run_all(test_env *env)
{
    for (int inverse = 0; inverse < 2; inverse++) {
        forced_algorithm = inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        for (size_t i = 0; i < COUNT(shapes); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++)
                run_c2r(env, shapes[i].rows, shapes[i].cols, elem_sizes[e],
                        elem_sizes[e] * ((i + e + inverse) % 3));
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
}

/* Rows and column blocks in local memory (PoCL's local memory holds them). */
static void test_local(void **state)
{
    run_all(TEST_ENV(state));
}

/* The kernels of a plan's stages, joined, and the stage count. */
static unsigned stage_kernels(clipt_context c, size_t rows, size_t cols, size_t elem,
                              char *out, size_t len)
{
    const clipt_plan_options o = c2r_options();
    clipt_plan p;
    clipt_plan_info info;
    out[0] = '\0';
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    assert_int_equal(info.algorithm, forced_algorithm);
    assert_int_equal(info.buffer_bytes, rows * cols * elem); /* never pads */
    for (unsigned i = 0; i < info.num_stages; i++) {
        clipt_stage_info st;
        assert_status(clipt_plan_query_stage(p, i, &st), CLIPT_SUCCESS);
        assert_int_equal(st.family, CLIPT_FAMILY_C2R);
        strncat(out, st.kernels, len - strlen(out) - 2);
        strcat(out, " ");
    }
    clipt_plan_release(p);
    return info.num_stages;
}

/* With 2 KiB of local memory rows and column blocks of the larger shapes
 * go through registers or the plan's scratch, and the rotation of shapes
 * whose gcd - 1 rows of a strip do not fit local memory too: every shape
 * again, and the kernels checked where local memory holds too little
 * (300 x 1200: a row's 688 elements past local memory fit the registers
 * of one step of 1024 work-items; 2 x 9001: 8489 do not, even with the
 * GPU style's 8 a step; 60 x 84: 11 rows kept, the rotation streams). */
static void test_global_scratch(void **state)
{
    test_env small = *TEST_ENV(state);
    char kernels[256];
    small.ctx = test_context_limited(TEST_ENV(state), 2048);
    assert_int_equal(stage_kernels(small.ctx, 300, 1200, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_columns_global c2r_rows_regs c2r_columns_global ");
    assert_int_equal(stage_kernels(small.ctx, 2, 9001, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_rows_global c2r_columns_local ");
    assert_int_equal(stage_kernels(small.ctx, 60, 84, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_rotate_stream c2r_rows_local c2r_columns_local ");
    /* R2C: the same views, transposed, their passes in reverse order */
    forced_algorithm = CLIPT_ALGORITHM_R2C;
    assert_int_equal(stage_kernels(small.ctx, 1200, 300, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_columns_global c2r_rows_regs c2r_columns_global ");
    assert_int_equal(stage_kernels(small.ctx, 9001, 2, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_columns_local c2r_rows_global ");
    assert_int_equal(stage_kernels(small.ctx, 84, 60, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_columns_local c2r_rows_local c2r_rotate_stream ");
    forced_algorithm = CLIPT_ALGORITHM_C2R;
    run_all(&small);
    clipt_context_release(small.ctx);
}

/* CLIPT_C2R_SCRATCH_MIB (a measurement's knob) bounds the scratch of the
 * global variants: 100000 x 64 with 2 KiB of local memory has column
 * blocks of 3.2 MB past local memory, 4 slots by the rule (an eighth of
 * the region, or 32 MiB but at most half: 12.8 MB), 1 with 1 MiB. */
static void test_scratch_knob(void **state)
{
    const clipt_plan_options o = c2r_options();
    clipt_context small = test_context_limited(TEST_ENV(state), 2048);
    clipt_plan p;
    size_t by_rule, by_knob;
    assert_status(clipt_plan_create(small, 100000, 64, 4, &o, &p), CLIPT_SUCCESS);
    by_rule = clipt_plan_scratch_size(p);
    clipt_plan_release(p);
    setenv("CLIPT_C2R_SCRATCH_MIB", "1", 1);
    assert_status(clipt_plan_create(small, 100000, 64, 4, &o, &p), CLIPT_SUCCESS);
    unsetenv("CLIPT_C2R_SCRATCH_MIB");
    by_knob = clipt_plan_scratch_size(p);
    clipt_plan_release(p);
    clipt_context_release(small);
    assert_int_equal(by_knob, (100000 * 8 - 512) * 4);
    assert_true(by_rule > by_knob && by_rule <= 12800000);
}

/* Coprime sides: two passes; gcd > 1: the rotation first; a vector: none. */
static void test_passes(void **state)
{
    test_env *env = TEST_ENV(state);
    char kernels[256];
    assert_int_equal(stage_kernels(env->ctx, 97, 101, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_rows_local c2r_columns_local ");
    assert_int_equal(stage_kernels(env->ctx, 60, 84, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_rotate_stream c2r_rows_local c2r_columns_local ");
    assert_int_equal(stage_kernels(env->ctx, 1, 84, 4, kernels, sizeof kernels), 0);
    forced_algorithm = CLIPT_ALGORITHM_R2C;
    assert_int_equal(stage_kernels(env->ctx, 101, 97, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_columns_local c2r_rows_local ");
    assert_int_equal(stage_kernels(env->ctx, 84, 60, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_columns_local c2r_rows_local c2r_rotate_stream ");
    assert_int_equal(stage_kernels(env->ctx, 84, 1, 4, kernels, sizeof kernels), 0);
    forced_algorithm = CLIPT_ALGORITHM_C2R;
}

/* The value of -DNAME= in the build options of stage `i` of the plan of
 * rows x cols elem-byte elements (-1: not there). */
static int stage_option(clipt_context c, size_t rows, size_t cols, size_t elem, unsigned i,
                        const char *name)
{
    const clipt_plan_options o = c2r_options();
    char key[64];
    clipt_plan p;
    clipt_stage_info st;
    const char *at;
    int value = -1;
    snprintf(key, sizeof key, "-D%s=", name);
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_query_stage(p, i, &st), CLIPT_SUCCESS);
    at = strstr(st.build_options, key);
    if (at)
        value = atoi(at + strlen(key));
    clipt_plan_release(p);
    return value;
}

/* The batch of stage 1's build options, for `style`. */
static int stage_batch(clipt_context c, unsigned style, size_t elem)
{
    const unsigned saved = forced_style;
    int batch;
    forced_style = style;
    batch = stage_option(c, 97, 101, elem, 1, "C2R_BATCH");
    forced_style = saved;
    return batch;
}

/* The GPU kernel style (C2R_BATCH 8, 4 for 16-byte elements) on every
 * shape, in local memory and through scratch; the CPU style moves one. */
static void test_batched(void **state)
{
    test_env small = *TEST_ENV(state);
    assert_int_equal(stage_batch(small.ctx, 1, 4), 8);
    assert_int_equal(stage_batch(small.ctx, 1, 16), 4);
    assert_int_equal(stage_batch(small.ctx, 2, 4), 1);
    forced_style = 1;
    run_all(&small);
    small.ctx = test_context_limited(TEST_ENV(state), 2048);
    run_all(&small);
    clipt_context_release(small.ctx);
    forced_style = 0;
}

/* describe names the algorithm and its passes. */
static void test_describe(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o = c2r_options();
    clipt_plan p;
    char text[8192];
    assert_status(clipt_plan_create(env->ctx, 60, 84, 8, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_non_null(strstr(text, "algorithm: C2R (forced): 3 passes"));
    assert_non_null(strstr(text, "C2R column rotation (column rotation), kernel "
                                 "c2r_rotate_stream"));
    assert_non_null(strstr(text, "strips of 4 columns streamed down the rows, their first 44 "
                                 "elements kept in local memory"));
    assert_non_null(strstr(text, "C2R row shuffle (row shuffle), kernel c2r_rows"));
    assert_non_null(strstr(text, "C2R column shuffle (column shuffle), kernel c2r_columns"));
    assert_null(strstr(text, "sequence:"));
    o.algorithm = CLIPT_ALGORITHM_R2C;
    assert_status(clipt_plan_create(env->ctx, 84, 60, 8, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_non_null(strstr(text, "algorithm: R2C (forced): 3 passes"));
    assert_non_null(strstr(text, "on the 60 x 84 view"));
    assert_non_null(strstr(text, "R2C column unshuffle (column unshuffle), kernel c2r_columns"
                                 "_local: 1 matrix viewed as 60 x 84 elements"));
    assert_non_null(strstr(text, "R2C row unshuffle (row unshuffle), kernel c2r_rows"));
    assert_non_null(strstr(text, "R2C column unrotation (column unrotation), kernel "
                                 "c2r_rotate_stream"));
    assert_null(strstr(text, "sequence:"));
}

/* C2R and R2C have no sequence and no tiles; an unknown algorithm is
 * refused. */
static void test_bad_options(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o = c2r_options();
    clipt_plan p = (clipt_plan)1;
    o.sequence = CLIPT_SEQUENCE_3_1;
    assert_status(clipt_plan_create(env->ctx, 60, 84, 4, &o, &p),
                  CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
    assert_null(p);
    o = c2r_options();
    o.tile_n = 12;
    assert_status(clipt_plan_create(env->ctx, 60, 84, 4, &o, &p),
                  CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
    o = c2r_options();
    o.algorithm = CLIPT_ALGORITHM_R2C;
    o.sequence = CLIPT_SEQUENCE_2_1;
    assert_status(clipt_plan_create(env->ctx, 60, 84, 4, &o, &p),
                  CLIPT_ERROR_INCOMPATIBLE_OPTIONS);
    o = c2r_options();
    o.algorithm = (clipt_algorithm)4;
    assert_status(clipt_plan_create(env->ctx, 60, 84, 4, &o, &p), CLIPT_ERROR_INVALID_OPTION);
    o.algorithm = CLIPT_ALGORITHM_TPDS;
    assert_status(clipt_plan_create(env->ctx, 60, 84, 4, &o, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
}

/* A C2R plan on a sub-buffer at an offset: the bytes around the matrix
 * (in the parent) stay as they were. */
static void test_sub_buffer(void **state)
{
    clipt_plan_options o = c2r_options();
    test_run_on_sub_buffer(TEST_ENV(state), 123, 45, 8, 16, &o, 9);
    o.algorithm = CLIPT_ALGORITHM_R2C;
    test_run_on_sub_buffer(TEST_ENV(state), 123, 45, 8, 16, &o, 9);
}

/* The reflection's measuring knobs (tuning/gpu_reflect.sh): strips of two
 * lines, no element size's own choice, and 40 pairs at a time (several
 * windows a strip), as describe says; both ways, every element size (1-
 * and 2-byte strips of two lines, 256 and 128 columns, want 128 and 64
 * pairs: those go to scratch). */
static void split_knobs(test_env *env)
{
    static const c2r_shape some[] = {{97, 101}, {131, 257}, {257, 131}};
    const clipt_plan_options o = c2r_options();
    char text[4096];
    clipt_plan p;
    setenv("CLIPT_C2R_STRIP_LINES", "2", 1);
    setenv("CLIPT_C2R_REFLECT_HEIGHT", "40", 1);
    assert_status(clipt_plan_create(env->ctx, 131, 257, 4, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_non_null(strstr(text, "columns reflected in strips of 64, 40 pairs at a time"));
    for (int inverse = 0; inverse < 2; inverse++) {
        forced_algorithm = inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        for (size_t i = 0; i < COUNT(some); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++)
                run_c2r(env, some[i].rows, some[i].cols, elem_sizes[e], elem_sizes[e] * i);
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
    unsetenv("CLIPT_C2R_STRIP_LINES");
    unsetenv("CLIPT_C2R_REFLECT_HEIGHT");
}

/* Walks of short cycles (100 x 301: cols = 1 mod rows, every cycle two
 * rows but the fixed points 0 and 50: 49 whole cycles; R2C on 301 x 100
 * the same; 64 x 263: cycles of 8 rows), every element size at offsets. */
static void split_short_cycles(test_env *env)
{
    static const size_t cases[][3] = {{100, 301, 0}, {301, 100, 1}, {64, 263, 0}};
    const clipt_plan_options o = c2r_options();
    char text[4096];
    clipt_plan p;
    assert_status(clipt_plan_create(env->ctx, 100, 301, 2, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    clipt_plan_release(p);
    assert_non_null(strstr(text, "rows walked along 49 cycle segments of <= 32 (0 rows saved)"));
    for (size_t i = 0; i < COUNT(cases); i++) {
        forced_algorithm = cases[i][2] ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        for (size_t e = 0; e < COUNT(elem_sizes); e++)
            run_c2r(env, cases[i][0], cases[i][1], elem_sizes[e], elem_sizes[e] * (i + 1));
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
}

/* The column shuffles split (CLIPT_C2R_COLUMNS=split: PoCL's local
 * memory holds every test's column block, so only the knob puts them
 * there): a reflection and a row walk for C2R, the walk first for R2C;
 * every shape and element size at offsets, in both kernel styles and on
 * a sub-buffer; with 2 KiB of local memory no reflection's windows fit
 * and the columns go back to scratch. */
static void test_split(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o;
    clipt_context small = test_context_limited(env, 2048);
    char kernels[256];
    setenv("CLIPT_C2R_COLUMNS", "split", 1);
    assert_int_equal(stage_kernels(env->ctx, 97, 101, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_rows_local c2r_reflect + c2r_save_heads + "
                                 "c2r_walk_rows ");
    assert_int_equal(stage_kernels(env->ctx, 60, 84, 16, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_rotate_stream c2r_rows_local c2r_reflect + "
                                 "c2r_save_heads + c2r_walk_rows ");
    assert_int_equal(stage_kernels(small, 300, 1200, 4, kernels, sizeof kernels), 3);
    assert_string_equal(kernels, "c2r_columns_global c2r_rows_regs c2r_columns_global ");
    forced_algorithm = CLIPT_ALGORITHM_R2C;
    assert_int_equal(stage_kernels(env->ctx, 101, 97, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_save_heads + c2r_walk_rows + c2r_reflect "
                                 "c2r_rows_local ");
    forced_algorithm = CLIPT_ALGORITHM_C2R;
    run_all(env);
    forced_style = 1; /* the GPU style on a few shapes, both ways; columns
                         of 2 to 64 rows, against strips of up to 128
                         columns, fill the reflection's windows up to M
                         rows (its row offsets mod M take one subtraction) */
    for (int inverse = 0; inverse < 2; inverse++) {
        static const c2r_shape some[] = {{97, 101}, {1000, 3}, {3, 1000}, {131, 257},
                                         {2, 33},   {33, 64},  {64, 97}};
        forced_algorithm = inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        for (size_t i = 0; i < COUNT(some); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++)
                run_c2r(env, some[i].rows, some[i].cols, elem_sizes[e], elem_sizes[e] * i);
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
    forced_style = 0;
    split_knobs(env);
    split_short_cycles(env);
    o = c2r_options();
    test_run_on_sub_buffer(env, 123, 45, 8, 16, &o, 9);
    o.algorithm = CLIPT_ALGORITHM_R2C;
    test_run_on_sub_buffer(env, 123, 45, 8, 16, &o, 9);
    unsetenv("CLIPT_C2R_COLUMNS");
    clipt_context_release(small);
}

/* The split form's build options: the reflection loads 4 rows of each
 * window at a time for elements of up to 4 bytes (C2R_REFLECT_BATCH; the
 * batch otherwise, 1 in the CPU style), takes its row offsets by addition
 * in both loops for 2-byte elements and in the write-back for 1-byte ones
 * (both for every size in the CPU style: C2R_ROW_CURSOR); the walk takes
 * segments of 24 rows for 4- and 8-byte elements, else 16, with its
 * offsets in local memory (32 and 16 rows, from the table, in the CPU
 * style: C2R_WALK, C2R_WALK_SHARED); the offsets are 32-bit
 * (C2R_INDEX32=1) unless the context indexes with 64 bits, as for 2^32
 * elements and more: there, every element size of a few shapes both
 * ways, bit-exact. */
static void test_split_options(void **state)
{
    static const c2r_shape some[] = {{97, 101}, {1000, 3}, {131, 257}, {60, 84}};
    static const int reflect_batch[] = {4, 4, 4, 8, 4};
    static const int row_cursor[] = {2, 3, 0, 0, 0};
    static const int walk_rows[] = {16, 16, 24, 24, 16};
    test_env wide = *TEST_ENV(state);
    setenv("CLIPT_C2R_COLUMNS", "split", 1);
    forced_style = 1;
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
    {
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_REFLECT_BATCH"),
                         reflect_batch[e]);
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_ROW_CURSOR"),
                         row_cursor[e]);
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_WALK"),
                         walk_rows[e]);
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_WALK_SHARED"), 1);
    }
    assert_int_equal(stage_option(wide.ctx, 97, 101, 4, 1, "C2R_INDEX32"), 1);
    forced_style = 2;
    assert_int_equal(stage_option(wide.ctx, 97, 101, 4, 1, "C2R_REFLECT_BATCH"), 1);
    for (size_t e = 0; e < COUNT(elem_sizes); e++) {
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_ROW_CURSOR"), 3);
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_WALK"),
                         elem_sizes[e] > 8 ? 16 : 32);
        assert_int_equal(stage_option(wide.ctx, 97, 101, elem_sizes[e], 1, "C2R_WALK_SHARED"), 0);
    }
    forced_style = 1;
    assert_status(clipt_context_create(wide.cl.context, wide.cl.device, &wide.ctx),
                  CLIPT_SUCCESS);
    wide.ctx->wide_index_from = 0;
    assert_int_equal(stage_option(wide.ctx, 97, 101, 4, 1, "C2R_INDEX32"), 0);
    for (int inverse = 0; inverse < 2; inverse++) {
        forced_algorithm = inverse ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        for (size_t i = 0; i < COUNT(some); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++)
                run_c2r(&wide, some[i].rows, some[i].cols, elem_sizes[e], elem_sizes[e] * i);
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
    forced_style = 0;
    unsetenv("CLIPT_C2R_COLUMNS");
    clipt_context_release(wide.ctx);
}

/* Without the knob, with 16 KiB of local memory: column blocks (one
 * 32-byte sector of fp32 rows) up to half again as large as local memory
 * go through scratch (701 rows: 22432 bytes), larger ones split (901
 * rows: 28832); both exact. */
static void test_split_or_scratch(void **state)
{
    test_env small = *TEST_ENV(state);
    char kernels[256];
    small.ctx = test_context_limited(TEST_ENV(state), 16384);
    assert_int_equal(stage_kernels(small.ctx, 701, 1001, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_rows_local c2r_columns_global ");
    assert_int_equal(stage_kernels(small.ctx, 901, 1001, 4, kernels, sizeof kernels), 2);
    assert_string_equal(kernels, "c2r_rows_local c2r_reflect + c2r_save_heads + "
                                 "c2r_walk_rows ");
    run_c2r(&small, 701, 1001, 4, 0);
    run_c2r(&small, 901, 1001, 4, 4);
    clipt_context_release(small.ctx);
}

/* The walk's table: every segment's rows follow the permutation (row t+1
 * is what row t reads), a segment's last row reads the next segment's
 * first (its own first for a whole cycle), each moving row listed once,
 * and the slots number the segments of cycles of several. */
static void test_walk_table(void **state)
{
    static const size_t sizes[][2] = {{2, 3},    {97, 101}, {60, 84}, {101, 97},
                                      {64, 128}, {1000, 3}, {37, 1},  {4097, 2}};
    (void)state;
    for (size_t i = 0; i < COUNT(sizes); i++)
        for (int inverse = 0; inverse < 2; inverse++) {
            const uint64_t rows = sizes[i][0], cols = sizes[i][1];
            clipt_c2r_walk w;
            unsigned char *seen = calloc(rows, 1);
            size_t moving = 0, slots = 0;
            assert_non_null(seen);
            assert_status(clipt_c2r_walk_make(rows, cols, inverse, 4, &w), CLIPT_SUCCESS);
            for (size_t s = 0; s < w.segments; s++) {
                const uint32_t *rec = w.table + 4 * s, *pos = w.table + 4 * w.segments;
                const uint32_t len = rec[1];
                uint32_t next;
                assert_true(len >= 1 && len <= 4);
                for (uint32_t t = 0; t < len; t++) {
                    assert_false(seen[pos[rec[0] + t]]);
                    seen[pos[rec[0] + t]] = 1;
                    if (t + 1 < len)
                        assert_int_equal(clipt_c2r_walk_source(rows, cols, inverse,
                                                               pos[rec[0] + t]),
                                         pos[rec[0] + t + 1]);
                }
                next = clipt_c2r_walk_source(rows, cols, inverse, pos[rec[0] + len - 1]);
                if (rec[3] == CLIPT_C2R_NO_SLOT) {
                    assert_int_equal(rec[2], CLIPT_C2R_NO_SLOT);
                    assert_int_equal(next, pos[rec[0]]);
                } else {
                    size_t k;
                    for (k = 0; k < w.segments && w.table[4 * k + 2] != rec[3]; k++)
                        ;
                    assert_true(k < w.segments);
                    assert_int_equal(next, pos[w.table[4 * k]]);
                    slots++;
                }
                moving += len;
            }
            assert_int_equal(moving, w.moving);
            assert_int_equal(slots, w.slots);
            for (uint64_t r = 0; r < rows; r++) /* the unlisted rows stay */
                if (!seen[r])
                    assert_int_equal(clipt_c2r_walk_source(rows, cols, inverse, r), r);
            free(seen);
            clipt_c2r_walk_free(&w);
        }
    {
        clipt_c2r_walk w;
        assert_status(clipt_c2r_walk_make(CLIPT_C2R_WALK_MAX_ROWS + 1, 3, 0, 16, &w),
                      CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
        assert_status(clipt_c2r_walk_make(97, 101, 0, 33, &w),
                      CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    }
}

/* The longest cycle of the walk of rows x cols, by following it. */
static uint64_t longest_walk_cycle(uint64_t rows, uint64_t cols)
{
    unsigned char *seen = calloc(rows, 1);
    uint64_t longest = 0;
    assert_non_null(seen);
    for (uint64_t i = 0; i < rows; i++) {
        uint64_t length = 0, r = i;
        for (; !seen[r]; length++, r = clipt_c2r_walk_source(rows, cols, 0, r))
            seen[r] = 1;
        if (length > longest)
            longest = length;
    }
    free(seen);
    return longest;
}

/* clipt_c2r_walk_short against the walk's cycles as followed: whether
 * rows move along cycles of at most `most` rows, for coprime shapes with
 * walks of every order (1: nothing moves; 2: cols = rows + 1 or the
 * 4268 x 7567 outlier; long ones). */
static void test_walk_short(void **state)
{
    static const uint64_t sizes[][2] = {{2, 3},      {5, 6},     {1000, 1001}, {1000, 999},
                                        {4268, 7567}, {97, 101}, {1543, 1549}, {4000, 9001},
                                        {1001, 1088}, {255, 256}, {37, 1},     {1, 5}};
    uint64_t seed = 2026120201;
    (void)state;
    for (size_t i = 0; i < COUNT(sizes) + 300; i++) {
        uint64_t rows, cols, longest;
        if (i < COUNT(sizes)) {
            rows = sizes[i][0];
            cols = sizes[i][1];
        } else {
            rows = test_rand_range(&seed, 1, 600);
            cols = test_rand_range(&seed, 1, 3000);
            if (clipt_gcd64(rows, cols) != 1)
                continue;
        }
        longest = longest_walk_cycle(rows, cols);
        for (unsigned most = 1; most <= 40; most++)
            if (clipt_c2r_walk_short(rows, cols, most) != (longest >= 2 && longest <= most))
                fail_msg("%" PRIu64 " x %" PRIu64 ": longest cycle %" PRIu64
                         ", short(%u) says %d",
                         rows, cols, longest, most, clipt_c2r_walk_short(rows, cols, most));
    }
    assert_int_equal(longest_walk_cycle(4268, 7567), 2);
    assert_int_equal(longest_walk_cycle(1000, 999), 1);
}

/* Random shapes up to a few hundred a side, random element sizes. */
static void test_random(void **state)
{
    uint64_t seed = 14;
    for (int i = 0; i < 40; i++) {
        const size_t rows = test_rand_range(&seed, 1, 400);
        const size_t cols = test_rand_range(&seed, 1, 400);
        const size_t elem = elem_sizes[test_rand_range(&seed, 0, 4)];
        forced_algorithm = i % 2 ? CLIPT_ALGORITHM_R2C : CLIPT_ALGORITHM_C2R;
        run_c2r(TEST_ENV(state), rows, cols, elem, elem * (size_t)(i % 5));
    }
    forced_algorithm = CLIPT_ALGORITHM_C2R;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_sub_buffer),
        cmocka_unit_test(test_local),
        cmocka_unit_test(test_global_scratch),
        cmocka_unit_test(test_batched),
        cmocka_unit_test(test_scratch_knob),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_options),
        cmocka_unit_test(test_split_or_scratch),
        cmocka_unit_test(test_walk_table),
        cmocka_unit_test(test_walk_short),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
