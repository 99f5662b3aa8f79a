/* clipt_plan_time: the host time of clipt_plan_create with the programs
 * already built (issue 13): per shape, one plan is created and released to
 * build the programs, then --repeat plans are created and released, each
 * timed alone on a monotonic clock (creation only, not the release).
 *
 *   clipt_plan_time [--elem E] [--repeat K] [--random COUNT [--seed S]] [RxC ...]
 *
 * --random: COUNT shapes with rows and cols uniform in [1000, 20000]
 * (splitmix64 from S, default 1).  Prints one CSV row per shape:
 * rows,cols,elem,median_ms,min_ms,max_ms,segments,flag_stages (the plan's
 * cycle segments, all stages, and its stages moved by the flag-based
 * kernel instead), then a summary line on stderr: the median and the
 * largest of the shapes' medians.  CLIPT_CYCLE_WALK=1 in the environment
 * makes the library walk every position instead (the old way), for
 * comparisons. */
#include "cl_select.h"
#include "random.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPEAT 200
#define MAX_SHAPES 4096

static double shape_median[MAX_SHAPES];
static size_t shapes;

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
    clipt_cl_env env;
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
    printf("rows,cols,elem,median_ms,min_ms,max_ms,segments,flag_stages\n");
    for (int i = 1; i < argc; i++) {
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
                if (!time_shape(cx, rows, cols, elem, repeat))
                    status = 1;
            }
        } else if (sscanf(argv[i], "%zux%zu", &rows, &cols) == 2) {
            if (!time_shape(cx, rows, cols, elem, repeat))
                status = 1; /* the other shapes still run */
        } else {
            fprintf(stderr, "usage: clipt_plan_time [--elem E] [--repeat K] [--random COUNT "
                            "[--seed S]] [RxC ...]\n");
            status = 2;
            break;
        }
    }
    if (shapes > 0) {
        const double median = util_median(shape_median, shapes);
        fprintf(stderr, "plan creation over %zu shapes: median %.3f ms, largest %.3f ms\n",
                shapes, median * 1e3, shape_median[shapes - 1] * 1e3);
    }
    clipt_context_release(cx);
    clipt_cl_env_close(&env);
    return status;
}
