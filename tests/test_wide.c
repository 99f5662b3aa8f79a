/* Stage-level widening (spec.c's clipt_spec_wide_bytes): which stages
 * widen and to what; widened stages bit-exact against the CPU reference for
 * every element size, super-elements that widen and that do not, pad and
 * unpad rows, split (room-less) regions; the refusal of an offset that is
 * not a multiple of the word; whole plans at aligned and odd offsets (the
 * unwidened twin), padded, room-less and forced sequences. */
#include "support.h"
#include "internal.h"
#include "stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static clipt_stage_spec move(uint64_t instances, uint64_t a, uint64_t b, uint64_t s)
{
    clipt_stage_spec sp = {CLIPT_OP_MOVE_SUPER, "test", instances, a, b, s, 0, 0, 0};
    return sp;
}

static clipt_stage_spec rows(clipt_stage_op op, uint64_t n, uint64_t width, uint64_t pitch)
{
    clipt_stage_spec sp = {op, "test", n, width, 1, 1, op == CLIPT_OP_PAD ? width : pitch,
                           op == CLIPT_OP_PAD ? pitch : width, 0};
    return sp;
}

/* ---- which stages widen (host only) ---------------------------------------- */

static void test_wide_bytes(void **state)
{
    (void)state;
    clipt_stage_spec sp = move(1, 5, 7, 37);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 1);  /* 37 bytes: odd */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 4, 16), 4);  /* 148 = 4 * 37 */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 8, 16), 8);  /* 296 = 8 * 37 */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 16, 16), 16);
    sp.s = 64;
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 16);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 8), 8);   /* tuning's cap */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 1), 1);   /* off */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 2, 4), 4);
    sp.s = 6;
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 2);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 2, 16), 4);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 4, 16), 8);
    sp.s = 4;
    sp.split = 1000 + 2; /* the tail starts 2 elements into a unit */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 2);
    sp.split = 0;
    sp.sa = sp.sb = 2; /* the fused form transposes inside: never */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 1);
    sp = move(1, 1, 9, 64); /* an identity */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 1);
    clipt_stage_spec t = {CLIPT_OP_TRANSPOSE_TILES, "t", 3, 32, 32, 1, 0, 0, 0};
    assert_int_equal(clipt_spec_wide_bytes(&t, 1, 16), 1);
    sp = rows(CLIPT_OP_PAD, 10, 96, 128); /* gcd 32 */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 16);
    sp = rows(CLIPT_OP_UNPAD, 10, 1001, 1024);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 1);
    sp = rows(CLIPT_OP_UNPAD, 10, 1002, 1024); /* gcd 2 */
    assert_int_equal(clipt_spec_wide_bytes(&sp, 1, 16), 2);
    assert_int_equal(clipt_spec_wide_bytes(&sp, 4, 16), 8);
    /* widened and back: the same spec */
    sp = move(3, 4, 5, 48);
    sp.split = 96;
    const clipt_stage_spec w = clipt_spec_widened(&sp, 16), n = clipt_spec_narrowed(&w, 16);
    assert_int_equal(w.s, 3);
    assert_int_equal(w.split, 6);
    /* field by field: the struct's padding bytes after `op` are not part
     * of its value (under ASan they differ) */
    assert_int_equal(n.op, sp.op);
    assert_ptr_equal(n.label, sp.label);
    assert_int_equal(n.instances, sp.instances);
    assert_int_equal(n.a, sp.a);
    assert_int_equal(n.b, sp.b);
    assert_int_equal(n.s, sp.s);
    assert_int_equal(n.sa, sp.sa);
    assert_int_equal(n.sb, sp.sb);
    assert_int_equal(n.split, sp.split);
}

/* ---- single stages, widened ---------------------------------------------- */

/* Prepares sp (the library's family) and checks the word it chose. */
static void expect_word(test_env *env, const clipt_stage_spec *sp, size_t elem, size_t want)
{
    clipt_stage st;
    assert_int_equal(clipt_stage_prepare(env->ctx, sp, elem, &env->ctx->profile.tuning, &st),
                     CLIPT_SUCCESS);
    if (st.elem != want)
        fail_msg("op %d s=%llu a=%llu sa=%llu sb=%llu, %zu-byte elements: word %zu, want %zu",
                 sp->op, (unsigned long long)sp->s, (unsigned long long)sp->a,
                 (unsigned long long)sp->sa, (unsigned long long)sp->sb, elem, st.elem, want);
    clipt_stage_release(&st);
}

/* The stage bit-exact with the device's kernels and with the GPU ones
 * (kernel_style 1: work-groups, one element or word per work-item). */
static void run_exact(test_env *env, const clipt_stage_spec *sp, clipt_kernel_family family,
                      size_t elem, size_t offset)
{
    clipt_tuning t[2] = {env->ctx->profile.tuning, env->ctx->profile.tuning};
    t[1].kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    for (size_t k = 0; k < COUNT(t); k++) {
        size_t bad = 0;
        const clipt_status s =
            sp->split ? test_run_stage_split(env, sp, family, elem, offset, &t[k], &bad, NULL)
                      : test_run_stage_as(env, sp, family, elem, offset, &t[k], &bad, NULL);
        if (s != CLIPT_SUCCESS || bad)
            fail_msg("op %d %llu x (%llu x %llu) s=%llu split %llu, %zu-byte elements at %zu, "
                     "kernel_style %u: %s, %zu bytes wrong",
                     sp->op, (unsigned long long)sp->instances, (unsigned long long)sp->a,
                     (unsigned long long)sp->b, (unsigned long long)sp->s,
                     (unsigned long long)sp->split, elem, offset, t[k].kernel_style,
                     clipt_status_string(s), bad);
    }
}

static const uint64_t supers[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 37, 64, 100, 128};

static void test_moves(void **state)
{
    test_env *env = TEST_ENV(state);
    static const uint64_t shapes[][3] = {{1, 5, 7}, {3, 27, 40}, {2, 64, 3}, {1, 13, 17}};
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (size_t k = 0; k < COUNT(supers); k++)
            for (size_t h = 0; h < COUNT(shapes); h++) {
                const clipt_stage_spec sp = move(shapes[h][0], shapes[h][1], shapes[h][2],
                                                 supers[k]);
                const size_t elem = elem_sizes[e];
                expect_word(env, &sp, elem, clipt_spec_wide_bytes(&sp, elem, 16));
                run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem, 0);
                run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem, 1); /* odd: unwidened */
                run_exact(env, &sp, CLIPT_FAMILY_SUPER_SLICES, elem, 16);
                if (h == 1)
                    run_exact(env, &sp, CLIPT_FAMILY_SUPER_LOCAL, elem, 0);
            }
    /* the chosen words for a few known cases */
    const clipt_stage_spec s37 = move(1, 5, 7, 37), s64 = move(1, 5, 7, 64);
    expect_word(env, &s37, 1, 1);
    expect_word(env, &s37, 4, 4);
    expect_word(env, &s64, 1, 16);
    expect_word(env, &s64, 2, 16);
}

static void test_split_moves(void **state)
{
    test_env *env = TEST_ENV(state);
    for (size_t e = 0; e < COUNT(elem_sizes); e++) {
        clipt_stage_spec sp = move(2, 9, 11, 32);
        sp.split = 2 * 9 * 11 * 32 - 5 * 32; /* the last 5 units in the tail */
        run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem_sizes[e], 0);
        sp.split += 3; /* mid-unit: narrower words or none */
        expect_word(env, &sp, elem_sizes[e], clipt_spec_wide_bytes(&sp, elem_sizes[e], 16));
        run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem_sizes[e], 0);
    }
}

static void test_rows(void **state)
{
    test_env *env = TEST_ENV(state);
    static const uint64_t cases[][3] = {{7, 96, 128}, {30, 64, 80}, {5, 1002, 1024},
                                        {9, 1001, 1024}, {3, 4, 8}, {1000, 48, 64}};
    for (size_t e = 0; e < COUNT(elem_sizes); e++)
        for (size_t i = 0; i < COUNT(cases); i++)
            for (int op = CLIPT_OP_PAD; op <= CLIPT_OP_UNPAD; op++) {
                const clipt_stage_spec sp =
                    rows((clipt_stage_op)op, cases[i][0], cases[i][1], cases[i][2]);
                expect_word(env, &sp, elem_sizes[e], clipt_spec_wide_bytes(&sp, elem_sizes[e], 16));
                run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem_sizes[e], 0);
                run_exact(env, &sp, CLIPT_FAMILY_AUTO, elem_sizes[e], 3);
            }
}

/* A widened stage refuses an offset its words cannot express; the same
 * stage unwidened takes it. */
static void test_refused_offset(void **state)
{
    test_env *env = TEST_ENV(state);
    const clipt_stage_spec sp = move(1, 5, 7, 64);
    clipt_stage st;
    cl_int err;
    cl_mem buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem scratch = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, 4096, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clipt_stage_prepare(env->ctx, &sp, 1, &env->ctx->profile.tuning, &st),
                     CLIPT_SUCCESS);
    assert_int_equal(st.elem, 16);
    assert_int_equal(clipt_stage_set_args(&st, buf, 8, NULL, scratch),
                     CLIPT_ERROR_MISALIGNED_OFFSET);
    assert_int_equal(clipt_stage_set_part_args(&st, 0, 1, buf, 4, NULL, scratch),
                     CLIPT_ERROR_MISALIGNED_OFFSET);
    assert_int_equal(clipt_stage_set_args(&st, buf, 32, NULL, scratch), CLIPT_SUCCESS);
    clipt_stage_release(&st);
    clReleaseMemObject(buf);
    clReleaseMemObject(scratch);
}

/* ---- 0010! tiles of 1- and 2-byte elements as packed words --------------- */

static const uint64_t tile_cases[][3] = {
    {1, 1, 1},   {7, 1, 1},   {1, 1, 37}, {5, 1, 9},    {1, 7, 13},  {3, 13, 7},
    {11, 17, 19}, {1, 64, 64}, {2, 100, 37}, {2000, 5, 6}, {999, 4, 7}, {999, 7, 4},
    {7, 31, 32}, {40, 24, 25}, {300, 2, 2}, {77, 3, 1},   {50, 32, 32}};

/* The BS kernel's packed path (PACK, kernel_style 1 whatever this
 * device's default; test_pack.c covers the build options and work-groups
 * of 32) with work-groups of 7 and 33 work-items and batches of one tile
 * and of a few hundred elements, many of them partial, and with the tail
 * in a second buffer (a split stage: the element path). */
static void test_tile_pack_launches(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_tuning t[2];
    for (size_t k = 0; k < COUNT(t); k++) {
        t[k] = env->ctx->profile.tuning;
        t[k].kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    }
    t[0].wg_010 = 7;
    t[0].tile_elems_010 = 1; /* one tile per batch */
    t[1].wg_010 = 33;
    t[1].tile_elems_010 = 250;
    for (size_t e = 0; e < 2; e++)
        for (size_t k = 0; k < COUNT(t); k++)
            for (size_t i = 0; i < COUNT(tile_cases); i++)
                for (size_t off = 0; off < 4; off++) {
                    clipt_stage_spec sp = {CLIPT_OP_TRANSPOSE_TILES, "t", tile_cases[i][0],
                                           tile_cases[i][1], tile_cases[i][2], 1, 0, 0, 0};
                    size_t bad = 0;
                    clipt_kernel_family used = CLIPT_FAMILY_AUTO;
                    clipt_status s = test_run_stage_as(env, &sp, CLIPT_FAMILY_TILE_LOCAL,
                                                       elem_sizes[e], off, &t[k], &bad, &used);
                    if (s != CLIPT_SUCCESS || bad)
                        fail_msg("%llu x (%llu x %llu), %zu-byte elements at %zu, tuning %zu: "
                                 "%s, %zu bytes wrong",
                                 (unsigned long long)sp.instances, (unsigned long long)sp.a,
                                 (unsigned long long)sp.b, elem_sizes[e], off, k,
                                 clipt_status_string(s), bad);
                    if (i % 4 == 0 && off == 0) { /* and with the tail in a second buffer */
                        sp.split = sp.instances * sp.a * sp.b * 2 / 3;
                        s = test_run_stage_split(env, &sp, CLIPT_FAMILY_TILE_LOCAL,
                                                 elem_sizes[e], 0, &t[k], &bad, NULL);
                        if (s != CLIPT_SUCCESS || bad)
                            fail_msg("split %llu: %s, %zu bytes wrong",
                                     (unsigned long long)sp.split, clipt_status_string(s),
                                     bad);
                    }
                }
}

/* ---- whole plans --------------------------------------------------------- */

/* The widest word of the plan's stages. */
static size_t plan_word(clipt_plan p)
{
    clipt_plan_info info;
    size_t most = 0;
    assert_int_equal(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    for (unsigned i = 0; i < info.num_stages; i++) {
        clipt_stage_info si;
        assert_int_equal(clipt_plan_query_stage(p, i, &si), CLIPT_SUCCESS);
        if (si.word_bytes > most)
            most = si.word_bytes;
    }
    return most;
}

static void run_plan(test_env *env, size_t r, size_t c, size_t elem, size_t offset,
                     const clipt_plan_options *o, size_t want_word)
{
    char text[8192];
    size_t bad = 0;
    clipt_plan p = NULL;
    const clipt_status s = test_run_transpose(env, r, c, elem, offset, o, &bad, text,
                                              sizeof text);
    if (s != CLIPT_SUCCESS || bad)
        fail_msg("%zu x %zu, %zu-byte elements at byte offset %zu, sequence %d padding %d: "
                 "%s, %zu bytes wrong\n%s",
                 r, c, elem, offset, o->sequence, o->padding, clipt_status_string(s), bad, text);
    if (want_word) {
        assert_int_equal(clipt_plan_create(env->ctx, r, c, elem, o, &p), CLIPT_SUCCESS);
        if (plan_word(p) != want_word)
            fail_msg("%zu x %zu, %zu-byte elements: widest word %zu, want %zu\n%s", r, c,
                     elem, plan_word(p), want_word, text);
        assert_non_null(strstr(text, want_word > elem ? "widened" : "stage"));
        clipt_plan_release(p);
    }
}

static void test_plans(void **state)
{
    test_env *env = TEST_ENV(state);
    static const struct {
        size_t r, c, m, n;
        clipt_sequence seq;
    } cases[] = {
        {256, 96, 32, 32, CLIPT_SEQUENCE_3_1}, {96, 256, 32, 32, CLIPT_SEQUENCE_3_2},
        {640, 37, 64, 37, CLIPT_SEQUENCE_2_1}, {37, 640, 37, 64, CLIPT_SEQUENCE_2_2},
        {200, 300, 40, 60, CLIPT_SEQUENCE_4_1}, {300, 200, 60, 40, CLIPT_SEQUENCE_4_2},
        {333, 222, 37, 37, CLIPT_SEQUENCE_3_1}, {999, 1001, 32, 32, CLIPT_SEQUENCE_3_1},
        {1000, 998, 40, 40, CLIPT_SEQUENCE_3_2}};
    static const clipt_padding paddings[] = {CLIPT_PADDING_AUTO, CLIPT_PADDING_SCRATCH,
                                             CLIPT_PADDING_NONE};
    for (size_t e = 0; e < 3; e++)
        for (size_t i = 0; i < COUNT(cases); i++)
            for (size_t k = 0; k < COUNT(paddings); k++) {
                const size_t elem = elem_sizes[e];
                clipt_plan_options o;
                clipt_plan_options_init(&o);
                o.sequence = cases[i].seq;
                o.tile_m = cases[i].m;
                o.tile_n = cases[i].n;
                o.padding = paddings[k];
                if (paddings[k] == CLIPT_PADDING_NONE && (cases[i].r % cases[i].m ||
                                                          cases[i].c % cases[i].n))
                    continue; /* NONE refuses a forced factor that pads */
                run_plan(env, cases[i].r, cases[i].c, elem, 0, &o, 0);
                run_plan(env, cases[i].r, cases[i].c, elem, elem, &o, 0);     /* twin */
                run_plan(env, cases[i].r, cases[i].c, elem, 8 + elem, &o, 0); /* 8 only */
            }
    /* known widths: m = 32 one-byte elements per super-element */
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_1;
    o.tile_m = o.tile_n = 32;
    run_plan(env, 256, 96, 1, 0, &o, 16);
    run_plan(env, 256, 96, 2, 0, &o, 16);
    o.tile_m = o.tile_n = 37;
    run_plan(env, 333, 222, 1, 0, &o, 1);
    run_plan(env, 333, 222, 4, 0, &o, 4); /* 148 bytes: 4-byte words as they are */
    o.wide_bytes = 1; /* off */
    o.tile_m = o.tile_n = 32;
    run_plan(env, 256, 96, 1, 0, &o, 1);
    /* automatic plans, odd shapes and offsets */
    for (size_t e = 0; e < COUNT(elem_sizes); e++) {
        clipt_plan_options_init(&o);
        run_plan(env, 1024, 3001, elem_sizes[e], 0, &o, 0);
        run_plan(env, 1024, 3001, elem_sizes[e], 3 * elem_sizes[e], &o, 0);
        run_plan(env, 1, 77, elem_sizes[e], elem_sizes[e], &o, 0);
        o.padding = CLIPT_PADDING_NONE;
        run_plan(env, 999, 1001, elem_sizes[e], 5 * elem_sizes[e], &o, 0);
    }
}

/* Odd and aligned byte offsets inside sub-buffers (their own base at the
 * device's alignment): the twin or the widened plan, bytes around kept. */
static void test_sub_buffer_offsets(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_1;
    o.tile_m = o.tile_n = 32;
    for (size_t off = 0; off < 20; off += 3)
        test_run_on_sub_buffer(env, 256, 96, 1, off, &o, off);
}

/* One plan enqueued at aligned and odd offsets of one buffer, overlapping,
 * without waiting in between (an out-of-order queue where there is one):
 * the plan's runs and its twin's stay in order, as the sequence of CPU
 * transposes says. */
static void test_twin_order(void **state)
{
    test_env *env = TEST_ENV(state);
    static const size_t offsets[] = {0, 1, 16, 3, 0, 5};
    const size_t rows = 256, cols = 96, bytes = rows * cols;
    cl_command_queue ooo = test_out_of_order_queue(env);
    cl_command_queue q = ooo ? ooo : env->cl.queue;
    unsigned char *host = NULL, *next = malloc(bytes);
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes + 64, 5, &host);
    clipt_plan_options o;
    clipt_plan p = NULL;
    cl_event done = NULL;
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_1;
    o.tile_m = o.tile_n = 32;
    assert_non_null(next);
    assert_int_equal(clipt_plan_create(env->ctx, rows, cols, 1, &o, &p), CLIPT_SUCCESS);
    assert_int_equal(plan_word(p), 16);
    for (size_t i = 0; i < COUNT(offsets); i++) {
        assert_int_equal(clipt_enqueue(p, q, buf, offsets[i], 0, NULL, NULL), CLIPT_SUCCESS);
        test_reference_transpose(host + offsets[i], next, rows, cols, 1);
        memcpy(host + offsets[i], next, bytes);
    }
    assert_int_equal(clipt_enqueue(p, q, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    test_reference_transpose(host, next, rows, cols, 1);
    memcpy(host, next, bytes);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    test_expect_buffer(env, buf, host, bytes + 64, "runs at alternating offsets");
    clReleaseEvent(done);
    clipt_plan_release(p);
    clReleaseMemObject(buf);
    if (ooo)
        clReleaseCommandQueue(ooo);
    free(host);
    free(next);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_bytes),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_split_moves),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_refused_offset),
        cmocka_unit_test(test_tile_pack_launches),
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_sub_buffer_offsets),
        cmocka_unit_test(test_twin_order),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
