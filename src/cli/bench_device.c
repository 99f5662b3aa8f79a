/* clipt bench on the device: its limits, the buffers of a shape and the
 * host pattern they start from, and what a plan chose. */
#include "bench.h"
#include "hostmat.h"
#include "plan_text.h"

#include <stdlib.h>
#include <string.h>

#define MEMORY_SHARE 0.8 /* of CL_DEVICE_GLOBAL_MEM_SIZE per shape */

int bench_query_limits(bench *b, bench_error *e)
{
    const cl_device_id d = b->s.cl.device;
    device_limits *l = &b->lim;
    return bench_check(e, "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                       clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof l->max_alloc,
                                       &l->max_alloc, NULL)) &&
           bench_check(e, "CL_DEVICE_GLOBAL_MEM_SIZE",
                       clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof l->global_mem,
                                       &l->global_mem, NULL)) &&
           bench_check(e, "CL_DEVICE_LOCAL_MEM_SIZE",
                       clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof l->local_mem,
                                       &l->local_mem, NULL));
}

int bench_fits_device(const bench *b, const shape *sh, size_t buffer_bytes,
                      size_t scratch_bytes)
{
    const double need = 2.0 * (double)buffer_bytes + (double)scratch_bytes;
    const double room = MEMORY_SHARE * (double)b->lim.global_mem;
    char name[256];
    bench_shape_name(sh, name, sizeof name);
    if (buffer_bytes > b->lim.max_alloc) {
        fprintf(stderr, "clipt bench: skipping %s: its buffer (%.1f MB) exceeds "
                "CL_DEVICE_MAX_MEM_ALLOC_SIZE (%.1f MB)\n", name,
                (double)buffer_bytes / 1e6, (double)b->lim.max_alloc / 1e6);
        return 0;
    }
    if (need > room) {
        fprintf(stderr, "clipt bench: skipping %s: buffer, pristine copy and "
                "scratch need %.1f MB, more than 80%% of the device's %.1f MB\n",
                name, need / 1e6, (double)b->lim.global_mem / 1e6);
        return 0;
    }
    return 1;
}

/* Extends the host pattern to `count` elements (it only ever grows: the
 * pattern of element i does not depend on the shape). */
static int ensure_pattern(bench *b, size_t count, bench_error *e)
{
    const size_t elem = b->a->elem;
    unsigned char *p;
    if (count <= b->pattern_count)
        return 1;
    if (!(p = realloc(b->pattern, count * elem)))
        return bench_check(e, "host memory for the original matrix",
                           CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    hostmat_fill_range(p + b->pattern_count * elem, b->pattern_count,
                       count - b->pattern_count, elem);
    b->pattern = p;
    b->pattern_count = count;
    return 1;
}

int bench_ensure_readback(bench *b, size_t bytes, bench_error *e)
{
    unsigned char *p;
    if (bytes <= b->readback_bytes)
        return 1;
    free(b->readback); /* its contents are not needed: no realloc copy */
    b->readback = NULL;
    b->readback_bytes = 0;
    if (!(p = malloc(bytes)))
        return bench_check(e, "host memory for the result", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    b->readback = p;
    b->readback_bytes = bytes;
    return 1;
}

static int create_buffer(const bench *b, size_t bytes, cl_mem *out, bench_error *e)
{
    cl_int err;
    *out = clCreateBuffer(b->s.cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        *out = NULL;
    return bench_check(e, "clCreateBuffer", err);
}

void bench_release_buffers(shape_bufs *bf)
{
    if (bf->work)
        clReleaseMemObject(bf->work);
    if (bf->pristine)
        clReleaseMemObject(bf->pristine);
    bf->work = bf->pristine = NULL;
}

/* Zeroes the padding room after the matrix.  Written from a zeroed host
 * block rather than with clEnqueueFillBuffer: on the H100's NVIDIA OpenCL
 * a 1-byte-pattern fill at a byte offset past 2^31 broke the queue
 * (CL_INVALID_COMMAND_QUEUE at the next clFinish, 31 x 9394015 fp64 and
 * 12590 x 12593 of 16-byte elements), and the room is at most a few
 * percent of the matrix. */
static int zero_room(bench *b, const shape_bufs *bf, bench_error *e)
{
    const size_t room = bf->buffer_bytes - bf->bytes;
    unsigned char *zeros;
    cl_int err;
    if (room == 0)
        return 1;
    if (!(zeros = calloc(1, room)))
        return bench_check(e, "zeroing the padding room", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    err = clEnqueueWriteBuffer(b->s.cl.queue, bf->pristine, CL_TRUE, bf->bytes, room, zeros,
                               0, NULL, NULL);
    free(zeros);
    return bench_check(e, "zeroing the padding room", err);
}

int bench_prepare_buffers(bench *b, const shape *sh, shape_bufs *bf, bench_error *e)
{
    const cl_command_queue q = b->s.cl.queue;
    if (!create_buffer(b, bf->buffer_bytes, &bf->work, e) ||
        !create_buffer(b, bf->buffer_bytes, &bf->pristine, e) ||
        !ensure_pattern(b, sh->count, e) ||
        !bench_check(e, "uploading the matrix",
                     clEnqueueWriteBuffer(q, bf->pristine, CL_FALSE, 0, bf->bytes,
                                          b->pattern, 0, NULL, NULL)) ||
        !zero_room(b, bf, e))
        return 0;
    return bench_check(e, "clFinish after the upload", clFinish(q));
}

int bench_session_healthy(bench *b)
{
    const cl_uint probe = 0x5eed;
    cl_uint back = 0;
    cl_int err;
    cl_mem m = clCreateBuffer(b->s.cl.context, CL_MEM_READ_WRITE, sizeof probe, NULL, &err);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(b->s.cl.queue, m, CL_TRUE, 0, sizeof probe, &probe, 0, NULL,
                                   NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(b->s.cl.queue, m, CL_TRUE, 0, sizeof back, &back, 0, NULL,
                                  NULL);
    if (m)
        clReleaseMemObject(m);
    return err == CL_SUCCESS && back == probe;
}

void bench_plan_facts(clipt_plan p, const shape *sh, plan_facts *f)
{
    clipt_plan_info info;
    f->seq = CLIPT_SEQUENCE_AUTO;
    f->sequence = "?";
    f->m = f->n = 0;
    f->prows = sh->rows;
    f->pcols = sh->cols;
    f->passes = f->stages = 0;
    f->predicted_s = 0;
    if (clipt_plan_query(p, &info) != CLIPT_SUCCESS)
        return;
    f->passes = info.num_passes;
    f->stages = info.num_stages;
    f->predicted_s = info.predicted_seconds;
    /* a permutation that is not one 2-D transposition (info's rows and
     * cols are then its elements and 1) has no sequence of its own */
    if (info.num_passes > 1 || (info.num_passes == 1 && info.cols == 1)) {
        f->sequence = "nd";
        f->prows = f->pcols = 0;
        return;
    }
    f->seq = info.sequence;
    /* AUTO: a vector, where nothing moves */
    f->sequence = info.algorithm == CLIPT_ALGORITHM_C2R   ? "c2r"
                  : info.algorithm == CLIPT_ALGORITHM_R2C ? "r2c"
                  : info.sequence == CLIPT_SEQUENCE_AUTO ? "none"
                                                         : plan_text_sequence(info.sequence);
    f->m = info.tile_m;
    f->n = info.tile_n;
    f->prows = info.padded_rows;
    f->pcols = info.padded_cols;
}
