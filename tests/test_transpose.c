/* Whole plans, bit-exact against the CPU reference: every sequence, forced
 * tiles and options, GPU-like local memory, random shapes; describe,
 * tuning overrides and the one-shot call.  The enqueue contract (queues,
 * threads, release, profiles of runs) is test_enqueue_contract.c. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "plan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Element sizes are distinct bits: a shape's `elems` mask lists its sizes. */
#define ALL_ELEMS (1 | 2 | 4 | 8 | 16)
static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static const clipt_sequence three_stage[] = {
    CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2};
static const clipt_sequence every_sequence[] = {
    CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1,
    CLIPT_SEQUENCE_2_2,  CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2,
    CLIPT_SEQUENCE_4_1,  CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};
static const clipt_sequence other_sequences[] = {
    CLIPT_SEQUENCE_1,   CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2,
    CLIPT_SEQUENCE_4_1, CLIPT_SEQUENCE_4_2, CLIPT_SEQUENCE_4_3};

typedef struct shape {
    size_t rows, cols;
    unsigned elems;
} shape;

static const char *sequence_text(clipt_sequence s)
{
    return s == CLIPT_SEQUENCE_AUTO ? "AUTO" : clipt_sequence_name(s);
}

/* Runs one case and fails, with the plan's description, unless exact. */
static void run_case(test_env *env, size_t rows, size_t cols, size_t elem,
                     size_t offset, const clipt_plan_options *opts)
{
    static char describe[16384];
    size_t bad = 0;
    clipt_status s;
    describe[0] = '\0';
    if (getenv("CLIPT_TEST_VERBOSE"))
        print_message("%zu x %zu, %zu-byte elements at %zu, sequence %s\n", rows, cols,
                      elem, offset,
                      sequence_text(opts ? opts->sequence : CLIPT_SEQUENCE_AUTO));
    s = test_run_transpose(env, rows, cols, elem, offset, opts, &bad, describe,
                           sizeof describe);
    if (s != CLIPT_SUCCESS || bad != 0)
        fail_msg("%zu x %zu, %zu-byte elements at byte offset %zu, sequence %s: "
                 "%s, %zu bytes wrong\n%s", rows, cols, elem, offset,
                 sequence_text(opts ? opts->sequence : CLIPT_SEQUENCE_AUTO),
                 clipt_status_string(s), bad, describe);
}

static void run_sequence(test_env *env, size_t rows, size_t cols, size_t elem,
                         size_t offset, clipt_sequence seq)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    run_case(env, rows, cols, elem, offset, &o);
}

/* Every listed element size of `sh` with each sequence of `seqs`; the
 * offset changes with the sequence so that each size runs at several. */
static void run_shape(test_env *env, const shape *sh, const clipt_sequence *seqs,
                      size_t nseqs)
{
    for (size_t e = 0; e < COUNT(elem_sizes); e++) {
        if (!(sh->elems & elem_sizes[e]))
            continue;
        for (size_t q = 0; q < nseqs; q++)
            run_sequence(env, sh->rows, sh->cols, elem_sizes[e],
                         elem_sizes[e] * ((q * 7 + e) % 5), seqs[q]);
    }
}

/* ---- shapes ------------------------------------------------------------------ */

static const shape small_shapes[] = {
    {1, 1, ALL_ELEMS},   {1, 7, ALL_ELEMS},    {7, 1, ALL_ELEMS},
    {2, 3, ALL_ELEMS},   {5, 3, ALL_ELEMS},    {3, 5, ALL_ELEMS},
    {64, 64, ALL_ELEMS}, {97, 89, ALL_ELEMS},  {17, 4099, ALL_ELEMS},
    {4099, 17, ALL_ELEMS}};

/* The big shapes take a few element sizes each: every size still runs on
 * several shapes, and the suite stays quick on a small CPU. */
static const shape big_shapes[] = {
    {1000, 999, 1 | 4 | 16}, {256, 4096, 2 | 8}, {4096, 256, 1 | 4},
    {1800, 7200, 1 | 4},     {7200, 1800, 2 | 8}};

static void test_small_shapes(void **state)
{
    for (size_t i = 0; i < COUNT(small_shapes); i++)
        run_shape(TEST_ENV(state), &small_shapes[i], three_stage, COUNT(three_stage));
}

static void test_big_shapes(void **state)
{
    for (size_t i = 0; i < COUNT(big_shapes); i++)
        run_shape(TEST_ENV(state), &big_shapes[i], three_stage, COUNT(three_stage));
}

/* 50 random shapes up to 2000 x 2000 (fixed seed), each element size in
 * turn, at varying offsets, by AUTO, 3.1 and 3.2. */
static void test_random_shapes(void **state)
{
    uint64_t seed = 20161;
    for (size_t i = 0; i < 50; i++) {
        size_t rows = test_rand_range(&seed, 1, 2000);
        size_t cols = test_rand_range(&seed, 1, 2000);
        size_t elem = elem_sizes[i % COUNT(elem_sizes)];
        for (size_t q = 0; q < COUNT(three_stage); q++)
            run_sequence(TEST_ENV(state), rows, cols, elem, elem * ((i + q) % 4),
                         three_stage[q]);
    }
}

static const shape sequence_shapes[] = {
    {2, 3, ALL_ELEMS},     {5, 3, ALL_ELEMS},     {64, 64, ALL_ELEMS},
    {97, 89, ALL_ELEMS},   {120, 200, 1 | 4 | 16}, {333, 64, 2 | 8},
    {17, 4099, 1 | 8},     {640, 480, 4}};

/* Sequences 1, 2.1, 2.2, 4.1, 4.2 and 4.3 forced. */
static void test_other_sequences(void **state)
{
    for (size_t i = 0; i < COUNT(sequence_shapes); i++)
        run_shape(TEST_ENV(state), &sequence_shapes[i], other_sequences,
                  COUNT(other_sequences));
}

/* With the local memory of a GPU (48 KiB), plans tile, pad and fall back
 * as they would there: every sequence on shapes that then need it. */
static void test_gpu_like_local_memory(void **state)
{
    static const shape shapes[] = {
        {97, 89, 4 | 16},     {1000, 999, 1 | 8}, {17, 4099, 2},
        {4099, 17, 4},        {256, 4096, 4},     {1201, 1103, 16},
        {700, 1500, 1}};
    test_env gpu = *TEST_ENV(state);
    gpu.ctx = test_context_limited(TEST_ENV(state), 48 * 1024);
    for (size_t i = 0; i < COUNT(shapes); i++)
        run_shape(&gpu, &shapes[i], every_sequence, COUNT(every_sequence));
    clipt_context_release(gpu.ctx);
}

/* Tile rules, padding policy, forced factors, tuning overrides and the
 * algorithm. */
static void test_plan_options(void **state)
{
    static const shape shapes[] = {{360, 840, 4}, {1000, 999, 2}, {97, 4099, 8}};
    clipt_plan_options o[11];
    for (size_t k = 0; k < COUNT(o); k++)
        clipt_plan_options_init(&o[k]);
    o[0].tile_rule = CLIPT_TILE_RULE_ALG1;
    o[1].tile_rule = CLIPT_TILE_RULE_ALG2;
    o[2].padding = CLIPT_PADDING_NONE;
    o[3].min_super = 2;
    o[4].tile_m = 1; /* the factor of rows pinned, the other chosen */
    o[4].sequence = CLIPT_SEQUENCE_3_2;
    o[5].wg_010 = 3;
    o[5].wg_100 = 5;
    o[5].sequence = CLIPT_SEQUENCE_3_1;
    o[6].simd_100 = 2;
    o[6].wg_100 = 6;
    o[6].sequence = CLIPT_SEQUENCE_4_3;
    o[7].pttwac_spread = 32;
    o[7].pttwac_pad = 5;
    o[7].tile_rule = CLIPT_TILE_RULE_ALG5;
    o[8].tile_n = 1;
    o[8].sequence = CLIPT_SEQUENCE_4_1;
    o[9].algorithm = CLIPT_ALGORITHM_C2R;
    o[10].algorithm = CLIPT_ALGORITHM_TPDS;
    o[10].padding = CLIPT_PADDING_NONE;
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t k = 0; k < COUNT(o); k++)
            run_case(TEST_ENV(state), shapes[i].rows, shapes[i].cols,
                     shapes[i].elems, shapes[i].elems * k, &o[k]);
}

/* Forced factors that divide the dimensions, sequence by sequence. */
static void test_forced_tiles(void **state)
{
    static const size_t tiles[][2] = {{8, 12}, {96, 1}, {1, 120}, {3, 5}, {96, 120}};
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    for (size_t t = 0; t < COUNT(tiles); t++)
        for (size_t q = 0; q < COUNT(every_sequence); q++) {
            o.tile_m = tiles[t][0];
            o.tile_n = tiles[t][1];
            o.sequence = every_sequence[q];
            run_case(TEST_ENV(state), 96, 120, elem_sizes[(t + q) % 5], 0, &o);
        }
}

/* ---- describe, profile, one-shot ------------------------------------------------ */

static void expect_text(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("plan description lacks \"%s\":\n%s", want, text);
}

static void test_describe(void **state)
{
    static const char *const wanted[] = {
        "96 x 120", "4-byte", "sequence: 3.2", "m=8", "n=12",
        "padded shape: 96 x 120", "stage 1: move blocks along cycles (0100!), kernel",
        "stage 2: tile transpose in local memory (0010!), kernel",
        "stage 3: move blocks along cycles (100!), kernel"};
    char text[8192];
    clipt_plan p;
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_2;
    o.tile_m = 8;
    o.tile_n = 12;
    assert_status(clipt_plan_create(TEST_ENV(state)->ctx, 96, 120, 4, &o, &p),
                  CLIPT_SUCCESS);
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    for (size_t i = 0; i < COUNT(wanted); i++)
        expect_text(text, wanted[i]);
    if (strstr(text, "stage 4:"))
        fail_msg("sequence 3.2 has three stages here:\n%s", text);
    clipt_plan_release(p);
}

/* The first of a few prime-sided candidates that the plan pads. */
static clipt_plan padded_plan(test_env *env)
{
    static const struct { size_t rows, cols; clipt_sequence seq; } candidates[] = {
        {17, 4099, CLIPT_SEQUENCE_3_1}, {4099, 4099, CLIPT_SEQUENCE_3_2},
        {4099, 17, CLIPT_SEQUENCE_3_2}, {1201, 1103, CLIPT_SEQUENCE_AUTO},
        {9973, 9967, CLIPT_SEQUENCE_3_1}};
    for (size_t i = 0; i < COUNT(candidates); i++) {
        clipt_plan p;
        clipt_plan_options o;
        clipt_plan_options_init(&o);
        o.sequence = candidates[i].seq;
        assert_status(clipt_plan_create(env->ctx, candidates[i].rows,
                                        candidates[i].cols, 1, &o, &p), CLIPT_SUCCESS);
        if (p->choice.prows != p->rows || p->choice.pcols != p->cols)
            return p;
        clipt_plan_release(p);
    }
    return NULL;
}

/* describe shows the padded shape, and the pad (extra columns) and unpad
 * (extra rows) stages around the sequence when they are needed. */
static void test_describe_padding(void **state)
{
    char text[8192], want[128];
    clipt_plan p = padded_plan(TEST_ENV(state));
    if (!p) {
        print_message("skipped: no candidate shape is padded on this device\n");
        skip();
    }
    assert_status(clipt_plan_describe(p, text, sizeof text), CLIPT_SUCCESS);
    snprintf(want, sizeof want, "shape: %zu x %zu", p->rows, p->cols);
    expect_text(text, want);
    snprintf(want, sizeof want, "padded shape: %zu x %zu\n", p->choice.prows, p->choice.pcols);
    expect_text(text, want);
    if (p->choice.pcols != p->cols)
        expect_text(text, "stage 1: spread rows apart for the padding (pad), kernel");
    if (p->choice.prows != p->rows)
        expect_text(text, ": squeeze the padding out (unpad), kernel");
    assert_int_equal(clipt_plan_buffer_size(p), p->choice.prows * p->choice.pcols);
    clipt_plan_release(p);
}

/* clipt_transpose needs no room beyond rows*cols*elem_size, even where a
 * plan would pad. */
static void test_one_shot(void **state)
{
    static const size_t cases[][4] = { /* rows, cols, elem, offset */
        {4099, 17, 4, 8}, {64, 64, 16, 0}, {1, 9, 2, 2}, {300, 200, 1, 5}};
    test_env *env = TEST_ENV(state);
    for (size_t i = 0; i < COUNT(cases); i++) {
        const size_t rows = cases[i][0], cols = cases[i][1], elem = cases[i][2];
        const size_t offset = cases[i][3], total = offset + rows * cols * elem;
        unsigned char *before, *want = malloc(total);
        cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, total, i, &before);
        assert_non_null(want);
        memcpy(want, before, total);
        test_reference_transpose(before + offset, want + offset, rows, cols, elem);
        assert_status(clipt_transpose(env->cl.queue, buf, offset, rows, cols, elem),
                      CLIPT_SUCCESS);
        test_expect_buffer(env, buf, want, total, "clipt_transpose");
        clReleaseMemObject(buf);
        free(before);
        free(want);
    }
}

/* Regression: pad_rows hung on PoCL 3.1 with work-groups of 2..15
 * work-items while its barriers sat in both branches of an if/else. */
static void test_pad_small_work_group(void **state)
{
    clipt_plan_options o;
    size_t bad = 0;
    clipt_plan_options_init(&o);
    o.wg_010 = 3;
    o.sequence = CLIPT_SEQUENCE_3_1;
    assert_status(test_run_transpose(TEST_ENV(state), 97, 4099, 8, 0, &o, &bad, NULL, 0),
                  CLIPT_SUCCESS);
    assert_int_equal(bad, 0);
}

/* Both kernel styles (kernel_style 1: work-groups with local memory and
 * barriers, the GPU kernels; 2: one work-item per group running loops, the
 * CPU kernels) forced on every sequence, element size and padding. */
static void test_kernel_styles(void **state)
{
    static const shape shapes[] = {
        {1, 1, ALL_ELEMS},  {1, 7, ALL_ELEMS},    {7, 1, ALL_ELEMS},
        {5, 3, ALL_ELEMS},  {97, 89, ALL_ELEMS},  {64, 64, ALL_ELEMS},
        {17, 4099, 1 | 8},  {4099, 17, 2 | 16},   {333, 64, 4}};
    /* forced tiles that do not divide: columns padded (61 -> 64: pad and
     * unpad kernels), rows padded (101 -> 112, 1001 -> 1008: unpad) */
    static const struct { size_t rows, cols, tile_m, tile_n; clipt_sequence seq; } padded[] = {
        {64, 61, 16, 8, CLIPT_SEQUENCE_3_1}, {64, 61, 8, 16, CLIPT_SEQUENCE_2_2},
        {61, 64, 8, 16, CLIPT_SEQUENCE_3_1}, {101, 64, 16, 8, CLIPT_SEQUENCE_AUTO},
        {1001, 37, 8, 37, CLIPT_SEQUENCE_AUTO}};
    for (unsigned style = 1; style <= 2; style++) {
        for (size_t i = 0; i < COUNT(shapes); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++) {
                if (!(shapes[i].elems & elem_sizes[e]))
                    continue;
                for (size_t q = 0; q < COUNT(every_sequence); q++) {
                    clipt_plan_options o;
                    clipt_plan_options_init(&o);
                    o.sequence = every_sequence[q];
                    o.kernel_style = style;
                    run_case(TEST_ENV(state), shapes[i].rows, shapes[i].cols,
                             elem_sizes[e], elem_sizes[e] * ((q + e) % 3), &o);
                }
            }
        for (size_t i = 0; i < COUNT(padded); i++)
            for (size_t e = 0; e < COUNT(elem_sizes); e++) {
                clipt_plan_options o;
                clipt_plan_options_init(&o);
                o.kernel_style = style;
                o.tile_m = padded[i].tile_m;
                o.tile_n = padded[i].tile_n;
                o.sequence = padded[i].seq;
                run_case(TEST_ENV(state), padded[i].rows, padded[i].cols, elem_sizes[e],
                         elem_sizes[e] * (e % 2), &o);
            }
    }
}

/* Regression: clipt_plan_options.groups_100 was accepted but not applied. */
static void test_groups_100_applied(void **state)
{
    clipt_plan_options o;
    clipt_plan p;
    unsigned checked = 0;
    clipt_plan_options_init(&o);
    o.groups_100 = 1;
    o.sequence = CLIPT_SEQUENCE_3_2;
    o.tile_m = o.tile_n = 16;
    assert_status(clipt_plan_create(TEST_ENV(state)->ctx, 256, 256, 4, &o, &p), CLIPT_SUCCESS);
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].spec.op == CLIPT_OP_MOVE_SUPER) {
            checked++;
            if (p->stages[i].global != p->stages[i].local)
                fail_msg("stage %u (%s) launches %zu work-groups, groups_100 is 1", i + 1,
                         p->stages[i].spec.label,
                         p->stages[i].global / p->stages[i].local);
        }
    assert_true(checked > 0);
    clipt_plan_release(p);
}

/* Every tuning field can be set by name, shows in the description and
 * changes what the stages are built with; the results stay bit-exact. */
static void test_tuning_overrides(void **state)
{
    static const struct {
        const char *name;
        unsigned value;
        const char *in_stage; /* text the stage lines must then contain */
    } cases[] = {
        {"walk_unroll", 1, "-DUNROLL=1 "},
        {"walk_unroll", 16, "-DUNROLL=16 "},
        {"walk_item_bytes", 4, "-DQ=2 "}, /* widened to 8 bytes */
        {"walk_item_bytes", 64, "-DQ=16 "},
        {"tile_elems_010", 1, "transpose010_"},
        {"groups_per_cu_010", 1, "transpose010_"},
        {"kernel_style", 1, "transpose010_bs"},
        {"kernel_style", 2, "transpose010_loops"},
        {"groups_per_cu_100", 1, "walk_segments"},
        /* no widening: Algorithm 5 keeps 24 (the default widens to 120) */
        {"skinny_super", 8, "blocks of 24 elements (super-elements)"},
        {"min_super", 4, "walk_segments"},
        {"align_bytes", 32, "aligned ones preferred"},
        {"wide_bytes", 8, "widened: moved as 8-byte words (ulong, 2 elements each)"},
    };
    static const shape shapes[] = {{384, 512, 4}, {32, 6000, 4}};
    char text[8192], want[64];
    /* GPU-sized local memory, so that plans have 100! and tiled stages */
    test_env gpu = *TEST_ENV(state);
    gpu.ctx = test_context_limited(TEST_ENV(state), 48 * 1024);
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_plan_options o;
        size_t mismatch = 1;
        const shape *sh = &shapes[strcmp(cases[i].name, "skinny_super") == 0];
        clipt_plan_options_init(&o);
        /* Algorithm 5's tiles, whose reasons and stages the cases name */
        o.tile_rule = CLIPT_TILE_RULE_ALG5;
        /* the GPU kernels, whose build options the walk cases name (the
         * kernel_style cases set their own) */
        o.kernel_style = 1;
        /* the walk cases name the step on the 4-byte elements, unwidened */
        if (strcmp(cases[i].name, "walk_item_bytes") == 0)
            o.wide_bytes = 1;
        assert_status(clipt_plan_options_set_tuning(&o, cases[i].name, cases[i].value),
                      CLIPT_SUCCESS);
        assert_status(test_run_transpose(&gpu, sh->rows, sh->cols, sh->elems, 0,
                                         &o, &mismatch, text, sizeof text),
                      CLIPT_SUCCESS);
        if (mismatch)
            fail_msg("%s=%u: %zu bytes differ", cases[i].name, cases[i].value, mismatch);
        snprintf(want, sizeof want, "[option %s=%u]", cases[i].name, cases[i].value);
        if (!strstr(text, want) || !strstr(text, cases[i].in_stage))
            fail_msg("%s=%u: description lacks '%s' or '%s':\n%s", cases[i].name,
                     cases[i].value, want, cases[i].in_stage, text);
    }
    {
        clipt_plan_options o;
        clipt_plan_options_init(&o);
        assert_status(clipt_plan_options_set_tuning(&o, "no_such_field", 1),
                      CLIPT_ERROR_INVALID_OPTION);
        assert_status(clipt_plan_options_set_tuning(NULL, "walk_unroll", 1),
                      CLIPT_ERROR_NULL_ARGUMENT);
        assert_status(clipt_plan_options_set_tuning(&o, NULL, 1), CLIPT_ERROR_NULL_ARGUMENT);
    }
    clipt_context_release(gpu.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_groups_100_applied),
        cmocka_unit_test(test_tuning_overrides),
        cmocka_unit_test(test_kernel_styles),
        cmocka_unit_test(test_pad_small_work_group),
        cmocka_unit_test(test_describe_padding),
        cmocka_unit_test(test_one_shot),
        cmocka_unit_test(test_small_shapes),
        cmocka_unit_test(test_other_sequences),
        cmocka_unit_test(test_forced_tiles),
        cmocka_unit_test(test_plan_options),
        cmocka_unit_test(test_gpu_like_local_memory),
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_big_shapes),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
