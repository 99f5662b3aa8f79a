/* Room-less padding (issue 14, item 2): padded plans on buffers that hold
 * exactly rows x cols elements, the padded tail in the plan's own buffer.
 * Every kernel family on a split region against its CPU reference; whole
 * plans bit-exact on every element size, primes, powers of two, skinny,
 * 1 x N, N x 1, offsets and sub-buffers, nothing written outside the
 * matrix; the choice of CLIPT_PADDING_NONE; a buffer one element short. */
#include "support.h"
#include "internal.h"
#include "stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* Whether the plan pads and keeps the padding in its tail: its buffer is
 * the matrix, its padded shape larger. */
static int is_roomless(clipt_plan p)
{
    clipt_plan_info info;
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    return info.padded_rows * info.padded_cols > info.rows * info.cols &&
           info.buffer_bytes == info.rows * info.cols * info.elem_size;
}

/* ---- every family on a split region ------------------------------------ */

typedef struct split_case {
    clipt_kernel_family family;
    clipt_stage_spec sp;
    unsigned tile_elems; /* tile_elems_010 if nonzero, else the entry's */
} split_case;

#define SPEC(op, inst, a, b, s, sa, sb) {op, "split", inst, a, b, s, sa, sb, 0}
static const split_case split_cases[] = {
    {CLIPT_FAMILY_TILE_LOCAL, SPEC(CLIPT_OP_TRANSPOSE_TILES, 7, 5, 9, 1, 0, 0), 0},
    /* batches of one tile: those before the split move as words of several
     * 1-, 2- and 4-byte elements (PACK, cl/transpose010.cl), the one
     * across it and those after element by element */
    {CLIPT_FAMILY_TILE_LOCAL, SPEC(CLIPT_OP_TRANSPOSE_TILES, 12, 6, 7, 1, 0, 0), 1},
    {CLIPT_FAMILY_TILE_CYCLES, SPEC(CLIPT_OP_TRANSPOSE_TILES, 3, 13, 11, 1, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SPEC(CLIPT_OP_MOVE_SUPER, 2, 9, 13, 3, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_SEGMENTS, SPEC(CLIPT_OP_MOVE_SUPER, 1, 31, 17, 1, 0, 0), 0},
    /* a third of the region is an instance's end: the GPU walk takes the
     * instances before the split with plain indexing, the rest with the
     * accessor (cl/shift100_segments.cl) */
    {CLIPT_FAMILY_SUPER_SEGMENTS, SPEC(CLIPT_OP_MOVE_SUPER, 3, 9, 13, 3, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_SLICES, SPEC(CLIPT_OP_MOVE_SUPER, 2, 11, 7, 4, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_SLICES, SPEC(CLIPT_OP_TRANSPOSE_TILES, 3, 9, 14, 1, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_LOCAL, SPEC(CLIPT_OP_MOVE_SUPER, 1, 5, 7, 5, 0, 0), 0},
    {CLIPT_FAMILY_SUPER_LOCAL, SPEC(CLIPT_OP_MOVE_SUPER, 1, 4, 6, 6, 2, 3), 0},
    {CLIPT_FAMILY_ROWS, SPEC(CLIPT_OP_PAD, 37, 29, 1, 1, 29, 32), 0},
    {CLIPT_FAMILY_ROWS, SPEC(CLIPT_OP_UNPAD, 41, 23, 1, 1, 25, 23), 0},
};

/* Whether the family has a CPU form (kernel_style 2, *_loops kernels). */
static int has_loops_form(clipt_kernel_family family)
{
    return family == CLIPT_FAMILY_TILE_LOCAL || family == CLIPT_FAMILY_SUPER_SEGMENTS ||
           family == CLIPT_FAMILY_ROWS;
}

/* The stage of sp as `family` under tuning t runs the CPU kernels exactly
 * when t asks for them and the family has them. */
static void expect_style(test_env *env, const clipt_stage_spec *sp,
                         clipt_kernel_family family, size_t elem, const clipt_tuning *t)
{
    clipt_stage st;
    const int want = clipt_tuning_loops(t) && has_loops_form(family);
    memset(&st, 0, sizeof st);
    assert_status(clipt_stage_prepare_as(env->ctx, sp, family, elem, t, &st), CLIPT_SUCCESS);
    if ((strstr(st.kernel_name, "_loops") != NULL) != want)
        fail_msg("family %d, kernel_style %u: kernel %s", (int)family, t->kernel_style,
                 st.kernel_name);
    clipt_stage_release(&st);
}

/* Each family computes its stage exactly with the region split at the
 * first element, a third, the middle and the last element, at offsets 0
 * and 3, for every element size, in both kernel styles (1: the GPU
 * kernels; 2: the CPU ones, PoCL's default, where the family has them);
 * and the guard after the split in the buffer stays as it was
 * (test_run_stage_split). */
static void test_split_stages(void **state)
{
    test_env *env = TEST_ENV(state);
    unsigned runs = 0;
    for (unsigned style = CLIPT_KERNEL_STYLE_GROUPS; style <= CLIPT_KERNEL_STYLE_LOOPS; style++)
    for (size_t i = 0; i < COUNT(split_cases); i++)
        for (size_t e = 0; e < COUNT(elem_sizes); e++) {
            const uint64_t region = test_stage_region(&split_cases[i].sp);
            const uint64_t splits[] = {1, region / 3, region / 2 + 1, region - 1};
            clipt_tuning t = env->ctx->profile.tuning;
            t.kernel_style = style;
            if (split_cases[i].tile_elems)
                t.tile_elems_010 = split_cases[i].tile_elems;
            for (size_t k = 0; k < COUNT(splits); k++) {
                clipt_stage_spec sp = split_cases[i].sp;
                const size_t offset = 3 * (k % 2);
                clipt_kernel_family used = CLIPT_FAMILY_AUTO;
                size_t bad = 0;
                clipt_status s;
                sp.split = splits[k];
                if (k == 0)
                    expect_style(env, &sp, split_cases[i].family, elem_sizes[e], &t);
                s = test_run_stage_split(env, &sp, split_cases[i].family, elem_sizes[e],
                                         offset, &t, &bad, &used);
                if (s != CLIPT_SUCCESS || bad || used != split_cases[i].family)
                    fail_msg("case %zu (family %d, op %d, %llu x %llu x %llu of %llu), "
                             "%zu-byte elements, kernel_style %u, split at %llu of %llu, "
                             "offset %zu: %s, %zu bytes wrong, family %d", i,
                             (int)split_cases[i].family, (int)sp.op,
                             (unsigned long long)sp.instances, (unsigned long long)sp.a,
                             (unsigned long long)sp.b, (unsigned long long)sp.s,
                             elem_sizes[e], style, (unsigned long long)sp.split,
                             (unsigned long long)region, offset, clipt_status_string(s),
                             bad, (int)used);
                runs++;
            }
        }
    assert_int_equal(runs, 2 * COUNT(split_cases) * COUNT(elem_sizes) * 4);
}

/* A split stage needs its tail: without one, setting its arguments fails
 * before anything is enqueued. */
static void test_split_needs_tail(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_stage_spec sp = split_cases[0].sp;
    clipt_stage st;
    cl_int err;
    cl_mem buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, 4096, NULL, &err);
    assert_status(err, CL_SUCCESS);
    sp.split = 10;
    assert_status(clipt_stage_prepare(env->ctx, &sp, 4, &env->ctx->profile.tuning, &st),
                  CLIPT_SUCCESS);
    assert_status(clipt_stage_set_args(&st, buf, 0, NULL, buf), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_stage_set_part_args(&st, 0, 1, buf, 0, NULL, buf),
                  CLIPT_ERROR_NULL_ARGUMENT);
    clipt_stage_release(&st);
    clReleaseMemObject(buf);
}

/* ---- whole plans ---------------------------------------------------------- */

typedef struct plan_shape {
    size_t rows, cols;
    size_t tile_m, tile_n;       /* forced (SCRATCH pads to their multiple) */
    clipt_sequence sequence;
} plan_shape;

static const plan_shape plan_shapes[] = {
    {97, 101, 0, 0, CLIPT_SEQUENCE_AUTO},     /* primes                      */
    {211, 307, 0, 0, CLIPT_SEQUENCE_AUTO},
    {1009, 127, 0, 0, CLIPT_SEQUENCE_AUTO},
    {127, 1009, 0, 0, CLIPT_SEQUENCE_AUTO},
    {512, 256, 0, 0, CLIPT_SEQUENCE_AUTO},    /* powers of two: no padding    */
    {256, 512, 30, 0, CLIPT_SEQUENCE_3_2},    /* ... padded by a forced tile   */
    {4099, 17, 0, 0, CLIPT_SEQUENCE_AUTO},    /* skinny                       */
    {17, 4099, 0, 0, CLIPT_SEQUENCE_AUTO},
    {2003, 3, 0, 0, CLIPT_SEQUENCE_AUTO},
    {1, 1000, 0, 0, CLIPT_SEQUENCE_AUTO},     /* vectors and a single element */
    {1000, 1, 0, 0, CLIPT_SEQUENCE_AUTO},
    {1, 1, 0, 0, CLIPT_SEQUENCE_AUTO},
    {97, 101, 10, 12, CLIPT_SEQUENCE_AUTO},   /* both sides padded             */
    {97, 101, 10, 12, CLIPT_SEQUENCE_1},
    {97, 101, 10, 0, CLIPT_SEQUENCE_2_1},
    {97, 101, 0, 12, CLIPT_SEQUENCE_2_2},
    {97, 101, 10, 12, CLIPT_SEQUENCE_3_1},
    {97, 101, 12, 10, CLIPT_SEQUENCE_3_2},
    {97, 101, 6, 8, CLIPT_SEQUENCE_4_1},
    {97, 101, 8, 6, CLIPT_SEQUENCE_4_2},
    {97, 101, 6, 4, CLIPT_SEQUENCE_4_3},
    {61, 83, 8, 9, CLIPT_SEQUENCE_AUTO},
};

/* Runs a plan made with `padding` and fails unless it is exact, wrote
 * nothing outside the matrix (test_run_transpose checks 64 bytes past
 * clipt_plan_buffer_size and everything before the offset) and needs a
 * buffer of exactly the matrix.  Returns whether it was room-less. */
static int run_exact_size(test_env *env, const plan_shape *sh, size_t elem, size_t offset,
                          clipt_padding padding, unsigned kernel_style)
{
    static char describe[16384];
    clipt_plan_options o;
    clipt_plan p = NULL;
    size_t bad = 0;
    clipt_status s;
    int roomless;
    clipt_plan_options_init(&o);
    o.padding = padding;
    o.tile_m = sh->tile_m;
    o.tile_n = sh->tile_n;
    o.sequence = sh->sequence;
    o.kernel_style = kernel_style;
    assert_status(clipt_plan_create(env->ctx, sh->rows, sh->cols, elem, &o, &p),
                  CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_buffer_size(p), sh->rows * sh->cols * elem);
    roomless = is_roomless(p);
    clipt_plan_release(p);
    describe[0] = '\0';
    s = test_run_transpose(env, sh->rows, sh->cols, elem, offset, &o, &bad, describe,
                           sizeof describe);
    if (s != CLIPT_SUCCESS || bad)
        fail_msg("%zu x %zu, %zu-byte elements at byte offset %zu, padding %d, "
                 "kernel_style %u: %s, %zu bytes wrong\n%s", sh->rows, sh->cols, elem,
                 offset, (int)padding, kernel_style, clipt_status_string(s), bad, describe);
    if (roomless && !strstr(describe, "padded tail"))
        fail_msg("describe does not state the padded tail:\n%s", describe);
    return roomless;
}

/* SCRATCH on every shape, element size and two offsets, in both kernel
 * styles (1: the GPU kernels; 2: the CPU ones, PoCL's default):
 * exact, and room-less wherever the plan pads (which the prime shapes and
 * the forced tiles make it do, for every element size). */
static void test_scratch_plans(void **state)
{
    test_env *env = TEST_ENV(state);
    for (unsigned style = CLIPT_KERNEL_STYLE_GROUPS; style <= CLIPT_KERNEL_STYLE_LOOPS;
         style++)
        for (size_t e = 0; e < COUNT(elem_sizes); e++) {
            unsigned roomless = 0;
            for (size_t i = 0; i < COUNT(plan_shapes); i++)
                roomless += (unsigned)run_exact_size(env, &plan_shapes[i], elem_sizes[e],
                                                     elem_sizes[e] * (i % 3),
                                                     CLIPT_PADDING_SCRATCH, style);
            /* the forced tiles alone pad 10 shapes (sequence 1 tiles
             * nothing, so its plan drops the padding) */
            if (roomless < 10)
                fail_msg("%zu-byte elements, kernel_style %u: only %u room-less plans",
                         elem_sizes[e], style, roomless);
        }
}

/* NONE (the plan's choice) on the automatic shapes: exact either way. */
static void test_none_plans(void **state)
{
    test_env *env = TEST_ENV(state);
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (size_t i = 0; i < COUNT(plan_shapes); i++)
            if (!plan_shapes[i].tile_m && !plan_shapes[i].tile_n)
                run_exact_size(env, &plan_shapes[i], elem_sizes[e], elem_sizes[e] * (i % 2),
                               CLIPT_PADDING_NONE, 0);
}

/* The steps a plan's segment walks read ahead (-DUNROLL of their build
 * options), every walk the same; -1 when the plan has none. */
static int walk_read_ahead(clipt_plan p)
{
    clipt_plan_info info;
    int ahead = -1;
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    for (unsigned k = 0; k < info.num_stages; k++) {
        clipt_stage_info st;
        const char *at;
        assert_status(clipt_plan_query_stage(p, k, &st), CLIPT_SUCCESS);
        if (st.family != CLIPT_FAMILY_SUPER_SEGMENTS)
            continue;
        at = strstr(st.build_options, "-DUNROLL=");
        assert_non_null(at);
        if (ahead >= 0 && atoi(at + 9) != ahead)
            fail_msg("walks of one plan read %d and %d steps ahead", ahead, atoi(at + 9));
        ahead = atoi(at + 9);
    }
    return ahead;
}

/* The GPU walks read walk_unroll steps ahead, but at most 8 on a split
 * region: its accessor holds more per step, and 16 made the H100's
 * exact-size fp64 plans 10 % slower (docs/performance.md, "Steps read
 * ahead"). */
static void test_split_walks_read_ahead(void **state)
{
    test_env *env = TEST_ENV(state);
    const unsigned unroll[] = {4, 16};
    for (size_t u = 0; u < COUNT(unroll); u++)
        for (int split = 0; split <= 1; split++) {
            clipt_plan_options o;
            clipt_plan p;
            int ahead;
            clipt_plan_options_init(&o);
            o.sequence = CLIPT_SEQUENCE_3_1;
            o.tile_m = 10; /* pads both sides: 100 x 108 */
            o.tile_n = 12;
            o.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
            o.walk_unroll = unroll[u];
            o.padding = split ? CLIPT_PADDING_SCRATCH : CLIPT_PADDING_AUTO;
            assert_status(clipt_plan_create(env->ctx, 97, 101, 4, &o, &p), CLIPT_SUCCESS);
            assert_int_equal(is_roomless(p), split);
            ahead = walk_read_ahead(p);
            if (ahead != (int)(split && unroll[u] > 8 ? 8 : unroll[u]))
                fail_msg("walk_unroll %u, %s: %d steps ahead", unroll[u],
                         split ? "room-less" : "with room", ahead);
            clipt_plan_release(p);
        }
}

/* A room-less plan on a sub-buffer at an offset: the parent's bytes
 * outside the matrix stay as they were. */
static void test_sub_buffer(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o;
    clipt_plan p;
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_SCRATCH;
    o.tile_m = 10; /* pads rows and cols: 100 x 102 */
    o.tile_n = 6;
    o.sequence = CLIPT_SEQUENCE_3_2;
    assert_status(clipt_plan_create(env->ctx, 97, 101, 8, &o, &p), CLIPT_SUCCESS);
    assert_true(is_roomless(p));
    clipt_plan_release(p);
    test_run_on_sub_buffer(env, 97, 101, 8, 24, &o, 5);
}

/* A room-less plan refuses a buffer one element short of the matrix and
 * leaves it untouched. */
static void test_buffer_short(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t rows = 97, cols = 101, elem = 4, bytes = rows * cols * elem - elem;
    unsigned char *before;
    clipt_plan_options o;
    clipt_plan p;
    cl_event done = NULL;
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 3, &before);
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_SCRATCH;
    o.tile_m = 10;
    assert_status(clipt_plan_create(env->ctx, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    assert_true(is_roomless(p));
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, &done),
                  CLIPT_ERROR_BUFFER_TOO_SMALL);
    assert_null(done);
    test_expect_buffer(env, buf, before, bytes, "refused room-less enqueue");
    clipt_plan_release(p);
    clReleaseMemObject(buf);
    free(before);
}

/* The scratch query counts the tail: a room-less plan reports at least
 * the padded elements past the matrix more than the same plan with room. */
static void test_scratch_counts_tail(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o;
    clipt_plan with_room, roomless;
    clipt_plan_info info;
    clipt_plan_options_init(&o);
    o.tile_m = 10;
    o.tile_n = 12;
    o.sequence = CLIPT_SEQUENCE_3_1; /* tiles both sides: both padded */
    assert_status(clipt_plan_create(env->ctx, 97, 101, 4, &o, &with_room), CLIPT_SUCCESS);
    o.padding = CLIPT_PADDING_SCRATCH;
    assert_status(clipt_plan_create(env->ctx, 97, 101, 4, &o, &roomless), CLIPT_SUCCESS);
    assert_status(clipt_plan_query(roomless, &info), CLIPT_SUCCESS);
    assert_int_equal(info.padded_rows, 100);
    assert_int_equal(info.padded_cols, 108);
    assert_int_equal(clipt_plan_buffer_size(with_room), 100 * 108 * 4);
    assert_int_equal(clipt_plan_buffer_size(roomless), 97 * 101 * 4);
    assert_int_equal(info.scratch_bytes, clipt_plan_scratch_size(roomless));
    assert_true(clipt_plan_scratch_size(roomless) >=
                clipt_plan_scratch_size(with_room) + (100 * 108 - 97 * 101) * 4);
    clipt_plan_release(with_room);
    clipt_plan_release(roomless);
}

/* NONE never moves single elements along cycles on shapes with both sides
 * of at least 1000 (issue 14's PoCL target): where the unpadded factors
 * would, it pads in its tail.  And the one-shot call, whose plan is NONE's,
 * transposes such a shape exactly in an exact-size buffer. */
static void test_none_avoids_single_elements(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t shapes[][2] = {{20011, 10007}, {16067, 15965}, {5374, 8407},
                                       {2003, 1009},   {1009, 2003},   {10007, 1013}};
    unsigned roomless = 0;
    for (size_t i = 0; i < COUNT(shapes); i++) {
        clipt_plan_options o;
        clipt_plan p;
        clipt_plan_info info;
        clipt_plan_options_init(&o);
        o.padding = CLIPT_PADDING_NONE;
        assert_status(clipt_plan_create(env->ctx, shapes[i][0], shapes[i][1], 4, &o, &p),
                      CLIPT_SUCCESS);
        assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
        assert_int_equal(info.buffer_bytes, shapes[i][0] * shapes[i][1] * 4);
        for (unsigned k = 0; k < info.num_stages; k++) {
            clipt_stage_info st;
            assert_status(clipt_plan_query_stage(p, k, &st), CLIPT_SUCCESS);
            if (st.op == CLIPT_OP_MOVE_SUPER && st.s == 1)
                fail_msg("%zu x %zu: stage %u moves single elements", shapes[i][0],
                         shapes[i][1], k + 1);
        }
        roomless += (unsigned)is_roomless(p);
        clipt_plan_release(p);
    }
    assert_true(roomless > 0);
    {
        const size_t rows = 2003, cols = 1009, bytes = rows * cols * 4;
        unsigned char *before, *want = malloc(bytes + 64);
        cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes + 64, 11, &before);
        assert_non_null(want);
        memcpy(want, before, bytes + 64);
        test_reference_transpose(before, want, rows, cols, 4);
        assert_status(clipt_transpose(env->cl.queue, buf, 0, rows, cols, 4), CLIPT_SUCCESS);
        test_expect_buffer(env, buf, want, bytes + 64, "clipt_transpose, exact size");
        clReleaseMemObject(buf);
        free(before);
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_needs_tail),
        cmocka_unit_test(test_scratch_counts_tail),
        cmocka_unit_test(test_buffer_short),
        cmocka_unit_test(test_sub_buffer),
        cmocka_unit_test(test_split_walks_read_ahead),
        cmocka_unit_test(test_none_avoids_single_elements),
        cmocka_unit_test(test_split_stages),
        cmocka_unit_test(test_scratch_plans),
        cmocka_unit_test(test_none_plans),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
