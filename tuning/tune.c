/* clipt_tune: measures tuning values on the selected device and writes a
 * tuning-table entry for tuning/tuning_entries.inc.
 *
 *   clipt_tune [--quick] [--repeat K] [--passes P] [--scale F] [--margin PCT]
 *              [--match name|runtime] [--out FILE] [--csv FILE]
 *
 * --quick: fewer cases; --passes: rounds over all fields (default 1);
 * --scale: shape size factor (default 1 on a GPU, 0.2
 * on a CPU); --margin: how much better (percent, default 2) a value must
 * score to replace the current one; --match: the entry matches this device
 * name (default) or every device of this runtime (e.g. all PoCL CPUs).
 *
 * Method (coordinate descent, CLBlast-style tuner as a separate program):
 * start from the values the library uses now for this device (read from
 * clipt_context_describe); for each tuning field in turn, time every
 * candidate value on the workloads that the field affects, with the other
 * fields at their current best, and keep the candidate with the highest
 * score.  The score of a set of cases is the geometric mean of each case's
 * throughput divided by the device's copy bandwidth for the same bytes,
 * measured once per case in the same run.  Every candidate's first run of
 * every case is checked bit-exact against the expected transpose; a
 * candidate that fails a case (wrong result or plan error) is rejected.
 * At the end the starting and the tuned values are measured once more, one
 * after the other, on every case.
 *
 * The device is chosen as by the clipt tool (CLIPT_PLATFORM, CLIPT_DEVICE).
 * Progress goes to stderr, the entry to --out (default stdout). */
#include "clipt.h"
#include "cl_select.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPEAT 16
#define MAX_CASES 32
#define MAX_FIELDS 16

/* ---- workloads ---------------------------------------------------------- */

enum workload {
    W_GENERAL = 1, /* automatic plans on general shapes (3-stage, padded)  */
    W_SKINNY = 2,  /* automatic plans on skinny shapes (2-stage)           */
    W_FUSED = 4,   /* forced sequence 4.3 (the fused barrier 100! kernel)  */
    W_PTTWAC = 8   /* forced sequence 1 on tiles beyond local memory       */
};

typedef struct tune_case {
    size_t rows, cols, elem;
    clipt_sequence sequence;
    enum workload workload;
    double copy_gbs;          /* measured once, before the search */
} tune_case;

/* A tuning field and the values tried for it. */
typedef struct tune_field {
    const char *name;
    unsigned workloads;       /* which cases it changes */
    unsigned candidates[8];   /* zero-terminated */
} tune_field;

static const tune_field fields[] = {
    {"min_super", W_GENERAL, {16, 24, 32, 48, 64}},
    {"align_bytes", W_GENERAL | W_SKINNY, {1, 16, 32, 64}},
    {"skinny_super", W_SKINNY, {32, 64, 128, 256}},
    {"walk_unroll", W_GENERAL | W_SKINNY, {2, 4, 8, 16}},
    {"walk_item_bytes", W_GENERAL | W_SKINNY, {8, 16, 32}},
    {"wg_100", W_GENERAL | W_SKINNY | W_FUSED, {64, 128, 256, 512}},
    {"groups_per_cu_100", W_GENERAL | W_SKINNY, {2, 4, 8, 16}},
    {"wg_010", W_GENERAL | W_SKINNY | W_PTTWAC, {64, 128, 256, 512}},
    {"groups_per_cu_010", W_GENERAL | W_SKINNY, {2, 4, 8, 16}},
    {"tile_elems_010", W_GENERAL | W_SKINNY, {1024, 4096, 16384}},
    {"simd_100", W_FUSED, {4, 8, 16, 32, 64}},
    {"pttwac_spread", W_PTTWAC, {1, 2, 4, 8, 16, 32}},
    {"pttwac_pad", W_PTTWAC, {1, 2, 4, 8}},
};
#define NUM_FIELDS (sizeof fields / sizeof fields[0])

static size_t random_in(uint64_t *s, size_t lo, size_t hi)
{
    return lo + (size_t)(splitmix64_next(s) % (hi - lo + 1));
}

/* The papers' distributions, scaled by `scale` (1 = GPU-sized). */
static size_t make_cases(tune_case *c, double scale, int quick)
{
    uint64_t seed = 20261122;
    size_t n = 0, general = quick ? 3 : 8, skinny = quick ? 2 : 8;
    const size_t lo = (size_t)(1000 * scale), hi = (size_t)(12000 * scale);
    for (size_t i = 0; i < general; i++, n++)
        c[n] = (tune_case){random_in(&seed, lo, hi), random_in(&seed, lo, hi), 4,
                           CLIPT_SEQUENCE_AUTO, W_GENERAL, 0};
    for (size_t i = 0; i < skinny; i++, n++) {
        size_t lng = random_in(&seed, (size_t)(1e5 * scale), (size_t)(5e6 * scale));
        size_t shrt = random_in(&seed, 2, 32);
        c[n] = (tune_case){i % 2 ? shrt : lng, i % 2 ? lng : shrt, 4,
                           CLIPT_SEQUENCE_AUTO, W_SKINNY, 0};
    }
    c[n++] = (tune_case){(size_t)(2048 * scale) / 16 * 16, (size_t)(3072 * scale) / 16 * 16,
                         4, CLIPT_SEQUENCE_4_3, W_FUSED, 0};
    /* 300 x 500 fp32 (600 KB) is beyond any GPU's local memory: sequence 1
     * then runs PTTWAC on the whole matrix, several of them side by side
     * would need a batch; one instance is what the flags' tuning is about */
    c[n++] = (tune_case){300, 500, 4, CLIPT_SEQUENCE_1, W_PTTWAC, 0};
    return n;
}

/* ---- measuring ---------------------------------------------------------- */


typedef struct tuner {
    clipt_cl_env env;
    clipt_context cx;
    cl_mem buf, pristine;     /* sized for the largest case */
    unsigned *pattern;        /* element k holds k (4-byte elements) */
    unsigned *result;
    size_t capacity;          /* bytes of buf */
    int repeat;
    FILE *csv;
} tuner;


/* Copy bandwidth for `bytes`, read + written, median of `repeat`. */
static double measure_copy(tuner *t, size_t bytes)
{
    double s[MAX_REPEAT];
    for (int r = 0; r < t->repeat; r++) {
        cl_event e = NULL;
        if (clEnqueueCopyBuffer(t->env.queue, t->pristine, t->buf, 0, 0, bytes, 0, NULL, &e) ||
            clWaitForEvents(1, &e))
            return 0;
        s[r] = timing_event_seconds(e);
        clReleaseEvent(e);
    }
    return 2.0 * (double)bytes / timing_median(s, t->repeat) * 1e-9;
}

/* Element k of the rows x cols input holds k, so the transpose holds
 * i * cols + j at position j * rows + i. */
static int transposed_exactly(const unsigned *got, size_t rows, size_t cols)
{
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            if (got[j * rows + i] != (unsigned)(i * cols + j))
                return 0;
    return 1;
}

/* Ratio to copy bandwidth of one case with options o; 0 if the plan fails
 * or the result is wrong (*why says which). */
static double measure_case(tuner *t, const tune_case *c, const clipt_plan_options *o,
                           const char **why)
{
    clipt_plan plan = NULL;
    double s[MAX_REPEAT], ratio = 0;
    const size_t bytes = c->rows * c->cols * c->elem;
    clipt_plan_options opts = *o;
    opts.sequence = c->sequence;
    *why = "plan failed";
    if (clipt_plan_create(t->cx, c->rows, c->cols, c->elem, &opts, &plan) != CLIPT_SUCCESS)
        return 0;
    *why = "buffer too small";
    if (clipt_plan_buffer_size(plan) > t->capacity)
        goto done;
    *why = "OpenCL error";
    /* run 0 on the pattern is verified; the later runs only time (the same
     * work on whatever the buffer holds) */
    for (int r = 0; r <= t->repeat; r++) {
        if (r == 0 && clEnqueueCopyBuffer(t->env.queue, t->pristine, t->buf, 0, 0,
                                          clipt_plan_buffer_size(plan), 0, NULL, NULL))
            goto done;
        if (clipt_enqueue(plan, t->env.queue, t->buf, 0, 0, NULL, NULL) != CLIPT_SUCCESS ||
            clFinish(t->env.queue))
            goto done;
        if (r == 0) {
            if (clEnqueueReadBuffer(t->env.queue, t->buf, CL_TRUE, 0, bytes, t->result, 0,
                                    NULL, NULL))
                goto done;
            *why = "WRONG RESULT";
            if (!transposed_exactly(t->result, c->rows, c->cols))
                goto done;
            *why = "OpenCL error";
        } else if (clipt_plan_profile(plan, &s[r - 1], NULL, 0, NULL) != CLIPT_SUCCESS) {
            goto done;
        }
    }
    ratio = 2.0 * (double)bytes / timing_median(s, t->repeat) * 1e-9 / c->copy_gbs;
    *why = NULL;
done:
    clipt_plan_release(plan);
    return ratio;
}

/* Geometric mean of the ratios of the cases in `workloads`; 0 if any case
 * fails.  Logs every case to the CSV. */
static double score(tuner *t, const tune_case *cases, size_t n, unsigned workloads,
                    const clipt_plan_options *o, const char *field, unsigned value)
{
    double log_sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const char *why = NULL;
        double r;
        if (!(cases[i].workload & workloads))
            continue;
        r = measure_case(t, &cases[i], o, &why);
        if (t->csv)
            fprintf(t->csv, "%s,%u,%zu,%zu,%zu,%d,%.4f,%s\n", field, value, cases[i].rows,
                    cases[i].cols, cases[i].elem, (int)cases[i].sequence, r, why ? why : "ok");
        if (why) {
            fprintf(stderr, "  %s=%u on %zu x %zu: %s\n", field, value, cases[i].rows,
                    cases[i].cols, why);
            return 0;
        }
        log_sum += log(r);
        used++;
    }
    return used ? exp(log_sum / (double)used) : 0;
}

/* ---- the device's current values ---------------------------------------- */

typedef struct device_facts {
    char name[256], vendor[256], version[256], driver[128], entry[128];
    char fields_line[1024];     /* " name=value ..." in the table's order */
    int is_cpu;
    size_t max_wg;
    unsigned value[MAX_FIELDS]; /* current value of fields[i] */
} device_facts;

/* The text after "key: " up to the end of the line. */
static void line_after(const char *text, const char *key, char *out, size_t len)
{
    const char *at = strstr(text, key);
    size_t n = 0;
    if (at) {
        at += strlen(key);
        n = strcspn(at, "\n");
    }
    snprintf(out, len, "%.*s", (int)n, at ? at : "");
}

static int read_facts(clipt_context cx, device_facts *f)
{
    char text[8192], key[64], number[32];
    if (clipt_context_describe(cx, text, sizeof text) != CLIPT_SUCCESS)
        return 0;
    line_after(text, "device: ", f->name, sizeof f->name);
    line_after(text, "vendor: ", f->vendor, sizeof f->vendor);
    line_after(text, "version: ", f->version, sizeof f->version);
    line_after(text, "tuning entry: ", f->entry, sizeof f->entry);
    line_after(text, "tuning:", f->fields_line, sizeof f->fields_line);
    line_after(text, "type: ", number, sizeof number);
    f->is_cpu = strcmp(number, "CPU") == 0;
    line_after(text, "max work-group size: ", number, sizeof number);
    f->max_wg = strtoul(number, NULL, 10);
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        snprintf(key, sizeof key, " %s=", fields[i].name);
        line_after(text, key, number, sizeof number);
        if (!number[0])
            return 0;
        f->value[i] = (unsigned)strtoul(number, NULL, 10);
    }
    return 1;
}

static void set_all(clipt_plan_options *o, const unsigned *value)
{
    clipt_plan_options_init(o);
    for (size_t i = 0; i < NUM_FIELDS; i++)
        clipt_plan_options_set_tuning(o, fields[i].name, value[i]);
}

/* ---- the entry ------------------------------------------------------------ */

/* The runtime's name: the word after "OpenCL x.y " in CL_DEVICE_VERSION
 * (e.g. "PoCL", "CUDA"). */
static void runtime_word(const char *version, char *out, size_t len)
{
    const char *at = strchr(version, ' ');
    at = at ? strchr(at + 1, ' ') : NULL;
    snprintf(out, len, "%.*s", at ? (int)strcspn(at + 1, " ") : 0, at ? at + 1 : "");
}

static void write_entry(FILE *out, const device_facts *f, const unsigned *value,
                        double before, double after, const char *match, const char *command)
{
    char date[32], runtime[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    runtime_word(f->version, runtime, sizeof runtime);
    fprintf(out, "    /* Measured by clipt_tune, %s, on\n"
                 "     *   device: %s (%s)\n"
                 "     *   version: %s\n"
                 "     * Score (geometric mean of throughput / copy bandwidth over the\n"
                 "     * tuner's cases): %.1f %% with these values, %.1f %% with\n"
                 "     * \"%s\", measured side by side.\n"
                 "     * Command: %s */\n",
            date, f->name, f->vendor, f->version, 100 * after, 100 * before, f->entry,
            command);
    if (strcmp(match, "runtime") == 0)
        fprintf(out, "    {\"%s %s (measured)\", %s, NULL, NULL, \"%s\",\n", runtime,
                f->is_cpu ? "CPU" : "GPU", f->is_cpu ? "CL_DEVICE_TYPE_CPU" : "CL_DEVICE_TYPE_GPU",
                runtime);
    else
        fprintf(out, "    {\"%s (measured)\", %s, \"%s\", \"%s\", NULL,\n", f->name,
                f->is_cpu ? "CL_DEVICE_TYPE_CPU" : "CL_DEVICE_TYPE_GPU", f->vendor, f->name);
    /* the values in the table's order, which the library's own " name=value"
     * list gives; fields the tuner does not search stay 0 (the level below) */
    fprintf(out, "     {");
    for (const char *at = f->fields_line, *sep = ""; (at = strchr(at, ' ')) != NULL;
         sep = ", ") {
        unsigned v = 0;
        const size_t len = strcspn(++at, "=");
        for (size_t i = 0; i < NUM_FIELDS; i++)
            if (strlen(fields[i].name) == len && strncmp(fields[i].name, at, len) == 0)
                v = value[i];
        fprintf(out, "%s%u", sep, v);
    }
    fprintf(out, "}},\n");
}

/* ---- main ------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr, "usage: clipt_tune [--quick] [--repeat K] [--passes P] [--scale F] [--margin PCT]\n"
                    "                  [--match name|runtime] [--out FILE] [--csv FILE]\n");
    return 2;
}

static int open_tuner(tuner *t, const tune_case *cases, size_t n)
{
    char why[512];
    cl_int err;
    size_t max_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        /* room for padding: a plan pads by at most a few rows/columns */
        size_t b = (cases[i].rows + 64) * (cases[i].cols + 64) * cases[i].elem;
        max_bytes = b > max_bytes ? b : max_bytes;
    }
    if (clipt_cl_env_open(&t->env, why, sizeof why) != CLIPT_SUCCESS) {
        fprintf(stderr, "clipt_tune: %s\n", why);
        return 0;
    }
    if (clipt_context_create(t->env.context, t->env.device, &t->cx) != CLIPT_SUCCESS)
        return 0;
    t->capacity = max_bytes;
    t->pattern = malloc(max_bytes);
    t->result = malloc(max_bytes);
    if (!t->pattern || !t->result)
        return 0;
    for (size_t k = 0; k < max_bytes / 4; k++)
        t->pattern[k] = (unsigned)k;
    t->buf = clCreateBuffer(t->env.context, CL_MEM_READ_WRITE, max_bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return 0;
    t->pristine = clCreateBuffer(t->env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 max_bytes, t->pattern, &err);
    return err == CL_SUCCESS;
}

static void close_tuner(tuner *t)
{
    if (t->buf)
        clReleaseMemObject(t->buf);
    if (t->pristine)
        clReleaseMemObject(t->pristine);
    free(t->pattern);
    free(t->result);
    clipt_context_release(t->cx);
    if (t->env.context)
        clipt_cl_env_close(&t->env);
    if (t->csv)
        fclose(t->csv);
}

/* The score of fields[i] set to `candidate`, the other fields at value[]. */
static double score_candidate(tuner *t, const tune_case *cases, size_t n, size_t i,
                              unsigned *value, unsigned candidate)
{
    clipt_plan_options o;
    unsigned keep = value[i];
    double s;
    value[i] = candidate;
    set_all(&o, value);
    s = score(t, cases, n, fields[i].workloads, &o, fields[i].name, candidate);
    value[i] = keep;
    fprintf(stderr, " %u->%.2f%%", candidate, 100 * s);
    return s;
}

/* One pass of coordinate descent over the fields, updating value[].  The
 * current value is measured first; another replaces it only when it scores
 * more than `margin` better, so that noise does not move values around. */
static void search(tuner *t, const tune_case *cases, size_t n, const device_facts *f,
                   unsigned *value, double margin)
{
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        unsigned best_value = value[i];
        double current, best;
        fprintf(stderr, "%s (now %u):", fields[i].name, value[i]);
        current = best = score_candidate(t, cases, n, i, value, value[i]);
        for (const unsigned *cand = fields[i].candidates; *cand; cand++) {
            double s;
            if (*cand == value[i] ||
                (strncmp(fields[i].name, "wg_", 3) == 0 && *cand > f->max_wg))
                continue;
            s = score_candidate(t, cases, n, i, value, *cand);
            if (s > best) {
                best = s;
                best_value = *cand;
            }
        }
        if (best > current * (1 + margin))
            value[i] = best_value;
        fprintf(stderr, "  => %u\n", value[i]);
    }
}

int main(int argc, char **argv)
{
    tuner t = {0};
    tune_case cases[MAX_CASES];
    device_facts facts = {0};
    unsigned value[MAX_FIELDS], start[MAX_FIELDS];
    clipt_plan_options o;
    const char *out_path = NULL, *csv_path = NULL, *match = "name";
    double scale = 0, margin = 0.02, before, after;
    int quick = 0, passes = 1, status = 1;
    char command[1024] = "clipt_tune";
    size_t n;
    t.repeat = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            t.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc)
            passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--margin") && i + 1 < argc)
            margin = atof(argv[++i]) / 100;
        else if (!strcmp(argv[i], "--match") && i + 1 < argc)
            match = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv_path = argv[++i];
        else
            return usage();
    }
    for (int i = 1; i < argc; i++) /* recorded in the entry's comment */
        if (strlen(command) + strlen(argv[i]) + 2 < sizeof command) {
            strcat(command, " ");
            strcat(command, argv[i]);
        }
    if (t.repeat < 1 || t.repeat > MAX_REPEAT || scale < 0 || margin < 0 || passes < 1 ||
        (strcmp(match, "name") && strcmp(match, "runtime")))
        return usage();
    {
        /* the cases' size depends on the device type */
        char why[512];
        clipt_cl_env probe;
        if (clipt_cl_select(&probe, why, sizeof why) != CLIPT_SUCCESS) {
            fprintf(stderr, "clipt_tune: %s\n", why);
            return 2;
        }
        if (scale == 0) {
            cl_device_type type = 0;
            clGetDeviceInfo(probe.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
            scale = (type & CL_DEVICE_TYPE_GPU) ? 1.0 : 0.2;
        }
    }
    n = make_cases(cases, scale, quick);
    if (csv_path && !(t.csv = fopen(csv_path, "w"))) {
        perror(csv_path);
        return 2;
    }
    if (t.csv)
        fprintf(t.csv, "field,value,rows,cols,elem,sequence,ratio,result\n");
    if (!open_tuner(&t, cases, n) || !read_facts(t.cx, &facts)) {
        fprintf(stderr, "clipt_tune: cannot set up the device\n");
        goto done;
    }
    fprintf(stderr, "device: %s (%s), starting from \"%s\"\n", facts.name, facts.version,
            facts.entry);
    for (size_t i = 0; i < n; i++) {
        cases[i].copy_gbs = measure_copy(&t, cases[i].rows * cases[i].cols * cases[i].elem);
        fprintf(stderr, "case %zu x %zu seq %d: copy %.1f GB/s\n", cases[i].rows,
                cases[i].cols, (int)cases[i].sequence, cases[i].copy_gbs);
        if (cases[i].copy_gbs <= 0)
            goto done;
    }
    memcpy(value, facts.value, sizeof value);
    memcpy(start, facts.value, sizeof start);
    for (int pass = 1; pass <= passes; pass++) {
        fprintf(stderr, "pass %d of %d\n", pass, passes);
        search(&t, cases, n, &facts, value, margin);
    }
    /* before and after, measured side by side on every case */
    set_all(&o, start);
    before = score(&t, cases, n, ~0u, &o, "start", 0);
    set_all(&o, value);
    after = score(&t, cases, n, ~0u, &o, "final", 0);
    fprintf(stderr, "score: %.1f %% with \"%s\", %.1f %% with the tuned values\n",
            100 * before, facts.entry, 100 * after);
    if (after <= 0) {
        fprintf(stderr, "clipt_tune: the tuned values fail a case\n");
        goto done;
    }
    if (after < before) {
        /* the search was misled by noise: keep what was measured better */
        fprintf(stderr, "clipt_tune: the tuned values scored lower; the entry keeps the "
                        "starting values\n");
        memcpy(value, start, sizeof value);
        after = before;
    }
    {
        FILE *out = out_path ? fopen(out_path, "w") : stdout;
        if (!out) {
            perror(out_path);
            goto done;
        }
        write_entry(out, &facts, value, before, after, match, command);
        if (out != stdout)
            fclose(out);
    }
    status = 0;
done:
    close_tuner(&t);
    return status;
}
