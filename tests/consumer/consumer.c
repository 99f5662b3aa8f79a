/* A program that uses an installed clipt, as an application would: it is
 * built against the installed header and library only (find_package or
 * pkg-config), transposes a small matrix with a plan and a host array with
 * clipt_transpose_host, and checks both bit for bit.
 * Exit status: 0 exact, 1 wrong result, 3 OpenCL or clipt failure. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clipt.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 45
#define COLS 76

/* The first device of the first platform that has one. */
static cl_int first_device(cl_device_id *dev)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(16, platforms, &count);
    for (cl_uint i = 0; err == CL_SUCCESS && i < count && i < 16; i++)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL) == CL_SUCCESS)
            return CL_SUCCESS;
    return err == CL_SUCCESS ? CL_DEVICE_NOT_FOUND : err;
}

static int report(clipt_context cx, const char *what, clipt_status s)
{
    char detail[4096] = "";
    if (cx)
        clipt_context_error_detail(cx, detail, sizeof detail);
    fprintf(stderr, "consumer: %s: %s\n%s%s", what, clipt_status_string(s), detail,
            detail[0] ? "\n" : "");
    return 3;
}

/* Whether got is the transpose of the ROWS x COLS matrix in. */
static int is_transpose(const uint32_t *got, const uint32_t *in)
{
    for (size_t i = 0; i < ROWS; i++)
        for (size_t j = 0; j < COLS; j++)
            if (got[j * ROWS + i] != in[i * COLS + j])
                return 0;
    return 1;
}

/* clipt_plan_create, clipt_enqueue on a device buffer, read back. */
static clipt_status with_plan(clipt_context cx, cl_context ctx, cl_command_queue q,
                              const uint32_t *in, uint32_t *out)
{
    clipt_plan plan = NULL;
    cl_mem buf = NULL;
    cl_event done = NULL;
    cl_int err = CL_SUCCESS;
    clipt_status s = clipt_plan_create(cx, ROWS, COLS, sizeof *in, NULL, &plan);
    if (!s)
        buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, clipt_plan_buffer_size(plan), NULL, &err);
    if (!s)
        s = err;
    if (!s)
        s = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, ROWS * COLS * sizeof *in, in, 0, NULL,
                                 NULL);
    if (!s)
        s = clipt_enqueue(plan, q, buf, 0, 0, NULL, &done);
    if (!s)
        s = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, ROWS * COLS * sizeof *out, out, 1, &done,
                                NULL);
    if (done)
        clReleaseEvent(done);
    if (buf)
        clReleaseMemObject(buf);
    clipt_plan_release(plan);
    return s;
}

int main(void)
{
    static uint32_t in[ROWS * COLS], out[ROWS * COLS], host[ROWS * COLS];
    cl_device_id dev = NULL;
    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    clipt_context cx = NULL;
    cl_int err = first_device(&dev);
    int status = 0;
    clipt_status s;
    for (uint32_t k = 0; k < ROWS * COLS; k++)
        in[k] = k * 2654435761u;
    memcpy(host, in, sizeof in);
    if (err == CL_SUCCESS)
        ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS) {
        status = report(NULL, "no OpenCL device", err);
        goto cleanup;
    }
    if ((s = clipt_context_create(ctx, dev, &cx)) != CLIPT_SUCCESS) {
        status = report(NULL, "clipt_context_create", s);
        goto cleanup;
    }
    if ((s = with_plan(cx, ctx, q, in, out)) != CLIPT_SUCCESS) {
        status = report(cx, "plan", s);
        goto cleanup;
    }
    if ((s = clipt_transpose_host(cx, q, host, ROWS, COLS, sizeof *host, 2, NULL))) {
        status = report(cx, "clipt_transpose_host", s);
        goto cleanup;
    }
    if (!is_transpose(out, in) || !is_transpose(host, in)) {
        fprintf(stderr, "consumer: wrong result (plan %s, host array %s)\n",
                is_transpose(out, in) ? "exact" : "WRONG",
                is_transpose(host, in) ? "exact" : "WRONG");
        status = 1;
        goto cleanup;
    }
    printf("consumer: clipt %s transposed %d x %d bit-exact (plan and host array)\n",
           clipt_version_string(), ROWS, COLS);
cleanup:
    clipt_context_release(cx);
    if (q)
        clReleaseCommandQueue(q);
    if (ctx)
        clReleaseContext(ctx);
    return status;
}
