/* clipt_scale: very large matrices, end to end, verified bit for bit.
 *
 *   clipt_scale [--repeat K] CASE ...
 *   CASE = ROWSxCOLSxELEM[@OFFSET]  e.g. 50000x50001x4, 31x9394015x8@2147483656
 *        | largest:ELEM          the largest ~square matrix whose plan's
 *                                buffer fits CL_DEVICE_MAX_MEM_ALLOC_SIZE
 *
 * @OFFSET places the matrix OFFSET bytes into a larger buffer (offsets past
 * 2^31 and 2^32 bytes reach every kernel argument, fill and copy the
 * library makes at such offsets); the 1 MiB before the matrix holds a
 * canary that must come back unchanged after every run.
 *
 * For each case: creates the automatic plan (timed: it walks cycles on the
 * host), prints its description and the scratch memory it owns as a share
 * of the matrix, fills a host matrix with a function of each element's
 * 64-bit index (threads), and K times uploads it, transposes it on the
 * device, reads it back and checks every element against that function
 * (threads again: no second host copy of the matrix is needed).  The
 * function mixes all 64 bits of the index, so an element fetched from an
 * index wrapped at 2^32 reads differently.  Device time from OpenCL event
 * profiling (clipt_plan_profile); GB/s = 2 * rows * cols * elem / time.
 * One CSV line per case starts with "csv,".  Exit status: 0 all verified,
 * 1 a wrong result, 2 usage, 3 an OpenCL or clipt failure. */
#define _POSIX_C_SOURCE 200809L
#include "cl_select.h"
#include "timing.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64
#define MAX_REPEAT 16

/* ---- the pattern: element k holds the low bytes of value(k) ------------ */

/* An odd multiplier spreads the index over all 64 bits, and folding the
 * high half onto the low half makes the low bytes (all that a 1-, 2- or
 * 4-byte element keeps) depend on the index's high bits too.  Both steps
 * are invertible, so no two indices share the full word. */
static void value(uint64_t k, size_t elem, unsigned char *out)
{
    uint64_t v[2];
    v[0] = k * 0x9e3779b97f4a7c15ULL;
    v[0] ^= v[0] >> 32;
    if (elem > 8) /* the second word only for 16-byte elements */
        v[1] = ~v[0] * 0xbf58476d1ce4e5b9ULL;
    memcpy(out, v, elem); /* the low bytes on little-endian hosts */
}

/* A job over rows [first, end) of a matrix; used for the fill (rows of the
 * original) and for the check (rows of the transpose). */
typedef struct job {
    unsigned char *data;
    size_t rows, cols, elem;      /* of the original matrix */
    size_t first, end;
    size_t wrong, first_wrong;    /* check: count, index of the first */
} job;

static void *fill_rows(void *arg)
{
    job *j = arg;
    for (size_t i = j->first; i < j->end; i++)
        for (size_t c = 0; c < j->cols; c++) {
            const uint64_t k = (uint64_t)i * j->cols + c;
            value(k, j->elem, j->data + k * j->elem);
        }
    return NULL;
}

/* Row r of the transpose holds column r of the original. */
static void *check_rows(void *arg)
{
    job *j = arg;
    unsigned char want[16];
    j->wrong = 0;
    for (size_t r = j->first; r < j->end; r++)
        for (size_t i = 0; i < j->rows; i++) {
            const uint64_t at = (uint64_t)r * j->rows + i;
            value((uint64_t)i * j->cols + r, j->elem, want);
            if (memcmp(j->data + at * j->elem, want, j->elem) != 0 && j->wrong++ == 0)
                j->first_wrong = at;
        }
    return NULL;
}

/* Runs fn over `rows` rows split among the threads; returns wrong
 * elements (check) and the first one's index. */
static size_t in_threads(void *(*fn)(void *), unsigned char *data, size_t rows,
                         size_t cols, size_t elem, size_t split_rows, unsigned threads,
                         size_t *first_wrong)
{
    job jobs[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    size_t wrong = 0, per = (split_rows + threads - 1) / threads;
    *first_wrong = SIZE_MAX;
    for (unsigned t = 0; t < threads; t++) {
        job j = {data, rows, cols, elem, t * per, (t + 1) * per, 0, SIZE_MAX};
        if (j.first > split_rows)
            j.first = split_rows;
        if (j.end > split_rows)
            j.end = split_rows;
        jobs[t] = j;
        started[t] = pthread_create(&ids[t], NULL, fn, &jobs[t]) == 0;
        if (!started[t])
            fn(&jobs[t]); /* no thread: do it here */
    }
    for (unsigned t = 0; t < threads; t++) {
        if (started[t])
            pthread_join(ids[t], NULL);
        wrong += jobs[t].wrong;
        if (jobs[t].wrong && jobs[t].first_wrong < *first_wrong)
            *first_wrong = jobs[t].first_wrong;
    }
    return wrong;
}

/* ---- one case -------------------------------------------------------- */

typedef struct shape {
    size_t rows, cols, elem;
    size_t offset; /* bytes before the matrix in its buffer */
} shape;

#define CANARY_MAX ((size_t)1 << 20)
#define CANARY_BYTE 0xa5

/* "largest:E": the largest rows x (rows + 1) whose plan's buffer fits one
 * allocation, found by planning (planning allocates only the scratch). */
static clipt_status largest_shape(clipt_context cx, cl_ulong max_alloc, size_t elem,
                                  shape *out)
{
    size_t n = (size_t)sqrt((double)max_alloc / (double)elem);
    while (n > 1 && (cl_ulong)n * (n + 1) * elem > max_alloc)
        n--; /* the matrix itself fits; padding may still not */
    for (int tries = 0; tries < 64 && n > 1; tries++, n -= n / 200 + 1) {
        clipt_plan p = NULL;
        clipt_status s = clipt_plan_create(cx, n, n + 1, elem, NULL, &p);
        const size_t need = clipt_plan_buffer_size(p);
        clipt_plan_release(p);
        printf("largest:%zu: tried %zu x %zu: %s\n", elem, n, n + 1,
               s != CLIPT_SUCCESS ? clipt_status_string(s)
               : need > max_alloc  ? "buffer above the maximum allocation"
                                   : "fits");
        if (s == CLIPT_SUCCESS && need <= max_alloc) {
            out->rows = n, out->cols = n + 1, out->elem = elem;
            return CLIPT_SUCCESS;
        }
        if (s != CLIPT_SUCCESS && s != CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS)
            return s;
    }
    return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
}

static int parse_case(const char *text, shape *sh, int *largest)
{
    char tail;
    *largest = 0;
    if (sscanf(text, "largest:%zu%c", &sh->elem, &tail) == 1) {
        *largest = 1;
        return 1;
    }
    sh->offset = 0;
    if (sscanf(text, "%zux%zux%zu@%zu%c", &sh->rows, &sh->cols, &sh->elem, &sh->offset,
               &tail) == 4)
        return sh->rows && sh->cols;
    return sscanf(text, "%zux%zux%zu%c", &sh->rows, &sh->cols, &sh->elem, &tail) == 3 &&
           sh->rows && sh->cols;
}

static int fail(const char *what, clipt_status s)
{
    printf("FAILED: %s: %s\n", what, clipt_status_string(s));
    return 3;
}

/* The canary: up to CANARY_MAX bytes right before the matrix. */
static size_t canary_bytes(const shape *sh)
{
    return sh->offset < CANARY_MAX ? sh->offset : CANARY_MAX;
}

static cl_int write_canary(clipt_cl_env *env, cl_mem buf, const shape *sh,
                           unsigned char *scratch)
{
    const size_t n = canary_bytes(sh);
    memset(scratch, CANARY_BYTE, n);
    return n ? clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, sh->offset - n, n, scratch, 0,
                                    NULL, NULL)
             : CL_SUCCESS;
}

/* CL_SUCCESS and *intact = 1 when the canary came back unchanged. */
static cl_int check_canary(clipt_cl_env *env, cl_mem buf, const shape *sh,
                           unsigned char *scratch, int *intact)
{
    const size_t n = canary_bytes(sh);
    cl_int err = n ? clEnqueueReadBuffer(env->queue, buf, CL_TRUE, sh->offset - n, n,
                                         scratch, 0, NULL, NULL)
                   : CL_SUCCESS;
    *intact = 1;
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
        if (scratch[i] != CANARY_BYTE)
            *intact = 0;
    return err;
}

/* K uploads, runs and checks; returns the exit status. */
static int run_case(clipt_cl_env *env, clipt_context cx, const shape *sh, int repeat,
                    unsigned threads)
{
    static char text[16384];
    const size_t matrix_bytes = sh->rows * sh->cols * sh->elem;
    const double bytes = (double)matrix_bytes;
    double t0 = util_now_seconds(), plan_s, times[MAX_REPEAT];
    clipt_plan plan = NULL;
    unsigned char *host = NULL, *canary = NULL;
    cl_mem buf = NULL;
    int intact = 1;
    size_t buffer_bytes, scratch, wrong_runs = 0, first;
    clipt_status s;
    cl_int err;
    int status = 0;
    printf("== %zu x %zu, %zu-byte elements: %.2f GB, %.3f x 2^32 elements, at byte "
           "offset %zu (%.3f x 2^32)\n", sh->rows, sh->cols, sh->elem, bytes / 1e9,
           (double)sh->rows * (double)sh->cols / 4294967296.0, sh->offset,
           (double)sh->offset / 4294967296.0);
    if ((s = clipt_plan_create(cx, sh->rows, sh->cols, sh->elem, NULL, &plan)) != CLIPT_SUCCESS)
        return fail("clipt_plan_create", s);
    plan_s = util_now_seconds() - t0;
    buffer_bytes = clipt_plan_buffer_size(plan);
    scratch = clipt_plan_scratch_size(plan);
    text[0] = '\0';
    clipt_plan_describe(plan, text, sizeof text);
    printf("plan (created in %.2f s):\n%s", plan_s, text);
    printf("scratch: %zu bytes = %.3f %% of the matrix\n", scratch,
           100.0 * (double)scratch / bytes);
    host = malloc(buffer_bytes);
    canary = malloc(CANARY_MAX);
    if (!host || !canary) {
        printf("FAILED: no host memory for %zu bytes\n", buffer_bytes);
        status = 3;
        goto done;
    }
    buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sh->offset + buffer_bytes, NULL,
                         &err);
    if (err != CL_SUCCESS) {
        status = fail("clCreateBuffer of the matrix", err);
        goto done;
    }
    if ((err = write_canary(env, buf, sh, canary)) != CL_SUCCESS) {
        status = fail("writing the canary", err);
        goto done;
    }
    t0 = util_now_seconds();
    in_threads(fill_rows, host, sh->rows, sh->cols, sh->elem, sh->rows, threads, &first);
    printf("host fill: %.2f s (%u threads)\n", util_now_seconds() - t0, threads);
    for (int k = 0; k < repeat; k++) {
        cl_event done = NULL;
        double up, down, check;
        size_t wrong;
        t0 = util_now_seconds();
        s = clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, sh->offset, matrix_bytes, host, 0,
                                 NULL, NULL);
        up = util_now_seconds() - t0;
        if (s == CL_SUCCESS)
            s = clipt_enqueue(plan, env->queue, buf, sh->offset, 0, NULL, &done);
        if (s == CL_SUCCESS)
            s = clWaitForEvents(1, &done);
        if (done)
            clReleaseEvent(done);
        if (s == CL_SUCCESS)
            s = clipt_plan_profile(plan, &times[k], NULL, 0, NULL);
        t0 = util_now_seconds();
        if (s == CL_SUCCESS)
            s = clEnqueueReadBuffer(env->queue, buf, CL_TRUE, sh->offset, matrix_bytes, host,
                                    0, NULL, NULL);
        if (s == CL_SUCCESS)
            s = check_canary(env, buf, sh, canary, &intact);
        down = util_now_seconds() - t0;
        if (s != CL_SUCCESS) {
            status = fail("run", s);
            goto done;
        }
        t0 = util_now_seconds();
        wrong = in_threads(check_rows, host, sh->rows, sh->cols, sh->elem, sh->cols,
                           threads, &first);
        check = util_now_seconds() - t0;
        printf("run %d: device %.3f ms, %.2f GB/s; upload %.2f s, read back %.2f s, "
               "check %.2f s: ", k + 1, 1e3 * times[k], 2 * bytes / times[k] / 1e9, up,
               down, check);
        if (!intact) {
            printf("WRONG: the canary before the matrix was overwritten\n");
            wrong_runs++;
            break;
        }
        if (wrong) {
            printf("WRONG: %zu elements differ, first at row %zu, column %zu of the "
                   "transpose\n", wrong, first / sh->rows, first % sh->rows);
            wrong_runs++;
            break;
        }
        printf("bit-exact\n");
        if (k + 1 < repeat) /* the next run starts from the original again */
            in_threads(fill_rows, host, sh->rows, sh->cols, sh->elem, sh->rows, threads,
                       &first);
    }
    if (!wrong_runs) {
        const double median = util_median(times, (size_t)repeat);
        printf("csv,%zu,%zu,%zu,%.0f,%zu,%zu,%.4f,%.2f,%.3f,%.2f,yes\n", sh->rows, sh->cols,
               sh->elem, bytes, buffer_bytes, scratch, 100.0 * (double)scratch / bytes,
               plan_s, 1e3 * median, 2 * bytes / median / 1e9);
    } else {
        status = 1;
    }
done:
    if (buf)
        clReleaseMemObject(buf);
    free(host);
    free(canary);
    clipt_plan_release(plan);
    fflush(stdout);
    return status;
}

static unsigned host_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

int main(int argc, char **argv)
{
    clipt_cl_env env;
    clipt_context cx = NULL;
    cl_ulong max_alloc = 0, global = 0;
    char why[512];
    int repeat = 2, status = 0, first_case = 1;
    clipt_status s;
    if (argc > 2 && strcmp(argv[1], "--repeat") == 0) {
        repeat = atoi(argv[2]);
        first_case = 3;
    }
    if (first_case >= argc || repeat < 1 || repeat > MAX_REPEAT) {
        fprintf(stderr, "usage: clipt_scale [--repeat 1..%d] ROWSxCOLSxELEM[@OFFSET]|largest:ELEM ...\n",
                MAX_REPEAT);
        return 2;
    }
    if ((s = clipt_cl_env_open(&env, why, sizeof why)) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_scale: %s\n", why);
        return 3;
    }
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                    NULL);
    clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    printf("device: %s (%s); max allocation %llu bytes (%.2f GB); global memory %.2f GB; "
           "host threads %u\n", env.device_name, env.platform_name,
           (unsigned long long)max_alloc, (double)max_alloc / 1e9, (double)global / 1e9,
           host_threads());
    printf("csv,rows,cols,elem,matrix_bytes,buffer_bytes,scratch_bytes,scratch_pct,plan_s,"
           "median_ms,gbs,verified\n");
    if ((s = clipt_context_create(env.context, env.device, &cx)) != CLIPT_SUCCESS) {
        clipt_cl_env_close(&env);
        return fail("clipt_context_create", s);
    }
    for (int i = first_case; i < argc; i++) {
        shape sh;
        int largest, one;
        if (!parse_case(argv[i], &sh, &largest)) {
            fprintf(stderr, "clipt_scale: '%s' is not ROWSxCOLSxELEM[@OFFSET] or largest:ELEM\n",
                    argv[i]);
            status = 2;
            break;
        }
        if (largest && (s = largest_shape(cx, max_alloc, sh.elem, &sh)) != CLIPT_SUCCESS) {
            one = fail("no largest shape", s);
        } else {
            one = run_case(&env, cx, &sh, repeat, host_threads());
        }
        if (one > status)
            status = one;
    }
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    return status;
}
