/* clipt_permute_bench: axis permutations in place (clipt_plan_create_permute)
 * next to the device's copy and an out-of-place permutation kernel
 * (tuning/permute_oop.cl), all on the same array in the same run (issue 15).
 *
 *   clipt_permute_bench [--elem E] [--repeat K] [--csv FILE] [--seed S]
 *       [--max-bytes B] [--list] [--batch-vs-plans]
 *       (DIMS:AXES | --random-tensor N) ...
 *
 * Options apply to the cases after them.  --random-tensor N adds cases
 * 0..N-1 of the random tensor set for the current --seed (default 1),
 * --elem and --max-bytes: util/tensor_set.c, the very cases of
 * `clipt bench --random tensor --count N --seed S --elem E [--max-bytes B]`.
 * --list prints the cases (DIMS:AXES, one a line) instead of running them.
 * --batch-vs-plans times the cases after it (B x M x N, axes 0,2,1) as one
 * batch plan against B 2-D plans enqueued back to back (permute_batch.c).
 *
 * Per case: the plan is made, run once on a pattern and checked bit for bit
 * (hostmat_compare_permuted); then K timed runs (device time,
 * clipt_plan_profile; each run permutes the previous result: the same
 * work); K copies of the array (clEnqueueCopyBuffer, util_copy_seconds);
 * the out-of-place kernel once checked, then K timed runs.  Medians.  One
 * CSV row per case (stdout, and FILE):
 *   case,elem,mbytes,passes,stages,clipt_ms,copy_ms,oop_ms,pct_of_copy,
 *   pct_of_oop,verified,oop_verified
 * pct_of_copy = copy_ms / clipt_ms (both read and write every byte once per
 * pass of a copy), pct_of_oop = oop_ms / clipt_ms, in percent.  A case that
 * fails prints its row with the status and the run goes on.  Exit status:
 * 0 every case ran and verified, 1 otherwise, 2 a bad argument, 3 no
 * device. */
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "permute_bench.h"
#include "cl_timing.h"
#include "hostmat.h"
#include "tensor_set.h"
#include "timing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char header[] = "case,elem,mbytes,passes,stages,clipt_ms,copy_ms,oop_ms,"
                             "pct_of_copy,pct_of_oop,verified,oop_verified\n";

void pbench_emit(pbench *b, const char *head, const char *row)
{
    if (!b->header_done) {
        fputs(head, stdout);
        if (b->csv && ftell(b->csv) == 0)
            fputs(head, b->csv);
        b->header_done = 1;
    }
    fputs(row, stdout);
    fflush(stdout);
    if (b->csv) {
        fputs(row, b->csv);
        fflush(b->csv);
    }
}

size_t pbench_count(const plan_text_permutation *q)
{
    size_t count = 1;
    for (unsigned i = 0; i < q->ndim; i++) {
        if (count > SIZE_MAX / 16 / q->dims[i])
            return 0;
        count *= q->dims[i];
    }
    return count;
}

cl_int pbench_upload(pbench *b, cl_mem buf, const unsigned char *host, size_t bytes)
{
    return clEnqueueWriteBuffer(b->cl.queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
}

int pbench_check(pbench *b, cl_mem buf, const plan_text_permutation *q,
                 const unsigned char *pattern, unsigned char *got, size_t count)
{
    if (clEnqueueReadBuffer(b->cl.queue, buf, CL_TRUE, 0, count * b->elem, got, 0, NULL,
                            NULL) != CL_SUCCESS)
        return -1;
    return hostmat_compare_permuted(got, pattern, q->ndim, q->dims, q->perm, b->elem,
                                    b->threads, NULL) == 0;
}

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

/* The out-of-place kernel for the case, built with its element type. */
static cl_kernel oop_kernel(pbench *b, const plan_text_permutation *q, size_t count)
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
 * result is checked.  Returns the median ms, or -1. */
static double time_oop(pbench *b, const plan_text_permutation *q, cl_mem src, cl_mem dst,
                       size_t count, const unsigned char *pattern, unsigned char *got,
                       int *verified)
{
    cl_ulong odims[8], istride[8], stride[8], c = 1;
    double t[PBENCH_MAX_REPEAT];
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
    if (!dbuf || !sbuf)
        goto done;
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
        if (r == 0)
            *verified = pbench_check(b, dst, q, pattern, got, count) == 1;
    }
    result = 1e3 * util_median(t, b->repeat);
done:
    if (dbuf)
        clReleaseMemObject(dbuf);
    if (sbuf)
        clReleaseMemObject(sbuf);
    clReleaseKernel(k);
    return result;
}

/* K timed runs of the plan on buf; the first result is checked.  Returns
 * the status; the median ms into *ms. */
static clipt_status time_plan(pbench *b, clipt_plan p, cl_mem buf,
                              const plan_text_permutation *q, const unsigned char *pattern,
                              unsigned char *got, size_t count, double *ms, int *verified)
{
    double t[PBENCH_MAX_REPEAT];
    clipt_status s;
    for (size_t r = 0; r < b->repeat; r++) {
        cl_event e = NULL;
        if ((s = clipt_enqueue(p, b->cl.queue, buf, 0, 0, NULL, &e)) != CLIPT_SUCCESS)
            return s;
        s = clWaitForEvents(1, &e);
        clReleaseEvent(e);
        if (s != CL_SUCCESS || (s = clipt_plan_profile(p, &t[r], NULL, 0, NULL)))
            return s;
        if (r == 0 && (*verified = pbench_check(b, buf, q, pattern, got, count)) < 0)
            return CL_OUT_OF_RESOURCES; /* the read back failed */
    }
    *ms = 1e3 * util_median(t, b->repeat);
    return CLIPT_SUCCESS;
}

/* One case; returns 1 when everything ran and verified. */
static int run_case(pbench *b, const plan_text_permutation *q, const char *name)
{
    clipt_plan p = NULL;
    clipt_plan_info info;
    cl_mem buf = NULL, other = NULL;
    unsigned char *host = NULL, *got = NULL;
    double t[PBENCH_MAX_REPEAT], clipt_ms = -1, copy_ms = -1, oop_ms = -1;
    const size_t count = pbench_count(q), bytes = count * b->elem;
    int verified = 0, oop_verified = 0;
    clipt_status s;
    cl_int err;
    char row[512];
    s = clipt_plan_create_permute(b->cx, q->ndim, q->dims, q->perm, b->elem, NULL, &p);
    if (s != CLIPT_SUCCESS)
        goto report;
    clipt_plan_query(p, &info);
    host = malloc(bytes);
    got = malloc(bytes);
    s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (!host || !got)
        goto report;
    hostmat_fill(host, count, b->elem);
    buf = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), NULL,
                         &err);
    if ((s = err) != CL_SUCCESS)
        goto report;
    other = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if ((s = err) != CL_SUCCESS || (s = pbench_upload(b, buf, host, bytes)) != CL_SUCCESS ||
        (s = time_plan(b, p, buf, q, host, got, count, &clipt_ms, &verified)) != CLIPT_SUCCESS)
        goto report;
    if ((s = util_copy_seconds(b->cl.queue, buf, other, bytes, b->repeat, t, &copy_ms)))
        goto report;
    copy_ms *= 1e3;
    /* the stick reads the original array: upload it again */
    if ((s = pbench_upload(b, buf, host, bytes)) != CL_SUCCESS)
        goto report;
    oop_ms = time_oop(b, q, buf, other, count, host, got, &oop_verified);
report:
    if (s != CLIPT_SUCCESS)
        fprintf(stderr, "%s: %s\n", name, clipt_status_string(s));
    snprintf(row, sizeof row, "\"%s\",%zu,%.3f,%u,%u,%.4f,%.4f,%.4f,%.1f,%.1f,%s,%s\n", name,
             b->elem, (double)bytes / 1e6, p ? info.num_passes : 0, p ? info.num_stages : 0,
             clipt_ms, copy_ms, oop_ms, clipt_ms > 0 ? 100 * copy_ms / clipt_ms : 0,
             clipt_ms > 0 && oop_ms > 0 ? 100 * oop_ms / clipt_ms : 0,
             s != CLIPT_SUCCESS ? clipt_status_string(s) : verified ? "yes" : "NO",
             oop_verified ? "yes" : "no");
    pbench_emit(b, header, row);
    if (buf)
        clReleaseMemObject(buf);
    if (other)
        clReleaseMemObject(other);
    free(host);
    free(got);
    clipt_plan_release(p);
    return s == CLIPT_SUCCESS && verified;
}

/* ---- arguments ---------------------------------------------------------- */

typedef struct run_state {
    pbench b;
    uint64_t seed;
    size_t max_bytes;
    int list, batch, opened, ok;
} run_state;

static int open_device(pbench *b)
{
    char why[512];
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    b->threads = cores < 1 ? 1u : cores > 16 ? 16u : (unsigned)cores;
    if (clipt_cl_env_open(&b->cl, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "no device: %s\n", why);
        return 0;
    }
    if (clipt_context_create(b->cl.context, b->cl.device, &b->cx) != CLIPT_SUCCESS) {
        fprintf(stderr, "no clipt context on %s\n", b->cl.device_name);
        clipt_cl_env_close(&b->cl);
        return 0;
    }
    fprintf(stderr, "device: %s (%s)\n", b->cl.device_name, b->cl.platform_name);
    return 1;
}

/* Lists or runs one case; 0 when there is no device (exit 3). */
static int one_case(run_state *st, const plan_text_permutation *q)
{
    char name[256];
    plan_text_format_permutation(q, name, sizeof name);
    if (st->list) {
        printf("%s\n", name);
        return 1;
    }
    if (!st->opened && !(st->opened = open_device(&st->b)))
        return 0;
    if (!pbench_count(q)) {
        fprintf(stderr, "%s: the array does not fit in memory\n", name);
        st->ok = 0;
    } else {
        st->ok &= st->batch ? pbench_batch_case(&st->b, q, name) : run_case(&st->b, q, name);
    }
    return 1;
}

/* --random-tensor N: cases 0..N-1 of the set (seed, elem, max_bytes). */
static int random_cases(run_state *st, size_t n)
{
    plan_text_permutation *set = calloc(n ? n : 1, sizeof *set);
    int going = set != NULL;
    if (set)
        tensor_set_make(st->seed, n, st->b.elem, st->max_bytes, set);
    for (size_t k = 0; going && k < n; k++)
        going = one_case(st, &set[k]);
    free(set);
    return going;
}

/* A whole number for option `opt`; 0 when the text is none. */
static int number(const char *opt, const char *text, unsigned long long *v)
{
    char *end = NULL;
    *v = strtoull(text, &end, 10);
    if (text[0] >= '0' && text[0] <= '9' && end && *end == '\0')
        return 1;
    fprintf(stderr, "%s: expected a whole number, not '%s'\n", opt, text);
    return 0;
}

/* An option and its value (argv[*i + 1]); 0 on a bad one. */
static int option(run_state *st, int argc, char **argv, int *i, int *going)
{
    const char *opt = argv[*i];
    unsigned long long v = 0;
    if (!strcmp(opt, "--list") || !strcmp(opt, "--batch-vs-plans")) {
        *(opt[2] == 'l' ? &st->list : &st->batch) = 1;
        st->b.header_done = 0; /* a new kind of row */
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", opt);
        return 0;
    }
    const char *val = argv[++*i];
    if (!strcmp(opt, "--csv")) {
        if (st->b.csv)
            fclose(st->b.csv);
        st->b.header_done = 0;
        return (st->b.csv = fopen(val, "a")) != NULL;
    }
    if (!number(opt, val, &v))
        return 0;
    if (!strcmp(opt, "--elem") && (v == 1 || v == 2 || v == 4 || v == 8 || v == 16))
        st->b.elem = (size_t)v;
    else if (!strcmp(opt, "--repeat") && v >= 1)
        st->b.repeat = v > PBENCH_MAX_REPEAT ? PBENCH_MAX_REPEAT : (size_t)v;
    else if (!strcmp(opt, "--seed"))
        st->seed = v;
    else if (!strcmp(opt, "--max-bytes"))
        st->max_bytes = (size_t)v;
    else if (!strcmp(opt, "--random-tensor"))
        *going = random_cases(st, (size_t)v);
    else {
        fprintf(stderr, "%s %s: unknown option or bad value\n", opt, val);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    run_state st;
    int going = 1;
    memset(&st, 0, sizeof st);
    st.b.elem = 4;
    st.b.repeat = 5;
    st.seed = 1;
    st.ok = 1;
    for (int i = 1; going && i < argc; i++) {
        plan_text_permutation q;
        if (!strncmp(argv[i], "--", 2)) {
            if (!option(&st, argc, argv, &i, &going))
                return 2;
        } else if (plan_text_parse_permutation(argv[i], &q)) {
            going = one_case(&st, &q);
        } else {
            fprintf(stderr, "%s: not DIMS:AXES\n", argv[i]);
            return 2;
        }
    }
    if (st.b.csv)
        fclose(st.b.csv);
    if (st.opened) {
        clipt_context_release(st.b.cx);
        clipt_cl_env_close(&st.b.cl);
    }
    return !going ? 3 : st.ok ? 0 : 1;
}
