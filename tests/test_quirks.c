/* What runtimes do that clipt must survive (found on PoCL 3.1, checked
 * wherever the tests run):
 *  - a wait event that fails after clipt_enqueue returned, while clipt no
 *    longer holds the run's intermediate events (a later enqueue of the
 *    plan, or the plan and context released): PoCL walks the failed
 *    commands through their events and aborted the process ("PTHREAD ERROR
 *    in pocl_update_event_failed") once their last reference was its own;
 *  - a context made for a sub-device, which PoCL reports as holding the
 *    parent device.
 * Registered with a CTest timeout, normally and with one PoCL thread: a
 * run stuck behind a failed event fails the test instead of blocking. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROWS 96
#define COLS 80
#define ELEM 4

/* A plan of three stages, so that a run has intermediate events. */
static clipt_plan three_stage_plan(clipt_context c)
{
    clipt_plan_options o;
    clipt_plan_info info;
    clipt_plan p = NULL;
    clipt_plan_options_init(&o);
    o.sequence = CLIPT_SEQUENCE_3_1;
    o.tile_m = 8;
    o.tile_n = 8;
    assert_status(clipt_plan_create(c, ROWS, COLS, ELEM, &o, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_query(p, &info), CLIPT_SUCCESS);
    assert_int_equal(info.num_stages, 3);
    return p;
}

static cl_event new_user_event(test_env *env)
{
    cl_int err;
    cl_event e = clCreateUserEvent(env->cl.context, &err);
    assert_status(err, CL_SUCCESS);
    return e;
}

/* The transpose of host (the pattern of a plan buffer of p). */
static unsigned char *transposed(clipt_plan p, const unsigned char *host)
{
    const size_t bytes = clipt_plan_buffer_size(p);
    unsigned char *want = malloc(bytes);
    assert_non_null(want);
    memcpy(want, host, bytes);
    test_reference_transpose(host, want, ROWS, COLS, ELEM);
    return want;
}

/* Two runs of one plan wait for U, then U fails: both fail (the second
 * waits for the first), neither buffer changes, and the plan's next run
 * goes ahead. */
static void test_wait_event_fails_after_two_runs(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_plan p = three_stage_plan(env->ctx);
    const size_t bytes = clipt_plan_buffer_size(p);
    unsigned char *host[2], *want;
    cl_mem buf[2];
    cl_event user = new_user_event(env), done[2], next;
    for (int i = 0; i < 2; i++) {
        buf[i] = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 10 + (uint64_t)i,
                                     &host[i]);
        assert_status(clipt_enqueue(p, env->cl.queue, buf[i], 0, 1, &user, &done[i]),
                      CLIPT_SUCCESS);
    }
    assert_status(clFlush(env->cl.queue), CL_SUCCESS);
    assert_status(clSetUserEventStatus(user, -3), CL_SUCCESS);
    for (int i = 0; i < 2; i++) {
        assert_status(clWaitForEvents(1, &done[i]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        clReleaseEvent(done[i]);
    }
    assert_status(clFinish(env->cl.queue), CL_SUCCESS);
    for (int i = 0; i < 2; i++)
        test_expect_buffer(env, buf[i], host[i], bytes, "a buffer of a failed run");
    want = transposed(p, host[0]);
    assert_status(clipt_enqueue(p, env->cl.queue, buf[0], 0, 0, NULL, &next), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &next), CL_SUCCESS);
    test_expect_buffer(env, buf[0], want, bytes, "the run after the failure");
    clReleaseEvent(next);
    clReleaseEvent(user);
    clipt_plan_release(p);
    for (int i = 0; i < 2; i++) {
        clReleaseMemObject(buf[i]);
        free(host[i]);
    }
    free(want);
}

/* A run waits for U; the plan, its context and the run's event are
 * released, as the API allows while work is queued; then U fails. */
static void test_wait_event_fails_after_release(void **state)
{
    test_env *env = TEST_ENV(state);
    clipt_context c = NULL;
    clipt_plan p;
    unsigned char *host;
    cl_mem buf;
    cl_event user = new_user_event(env), done;
    size_t bytes;
    assert_status(clipt_context_create(env->cl.context, env->cl.device, &c), CLIPT_SUCCESS);
    p = three_stage_plan(c);
    bytes = clipt_plan_buffer_size(p);
    buf = test_pattern_buffer(env, CL_MEM_READ_WRITE, bytes, 12, &host);
    assert_status(clipt_enqueue(p, env->cl.queue, buf, 0, 1, &user, &done), CLIPT_SUCCESS);
    assert_status(clFlush(env->cl.queue), CL_SUCCESS);
    clReleaseEvent(done);
    clipt_plan_release(p);
    clipt_context_release(c);
    assert_status(clSetUserEventStatus(user, -3), CL_SUCCESS);
    assert_status(clFinish(env->cl.queue), CL_SUCCESS);
    test_expect_buffer(env, buf, host, bytes, "the buffer of the failed run");
    clReleaseEvent(user);
    clReleaseMemObject(buf);
    free(host);
}

/* A context made for one sub-device of the test device (which PoCL
 * reports as holding the parent): clipt_context_create accepts the
 * sub-device, and a plan transposes on a queue of it. */
static void test_sub_device_context(void **state)
{
    test_env *env = TEST_ENV(state);
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[64];
    cl_uint n = 0;
    cl_int err;
    test_env on_sub = *env;
    clipt_plan p;
    unsigned char *host, *want;
    cl_mem buf;
    cl_event done;
    if (clCreateSubDevices(env->cl.device, props, 0, NULL, &n) != CL_SUCCESS || n == 0 ||
        n > COUNT(sub) || clCreateSubDevices(env->cl.device, props, n, sub, NULL) != CL_SUCCESS) {
        print_message("skipped: %s cannot be partitioned into sub-devices of one compute "
                      "unit (CL_DEVICE_PARTITION_EQUALLY)\n", env->cl.device_name);
        skip();
    }
    for (cl_uint i = 1; i < n; i++)
        clReleaseDevice(sub[i]);
    on_sub.cl.device = sub[0];
    on_sub.cl.context = clCreateContext(NULL, 1, &sub[0], NULL, NULL, &err);
    assert_status(err, CL_SUCCESS);
    on_sub.cl.queue = clCreateCommandQueue(on_sub.cl.context, sub[0], 0, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clipt_context_create(on_sub.cl.context, sub[0], &on_sub.ctx), CLIPT_SUCCESS);
    p = three_stage_plan(on_sub.ctx);
    buf = test_pattern_buffer(&on_sub, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), 13,
                              &host);
    want = transposed(p, host);
    assert_status(clipt_enqueue(p, on_sub.cl.queue, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    test_expect_buffer(&on_sub, buf, want, clipt_plan_buffer_size(p), "on the sub-device");
    clReleaseEvent(done);
    clReleaseMemObject(buf);
    clipt_plan_release(p);
    clipt_context_release(on_sub.ctx);
    clReleaseCommandQueue(on_sub.cl.queue);
    clReleaseContext(on_sub.cl.context);
    clReleaseDevice(sub[0]);
    free(host);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_event_fails_after_two_runs),
        cmocka_unit_test(test_wait_event_fails_after_release),
        cmocka_unit_test(test_sub_device_context),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, test_group_open, test_group_close);
}
