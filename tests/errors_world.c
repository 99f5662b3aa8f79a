/* test_errors' world: the main plan and device, a second context, a
 * sub-device pair where the device partitions, a foreign device; and the
 * helpers every row uses. */
#define _POSIX_C_SOURCE 200809L
#include "errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* the world of the running test program, set by world_open */
world *W;

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

int world_open(void **state)
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

int world_close(void **state)
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

void expect_status(const bad_input *row, clipt_status got)
{
    if (got != row->want)
        fail_msg("%s (%s: %s): returned %s, expected %s", row->test, row->call, row->what,
                 clipt_status_string(got), clipt_status_string(row->want));
}

void skip_without_foreign_device(void)
{
    if (!W->foreign) {
        print_message("skipped: no platform has a device besides %s (on PoCL, "
                      "test_errors_two_devices runs with POCL_DEVICES=\"pthread pthread\", "
                      "which makes two)\n", W->main.env.cl.device_name);
        skip();
    }
}

void skip_without_sub_device(void)
{
    if (!W->sub) {
        print_message("skipped: %s cannot be partitioned into sub-devices, so no "
                      "context holds a second device\n", W->main.env.cl.device_name);
        skip();
    }
}

/* A fresh context on the main device whose profile the case then lowers. */
clipt_context own_context(void)
{
    clipt_context c = NULL;
    assert_status(clipt_context_create(W->main.env.cl.context, W->main.env.cl.device, &c),
                  CLIPT_SUCCESS);
    return c;
}

/* ---- kernel files on CLIPT_KERNEL_PATH ---- */

/* A fresh directory under the temporary directory; `file` (if not NULL)
 * written into it with `text`. */
void make_kernel_dir(char *dir, size_t len, const char *file, const char *text)
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

void remove_kernel_dir(const char *dir, const char *file)
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
size_t fail_malloc_size;
void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    return size && size == fail_malloc_size ? NULL : __real_malloc(size);
}
