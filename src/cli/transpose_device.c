/* clipt transpose on the device: a plan for the matrix, then upload,
 * in-place transposition and download, each a step of the progress (so
 * each waits for the one before: an in-order queue runs them one after
 * the other anyway). */
#define _POSIX_C_SOURCE 200809L /* PATH_MAX in npy_file.h */

#include "transpose.h"

#include <stdlib.h>

/* ---- shared with cmd_transpose.c (which uses this file, never the
 * other way round) ------------------------------------------------------ */

int transpose_file_error(job *j, const char *path, const char *why)
{
    cli_progress_break(&j->progress);
    fprintf(stderr, "clipt transpose: %s: %s\n", path, why);
    return CLI_EXIT_FILE;
}

int transpose_read_input(job *j)
{
    char err[NPY_ERROR_MAX];
    const char *why;
    if (!j->in_stdin)
        cli_progress_step(&j->progress, "reading %s (%.2f MB)", j->in_name,
                          (double)j->bytes / 1e6);
    /* one byte at least, so that an empty array still has a buffer */
    if (!(j->data = malloc(j->bytes ? j->bytes : 1))) {
        cli_progress_break(&j->progress);
        fprintf(stderr, "clipt transpose: out of host memory for %zu bytes\n", j->bytes);
        return CLI_EXIT_FAILURE;
    }
    if ((why = file_read_at(j->fd, j->data, j->bytes, j->offset, err, sizeof err)))
        return transpose_file_error(j, j->in_name, why);
    return CLI_EXIT_OK;
}

/* ---- the device ------------------------------------------------------ */

/* cli_report, on a line of its own after an open progress line. */
static int report(job *j, clipt_context cx, const char *what, clipt_status st)
{
    cli_progress_break(&j->progress);
    return cli_report("transpose", cx, what, st);
}

static int out_of_memory(job *j, size_t bytes)
{
    cli_progress_break(&j->progress);
    fprintf(stderr, "clipt transpose: out of host memory for %zu bytes\n", bytes);
    return CLI_EXIT_FAILURE;
}

/* A matrix larger than one device allocation cannot be moved at all. */
static int check_device_fits(const cli_session *s, job *j)
{
    cl_ulong max_alloc = 0;
    const cl_int err = clGetDeviceInfo(s->cl.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                       sizeof max_alloc, &max_alloc, NULL);
    if (err != CL_SUCCESS)
        return report(j, NULL, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", err);
    if (j->bytes <= max_alloc)
        return CLI_EXIT_OK;
    cli_progress_break(&j->progress);
    fprintf(stderr, "clipt transpose: %s: the array's %zu bytes exceed the device's largest "
            "allocation (%llu bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE); nothing was changed\n",
            j->in_name, j->bytes, (unsigned long long)max_alloc);
    return CLI_EXIT_FAILURE;
}

/* A plan that may pad, or one that does not when the padded buffer would
 * exceed the device's largest allocation while the matrix alone fits. */
static int make_plan(const cli_session *s, job *j, clipt_plan *plan)
{
    clipt_plan_options o;
    char what[128];
    clipt_status st =
        clipt_plan_create_permute(s->cx, j->ndim, j->dims, j->perm, j->elem, NULL, plan);
    if (st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS) {
        clipt_plan_options_init(&o);
        o.padding = CLIPT_PADDING_NONE;
        st = clipt_plan_create_permute(s->cx, j->ndim, j->dims, j->perm, j->elem, &o, plan);
    }
    if (st == CLIPT_SUCCESS)
        return CLI_EXIT_OK;
    if (j->axes)
        snprintf(what, sizeof what, "cannot plan the permutation of %zu elements of %zu "
                 "bytes", j->bytes / j->elem, j->elem);
    else
        snprintf(what, sizeof what, "cannot plan %zu x %zu with %zu-byte elements", j->rows,
                 j->cols, j->elem);
    return report(j, s->cx, what, st);
}

/* Upload, transpose in place, read back into j->result: three steps. */
static int run_on_device(const cli_session *s, clipt_plan plan, job *j)
{
    cl_command_queue q = s->cl.queue;
    cl_event done = NULL;
    cl_mem buf;
    cl_int err;
    clipt_status st;
    const char *what = "clCreateBuffer of the matrix";
    double seconds = 0;
    cli_progress_step(&j->progress, "uploading %.2f MB", (double)j->bytes / 1e6);
    buf = clCreateBuffer(s->cl.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(plan),
                         NULL, &err);
    if ((st = err) != CL_SUCCESS)
        goto fail;
    what = "uploading the matrix";
    if ((st = clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, j->bytes, j->data, 0, NULL,
                                   NULL)) != CL_SUCCESS)
        goto fail;
    if (j->axes)
        cli_progress_step(&j->progress, "permuting %u axes in place on the device", j->ndim);
    else
        cli_progress_step(&j->progress, "transposing %zu x %zu in place on the device",
                          j->rows, j->cols);
    what = "clipt_enqueue";
    if ((st = clipt_enqueue(plan, q, buf, 0, 0, NULL, &done)) != CLIPT_SUCCESS)
        goto fail;
    what = "waiting for the transposition"; /* a kernel failure shows up here */
    if ((st = clWaitForEvents(1, &done)) != CL_SUCCESS)
        goto fail;
    cli_progress_step(&j->progress, "downloading %.2f MB", (double)j->bytes / 1e6);
    what = "reading the result back";
    if ((st = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, j->bytes, j->result, 0, NULL,
                                  NULL)) != CL_SUCCESS)
        goto fail;
    /* the time is a report, not part of the job: a profiling failure is not fatal */
    if (clipt_plan_profile(plan, &seconds, NULL, 0, NULL) == CLIPT_SUCCESS)
        j->device_ms = 1e3 * seconds;
    clReleaseEvent(done);
    clReleaseMemObject(buf);
    return CLI_EXIT_OK;
fail:
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    return report(j, s->cx, what, st);
}

int transpose_on_device(job *j)
{
    cli_session s;
    clipt_plan plan = NULL;
    int status;
    cli_progress_end_step(&j->progress); /* the session's errors start a line */
    if ((status = cli_session_open(&s)) != CLI_EXIT_OK)
        return status;
    if (j->axes)
        cli_progress_step(&j->progress, "planning the permutation on %s", s.cl.device_name);
    else
        cli_progress_step(&j->progress, "planning %zu x %zu on %s", j->rows, j->cols,
                          s.cl.device_name);
    if ((status = check_device_fits(&s, j)) == CLI_EXIT_OK &&
        (status = make_plan(&s, j, &plan)) == CLI_EXIT_OK &&
        (status = transpose_read_input(j)) == CLI_EXIT_OK) {
        j->result = j->keep_input ? malloc(j->bytes) : j->data;
        if (j->result)
            status = run_on_device(&s, plan, j);
        else
            status = out_of_memory(j, j->bytes);
    }
    snprintf(j->device, sizeof j->device, "%s (%s)", s.cl.device_name,
             s.cl.platform_name);
    clipt_plan_release(plan);
    cli_session_close(&s);
    return status;
}
