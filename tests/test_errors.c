/* Bad input, case by case.  Every row of the bad-input catalogue in
 * docs/errors.md is one test here (named in its last column): it asserts
 * the documented status and that nothing the caller can see changed (the
 * buffer byte for byte, output handles NULL, text buffers as they were).
 * test_catalogue_documented checks that the documentation lists exactly
 * these rows.  Then: exact boundaries, kernel loading, status strings and
 * text buffers. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "internal.h"
#include "plan.h"

#include <glob.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROWS 64
#define COLS 48
#define ELEM 4
#define SLACK 16

/* A plan and the device it runs on. */
typedef struct target {
    test_env env;
    clipt_plan plan;
    size_t bytes;                 /* the plan's buffer size */
} target;

/* Everything the cases draw on: the main target; a second OpenCL context
 * on the same device with a queue and an event of its own; and, where the
 * device can be partitioned, a context holding the device and one of its
 * sub-devices (a queue of another device of the plan's context). */
typedef struct world {
    target main;
    cl_context other;
    cl_command_queue other_queue;
    cl_event other_event;         /* a complete user event of `other` */
    cl_event done_event;          /* a complete user event of main's context */
    cl_device_id sub;             /* NULL when the device cannot be partitioned */
    cl_device_id foreign;         /* a root device besides main's, or NULL */
    target pair;                  /* on the device, in a context with `sub` */
    cl_command_queue sub_queue;   /* on `sub`, in pair's context */
} world;

static world *W;

static cl_event complete_user_event(cl_context ctx)
{
    cl_int err;
    cl_event e = clCreateUserEvent(ctx, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    return e;
}

static clipt_status target_plan(target *t)
{
    clipt_status s = clipt_plan_create(t->env.ctx, ROWS, COLS, ELEM, NULL, &t->plan);
    t->bytes = clipt_plan_buffer_size(t->plan);
    return s;
}

/* The device and its first sub-device in one context, if it partitions. */
static clipt_status open_pair(world *w)
{
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[64], both[2];
    cl_uint n = 0;
    cl_int err;
    clipt_status s;
    if (clCreateSubDevices(w->main.env.cl.device, props, 0, NULL, &n) != CL_SUCCESS ||
        n == 0 || n > COUNT(sub) ||
        clCreateSubDevices(w->main.env.cl.device, props, n, sub, NULL) != CL_SUCCESS)
        return CLIPT_SUCCESS; /* the rows that need it skip */
    for (cl_uint i = 1; i < n; i++)
        clReleaseDevice(sub[i]);
    w->sub = sub[0];
    both[0] = w->main.env.cl.device;
    both[1] = w->sub;
    w->pair.env.cl = w->main.env.cl;
    w->pair.env.cl.context = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return err;
    w->pair.env.cl.queue = clCreateCommandQueue(w->pair.env.cl.context, both[0], 0, &err);
    if (err == CL_SUCCESS)
        w->sub_queue = clCreateCommandQueue(w->pair.env.cl.context, w->sub, 0, &err);
    if (err != CL_SUCCESS)
        return err;
    s = clipt_context_create(w->pair.env.cl.context, both[0], &w->pair.env.ctx);
    return s ? s : target_plan(&w->pair);
}

/* A device of any platform that is neither main's device nor partitioned
 * from one (root devices have no parent), or NULL. */
static cl_device_id foreign_device(cl_device_id main_device)
{
    cl_platform_id platforms[16];
    cl_uint num_platforms = 0;
    if (clGetPlatformIDs(COUNT(platforms), platforms, &num_platforms) != CL_SUCCESS)
        return NULL;
    for (cl_uint p = 0; p < num_platforms && p < COUNT(platforms); p++) {
        cl_device_id devices[16];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, COUNT(devices), devices, &n) !=
            CL_SUCCESS)
            continue;
        for (cl_uint i = 0; i < n && i < COUNT(devices); i++)
            if (devices[i] != main_device)
                return devices[i];
    }
    return NULL;
}

static int world_open(void **state)
{
    world *w = calloc(1, sizeof *w);
    cl_int err;
    if (!w)
        return -1;
    test_env_open(&w->main.env);
    if (target_plan(&w->main) != CLIPT_SUCCESS || open_pair(w) != CLIPT_SUCCESS)
        return -1;
    w->other = clCreateContext(NULL, 1, &w->main.env.cl.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    w->other_queue = clCreateCommandQueue(w->other, w->main.env.cl.device, 0, &err);
    if (err != CL_SUCCESS)
        return -1;
    w->other_event = complete_user_event(w->other);
    w->foreign = foreign_device(w->main.env.cl.device);
    w->done_event = complete_user_event(w->main.env.cl.context);
    /* no group state: cmocka would pass it to every test instead of the
     * catalogue rows' own initial states */
    W = w;
    *state = NULL;
    return 0;
}

static int world_close(void **state)
{
    world *w = W;
    (void)state;
    clReleaseEvent(w->other_event);
    clReleaseEvent(w->done_event);
    clReleaseCommandQueue(w->other_queue);
    clReleaseContext(w->other);
    if (w->sub) {
        clipt_plan_release(w->pair.plan);
        clipt_context_release(w->pair.env.ctx);
        clReleaseCommandQueue(w->sub_queue);
        clReleaseCommandQueue(w->pair.env.cl.queue);
        clReleaseContext(w->pair.env.cl.context);
        clReleaseDevice(w->sub);
    }
    clipt_plan_release(w->main.plan);
    test_env_close(&w->main.env);
    free(w);
    return 0;
}

/* ---- the catalogue ------------------------------------------------------ */

typedef struct bad_input bad_input;
struct bad_input {
    const char *test;      /* the cmocka test, last column of the docs' table */
    const char *call;      /* the API function called                          */
    const char *what;      /* the case, first column of the docs' table         */
    const char *want_name; /* the expected status, as spelled in the docs       */
    clipt_status want;
    void (*run)(const bad_input *row);
    const void *arg;       /* the case's details, for run                        */
};

static void expect_status(const bad_input *row, clipt_status got)
{
    if (got != row->want)
        fail_msg("%s (%s: %s): returned %s, expected %s", row->test, row->call, row->what,
                 clipt_status_string(got), clipt_status_string(row->want));
}

static void skip_without_foreign_device(void)
{
    if (!W->foreign) {
        print_message("skipped: no platform has a device besides %s (on PoCL, "
                      "test_errors_two_devices runs with POCL_DEVICES=\"pthread pthread\", "
                      "which makes two)\n", W->main.env.cl.device_name);
        skip();
    }
}

static void skip_without_sub_device(void)
{
    if (!W->sub) {
        print_message("skipped: %s cannot be partitioned into sub-devices, so no "
                      "context holds a second device\n", W->main.env.cl.device_name);
        skip();
    }
}

/* ---- clipt_context_create ---- */

typedef struct context_case {
    int null_context, null_device, null_out, foreign_device;
} context_case;

static void run_context_case(const bad_input *row)
{
    const context_case *c = row->arg;
    clipt_context out = W->main.env.ctx; /* must be reset */
    if (c->foreign_device)
        skip_without_foreign_device();
    expect_status(row, clipt_context_create(c->null_context ? NULL : W->main.env.cl.context,
                                            c->null_device ? NULL
                                            : c->foreign_device ? W->foreign
                                                            : W->main.env.cl.device,
                                            c->null_out ? NULL : &out));
    if (!c->null_out && out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
}

/* ---- clipt_plan_create ---- */

typedef struct plan_case {
    size_t rows, cols, elem;
    int null_context, null_out;
    cl_ulong local_mem;          /* a context limited to this, 0 = as is */
    clipt_plan_options o;        /* zero = clipt_plan_options_init's defaults */
} plan_case;

static void run_plan_case(const bad_input *row)
{
    const plan_case *c = row->arg;
    clipt_context cx = c->local_mem ? test_context_limited(&W->main.env, c->local_mem)
                                    : W->main.env.ctx;
    clipt_plan out = W->main.plan; /* must be reset */
    expect_status(row, clipt_plan_create(c->null_context ? NULL : cx, c->rows, c->cols,
                                         c->elem, &c->o, c->null_out ? NULL : &out));
    if (!c->null_out && out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    if (c->local_mem)
        clipt_context_release(cx);
}

/* ---- device limits: refused at plan creation, exactly at the limit ---- */

/* A fresh context on the main device whose profile the case then lowers. */
static clipt_context own_context(void)
{
    clipt_context c = NULL;
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    return c;
}

static clipt_plan plan_on(clipt_context c, size_t rows, size_t cols, size_t elem,
                          clipt_sequence seq, clipt_padding padding)
{
    clipt_plan p = NULL;
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    o.padding = padding;
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    return p;
}

/* clipt_plan_create refuses (rows, cols, elem, seq, padding) with the row's
 * status while the profile field holds `limit - 1`, and accepts it at
 * `limit`: the check is exact, and it is this limit that refused it. */
static void expect_limit(const bad_input *row, clipt_context c, cl_ulong *field,
                         cl_ulong limit, size_t rows, size_t cols, size_t elem,
                         clipt_sequence seq, clipt_padding padding)
{
    clipt_plan p = W->main.plan;
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.sequence = seq;
    o.padding = padding;
    *field = limit - 1;
    expect_status(row, clipt_plan_create(c, rows, cols, elem, &o, &p));
    if (p != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    *field = limit;
    assert_status(clipt_plan_create(c, rows, cols, elem, &o, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
}

/* A shape that the automatic plan pads on a GPU-sized local memory. */
static void run_limit_padded(const bad_input *row)
{
    static const size_t candidates[][2] = {
        {1201, 1103}, {4099, 17}, {17, 4099}, {997, 1009}};
    clipt_context c = own_context();
    c->profile.local_mem_bytes = 48 * 1024;
    for (size_t i = 0; i < COUNT(candidates); i++) {
        const size_t rows = candidates[i][0], cols = candidates[i][1];
        clipt_plan p = plan_on(c, rows, cols, 1, CLIPT_SEQUENCE_AUTO, CLIPT_PADDING_AUTO);
        const size_t padded = clipt_plan_buffer_size(p);
        clipt_plan_release(p);
        if (padded > rows * cols) {
            /* the matrix itself fits one allocation, its padded room not */
            expect_limit(row, c, &c->profile.max_alloc_bytes, padded, rows, cols, 1,
                         CLIPT_SEQUENCE_AUTO, CLIPT_PADDING_AUTO);
            clipt_context_release(c);
            return;
        }
    }
    clipt_context_release(c);
    fail_msg("%s: none of the candidate shapes is padded", row->test);
}

/* A limit of the profile and what it bounds in a plan of 300 x 500 with
 * `sequence`, measured on a plan made without the limit lowered. */
typedef struct limit_case {
    size_t field;                   /* offset of a cl_ulong in the profile */
    clipt_sequence sequence;
    size_t (*measure)(clipt_plan p);
} limit_case;

/* The scratch buffer (the matrix is larger too: a runtime may allow that
 * for the user's own buffer, not for clipt's).  Sequence 1 walks long
 * cycles, so it saves segment heads. */
static size_t scratch_of(clipt_plan p)
{
    return p->scratch_bytes;
}

/* Matrix, scratch buffer and segment tables, all three present. */
static size_t memory_of(clipt_plan p)
{
    assert_true(p->scratch_bytes > 0 && p->aux_bytes > 0);
    return clipt_plan_buffer_size(p) + clipt_plan_scratch_size(p);
}

/* The largest global work size of its stages.  AUTO: with a forced
 * sequence the status would be INCOMPATIBLE_OPTIONS. */
static size_t launch_of(clipt_plan p)
{
    size_t largest = 0;
    for (unsigned i = 0; i < p->num_stages; i++)
        if (p->stages[i].global > largest)
            largest = p->stages[i].global;
    return largest;
}

static void run_limit_case(const bad_input *row)
{
    const limit_case *lc = row->arg;
    clipt_context c = own_context();
    clipt_plan p;
    /* the GPU kernels: the CPU ones (kernel_style loops) launch so few
     * work-items on this shape that no smaller global limit exists */
    c->profile.tuning.kernel_style = CLIPT_KERNEL_STYLE_GROUPS;
    p = plan_on(c, 300, 500, 4, lc->sequence, CLIPT_PADDING_NONE);
    const size_t limit = lc->measure(p);
    clipt_plan_release(p);
    assert_true(limit > 1);
    cl_ulong *field = (cl_ulong *)((char *)&c->profile + lc->field);
    expect_limit(row, c, field, limit, 300, 500, 4, lc->sequence, CLIPT_PADDING_NONE);
    clipt_context_release(c);
}

/* ---- clipt_enqueue and clipt_transpose: the buffer stays as it was ---- */

typedef enum { Q_GOOD, Q_NULL, Q_OTHER, Q_SUB } queue_kind;
typedef enum { B_GOOD, B_NULL, B_SMALL, B_READ_ONLY, B_WRITE_ONLY, B_OTHER } buffer_kind;
typedef enum { W_NONE, W_NULL_LIST, W_ONE, W_NULL_EVENT, W_OTHER } wait_kind;

typedef struct enqueue_case {
    int null_plan;
    queue_kind queue;
    buffer_kind buffer;
    size_t offset;
    cl_uint num_wait;
    wait_kind wait;
} enqueue_case;

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

static void run_enqueue_case(const bad_input *row)
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
static void run_failed_wait_event(const bad_input *row)
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
static void run_wait_already_failed(const bad_input *row)
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

typedef struct transpose_case {
    size_t rows, cols, elem, offset;
    buffer_kind buffer;
    int null_queue;
} transpose_case;

static void run_transpose_case(const bad_input *row)
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

typedef enum { TEXT_PLAN, TEXT_CONTEXT, TEXT_DETAIL } text_call;

typedef struct text_case {
    text_call call;
    int null_object, null_buffer;
    size_t len;
} text_case;

/* The text buffer is left as it was, except by TRUNCATED, which leaves the
 * cut, terminated text. */
static void run_text_case(const bad_input *row)
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

typedef enum { PROFILE_NULL_PLAN, PROFILE_NEVER_RUN, PROFILE_NO_PROFILING } profile_case;

static void run_profile_case(const bad_input *row)
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

typedef enum { QUERY_PLAN, QUERY_STAGE, TUNING_OF_CONTEXT, TUNING_OF_PLAN, TUNING_SET } query_call;
typedef enum { STAGE_FIRST, STAGE_PAST_END, STAGE_OF_VECTOR } stage_index;

typedef struct query_case {
    query_call call;
    int null_object;      /* NULL plan, context or options                  */
    int null_out;         /* NULL info or value pointer                     */
    const char *name;     /* the tuning field's name                        */
    stage_index stage;    /* QUERY_STAGE: which index of which plan         */
} query_case;

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
static void run_query_case(const bad_input *row)
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

/* ---- kernel files on CLIPT_KERNEL_PATH ---- */

/* A fresh directory under the temporary directory; `file` (if not NULL)
 * written into it with `text`. */
static void make_kernel_dir(char *dir, size_t len, const char *file, const char *text)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/clipt_test_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    if (file) {
        char path[600];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, file);
        f = fopen(path, "w");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
    }
}

static void remove_kernel_dir(const char *dir, const char *file)
{
    if (file) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        remove(path);
    }
    rmdir(dir);
}

/* test_errors is linked with --wrap=malloc: an allocation of exactly
 * fail_malloc_size bytes by clipt's code fails (0: none does). */
static size_t fail_malloc_size;
void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    return size && size == fail_malloc_size ? NULL : __real_malloc(size);
}

typedef enum { KFILE_EMPTY, KFILE_RENAMED, KFILE_NO_MEMORY } kernel_file_case;

/* Bytes of the kernel files of KFILE_NO_MEMORY: their reading allocates
 * one more, an allocation nothing else near it makes. */
#define KFILE_SIZE 54321

/* A directory on CLIPT_KERNEL_PATH with a bad copy of every kernel file,
 * so that whichever family a plan takes meets it: clipt_plan_create in a
 * fresh context (no program built yet) fails with the row's status, and a
 * KERNEL_BUILD detail names the file's path. */
static void run_kernel_file_case(const bad_input *row)
{
    static const char renamed[] = "__kernel void clipt_renamed(__global int *a) { a[0] = 0; }\n";
    const kernel_file_case c = *(const kernel_file_case *)row->arg;
    char dir[512], pattern[600], detail[8192];
    clipt_context cx;
    clipt_plan out = W->main.plan; /* must be reset */
    glob_t files;
    make_kernel_dir(dir, sizeof dir, NULL, NULL);
    snprintf(pattern, sizeof pattern, "%s/cl/*.cl", CLIPT_SOURCE_DIR);
    assert_int_equal(glob(pattern, 0, NULL, &files), 0);
    for (size_t i = 0; i < files.gl_pathc; i++) {
        char path[1200];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, strrchr(files.gl_pathv[i], '/') + 1);
        assert_non_null(f = fopen(path, "w"));
        if (c != KFILE_EMPTY)
            fputs(renamed, f);
        for (long pad = ftell(f); c == KFILE_NO_MEMORY && pad < KFILE_SIZE; pad++)
            fputc(' ', f);
        fclose(f);
    }
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    cx = own_context();
    fail_malloc_size = c == KFILE_NO_MEMORY ? KFILE_SIZE + 1 : 0;
    expect_status(row, clipt_plan_create(cx, ROWS, COLS, ELEM, NULL, &out));
    fail_malloc_size = 0;
    unsetenv("CLIPT_KERNEL_PATH");
    if (out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
    assert_status(clipt_context_error_detail(cx, detail, sizeof detail), CLIPT_SUCCESS);
    if (row->want == CLIPT_ERROR_KERNEL_BUILD &&
        (!strstr(detail, dir) || !strstr(detail, ".cl")))
        fail_msg("%s: the detail does not name the kernel file in %s: %s", row->test, dir,
                 detail);
    clipt_context_release(cx);
    for (size_t i = 0; i < files.gl_pathc; i++)
        remove_kernel_dir(dir, strrchr(files.gl_pathv[i], '/') + 1);
    globfree(&files);
}

/* ---- the rows ---- */

/* ---- clipt_plan_create_permute ---- */

typedef struct permute_case {
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS + 1];
    unsigned perm[CLIPT_MAX_DIMS + 1];
    size_t elem;
    int null_dims, null_perm;
} permute_case;

static void run_permute_case(const bad_input *row)
{
    const permute_case *c = row->arg;
    clipt_plan out = W->main.plan; /* must be reset */
    expect_status(row, clipt_plan_create_permute(W->main.env.ctx, c->ndim,
                                                 c->null_dims ? NULL : c->dims,
                                                 c->null_perm ? NULL : c->perm, c->elem,
                                                 NULL, &out));
    if (out != NULL)
        fail_msg("%s: the output handle was not set to NULL", row->test);
}

#define ROW(test, call, what, want, run, arg) {test, call, what, #want, want, run, arg}
#define CONTEXT(...) &(const context_case){__VA_ARGS__}
#define SHAPE(r, c, e) &(const plan_case){r, c, e, 0, 0, 0, {0}}
#define NULLS(null_context, null_out) \
    &(const plan_case){ROWS, COLS, ELEM, null_context, null_out, 0, {0}}
#define OPTS(...) &(const plan_case){ROWS, COLS, ELEM, 0, 0, 0, {__VA_ARGS__}}
#define ENQ(...) &(const enqueue_case){__VA_ARGS__}
#define PERMUTE(...) &(const permute_case){__VA_ARGS__}
#define ONE_SHOT(...) &(const transpose_case){__VA_ARGS__}
#define TEXT(...) &(const text_case){__VA_ARGS__}
#define PROFILE(c) &(const profile_case){c}
#define KFILE(c) &(const kernel_file_case){c}
#define QUERY(...) &(const query_case){__VA_ARGS__}
#define LIMIT(field, seq, measure) \
    &(const limit_case){offsetof(clipt_device_profile, field), seq, measure}

static bad_input catalogue[] = {
    ROW("bad_context_null_context", "clipt_context_create", "NULL cl_context",
        CLIPT_ERROR_NULL_ARGUMENT, run_context_case, CONTEXT(1, 0, 0, 0)),
    ROW("bad_context_null_device", "clipt_context_create", "NULL cl_device_id",
        CLIPT_ERROR_NULL_ARGUMENT, run_context_case, CONTEXT(0, 1, 0, 0)),
    ROW("bad_context_null_out", "clipt_context_create", "NULL output pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_context_case, CONTEXT(0, 0, 1, 0)),
    ROW("bad_context_foreign_device", "clipt_context_create",
        "a device that is not in the context, nor a sub-device of one there (another root "
        "device)",
        CLIPT_ERROR_DEVICE_MISMATCH, run_context_case, CONTEXT(0, 0, 0, 1)),

    ROW("bad_plan_null_context", "clipt_plan_create", "NULL clipt_context",
        CLIPT_ERROR_NULL_ARGUMENT, run_plan_case, NULLS(1, 0)),
    ROW("bad_plan_null_out", "clipt_plan_create", "NULL output pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_plan_case, NULLS(0, 1)),
    ROW("bad_plan_rows_zero", "clipt_plan_create", "rows 0", CLIPT_ERROR_INVALID_SHAPE,
        run_plan_case, SHAPE(0, COLS, ELEM)),
    ROW("bad_plan_cols_zero", "clipt_plan_create", "cols 0", CLIPT_ERROR_INVALID_SHAPE,
        run_plan_case, SHAPE(ROWS, 0, ELEM)),
    ROW("bad_plan_elem_0", "clipt_plan_create", "element size 0",
        CLIPT_ERROR_INVALID_ELEM_SIZE, run_plan_case, SHAPE(ROWS, COLS, 0)),
    ROW("bad_plan_elem_3", "clipt_plan_create", "element size 3",
        CLIPT_ERROR_INVALID_ELEM_SIZE, run_plan_case, SHAPE(ROWS, COLS, 3)),
    ROW("bad_plan_elem_32", "clipt_plan_create", "element size 32",
        CLIPT_ERROR_INVALID_ELEM_SIZE, run_plan_case, SHAPE(ROWS, COLS, 32)),
    ROW("bad_plan_count_overflow", "clipt_plan_create",
        "rows x cols does not fit in size_t (SIZE_MAX/2 x 3)", CLIPT_ERROR_SHAPE_OVERFLOW,
        run_plan_case, SHAPE(SIZE_MAX / 2, 3, ELEM)),
    ROW("bad_plan_bytes_overflow", "clipt_plan_create",
        "rows x cols x elem does not fit in size_t (SIZE_MAX/16 x 2, 16 bytes)",
        CLIPT_ERROR_SHAPE_OVERFLOW, run_plan_case, SHAPE(SIZE_MAX / 16, 2, 16)),

    ROW("bad_option_sequence_99", "clipt_plan_create", "sequence 99 (no such sequence)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.sequence = (clipt_sequence)99)),
    ROW("bad_option_sequence_5", "clipt_plan_create", "sequence 5 (no such sequence)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.sequence = (clipt_sequence)5)),
    ROW("bad_option_algorithm", "clipt_plan_create", "algorithm 3 (no such algorithm)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.algorithm = (clipt_algorithm)3)),
    ROW("bad_option_c2r_sequence", "clipt_plan_create",
        "algorithm C2R with sequence 3.1 forced (C2R has no sequence)",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        OPTS(.algorithm = CLIPT_ALGORITHM_C2R, .sequence = CLIPT_SEQUENCE_3_1)),
    ROW("bad_option_c2r_tile", "clipt_plan_create",
        "algorithm C2R with tile_m 8 forced (C2R has no tiles)",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        OPTS(.algorithm = CLIPT_ALGORITHM_C2R, .tile_m = 8)),
    ROW("bad_option_padding", "clipt_plan_create", "padding 7 (no such policy)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.padding = (clipt_padding)7)),
    ROW("bad_option_padding_4", "clipt_plan_create",
        "padding 4 (the first value past CLIPT_PADDING_OFF)", CLIPT_ERROR_INVALID_OPTION,
        run_plan_case, OPTS(.padding = (clipt_padding)4)),
    ROW("bad_option_tile_rule", "clipt_plan_create", "tile_rule 3 (no such rule)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case,
        OPTS(.tile_rule = (clipt_tile_rule)3)),
    ROW("bad_option_spread_3", "clipt_plan_create", "pttwac_spread 3 (not a power of two)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.pttwac_spread = 3)),
    ROW("bad_option_spread_64", "clipt_plan_create", "pttwac_spread 64 (above 32)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.pttwac_spread = 64)),
    ROW("bad_option_pttwac_pad", "clipt_plan_create", "pttwac_pad 33 (above 32)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.pttwac_pad = 33)),
    ROW("bad_option_simd_3", "clipt_plan_create", "simd_100 3 (not a power of two)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.simd_100 = 3)),
    ROW("bad_option_wg_not_multiple", "clipt_plan_create",
        "wg_100 6 with simd_100 4 (not a multiple)", CLIPT_ERROR_INVALID_OPTION,
        run_plan_case, OPTS(.wg_100 = 6, .simd_100 = 4)),
    ROW("bad_option_wg_above_device", "clipt_plan_create",
        "wg_010 above the device's work-group limit", CLIPT_ERROR_INVALID_OPTION,
        run_plan_case, OPTS(.wg_010 = UINT_MAX)),
    ROW("bad_option_min_super", "clipt_plan_create", "min_super 2^20 + 1 (above 2^20)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.min_super = (1u << 20) + 1)),
    ROW("bad_option_reserved", "clipt_plan_create", "a reserved field not zero",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.reserved = {42})),
    ROW("bad_option_tile_elems", "clipt_plan_create", "tile_elems_010 2^24 + 1 (above 2^24)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.tile_elems_010 = (1u << 24) + 1)),
    ROW("bad_option_groups_per_cu", "clipt_plan_create",
        "groups_per_cu_100 1025 (above 1024)", CLIPT_ERROR_INVALID_OPTION, run_plan_case,
        OPTS(.groups_per_cu_100 = 1025)),
    ROW("bad_option_skinny_super", "clipt_plan_create", "skinny_super 2^20 + 1 (above 2^20)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.skinny_super = (1u << 20) + 1)),
    ROW("bad_option_walk_unroll", "clipt_plan_create", "walk_unroll 33 (above 32)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.walk_unroll = 33)),
    ROW("bad_option_walk_item_bytes", "clipt_plan_create", "walk_item_bytes 257 (above 256)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.walk_item_bytes = 257)),
    ROW("bad_option_align_bytes", "clipt_plan_create", "align_bytes 4097 (above 4096)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.align_bytes = 4097)),
    ROW("bad_option_kernel_style", "clipt_plan_create", "kernel_style 3 (above 2)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.kernel_style = 3)),
    ROW("bad_option_wide_bytes", "clipt_plan_create", "wide_bytes 12 (not a power of two)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.wide_bytes = 12)),
    ROW("bad_option_wide_bytes_32", "clipt_plan_create", "wide_bytes 32 (above 16)",
        CLIPT_ERROR_INVALID_OPTION, run_plan_case, OPTS(.wide_bytes = 32)),
    ROW("bad_option_tile_m", "clipt_plan_create",
        "tile_m 7 does not divide 64 rows (padding NONE)", CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
        run_plan_case, OPTS(.tile_m = 7, .padding = CLIPT_PADDING_NONE)),
    ROW("bad_option_tile_n", "clipt_plan_create",
        "tile_n 5 does not divide 48 cols (padding NONE)", CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
        run_plan_case, OPTS(.tile_m = 8, .tile_n = 5, .padding = CLIPT_PADDING_NONE)),
    ROW("bad_option_tile_m_padding_off", "clipt_plan_create",
        "tile_m 7 does not divide 64 rows (padding OFF)", CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
        run_plan_case, OPTS(.tile_m = 7, .padding = CLIPT_PADDING_OFF)),
    ROW("bad_option_tile_m_scratch_single_row", "clipt_plan_create",
        "tile_m 7 on the 1 row of a 1 x 100 matrix (padding SCRATCH: nothing to pad)",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        (&(const plan_case){1, 100, ELEM, 0, 0, 0,
                            {.tile_m = 7, .padding = CLIPT_PADDING_SCRATCH}})),
    ROW("bad_option_tile_m_single_row", "clipt_plan_create",
        "tile_m 7 does not divide the 1 row of a 1 x 100 matrix",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        (&(const plan_case){1, 100, ELEM, 0, 0, 0, {.tile_m = 7}})),
    ROW("bad_option_tile_n_single_column", "clipt_plan_create",
        "tile_n 3 does not divide the 1 column of a 100 x 1 matrix",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        (&(const plan_case){100, 1, ELEM, 0, 0, 0, {.tile_n = 3}})),
    ROW("bad_option_tile_above_rows", "clipt_plan_create",
        "tile_m 65 larger than the 64 rows (sequence 3.1)", CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
        run_plan_case, OPTS(.tile_m = ROWS + 1, .sequence = CLIPT_SEQUENCE_3_1)),
    ROW("bad_option_sequence_too_big", "clipt_plan_create",
        "sequence 4.3 with 64 x 64 tiles on 16 KiB of local memory (fused tiles do not fit)",
        CLIPT_ERROR_INCOMPATIBLE_OPTIONS, run_plan_case,
        (&(const plan_case){128, 128, 4, 0, 0, 16 * 1024,
                            {.sequence = CLIPT_SEQUENCE_4_3, .tile_m = 64, .tile_n = 64}})),

    ROW("bad_kernel_file_empty", "clipt_plan_create",
        "an empty kernel file on CLIPT_KERNEL_PATH (the detail names it)",
        CLIPT_ERROR_KERNEL_BUILD, run_kernel_file_case, KFILE(KFILE_EMPTY)),
    ROW("bad_kernel_file_renamed", "clipt_plan_create",
        "a kernel file on CLIPT_KERNEL_PATH without the kernel asked for (renamed; the "
        "detail names the file)", CLIPT_ERROR_KERNEL_BUILD, run_kernel_file_case,
        KFILE(KFILE_RENAMED)),
    ROW("bad_kernel_file_no_memory", "clipt_plan_create",
        "a kernel file whose text cannot be allocated (host memory runs out reading it)",
        CLIPT_ERROR_OUT_OF_HOST_MEMORY, run_kernel_file_case, KFILE(KFILE_NO_MEMORY)),

    ROW("limit_padded_above_max_alloc", "clipt_plan_create",
        "the padded matrix is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE (the matrix is not)",
        CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, run_limit_padded, NULL),
    ROW("limit_scratch_above_max_alloc", "clipt_plan_create",
        "the scratch buffer is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
        CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, run_limit_case,
        LIMIT(max_alloc_bytes, CLIPT_SEQUENCE_1, scratch_of)),
    ROW("limit_memory_above_device", "clipt_plan_create",
        "matrix, scratch and segment tables exceed CL_DEVICE_GLOBAL_MEM_SIZE",
        CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, run_limit_case,
        LIMIT(global_mem_bytes, CLIPT_SEQUENCE_1, memory_of)),
    ROW("limit_launch_above_device", "clipt_plan_create",
        "a stage's global work size exceeds what CL_DEVICE_ADDRESS_BITS allows",
        CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS, run_limit_case,
        LIMIT(max_global_size, CLIPT_SEQUENCE_AUTO, launch_of)),

    ROW("bad_enqueue_null_plan", "clipt_enqueue", "NULL plan", CLIPT_ERROR_NULL_ARGUMENT,
        run_enqueue_case, ENQ(1, Q_GOOD, B_GOOD, 0, 0, W_NONE)),
    ROW("bad_enqueue_null_queue", "clipt_enqueue", "NULL queue", CLIPT_ERROR_NULL_ARGUMENT,
        run_enqueue_case, ENQ(0, Q_NULL, B_GOOD, 0, 0, W_NONE)),
    ROW("bad_enqueue_null_buffer", "clipt_enqueue", "NULL buffer", CLIPT_ERROR_NULL_ARGUMENT,
        run_enqueue_case, ENQ(0, Q_GOOD, B_NULL, 0, 0, W_NONE)),
    ROW("bad_enqueue_buffer_short", "clipt_enqueue",
        "buffer one byte smaller than clipt_plan_buffer_size", CLIPT_ERROR_BUFFER_TOO_SMALL,
        run_enqueue_case, ENQ(0, Q_GOOD, B_SMALL, 0, 0, W_NONE)),
    ROW("bad_enqueue_offset_short", "clipt_enqueue",
        "offset leaves one element too few after it", CLIPT_ERROR_BUFFER_TOO_SMALL,
        run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, SLACK + ELEM, 0, W_NONE)),
    ROW("bad_enqueue_offset_past_end", "clipt_enqueue", "offset past the end of the buffer",
        CLIPT_ERROR_BUFFER_TOO_SMALL,
        run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, 1 << 20, 0, W_NONE)),
    ROW("bad_enqueue_offset_misaligned", "clipt_enqueue",
        "offset 2 with 4-byte elements", CLIPT_ERROR_MISALIGNED_OFFSET, run_enqueue_case,
        ENQ(0, Q_GOOD, B_GOOD, 2, 0, W_NONE)),
    ROW("bad_enqueue_offset_odd", "clipt_enqueue", "offset 5 with 4-byte elements",
        CLIPT_ERROR_MISALIGNED_OFFSET, run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, 5, 0, W_NONE)),
    ROW("bad_enqueue_read_only", "clipt_enqueue", "CL_MEM_READ_ONLY buffer",
        CLIPT_ERROR_READ_ONLY_BUFFER,
        run_enqueue_case, ENQ(0, Q_GOOD, B_READ_ONLY, 0, 0, W_NONE)),
    ROW("bad_enqueue_write_only", "clipt_enqueue", "CL_MEM_WRITE_ONLY buffer",
        CLIPT_ERROR_WRITE_ONLY_BUFFER,
        run_enqueue_case, ENQ(0, Q_GOOD, B_WRITE_ONLY, 0, 0, W_NONE)),
    ROW("bad_enqueue_foreign_queue", "clipt_enqueue", "queue of another context",
        CLIPT_ERROR_DEVICE_MISMATCH, run_enqueue_case, ENQ(0, Q_OTHER, B_GOOD, 0, 0, W_NONE)),
    ROW("bad_enqueue_other_device_queue", "clipt_enqueue",
        "queue of another device of the plan's context", CLIPT_ERROR_DEVICE_MISMATCH,
        run_enqueue_case, ENQ(0, Q_SUB, B_GOOD, 0, 0, W_NONE)),
    ROW("bad_enqueue_foreign_buffer", "clipt_enqueue", "buffer of another context",
        CLIPT_ERROR_DEVICE_MISMATCH, run_enqueue_case, ENQ(0, Q_GOOD, B_OTHER, 0, 0, W_NONE)),
    ROW("bad_enqueue_wait_null_list", "clipt_enqueue", "wait count 1 with a NULL list",
        CLIPT_ERROR_INVALID_WAIT_LIST,
        run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, 0, 1, W_NULL_LIST)),
    ROW("bad_enqueue_wait_zero_count", "clipt_enqueue", "wait count 0 with a list",
        CLIPT_ERROR_INVALID_WAIT_LIST, run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, 0, 0, W_ONE)),
    ROW("bad_enqueue_wait_null_event", "clipt_enqueue", "a NULL event in the wait list",
        CLIPT_ERROR_INVALID_WAIT_LIST, run_enqueue_case,
        ENQ(0, Q_GOOD, B_GOOD, 0, 1, W_NULL_EVENT)),
    ROW("bad_enqueue_wait_foreign_event", "clipt_enqueue",
        "an event of another context in the wait list", CLIPT_ERROR_INVALID_WAIT_LIST,
        run_enqueue_case, ENQ(0, Q_GOOD, B_GOOD, 0, 1, W_OTHER)),
    ROW("bad_enqueue_wait_already_failed", "clipt_enqueue",
        "an event of the wait list failed before the call (then the plan's next run, on "
        "another queue, transposes)", CLIPT_ERROR_WAIT_EVENT_FAILED, run_wait_already_failed,
        NULL),
    ROW("bad_enqueue_wait_failed_event", "clipt_enqueue",
        "an event of the wait list fails (status from waiting for the returned event)",
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, run_failed_wait_event, NULL),

    ROW("bad_one_shot_null_queue", "clipt_transpose", "NULL queue",
        CLIPT_ERROR_NULL_ARGUMENT,
        run_transpose_case, ONE_SHOT(ROWS, COLS, ELEM, 0, B_GOOD, 1)),
    ROW("bad_one_shot_null_buffer", "clipt_transpose", "NULL buffer",
        CLIPT_ERROR_NULL_ARGUMENT,
        run_transpose_case, ONE_SHOT(ROWS, COLS, ELEM, 0, B_NULL, 0)),
    ROW("bad_one_shot_rows_zero", "clipt_transpose", "rows 0", CLIPT_ERROR_INVALID_SHAPE,
        run_transpose_case, ONE_SHOT(0, COLS, ELEM, 0, B_GOOD, 0)),
    ROW("bad_one_shot_elem_3", "clipt_transpose", "element size 3",
        CLIPT_ERROR_INVALID_ELEM_SIZE,
        run_transpose_case, ONE_SHOT(ROWS, COLS, 3, 0, B_GOOD, 0)),
    ROW("bad_one_shot_overflow", "clipt_transpose",
        "rows x cols does not fit in size_t (SIZE_MAX/2 x 3)", CLIPT_ERROR_SHAPE_OVERFLOW,
        run_transpose_case, ONE_SHOT(SIZE_MAX / 2, 3, ELEM, 0, B_GOOD, 0)),
    ROW("bad_one_shot_buffer_short", "clipt_transpose", "buffer one byte short",
        CLIPT_ERROR_BUFFER_TOO_SMALL, run_transpose_case,
        ONE_SHOT(ROWS, COLS, ELEM, 0, B_SMALL, 0)),
    ROW("bad_one_shot_offset_misaligned", "clipt_transpose",
        "offset 2 with 4-byte elements", CLIPT_ERROR_MISALIGNED_OFFSET, run_transpose_case,
        ONE_SHOT(ROWS, COLS, ELEM, 2, B_GOOD, 0)),
    ROW("bad_one_shot_read_only", "clipt_transpose", "CL_MEM_READ_ONLY buffer",
        CLIPT_ERROR_READ_ONLY_BUFFER, run_transpose_case,
        ONE_SHOT(ROWS, COLS, ELEM, 0, B_READ_ONLY, 0)),
    ROW("bad_one_shot_foreign_buffer", "clipt_transpose", "buffer of another context",
        CLIPT_ERROR_DEVICE_MISMATCH,
        run_transpose_case, ONE_SHOT(ROWS, COLS, ELEM, 0, B_OTHER, 0)),

    ROW("bad_describe_null_plan", "clipt_plan_describe", "NULL plan",
        CLIPT_ERROR_NULL_ARGUMENT, run_text_case, TEXT(TEXT_PLAN, 1, 0, 64)),
    ROW("bad_describe_null_buffer", "clipt_plan_describe", "NULL text buffer",
        CLIPT_ERROR_NULL_ARGUMENT, run_text_case, TEXT(TEXT_PLAN, 0, 1, 64)),
    ROW("bad_describe_zero_length", "clipt_plan_describe", "text buffer of length 0",
        CLIPT_ERROR_NULL_ARGUMENT, run_text_case, TEXT(TEXT_PLAN, 0, 0, 0)),
    ROW("bad_describe_short_buffer", "clipt_plan_describe",
        "text buffer of 16 bytes (the text is cut, still terminated)", CLIPT_ERROR_TRUNCATED,
        run_text_case, TEXT(TEXT_PLAN, 0, 0, 16)),
    ROW("bad_context_describe_null", "clipt_context_describe", "NULL context",
        CLIPT_ERROR_NULL_ARGUMENT, run_text_case, TEXT(TEXT_CONTEXT, 1, 0, 64)),
    ROW("bad_error_detail_null", "clipt_context_error_detail", "NULL context",
        CLIPT_ERROR_NULL_ARGUMENT, run_text_case, TEXT(TEXT_DETAIL, 1, 0, 64)),
    ROW("bad_error_detail_zero_length", "clipt_context_error_detail",
        "text buffer of length 0", CLIPT_ERROR_NULL_ARGUMENT, run_text_case,
        TEXT(TEXT_DETAIL, 0, 0, 0)),

    ROW("bad_profile_null_plan", "clipt_plan_profile", "NULL plan",
        CLIPT_ERROR_NULL_ARGUMENT, run_profile_case, PROFILE(PROFILE_NULL_PLAN)),
    ROW("bad_profile_never_run", "clipt_plan_profile", "a plan never enqueued",
        CL_INVALID_OPERATION, run_profile_case, PROFILE(PROFILE_NEVER_RUN)),
    ROW("bad_profile_no_profiling", "clipt_plan_profile",
        "the last run was on a queue without CL_QUEUE_PROFILING_ENABLE",
        CL_PROFILING_INFO_NOT_AVAILABLE, run_profile_case, PROFILE(PROFILE_NO_PROFILING)),

    ROW("bad_query_null_plan", "clipt_plan_query", "NULL plan", CLIPT_ERROR_NULL_ARGUMENT,
        run_query_case, QUERY(QUERY_PLAN, 1, 0, NULL, STAGE_FIRST)),
    ROW("bad_query_null_info", "clipt_plan_query", "NULL info pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case, QUERY(QUERY_PLAN, 0, 1, NULL, STAGE_FIRST)),
    ROW("bad_query_stage_null_plan", "clipt_plan_query_stage", "NULL plan",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case, QUERY(QUERY_STAGE, 1, 0, NULL, STAGE_FIRST)),
    ROW("bad_query_stage_null_info", "clipt_plan_query_stage", "NULL info pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case, QUERY(QUERY_STAGE, 0, 1, NULL, STAGE_FIRST)),
    ROW("bad_query_stage_past_end", "clipt_plan_query_stage",
        "stage index equal to the plan's number of stages", CLIPT_ERROR_INVALID_OPTION,
        run_query_case, QUERY(QUERY_STAGE, 0, 0, NULL, STAGE_PAST_END)),
    ROW("bad_query_stage_no_stages", "clipt_plan_query_stage",
        "stage 0 of a plan without stages (a single row)", CLIPT_ERROR_INVALID_OPTION,
        run_query_case, QUERY(QUERY_STAGE, 0, 0, NULL, STAGE_OF_VECTOR)),
    ROW("bad_tuning_null_context", "clipt_context_tuning", "NULL context",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_OF_CONTEXT, 1, 0, "walk_unroll", STAGE_FIRST)),
    ROW("bad_tuning_null_name", "clipt_context_tuning", "NULL name", CLIPT_ERROR_NULL_ARGUMENT,
        run_query_case, QUERY(TUNING_OF_CONTEXT, 0, 0, NULL, STAGE_FIRST)),
    ROW("bad_tuning_null_value", "clipt_context_tuning", "NULL value pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_OF_CONTEXT, 0, 1, "walk_unroll", STAGE_FIRST)),
    ROW("bad_tuning_unknown_name", "clipt_context_tuning",
        "a name no tuning field has (walk_unrolled)", CLIPT_ERROR_INVALID_OPTION,
        run_query_case, QUERY(TUNING_OF_CONTEXT, 0, 0, "walk_unrolled", STAGE_FIRST)),
    ROW("bad_plan_tuning_null_plan", "clipt_plan_tuning", "NULL plan",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_OF_PLAN, 1, 0, "walk_unroll", STAGE_FIRST)),
    ROW("bad_plan_tuning_null_name", "clipt_plan_tuning", "NULL name",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_OF_PLAN, 0, 0, NULL, STAGE_FIRST)),
    ROW("bad_plan_tuning_null_value", "clipt_plan_tuning", "NULL value pointer",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_OF_PLAN, 0, 1, "walk_unroll", STAGE_FIRST)),
    ROW("bad_plan_tuning_unknown_name", "clipt_plan_tuning",
        "a name no tuning field has (sequence, an option but no tuning value)",
        CLIPT_ERROR_INVALID_OPTION, run_query_case,
        QUERY(TUNING_OF_PLAN, 0, 0, "sequence", STAGE_FIRST)),
    ROW("bad_set_tuning_null_options", "clipt_plan_options_set_tuning", "NULL options",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case,
        QUERY(TUNING_SET, 1, 0, "walk_unroll", STAGE_FIRST)),
    ROW("bad_set_tuning_null_name", "clipt_plan_options_set_tuning", "NULL name",
        CLIPT_ERROR_NULL_ARGUMENT, run_query_case, QUERY(TUNING_SET, 0, 0, NULL, STAGE_FIRST)),
    ROW("bad_set_tuning_unknown_name", "clipt_plan_options_set_tuning",
        "a name no tuning field has (tile_m, an option but no tuning value)",
        CLIPT_ERROR_INVALID_OPTION, run_query_case,
        QUERY(TUNING_SET, 0, 0, "tile_m", STAGE_FIRST)),

    ROW("bad_permute_null_dims", "clipt_plan_create_permute", "NULL dims",
        CLIPT_ERROR_NULL_ARGUMENT, run_permute_case,
        PERMUTE(3, {2, 3, 4}, {0, 2, 1}, ELEM, 1, 0)),
    ROW("bad_permute_null_perm", "clipt_plan_create_permute", "NULL perm",
        CLIPT_ERROR_NULL_ARGUMENT, run_permute_case,
        PERMUTE(3, {2, 3, 4}, {0, 2, 1}, ELEM, 0, 1)),
    ROW("bad_permute_elem_3", "clipt_plan_create_permute", "element size 3",
        CLIPT_ERROR_INVALID_ELEM_SIZE, run_permute_case,
        PERMUTE(3, {2, 3, 4}, {0, 2, 1}, 3, 0, 0)),
    ROW("bad_permute_ndim_0", "clipt_plan_create_permute", "ndim 0",
        CLIPT_ERROR_INVALID_NDIM, run_permute_case, PERMUTE(0, {2}, {0}, ELEM, 0, 0)),
    ROW("bad_permute_ndim_9", "clipt_plan_create_permute", "ndim 9 (above CLIPT_MAX_DIMS)",
        CLIPT_ERROR_INVALID_NDIM, run_permute_case,
        PERMUTE(9, {2, 2, 2, 2, 2, 2, 2, 2, 2}, {8, 7, 6, 5, 4, 3, 2, 1, 0}, ELEM, 0, 0)),
    ROW("bad_permute_axis_repeated", "clipt_plan_create_permute", "axis 2 repeated (0, 2, 2)",
        CLIPT_ERROR_INVALID_PERMUTATION, run_permute_case,
        PERMUTE(3, {2, 3, 4}, {0, 2, 2}, ELEM, 0, 0)),
    ROW("bad_permute_axis_out_of_range", "clipt_plan_create_permute",
        "axis 3 of a 3-D array (0, 3, 1)", CLIPT_ERROR_INVALID_PERMUTATION, run_permute_case,
        PERMUTE(3, {2, 3, 4}, {0, 3, 1}, ELEM, 0, 0)),
    ROW("bad_permute_dim_zero", "clipt_plan_create_permute", "a dimension of 0",
        CLIPT_ERROR_INVALID_SHAPE, run_permute_case,
        PERMUTE(3, {2, 0, 4}, {0, 2, 1}, ELEM, 0, 0)),
    ROW("bad_permute_overflow", "clipt_plan_create_permute",
        "the dimensions' product times elem does not fit in size_t (SIZE_MAX/8 x 1 x 3)",
        CLIPT_ERROR_SHAPE_OVERFLOW, run_permute_case,
        PERMUTE(3, {SIZE_MAX / 8, 1, 3}, {2, 1, 0}, ELEM, 0, 0)),
};

static void run_row(void **state)
{
    const bad_input *row = *state;
    row->run(row);
}

/* The catalogue's markdown row, as docs/errors.md must hold it. */
static void format_row(const bad_input *row, char *out, size_t len)
{
    snprintf(out, len, "| %s | `%s` | `%s` | `%s` |", row->what, row->call, row->want_name,
             row->test);
}

#define CATALOGUE_BEGIN "<!-- bad-input catalogue: begin -->"
#define CATALOGUE_END "<!-- bad-input catalogue: end -->"

/* docs/errors.md lists exactly the rows above, in order, between its
 * catalogue markers (after the table's two header lines).  On a
 * difference, the expected table is printed. */
static void test_catalogue_documented(void **state)
{
    char path[1024], line[1024], want[1024];
    size_t row = 0, table_line = 0, bad = 0;
    int inside = 0;
    FILE *f;
    (void)state;
    snprintf(path, sizeof path, "%s/docs/errors.md", CLIPT_SOURCE_DIR);
    f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, CATALOGUE_BEGIN) == 0) {
            inside = 1;
            continue;
        }
        if (strcmp(line, CATALOGUE_END) == 0)
            break;
        if (!inside || line[0] != '|' || table_line++ < 2)
            continue;
        if (row < COUNT(catalogue))
            format_row(&catalogue[row], want, sizeof want);
        if (row >= COUNT(catalogue) || strcmp(line, want) != 0) {
            print_message("docs/errors.md catalogue row %zu: \"%s\"\n", row + 1, line);
            bad++;
        }
        row++;
    }
    fclose(f);
    if (bad || row != COUNT(catalogue)) {
        print_message("expected rows:\n");
        for (size_t i = 0; i < COUNT(catalogue); i++) {
            format_row(&catalogue[i], want, sizeof want);
            print_message("%s\n", want);
        }
        fail_msg("%s: %zu rows differ; it has %zu rows, the tests %zu", path, bad, row,
                 COUNT(catalogue));
    }
}

/* The limits are exact: the plan's size from the offset is enough. */
static void test_enqueue_boundaries(void **state)
{
    static const size_t offsets[] = {0, SLACK};
    (void)state;
    for (size_t i = 0; i < COUNT(offsets); i++) {
        const size_t total = offsets[i] + W->main.bytes;
        unsigned char *host, *want = malloc(total);
        cl_mem buf = test_pattern_buffer(&W->main.env, CL_MEM_READ_WRITE, total, i, &host);
        cl_event done;
        assert_non_null(want);
        memcpy(want, host, total);
        test_reference_transpose(host + offsets[i], want + offsets[i], ROWS, COLS, ELEM);
        assert_status(clipt_enqueue(W->main.plan, W->main.env.cl.queue, buf, offsets[i], 1,
                                    &W->done_event, &done), CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
        test_expect_buffer(&W->main.env, buf, want, total, "exact-size buffer");
        clReleaseEvent(done);
        clReleaseMemObject(buf);
        free(host);
        free(want);
    }
}

/* ---- kernel loading ------------------------------------------------------------------ */

/* CLIPT_KERNEL_PATH is searched first; a file missing everywhere is
 * KERNEL_NOT_FOUND with the directories tried. */
static void test_loader_not_found(void **state)
{
    char dir[512], searched[8192], found[4096], *text = NULL;
    (void)state;
    make_kernel_dir(dir, sizeof dir, NULL, NULL);
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_loader_read("clipt_no_such_kernel.cl", &text, found, sizeof found,
                                    searched, sizeof searched),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    if (!strstr(searched, dir) || !strstr(searched, "clipt_no_such_kernel.cl"))
        fail_msg("the searched paths do not name %s: %s", dir, searched);
    /* the build tree is searched next: an empty directory breaks nothing */
    assert_status(clipt_loader_read("transpose010.cl", &text, found, sizeof found, searched,
                                    sizeof searched),
                  CLIPT_SUCCESS);
    assert_non_null(strstr(text, "__kernel"));
    free(text);
    unsetenv("CLIPT_KERNEL_PATH");
    remove_kernel_dir(dir, NULL);
}

/* Through a context: the failure's detail names the file and directory. */
static void test_loader_detail(void **state)
{
    char dir[512], detail[8192];
    cl_kernel k = NULL;
    clipt_context c;
    clipt_plan p;
    (void)state;
    make_kernel_dir(dir, sizeof dir, "clipt_broken.cl", "__kernel void k(void) { oops }\n");
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    assert_string_equal(detail, "");
    assert_status(clipt_loader_kernel(c, "clipt_no_such_kernel.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    if (!strstr(detail, dir) || !strstr(detail, "clipt_no_such_kernel.cl"))
        fail_msg("detail does not name the file and %s: %s", dir, detail);
    assert_status(clipt_loader_kernel(c, "clipt_broken.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_BUILD);
    assert_status(clipt_context_error_detail(c, detail, sizeof detail), CLIPT_SUCCESS);
    if (!strstr(detail, "clipt_broken.cl"))
        fail_msg("detail does not name the broken file: %s", detail);
    /* kernels not in the directory still come from the build tree */
    assert_status(clipt_plan_create(c, 30, 40, 4, NULL, &p), CLIPT_SUCCESS);
    clipt_plan_release(p);
    clipt_context_release(c);
    unsetenv("CLIPT_KERNEL_PATH");
    remove_kernel_dir(dir, "clipt_broken.cl");
}

/* ---- status strings ------------------------------------------------------------------ */

typedef struct named_code {
    clipt_status code;
    const char *name;
} named_code;

#define NAMED(code) {code, #code}
#define NAMED_CLIPT(name, value, text) {name, #name},
static const named_code known_codes[] = {
    NAMED(CLIPT_SUCCESS),
    CLIPT_ERROR_TABLE(NAMED_CLIPT)
    NAMED(CL_DEVICE_NOT_FOUND), NAMED(CL_DEVICE_NOT_AVAILABLE),
    NAMED(CL_COMPILER_NOT_AVAILABLE), NAMED(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    NAMED(CL_OUT_OF_RESOURCES), NAMED(CL_OUT_OF_HOST_MEMORY),
    NAMED(CL_PROFILING_INFO_NOT_AVAILABLE), NAMED(CL_MEM_COPY_OVERLAP),
    NAMED(CL_IMAGE_FORMAT_MISMATCH), NAMED(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    NAMED(CL_BUILD_PROGRAM_FAILURE), NAMED(CL_MAP_FAILURE),
    NAMED(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    NAMED(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    NAMED(CL_COMPILE_PROGRAM_FAILURE), NAMED(CL_LINKER_NOT_AVAILABLE),
    NAMED(CL_LINK_PROGRAM_FAILURE), NAMED(CL_DEVICE_PARTITION_FAILED),
    NAMED(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), NAMED(CL_INVALID_VALUE),
    NAMED(CL_INVALID_DEVICE_TYPE), NAMED(CL_INVALID_PLATFORM), NAMED(CL_INVALID_DEVICE),
    NAMED(CL_INVALID_CONTEXT), NAMED(CL_INVALID_QUEUE_PROPERTIES),
    NAMED(CL_INVALID_COMMAND_QUEUE), NAMED(CL_INVALID_HOST_PTR),
    NAMED(CL_INVALID_MEM_OBJECT), NAMED(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    NAMED(CL_INVALID_IMAGE_SIZE), NAMED(CL_INVALID_SAMPLER), NAMED(CL_INVALID_BINARY),
    NAMED(CL_INVALID_BUILD_OPTIONS), NAMED(CL_INVALID_PROGRAM),
    NAMED(CL_INVALID_PROGRAM_EXECUTABLE), NAMED(CL_INVALID_KERNEL_NAME),
    NAMED(CL_INVALID_KERNEL_DEFINITION), NAMED(CL_INVALID_KERNEL),
    NAMED(CL_INVALID_ARG_INDEX), NAMED(CL_INVALID_ARG_VALUE), NAMED(CL_INVALID_ARG_SIZE),
    NAMED(CL_INVALID_KERNEL_ARGS), NAMED(CL_INVALID_WORK_DIMENSION),
    NAMED(CL_INVALID_WORK_GROUP_SIZE), NAMED(CL_INVALID_WORK_ITEM_SIZE),
    NAMED(CL_INVALID_GLOBAL_OFFSET), NAMED(CL_INVALID_EVENT_WAIT_LIST),
    NAMED(CL_INVALID_EVENT), NAMED(CL_INVALID_OPERATION), NAMED(CL_INVALID_GL_OBJECT),
    NAMED(CL_INVALID_BUFFER_SIZE), NAMED(CL_INVALID_MIP_LEVEL),
    NAMED(CL_INVALID_GLOBAL_WORK_SIZE), NAMED(CL_INVALID_PROPERTY),
    NAMED(CL_INVALID_IMAGE_DESCRIPTOR), NAMED(CL_INVALID_COMPILER_OPTIONS),
    NAMED(CL_INVALID_LINKER_OPTIONS), NAMED(CL_INVALID_DEVICE_PARTITION_COUNT)};

/* Each known code has its own string, which names it; anything else gets
 * the one "unknown" string, never NULL. */
static void test_status_strings(void **state)
{
    static const clipt_status unknown[] = {12345, 1, -20, -29, -69, -999, -1098, -1099,
                                           -1100, INT_MIN, INT_MAX};
    const char *other = clipt_status_string(12345);
    (void)state;
    assert_non_null(other);
    for (size_t i = 0; i < COUNT(known_codes); i++) {
        const char *s = clipt_status_string(known_codes[i].code);
        if (!s || !strstr(s, known_codes[i].name) || s == other)
            fail_msg("clipt_status_string(%d) = \"%s\", should name %s",
                     known_codes[i].code, s ? s : "(null)", known_codes[i].name);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, clipt_status_string(known_codes[j].code));
    }
    for (size_t i = 0; i < COUNT(unknown); i++)
        assert_string_equal(clipt_status_string(unknown[i]), other);
    for (int code = -1200; code <= 0; code++)
        assert_non_null(clipt_status_string(code));
}

/* ---- text buffers ---------------------------------------------------------------- */

typedef clipt_status (*text_fn)(void *obj, char *buf, size_t len);
static clipt_status plan_text(void *p, char *buf, size_t len)
{
    return clipt_plan_describe(p, buf, len);
}
static clipt_status context_text(void *c, char *buf, size_t len)
{
    return clipt_context_describe(c, buf, len);
}
static clipt_status detail_text(void *c, char *buf, size_t len)
{
    return clipt_context_error_detail(c, buf, len);
}

/* A buffer one byte short cuts the text, still terminated; len 0 or a NULL
 * buffer are refused. */
static void check_text_rules(text_fn fn, void *obj, const char *what)
{
    char full[8192], cut[8192];
    size_t n;
    assert_status(fn(obj, full, sizeof full), CLIPT_SUCCESS);
    n = strlen(full);
    if (n < 2)
        fail_msg("%s: text too short to test: \"%s\"", what, full);
    assert_status(fn(obj, cut, n + 1), CLIPT_SUCCESS);
    assert_string_equal(cut, full);
    for (size_t len = n; len >= 1; len = len > 8 ? len / 2 : len - 1) {
        memset(cut, 'x', sizeof cut);
        assert_status(fn(obj, cut, len), CLIPT_ERROR_TRUNCATED);
        assert_int_equal(strlen(cut), len - 1);
        assert_memory_equal(cut, full, len - 1);
    }
    assert_status(fn(obj, cut, 0), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(fn(obj, NULL, 16), CLIPT_ERROR_NULL_ARGUMENT);
}

static void test_text_buffers(void **state)
{
    cl_kernel k;
    clipt_context c;
    char buf[4];
    (void)state;
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    /* nothing failed yet: the detail is empty, which fits any buffer */
    assert_status(clipt_context_error_detail(c, buf, 1), CLIPT_SUCCESS);
    assert_string_equal(buf, "");
    assert_status(clipt_loader_kernel(c, "clipt_no_such_kernel.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    check_text_rules(detail_text, c, "clipt_context_error_detail");
    check_text_rules(context_text, c, "clipt_context_describe");
    check_text_rules(plan_text, W->main.plan, "clipt_plan_describe");
    clipt_context_release(c);
}

/* Calls that take NULL without a status: sizes are 0, the tuning entry
 * and a name past the last tuning field NULL, releases do nothing. */
static void test_null_tolerated(void **state)
{
    (void)state;
    assert_int_equal(clipt_plan_buffer_size(NULL), 0);
    assert_int_equal(clipt_plan_scratch_size(NULL), 0);
    assert_null(clipt_context_tuning_entry(NULL));
    assert_null(clipt_tuning_name(clipt_tuning_count()));
    clipt_context_release(NULL);
    clipt_plan_release(NULL);
    clipt_plan_options_init(NULL);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_catalogue_documented),
        cmocka_unit_test(test_enqueue_boundaries),
        cmocka_unit_test(test_null_tolerated),
        cmocka_unit_test(test_loader_not_found),
        cmocka_unit_test(test_loader_detail),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_text_buffers),
    };
    struct CMUnitTest tests[COUNT(fixed) + COUNT(catalogue)];
    for (size_t i = 0; i < COUNT(fixed); i++)
        tests[i] = fixed[i];
    /* one test per catalogue row, named as the docs name it */
    for (size_t i = 0; i < COUNT(catalogue); i++) {
        const struct CMUnitTest row = {catalogue[i].test, run_row, NULL, NULL, &catalogue[i]};
        tests[COUNT(fixed) + i] = row;
    }
    test_apply_filter();
    return _cmocka_run_group_tests("test_errors", tests, COUNT(tests), world_open,
                                   world_close);
}
