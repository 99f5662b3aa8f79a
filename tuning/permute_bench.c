/* clipt_permute_bench: axis permutations in place (clipt_plan_create_permute)
 * next to the device's copy and an out-of-place permutation kernel
 * (tuning/permute_oop.cl), all on the same array in the same run (issue 15).
 *
 *   clipt_permute_bench [--elem E] [--repeat K] [--csv FILE] DIMS:AXES ...
 *
 * Per case: the plan is made, run once on a pattern and checked bit for bit
 * against hostmat_permute; then K timed runs (device time,
 * clipt_plan_profile; each run permutes the previous result: the same
 * work); K copies of the array (clEnqueueCopyBuffer, util_copy_seconds);
 * the out-of-place kernel once checked, then K timed runs.  Medians.  One
 * CSV row per case (stdout, and FILE):
 *   case,elem,mbytes,passes,stages,clipt_ms,copy_ms,oop_ms,pct_of_copy,
 *   pct_of_oop,verified,oop_verified
 * pct_of_copy = copy_ms / clipt_ms (both read and write every byte once per
 * pass of a copy), pct_of_oop = oop_ms / clipt_ms, in percent.  A case that
 * fails prints its row with the status and the run goes on. */
#include "cl_select.h"
#include "cl_timing.h"
#include "hostmat.h"
#include "plan_text.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 100

typedef struct bench {
    clipt_cl_env cl;
    clipt_context cx;
    cl_program oop;
    size_t elem, repeat;
    FILE *csv;
} bench;

static const char *elem_type(size_t elem)
{
    switch (elem) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    default: return "uint4";
    }
}

static double median_of(double *v, size_t n)
{
    return util_median(v, n);
}

/* The out-of-place kernel for the case, built with its element type. */
static cl_kernel oop_kernel(bench *b, const plan_text_permutation *q, size_t count)
{
    static char source[8192];
    const char *text = source;
    char options[256];
    cl_int err;
    FILE *f = fopen(PERMUTE_OOP_CL, "r");
    size_t n = f ? fread(source, 1, sizeof source - 1, f) : 0;
    if (f)
        fclose(f);
    source[n] = '\0';
    snprintf(options, sizeof options, "-DELEM_TYPE=%s -DNDIM=%u -DINDEX_TYPE=%s",
             elem_type(b->elem), q->ndim, count < ((size_t)1 << 32) ? "uint" : "ulong");
    cl_program p = clCreateProgramWithSource(b->cl.context, 1, &text, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    if (clBuildProgram(p, 1, &b->cl.device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    cl_kernel k = clCreateKernel(p, "permute_oop", &err);
    clReleaseProgram(p); /* the kernel keeps it */
    return err == CL_SUCCESS ? k : NULL;
}

/* K timed runs of the out-of-place kernel from src to dst; the first
 * result is checked against want.  Returns the median ms, or -1. */
static double time_oop(bench *b, const plan_text_permutation *q, cl_mem src, cl_mem dst,
                       size_t count, const unsigned char *want, int *verified)
{
    cl_ulong odims[8], istride[8], stride[8], c = 1;
    double t[MAX_REPEAT];
    cl_int err;
    cl_mem dbuf = NULL, sbuf = NULL;
    cl_kernel k = oop_kernel(b, q, count);
    const cl_ulong n = count;
    const size_t local = 256, groups = (count + local - 1) / local;
    const size_t global = (groups < 65536 ? groups : 65536) * local;
    double result = -1;
    *verified = 0;
    if (!k)
        return -1;
    for (unsigned a = q->ndim; a-- > 0;) {
        stride[a] = c;
        c *= q->dims[a];
    }
    for (unsigned t2 = 0; t2 < q->ndim; t2++) {
        odims[t2] = q->dims[q->perm[t2]];
        istride[t2] = stride[q->perm[t2]];
    }
    dbuf = clCreateBuffer(b->cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          sizeof odims, odims, &err);
    sbuf = clCreateBuffer(b->cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          sizeof istride, istride, &err);
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    clSetKernelArg(k, 2, sizeof n, &n);
    clSetKernelArg(k, 3, sizeof dbuf, &dbuf);
    clSetKernelArg(k, 4, sizeof sbuf, &sbuf);
    for (size_t r = 0; r < b->repeat; r++) {
        cl_event e = NULL;
        if (clEnqueueNDRangeKernel(b->cl.queue, k, 1, NULL, &global, &local, 0, NULL, &e) !=
                CL_SUCCESS ||
            clWaitForEvents(1, &e) != CL_SUCCESS || util_event_seconds(e, &t[r]) != CL_SUCCESS)
            goto done;
        clReleaseEvent(e);
        if (r == 0) {
            unsigned char *got = malloc(count * b->elem);
            if (got && clEnqueueReadBuffer(b->cl.queue, dst, CL_TRUE, 0, count * b->elem, got,
                                           0, NULL, NULL) == CL_SUCCESS)
                *verified = hostmat_compare(got, want, count, b->elem, NULL) == 0;
            free(got);
        }
    }
    result = 1e3 * median_of(t, b->repeat);
done:
    clReleaseMemObject(dbuf);
    clReleaseMemObject(sbuf);
    clReleaseKernel(k);
    return result;
}

/* One case; returns 1 when everything ran and verified. */
static int run_case(bench *b, const char *name)
{
    plan_text_permutation q;
    clipt_plan p = NULL;
    clipt_plan_info info;
    cl_mem buf = NULL, other = NULL;
    unsigned char *host = NULL, *want = NULL, *got = NULL;
    double t[MAX_REPEAT], clipt_ms = -1, copy_ms = -1, oop_ms = -1;
    size_t count = 1, bytes;
    int verified = 0, oop_verified = 0;
    clipt_status s;
    cl_int err;
    if (!plan_text_parse_permutation(name, &q)) {
        fprintf(stderr, "%s: not DIMS:AXES\n", name);
        return 0;
    }
    for (unsigned i = 0; i < q.ndim; i++)
        count *= q.dims[i];
    bytes = count * b->elem;
    s = clipt_plan_create_permute(b->cx, q.ndim, q.dims, q.perm, b->elem, NULL, &p);
    if (s != CLIPT_SUCCESS)
        goto report;
    clipt_plan_query(p, &info);
    host = malloc(clipt_plan_buffer_size(p));
    want = malloc(bytes);
    got = malloc(bytes);
    s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (!host || !want || !got)
        goto report;
    hostmat_fill(host, count, b->elem);
    hostmat_permute(host, want, q.ndim, q.dims, q.perm, b->elem);
    buf = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), NULL,
                         &err);
    if ((s = err) != CL_SUCCESS)
        goto report;
    other = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if ((s = err) != CL_SUCCESS)
        goto report;
    if ((s = clEnqueueWriteBuffer(b->cl.queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL)))
        goto report;
    for (size_t r = 0; r < b->repeat; r++) {
        cl_event e = NULL;
        if ((s = clipt_enqueue(p, b->cl.queue, buf, 0, 0, NULL, &e)) != CLIPT_SUCCESS)
            goto report;
        s = clWaitForEvents(1, &e);
        clReleaseEvent(e);
        if (s != CL_SUCCESS || (s = clipt_plan_profile(p, &t[r], NULL, 0, NULL)))
            goto report;
        if (r == 0) {
            if ((s = clEnqueueReadBuffer(b->cl.queue, buf, CL_TRUE, 0, bytes, got, 0, NULL,
                                         NULL)))
                goto report;
            verified = hostmat_compare(got, want, count, b->elem, NULL) == 0;
        }
    }
    clipt_ms = 1e3 * median_of(t, b->repeat);
    if ((s = util_copy_seconds(b->cl.queue, buf, other, bytes, b->repeat, t, &copy_ms)))
        goto report;
    copy_ms *= 1e3;
    /* the stick reads the original array: upload it again */
    if ((s = clEnqueueWriteBuffer(b->cl.queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL)))
        goto report;
    oop_ms = time_oop(b, &q, buf, other, count, want, &oop_verified);
report:
    if (s != CLIPT_SUCCESS)
        fprintf(stderr, "%s: %s\n", name, clipt_status_string(s));
    {
        char row[512];
        snprintf(row, sizeof row, "\"%s\",%zu,%.3f,%u,%u,%.4f,%.4f,%.4f,%.1f,%.1f,%s,%s\n", name,
                 b->elem, (double)bytes / 1e6, p ? info.num_passes : 0,
                 p ? info.num_stages : 0, clipt_ms, copy_ms, oop_ms,
                 clipt_ms > 0 ? 100 * copy_ms / clipt_ms : 0,
                 clipt_ms > 0 && oop_ms > 0 ? 100 * oop_ms / clipt_ms : 0,
                 s != CLIPT_SUCCESS ? clipt_status_string(s) : verified ? "yes" : "NO",
                 oop_verified ? "yes" : "no");
        fputs(row, stdout);
        if (b->csv)
            fputs(row, b->csv);
    }
    if (buf)
        clReleaseMemObject(buf);
    if (other)
        clReleaseMemObject(other);
    free(host);
    free(want);
    free(got);
    clipt_plan_release(p);
    return s == CLIPT_SUCCESS && verified;
}

int main(int argc, char **argv)
{
    static const char header[] = "case,elem,mbytes,passes,stages,clipt_ms,copy_ms,oop_ms,"
                                 "pct_of_copy,pct_of_oop,verified,oop_verified\n";
    bench b = {0};
    char why[512];
    int ok = 1, first = 1;
    b.elem = 4;
    b.repeat = 5;
    if (clipt_cl_env_open(&b.cl, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "no device: %s\n", why);
        return 3;
    }
    if (clipt_context_create(b.cl.context, b.cl.device, &b.cx) != CLIPT_SUCCESS)
        return 3;
    fprintf(stderr, "device: %s (%s)\n", b.cl.device_name, b.cl.platform_name);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--elem") && i + 1 < argc)
            b.elem = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            b.repeat = strtoul(argv[++i], NULL, 10);
            b.repeat = b.repeat < 1 ? 1 : b.repeat > MAX_REPEAT ? MAX_REPEAT : b.repeat;
        } else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            b.csv = fopen(argv[++i], "a");
        } else {
            if (first) {
                fputs(header, stdout);
                if (b.csv && ftell(b.csv) == 0)
                    fputs(header, b.csv);
                first = 0;
            }
            ok &= run_case(&b, argv[i]);
            fflush(stdout);
            if (b.csv)
                fflush(b.csv);
        }
    }
    if (b.csv)
        fclose(b.csv);
    clipt_context_release(b.cx);
    clipt_cl_env_close(&b.cl);
    return ok ? 0 : 1;
}
