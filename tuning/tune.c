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
 * start from the values the library uses now for this device
 * (clipt_context_tuning); for each tuning field in turn, time every
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
#include "cl_select.h"
#include "cl_timing.h"
#include "hostmat.h"
#include "random.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPEAT 16
#define MAX_CASES 32

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

/* A tuning field (named as clipt_tuning_name names it) and the values
 * tried for it; the order of the table is the order of the search. */
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

/* The papers' distributions, scaled by `scale` (1 = GPU-sized). */
static size_t make_cases(tune_case *c, double scale, int quick)
{
    uint64_t seed = 20261122;
    size_t n = 0, general = quick ? 3 : 8, skinny = quick ? 2 : 8;
    const size_t lo = (size_t)(1000 * scale), hi = (size_t)(12000 * scale);
    for (size_t i = 0; i < general; i++, n++)
        c[n] = (tune_case){util_rand_range(&seed, lo, hi), util_rand_range(&seed, lo, hi), 4,
                           CLIPT_SEQUENCE_AUTO, W_GENERAL, 0};
    for (size_t i = 0; i < skinny; i++, n++) {
        size_t lng = util_rand_range(&seed, (size_t)(1e5 * scale), (size_t)(5e6 * scale));
        size_t shrt = util_rand_range(&seed, 2, 32);
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


/* Copy bandwidth for `bytes`, read + written, median of `repeat`; 0 on
 * an error. */
static double measure_copy(tuner *t, size_t bytes)
{
    double s[MAX_REPEAT], median = 0;
    if (util_copy_seconds(t->env.queue, t->pristine, t->buf, bytes, (size_t)t->repeat, s,
                          &median) != CL_SUCCESS)
        return 0;
    return 2.0 * (double)bytes / median * 1e-9;
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
    /* the fields tune the sequences' stages: never the automatic C2R */
    opts.algorithm = CLIPT_ALGORITHM_TPDS;
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
            /* element k of the pattern holds k */
            if (hostmat_compare_transposed((const unsigned char *)t->result,
                                           (const unsigned char *)t->pattern, c->rows,
                                           c->cols, c->elem, 1, NULL))
                goto done;
            *why = "OpenCL error";
        } else if (clipt_plan_profile(plan, &s[r - 1], NULL, 0, NULL) != CLIPT_SUCCESS) {
            goto done;
        }
    }
    ratio = 2.0 * (double)bytes / util_median(s, (size_t)t->repeat) * 1e-9 / c->copy_gbs;
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
    char name[256], vendor[256], version[512], entry[256];
    int is_cpu;
    size_t max_wg;
    unsigned value[NUM_FIELDS]; /* current value of fields[i] */
} device_facts;

static int device_text(cl_device_id d, cl_device_info what, char *out, size_t len)
{
    if (clGetDeviceInfo(d, what, len, out, NULL) != CL_SUCCESS)
        return 0;
    out[len - 1] = '\0';
    return 1;
}

/* The device as the entry's comment and match fields name it, and the
 * largest work-group size a candidate may have (as the library limits it:
 * also by the first dimension's work-item size). */
static int read_device(cl_device_id d, device_facts *f)
{
    char version[256], driver[128];
    cl_device_type type = 0;
    size_t items[3] = {0, 0, 0};
    if (!device_text(d, CL_DEVICE_NAME, f->name, sizeof f->name) ||
        !device_text(d, CL_DEVICE_VENDOR, f->vendor, sizeof f->vendor) ||
        !device_text(d, CL_DEVICE_VERSION, version, sizeof version) ||
        !device_text(d, CL_DRIVER_VERSION, driver, sizeof driver) ||
        clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof f->max_wg, &f->max_wg,
                        NULL) != CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL) !=
            CL_SUCCESS)
        return 0;
    snprintf(f->version, sizeof f->version, "%s (driver %s)", version, driver);
    f->is_cpu = !(type & CL_DEVICE_TYPE_GPU) && (type & CL_DEVICE_TYPE_CPU);
    if (items[0] < f->max_wg)
        f->max_wg = items[0];
    return 1;
}

/* The device facts, the tuning entry the library chose and its value of
 * every field the search covers (a field it does not know fails). */
static int read_facts(const tuner *t, device_facts *f)
{
    const char *entry = clipt_context_tuning_entry(t->cx);
    if (!read_device(t->env.device, f) || !entry)
        return 0;
    snprintf(f->entry, sizeof f->entry, "%s", entry);
    for (size_t i = 0; i < NUM_FIELDS; i++)
        if (clipt_context_tuning(t->cx, fields[i].name, &f->value[i]) != CLIPT_SUCCESS) {
            fprintf(stderr, "clipt_tune: the library has no tuning field %s\n",
                    fields[i].name);
            return 0;
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

/* The tuned value of the library's field `name`; 0 (the level below
 * decides) for a field the search does not cover. */
static unsigned value_of(const char *name, const unsigned *value)
{
    for (size_t i = 0; i < NUM_FIELDS; i++)
        if (strcmp(fields[i].name, name) == 0)
            return value[i];
    return 0;
}

/* ".values = {.wg_010 = 256, ...}" in the library's field order
 * (clipt_tuning_name), the fields left at 0 omitted, wrapped. */
static void write_values(FILE *out, const unsigned *value)
{
    int column = fprintf(out, "     .values = {"), written = 0;
    for (unsigned k = 0; k < clipt_tuning_count(); k++) {
        const char *name = clipt_tuning_name(k);
        const unsigned v = value_of(name, value);
        char item[96];
        int n;
        if (v == 0)
            continue;
        n = snprintf(item, sizeof item, ".%s = %u", name, v);
        if (written && column + n + 2 > 92)
            column = fprintf(out, ",\n                ") - 2;
        else if (written)
            column += fprintf(out, ", ");
        column += fprintf(out, "%s", item);
        written++;
    }
    fprintf(out, "%s}},\n", written ? "" : "0");
}

static void write_entry(FILE *out, const device_facts *f, const unsigned *value,
                        double before, double after, const char *match, const char *command)
{
    char date[32], runtime[64];
    const char *type = f->is_cpu ? "CL_DEVICE_TYPE_CPU" : "CL_DEVICE_TYPE_GPU";
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
        fprintf(out, "    {.label = \"%s %s (measured)\", .type = %s,\n     .vendor = NULL, "
                     ".name = NULL, .runtime = \"%s\",\n", runtime,
                f->is_cpu ? "CPU" : "GPU", type, runtime);
    else
        fprintf(out, "    {.label = \"%s (measured)\", .type = %s,\n     .vendor = \"%s\", "
                     ".name = \"%s\", .runtime = NULL,\n", f->name, type, f->vendor,
                f->name);
    write_values(out, value);
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
    unsigned value[NUM_FIELDS], start[NUM_FIELDS];
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
    if (!open_tuner(&t, cases, n) || !read_facts(&t, &facts)) {
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
