/* clipt_cpu_compare: is the CPU path worth using?  (issue 16, item 3)
 *
 *   clipt_cpu_compare [--repeat K] [--csv FILE] [--no-blas] [--tune LIST] [RxC ...]
 *
 * For each fp32 shape, in one run and interleaved repeat by repeat:
 *   clipt      the automatic plan, reused, on the selected OpenCL device
 *              (PoCL on a CPU), device time from event profiling
 *              (clipt_plan_profile), verified bit-exact once;
 *   OpenBLAS   cblas_simatcopy in place (row-major, transposed), host
 *              clock, verified once;
 *   memcpy     the same bytes copied once on the host (a copy bandwidth);
 *   blocked    a single-threaded out-of-place 32 x 32 blocked transpose
 *              (hostmat_transpose, the tests' reference).
 * GB/s = 2 * rows * cols * 4 / seconds (read + written), medians of K.
 * --tune NAME=VALUE,... overrides tuning values of clipt's plans (names as
 * in `clipt info`).  Without shapes it runs the general shapes and two skinny ones.
 * Prints a table, the medians of clipt/OpenBLAS and clipt/memcpy over the
 * general (both sides >= 1000) and skinny shapes, and optionally a CSV. */
#include "cl_select.h"
#include "hostmat.h"
#include "timing.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REPEAT 32
#define MAX_SHAPES 64

typedef struct result {
    size_t rows, cols;
    double clipt, blas, copy, blocked; /* GB/s, medians; blas 0: not run */
    double scratch_pct;
    int ok;
    const char *failed; /* what failed, when !ok */
} result;

static double gbs(size_t bytes, double seconds)
{
    return seconds > 0 ? 2.0 * (double)bytes / seconds * 1e-9 : 0;
}

/* OpenBLAS 0.3.21 exits the process ("Memory alloc failed") on some
 * skinny shapes (1000000 x 8): try each shape once in a child first. */
static int blas_survives(size_t rows, size_t cols)
{
    int status = 0;
    pid_t pid;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        float *m = calloc(rows * cols, sizeof *m);
        if (m)
            cblas_simatcopy(CblasRowMajor, CblasTrans, (blasint)rows, (blasint)cols, 1.0f, m,
                            (blasint)cols, (blasint)rows);
        _exit(m ? 0 : 3);
    }
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

/* One clipt run: restore the input, transpose, return the device time. */
static int clipt_once(clipt_cl_env *env, clipt_plan plan, cl_mem pristine, cl_mem buf,
                      size_t room, double *seconds)
{
    cl_event e = NULL;
    if (clEnqueueCopyBuffer(env->queue, pristine, buf, 0, 0, room, 0, NULL, NULL) != CL_SUCCESS ||
        clipt_enqueue(plan, env->queue, buf, 0, 0, NULL, &e) != CLIPT_SUCCESS)
        return 0;
    clWaitForEvents(1, &e);
    clReleaseEvent(e);
    return clipt_plan_profile(plan, seconds, NULL, 0, NULL) == CLIPT_SUCCESS;
}

static int verify_device(clipt_cl_env *env, cl_mem buf, const float *orig, float *work,
                         size_t rows, size_t cols)
{
    if (clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, rows * cols * 4, work, 0, NULL,
                            NULL) != CL_SUCCESS)
        return 0;
    return hostmat_compare_transposed((const unsigned char *)work,
                                      (const unsigned char *)orig, rows, cols, 4, 1,
                                      NULL) == 0;
}

static clipt_plan_options plan_options;

/* Applies "name=value,..." to plan_options; 0 on a bad item. */
static int parse_tune(char *list)
{
    for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        if (!eq)
            return 0;
        *eq = '\0';
        if (clipt_plan_options_set_tuning(&plan_options, item,
                                          (unsigned)strtoul(eq + 1, NULL, 10)) != CLIPT_SUCCESS)
            return 0;
    }
    return 1;
}

static int compare(clipt_cl_env *env, clipt_context cx, size_t rows, size_t cols, int repeat,
                   int blas, result *out)
{
    const size_t count = rows * cols, bytes = count * 4;
    double tc[MAX_REPEAT], tb[MAX_REPEAT], tm[MAX_REPEAT], tk[MAX_REPEAT];
    clipt_plan plan = NULL;
    cl_mem buf = NULL, pristine = NULL;
    float *orig = NULL, *work = NULL, *other = NULL;
    size_t room;
    cl_int err = CL_SUCCESS;
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    out->failed = "plan";
    if (clipt_plan_create(cx, rows, cols, 4, &plan_options, &plan) != CLIPT_SUCCESS)
        return 0;
    out->failed = "allocation";
    blas = blas && blas_survives(rows, cols);
    room = clipt_plan_buffer_size(plan);
    out->scratch_pct = 100.0 * (double)clipt_plan_scratch_size(plan) / (double)bytes;
    orig = calloc(room / 4 + 1, 4);
    work = malloc(bytes);
    other = malloc(bytes);
    if (orig && work && other) {
        /* ordinary floats: OpenBLAS multiplies by alpha = 1, which keeps
         * them bit for bit (a byte pattern would hold NaNs and denormals) */
        for (size_t k = 0; k < count; k++)
            orig[k] = (float)(k % 16777213u) + 0.5f;
        buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, room, NULL, &err);
        if (err == CL_SUCCESS)
            pristine = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                      room, orig, &err);
    }
    out->ok = orig && work && other && err == CL_SUCCESS;
    for (int r = 0; out->ok && r < repeat; r++) {
        double t0;
        out->failed = "clipt run";
        out->ok = clipt_once(env, plan, pristine, buf, room, &tc[r]);
        if (out->ok && r == 0)
            out->ok = verify_device(env, buf, orig, work, rows, cols);
        if (!out->ok)
            break;
        out->failed = "OpenBLAS result";
        if (blas) {
            memcpy(work, orig, bytes);
            t0 = util_now_seconds();
            cblas_simatcopy(CblasRowMajor, CblasTrans, (blasint)rows, (blasint)cols, 1.0f,
                            work, (blasint)cols, (blasint)rows);
            tb[r] = util_now_seconds() - t0;
            if (out->ok && r == 0)
                out->ok = hostmat_compare_transposed((const unsigned char *)work,
                                                     (const unsigned char *)orig, rows,
                                                     cols, 4, 1, NULL) == 0;
        }
        t0 = util_now_seconds();
        memcpy(other, orig, bytes);
        tm[r] = util_now_seconds() - t0;
        t0 = util_now_seconds();
        hostmat_transpose((const unsigned char *)orig, (unsigned char *)work, rows, cols, 4);
        tk[r] = util_now_seconds() - t0;
    }
    if (out->ok) {
        out->clipt = gbs(bytes, util_median(tc, (size_t)repeat));
        out->blas = blas ? gbs(bytes, util_median(tb, (size_t)repeat)) : 0;
        out->copy = gbs(bytes, util_median(tm, (size_t)repeat));
        out->blocked = gbs(bytes, util_median(tk, (size_t)repeat));
    }
    if (buf)
        clReleaseMemObject(buf);
    if (pristine)
        clReleaseMemObject(pristine);
    free(orig);
    free(work);
    free(other);
    clipt_plan_release(plan);
    return out->ok;
}

static void print_row(const result *r, FILE *csv)
{
    char blas[32] = "-", ratio[32] = "-";
    if (r->blas > 0) {
        snprintf(blas, sizeof blas, "%.2f", r->blas);
        snprintf(ratio, sizeof ratio, "%.2f", r->clipt / r->blas);
    }
    printf("| %zu x %zu | %.2f | %s | %.1f | %.2f | %s | %.1f %% | %.2f %% |\n", r->rows,
           r->cols, r->clipt, blas, r->copy, r->blocked, ratio, 100.0 * r->clipt / r->copy,
           r->scratch_pct);
    if (csv)
        fprintf(csv, "%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f\n", r->rows, r->cols, r->clipt, r->blas,
                r->copy, r->blocked, r->scratch_pct);
}

/* Medians of clipt/OpenBLAS and clipt/memcpy over one class of shapes. */
static void summarise(const result *res, size_t n, int skinny, const char *name)
{
    double vs_blas[MAX_SHAPES], vs_copy[MAX_SHAPES];
    size_t nb = 0, nc = 0;
    for (size_t i = 0; i < n; i++) {
        const int is_skinny = res[i].rows < 1000 || res[i].cols < 1000;
        if (!res[i].ok || is_skinny != skinny)
            continue;
        vs_copy[nc++] = res[i].clipt / res[i].copy;
        if (res[i].blas > 0)
            vs_blas[nb++] = res[i].clipt / res[i].blas;
    }
    if (nc)
        printf("%s shapes (%zu): median clipt/memcpy %.1f %%", name, nc,
               100.0 * util_median(vs_copy, nc));
    if (nb)
        printf(", median clipt/OpenBLAS %.2f (%zu shapes)", util_median(vs_blas, nb), nb);
    if (nc)
        printf("\n");
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {"7200x1800", "4000x3200", "6203x6607",
                                           "5000x5000", "18358x9076", "1000000x8",
                                           "8x1000000"};
    const char *shapes[MAX_SHAPES];
    result res[MAX_SHAPES];
    size_t n = 0;
    int repeat = 5, blas = 1, ok = 1;
    const char *csv_path = NULL;
    FILE *csv = NULL;
    clipt_cl_env env;
    clipt_context cx = NULL;
    char why[512];
    memset(res, 0, sizeof res);
    clipt_plan_options_init(&plan_options);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--tune") && i + 1 < argc && parse_tune(argv[i + 1]))
            i++;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv_path = argv[++i];
        else if (!strcmp(argv[i], "--no-blas"))
            blas = 0;
        else if (strchr(argv[i], 'x') && n < MAX_SHAPES)
            shapes[n++] = argv[i];
        else {
            fprintf(stderr, "usage: clipt_cpu_compare [--repeat K] [--csv FILE] [--no-blas] "
                            "[--tune NAME=VALUE,...] [RxC ...]\n");
            return 2;
        }
    }
    if (n == 0)
        for (; n < sizeof defaults / sizeof defaults[0]; n++)
            shapes[n] = defaults[n];
    repeat = repeat < 1 ? 1 : repeat > MAX_REPEAT ? MAX_REPEAT : repeat;
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_cpu_compare: %s\n", why);
        return 2;
    }
    if (clipt_context_create(env.context, env.device, &cx) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_cpu_compare: context failed\n");
        clipt_cl_env_close(&env);
        return 2;
    }
    if (csv_path && !(csv = fopen(csv_path, "w")))
        fprintf(stderr, "clipt_cpu_compare: cannot write %s\n", csv_path);
    if (csv)
        fprintf(csv, "rows,cols,clipt_gbs,openblas_gbs,memcpy_gbs,blocked_gbs,scratch_pct\n");
    printf("device: %s (%s); fp32, medians of %d, GB/s = 2*rows*cols*4/s\n\n",
           env.device_name, env.platform_name, repeat);
    printf("| shape | clipt GB/s | OpenBLAS GB/s | memcpy GB/s | blocked GB/s | "
           "clipt / OpenBLAS | clipt / memcpy | scratch |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        size_t r = 0, c = 0;
        if (sscanf(shapes[i], "%zux%zu", &r, &c) != 2 || !r || !c) {
            fprintf(stderr, "clipt_cpu_compare: bad shape %s\n", shapes[i]);
            ok = 0;
            continue;
        }
        if (!compare(&env, cx, r, c, repeat, blas, &res[i])) {
            printf("| %zu x %zu | failed: %s |\n", r, c, res[i].failed);
            ok = 0;
            continue;
        }
        print_row(&res[i], csv);
        fflush(stdout);
    }
    printf("\n");
    summarise(res, n, 0, "general");
    summarise(res, n, 1, "skinny");
    if (csv)
        fclose(csv);
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    return ok ? 0 : 1;
}
