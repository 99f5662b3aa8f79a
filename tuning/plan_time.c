/* clipt_plan_time: the host time of clipt_plan_create with the programs
 * already built (issue 13): per shape, one plan is created and released to
 * build the programs, then --repeat plans are created and released, each
 * timed alone on a monotonic clock (creation only, not the release).
 *
 *   clipt_plan_time [--cycle] [--elem E] [--repeat K] [--random COUNT [--seed S]] [RxC ...]
 *
 * --random: COUNT shapes with rows and cols uniform in [1000, 20000]
 * (splitmix64 from S, default 1).  Prints one CSV row per shape:
 * rows,cols,elem,median_ms,min_ms,max_ms,segments,flag_stages (the plan's
 * cycle segments, all stages, and its stages moved by the flag-based
 * kernel instead), then a summary line on stderr: the median and the
 * largest of the shapes' medians.  CLIPT_CYCLE_WALK=1 in the environment
 * makes the library walk every position instead (the old way), for
 * comparisons.
 *
 * --cycle: the whole single-use cycle instead (what `clipt bench --mode
 * single` times as one figure), split by phase on the host clock: create,
 * clipt_enqueue (the call), clFinish, clipt_plan_release, and the device
 * time of the same run (clipt_plan_profile); one buffer per shape,
 * contents left as they come (timing only).  CSV columns:
 * rows,cols,elem,create_ms,enqueue_ms,wait_ms,release_ms,total_ms,device_ms,
 * stages_ms (the stages' own times summed: device_ms - stages_ms is the
 * gaps between them and, on a first run, the tables' cutting),
 * segments,flag_stages (medians over --repeat runs of each phase), then
 * first_create_ms ... first_stages_ms: the same phases of the shape's
 * first cycle, before the timed ones (programs built, nothing of the
 * shape pooled yet: its plan lists the cycles and its run cuts the segment tables, which
 * the timed cycles' plans take from the pool). */
#include "cl_select.h"
#include "random.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 200
#define CLIPT_MAX_STAGES_REPORTED 64
#define MAX_SHAPES 4096

static double shape_median[MAX_SHAPES];
static size_t shapes;
static clipt_cl_env env;

/* Cycle segments of the plan, from its description ("N cycle segments"),
 * and its stages that move along flags (kernel shift100_slices). */
static unsigned long segments_of(clipt_plan p, unsigned *flag_stages)
{
    static char text[1 << 16];
    unsigned long total = 0;
    clipt_plan_describe(p, text, sizeof text);
    *flag_stages = 0;
    for (const char *at = text; (at = strstr(at, "kernel shift100_slices")) != NULL; at++)
        ++*flag_stages;
    for (const char *at = text; (at = strstr(at, " cycle segments")) != NULL; at++) {
        const char *n = at;
        while (n > text && n[-1] >= '0' && n[-1] <= '9')
            n--;
        total += strtoul(n, NULL, 10);
    }
    return total;
}

enum { CREATE, ENQUEUE, WAIT, RELEASE, TOTAL, DEVICE, STAGES, PHASES };

/* One single-use cycle (create, enqueue, wait, release) on `buf`, each phase
 * timed alone; 0 on any failure. */
static int cycle_once(clipt_context cx, size_t rows, size_t cols, size_t elem, cl_mem buf,
                      double phase[PHASES])
{
    clipt_plan p = NULL;
    double t0 = util_now_seconds(), t1, t2, t3;
    if (clipt_plan_create(cx, rows, cols, elem, NULL, &p) != CLIPT_SUCCESS)
        return 0;
    t1 = util_now_seconds();
    int ok = clipt_enqueue(p, env.queue, buf, 0, 0, NULL, NULL) == CLIPT_SUCCESS;
    t2 = util_now_seconds();
    ok = ok && clFinish(env.queue) == CL_SUCCESS;
    t3 = util_now_seconds();
    double stage[CLIPT_MAX_STAGES_REPORTED];
    unsigned n = 0;
    ok = ok && clipt_plan_profile(p, &phase[DEVICE], stage, CLIPT_MAX_STAGES_REPORTED, &n) ==
                   CLIPT_SUCCESS;
    phase[STAGES] = 0; /* the stages alone: DEVICE - STAGES is the gaps and the tables' cutting */
    for (unsigned i = 0; ok && i < n && i < CLIPT_MAX_STAGES_REPORTED; i++)
        phase[STAGES] += stage[i];
    clipt_plan_release(p);
    phase[RELEASE] = util_now_seconds() - t3;
    phase[CREATE] = t1 - t0;
    phase[ENQUEUE] = t2 - t1;
    phase[WAIT] = t3 - t2;
    phase[TOTAL] = phase[CREATE] + phase[ENQUEUE] + phase[WAIT] + phase[RELEASE];
    return ok;
}

static int time_cycle(clipt_context cx, size_t rows, size_t cols, size_t elem, int repeat)
{
    double t[PHASES][MAX_REPEAT], one[PHASES];
    clipt_plan p = NULL;
    unsigned long segments;
    unsigned flag_stages;
    cl_int err;
    if (clipt_plan_create(cx, rows, cols, elem, NULL, &p) != CLIPT_SUCCESS)
        return 0;
    segments = segments_of(p, &flag_stages);
    cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(p), NULL,
                                &err);
    clipt_plan_release(p);
    if (err != CL_SUCCESS)
        return 0;
    /* the first cycle: the programs are built (by the plan above), but
     * nothing of the shape is in the pool yet (that plan never ran) */
    double first[PHASES];
    int ok = cycle_once(cx, rows, cols, elem, buf, first);
    for (int i = 0; ok && i < repeat; i++) {
        ok = cycle_once(cx, rows, cols, elem, buf, one);
        for (int k = 0; k < PHASES; k++)
            t[k][i] = one[k];
    }
    clReleaseMemObject(buf);
    if (!ok) {
        fprintf(stderr, "%zux%zu: a single-use cycle failed\n", rows, cols);
        return 0;
    }
    printf("%zu,%zu,%zu", rows, cols, elem);
    for (int k = 0; k < PHASES; k++)
        printf(",%.4f", util_median(t[k], (size_t)repeat) * 1e3);
    printf(",%lu,%u", segments, flag_stages);
    for (int k = 0; k < PHASES; k++)
        printf(",%.4f", first[k] * 1e3);
    printf("\n");
    if (shapes < MAX_SHAPES)
        shape_median[shapes++] = util_median(t[TOTAL], (size_t)repeat);
    fflush(stdout);
    return 1;
}

static int time_shape(clipt_context cx, size_t rows, size_t cols, size_t elem, int repeat)
{
    double t[MAX_REPEAT];
    clipt_plan p = NULL;
    unsigned long segments;
    unsigned flag_stages;
    clipt_status s = clipt_plan_create(cx, rows, cols, elem, NULL, &p);
    if (s != CLIPT_SUCCESS) {
        fprintf(stderr, "%zux%zu: %s\n", rows, cols, clipt_status_string(s));
        return 0;
    }
    segments = segments_of(p, &flag_stages);
    clipt_plan_release(p);
    for (int i = 0; i < repeat; i++) {
        const double t0 = util_now_seconds();
        s = clipt_plan_create(cx, rows, cols, elem, NULL, &p);
        t[i] = util_now_seconds() - t0;
        if (s != CLIPT_SUCCESS) {
            fprintf(stderr, "%zux%zu: %s\n", rows, cols, clipt_status_string(s));
            return 0;
        }
        clipt_plan_release(p);
    }
    const double median = util_median(t, (size_t)repeat);
    printf("%zu,%zu,%zu,%.3f,%.3f,%.3f,%lu,%u\n", rows, cols, elem, median * 1e3, t[0] * 1e3,
           t[repeat - 1] * 1e3, segments, flag_stages); /* util_median sorted t */
    if (shapes < MAX_SHAPES)
        shape_median[shapes++] = median;
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv)
{
    clipt_context cx = NULL;
    char why[256];
    size_t elem = 4;
    int repeat = 9, status = 0;
    if (clipt_cl_env_open(&env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_plan_time: %s\n", why);
        return 3;
    }
    if (clipt_context_create(env.context, env.device, &cx) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_plan_time: no clipt context\n");
        clipt_cl_env_close(&env);
        return 3;
    }
    uint64_t seed = 1;
    int cycle = argc > 1 && strcmp(argv[1], "--cycle") == 0;
    int (*measure)(clipt_context, size_t, size_t, size_t, int) = cycle ? time_cycle : time_shape;
    printf(cycle ? "rows,cols,elem,create_ms,enqueue_ms,wait_ms,release_ms,total_ms,device_ms,"
                   "stages_ms,segments,flag_stages,first_create_ms,first_enqueue_ms,"
                   "first_wait_ms,first_release_ms,first_total_ms,first_device_ms,"
                   "first_stages_ms\n"
                 : "rows,cols,elem,median_ms,min_ms,max_ms,segments,flag_stages\n");
    for (int i = 1 + cycle; i < argc; i++) {
        size_t rows, cols;
        if (strcmp(argv[i], "--elem") == 0 && i + 1 < argc) {
            elem = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            repeat = repeat < 1 ? 1 : repeat > MAX_REPEAT ? MAX_REPEAT : repeat;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--random") == 0 && i + 1 < argc) {
            const long count = atol(argv[++i]);
            for (long k = 0; k < count; k++) {
                rows = (size_t)(1000 + util_splitmix64(&seed) % 19001);
                cols = (size_t)(1000 + util_splitmix64(&seed) % 19001);
                if (!measure(cx, rows, cols, elem, repeat))
                    status = 1;
            }
        } else if (sscanf(argv[i], "%zux%zu", &rows, &cols) == 2) {
            if (!measure(cx, rows, cols, elem, repeat))
                status = 1; /* the other shapes still run */
        } else {
            fprintf(stderr, "usage: clipt_plan_time [--cycle] [--elem E] [--repeat K] "
                            "[--random COUNT [--seed S]] [RxC ...]\n");
            status = 2;
            break;
        }
    }
    if (shapes > 0) {
        const double median = util_median(shape_median, shapes);
        fprintf(stderr, "%s over %zu shapes: median %.3f ms, largest %.3f ms\n",
                cycle ? "single-use cycle" : "plan creation", shapes, median * 1e3, shape_median[shapes - 1] * 1e3);
    }
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    return status;
}
