/* Bad input gets its specific status and leaves the buffer byte for byte
 * as it was; status strings, text buffers and NULL handling. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"
#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROWS 64
#define COLS 48
#define ELEM 4
#define SLACK 16

/* Everything the cases draw on: a plan, and a second OpenCL context on the
 * same device with a queue, a buffer and an event of its own. */
typedef struct world {
    test_env env;
    clipt_plan plan;
    size_t bytes;                 /* the plan's buffer size */
    cl_context other;
    cl_command_queue other_queue;
    cl_event other_event;         /* a complete user event of `other` */
    cl_event done_event;          /* a complete user event of env's context */
} world;

static cl_event complete_user_event(cl_context ctx)
{
    cl_int err;
    cl_event e = clCreateUserEvent(ctx, &err);
    assert_status(err, CL_SUCCESS);
    assert_status(clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    return e;
}

static int world_open(void **state)
{
    world *w = calloc(1, sizeof *w);
    cl_int err;
    if (!w)
        return -1;
    test_env_open(&w->env);
    if (clipt_plan_create(w->env.ctx, ROWS, COLS, ELEM, NULL, &w->plan) != CLIPT_SUCCESS)
        return -1;
    w->bytes = clipt_plan_buffer_size(w->plan);
    w->other = clCreateContext(NULL, 1, &w->env.cl.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    w->other_queue = clCreateCommandQueue(w->other, w->env.cl.device, 0, &err);
    if (err != CL_SUCCESS)
        return -1;
    w->other_event = complete_user_event(w->other);
    w->done_event = complete_user_event(w->env.cl.context);
    *state = w;
    return 0;
}

static int world_close(void **state)
{
    world *w = *state;
    clReleaseEvent(w->other_event);
    clReleaseEvent(w->done_event);
    clReleaseCommandQueue(w->other_queue);
    clReleaseContext(w->other);
    clipt_plan_release(w->plan);
    test_env_close(&w->env);
    free(w);
    return 0;
}

/* ---- enqueue: every argument checked before anything runs ---------------------- */

typedef enum { Q_GOOD, Q_NULL, Q_OTHER } queue_kind;
typedef enum { B_GOOD, B_NULL, B_SMALL, B_READ_ONLY, B_WRITE_ONLY, B_OTHER } buffer_kind;
typedef enum { W_NONE, W_NULL_LIST, W_ONE, W_NULL_EVENT, W_OTHER } wait_kind;

typedef struct enqueue_case {
    const char *what;
    int null_plan;
    queue_kind queue;
    buffer_kind buffer;
    size_t offset;
    cl_uint num_wait;
    wait_kind wait;
    clipt_status want;
} enqueue_case;

static const enqueue_case enqueue_cases[] = {
    {"NULL plan", 1, Q_GOOD, B_GOOD, 0, 0, W_NONE, CLIPT_ERROR_NULL_ARGUMENT},
    {"NULL queue", 0, Q_NULL, B_GOOD, 0, 0, W_NONE, CLIPT_ERROR_NULL_ARGUMENT},
    {"NULL buffer", 0, Q_GOOD, B_NULL, 0, 0, W_NONE, CLIPT_ERROR_NULL_ARGUMENT},
    {"buffer one byte short", 0, Q_GOOD, B_SMALL, 0, 0, W_NONE, CLIPT_ERROR_BUFFER_TOO_SMALL},
    {"offset leaves too little", 0, Q_GOOD, B_GOOD, SLACK + ELEM, 0, W_NONE,
     CLIPT_ERROR_BUFFER_TOO_SMALL},
    {"offset past the end", 0, Q_GOOD, B_GOOD, 1 << 20, 0, W_NONE,
     CLIPT_ERROR_BUFFER_TOO_SMALL},
    {"misaligned offset", 0, Q_GOOD, B_GOOD, 2, 0, W_NONE, CLIPT_ERROR_MISALIGNED_OFFSET},
    {"misaligned offset 5", 0, Q_GOOD, B_GOOD, 5, 0, W_NONE, CLIPT_ERROR_MISALIGNED_OFFSET},
    {"read-only buffer", 0, Q_GOOD, B_READ_ONLY, 0, 0, W_NONE, CLIPT_ERROR_READ_ONLY_BUFFER},
    {"write-only buffer", 0, Q_GOOD, B_WRITE_ONLY, 0, 0, W_NONE, CLIPT_ERROR_WRITE_ONLY_BUFFER},
    {"queue of another context", 0, Q_OTHER, B_GOOD, 0, 0, W_NONE,
     CLIPT_ERROR_DEVICE_MISMATCH},
    {"buffer of another context", 0, Q_GOOD, B_OTHER, 0, 0, W_NONE,
     CLIPT_ERROR_DEVICE_MISMATCH},
    {"count 1, NULL list", 0, Q_GOOD, B_GOOD, 0, 1, W_NULL_LIST, CLIPT_ERROR_INVALID_WAIT_LIST},
    {"count 0, a list", 0, Q_GOOD, B_GOOD, 0, 0, W_ONE, CLIPT_ERROR_INVALID_WAIT_LIST},
    {"NULL event in the list", 0, Q_GOOD, B_GOOD, 0, 1, W_NULL_EVENT,
     CLIPT_ERROR_INVALID_WAIT_LIST},
    {"event of another context", 0, Q_GOOD, B_GOOD, 0, 1, W_OTHER,
     CLIPT_ERROR_INVALID_WAIT_LIST},
};

static cl_mem make_buffer(world *w, buffer_kind kind, unsigned char **host)
{
    test_env other = w->env;
    cl_mem_flags flags = kind == B_READ_ONLY    ? CL_MEM_READ_ONLY
                         : kind == B_WRITE_ONLY ? CL_MEM_WRITE_ONLY
                                                : CL_MEM_READ_WRITE;
    size_t bytes = kind == B_SMALL ? w->bytes - 1 : w->bytes + SLACK;
    other.cl.context = w->other;
    if (kind == B_NULL) {
        *host = NULL;
        return NULL;
    }
    return test_pattern_buffer(kind == B_OTHER ? &other : &w->env, flags, bytes,
                               bytes, host);
}

/* The buffer still holds what it was made with. */
static void expect_untouched(world *w, const enqueue_case *c, cl_mem buf,
                             const unsigned char *host)
{
    test_env reader = w->env;
    size_t bytes = c->buffer == B_SMALL ? w->bytes - 1 : w->bytes + SLACK;
    if (!buf)
        return;
    if (c->buffer == B_OTHER)
        reader.cl.queue = w->other_queue;
    assert_status(clFinish(w->env.cl.queue), CL_SUCCESS);
    test_expect_buffer(&reader, buf, host, bytes, c->what);
}

static void run_enqueue_case(world *w, const enqueue_case *c)
{
    cl_event list[1] = {c->wait == W_OTHER ? w->other_event
                        : c->wait == W_NULL_EVENT ? NULL
                                                  : w->done_event};
    cl_command_queue q = c->queue == Q_GOOD ? w->env.cl.queue
                         : c->queue == Q_OTHER ? w->other_queue : NULL;
    cl_event sentinel = w->done_event, event = sentinel;
    unsigned char *host;
    cl_mem buf = make_buffer(w, c->buffer, &host);
    clipt_status s = clipt_enqueue(c->null_plan ? NULL : w->plan, q, buf, c->offset,
                                   c->num_wait,
                                   c->wait == W_NONE || c->wait == W_NULL_LIST ? NULL : list,
                                   &event);
    if (s != c->want)
        fail_msg("%s: clipt_enqueue returned %s, expected %s", c->what,
                 clipt_status_string(s), clipt_status_string(c->want));
    if (event != NULL && event != sentinel)
        fail_msg("%s: an event was returned with an error", c->what);
    expect_untouched(w, c, buf, host);
    if (buf)
        clReleaseMemObject(buf);
    free(host);
}

static void test_enqueue_errors(void **state)
{
    for (size_t i = 0; i < COUNT(enqueue_cases); i++)
        run_enqueue_case(*state, &enqueue_cases[i]);
}

/* The limits are exact: the plan's size from the offset is enough. */
static void test_enqueue_boundaries(void **state)
{
    world *w = *state;
    static const size_t offsets[] = {0, SLACK};
    for (size_t i = 0; i < COUNT(offsets); i++) {
        const size_t total = offsets[i] + w->bytes;
        unsigned char *host, *want = malloc(total);
        cl_mem buf = test_pattern_buffer(&w->env, CL_MEM_READ_WRITE, total, i, &host);
        cl_event done;
        assert_non_null(want);
        memcpy(want, host, total);
        test_reference_transpose(host + offsets[i], want + offsets[i], ROWS, COLS, ELEM);
        assert_status(clipt_enqueue(w->plan, w->env.cl.queue, buf, offsets[i], 1,
                                    &w->done_event, &done), CLIPT_SUCCESS);
        assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
        test_expect_buffer(&w->env, buf, want, total, "exact-size buffer");
        clReleaseEvent(done);
        clReleaseMemObject(buf);
        free(host);
        free(want);
    }
}

/* ---- one-shot: shape and buffer errors leave the buffer alone --------------- */

typedef struct transpose_case {
    const char *what;
    size_t rows, cols, elem, offset;
    buffer_kind buffer;
    int null_queue;
    clipt_status want;
} transpose_case;

static const transpose_case transpose_cases[] = {
    {"rows 0", 0, COLS, ELEM, 0, B_GOOD, 0, CLIPT_ERROR_INVALID_SHAPE},
    {"cols 0", ROWS, 0, ELEM, 0, B_GOOD, 0, CLIPT_ERROR_INVALID_SHAPE},
    {"elem 3", ROWS, COLS, 3, 0, B_GOOD, 0, CLIPT_ERROR_INVALID_ELEM_SIZE},
    {"elem 0", ROWS, COLS, 0, 0, B_GOOD, 0, CLIPT_ERROR_INVALID_ELEM_SIZE},
    {"elem 32", ROWS, COLS, 32, 0, B_GOOD, 0, CLIPT_ERROR_INVALID_ELEM_SIZE},
    {"rows*cols overflows", SIZE_MAX / 2, 3, ELEM, 0, B_GOOD, 0, CLIPT_ERROR_SHAPE_OVERFLOW},
    {"rows*cols*elem overflows", SIZE_MAX / 16, 2, 16, 0, B_GOOD, 0,
     CLIPT_ERROR_SHAPE_OVERFLOW},
    {"NULL queue", ROWS, COLS, ELEM, 0, B_GOOD, 1, CLIPT_ERROR_NULL_ARGUMENT},
    {"NULL buffer", ROWS, COLS, ELEM, 0, B_NULL, 0, CLIPT_ERROR_NULL_ARGUMENT},
    {"buffer one byte short", ROWS, COLS, ELEM, 0, B_SMALL, 0, CLIPT_ERROR_BUFFER_TOO_SMALL},
    {"misaligned offset", ROWS, COLS, ELEM, 2, B_GOOD, 0, CLIPT_ERROR_MISALIGNED_OFFSET},
    {"read-only buffer", ROWS, COLS, ELEM, 0, B_READ_ONLY, 0, CLIPT_ERROR_READ_ONLY_BUFFER},
    {"buffer of another context", ROWS, COLS, ELEM, 0, B_OTHER, 0,
     CLIPT_ERROR_DEVICE_MISMATCH},
};

static void test_transpose_errors(void **state)
{
    world *w = *state;
    for (size_t i = 0; i < COUNT(transpose_cases); i++) {
        const transpose_case *c = &transpose_cases[i];
        const enqueue_case as_enqueue = {c->what, 0, Q_GOOD, c->buffer, 0, 0, W_NONE, 0};
        unsigned char *host;
        cl_mem buf = make_buffer(w, c->buffer, &host);
        clipt_status s = clipt_transpose(c->null_queue ? NULL : w->env.cl.queue, buf,
                                         c->offset, c->rows, c->cols, c->elem);
        if (s != c->want)
            fail_msg("%s: clipt_transpose returned %s, expected %s", c->what,
                     clipt_status_string(s), clipt_status_string(c->want));
        expect_untouched(w, &as_enqueue, buf, host);
        if (buf)
            clReleaseMemObject(buf);
        free(host);
    }
}

/* ---- plan and context creation ----------------------------------------------- */

static void expect_plan_error(world *w, size_t rows, size_t cols, size_t elem,
                              const clipt_plan_options *o, clipt_status want,
                              const char *what)
{
    clipt_plan p = (clipt_plan)w; /* any non-NULL value: it must be reset */
    clipt_status s = clipt_plan_create(w->env.ctx, rows, cols, elem, o, &p);
    if (s != want || p != NULL)
        fail_msg("%s: clipt_plan_create returned %s (plan %p), expected %s", what,
                 clipt_status_string(s), (void *)p, clipt_status_string(want));
}

static void test_plan_shape_errors(void **state)
{
    for (size_t i = 0; i < COUNT(transpose_cases); i++) {
        const transpose_case *c = &transpose_cases[i];
        if (c->buffer == B_GOOD && !c->null_queue && c->offset == 0)
            expect_plan_error(*state, c->rows, c->cols, c->elem, NULL, c->want, c->what);
    }
}

/* Options out of range, one field at a time. */
static void test_plan_option_errors(void **state)
{
    enum { N = 19 };
    clipt_plan_options o[N];
    for (int i = 0; i < N; i++)
        clipt_plan_options_init(&o[i]);
    o[0].sequence = (clipt_sequence)99;
    o[1].sequence = (clipt_sequence)5;
    o[2].pttwac_spread = 3;
    o[3].pttwac_spread = 64;
    o[4].reserved[0] = 1;
    o[5].reserved[1] = 42;
    o[6].padding = (clipt_padding)7;
    o[7].tile_rule = (clipt_tile_rule)3;
    o[8].simd_100 = 3;
    o[9].wg_100 = 6;
    o[9].simd_100 = 4;
    o[10].min_super = (1u << 20) + 1;
    o[11].pttwac_pad = 33;
    o[12].wg_010 = UINT_MAX;
    o[13].tile_elems_010 = (1u << 24) + 1;
    o[14].groups_per_cu_100 = 1025;
    o[15].groups_per_cu_010 = 1025;
    o[16].skinny_super = (1u << 20) + 1;
    o[17].walk_unroll = 33;
    o[18].walk_item_bytes = 257;
    for (int i = 0; i < N; i++) {
        char what[32];
        snprintf(what, sizeof what, "invalid option set %d", i);
        expect_plan_error(*state, ROWS, COLS, ELEM, &o[i], CLIPT_ERROR_INVALID_OPTION, what);
    }
}

/* Forced factors that do not divide the dimension. */
static void test_incompatible_options(void **state)
{
    clipt_plan_options o;
    clipt_plan_options_init(&o);
    o.tile_m = 7;
    expect_plan_error(*state, ROWS, COLS, ELEM, &o, CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
                      "tile_m 7 of 64 rows");
    o.tile_m = 8;
    o.tile_n = 5;
    expect_plan_error(*state, ROWS, COLS, ELEM, &o, CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
                      "tile_n 5 of 48 cols");
    o.tile_n = 0;
    o.tile_m = ROWS + 1;
    o.sequence = CLIPT_SEQUENCE_3_1;
    expect_plan_error(*state, ROWS, COLS, ELEM, &o, CLIPT_ERROR_INCOMPATIBLE_OPTIONS,
                      "tile_m larger than rows");
}

static void test_null_arguments(void **state)
{
    world *w = *state;
    clipt_plan p = w->plan;
    clipt_context c = w->env.ctx;
    char text[16];
    assert_status(clipt_plan_create(NULL, ROWS, COLS, ELEM, NULL, &p), CLIPT_ERROR_NULL_ARGUMENT);
    assert_null(p);
    assert_status(clipt_plan_create(w->env.ctx, ROWS, COLS, ELEM, NULL, NULL),
                  CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_context_create(NULL, w->env.cl.device, &c), CLIPT_ERROR_NULL_ARGUMENT);
    assert_null(c);
    c = w->env.ctx;
    assert_status(clipt_context_create(w->env.cl.context, NULL, &c), CLIPT_ERROR_NULL_ARGUMENT);
    assert_null(c);
    assert_status(clipt_context_create(w->env.cl.context, w->env.cl.device, NULL),
                  CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_plan_describe(NULL, text, sizeof text), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_context_describe(NULL, text, sizeof text), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_context_error_detail(NULL, text, sizeof text), CLIPT_ERROR_NULL_ARGUMENT);
    assert_status(clipt_plan_profile(NULL, NULL, NULL, 0, NULL), CLIPT_ERROR_NULL_ARGUMENT);
    assert_int_equal(clipt_plan_buffer_size(NULL), 0);
    assert_int_equal(clipt_plan_scratch_size(NULL), 0);
    /* these accept NULL and do nothing */
    clipt_context_release(NULL);
    clipt_plan_release(NULL);
    clipt_plan_options_init(NULL);
}

/* A sub-device is not a device of the parent's context. */
static void test_context_device_mismatch(void **state)
{
    world *w = *state;
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[64];
    cl_uint n = 0;
    clipt_context c = w->env.ctx;
    if (clCreateSubDevices(w->env.cl.device, props, 0, NULL, &n) != CL_SUCCESS ||
        n == 0 || n > COUNT(sub) ||
        clCreateSubDevices(w->env.cl.device, props, n, sub, NULL) != CL_SUCCESS) {
        print_message("skipped: %s cannot be partitioned into sub-devices\n",
                      w->env.cl.device_name);
        skip();
    }
    assert_status(clipt_context_create(w->env.cl.context, sub[0], &c),
                  CLIPT_ERROR_DEVICE_MISMATCH);
    assert_null(c);
    for (cl_uint i = 0; i < n; i++)
        clReleaseDevice(sub[i]);
}

/* ---- profile --------------------------------------------------------------------- */

static void test_profile_errors(void **state)
{
    world *w = *state;
    clipt_plan p;
    cl_event done;
    cl_int err;
    double total;
    unsigned char *host;
    cl_command_queue plain = clCreateCommandQueue(w->env.cl.context, w->env.cl.device,
                                                  0, &err);
    cl_mem buf = test_pattern_buffer(&w->env, CL_MEM_READ_WRITE, w->bytes, 3, &host);
    assert_status(err, CL_SUCCESS);
    assert_status(clipt_plan_create(w->env.ctx, ROWS, COLS, ELEM, NULL, &p), CLIPT_SUCCESS);
    assert_status(clipt_plan_profile(p, &total, NULL, 0, NULL), CL_INVALID_OPERATION);
    assert_status(clipt_enqueue(p, plain, buf, 0, 0, NULL, &done), CLIPT_SUCCESS);
    assert_status(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_status(clipt_plan_profile(p, &total, NULL, 0, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(done);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(plain);
    clipt_plan_release(p);
    free(host);
}

/* ---- kernel loading ------------------------------------------------------------------ */

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

/* CLIPT_KERNEL_PATH is searched first; a file missing everywhere is
 * KERNEL_NOT_FOUND with the directories tried. */
static void test_loader_not_found(void **state)
{
    char dir[512], searched[8192], *text = NULL;
    (void)state;
    make_kernel_dir(dir, sizeof dir, NULL, NULL);
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_loader_read("clipt_no_such_kernel.cl", &text, searched, sizeof searched),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    if (!strstr(searched, dir) || !strstr(searched, "clipt_no_such_kernel.cl"))
        fail_msg("the searched paths do not name %s: %s", dir, searched);
    /* the build tree is searched next: an empty directory breaks nothing */
    assert_status(clipt_loader_read("transpose010.cl", &text, searched, sizeof searched),
                  CLIPT_SUCCESS);
    assert_non_null(strstr(text, "__kernel"));
    free(text);
    unsetenv("CLIPT_KERNEL_PATH");
    remove_kernel_dir(dir, NULL);
}

/* Through a context: the failure's detail names the file and directory. */
static void test_loader_detail(void **state)
{
    world *w = *state;
    char dir[512], detail[8192];
    cl_kernel k = NULL;
    clipt_context c;
    clipt_plan p;
    make_kernel_dir(dir, sizeof dir, "clipt_broken.cl", "__kernel void k(void) { oops }\n");
    assert_int_equal(setenv("CLIPT_KERNEL_PATH", dir, 1), 0);
    assert_status(clipt_context_create(w->env.cl.context, w->env.cl.device, &c), CLIPT_SUCCESS);
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
    world *w = *state;
    cl_kernel k;
    clipt_context c;
    char buf[4];
    assert_status(clipt_context_create(w->env.cl.context, w->env.cl.device, &c), CLIPT_SUCCESS);
    /* nothing failed yet: the detail is empty, which fits any buffer */
    assert_status(clipt_context_error_detail(c, buf, 1), CLIPT_SUCCESS);
    assert_string_equal(buf, "");
    assert_status(clipt_loader_kernel(c, "clipt_no_such_kernel.cl", "", "k", &k),
                  CLIPT_ERROR_KERNEL_NOT_FOUND);
    check_text_rules(detail_text, c, "clipt_context_error_detail");
    check_text_rules(context_text, c, "clipt_context_describe");
    check_text_rules(plan_text, w->plan, "clipt_plan_describe");
    clipt_context_release(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enqueue_errors),
        cmocka_unit_test(test_enqueue_boundaries),
        cmocka_unit_test(test_transpose_errors),
        cmocka_unit_test(test_plan_shape_errors),
        cmocka_unit_test(test_plan_option_errors),
        cmocka_unit_test(test_incompatible_options),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_context_device_mismatch),
        cmocka_unit_test(test_profile_errors),
        cmocka_unit_test(test_loader_not_found),
        cmocka_unit_test(test_loader_detail),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_text_buffers),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, world_open, world_close);
}
