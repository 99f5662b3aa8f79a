/* test_errors' rows that run plans or read them back: clipt_enqueue and
 * clipt_transpose with the buffer left as it was, failed wait events,
 * describe and error detail, profiles, queries and tuning values. */
#define _POSIX_C_SOURCE 200809L
#include "errors.h"

#include <stdlib.h>
#include <string.h>

/* ---- clipt_enqueue and clipt_transpose: the buffer stays as it was ---- */


static size_t buffer_bytes(const target *t, buffer_kind kind)
{
    return kind == B_SMALL ? t->bytes - 1 : t->bytes + SLACK;
}

/* A pattern buffer of the kind asked for, in t's context (or `other`). */
static cl_mem make_buffer(const target *t, buffer_kind kind, unsigned char **host)
{
    test_env in = t->env;
    const size_t bytes = buffer_bytes(t, kind);
    cl_mem_flags flags = kind == B_READ_ONLY    ? CL_MEM_READ_ONLY
                         : kind == B_WRITE_ONLY ? CL_MEM_WRITE_ONLY
                                                : CL_MEM_READ_WRITE;
    *host = NULL;
    if (kind == B_NULL)
        return NULL;
    if (kind == B_OTHER)
        in.cl.context = W->other;
    return test_pattern_buffer(&in, flags, bytes, bytes, host);
}

/* The buffer still holds what it was made with, once everything queued on
 * the target's device has run. */
static void expect_untouched(const bad_input *row, const target *t, buffer_kind kind,
                             cl_mem buf, const unsigned char *host)
{
    test_env reader = t->env;
    if (!buf)
        return;
    if (kind == B_OTHER)
        reader.cl.queue = W->other_queue;
    assert_status(clFinish(t->env.cl.queue), CL_SUCCESS);
    test_expect_buffer(&reader, buf, host, buffer_bytes(t, kind), row->test);
}

void run_enqueue_case(const bad_input *row)
{
    const enqueue_case *c = row->arg;
    const target *t = c->queue == Q_SUB ? &W->pair : &W->main;
    cl_event list[1] = {c->wait == W_OTHER        ? W->other_event
                        : c->wait == W_NULL_EVENT ? NULL
                                                  : W->done_event};
    cl_command_queue q = c->queue == Q_GOOD    ? t->env.cl.queue
                         : c->queue == Q_OTHER ? W->other_queue
                         : c->queue == Q_SUB   ? W->sub_queue
                                               : NULL;
    cl_event sentinel = W->done_event, event = sentinel;
    unsigned char *host;
    cl_mem buf;
    if (c->queue == Q_SUB)
        skip_without_sub_device();
    buf = make_buffer(t, c->buffer, &host);
    expect_status(row, clipt_enqueue(c->null_plan ? NULL : t->plan, q, buf, c->offset,
                                     c->num_wait,
                                     c->wait == W_NONE || c->wait == W_NULL_LIST ? NULL : list,
                                     &event));
    if (event != NULL)
        fail_msg("%s: the event was not set to NULL", row->test);
    expect_untouched(row, t, c->buffer, buf, host);
    if (buf)
        clReleaseMemObject(buf);
    free(host);
}

/* The main plan's next run on q, after a failed one, goes ahead and
 * transposes buf (which holds host). */
static void expect_next_run(cl_command_queue q, cl_mem buf, const unsigned char *host)
{
    const target *t = &W->main;
    unsigned char *want = malloc(t->bytes + SLACK);
    cl_event done = NULL;
    assert_non_null(want);
    memcpy(want, host, t->bytes + SLACK);
    test_reference_transpose(host, want, ROWS, COLS, ELEM);
    assert_status(clipt_enqueue(t->plan, q, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    test_expect_buffer(&W->main.env, buf, want, t->bytes + SLACK, "the run after");
    clReleaseEvent(done);
    free(want);
}

/* A user event of the main context set to `status`. */
static cl_event user_event_with(cl_int status)
{
    cl_int err;
    cl_event user = clCreateUserEvent(W->main.env.cl.context, &err);
    assert_status(err, CL_SUCCESS);
    if (status != CL_SUBMITTED)
        assert_status(clSetUserEventStatus(user, status), CL_SUCCESS);
    return user;
}

/* An event of the wait list fails: clipt_enqueue itself succeeds (it
 * cannot know), the transposition does not run, waiting for its event
 * reports the failure, and the plan's next run is not held up by it. */
void run_failed_wait_event(const bad_input *row)
{
    const target *t = &W->main;
    unsigned char *host;
    cl_mem buf = make_buffer(t, B_GOOD, &host);
    cl_event user = user_event_with(CL_SUBMITTED), done = NULL;
    assert_status(clipt_enqueue(t->plan, t->env.cl.queue, buf, 0, 1, &user, &done),
                  CLIPT_SUCCESS);
    assert_status(clSetUserEventStatus(user, -1), CL_SUCCESS);
    expect_status(row, clWaitForEvents(1, &done));
    clReleaseEvent(done);
    expect_untouched(row, t, B_GOOD, buf, host);
    expect_next_run(t->env.cl.queue, buf, host);
    clReleaseEvent(user);
    clReleaseMemObject(buf);
    free(host);
}

/* An event of the wait list failed before the call: refused with nothing
 * enqueued (a runtime may never complete a command waiting for it), and
 * the plan's next run, here on another queue, is not held up behind it. */
void run_wait_already_failed(const bad_input *row)
{
    const target *t = &W->main;
    unsigned char *host;
    cl_mem buf = make_buffer(t, B_GOOD, &host);
    cl_event user = user_event_with(-3), event = W->done_event; /* must be reset */
    cl_command_queue second;
    cl_int err;
    expect_status(row, clipt_enqueue(t->plan, t->env.cl.queue, buf, 0, 1, &user, &event));
    if (event != NULL)
        fail_msg("%s: the event was not set to NULL", row->test);
    expect_untouched(row, t, B_GOOD, buf, host);
    second = clCreateCommandQueue(t->env.cl.context, t->env.cl.device, 0, &err);
    assert_status(err, CL_SUCCESS);
    expect_next_run(second, buf, host);
    clReleaseCommandQueue(second);
    clReleaseEvent(user);
    clReleaseMemObject(buf);
    free(host);
}


void run_transpose_case(const bad_input *row)
{
    const transpose_case *c = row->arg;
    unsigned char *host;
    cl_mem buf = make_buffer(&W->main, c->buffer, &host);
    expect_status(row, clipt_transpose(c->null_queue ? NULL : W->main.env.cl.queue, buf,
                                       c->offset, c->rows, c->cols, c->elem));
    expect_untouched(row, &W->main, c->buffer, buf, host);
    if (buf)
        clReleaseMemObject(buf);
    free(host);
}

/* ---- describe, error detail, profile ---- */


/* The text buffer is left as it was, except by TRUNCATED, which leaves the
 * cut, terminated text. */
void run_text_case(const bad_input *row)
{
    const text_case *c = row->arg;
    char buf[64];
    clipt_status s;
    memset(buf, 'x', sizeof buf);
    switch (c->call) {
    case TEXT_PLAN:
        s = clipt_plan_describe(c->null_object ? NULL : W->main.plan,
                                c->null_buffer ? NULL : buf, c->len);
        break;
    case TEXT_CONTEXT:
        s = clipt_context_describe(c->null_object ? NULL : W->main.env.ctx,
                                   c->null_buffer ? NULL : buf, c->len);
        break;
    default:
        s = clipt_context_error_detail(c->null_object ? NULL : W->main.env.ctx,
                                       c->null_buffer ? NULL : buf, c->len);
        break;
    }
    expect_status(row, s);
    if (row->want == CLIPT_ERROR_TRUNCATED) {
        assert_int_equal(strlen(buf), c->len - 1);
        return;
    }
    for (size_t i = 0; i < sizeof buf; i++)
        if (buf[i] != 'x')
            fail_msg("%s: byte %zu of the text buffer was written", row->test, i);
}


void run_profile_case(const bad_input *row)
{
    const profile_case *c = row->arg;
    double total = -1, stages[4] = {-1, -1, -1, -1};
    unsigned n = 99;
    clipt_plan p = NULL;
    cl_command_queue plain = NULL;
    cl_mem buf = NULL;
    unsigned char *host = NULL;
    if (*c != PROFILE_NULL_PLAN)
        assert_status(clipt_plan_create(W->main.env.ctx, ROWS, COLS, ELEM, NULL, &p),
                      CLIPT_SUCCESS);
    if (*c == PROFILE_NO_PROFILING) {
        cl_event done;
        cl_int err;
        plain = clCreateCommandQueue(W->main.env.cl.context, W->main.env.cl.device, 0, &err);
        assert_status(err, CL_SUCCESS);
        buf = make_buffer(&W->main, B_GOOD, &host);
        assert_status(clipt_enqueue(p, plain, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
    }
    expect_status(row, clipt_plan_profile(p, &total, stages, 4, &n));
    if (total != -1 || stages[0] != -1)
        fail_msg("%s: a time was written with an error", row->test);
    if (buf)
        clReleaseMemObject(buf);
    if (plain)
        clReleaseCommandQueue(plain);
    free(host);
    clipt_plan_release(p);
}

/* ---- reading back: queries and tuning values by name ---- */


/* The stage index the case asks for, on the main plan or on a single-row
 * plan (*vector, released by the caller), which has no stages. */
static unsigned stage_index_of(const query_case *c, clipt_plan *plan, clipt_plan *vector)
{
    clipt_plan_info info;
    if (c->stage == STAGE_OF_VECTOR) {
        assert_status(clipt_plan_create(W->main.env.ctx, 1, COLS, ELEM, NULL, vector),
                      CLIPT_SUCCESS);
        *plan = *vector;
    }
    assert_status(clipt_plan_query(*plan, &info), CLIPT_SUCCESS);
    return c->stage == STAGE_FIRST ? 0 : info.num_stages;
}

/* Nothing is written: the info structure, the value and the options keep
 * what they held. */
void run_query_case(const bad_input *row)
{
    const query_case *c = row->arg;
    union {
        clipt_plan_info plan;
        clipt_stage_info stage;
    } out, before;
    clipt_plan plan = W->main.plan, vector = NULL;
    clipt_plan_options o, o_before;
    unsigned value = 12345;
    clipt_status s;
    memset(&out, 0xa5, sizeof out);
    memcpy(&before, &out, sizeof out);
    clipt_plan_options_init(&o);
    o_before = o;
    switch (c->call) {
    case QUERY_PLAN:
        s = clipt_plan_query(c->null_object ? NULL : plan, c->null_out ? NULL : &out.plan);
        break;
    case QUERY_STAGE: {
        const unsigned index = stage_index_of(c, &plan, &vector);
        s = clipt_plan_query_stage(c->null_object ? NULL : plan, index,
                                   c->null_out ? NULL : &out.stage);
        break;
    }
    case TUNING_OF_CONTEXT:
        s = clipt_context_tuning(c->null_object ? NULL : W->main.env.ctx, c->name,
                                 c->null_out ? NULL : &value);
        break;
    case TUNING_OF_PLAN:
        s = clipt_plan_tuning(c->null_object ? NULL : plan, c->name,
                              c->null_out ? NULL : &value);
        break;
    default:
        s = clipt_plan_options_set_tuning(c->null_object ? NULL : &o, c->name, 7);
        break;
    }
    expect_status(row, s);
    if (memcmp(&out, &before, sizeof out) != 0 || value != 12345 ||
        memcmp(&o, &o_before, sizeof o) != 0)
        fail_msg("%s: an output was written with an error", row->test);
    clipt_plan_release(vector);
}
