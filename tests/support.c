#include "support.h"
#include "internal.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- device ------------------------------------------------------------ */

void test_env_open(test_env *env)
{
    char why[512];
    clipt_status s = clipt_cl_env_open(&env->cl, why, sizeof why);
    if (s != CLIPT_SUCCESS) {
        fprintf(stderr, "no OpenCL device: %s\n", why);
        exit(1);
    }
    s = clipt_context_create(env->cl.context, env->cl.device, &env->ctx);
    if (s != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_context_create: %s\n", clipt_status_string(s));
        exit(1);
    }
}

void test_env_close(test_env *env)
{
    /* clipt_transpose's cache retains the context: no leak reported, and
     * the OpenCL context really goes */
    clipt_transpose_cache_clear();
    clipt_context_release(env->ctx);
    clipt_cl_env_close(&env->cl);
}

void test_apply_filter(void)
{
    const char *pattern = getenv("CLIPT_TEST_FILTER");
    if (pattern && *pattern)
        cmocka_set_test_filter(pattern);
}

int test_group_open(void **state)
{
    test_env *env = malloc(sizeof *env);
    if (!env)
        return -1;
    test_env_open(env);
    print_message("device: %s (%s)\n", env->cl.device_name, env->cl.platform_name);
    *state = env;
    return 0;
}

int test_group_close(void **state)
{
    test_env_close(TEST_ENV(state));
    free(*state);
    return 0;
}

cl_command_queue test_out_of_order_queue(test_env *env)
{
    cl_command_queue_properties props = 0;
    cl_int err;
    cl_command_queue q;
    assert_status(clGetDeviceInfo(env->cl.device, CL_DEVICE_QUEUE_PROPERTIES,
                                  sizeof props, &props, NULL), CL_SUCCESS);
    if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        print_message("skipped: %s has no out-of-order queues\n", env->cl.device_name);
        return NULL;
    }
    q = clCreateCommandQueue(env->cl.context, env->cl.device,
                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                 CL_QUEUE_PROFILING_ENABLE, &err);
    assert_status(err, CL_SUCCESS);
    return q;
}

clipt_context test_context_limited(test_env *env, cl_ulong local_mem_bytes)
{
    clipt_context c = NULL;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c),
                  CLIPT_SUCCESS);
    if (c->profile.local_mem_bytes > local_mem_bytes)
        c->profile.local_mem_bytes = local_mem_bytes;
    return c;
}

clipt_context test_context_gpu_like(test_env *env, const char *name, const char *vendor)
{
    clipt_context c = test_context_limited(env, 48 * 1024);
    clipt_profile_as_gpu(&c->profile, name, vendor, 48 * 1024);
    return c;
}

/* ---- data ---------------------------------------------------------------- */

void test_fill_pattern(unsigned char *data, size_t count, size_t elem, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        /* the index in the low bytes keeps elements distinct; random bytes
         * above it catch byte-order mistakes inside wide elements */
        uint64_t r = test_rand(&state);
        for (size_t b = 0; b < elem; b++) {
            unsigned char v;
            if (b < 8)
                v = (unsigned char)(((uint64_t)i >> (8 * b)) ^ (b >= 4 ? r >> (8 * b) : 0));
            else
                v = (unsigned char)(r >> (8 * (b % 8)));
            data[i * elem + b] = v;
        }
        if (elem == 1)
            data[i] = (unsigned char)(i * 131u + (r & 0xff));
    }
}

/* ---- buffers and checks ------------------------------------------------- */

void test_assert_status_(clipt_status got, clipt_status want, const char *expr,
                         const char *file, int line)
{
    if (got != want)
        fail_msg("%s:%d: %s returned %d (%s), expected %d (%s)", file, line,
                 expr, got, clipt_status_string(got), want,
                 clipt_status_string(want));
}

cl_mem test_pattern_buffer(test_env *env, cl_mem_flags flags, size_t bytes,
                           uint64_t seed, unsigned char **host)
{
    unsigned char *data = malloc(bytes);
    cl_int err;
    cl_mem buf;
    assert_non_null(data);
    test_fill_pattern(data, bytes, 1, seed);
    buf = clCreateBuffer(env->cl.context, flags | CL_MEM_COPY_HOST_PTR, bytes,
                         data, &err);
    assert_status(err, CL_SUCCESS);
    if (host)
        *host = data;
    else
        free(data);
    return buf;
}

unsigned char *test_read_back(test_env *env, cl_mem buf, size_t bytes,
                              cl_uint num_wait, const cl_event *wait)
{
    unsigned char *data = malloc(bytes ? bytes : 1);
    assert_non_null(data);
    assert_status(clEnqueueReadBuffer(env->cl.queue, buf, CL_TRUE, 0, bytes,
                                      data, num_wait, wait, NULL),
                  CL_SUCCESS);
    return data;
}

size_t test_mismatches(const unsigned char *a, const unsigned char *b, size_t n,
                       size_t *first)
{
    *first = n;
    return hostmat_compare(a, b, n, 1, first);
}

void test_expect_buffer(test_env *env, cl_mem buf, const unsigned char *want,
                        size_t bytes, const char *what)
{
    unsigned char *got = test_read_back(env, buf, bytes, 0, NULL);
    size_t first;
    size_t bad = test_mismatches(got, want, bytes, &first);
    if (bad) {
        unsigned g = got[first], w = want[first];
        free(got);
        fail_msg("%s: %zu of %zu bytes differ, first at %zu (0x%02x, expected 0x%02x)",
                 what, bad, bytes, first, g, w);
    }
    free(got);
}

/* ---- whole transpositions ---------------------------------------------- */

/* The run's expected contents: the pattern with the array at `offset`
 * replaced by its permutation. */
static unsigned char *expected_after(const unsigned char *before, size_t total,
                                     size_t offset, unsigned ndim, const size_t *dims,
                                     const unsigned *perm, size_t elem)
{
    unsigned char *expect = malloc(total);
    if (!expect)
        return NULL;
    memcpy(expect, before, total);
    hostmat_permute(before + offset, expect + offset, ndim, dims, perm, elem);
    return expect;
}

static clipt_status run_plan(test_env *env, clipt_plan plan, cl_mem buf,
                             size_t offset, unsigned char *host, size_t total)
{
    cl_event done = NULL;
    clipt_status s = clipt_enqueue(plan, env->cl.queue, buf, offset, 0, NULL, &done);
    if (s != CLIPT_SUCCESS)
        return s;
    s = clWaitForEvents(1, &done);
    clReleaseEvent(done);
    if (s == CL_SUCCESS)
        s = clEnqueueReadBuffer(env->cl.queue, buf, CL_TRUE, 0, total, host, 0,
                                NULL, NULL);
    return s;
}

/* Runs `plan` on a pattern buffer with the array at `offset` and 64 bytes
 * to spare, and counts the wrong bytes: the array's against the reference,
 * and those before the offset and past the plan's buffer size (the padding
 * room between may hold anything). */
static clipt_status check_plan(test_env *env, clipt_plan plan, unsigned ndim,
                               const size_t *dims, const unsigned *perm, size_t elem,
                               size_t offset, uint64_t seed, size_t *mismatch)
{
    cl_mem buf = NULL;
    unsigned char *host = NULL, *expect = NULL;
    size_t total, first, bytes = elem;
    clipt_status s;
    cl_int err;
    for (unsigned i = 0; i < ndim; i++)
        bytes *= dims[i];
    total = offset + clipt_plan_buffer_size(plan) + 64;
    total += (elem - total % elem) % elem;
    host = malloc(total);
    if (!host)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    test_fill_pattern(host, total / elem, elem, seed);
    expect = expected_after(host, total, offset, ndim, dims, perm, elem);
    buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         total, host, &err);
    s = expect ? err : CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (s == CL_SUCCESS)
        s = run_plan(env, plan, buf, offset, host, total);
    if (s == CLIPT_SUCCESS) {
        size_t end = offset + clipt_plan_buffer_size(plan);
        *mismatch = test_mismatches(host, expect, offset + bytes, &first) +
                    test_mismatches(host + end, expect + end, total - end, &first);
    }
    if (buf)
        clReleaseMemObject(buf);
    free(host);
    free(expect);
    return s;
}

clipt_status test_run_transpose(test_env *env, size_t rows, size_t cols,
                                size_t elem, size_t offset,
                                const clipt_plan_options *opts,
                                size_t *mismatch, char *describe, size_t dlen)
{
    const size_t dims[2] = {rows, cols};
    const unsigned perm[2] = {1, 0};
    clipt_plan plan = NULL;
    clipt_status s;
    *mismatch = (size_t)-1;
    s = clipt_plan_create(env->ctx, rows, cols, elem, opts, &plan);
    if (s != CLIPT_SUCCESS)
        return s;
    if (describe)
        clipt_plan_describe(plan, describe, dlen);
    s = check_plan(env, plan, 2, dims, perm, elem, offset, rows * 1315423911u + cols, mismatch);
    clipt_plan_release(plan);
    return s;
}

clipt_status test_run_permute(test_env *env, unsigned ndim, const size_t *dims,
                              const unsigned *perm, size_t elem, size_t offset,
                              const clipt_plan_options *opts, size_t *mismatch,
                              char *describe, size_t dlen)
{
    clipt_plan plan = NULL;
    clipt_status s;
    uint64_t seed = ndim;
    *mismatch = (size_t)-1;
    s = clipt_plan_create_permute(env->ctx, ndim, dims, perm, elem, opts, &plan);
    if (s != CLIPT_SUCCESS)
        return s;
    if (describe)
        clipt_plan_describe(plan, describe, dlen);
    for (unsigned i = 0; i < ndim; i++)
        seed = seed * 1315423911u + dims[i] * 31 + perm[i];
    s = check_plan(env, plan, ndim, dims, perm, elem, offset, seed, mismatch);
    clipt_plan_release(plan);
    return s;
}

clipt_status test_check_permute(test_env *env, clipt_plan plan, unsigned ndim,
                                const size_t *dims, const unsigned *perm, size_t elem,
                                size_t offset, size_t *mismatch)
{
    *mismatch = (size_t)-1;
    return check_plan(env, plan, ndim, dims, perm, elem, offset, ndim * 7919u + offset,
                      mismatch);
}

void test_run_on_sub_buffer(test_env *env, size_t rows, size_t cols, size_t elem,
                            size_t offset, const clipt_plan_options *opts, uint64_t seed)
{
    const size_t bytes = rows * cols * elem;
    cl_uint align_bits = 0;
    cl_buffer_region region;
    unsigned char *before, *want;
    clipt_plan p;
    cl_mem parent, sub;
    cl_event done;
    cl_int err;
    assert_status(clGetDeviceInfo(env->cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                  sizeof align_bits, &align_bits, NULL), CL_SUCCESS);
    region.origin = align_bits / 8;
    region.size = offset + bytes;
    parent = test_pattern_buffer(env, CL_MEM_READ_WRITE, region.origin + region.size + 64,
                                 seed, &before);
    sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                            &region, &err);
    assert_status(err, CL_SUCCESS);
    want = malloc(region.origin + region.size + 64);
    assert_non_null(want);
    memcpy(want, before, region.origin + region.size + 64);
    test_reference_transpose(before + region.origin + offset, want + region.origin + offset,
                             rows, cols, elem);
    assert_status(clipt_plan_create(env->ctx, rows, cols, elem, opts, &p), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_buffer_size(p), bytes);
    assert_status(clipt_enqueue(p, env->cl.queue, sub, offset, 0, NULL, &done),
                  CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    clipt_plan_release(p);
    clReleaseMemObject(sub);
    test_expect_buffer(env, parent, want, region.origin + region.size + 64, "sub-buffer");
    clReleaseMemObject(parent);
    free(before);
    free(want);
}

/* ---- single stages ------------------------------------------------------ */

static int is_move_rows(const clipt_stage_spec *sp)
{
    return sp->op == CLIPT_OP_PAD || sp->op == CLIPT_OP_UNPAD;
}

uint64_t test_stage_region(const clipt_stage_spec *sp)
{
    if (is_move_rows(sp))
        return sp->instances * (sp->sa > sp->sb ? sp->sa : sp->sb);
    return sp->instances * sp->a * sp->b * sp->s;
}

int test_stage_defined(const clipt_stage_spec *sp, uint64_t k)
{
    if (!is_move_rows(sp))
        return 1;
    /* destinations: row k / sb, column k % sb < a */
    return k / sp->sb < sp->instances && k % sp->sb < sp->a;
}

static void reference_move_rows(const clipt_stage_spec *sp,
                                const unsigned char *in, unsigned char *out,
                                size_t elem)
{
    for (uint64_t r = 0; r < sp->instances; r++)
        memcpy(out + (size_t)(r * sp->sb) * elem, in + (size_t)(r * sp->sa) * elem,
               (size_t)sp->a * elem);
}

/* Copies one super-element, transposing it as an sa x sb tile if asked. */
static void move_super(const clipt_stage_spec *sp, const unsigned char *src,
                       unsigned char *dst, size_t elem)
{
    const size_t sa = (size_t)sp->sa, sb = (size_t)sp->sb;
    if (!(sp->op == CLIPT_OP_MOVE_SUPER && sa > 1 && sb > 1)) {
        memcpy(dst, src, (size_t)sp->s * elem);
        return;
    }
    for (size_t x = 0; x < sa; x++)
        for (size_t y = 0; y < sb; y++)
            memcpy(dst + (y * sa + x) * elem, src + (x * sb + y) * elem, elem);
}

void test_reference_stage(const clipt_stage_spec *sp, const unsigned char *in,
                          unsigned char *out, size_t elem)
{
    const size_t a = (size_t)sp->a, b = (size_t)sp->b, s = (size_t)sp->s;
    if (is_move_rows(sp)) {
        reference_move_rows(sp, in, out, elem);
        return;
    }
    for (size_t t = 0; t < sp->instances; t++)
        for (size_t i = 0; i < a; i++)
            for (size_t j = 0; j < b; j++)
                move_super(sp, in + ((t * a + i) * b + j) * s * elem,
                           out + ((t * b + j) * a + i) * s * elem, elem);
}

/* Mismatching bytes, counting inside the region only defined elements. */
static size_t stage_mismatches(const clipt_stage_spec *sp, const unsigned char *got,
                               const unsigned char *want, size_t total,
                               size_t offset, size_t elem)
{
    size_t bad = 0;
    for (size_t i = 0; i < total; i++) {
        size_t e = i / elem;
        if (e >= offset && e - offset < test_stage_region(sp) &&
            !test_stage_defined(sp, e - offset))
            continue;
        bad += got[i] != want[i];
    }
    return bad;
}

/* Enqueues a prepared stage on a copy of host and reads the result back
 * into host.  split > 0 (a split stage, room-less padding): the buffer
 * holds host up to element offset + split and then `guard` elements of
 * their own (a pattern the stage must leave alone: their changed bytes go
 * to *guard_bad), the rest of host goes to a tail buffer. */
static clipt_status execute_stage(test_env *env, clipt_stage *st, size_t offset,
                                  size_t split, unsigned char *host, size_t total,
                                  size_t elem, size_t *guard_bad)
{
    enum { guard = 16 };
    const size_t head = split ? (offset + split) * elem : total;
    unsigned char *mine = malloc(head + guard * elem), *back = malloc(head + guard * elem);
    cl_mem buf = NULL, scratch = NULL, tail = NULL;
    cl_event done = NULL;
    cl_int err = CL_SUCCESS;
    clipt_status s;
    *guard_bad = 0;
    if (!mine || !back) {
        free(mine);
        free(back);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(mine, host, head);
    test_fill_pattern(mine + head, guard, elem, 77);
    buf = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         head + (split ? guard * elem : 0), mine, &err);
    if (err == CL_SUCCESS && split)
        tail = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              total - head, host + head, &err);
    if (err == CL_SUCCESS)
        scratch = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE,
                                 st->scratch_bytes ? st->scratch_bytes : 4, NULL, &err);
    s = err;
    if (s == CL_SUCCESS)
        s = clipt_stage_set_args(st, buf, offset, tail, scratch);
    if (s == CL_SUCCESS)
        s = clipt_stage_enqueue(st, env->cl.queue, scratch, 0, NULL, NULL, &done);
    if (s == CL_SUCCESS)
        s = clEnqueueReadBuffer(env->cl.queue, buf, CL_TRUE, 0, head + (split ? guard * elem : 0),
                                back, 1, &done, NULL);
    if (s == CL_SUCCESS && split)
        s = clEnqueueReadBuffer(env->cl.queue, tail, CL_TRUE, 0, total - head, host + head, 0,
                                NULL, NULL);
    if (s == CL_SUCCESS) {
        size_t first;
        memcpy(host, back, head);
        if (split)
            *guard_bad = test_mismatches(back + head, mine + head, guard * elem, &first);
    }
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    if (tail)
        clReleaseMemObject(tail);
    if (scratch)
        clReleaseMemObject(scratch);
    free(mine);
    free(back);
    return s;
}

clipt_status test_run_stage(test_env *env, const clipt_stage_spec *sp,
                            size_t elem, size_t offset, const clipt_tuning *tuning,
                            size_t *mismatch, clipt_kernel_family *family_used)
{
    return test_run_stage_as(env, sp, CLIPT_FAMILY_AUTO, elem, offset, tuning, mismatch,
                             family_used);
}

clipt_status test_run_stage_as(test_env *env, const clipt_stage_spec *sp,
                               clipt_kernel_family family, size_t elem, size_t offset,
                               const clipt_tuning *tuning, size_t *mismatch,
                               clipt_kernel_family *family_used)
{
    clipt_stage_spec whole = *sp;
    whole.split = 0;
    return test_run_stage_split(env, &whole, family, elem, offset, tuning, mismatch,
                                family_used);
}

clipt_status test_run_stage_split(test_env *env, const clipt_stage_spec *sp,
                                  clipt_kernel_family family, size_t elem, size_t offset,
                                  const clipt_tuning *tuning, size_t *mismatch,
                                  clipt_kernel_family *family_used)
{
    clipt_stage st;
    size_t total = (offset + (size_t)test_stage_region(sp) + 16) * elem, guard_bad = 0;
    unsigned char *host = malloc(total), *expect = malloc(total);
    clipt_status s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    *mismatch = (size_t)-1;
    memset(&st, 0, sizeof st);
    if (!host || !expect)
        goto done;
    test_fill_pattern(host, total / elem, elem, total);
    memcpy(expect, host, total);
    test_reference_stage(sp, host + offset * elem, expect + offset * elem, elem);
    s = clipt_stage_prepare_as(env->ctx, sp, family, elem,
                               tuning ? tuning : &env->ctx->profile.tuning, &st);
    if (s == CLIPT_SUCCESS && offset * elem % st.elem) {
        /* a widened stage refuses an offset that is not a multiple of its
         * word (test_wide checks that); a plan then runs its unwidened
         * twin, and so does this */
        clipt_tuning narrow = tuning ? *tuning : env->ctx->profile.tuning;
        clipt_stage_release(&st);
        narrow.wide_bytes = 1;
        s = clipt_stage_prepare_as(env->ctx, sp, family, elem, &narrow, &st);
    }
    if (family_used)
        *family_used = st.family ? st.family->id : CLIPT_FAMILY_AUTO;
    if (s == CLIPT_SUCCESS)
        s = execute_stage(env, &st, offset, (size_t)sp->split, host, total, elem, &guard_bad);
    if (s == CLIPT_SUCCESS)
        *mismatch = stage_mismatches(sp, host, expect, total, offset, elem) + guard_bad;
done:
    clipt_stage_release(&st);
    free(host);
    free(expect);
    return s;
}
