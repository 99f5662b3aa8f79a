/* The partial-enqueue path that clipt.h promises for clipt_enqueue: a
 * runtime failure after some stages were enqueued.  The enqueue module's
 * test hook makes the k-th stage enqueue fail with CL_OUT_OF_RESOURCES, for
 * every k of plans of several stages.  Then: the status is that failure and
 * no event comes out; the stages before k still run (and only they), so
 * the buffer holds the matrix after stages 1..k-1; the plan's next enqueue
 * works and waits for them. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "support.h"
#include "enqueue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static cl_int execution_status(cl_event e)
{
    cl_int state = CL_QUEUED;
    assert_status(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                                 NULL),
                  CL_SUCCESS);
    return state;
}

/* The host pattern after the CPU references of the plan's stages
 * [0, count), in place over the plan's whole buffer. */
static unsigned char *after_stages(clipt_plan p, const unsigned char *pattern,
                                   unsigned count)
{
    const size_t bytes = clipt_plan_buffer_size(p);
    unsigned char *a = malloc(bytes), *b = malloc(bytes), *t;
    assert_true(a && b);
    memcpy(a, pattern, bytes);
    for (unsigned i = 0; i < count; i++) {
        memcpy(b, a, bytes);
        const clipt_stage_spec sp = clipt_stage_plan_spec(&p->stages[i]); /* unwidened */
        test_reference_stage(&sp, a, b, p->elem);
        t = a, a = b, b = t;
    }
    free(b);
    return a;
}

/* Stage k of plan p fails to enqueue; see the file's comment.  q is
 * out of order when `ordered_by_events` (so that only events order the
 * commands and the wait can be seen), else in order. */
static void fail_stage(test_env *env, clipt_plan p, cl_command_queue q, unsigned k,
                       int ordered_by_events)
{
    const size_t bytes = clipt_plan_buffer_size(p);
    unsigned char *pattern = NULL, *again = NULL, *partial, *whole;
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 11 + k, &pattern);
    cl_mem buf2 = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 11 + k, &again);
    cl_event event = (cl_event)&event; /* not NULL: the failure must clear it */
    cl_event next = NULL;
    cl_int err;
    char what[128];
    /* nothing runs before the gate opens: the wait can be watched */
    cl_event gate = clCreateUserEvent(env->cl.context, &err);
    assert_status(err, CL_SUCCESS);

    clipt_test_fail_stage_enqueue(k);
    assert_status(clipt_enqueue(p, q, buf, 0, 1, &gate, &event), CL_OUT_OF_RESOURCES);
    clipt_test_fail_stage_enqueue(0);
    assert_null(event);
    assert_status(clipt_enqueue(p, q, buf2, 0, 0, NULL, &next), CLIPT_SUCCESS);
    assert_non_null(next);
    assert_status(clFlush(q), CL_SUCCESS);
    if (k == 1) {
        /* nothing of the failed run was enqueued: nothing to wait for */
        assert_status(clWaitForEvents(1, &next), CL_SUCCESS);
    } else if (ordered_by_events) {
        /* the next run waits for stages 1..k-1, which wait for the gate */
        sleep_ms(100);
        if (execution_status(next) == CL_COMPLETE)
            fail_msg("stage %u failed: the next enqueue completed before the %u stages "
                     "enqueued before the failure could run", k, k - 1);
    }
    assert_status(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_status(clWaitForEvents(1, &next), CL_SUCCESS);
    assert_status(clFinish(q), CL_SUCCESS);

    /* the failed run did stages 1..k-1 exactly; the next one all of them */
    partial = after_stages(p, pattern, k - 1);
    snprintf(what, sizeof what, "buffer after a failure at stage %u of %u", k,
             p->num_stages);
    test_expect_buffer(env, buf, partial, bytes, what);
    whole = after_stages(p, again, p->num_stages);
    snprintf(what, sizeof what, "the enqueue after a failure at stage %u", k);
    test_expect_buffer(env, buf2, whole, p->rows * p->cols * p->elem, what);
    /* and that is the transpose */
    test_reference_transpose(again, pattern, p->rows, p->cols, p->elem);
    assert_memory_equal(whole, pattern, p->rows * p->cols * p->elem);

    clReleaseEvent(next);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    clReleaseMemObject(buf2);
    free(pattern);
    free(again);
    free(partial);
    free(whole);
}

typedef struct plan_case {
    size_t rows, cols, elem;
    clipt_sequence sequence;
    size_t tile_m, tile_n;
    unsigned stages; /* how many the plan has */
} plan_case;

static void test_partial_enqueue(void **state)
{
    static const plan_case cases[] = {
        {60, 84, 4, CLIPT_SEQUENCE_4_1, 6, 7, 4},  /* four permutations         */
        {97, 101, 8, CLIPT_SEQUENCE_3_1, 0, 0, 5}, /* pad, three stages, unpad  */
        {300, 7, 2, CLIPT_SEQUENCE_AUTO, 0, 0, 2}};
    test_env *env = TEST_ENV(state);
    /* a GPU's local memory, so that the prime sides are padded */
    clipt_context small = test_context_limited(env, 16384);
    cl_command_queue ooo = test_out_of_order_queue(env);
    cl_command_queue q = ooo ? ooo : env->cl.queue;
    if (!ooo)
        print_message("in-order queue: the next enqueue is after the failed one anyway, "
                      "so its wait is not observed\n");
    for (size_t i = 0; i < COUNT(cases); i++) {
        clipt_plan_options o;
        clipt_plan p = NULL;
        clipt_plan_options_init(&o);
        o.sequence = cases[i].sequence;
        o.tile_m = cases[i].tile_m;
        o.tile_n = cases[i].tile_n;
        /* Algorithm 5's tiles: the stage counts above are its plans' */
        o.tile_rule = CLIPT_TILE_RULE_ALG5;
        assert_status(clipt_plan_create(small, cases[i].rows, cases[i].cols, cases[i].elem, &o,
                                        &p),
                      CLIPT_SUCCESS);
        if (p->num_stages != cases[i].stages)
            fail_msg("%zu x %zu: %u stages, the case wants %u", cases[i].rows, cases[i].cols,
                     p->num_stages, cases[i].stages);
        for (unsigned k = 1; k <= p->num_stages; k++)
            fail_stage(env, p, q, k, ooo != NULL);
        clipt_plan_release(p);
    }
    if (ooo)
        clReleaseCommandQueue(ooo);
    clipt_context_release(small);
}

/* The hook counts stage enqueues of any plan and fires once. */
static void test_hook_fires_once(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan p = NULL;
    const size_t bytes = 40 * 30 * 4;
    cl_mem buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 3, NULL);
    cl_event done = NULL;
    assert_status(clipt_plan_create(env->ctx, 40, 30, 4, NULL, &p), CLIPT_SUCCESS);
    assert_true(p->num_stages >= 1);
    /* the first enqueue's stages do not reach the count, the second's does */
    clipt_test_fail_stage_enqueue(p->num_stages + 1);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, NULL), CLIPT_SUCCESS);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, &done),
                  CL_OUT_OF_RESOURCES);
    assert_null(done);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    clipt_plan_release(p);
    clReleaseMemObject(buf);
}

static int disarm(void **state)
{
    (void)state;
    clipt_test_fail_stage_enqueue(0);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_partial_enqueue, disarm),
        cmocka_unit_test_teardown(test_hook_fires_once, disarm),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
