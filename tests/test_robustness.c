/* Scale and robustness on small shapes: the 64-bit index paths that only
 * matrices of 2^32 elements or more take, forced onto small shapes and
 * checked bit-exact; where the 32-bit paths end; two plans chained on an
 * out-of-order queue; and no OpenCL object left behind by any path. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "support.h"
#include "internal.h"
#include "plan.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

/* A context on env's device whose kernels index everything with 64-bit
 * arithmetic (SMALL_INDEX=0), as they do for 2^32 elements and more;
 * local_mem_bytes (0 = the device's) makes plans tile and pad as on a GPU. */
static clipt_context wide_context(test_env *env, cl_ulong local_mem_bytes)
{
    clipt_context c = local_mem_bytes ? test_context_limited(env, local_mem_bytes) : NULL;
    if (!c)
        assert_status(clipt_context_create(env->cl.context, env->cl.device, &c),
                      CLIPT_SUCCESS);
    c->wide_index_from = 0;
    return c;
}

static clipt_stage_spec spec_of(clipt_stage_op kind, uint64_t instances, uint64_t a,
                                uint64_t b, uint64_t s, uint64_t sa, uint64_t sb)
{
    clipt_stage_spec sp = {kind, "test", instances, a, b, s, sa, sb, 0};
    return sp;
}

/* The SMALL_INDEX value in a stage's kernel build options (-1: none).  No
 * public query reports it (it is how a kernel indexes, not what a plan
 * does), so the tests read the stage's own options. */
static int stage_small_index(const clipt_stage *st)
{
    const char *at = strstr(st->options, "-DSMALL_INDEX=");
    return at ? atoi(at + strlen("-DSMALL_INDEX=")) : -1;
}

/* The SMALL_INDEX value `sp` is built with on context c (-1: none), and
 * the kernel family it runs as. */
static int small_index_of(clipt_context c, const clipt_stage_spec *sp, size_t elem,
                          clipt_kernel_family *kind_used)
{
    clipt_stage st;
    int value;
    assert_status(clipt_stage_prepare(c, sp, elem, &c->profile.tuning, &st), CLIPT_SUCCESS);
    value = stage_small_index(&st);
    if (kind_used)
        *kind_used = st.family->id;
    clipt_stage_release(&st);
    return value;
}

/* Of a plan's stages (clipt_plan_query_stage): whether any is built with
 * 32-bit indexing (SMALL_INDEX=1), and whether any pads (*wide_pad) with 64-bit
 * indexing (SMALL_INDEX=0). */
static int plan_has_small_index(clipt_plan p, int *wide_pad)
{
    clipt_plan_info info;
    int small = 0;
    *wide_pad = 0;
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    for (unsigned k = 0; k < info.num_stages; k++) {
        clipt_stage_info si;
        const int index = stage_small_index(&p->stages[k]);
        assert_status(clipt_plan_query_stage(p, k, &si), CLIPT_SUCCESS);
        small |= index == 1;
        *wide_pad |= si.op == CLIPT_OP_PAD && index == 0;
    }
    return small;
}

/* ---- 64-bit paths on small shapes ------------------------------------------ */

/* One stage on the wide context: built with SMALL_INDEX=0 as the family
 * `kind`, and exact. */
static void run_wide_stage(test_env *wide, const clipt_stage_spec *sp, size_t elem,
                           size_t offset, clipt_kernel_family kind)
{
    clipt_kernel_family used;
    size_t bad = 0;
    clipt_status s;
    if (small_index_of(wide->ctx, sp, elem, &used) != 0 || used != kind)
        fail_msg("stage %llu x (%llu x %llu) s=%llu: not built as a 64-bit %d stage "
                 "(family %d)", (unsigned long long)sp->instances,
                 (unsigned long long)sp->a, (unsigned long long)sp->b,
                 (unsigned long long)sp->s, (int)kind, (int)used);
    s = test_run_stage(wide, sp, elem, offset, NULL, &bad, NULL);
    if (s != CLIPT_SUCCESS || bad != 0)
        fail_msg("64-bit stage %llu x (%llu x %llu) s=%llu sa=%llu sb=%llu, %zu-byte "
                 "elements at %zu: %s, %zu bytes wrong", (unsigned long long)sp->instances,
                 (unsigned long long)sp->a, (unsigned long long)sp->b,
                 (unsigned long long)sp->s, (unsigned long long)sp->sa,
                 (unsigned long long)sp->sb, elem, offset, clipt_status_string(s), bad);
}

/* Padding, unpadding and the segment walks (the kernels with a SMALL_INDEX
 * switch), every element size. */
static void test_wide_index_stages(void **state)
{
    static const uint64_t rows_cases[][3] = { /* rows, width, wider pitch */
        {3, 5, 9}, {17, 4099, 4100}, {1000, 999, 1024}, {4099, 17, 24}};
    static const uint64_t walk_cases[][4] = { /* instances, a, b, s */
        {1, 97, 89, 1}, {4, 27, 40, 3}, {1, 640, 480, 2}, {3, 17, 19, 24}};
    test_env wide = *TEST_ENV(state);
    wide.ctx = wide_context(TEST_ENV(state), 0);
    for (size_t e = 0; e < COUNT(elem_sizes); e++) {
        for (size_t i = 0; i < COUNT(rows_cases); i++) {
            const uint64_t *c = rows_cases[i];
            clipt_stage_spec pad = spec_of(CLIPT_OP_PAD, c[0], c[1], 1, 1, c[1], c[2]);
            clipt_stage_spec unpad = spec_of(CLIPT_OP_UNPAD, c[0], c[1], 1, 1, c[2], c[1]);
            run_wide_stage(&wide, &pad, elem_sizes[e], e, CLIPT_FAMILY_ROWS);
            run_wide_stage(&wide, &unpad, elem_sizes[e], i, CLIPT_FAMILY_ROWS);
        }
        for (size_t i = 0; i < COUNT(walk_cases); i++) {
            const uint64_t *c = walk_cases[i];
            clipt_stage_spec walk = spec_of(CLIPT_OP_MOVE_SUPER, c[0], c[1], c[2], c[3], 0, 0);
            run_wide_stage(&wide, &walk, elem_sizes[e], e + i,
                           CLIPT_FAMILY_SUPER_SEGMENTS);
        }
    }
    clipt_context_release(wide.ctx);
}

/* Whole automatic and forced plans on the wide context with a GPU's local
 * memory, so that they pad: exact, and every indexed stage 64-bit. */
static void test_wide_index_plans(void **state)
{
    static const struct { size_t rows, cols; clipt_sequence seq; } cases[] = {
        {1201, 1103, CLIPT_SEQUENCE_AUTO}, {4099, 17, CLIPT_SEQUENCE_AUTO},
        {17, 4099, CLIPT_SEQUENCE_3_1},    {997, 1009, CLIPT_SEQUENCE_3_2},
        {300, 200, CLIPT_SEQUENCE_1},      {640, 480, CLIPT_SEQUENCE_4_3}};
    static char describe[16384];
    test_env wide = *TEST_ENV(state);
    int padded = 0;
    wide.ctx = wide_context(TEST_ENV(state), 48 * 1024);
    for (size_t i = 0; i < COUNT(cases); i++) {
        const size_t elem = elem_sizes[i % COUNT(elem_sizes)];
        clipt_plan_options o;
        clipt_plan p = NULL;
        size_t bad = 0;
        clipt_status s;
        int small, wide_pad;
        clipt_plan_options_init(&o);
        o.sequence = cases[i].seq;
        /* the plan test_run_transpose makes, read back */
        assert_status(clipt_plan_create(wide.ctx, cases[i].rows, cases[i].cols, elem, &o, &p),
                      CLIPT_SUCCESS);
        small = plan_has_small_index(p, &wide_pad);
        clipt_plan_release(p);
        s = test_run_transpose(&wide, cases[i].rows, cases[i].cols, elem, elem * i, &o, &bad,
                               describe, sizeof describe);
        if (s != CLIPT_SUCCESS || bad != 0 || small)
            fail_msg("64-bit plan %zu x %zu, %zu-byte elements: %s, %zu bytes wrong\n%s",
                     cases[i].rows, cases[i].cols, elem, clipt_status_string(s), bad,
                     describe);
        padded |= wide_pad;
    }
    if (!padded)
        fail_msg("no case was padded: the 64-bit padding path did not run");
    clipt_context_release(wide.ctx);
}

/* ---- where the 32-bit paths end ----------------------------------------------- */

/* Padding indexes logical elements (rows x width): 32-bit up to 2^32 - 1
 * of them (2^31 is no boundary: nothing is a signed int), 64-bit from 2^32.
 * Only prepared: no matrix of that size is allocated. */
static void test_index_switch(void **state)
{
    static const uint64_t cases[][3] = { /* rows, width, SMALL_INDEX */
        {32768, 65536, 1},  /* 2^31 */
        {65535, 65537, 1},  /* 2^32 - 1 */
        {65536, 65536, 0},  /* 2^32 */
        {65537, 65537, 0}}; /* above */
    clipt_context c = TEST_ENV(state)->ctx;
    for (size_t i = 0; i < COUNT(cases); i++) {
        const uint64_t rows = cases[i][0], width = cases[i][1];
        clipt_stage_spec pad = spec_of(CLIPT_OP_PAD, rows, width, 1, 1, width, width + 1);
        clipt_stage_spec unpad = spec_of(CLIPT_OP_UNPAD, rows, width, 1, 1, width + 1,
                                         width);
        const int want = (int)cases[i][2];
        if (small_index_of(c, &pad, 1, NULL) != want ||
            small_index_of(c, &unpad, 1, NULL) != want)
            fail_msg("%llu x %llu elements: SMALL_INDEX should be %d",
                     (unsigned long long)rows, (unsigned long long)width, want);
    }
    /* walks switch on one instance's a x b (2^32 positions: stages of
     * 4 GiB at the least), at the context's threshold */
    {
        clipt_stage_spec walk = spec_of(CLIPT_OP_MOVE_SUPER, 2, 100, 37, 3, 0, 0);
        clipt_context at = wide_context(TEST_ENV(state), 0);
        at->wide_index_from = 100 * 37;
        assert_int_equal(small_index_of(at, &walk, 4, NULL), 0);
        at->wide_index_from = 100 * 37 + 1;
        assert_int_equal(small_index_of(at, &walk, 4, NULL), 1);
        clipt_context_release(at);
    }
}

/* ---- very large plans: scratch under 1 %, built but not run ------------------ */

/* A context that plans as for an 80 GB H100: its tuning entry, 48 KiB of
 * local memory, 132 compute units, allocations up to a quarter of the
 * memory.  Plans are made (cycles walked, kernels built for this device,
 * scratch allocated) but never run: no matrix buffer is needed. */
static clipt_context h100_like_context(test_env *env)
{
    clipt_context c = test_context_limited(env, 48 * 1024);
    clipt_device_profile *p = &c->profile;
    snprintf(p->name, sizeof p->name, "NVIDIA H100 80GB HBM3");
    snprintf(p->vendor, sizeof p->vendor, "NVIDIA Corporation");
    p->type = CL_DEVICE_TYPE_GPU;
    p->compute_units = 132;
    p->max_wg_size = 1024;
    p->simd_width = 32;
    p->global_mem_bytes = 85ull << 30;
    p->max_alloc_bytes = p->global_mem_bytes / 4;
    clipt_tuning_select(p);
    return c;
}

/* Matrices of 10^9 to 2 x 10^10 bytes, above 2^31 and 2^32 elements: the
 * plan's scratch (buffer and segment tables) stays under 1 % of the
 * matrix, and padding past 2^32 logical elements indexes with 64 bits. */
static void test_large_plans_scratch(void **state)
{
    static const struct { size_t rows, cols, elem; int wide_pad; } cases[] = {
        {50000, 50001, 4, 0}, {49999, 50021, 4, 0}, {66000, 66001, 1, 1},
        {46340, 46341, 1, 0}, {70000, 70001, 4, 1}, {30000, 30001, 16, 0}};
    clipt_context c = h100_like_context(TEST_ENV(state));
    for (size_t i = 0; i < COUNT(cases); i++) {
        const size_t rows = cases[i].rows, cols = cases[i].cols, elem = cases[i].elem;
        const double bytes = (double)rows * (double)cols * (double)elem;
        static char text[16384];
        clipt_plan p = NULL;
        double share;
        int wide_pad = 0;
        assert_status(clipt_plan_create(c, rows, cols, elem, NULL, &p), CLIPT_SUCCESS);
        share = 100.0 * (double)clipt_plan_scratch_size(p) / bytes;
        clipt_plan_describe(p, text, sizeof text);
        plan_has_small_index(p, &wide_pad);
        print_message("%zu x %zu, %zu-byte elements: scratch %.3f %% of the matrix\n", rows,
                      cols, elem, share);
        if (!(share < 1.0) || wide_pad != cases[i].wide_pad)
            fail_msg("%zu x %zu, %zu-byte elements: scratch %.3f %%, 64-bit padding %d "
                     "(expected %d)\n%s", rows, cols, elem, share, wide_pad,
                     cases[i].wide_pad, text);
        clipt_plan_release(p);
    }
    clipt_context_release(c);
}

/* ---- two plans on one out-of-order queue ---------------------------------------- */

/* Plans A (rows x cols) and B (cols x rows) chained by events on an
 * out-of-order queue: A, B gives the matrix back, A, B, A its transpose;
 * meanwhile a third plan runs on another buffer with no event between
 * them.  Everything exact. */
static void chain_two_plans(test_env *env, cl_command_queue q, size_t rows, size_t cols,
                            size_t elem)
{
    clipt_plan a, b, other;
    cl_event ev[3] = {NULL, NULL, NULL}, side = NULL;
    unsigned char *before, *after = NULL, *side_before, *side_after;
    cl_mem buf, side_buf;
    size_t bytes = rows * cols * elem, room;
    assert_status(clipt_plan_create(env->ctx, rows, cols, elem, NULL, &a), CLIPT_SUCCESS);
    assert_status(clipt_plan_create(env->ctx, cols, rows, elem, NULL, &b), CLIPT_SUCCESS);
    assert_status(clipt_plan_create(env->ctx, rows + 1, cols, elem, NULL, &other),
                  CLIPT_SUCCESS);
    room = clipt_plan_buffer_size(a) > clipt_plan_buffer_size(b) ? clipt_plan_buffer_size(a)
                                                                 : clipt_plan_buffer_size(b);
    buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, room, rows * cols, &before);
    side_buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, clipt_plan_buffer_size(other), 5,
                                   &side_before);
    after = malloc(bytes);
    side_after = malloc((rows + 1) * cols * elem);
    assert_true(after && side_after);
    test_reference_transpose(before, after, rows, cols, elem);
    test_reference_transpose(side_before, side_after, rows + 1, cols, elem);
    assert_status(clipt_enqueue(a, q, buf, 0, 0, NULL, &ev[0]), CLIPT_SUCCESS);
    assert_status(clipt_enqueue(other, q, side_buf, 0, 0, NULL, &side), CLIPT_SUCCESS);
    assert_status(clipt_enqueue(b, q, buf, 0, 1, &ev[0], &ev[1]), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &ev[1]), CL_SUCCESS);
    test_expect_buffer(env, buf, before, bytes, "A then B");
    assert_status(clipt_enqueue(a, q, buf, 0, 1, &ev[1], &ev[2]), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &ev[2]), CL_SUCCESS);
    test_expect_buffer(env, buf, after, bytes, "A, B, then A");
    assert_status(clWaitForEvents(1, &side), CL_SUCCESS);
    test_expect_buffer(env, side_buf, side_after, (rows + 1) * cols * elem,
                       "the unrelated plan");
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);
    clReleaseEvent(side);
    clReleaseMemObject(buf);
    clReleaseMemObject(side_buf);
    free(before);
    free(after);
    free(side_before);
    free(side_after);
    clipt_plan_release(a);
    clipt_plan_release(b);
    clipt_plan_release(other);
}

static void test_two_plans_out_of_order(void **state)
{
    static const size_t shapes[][3] = {{300, 500, 4}, {97, 4099, 1}, {1000, 999, 16},
                                       {64, 48, 8}, {1, 77, 2}};
    test_env *env = TEST_ENV(state);
    test_env gpu = *env;
    cl_command_queue q = test_out_of_order_queue(env);
    if (!q)
        skip();
    gpu.ctx = test_context_limited(env, 48 * 1024); /* multi-stage, padded plans */
    for (size_t i = 0; i < COUNT(shapes); i++) {
        chain_two_plans(env, q, shapes[i][0], shapes[i][1], shapes[i][2]);
        chain_two_plans(&gpu, q, shapes[i][0], shapes[i][1], shapes[i][2]);
    }
    clipt_context_release(gpu.ctx);
    clReleaseCommandQueue(q);
}

/* ---- no OpenCL object left behind ------------------------------------------------ */

/* Every OpenCL object clipt creates holds a reference to the context (and
 * every event to its queue), so a kernel, program, buffer or event that
 * clipt leaks on any path leaves one more reference behind each time.  The
 * runtime may keep a few references of its own (PoCL holds on to a recent
 * command), so the counts are compared between two identical rounds, not
 * with the counts before the first. */
typedef struct ref_counts {
    cl_uint context, queue, buffer;
} ref_counts;

/* The three counts as they are now. */
static ref_counts read_refs(test_env *env, cl_mem buf)
{
    ref_counts r;
    assert_status(clGetContextInfo(env->cl.context, CL_CONTEXT_REFERENCE_COUNT,
                                   sizeof r.context, &r.context, NULL), CL_SUCCESS);
    assert_status(clGetCommandQueueInfo(env->cl.queue, CL_QUEUE_REFERENCE_COUNT,
                                        sizeof r.queue, &r.queue, NULL), CL_SUCCESS);
    assert_status(clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof r.buffer,
                                     &r.buffer, NULL), CL_SUCCESS);
    return r;
}

/* The counts once the queue is idle, after a fill of `probe`, so that the
 * queue's last command is the same one in every count.  PoCL drops its
 * references to finished commands in a thread of its own, after clFinish
 * has returned (a CI run under ASan counted the buffer, the queue and the
 * context 1, 2 and 3 references high once): the counts are read until
 * `buf` is held by the test alone and two reads 2 ms apart agree, for at
 * most about a second.  A leaked reference never goes, so it still
 * fails. */
static ref_counts count_refs(test_env *env, cl_mem buf, cl_mem probe)
{
    const cl_uint zero = 0;
    const struct timespec pause = {0, 2000000};
    ref_counts r, again;
    assert_status(clEnqueueFillBuffer(env->cl.queue, probe, &zero, sizeof zero, 0,
                                      sizeof zero, 0, NULL, NULL), CL_SUCCESS);
    assert_status(clFinish(env->cl.queue), CL_SUCCESS);
    r = read_refs(env, buf);
    for (int tries = 0; tries < 500; tries++, r = again) {
        nanosleep(&pause, NULL);
        again = read_refs(env, buf);
        if (r.buffer == 1 && memcmp(&again, &r, sizeof r) == 0)
            break;
    }
    return r;
}

/* Successful plans of several families, runs with events and profiling,
 * failed plan creations and failed enqueues, then everything released. */
static void exercise_everything(test_env *env, cl_mem buf, size_t bytes)
{
    static const clipt_sequence seqs[] = {CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_1,
                                          CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_4_3};
    clipt_context c = test_context_limited(env, 48 * 1024);
    clipt_plan p = NULL;
    clipt_plan_options o;
    cl_event done = NULL;
    double total;
    for (size_t i = 0; i < COUNT(seqs); i++) {
        clipt_plan_options_init(&o);
        o.sequence = seqs[i];
        assert_status(clipt_plan_create(c, 97, 89, 4, &o, &p), CLIPT_SUCCESS);
        assert_true(clipt_plan_buffer_size(p) <= bytes);
        assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
        assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 1, &done, NULL), CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
        assert_status(clFinish(env->cl.queue), CL_SUCCESS);
        assert_status(clipt_plan_profile(p, &total, NULL, 0, NULL), CLIPT_SUCCESS);
        clReleaseEvent(done);
        /* failed enqueue: the buffer from the offset is too short */
        assert_status(clipt_enqueue(p, env->cl.queue, buf, bytes, 0, NULL, &done),
                      CLIPT_ERROR_BUFFER_TOO_SMALL);
        clipt_plan_release(p);
    }
    /* failed creations, after kernels were built and buffers made */
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_1;
    c->profile.max_alloc_bytes = 64; /* its scratch does not fit */
    assert_status(clipt_plan_create(c, 97, 89, 4, &o, &p), CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    c->profile.max_alloc_bytes = env->ctx->profile.max_alloc_bytes;
    c->profile.max_global_size = 0; /* no launch fits (the CPU kernels launch one item) */
    assert_status(clipt_plan_create(c, 97, 89, 4, NULL, &p), CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS);
    clipt_context_release(c);
    assert_status(clipt_transpose(env->cl.queue, buf, 0, 64, 48, 8), CLIPT_SUCCESS);
}

static void test_no_object_leaks(void **state)
{
    test_env *env = TEST_ENV(state);
    const size_t bytes = 1 << 20;
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 1, NULL);
    cl_mem probe = test_pattern_buffer(env, CL_MEM_READ_WRITE, 4, 1, NULL);
    ref_counts first, second;
    exercise_everything(env, buf, bytes);
    first = count_refs(env, buf, probe);
    exercise_everything(env, buf, bytes);
    second = count_refs(env, buf, probe);
    if (second.context != first.context || second.queue != first.queue ||
        second.buffer != first.buffer || second.buffer != 1)
        fail_msg("a round left references behind: context %u -> %u, queue %u -> %u, "
                 "buffer %u -> %u", first.context, second.context, first.queue, second.queue,
                 first.buffer, second.buffer);
    clReleaseMemObject(probe);
    clReleaseMemObject(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_switch),
        cmocka_unit_test(test_wide_index_stages),
        cmocka_unit_test(test_wide_index_plans),
        cmocka_unit_test(test_large_plans_scratch),
        cmocka_unit_test(test_two_plans_out_of_order),
        cmocka_unit_test(test_no_object_leaks),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
