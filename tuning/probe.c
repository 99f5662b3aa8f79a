/* clipt_probe: where does the time go?  Runs automatic (or forced) plans on
 * given shapes and prints, per shape, the whole transposition's GB/s, each
 * stage's GB/s and the device's buffer-copy GB/s measured in the same run.
 *
 *   clipt_probe [--elem E] [--repeat K] [--seq S] [--no-verify] RxC ...
 *
 * GB/s = 2 * rows * cols * elem / seconds, from OpenCL event profiling. */
#include "cl_select.h"
#include "cl_timing.h"
#include "hostmat.h"
#include "plan_text.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 64
#define MAX_STAGES 8

static double copy_gbs(clipt_cl_env *env, cl_mem from, cl_mem to, size_t bytes, int repeat)
{
    double t[MAX_REPEAT], median = 0;
    if (util_copy_seconds(env->queue, from, to, bytes, (size_t)repeat, t, &median) != CL_SUCCESS)
        return 0;
    return 2.0 * (double)bytes / median * 1e-9;
}

static int verify(clipt_cl_env *env, cl_mem buf, const unsigned char *orig,
                  size_t rows, size_t cols, size_t elem)
{
    size_t bytes = rows * cols * elem;
    unsigned char *got = malloc(bytes);
    int ok = got != NULL;
    if (ok)
        ok = clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, bytes, got, 0, NULL, NULL) == CL_SUCCESS;
    if (ok)
        ok = hostmat_compare_transposed(got, orig, rows, cols, elem, 1, NULL) == 0;
    free(got);
    return ok;
}

/* The plan's sequence, tiles and padded shape, then each stage's GB/s
 * from the medians of the runs' times. */
static void report(clipt_plan plan, size_t rows, size_t cols, size_t elem, int repeat,
                   double *total, double stage[][MAX_REPEAT], unsigned nst, double copy)
{
    const size_t bytes = rows * cols * elem;
    const double t = util_median(total, (size_t)repeat);
    const double gbs = 2.0 * (double)bytes / t * 1e-9;
    clipt_plan_info info;
    char choice[64], tiles[64], padded[64];
    clipt_plan_query(plan, &info);
    plan_text_choice(&info, choice, sizeof choice);
    plan_text_tiles(&info, tiles, sizeof tiles);
    plan_text_padded(&info, padded, sizeof padded);
    printf("%zux%zu e%zu  %.3f ms  %.1f GB/s  copy %.1f GB/s  ratio %.1f %%  sequence: %s | "
           "tiles: %s  | padded shape: %s\n", rows, cols, elem, t * 1e3, gbs, copy,
           100.0 * gbs / copy, choice, tiles, padded);
    for (unsigned i = 0; i < nst && i < MAX_STAGES; i++) {
        const double ts = util_median(stage[i], (size_t)repeat);
        clipt_stage_info si;
        char what[512] = "", line[600] = "";
        if (clipt_plan_query_stage(plan, i, &si) == CLIPT_SUCCESS) {
            plan_text_stage(&si, what, sizeof what);
            snprintf(line, sizeof line, "stage %u: %s", i + 1, what);
        }
        printf("    %-60s %8.3f ms %7.1f GB/s (%.0f %% of copy)\n", line, ts * 1e3,
               2.0 * (double)bytes / ts * 1e-9, 100.0 * 2.0 * (double)bytes / ts * 1e-9 / copy);
    }
    fflush(stdout);
}

static unsigned opt_min_super;
static size_t opt_tile_m, opt_tile_n;

static int probe(clipt_cl_env *env, clipt_context cx, size_t rows, size_t cols,
                 size_t elem, int repeat, int seq, int check)
{
    clipt_plan_options o;
    clipt_plan plan = NULL;
    cl_mem buf = NULL, pristine = NULL;
    unsigned char *host = NULL;
    double total[MAX_REPEAT], stage[MAX_STAGES][MAX_REPEAT];
    unsigned nst = 0;
    size_t bytes = rows * cols * elem, room;
    int ok = 1;
    cl_int err;
    clipt_status s;
    clipt_plan_options_init(&o);
    o.sequence = (clipt_sequence)seq;
    o.min_super = opt_min_super;
    o.tile_m = opt_tile_m;
    o.tile_n = opt_tile_n;
    if ((s = clipt_plan_create(cx, rows, cols, elem, &o, &plan)) != CLIPT_SUCCESS) {
        printf("%zux%zu: plan failed: %s\n", rows, cols, clipt_status_string(s));
        return 0;
    }
    room = clipt_plan_buffer_size(plan);
    host = calloc(room, 1); /* the pattern, then zeroed padding room */
    if (host)
        hostmat_fill(host, rows * cols, elem);
    buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, room, NULL, &err);
    if (err == CL_SUCCESS)
        pristine = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, room, host, &err);
    if (!host || err != CL_SUCCESS) {
        printf("%zux%zu: allocation failed (%d)\n", rows, cols, err);
        ok = 0;
        goto done;
    }
    for (int r = 0; r < repeat; r++) {
        cl_event e = NULL;
        clEnqueueCopyBuffer(env->queue, pristine, buf, 0, 0, room, 0, NULL, NULL);
        if ((s = clipt_enqueue(plan, env->queue, buf, 0, 0, NULL, &e)) != CLIPT_SUCCESS) {
            printf("%zux%zu: enqueue failed: %s\n", rows, cols, clipt_status_string(s));
            ok = 0;
            goto done;
        }
        clWaitForEvents(1, &e);
        clReleaseEvent(e);
        double st[MAX_STAGES];
        clipt_plan_profile(plan, &total[r], st, MAX_STAGES, &nst);
        for (unsigned i = 0; i < nst && i < MAX_STAGES; i++)
            stage[i][r] = st[i];
        if (r == 0 && check && !verify(env, buf, host, rows, cols, elem)) {
            printf("%zux%zu: WRONG RESULT\n", rows, cols);
            ok = 0;
        }
    }
    report(plan, rows, cols, elem, repeat, total, stage, nst,
           copy_gbs(env, pristine, buf, bytes, repeat));
done:
    if (buf)
        clReleaseMemObject(buf);
    if (pristine)
        clReleaseMemObject(pristine);
    free(host);
    clipt_plan_release(plan);
    return ok;
}

int main(int argc, char **argv)
{
    clipt_cl_env env;
    clipt_context cx = NULL;
    char why[512];
    size_t elem = 4;
    int repeat = 5, seq = 0, check = 1, ok = 1;
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_probe: %s\n", why);
        return 2;
    }
    if (clipt_context_create(env.context, env.device, &cx) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_probe: context failed\n");
        return 2;
    }
    printf("device: %s (%s)\n", env.device_name, env.platform_name);
    for (int i = 1; i < argc; i++) {
        size_t r, c;
        if (!strcmp(argv[i], "--elem") && i + 1 < argc)
            elem = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seq") && i + 1 < argc)
            seq = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--min") && i + 1 < argc)
            opt_min_super = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tile-m") && i + 1 < argc)
            opt_tile_m = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--tile-n") && i + 1 < argc)
            opt_tile_n = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--no-verify"))
            check = 0;
        else if (sscanf(argv[i], "%zux%zu", &r, &c) == 2)
            ok &= probe(&env, cx, r, c, elem, repeat < 1 ? 1 : repeat > MAX_REPEAT ? MAX_REPEAT : repeat, seq, check);
        else {
            fprintf(stderr, "clipt_probe: bad argument %s\n", argv[i]);
            return 2;
        }
    }
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    return ok ? 0 : 1;
}
