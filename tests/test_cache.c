/* The one-shot calls' caches (include/clipt.h, "Caching"): clipt_transpose's
 * process-wide contexts and every context's plan cache.  Cached and
 * uncached plans, bit-exact; the bounds (least recently used dropped); the
 * cl_context an entry retains, and what clearing gives back; failures that
 * drop entries and bad arguments that do not (buffer untouched). */
#include "support.h"
#include "enqueue.h"
#include "internal.h"
#include "oneshot.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------- */

/* clipt_transpose on a fresh pattern buffer of env's context (offset
 * bytes before the matrix), checked byte for byte; returns its status
 * (the buffer is checked untouched on a failure). */
static clipt_status oneshot(test_env *env, cl_command_queue q, size_t rows, size_t cols,
                            size_t elem, size_t offset, uint64_t seed)
{
    const size_t total = offset + rows * cols * elem;
    unsigned char *before, *want = malloc(total);
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, total, seed, &before);
    clipt_status s;
    assert_non_null(want);
    memcpy(want, before, total);
    s = clipt_transpose(q, buf, offset, rows, cols, elem);
    if (s == CLIPT_SUCCESS)
        test_reference_transpose(before + offset, want + offset, rows, cols, elem);
    test_expect_buffer(env, buf, want, total,
                       s == CLIPT_SUCCESS ? "clipt_transpose" : "failed clipt_transpose");
    clReleaseMemObject(buf);
    free(before);
    free(want);
    return s;
}

/* clipt_transpose_host of a pattern matrix, checked like oneshot(). */
static clipt_status host(clipt_context c, cl_command_queue q, size_t rows, size_t cols,
                         size_t elem, const clipt_plan_options *o)
{
    const size_t bytes = rows * cols * elem;
    unsigned char *data = malloc(bytes), *want = malloc(bytes);
    clipt_status s;
    size_t first;
    assert_true(data && want);
    test_fill_pattern(data, rows * cols, elem, rows * 7 + cols);
    memcpy(want, data, bytes);
    s = clipt_transpose_host(c, q, data, rows, cols, elem, 2, o);
    if (s == CLIPT_SUCCESS) {
        unsigned char *in = malloc(bytes);
        assert_non_null(in);
        test_fill_pattern(in, rows * cols, elem, rows * 7 + cols);
        test_reference_transpose(in, want, rows, cols, elem);
        free(in);
    }
    if (test_mismatches(data, want, bytes, &first))
        fail_msg("clipt_transpose_host %zu x %zu (%s): byte %zu wrong", rows, cols,
                 clipt_status_string(s), first);
    free(data);
    free(want);
    return s;
}

static cl_uint context_refs(cl_context ctx)
{
    cl_uint n = 0;
    assert_status(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL),
                  CL_SUCCESS);
    return n;
}

static size_t programs_built(clipt_context cx)
{
    return clipt_cache_count(&cx->cache);
}

/* ---- clipt_transpose ----------------------------------------------------- */

/* The second call on a device uses the first one's context (its programs
 * are not built again), the second call of a shape its plan. */
static void test_oneshot_reuses_context_and_plan(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context cx, again;
    size_t built, hits;
    clipt_transpose_cache_clear();
    assert_null(clipt_oneshot_peek(env->cl.context, env->cl.device));
    assert_status(oneshot(env, env->cl.queue, 97, 89, 4, 0, 1), CLIPT_SUCCESS);
    cx = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_non_null(cx);
    built = programs_built(cx);
    hits = cx->plans.hits;
    assert_true(built > 0);
    assert_int_equal(clipt_plan_cache_count(&cx->plans), 1);
    /* the same shape: the cached plan, no program built */
    assert_status(oneshot(env, env->cl.queue, 97, 89, 4, 8, 2), CLIPT_SUCCESS);
    again = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_ptr_equal(again, cx);
    clipt_context_release(again);
    assert_int_equal(programs_built(cx), built);
    assert_int_equal(cx->plans.hits, hits + 1);
    assert_int_equal(clipt_plan_cache_count(&cx->plans), 1);
    /* another shape, another element size: the same context */
    assert_status(oneshot(env, env->cl.queue, 64, 48, 8, 0, 3), CLIPT_SUCCESS);
    assert_status(oneshot(env, env->cl.queue, 4099, 17, 4, 4, 4), CLIPT_SUCCESS);
    again = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_ptr_equal(again, cx);
    clipt_context_release(again);
    assert_int_equal(clipt_plan_cache_count(&cx->plans), 3);
    assert_int_equal(clipt_oneshot_count(), 1);
    clipt_context_release(cx);
    clipt_transpose_cache_clear();
    assert_int_equal(clipt_oneshot_count(), 0);
}

/* A context and queue of their own on env's device. */
typedef struct own_context {
    cl_context ctx;
    cl_command_queue q;
    cl_uint refs;       /* the context's count with only ours (PoCL counts
                           the queue's too) */
    test_env env;       /* env with ctx and q, for the helpers */
} own_context;

static void own_open(test_env *env, own_context *o)
{
    cl_int err;
    o->ctx = clCreateContext(NULL, 1, &env->cl.device, NULL, NULL, &err);
    assert_status(err, CL_SUCCESS);
    o->q = clCreateCommandQueue(o->ctx, env->cl.device, 0, &err);
    assert_status(err, CL_SUCCESS);
    o->env = *env;
    o->env.cl.context = o->ctx;
    o->env.cl.queue = o->q;
    o->refs = context_refs(o->ctx);
}

/* More (cl_context, device) pairs than the cache holds: the least recently
 * used goes, and with it the cl_context reference it held; a context the
 * application released while cached lives until its entry goes. */
static void test_oneshot_bound_and_retained_contexts(void **state)
{
    test_env *env = TEST_ENV(state);
    own_context own[CLIPT_TRANSPOSE_CACHE_SIZE + 1];
    clipt_context cx;
    clipt_transpose_cache_clear();
    for (size_t i = 0; i < CLIPT_TRANSPOSE_CACHE_SIZE + 1; i++)
        own_open(env, &own[i]);
    assert_status(oneshot(&own[0].env, own[0].q, 37, 53, 4, 0, 5), CLIPT_SUCCESS);
    assert_true(context_refs(own[0].ctx) > own[0].refs);
    for (size_t i = 1; i <= CLIPT_TRANSPOSE_CACHE_SIZE; i++) {
        assert_status(oneshot(&own[i].env, own[i].q, 37, 53, 4, 0, 5 + i), CLIPT_SUCCESS);
        assert_true(clipt_oneshot_count() <= CLIPT_TRANSPOSE_CACHE_SIZE);
    }
    /* own[0] was the least recently used: dropped, its references gone */
    assert_null(clipt_oneshot_peek(own[0].ctx, env->cl.device));
    assert_int_equal(context_refs(own[0].ctx), own[0].refs);
    cx = clipt_oneshot_peek(own[1].ctx, env->cl.device);
    assert_non_null(cx);
    clipt_context_release(cx);
    /* own[1]'s application references go while it is cached: the cache's
     * keep it usable, and clearing frees it (ASan, valgrind: no leak) */
    clReleaseCommandQueue(own[1].q);
    clReleaseContext(own[1].ctx);
    cx = clipt_oneshot_peek(own[1].ctx, env->cl.device);
    assert_non_null(cx);
    assert_true(context_refs(own[1].ctx) >= 1);
    clipt_context_release(cx);
    clipt_transpose_cache_clear();
    assert_int_equal(clipt_oneshot_count(), 0);
    for (size_t i = 2; i <= CLIPT_TRANSPOSE_CACHE_SIZE; i++)
        assert_int_equal(context_refs(own[i].ctx), own[i].refs);
    for (size_t i = 0; i <= CLIPT_TRANSPOSE_CACHE_SIZE; i++) {
        if (i == 1)
            continue;
        clReleaseCommandQueue(own[i].q);
        clReleaseContext(own[i].ctx);
    }
}

/* A runtime failure drops the entry (the buffer untouched: the first stage
 * failed to enqueue); the next call makes a new context and is exact. */
static void test_oneshot_failure_drops_entry(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context before, after;
    clipt_transpose_cache_clear();
    assert_status(oneshot(env, env->cl.queue, 120, 77, 4, 0, 9), CLIPT_SUCCESS);
    before = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_non_null(before);
    clipt_test_fail_stage_enqueue(1);
    assert_status(oneshot(env, env->cl.queue, 120, 77, 4, 0, 10), CL_OUT_OF_RESOURCES);
    clipt_test_fail_stage_enqueue(0);
    assert_null(clipt_oneshot_peek(env->cl.context, env->cl.device));
    /* the dropped context lives on while someone holds it, uncached */
    assert_int_equal(clipt_plan_cache_count(&before->plans), 0);
    assert_status(oneshot(env, env->cl.queue, 120, 77, 4, 0, 11), CLIPT_SUCCESS);
    after = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_non_null(after);
    assert_ptr_not_equal(after, before);
    clipt_context_release(after);
    clipt_context_release(before);
    clipt_transpose_cache_clear();
}

/* Bad arguments: their exact status, the buffer untouched, the cache as it
 * was (same context, same plans). */
static void test_oneshot_bad_input_keeps_cache(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context cx, again;
    cl_mem small;
    cl_int err;
    clipt_transpose_cache_clear();
    assert_status(oneshot(env, env->cl.queue, 64, 48, 4, 0, 12), CLIPT_SUCCESS);
    cx = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_non_null(cx);
    assert_status(oneshot(env, env->cl.queue, 64, 48, 4, 2, 13), CLIPT_ERROR_MISALIGNED_OFFSET);
    assert_status(oneshot(env, env->cl.queue, 64, 48, 3, 0, 14),
                  CLIPT_ERROR_INVALID_ELEM_SIZE);
    small = clCreateBuffer(env->cl.context, CL_MEM_READ_WRITE, 64 * 48 * 4 - 1, NULL, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clipt_transpose(env->cl.queue, small, 0, 64, 48, 4),
                  CLIPT_ERROR_BUFFER_TOO_SMALL);
    assert_status(clipt_transpose(env->cl.queue, small, 0, 0, 48, 4),
                  CLIPT_ERROR_INVALID_SHAPE);
    clReleaseMemObject(small);
    again = clipt_oneshot_peek(env->cl.context, env->cl.device);
    assert_ptr_equal(again, cx);
    assert_int_equal(clipt_plan_cache_count(&cx->plans), 1);
    clipt_context_release(again);
    clipt_context_release(cx);
    clipt_transpose_cache_clear();
}

/* ---- a context's plan cache (clipt_transpose_host) --------------------- */

static void test_host_plans_cached(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c;
    clipt_plan_options o;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c), CLIPT_SUCCESS);
    assert_status(host(c, env->cl.queue, 97, 89, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    assert_int_equal(c->plans.misses, 1);
    assert_status(host(c, env->cl.queue, 97, 89, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(c->plans.hits, 1);
    /* the options as the plan runs them: the device's own value given as
     * an override is the same plan; another tile rule is another */
    clipt_plan_options_init(&o);
    o.walk_unroll = c->profile.tuning.walk_unroll;
    assert_status(host(c, env->cl.queue, 97, 89, 4, &o), CLIPT_SUCCESS);
    assert_int_equal(c->plans.hits, 2);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    o.tile_rule = CLIPT_TILE_RULE_ALG1;
    assert_status(host(c, env->cl.queue, 97, 89, 4, &o), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 2);
    /* element size is part of the key */
    assert_status(host(c, env->cl.queue, 97, 89, 2, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 3);
    /* bounded: the least recently used go */
    for (size_t i = 0; i < CLIPT_PLAN_CACHE_SIZE + 2; i++)
        assert_status(host(c, env->cl.queue, 30 + i, 41, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), CLIPT_PLAN_CACHE_SIZE);
    assert_int_equal(c->plans.hits, 2);
    assert_status(host(c, env->cl.queue, 97, 89, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(c->plans.hits, 2); /* 97 x 89 was dropped: made again */
    clipt_context_plan_cache_clear(c);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 0);
    assert_status(host(c, env->cl.queue, 97, 89, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    /* released with cached plans: they go with it (ASan: no leak) */
    clipt_context_release(c);
    clipt_context_plan_cache_clear(NULL);
}

/* Uncached plans: a plan larger than the budget runs once and goes; a
 * failure drops the plan it used; bad arguments keep the cache. */
static void test_host_uncached_and_dropped(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c;
    clipt_plan p;
    static const size_t shapes[][2] = {{120, 77}, {97, 89}, {300, 200}, {1000, 999}};
    size_t rows = 0, cols = 0;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c), CLIPT_SUCCESS);
    /* a shape whose plan has scratch (some device's plans of small shapes
     * have none) */
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && !rows; i++) {
        assert_status(clipt_plan_create(c, shapes[i][0], shapes[i][1], 4, NULL, &p),
                      CLIPT_SUCCESS);
        if (clipt_plan_scratch_size(p) > 0)
            rows = shapes[i][0], cols = shapes[i][1];
        clipt_plan_release(p);
    }
    if (!rows)
        fail_msg("no test shape has a plan with scratch on this device");
    c->plans.budget_bytes = 0; /* test-only: no plan with scratch fits */
    assert_status(host(c, env->cl.queue, rows, cols, 4, NULL), CLIPT_SUCCESS);
    assert_status(host(c, env->cl.queue, rows, cols, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 0);
    c->plans.budget_bytes = env->ctx->plans.budget_bytes;
    assert_status(host(c, env->cl.queue, rows, cols, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    /* bad arguments: exact status, data untouched (host() checks), cache kept */
    assert_status(host(c, env->cl.queue, rows, cols, 3, NULL), CLIPT_ERROR_INVALID_ELEM_SIZE);
    assert_status(host(c, env->cl.queue, 0, cols, 4, NULL), CLIPT_ERROR_INVALID_SHAPE);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    /* a runtime failure: the data untouched, the plan dropped */
    clipt_test_fail_stage_enqueue(1);
    assert_status(host(c, env->cl.queue, rows, cols, 4, NULL), CL_OUT_OF_RESOURCES);
    clipt_test_fail_stage_enqueue(0);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 0);
    assert_status(host(c, env->cl.queue, rows, cols, 4, NULL), CLIPT_SUCCESS);
    assert_int_equal(clipt_plan_cache_count(&c->plans), 1);
    clipt_context_release(c);
}

/* clipt_plan_create is not cached: two plans of one shape are two plans. */
static void test_plan_create_not_cached(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan a, b;
    assert_status(clipt_plan_create(env->ctx, 97, 89, 4, NULL, &a), CLIPT_SUCCESS);
    assert_status(clipt_plan_create(env->ctx, 97, 89, 4, NULL, &b), CLIPT_SUCCESS);
    assert_ptr_not_equal(a, b);
    clipt_plan_release(a);
    clipt_plan_release(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oneshot_reuses_context_and_plan),
        cmocka_unit_test(test_oneshot_bound_and_retained_contexts),
        cmocka_unit_test(test_oneshot_failure_drops_entry),
        cmocka_unit_test(test_oneshot_bad_input_keeps_cache),
        cmocka_unit_test(test_host_plans_cached),
        cmocka_unit_test(test_host_uncached_and_dropped),
        cmocka_unit_test(test_plan_create_not_cached),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
