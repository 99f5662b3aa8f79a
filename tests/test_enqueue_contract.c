/* The enqueue contract of whole plans: wait lists and out-of-order queues,
 * repeated enqueues back to back, plans and contexts shared by threads,
 * sub-buffers, release while a run is queued or before the first, and the
 * profile of a run.
 * Bit-exact against the CPU reference. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "plan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static cl_int event_status(cl_event e)
{
    cl_int st = -12345;
    assert_status(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st,
                                 &st, NULL), CL_SUCCESS);
    return st;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A plan and a pattern matrix to run it on, with the expected result. */
typedef struct fixture {
    clipt_plan plan;
    cl_mem buf;
    size_t rows, cols, elem, bytes;
    unsigned char *before, *after;
} fixture;

/* Tiles are forced (tile x tile) so that every sequence has several stages. */
static void fixture_open(test_env *env, fixture *f, size_t rows, size_t cols,
                         size_t elem, clipt_sequence seq, size_t tile)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    o.tile_m = o.tile_n = tile;
    f->rows = rows, f->cols = cols, f->elem = elem;
    assert_status(clipt_plan_create(env->ctx, rows, cols, elem, &o, &f->plan),
                  CLIPT_SUCCESS);
    f->bytes = clipt_plan_buffer_size(f->plan);
    assert_int_equal(f->bytes, rows * cols * elem); /* forced tiles: no padding */
    f->buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, f->bytes, rows + cols, &f->before);
    f->after = malloc(f->bytes);
    assert_non_null(f->after);
    test_reference_transpose(f->before, f->after, rows, cols, elem);
}

static void fixture_close(fixture *f)
{
    clipt_plan_release(f->plan);
    clReleaseMemObject(f->buf);
    free(f->before);
    free(f->after);
}

/* The transposition waits for a user event in its wait list, on an
 * out-of-order queue, and its event completes once it has run. */
static void test_out_of_order_user_event(void **state)
{
    test_env *env = TEST_ENV(state);
    cl_command_queue q = test_out_of_order_queue(env);
    fixture f;
    cl_event user, done = NULL;
    cl_int err;
    if (!q)
        skip();
    fixture_open(env, &f, 300, 500, 4, CLIPT_SEQUENCE_3_1, 20);
    user = clCreateUserEvent(env->cl.context, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clipt_enqueue(f.plan, q, f.buf, 0, 1, &user, &done), CLIPT_SUCCESS);
    assert_non_null(done);
    assert_status(clFlush(q), CL_SUCCESS);
    sleep_ms(200);
    if (event_status(done) <= CL_RUNNING || event_status(f.plan->stage_first[0]) <= CL_RUNNING)
        fail_msg("the transposition started before its wait list completed "
                 "(first command %d, last %d)", event_status(f.plan->stage_first[0]),
                 event_status(done));
    assert_status(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_int_equal(event_status(done), CL_COMPLETE);
    {
        unsigned char *got = malloc(f.bytes);
        size_t first;
        assert_non_null(got);
        assert_status(clEnqueueReadBuffer(q, f.buf, CL_TRUE, 0, f.bytes, got, 1,
                                          &done, NULL), CL_SUCCESS);
        assert_int_equal(test_mismatches(got, f.after, f.bytes, &first), 0);
        free(got);
    }
    clReleaseEvent(done);
    clReleaseEvent(user);
    fixture_close(&f);
    clReleaseCommandQueue(q);
}

/* Two enqueues of one plan of a square matrix, back to back with no wait
 * list: the plan orders them itself, so the matrix comes back unchanged. */
static void back_to_back(test_env *env, cl_command_queue q, clipt_sequence seq)
{
    fixture f;
    cl_event first = NULL, second = NULL;
    fixture_open(env, &f, 384, 384, 8, seq, 16);
    assert_status(clipt_enqueue(f.plan, q, f.buf, 0, 0, NULL, &first), CLIPT_SUCCESS);
    assert_status(clipt_enqueue(f.plan, q, f.buf, 0, 0, NULL, &second), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &second), CL_SUCCESS);
    assert_int_equal(event_status(first), CL_COMPLETE);
    assert_int_equal(event_status(second), CL_COMPLETE);
    test_expect_buffer(env, f.buf, f.before, f.bytes, "transposed twice");
    /* and once more: the transpose */
    clReleaseEvent(first);
    assert_status(clipt_enqueue(f.plan, q, f.buf, 0, 1, &second, &first), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &first), CL_SUCCESS);
    test_expect_buffer(env, f.buf, f.after, f.bytes, "transposed three times");
    clReleaseEvent(first);
    clReleaseEvent(second);
    fixture_close(&f);
}

static void test_back_to_back(void **state)
{
    test_env *env = TEST_ENV(state);
    static const clipt_sequence seqs[] = {CLIPT_SEQUENCE_AUTO, CLIPT_SEQUENCE_3_2,
                                          CLIPT_SEQUENCE_4_3, CLIPT_SEQUENCE_1};
    cl_command_queue ooo = test_out_of_order_queue(env);
    for (size_t i = 0; i < COUNT(seqs); i++) {
        back_to_back(env, env->cl.queue, seqs[i]);
        if (ooo)
            back_to_back(env, ooo, seqs[i]);
    }
    if (ooo)
        clReleaseCommandQueue(ooo);
}

/* Several threads enqueue the same plan at once: an even number of
 * transpositions of a square matrix gives it back. */
typedef struct thread_job {
    clipt_plan plan;
    cl_command_queue queue;
    cl_mem buf;
    clipt_status status;
    cl_event last;
} thread_job;

static void *enqueue_three(void *arg)
{
    thread_job *job = arg;
    for (int i = 0; i < 3 && job->status == CLIPT_SUCCESS; i++) {
        if (job->last)
            clReleaseEvent(job->last);
        job->status = clipt_enqueue(job->plan, job->queue, job->buf, 0, 0, NULL,
                                    &job->last);
    }
    return NULL;
}

static void test_threads_share_plan(void **state)
{
    test_env *env = TEST_ENV(state);
    cl_command_queue ooo = test_out_of_order_queue(env);
    thread_job jobs[2];
    pthread_t threads[2];
    fixture f;
    fixture_open(env, &f, 256, 256, 4, CLIPT_SEQUENCE_3_2, 16);
    for (int i = 0; i < 2; i++) {
        thread_job j = {f.plan, i == 1 && ooo ? ooo : env->cl.queue, f.buf,
                        CLIPT_SUCCESS, NULL};
        jobs[i] = j;
        assert_int_equal(pthread_create(&threads[i], NULL, enqueue_three, &jobs[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        assert_status(jobs[i].status, CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &jobs[i].last), CL_SUCCESS);
        clReleaseEvent(jobs[i].last);
    }
    test_expect_buffer(env, f.buf, f.before, f.bytes, "transposed six times");
    fixture_close(&f);
    if (ooo)
        clReleaseCommandQueue(ooo);
}

/* Threads plan and run at once on one fresh context, whose kernels are
 * therefore built concurrently through its cache. */
typedef struct context_job {
    test_env env;
    size_t elem;
    clipt_status status;
    size_t bad;
} context_job;

static void *plan_and_run(void *arg)
{
    context_job *job = arg;
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = job->elem < 4 ? CLIPT_SEQUENCE_4_3 : CLIPT_SEQUENCE_3_1;
    job->status = test_run_transpose(&job->env, 120 + job->elem, 200, job->elem, 0, &o,
                                     &job->bad, NULL, 0);
    return NULL;
}

static void test_threads_share_context(void **state)
{
    context_job jobs[COUNT(elem_sizes)];
    pthread_t threads[COUNT(elem_sizes)];
    test_env shared = *TEST_ENV(state);
    assert_status(clipt_context_create(shared.cl.context, shared.cl.device, &shared.ctx),
                  CLIPT_SUCCESS);
    for (size_t i = 0; i < COUNT(jobs); i++) {
        context_job j = {shared, elem_sizes[i], CLIPT_SUCCESS, 0};
        jobs[i] = j;
        assert_int_equal(pthread_create(&threads[i], NULL, plan_and_run, &jobs[i]), 0);
    }
    for (size_t i = 0; i < COUNT(jobs); i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        if (jobs[i].status != CLIPT_SUCCESS || jobs[i].bad != 0)
            fail_msg("thread with %zu-byte elements: %s, %zu bytes wrong", jobs[i].elem,
                     clipt_status_string(jobs[i].status), jobs[i].bad);
    }
    clipt_context_release(shared.ctx);
}

/* A sub-buffer is a buffer like any other: only its region changes. */
static void test_sub_buffer(void **state)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_NONE;
    test_run_on_sub_buffer(TEST_ENV(state), 90, 70, 2, 6, &o, 9);
}

/* Releasing the plan and its context right after the enqueue is allowed:
 * the commands keep what they need.  No event is asked for here. */
static void test_release_while_running(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c;
    fixture f;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c), CLIPT_SUCCESS);
    {
        test_env own = *env;
        own.ctx = c;
        fixture_open(&own, &f, 300, 500, 2, CLIPT_SEQUENCE_4_2, 20);
    }
    clipt_context_release(c); /* the plan holds its own reference */
    assert_status(clipt_enqueue(f.plan, env->cl.queue, f.buf, 0, 0, NULL, NULL),
                  CLIPT_SUCCESS);
    clipt_plan_release(f.plan);
    f.plan = NULL;
    assert_status(clFinish(env->cl.queue), CL_SUCCESS);
    test_expect_buffer(env, f.buf, f.after, f.bytes, "plan released while running");
    fixture_close(&f);
}

/* The plan's first run queued behind a command that waits for a user
 * event, then the plan released at once: release must not wait for the
 * run (it would wait forever here: the event is set after it), and the
 * run, which moves the segment tables to the device first, must still be
 * right. */
static void test_release_before_first_run(void **state)
{
    test_env *env = TEST_ENV(state);
    char text[4096];
    cl_event user, gate = NULL;
    cl_int err;
    fixture f;
    fixture_open(env, &f, 300, 500, 4, CLIPT_SEQUENCE_3_1, 20);
    assert_status(clipt_plan_describe(f.plan, text, sizeof text), CLIPT_SUCCESS);
    if (!strstr(text, "segment"))
        fail_msg("the plan has no segment stage, nothing to check: %s", text);
    user = clCreateUserEvent(env->cl.context, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clEnqueueMarkerWithWaitList(env->cl.queue, 1, &user, &gate), CL_SUCCESS);
    assert_status(clipt_enqueue(f.plan, env->cl.queue, f.buf, 0, 0, NULL, NULL),
                  CLIPT_SUCCESS);
    clipt_plan_release(f.plan);
    f.plan = NULL;
    assert_status(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    assert_status(clFinish(env->cl.queue), CL_SUCCESS);
    test_expect_buffer(env, f.buf, f.after, f.bytes, "plan released before its first run");
    clReleaseEvent(gate);
    clReleaseEvent(user);
    fixture_close(&f);
}

/* ---- profiles of runs ---------------------------------------------------------- */

static void test_profile(void **state)
{
    test_env *env = TEST_ENV(state);
    fixture f;
    cl_event done;
    double total = 0, stages[8] = {0}, sum = 0, one[2] = {0, -1};
    unsigned n = 0;
    fixture_open(env, &f, 512, 384, 4, CLIPT_SEQUENCE_3_2, 32);
    assert_status(clipt_enqueue(f.plan, env->cl.queue, f.buf, 0, 0, NULL, &done),
                  CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_status(clipt_plan_profile(f.plan, &total, stages, 8, &n), CLIPT_SUCCESS);
    assert_int_equal(n, 3);
    for (unsigned i = 0; i < n; i++) {
        if (!(stages[i] > 0))
            fail_msg("stage %u took %g s", i, stages[i]);
        sum += stages[i];
    }
    if (!(total > 0) || sum > total * (1 + 1e-9))
        fail_msg("total %g s, stages add up to %g s", total, sum);
    /* fewer slots than stages: only those are written */
    assert_status(clipt_plan_profile(f.plan, NULL, one, 1, NULL), CLIPT_SUCCESS);
    assert_true(one[0] > 0 && one[1] == -1);
    test_expect_buffer(env, f.buf, f.after, f.bytes, "profiled run");
    clReleaseEvent(done);
    fixture_close(&f);
}

/* A single row has no stage to time, but its enqueue still has one. */
static void test_profile_no_stages(void **state)
{
    test_env *env = TEST_ENV(state);
    fixture f;
    cl_event done;
    double total = -1;
    unsigned n = 99;
    fixture_open(env, &f, 1, 1000, 8, CLIPT_SEQUENCE_AUTO, 0);
    assert_status(clipt_enqueue(f.plan, env->cl.queue, f.buf, 0, 0, NULL, &done),
                  CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_status(clipt_plan_profile(f.plan, &total, NULL, 0, &n), CLIPT_SUCCESS);
    assert_int_equal(n, 0);
    assert_true(total >= 0);
    test_expect_buffer(env, f.buf, f.after, f.bytes, "a single row");
    clReleaseEvent(done);
    fixture_close(&f);
}

int main(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_order_user_event),
        cmocka_unit_test(test_back_to_back),
        cmocka_unit_test(test_threads_share_plan),
        cmocka_unit_test(test_release_while_running),
        cmocka_unit_test(test_release_before_first_run),
        cmocka_unit_test(test_threads_share_context),
        cmocka_unit_test(test_sub_buffer),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_profile_no_stages),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
