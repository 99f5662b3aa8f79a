/* Threads, as include/clipt.h allows them: eight threads share one clipt
 * context, each with its own queue, plans and buffers, 200 transpositions
 * apiece, every one verified bit-exact; four threads enqueue one shared
 * plan on buffers of their own; and four threads run the one-shot calls
 * of one shape through the caches (one cached context and plan for
 * clipt_transpose, one cached plan of a context for clipt_transpose_host)
 * while another clears them; and eight threads make and release plans on
 * one context, a new plan for every run (kernels and buffers through the
 * context's pool, two plans of a shape alive at once), while another
 * thread turns the pool off and on and clears it.  CI also runs this under
 * ThreadSanitizer. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "support.h"

#include <pthread.h>
#include <time.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define THREADS 8
#define RUNS 200
#define SHARED_THREADS 4
#define SHARED_RUNS 50
#define CHURN_RUNS 60

/* Small shapes: the whole test stays within seconds on a CPU device.  The
 * last two need several stages (or padding) with a GPU's local memory. */
static const size_t shapes[][3] = { /* rows, cols, elem */
    {37, 53, 4}, {64, 48, 1}, {19, 130, 8}, {97, 89, 2}, {1, 70, 16}, {120, 77, 4}};

/* One shape a thread runs: its plan, buffer, input and expected result. */
typedef struct job_shape {
    clipt_plan plan;
    int own_plan;                 /* released with the shape */
    cl_mem buf;
    size_t rows, cols, elem, bytes, room;
    unsigned char *input, *expect, *got;
} job_shape;

typedef struct job {
    test_env env;                 /* the shared context, this thread's queue */
    unsigned id;
    job_shape shape[COUNT(shapes)];
    unsigned exact;               /* runs verified bit-exact */
    char failure[512];            /* empty when every run was exact */
} job;

/* With `plan` NULL the shape makes its own plan, else it runs `plan`. */
static int shape_open(job *j, job_shape *s, size_t rows, size_t cols, size_t elem,
                      clipt_plan plan)
{
    cl_int err;
    s->rows = rows, s->cols = cols, s->elem = elem;
    s->bytes = rows * cols * elem;
    s->plan = plan;
    s->own_plan = plan == NULL;
    if (s->own_plan &&
        clipt_plan_create(j->env.ctx, rows, cols, elem, NULL, &s->plan) != CLIPT_SUCCESS)
        return 0;
    s->room = clipt_plan_buffer_size(s->plan);
    s->input = malloc(s->room);
    s->expect = malloc(s->bytes);
    s->got = malloc(s->bytes);
    if (!s->input || !s->expect || !s->got)
        return 0;
    test_fill_pattern(s->input, s->room / elem, elem, j->id * 1000 + rows);
    test_reference_transpose(s->input, s->expect, rows, cols, elem);
    s->buf = clCreateBuffer(j->env.cl.context, CL_MEM_READ_WRITE, s->room, NULL, &err);
    return err == CL_SUCCESS;
}

static void shape_close(job_shape *s)
{
    if (s->own_plan)
        clipt_plan_release(s->plan);
    if (s->buf)
        clReleaseMemObject(s->buf);
    free(s->input);
    free(s->expect);
    free(s->got);
}

/* Upload, transpose, read back, compare; 0 and a message on failure. */
static int run_once(job *j, job_shape *s, cl_uint run)
{
    cl_command_queue q = j->env.cl.queue;
    cl_event done = NULL;
    size_t first;
    clipt_status st = clEnqueueWriteBuffer(q, s->buf, CL_FALSE, 0, s->room, s->input, 0,
                                           NULL, NULL);
    if (st == CL_SUCCESS)
        st = clipt_enqueue(s->plan, q, s->buf, 0, 0, NULL, &done);
    if (st == CL_SUCCESS)
        st = clEnqueueReadBuffer(q, s->buf, CL_TRUE, 0, s->bytes, s->got, 1, &done, NULL);
    if (done)
        clReleaseEvent(done);
    if (st != CL_SUCCESS) {
        snprintf(j->failure, sizeof j->failure, "thread %u run %u: %s", j->id, run,
                 clipt_status_string(st));
        return 0;
    }
    if (test_mismatches(s->got, s->expect, s->bytes, &first)) {
        snprintf(j->failure, sizeof j->failure,
                 "thread %u run %u, %zu x %zu, %zu-byte elements: byte %zu wrong", j->id,
                 run, s->rows, s->cols, s->elem, first);
        return 0;
    }
    j->exact++;
    return 1;
}

/* Every shape with a plan of its own; 0 and a message on failure. */
static int open_shapes(job *j)
{
    int ok = 1;
    /* plans made concurrently: their kernels come through the shared cache */
    for (size_t i = 0; i < COUNT(shapes) && ok; i++)
        ok = shape_open(j, &j->shape[i], shapes[i][0], shapes[i][1], shapes[i][2], NULL);
    if (!ok)
        snprintf(j->failure, sizeof j->failure, "thread %u: cannot make its plans", j->id);
    return ok;
}

static void *own_plans(void *arg)
{
    job *j = arg;
    int ok = open_shapes(j);
    for (cl_uint run = 0; run < RUNS && ok; run++)
        ok = run_once(j, &j->shape[(run + j->id) % COUNT(shapes)], run);
    return NULL;
}

/* A queue of its own for each job, on the shared context. */
static void open_queues(test_env *shared, job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cl_int err;
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].env = *shared;
        jobs[i].id = (unsigned)i;
        jobs[i].env.cl.queue = clCreateCommandQueue(shared->cl.context, shared->cl.device,
                                                    0, &err);
        assert_status(err, CL_SUCCESS);
    }
}

/* Runs fn on every job in its own thread; fails unless each job verified
 * `runs` transpositions. */
static void run_threads(job *jobs, size_t n, void *(*fn)(void *), unsigned runs)
{
    pthread_t threads[THREADS];
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, fn, &jobs[i]), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    for (size_t i = 0; i < n; i++) {
        clReleaseCommandQueue(jobs[i].env.cl.queue);
        if (jobs[i].failure[0])
            fail_msg("%s", jobs[i].failure);
        assert_int_equal(jobs[i].exact, runs);
    }
}

static atomic_int churning;

/* Eight threads run fn (each `runs` verified transpositions) on a fresh
 * context, so that the threads build its kernels at once; with a GPU's
 * local memory, for plans of several stages.  `beside` (if not NULL) runs
 * in a ninth thread on the context while `churning` is set. */
static void eight_threads(void **state, void *(*fn)(void *), unsigned runs,
                          void *(*beside)(void *))
{
    static job jobs[THREADS];
    test_env shared = *TEST_ENV(state);
    pthread_t other;
    shared.ctx = test_context_limited(TEST_ENV(state), 48 * 1024);
    open_queues(&shared, jobs, THREADS);
    atomic_store(&churning, 1);
    if (beside)
        assert_int_equal(pthread_create(&other, NULL, beside, shared.ctx), 0);
    run_threads(jobs, THREADS, fn, runs);
    atomic_store(&churning, 0);
    if (beside)
        assert_int_equal(pthread_join(other, NULL), 0);
    for (size_t i = 0; i < THREADS; i++)
        for (size_t k = 0; k < COUNT(shapes); k++)
            shape_close(&jobs[i].shape[k]);
    if (beside) /* the churn: plans made from what others released */
        assert_true(shared.ctx->pool.kernels_reused > 0);
    clipt_context_release(shared.ctx);
}

static void test_eight_threads_one_context(void **state)
{
    eight_threads(state, own_plans, RUNS, NULL);
}

/* One plan, enqueued by every thread on buffers of its own: the plan
 * orders its runs (they share its scratch buffer). */
static void *one_plan(void *arg)
{
    job *j = arg;
    job_shape *s = &j->shape[0];
    for (cl_uint run = 0; run < SHARED_RUNS; run++)
        if (!run_once(j, s, run))
            break;
    return NULL;
}

static void test_threads_share_one_plan(void **state)
{
    static job jobs[SHARED_THREADS];
    test_env shared = *TEST_ENV(state);
    clipt_plan plan;
    shared.ctx = test_context_limited(TEST_ENV(state), 48 * 1024);
    assert_status(clipt_plan_create(shared.ctx, 120, 77, 4, NULL, &plan), CLIPT_SUCCESS);
    open_queues(&shared, jobs, SHARED_THREADS);
    for (size_t i = 0; i < SHARED_THREADS; i++)
        assert_true(shape_open(&jobs[i], &jobs[i].shape[0], 120, 77, 4, plan));
    run_threads(jobs, SHARED_THREADS, one_plan, SHARED_RUNS);
    for (size_t i = 0; i < SHARED_THREADS; i++)
        shape_close(&jobs[i].shape[0]);
    clipt_plan_release(plan);
    clipt_context_release(shared.ctx);
}

/* A new plan for every run: made while the shape's previous plan still
 * lives (they must not share a kernel or a buffer), which is released
 * right after. */
static void *churn_plans(void *arg)
{
    job *j = arg;
    int ok = open_shapes(j);
    for (cl_uint run = 0; run < CHURN_RUNS && ok; run++) {
        job_shape *s = &j->shape[(run + j->id) % COUNT(shapes)];
        clipt_plan next = NULL;
        clipt_status st = clipt_plan_create(j->env.ctx, s->rows, s->cols, s->elem, NULL, &next);
        if (st != CLIPT_SUCCESS) {
            snprintf(j->failure, sizeof j->failure, "thread %u run %u: create: %s", j->id,
                     run, clipt_status_string(st));
            break;
        }
        clipt_plan_release(s->plan);
        s->plan = next;
        ok = run_once(j, s, run);
    }
    return NULL;
}

/* Turns the pool off and on and clears it while the threads churn. */
static void *toggle_pool(void *arg)
{
    const struct timespec pause = {0, 2000000};
    for (unsigned i = 0; atomic_load(&churning); i++) {
        clipt_context_set_pool_limit(arg, i % 3 == 0 ? 0 : (size_t)1 << 26);
        if (i % 5 == 0)
            clipt_context_plan_cache_clear(arg);
        nanosleep(&pause, NULL);
    }
    clipt_context_set_pool_limit(arg, (size_t)1 << 26);
    return NULL;
}

static void test_threads_churn_pooled_plans(void **state)
{
    eight_threads(state, churn_plans, CHURN_RUNS, toggle_pool);
}

/* One-shot calls of one shape, alternately clipt_transpose and
 * clipt_transpose_host, each verified. */
static void *one_shots(void *arg)
{
    job *j = arg;
    job_shape *s = &j->shape[0];
    for (cl_uint run = 0; run < SHARED_RUNS; run++) {
        size_t first;
        clipt_status st;
        memcpy(s->got, s->input, s->bytes);
        if (run % 2)
            st = clipt_transpose_host(j->env.ctx, j->env.cl.queue, s->got, s->rows, s->cols,
                                      s->elem, 1 + run % 3, NULL);
        else if ((st = clEnqueueWriteBuffer(j->env.cl.queue, s->buf, CL_TRUE, 0, s->bytes,
                                            s->input, 0, NULL, NULL)) == CL_SUCCESS &&
                 (st = clipt_transpose(j->env.cl.queue, s->buf, 0, s->rows, s->cols,
                                       s->elem)) == CL_SUCCESS)
            st = clEnqueueReadBuffer(j->env.cl.queue, s->buf, CL_TRUE, 0, s->bytes, s->got,
                                     0, NULL, NULL);
        if (st != CL_SUCCESS || test_mismatches(s->got, s->expect, s->bytes, &first)) {
            snprintf(j->failure, sizeof j->failure, "thread %u run %u: %s", j->id, run,
                     st != CL_SUCCESS ? clipt_status_string(st) : "wrong result");
            break;
        }
        j->exact++;
    }
    return NULL;
}

static atomic_int clearing;

static void *clear_caches(void *arg)
{
    clipt_context c = arg;
    const struct timespec pause = {0, 2000000}; /* let the callers hit too */
    while (atomic_load(&clearing)) {
        clipt_transpose_cache_clear();
        clipt_context_plan_cache_clear(c);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static void test_threads_share_cached_plans(void **state)
{
    static job jobs[SHARED_THREADS];
    test_env shared = *TEST_ENV(state);
    pthread_t clearer;
    clipt_plan plan;
    shared.ctx = test_context_limited(TEST_ENV(state), 48 * 1024);
    /* a plan of the shape without padding: exactly rows*cols*elem bytes */
    assert_status(clipt_plan_create(shared.ctx, 120, 77, 4, NULL, &plan), CLIPT_SUCCESS);
    open_queues(&shared, jobs, SHARED_THREADS);
    for (size_t i = 0; i < SHARED_THREADS; i++)
        assert_true(shape_open(&jobs[i], &jobs[i].shape[0], 120, 77, 4, plan));
    clipt_plan_release(plan);
    atomic_store(&clearing, 1);
    assert_int_equal(pthread_create(&clearer, NULL, clear_caches, shared.ctx), 0);
    run_threads(jobs, SHARED_THREADS, one_shots, SHARED_RUNS);
    atomic_store(&clearing, 0);
    assert_int_equal(pthread_join(clearer, NULL), 0);
    for (size_t i = 0; i < SHARED_THREADS; i++) {
        jobs[i].shape[0].own_plan = 0;
        shape_close(&jobs[i].shape[0]);
    }
    clipt_transpose_cache_clear();
    clipt_context_release(shared.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_threads_one_context),
        cmocka_unit_test(test_threads_share_one_plan),
        cmocka_unit_test(test_threads_share_cached_plans),
        cmocka_unit_test(test_threads_churn_pooled_plans),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
