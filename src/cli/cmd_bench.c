/* clipt bench: throughput of automatic plans over a set of shapes, next to
 * the device's copy bandwidth, as in the evaluations of Gómez-Luna et al.
 * (TPDS 2016, Figs. 12-16) and Sung et al. (PPoPP 2014): the random
 * "general" and "skinny" (AoS <-> SoA) sets, or shapes from a file.
 *
 * Per shape: one automatic plan (its facts read from clipt_plan_describe),
 * a work buffer and a pristine copy on the device, --repeat timed runs each
 * restored from the pristine copy (clEnqueueCopyBuffer, not timed), a
 * bit-exact host check of the first run, the copy bandwidth of a buffer of
 * the matrix's size, and with --brute-force the best forced (sequence, m, n)
 * next to the automatic choice. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "hostmat.h"

#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_STAGES 8
#define MAX_VERIFY_THREADS 8u
#define DEFAULT_RANDOM_COUNT 100
#define MEMORY_SHARE 0.8           /* of CL_DEVICE_GLOBAL_MEM_SIZE per shape */
#define BRUTE_CHEAP_SECONDS 1e-3   /* below: candidates get --repeat runs    */
#define PLOT_EXIT_NO_MATPLOTLIB 3  /* plot_hist.py's "cannot plot" status    */

extern char **environ;

/* ---- types ------------------------------------------------------------ */

typedef enum { SET_NONE, SET_GENERAL, SET_SKINNY } shape_set;
typedef enum { MODE_REPEATED, MODE_SINGLE } bench_mode;
typedef enum { NOT_CHECKED, CORRECT, WRONG } verdict;
typedef enum { SHAPE_MEASURED, SHAPE_SKIPPED, SHAPE_FAILED } shape_outcome;

typedef struct bench_args {
    const char *shapes_file;
    shape_set set;
    size_t count;        /* 0: every line of the file / the default count  */
    uint64_t seed;
    size_t max_dim;      /* 0: the papers' ranges unchanged                */
    size_t elem, repeat;
    const char *csv, *png;
    int no_verify;
    bench_mode mode;
    int brute_force;
    size_t brute_limit;
    const char *tuning;  /* --tune list for every plan, or NULL           */
} bench_args;

/* Defaults plus the --tune overrides: the options of every plan. */
static void bench_options(const bench_args *a, clipt_plan_options *o)
{
    clipt_plan_options_init(o);
    cli_apply_tuning(a->tuning, o); /* checked when parsed */
}

typedef struct shape {
    size_t rows, cols;
} shape;

typedef struct shape_list {
    shape *v;
    size_t n, cap;
} shape_list;

typedef struct range {
    size_t lo, hi;
} range;

/* Fields of clipt_plan_describe: the public API has no structured query. */
typedef struct plan_facts {
    char sequence[16];
    size_t m, n, prows, pcols;
} plan_facts;

typedef struct run_sample {
    double host_s, device_s;
    double stage_s[MAX_STAGES];
    unsigned num_stages;
} run_sample;

/* A plan of the brute-force search; seq AUTO: the automatic plan. */
typedef struct candidate {
    clipt_sequence seq;
    size_t m, n;
} candidate;

typedef struct shape_result {
    shape sh;
    plan_facts facts;
    double time_s;       /* reported: device (repeated), host (single)     */
    double device_s;     /* device only, both modes                        */
    double stage_s[MAX_STAGES];
    unsigned num_stages;
    double gbs, copy_gbs, ratio;
    verdict check;
    /* --brute-force */
    size_t tried, rejected;
    double brute_s, create_s;  /* wall time of the search, of its creates */
    double auto_gbs, best_gbs;
    plan_facts best;
    candidate best_cand;  /* CLIPT_SEQUENCE_AUTO: the automatic plan */
    verdict best_check;  /* the best forced plan, run once more and checked */
} shape_result;

/* The first failing call of a shape: reported once, by bench_shape. */
typedef struct bench_error {
    const char *what;
    clipt_status st;
} bench_error;

typedef struct device_limits {
    cl_ulong max_alloc, global_mem, local_mem;
} device_limits;

typedef struct shape_bufs {
    cl_mem work, pristine;
    size_t bytes;        /* rows * cols * elem                             */
    size_t buffer_bytes; /* clipt_plan_buffer_size: room for padding       */
} shape_bufs;

/* Per-shape series that the summary takes percentiles of. */
typedef struct series {
    double *gbs, *copy_gbs, *ratio, *auto_best;
    size_t measured, brute;
} series;

typedef struct bench {
    const bench_args *a;
    const char *set_name;
    cli_session s;
    device_limits lim;
    unsigned threads;
    unsigned char *pattern;   /* hostmat pattern of elements 0..count-1    */
    size_t pattern_count;
    unsigned char *readback;
    size_t readback_bytes;
    run_sample *runs;         /* --repeat samples, reused by every shape    */
    double *scratch;          /* --repeat values to take a median of        */
    FILE *csv;
    series sr;
    size_t skipped, failed, verified, correct, wrong_best;
} bench;

typedef struct candidate_list {
    candidate *v;
    size_t n, cap;
} candidate_list;

/* ---- small helpers ---------------------------------------------------- */

/* Records the first failure; returns 1 when st is a success. */
static int check(bench_error *e, const char *what, clipt_status st)
{
    if (st == CLIPT_SUCCESS)
        return 1;
    e->what = what;
    e->st = st;
    return 0;
}

/* Grows *v (elements of `size` bytes) to hold at least `need`. */
static int grow(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 16;
    void *p;
    if (need <= *cap)
        return 1;
    while (n < need)
        n *= 2;
    if (!(p = realloc(*v, n * size)))
        return 0;
    *v = p;
    *cap = n;
    return 1;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Percentile p in [0, 1] of v[0..n-1] with linear interpolation between
 * order statistics; sorts v in place.  n must be positive. */
double percentile(double *v, size_t n, double p)
{
    const double at = p * (double)(n - 1);
    const size_t lo = (size_t)at;
    qsort(v, n, sizeof *v, compare_double);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (at - (double)lo) * (v[lo + 1] - v[lo]);
}

static double gb_per_s(const shape *sh, size_t elem, double seconds)
{
    const double bytes = (double)sh->rows * (double)sh->cols * (double)elem;
    return seconds > 0 ? 2 * bytes / seconds / 1e9 : 0;
}

static const char *sequence_name(clipt_sequence s)
{
    switch (s) {
    case CLIPT_SEQUENCE_2_1: return "2.1";
    case CLIPT_SEQUENCE_2_2: return "2.2";
    case CLIPT_SEQUENCE_3_1: return "3.1";
    case CLIPT_SEQUENCE_3_2: return "3.2";
    default: return "auto";
    }
}

static const char *verdict_name(verdict v)
{
    return v == CORRECT ? "yes" : v == WRONG ? "no" : "unchecked";
}

/* ---- options ---------------------------------------------------------- */

static const char bench_description[] =
    "Measures the throughput of clipt's automatic plans over a set of shapes\n"
    "on the selected device (CLIPT_PLATFORM / CLIPT_DEVICE; default: first\n"
    "GPU, else first device), next to the device's copy bandwidth.\n"
    "\n"
    "Shapes: --shapes FILE (one \"rows cols\" per line, '#' starts a comment)\n"
    "or --random SET with --count N and --seed S (splitmix64: one seed, one\n"
    "list of shapes on every machine).  The sets follow the papers:\n"
    "  general  rows and cols uniform in [1000, 20000] ([1000, 15000] for\n"
    "           --elem 8 and 16);\n"
    "  skinny   long side uniform in [10^4, 10^7], short side in [2, 32];\n"
    "           shapes alternate rows >> cols (AoS->SoA) and cols >> rows\n"
    "           (SoA->AoS).\n"
    "--max-dim D scales a range [lo, hi] with hi > D down to\n"
    "[min(lo, ceil(D/2)), D], for quick runs.  A shape is skipped (noted on\n"
    "stderr, counted in the summary) when its buffer exceeds\n"
    "CL_DEVICE_MAX_MEM_ALLOC_SIZE, when buffer + pristine copy + scratch\n"
    "exceed 80% of CL_DEVICE_GLOBAL_MEM_SIZE, or when it is a single row or\n"
    "column (nothing moves).\n"
    "\n"
    "Timing: GB/s = 2*rows*cols*elem / time.  Before every timed run the\n"
    "matrix is restored from a pristine device copy (clEnqueueCopyBuffer,\n"
    "not timed).  --mode repeated (default): the plan is created once per\n"
    "shape and time is clipt_plan_profile's total, from the first stage's\n"
    "start (padding included) to the last stage's end (unpadding included).\n"
    "--mode single: every timed run creates the plan (clipt_plan_create:\n"
    "programs come from the context's cache, cycles are walked on the host),\n"
    "enqueues it, waits and releases it; time is a host monotonic clock\n"
    "around all of that, and the device-only time is reported beside it.\n"
    "Times are medians of --repeat runs.  Copy GB/s: clEnqueueCopyBuffer of\n"
    "rows*cols*elem bytes (pristine -> work), median of --repeat, counted\n"
    "as 2*bytes/time.  ratio = transposition GB/s / copy GB/s.\n"
    "\n"
    "The first timed run of each shape is read back and compared bit for\n"
    "bit with the CPU transpose (cache-blocked, min(8, cores) threads); a\n"
    "wrong result is reported on stderr and the bench goes on.\n"
    "\n"
    "--brute-force: per shape, also times the automatic plan and forced\n"
    "plans (padding none) for sequences 2.1, 2.2, 3.1 and 3.2 and every\n"
    "divisor m of rows and n of cols with m*n*elem <= the device's local\n"
    "memory (2.1 moves whole rows, so n = cols; 2.2 whole columns, so\n"
    "m = rows), largest m*n first, up to --brute-limit plans counting the\n"
    "automatic one; combinations clipt_plan_create rejects are skipped.\n"
    "Plans are created ahead on min(8, cores) threads (clipt_plan_create\n"
    "costs more than a run on a GPU); each gets one warm-up run, then one\n"
    "timed run (the median of --repeat when the warm-up took under 1 ms);\n"
    "device time in both modes.  Reports auto/best = automatic GB/s / best GB/s (TPDS 2016,\n"
    "sec. 5.3.1, Fig. 5).  The best forced plan is run once more and its\n"
    "result checked like the automatic plan's (a wrong one: exit status 1).\n"
    "\n"
    "Output: progress on stderr; one line per shape on stdout; then\n"
    "  median X GB/s  p10 Y  p90 Z  copy W GB/s  median/copy R %  verified V/N\n"
    "  ratio median R %  p10 A %  p90 B %\n"
    "where X, Y, Z are percentiles of the shapes' GB/s, W the median of their\n"
    "copy GB/s, R the median of the per-shape ratios (not X/W), V/N the\n"
    "shapes found correct / checked; with --brute-force also\n"
    "  auto/best median F %  p10 G %  p90 H %\n"
    "--csv FILE: header, then one row per measured shape: rows,cols,elem,\n"
    "sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,\n"
    "verified,stages_ms (';'-joined per-stage medians),mode,device_ms,\n"
    "best_gbs,best_sequence,best_m,best_n,auto_best,best_verified (ratio and\n"
    "auto_best as fractions; the best_* fields empty without --brute-force).\n"
    "--png FILE: histogram of GB/s drawn by python3 tuning/plot_hist.py\n"
    "(CLIPT_PLOT_SCRIPT overrides the path); without python3 or matplotlib\n"
    "one line says so and the bench does not fail.\n"
    "\n"
    "--host: another mode, host arrays through clipt_transpose_host over\n"
    "several command queues (see 'clipt bench --host --help').\n"
    "\n"
    "Exit status: 0 every checked shape correct, 1 a wrong result, 2 usage\n"
    "error, 3 OpenCL or clipt failure on some shape (the others still run).";

static const char *parse_set(const char *text, void *target)
{
    if (strcmp(text, "general") == 0)
        *(shape_set *)target = SET_GENERAL;
    else if (strcmp(text, "skinny") == 0)
        *(shape_set *)target = SET_SKINNY;
    else
        return "general or skinny";
    return NULL;
}

static const char *parse_mode(const char *text, void *target)
{
    if (strcmp(text, "repeated") == 0)
        *(bench_mode *)target = MODE_REPEATED;
    else if (strcmp(text, "single") == 0)
        *(bench_mode *)target = MODE_SINGLE;
    else
        return "repeated or single";
    return NULL;
}

static const char *parse_seed(const char *text, void *target)
{
    char *end = NULL;
    unsigned long long v;
    if (text[0] < '0' || text[0] > '9')
        return "a whole number";
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end != '\0')
        return "a whole number below 2^64";
    *(uint64_t *)target = (uint64_t)v;
    return NULL;
}

static int validate_args(const bench_args *a, int *status)
{
    if (!a->shapes_file == (a->set == SET_NONE)) {
        *status = cli_usage_error(&cli_cmd_bench, a->shapes_file
                                  ? "--shapes and --random exclude each other"
                                  : "give --shapes FILE or --random general|skinny");
        return 0;
    }
    if (a->shapes_file && a->max_dim) {
        *status = cli_usage_error(&cli_cmd_bench, "--max-dim applies to --random only");
        return 0;
    }
    return 1;
}

static int parse_bench_args(int argc, char **argv, bench_args *a, int *status)
{
    const cli_option opts[] = {
        {"shapes", "FILE", cli_parse_text, &a->shapes_file,
         "shapes from FILE, one \"rows cols\" per line, '#' comments"},
        {"random", "SET", parse_set, &a->set, "random shapes: general or skinny"},
        {"count", "N", cli_parse_positive_size, &a->count,
         "random shapes (default 100); with --shapes: the first N"},
        {"seed", "S", parse_seed, &a->seed, "seed of --random (default 1)"},
        {"max-dim", "D", cli_parse_positive_size, &a->max_dim,
         "scale --random ranges down to at most D (quick runs)"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "element size: 1, 2, 4, 8 or 16 (default 4)"},
        {"repeat", "K", cli_parse_positive_size, &a->repeat,
         "timed runs per shape; medians are reported (default 5)"},
        {"mode", "MODE", parse_mode, &a->mode,
         "repeated (plan reused) or single (plan per run) (default repeated)"},
        {"no-verify", NULL, NULL, &a->no_verify, "skip the bit-exact host check"},
        {"csv", "FILE", cli_parse_text, &a->csv, "write one row per measured shape"},
        {"png", "FILE", cli_parse_text, &a->png,
         "histogram of GB/s (python3 + matplotlib)"},
        {"brute-force", NULL, NULL, &a->brute_force,
         "also time forced (sequence, m, n) plans; report auto/best"},
        {"brute-limit", "N", cli_parse_positive_size, &a->brute_limit,
         "most plans timed per shape by --brute-force (default 200)"},
        {"tune", "LIST", cli_parse_tuning, &a->tuning,
         "tuning overrides NAME=VALUE,... for every plan (names as in 'clipt info')"},
    };
    if (!cli_parse_options(&cli_cmd_bench, opts, sizeof opts / sizeof opts[0], argc,
                           argv, NULL, 0, NULL, status))
        return 0;
    return validate_args(a, status);
}

/* ---- shapes ----------------------------------------------------------- */

static int shapes_push(shape_list *l, size_t rows, size_t cols)
{
    if (!grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return 0;
    l->v[l->n].rows = rows;
    l->v[l->n].cols = cols;
    l->n++;
    return 1;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t draw(uint64_t *state, range r)
{
    return r.lo + (size_t)(splitmix64(state) % (uint64_t)(r.hi - r.lo + 1));
}

static range clamp_range(size_t lo, size_t hi, size_t max_dim)
{
    range r = {lo, hi};
    if (max_dim && r.hi > max_dim) {
        const size_t half = max_dim / 2 + max_dim % 2;
        r.hi = max_dim;
        r.lo = r.lo < half ? r.lo : half;
    }
    return r;
}

static int random_shapes(const bench_args *a, shape_list *l)
{
    const size_t count = a->count ? a->count : DEFAULT_RANDOM_COUNT;
    const range side = clamp_range(1000, a->elem >= 8 ? 15000 : 20000, a->max_dim);
    const range lng = clamp_range(10000, 10000000, a->max_dim);
    const range shrt = clamp_range(2, 32, a->max_dim);
    uint64_t state = a->seed;
    for (size_t k = 0; k < count; k++) {
        size_t rows, cols;
        if (a->set == SET_GENERAL) {
            rows = draw(&state, side);
            cols = draw(&state, side);
        } else {
            const size_t l_side = draw(&state, lng), s_side = draw(&state, shrt);
            rows = k % 2 ? s_side : l_side;  /* even: AoS->SoA, odd: SoA->AoS */
            cols = k % 2 ? l_side : s_side;
        }
        if (!shapes_push(l, rows, cols))
            return 0;
    }
    return 1;
}

/* One line of a --shapes file; blank and comment-only lines add nothing. */
static int parse_shape_line(char *line, const bench_args *a, size_t lineno, shape_list *l)
{
    size_t rows = 0, cols = 0;
    int used = 0;
    line[strcspn(line, "#\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0')
        return CLI_EXIT_OK;
    if (strchr(line, '-') || sscanf(line, "%zu %zu %n", &rows, &cols, &used) != 2 ||
        line[used] != '\0' || rows == 0 || cols == 0)
        return cli_usage_error(&cli_cmd_bench, "%s:%zu: expected \"rows cols\", two "
                               "positive whole numbers", a->shapes_file, lineno);
    if (rows > SIZE_MAX / cols || rows * cols > SIZE_MAX / a->elem)
        return cli_usage_error(&cli_cmd_bench, "%s:%zu: %zu x %zu does not fit in memory",
                               a->shapes_file, lineno, rows, cols);
    if (!shapes_push(l, rows, cols)) {
        fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

static int read_shapes_file(const bench_args *a, shape_list *l)
{
    char line[512];
    size_t lineno = 0;
    int status = CLI_EXIT_OK;
    FILE *f = fopen(a->shapes_file, "r");
    if (!f)
        return cli_usage_error(&cli_cmd_bench, "cannot open '%s': %s", a->shapes_file,
                               strerror(errno));
    while (status == CLI_EXIT_OK && (!a->count || l->n < a->count) &&
           fgets(line, sizeof line, f))
        status = parse_shape_line(line, a, ++lineno, l);
    if (status == CLI_EXIT_OK && ferror(f))
        status = cli_usage_error(&cli_cmd_bench, "cannot read '%s'", a->shapes_file);
    fclose(f);
    if (status == CLI_EXIT_OK && l->n == 0)
        status = cli_usage_error(&cli_cmd_bench, "'%s' lists no shapes", a->shapes_file);
    return status;
}

static int make_shapes(const bench_args *a, shape_list *l)
{
    if (a->shapes_file)
        return read_shapes_file(a, l);
    if (random_shapes(a, l))
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: out of host memory for the shape list\n");
    return CLI_EXIT_FAILURE;
}

/* ---- device and host memory ------------------------------------------- */

static int query_limits(bench *b, bench_error *e)
{
    const cl_device_id d = b->s.cl.device;
    device_limits *l = &b->lim;
    return check(e, "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                 clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof l->max_alloc,
                                 &l->max_alloc, NULL)) &&
           check(e, "CL_DEVICE_GLOBAL_MEM_SIZE",
                 clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof l->global_mem,
                                 &l->global_mem, NULL)) &&
           check(e, "CL_DEVICE_LOCAL_MEM_SIZE",
                 clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof l->local_mem,
                                 &l->local_mem, NULL));
}

/* Prints why a shape is skipped and returns 0, or returns 1 if it fits. */
static int fits_device(const bench *b, const shape *sh, size_t buffer_bytes,
                       size_t scratch_bytes)
{
    const double need = 2.0 * (double)buffer_bytes + (double)scratch_bytes;
    const double room = MEMORY_SHARE * (double)b->lim.global_mem;
    if (buffer_bytes > b->lim.max_alloc) {
        fprintf(stderr, "clipt bench: skipping %zu x %zu: its buffer (%.1f MB) exceeds "
                "CL_DEVICE_MAX_MEM_ALLOC_SIZE (%.1f MB)\n", sh->rows, sh->cols,
                (double)buffer_bytes / 1e6, (double)b->lim.max_alloc / 1e6);
        return 0;
    }
    if (need > room) {
        fprintf(stderr, "clipt bench: skipping %zu x %zu: buffer, pristine copy and "
                "scratch need %.1f MB, more than 80%% of the device's %.1f MB\n",
                sh->rows, sh->cols, need / 1e6, (double)b->lim.global_mem / 1e6);
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
        return check(e, "host memory for the original matrix",
                     CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    hostmat_fill_range(p + b->pattern_count * elem, b->pattern_count,
                       count - b->pattern_count, elem);
    b->pattern = p;
    b->pattern_count = count;
    return 1;
}

static int ensure_readback(bench *b, size_t bytes, bench_error *e)
{
    unsigned char *p;
    if (bytes <= b->readback_bytes)
        return 1;
    free(b->readback); /* its contents are not needed: no realloc copy */
    b->readback = NULL;
    b->readback_bytes = 0;
    if (!(p = malloc(bytes)))
        return check(e, "host memory for the result", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
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
    return check(e, "clCreateBuffer", err);
}

static void release_buffers(shape_bufs *bf)
{
    if (bf->work)
        clReleaseMemObject(bf->work);
    if (bf->pristine)
        clReleaseMemObject(bf->pristine);
    bf->work = bf->pristine = NULL;
}

/* Work and pristine buffers; the pristine one holds the pattern and zeroed
 * padding room, as clipt run uploads it. */
static int prepare_buffers(bench *b, const shape *sh, shape_bufs *bf, bench_error *e)
{
    const cl_command_queue q = b->s.cl.queue;
    const unsigned char zero = 0;
    if (!create_buffer(b, bf->buffer_bytes, &bf->work, e) ||
        !create_buffer(b, bf->buffer_bytes, &bf->pristine, e) ||
        !ensure_pattern(b, sh->rows * sh->cols, e) ||
        !check(e, "uploading the matrix",
               clEnqueueWriteBuffer(q, bf->pristine, CL_FALSE, 0, bf->bytes, b->pattern, 0,
                                    NULL, NULL)))
        return 0;
    if (bf->buffer_bytes > bf->bytes &&
        !check(e, "zeroing the padding room",
               clEnqueueFillBuffer(q, bf->pristine, &zero, 1, bf->bytes,
                                   bf->buffer_bytes - bf->bytes, 0, NULL, NULL)))
        return 0;
    return check(e, "clFinish after the upload", clFinish(q));
}

/* ---- plans ------------------------------------------------------------ */

/* The text right after `key` in a plan description, or NULL. */
static const char *describe_field(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    return at ? at + strlen(key) : NULL;
}

static void read_plan_facts(clipt_plan p, const shape *sh, plan_facts *f)
{
    char text[16384] = "";
    const char *at;
    /* TRUNCATED still leaves a usable, terminated head of the text */
    clipt_plan_describe(p, text, sizeof text);
    snprintf(f->sequence, sizeof f->sequence, "?");
    f->m = f->n = 0;
    f->prows = sh->rows;
    f->pcols = sh->cols;
    if ((at = describe_field(text, "\nsequence: ")) != NULL && at[0] != '?')
        snprintf(f->sequence, sizeof f->sequence, "%.*s", (int)strcspn(at, " \n"), at);
    else if (at)
        snprintf(f->sequence, sizeof f->sequence, "none"); /* a vector: nothing moves */
    if ((at = describe_field(text, "\ntiles: ")) != NULL &&
        sscanf(at, "m=%zu n=%zu", &f->m, &f->n) != 2)
        f->m = f->n = 0;
    if ((at = describe_field(text, "\npadded shape: ")) != NULL &&
        sscanf(at, "%zu x %zu", &f->prows, &f->pcols) != 2) {
        f->prows = sh->rows;
        f->pcols = sh->cols;
    }
}

/* Statuses with which clipt_plan_create turns down a forced combination. */
static int is_rejection(clipt_status st)
{
    return st == CLIPT_ERROR_INCOMPATIBLE_OPTIONS || st == CLIPT_ERROR_INVALID_OPTION ||
           st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
}

/* ---- timed runs ------------------------------------------------------- */

static int event_seconds(cl_event ev, double *seconds, bench_error *e)
{
    cl_ulong t0 = 0, t1 = 0;
    if (!check(e, "clGetEventProfilingInfo",
               clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL)) ||
        !check(e, "clGetEventProfilingInfo",
               clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL)))
        return 0;
    *seconds = 1e-9 * (double)(t1 - t0);
    return 1;
}

/* Restores the original matrix (whole buffer, padding room included) and
 * waits, so that neither the copy nor its wait is timed. */
static int restore(const bench *b, const shape_bufs *bf, bench_error *e)
{
    const cl_command_queue q = b->s.cl.queue;
    return check(e, "restoring the matrix (clEnqueueCopyBuffer)",
                 clEnqueueCopyBuffer(q, bf->pristine, bf->work, 0, 0, bf->buffer_bytes, 0,
                                     NULL, NULL)) &&
           check(e, "clFinish after the restore", clFinish(q));
}

/* One timed transposition of the restored matrix.  With `shared`, only
 * enqueues that plan; without (single mode), creates the automatic plan
 * inside the host-timed region and releases it afterwards. */
static int timed_run(const bench *b, const shape *sh, const shape_bufs *bf,
                     clipt_plan shared, run_sample *out, bench_error *e)
{
    clipt_plan plan = shared;
    clipt_plan_options o;
    cl_event done = NULL;
    double t0;
    int ok = 0;
    if (!restore(b, bf, e))
        return 0;
    t0 = now_seconds();
    bench_options(b->a, &o);
    if (!plan && !check(e, "clipt_plan_create",
                        clipt_plan_create(b->s.cx, sh->rows, sh->cols, b->a->elem, &o,
                                          &plan)))
        goto cleanup;
    if (!check(e, "clipt_enqueue",
               clipt_enqueue(plan, b->s.cl.queue, bf->work, 0, 0, NULL, &done)) ||
        /* a kernel that failed on the device shows up here */
        !check(e, "waiting for the transposition", clWaitForEvents(1, &done)))
        goto cleanup;
    out->host_s = now_seconds() - t0;
    ok = check(e, "clipt_plan_profile",
               clipt_plan_profile(plan, &out->device_s, out->stage_s, MAX_STAGES,
                                  &out->num_stages));
cleanup:
    if (done)
        clReleaseEvent(done);
    if (plan != shared)
        clipt_plan_release(plan);
    return ok;
}

/* Reads the result back and compares it with the transpose of the pattern;
 * a wrong result is reported with the shape and `plan` (which plan). */
static int verify(bench *b, const shape *sh, const shape_bufs *bf, const plan_facts *plan,
                  const char *which, verdict *out, bench_error *e)
{
    size_t first = 0, wrong;
    if (!ensure_readback(b, bf->bytes, e) ||
        !check(e, "reading the result back",
               clEnqueueReadBuffer(b->s.cl.queue, bf->work, CL_TRUE, 0, bf->bytes,
                                   b->readback, 0, NULL, NULL)))
        return 0;
    wrong = hostmat_compare_transposed(b->readback, b->pattern, sh->rows, sh->cols,
                                       b->a->elem, b->threads, &first);
    *out = wrong ? WRONG : CORRECT;
    if (wrong)
        fprintf(stderr, "clipt bench: WRONG RESULT for %zu x %zu (%zu-byte elements, %s "
                "plan: sequence %s m=%zu n=%zu): %zu of %zu elements differ, first at "
                "row %zu, column %zu of the transpose\n", sh->rows, sh->cols, b->a->elem,
                which, plan->sequence, plan->m, plan->n, wrong, sh->rows * sh->cols,
                first / sh->rows, first % sh->rows);
    return 1;
}

/* Medians of the samples' device, host and stage times into r. */
static void summarise_runs(bench *b, size_t runs, shape_result *r)
{
    double *v = b->scratch;
    r->num_stages = b->runs[0].num_stages < MAX_STAGES ? b->runs[0].num_stages : MAX_STAGES;
    for (unsigned i = 0; i < r->num_stages; i++) {
        for (size_t k = 0; k < runs; k++)
            v[k] = b->runs[k].stage_s[i];
        r->stage_s[i] = percentile(v, runs, 0.5);
    }
    for (size_t k = 0; k < runs; k++)
        v[k] = b->runs[k].host_s;
    r->time_s = percentile(v, runs, 0.5);
    for (size_t k = 0; k < runs; k++)
        v[k] = b->runs[k].device_s;
    r->device_s = percentile(v, runs, 0.5);
    if (b->a->mode == MODE_REPEATED)
        r->time_s = r->device_s;
}

/* --repeat timed runs (plan NULL in single mode), the first one verified. */
static int time_runs(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                     shape_result *r, bench_error *e)
{
    for (size_t k = 0; k < b->a->repeat; k++) {
        if (!timed_run(b, sh, bf, plan, &b->runs[k], e))
            return 0;
        if (k == 0 && !b->a->no_verify &&
            !verify(b, sh, bf, &r->facts, "automatic", &r->check, e))
            return 0;
    }
    summarise_runs(b, b->a->repeat, r);
    return 1;
}

/* Device copy of a buffer of the matrix's size, pristine -> work. */
static int copy_bandwidth(bench *b, const shape_bufs *bf, shape_result *r, bench_error *e)
{
    for (size_t k = 0; k < b->a->repeat; k++) {
        cl_event ev = NULL;
        int ok = check(e, "clEnqueueCopyBuffer (copy bandwidth)",
                       clEnqueueCopyBuffer(b->s.cl.queue, bf->pristine, bf->work, 0, 0,
                                           bf->bytes, 0, NULL, &ev)) &&
                 check(e, "waiting for the copy", clWaitForEvents(1, &ev)) &&
                 event_seconds(ev, &b->scratch[k], e);
        if (ev)
            clReleaseEvent(ev);
        if (!ok)
            return 0;
    }
    r->copy_gbs = 2.0 * (double)bf->bytes / percentile(b->scratch, b->a->repeat, 0.5) / 1e9;
    return 1;
}

/* ---- brute force ------------------------------------------------------ */

static int push_size(size_t **v, size_t *n, size_t *cap, size_t x)
{
    if (!grow((void **)v, cap, *n + 1, sizeof **v))
        return 0;
    (*v)[(*n)++] = x;
    return 1;
}

/* Divisors of x in ascending order (malloc'd), count in *n; NULL when out
 * of memory. */
static size_t *divisors(size_t x, size_t *n)
{
    size_t *small = NULL, *all = NULL, ns = 0, cs = 0, na = 0, ca = 0;
    int ok = 1;
    for (size_t d = 1; ok && d <= x / d; d++)
        if (x % d == 0)
            ok = push_size(&small, &ns, &cs, d);
    for (size_t i = 0; ok && i < ns; i++)
        ok = push_size(&all, &na, &ca, small[i]);
    for (size_t i = ns; ok && i-- > 0;)
        if (x / small[i] != small[i])
            ok = push_size(&all, &na, &ca, x / small[i]);
    free(small);
    if (!ok) {
        free(all);
        return NULL;
    }
    *n = na;
    return all;
}

/* Larger m*n first; ties in a fixed order, so runs are reproducible. */
static int compare_candidates(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    const size_t pa = a->m * a->n, pb = b->m * b->n;
    if (pa != pb)
        return pa < pb ? 1 : -1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return (a->m > b->m) - (a->m < b->m);
}

static int is_auto(const candidate *c)
{
    return c->seq == CLIPT_SEQUENCE_AUTO;
}

/* The automatic candidate leaves everything to the plan; the others force
 * sequence and tiles, without padding. */
static void candidate_options(const bench_args *a, const candidate *c,
                              clipt_plan_options *o)
{
    bench_options(a, o);
    if (is_auto(c))
        return;
    o->sequence = c->seq;
    o->tile_m = c->m;
    o->tile_n = c->n;
    o->padding = CLIPT_PADDING_NONE;
}

static int same_as_auto(const candidate *c, const shape *sh, const plan_facts *f)
{
    return strcmp(sequence_name(c->seq), f->sequence) == 0 && c->m == f->m &&
           c->n == f->n && f->prows == sh->rows && f->pcols == sh->cols;
}

static int push_candidate(candidate_list *l, candidate c)
{
    if (!grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return 0;
    l->v[l->n++] = c;
    return 1;
}

/* Adds the candidates of one sequence: 2.1 tiles m x N (n = cols), 2.2
 * M x n (m = rows), 3.x every pair; each tile within local memory. */
static int add_sequence(const bench *b, const shape *sh, const plan_facts *auto_facts,
                        clipt_sequence seq, const size_t *dr, size_t nr, const size_t *dc,
                        size_t nc, candidate_list *l)
{
    const size_t lm_elems = (size_t)(b->lim.local_mem / b->a->elem);
    const size_t *ms = seq == CLIPT_SEQUENCE_2_2 ? &sh->rows : dr;
    const size_t *ns = seq == CLIPT_SEQUENCE_2_1 ? &sh->cols : dc;
    const size_t nm = seq == CLIPT_SEQUENCE_2_2 ? 1 : nr;
    const size_t nn = seq == CLIPT_SEQUENCE_2_1 ? 1 : nc;
    for (size_t i = 0; i < nm; i++)
        for (size_t j = 0; j < nn && ns[j] <= lm_elems / ms[i]; j++) {
            const candidate c = {seq, ms[i], ns[j]};
            /* the automatic plan is candidate 0 already */
            if (!same_as_auto(&c, sh, auto_facts) && !push_candidate(l, c))
                return 0;
        }
    return 1;
}

/* The automatic plan first, then the forced ones, largest m*n first. */
static int build_candidates(const bench *b, const shape *sh, const plan_facts *auto_facts,
                            candidate_list *l, bench_error *e)
{
    static const clipt_sequence seqs[] = {CLIPT_SEQUENCE_2_1, CLIPT_SEQUENCE_2_2,
                                          CLIPT_SEQUENCE_3_1, CLIPT_SEQUENCE_3_2};
    const candidate automatic = {CLIPT_SEQUENCE_AUTO, 0, 0};
    size_t nr = 0, nc = 0;
    size_t *dr = divisors(sh->rows, &nr), *dc = divisors(sh->cols, &nc);
    int ok = dr && dc && push_candidate(l, automatic);
    for (size_t i = 0; ok && i < sizeof seqs / sizeof seqs[0]; i++)
        ok = add_sequence(b, sh, auto_facts, seqs[i], dr, nr, dc, nc, l);
    free(dr);
    free(dc);
    if (!ok)
        return check(e, "host memory for brute-force candidates",
                     CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    qsort(l->v + 1, l->n - 1, sizeof *l->v, compare_candidates);
    return 1;
}

/* Plan factory: clipt_plan_create walks cycles on the host and builds
 * programs, which costs more than timing a plan on a GPU, so worker threads
 * create the candidates' plans ahead (at most `window` beyond the one being
 * timed) while the main thread times them in order.  The context is
 * thread-safe; each plan has its own kernels. */
typedef struct plan_slot {
    clipt_plan plan;
    clipt_status st;
    double create_s;
    int claimed, ready;
} plan_slot;

typedef struct plan_factory {
    const bench *b;
    const shape *sh;
    const candidate_list *l;
    plan_slot *slots;
    size_t next, taken, window;
    int stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t ids[MAX_VERIFY_THREADS];
    unsigned threads;
} plan_factory;

/* Creates slot i's plan; called without the lock, stores under it. */
static void factory_create(plan_factory *f, size_t i)
{
    clipt_plan_options o;
    clipt_plan plan = NULL;
    const double t0 = now_seconds();
    clipt_status st;
    candidate_options(f->b->a, &f->l->v[i], &o);
    st = clipt_plan_create(f->b->s.cx, f->sh->rows, f->sh->cols, f->b->a->elem, &o, &plan);
    pthread_mutex_lock(&f->lock);
    f->slots[i].plan = plan;
    f->slots[i].st = st;
    f->slots[i].create_s = now_seconds() - t0;
    f->slots[i].ready = 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
}

static void *factory_worker(void *arg)
{
    plan_factory *f = arg;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        size_t i;
        while (!f->stop && f->next < f->l->n && f->next >= f->taken + f->window)
            pthread_cond_wait(&f->cond, &f->lock);
        if (f->stop || f->next >= f->l->n)
            break;
        i = f->next++;
        f->slots[i].claimed = 1;
        pthread_mutex_unlock(&f->lock);
        factory_create(f, i);
        pthread_mutex_lock(&f->lock);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

static int factory_start(plan_factory *f, const bench *b, const shape *sh,
                         const candidate_list *l, bench_error *e)
{
    memset(f, 0, sizeof *f);
    f->b = b;
    f->sh = sh;
    f->l = l;
    f->window = b->threads;
    if (!(f->slots = calloc(l->n, sizeof *f->slots)))
        return check(e, "host memory for brute-force plans", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    if (pthread_mutex_init(&f->lock, NULL) != 0) {
        free(f->slots);
        return check(e, "pthread_mutex_init", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    }
    if (pthread_cond_init(&f->cond, NULL) != 0) {
        pthread_mutex_destroy(&f->lock);
        free(f->slots);
        return check(e, "pthread_cond_init", CLIPT_ERROR_OUT_OF_HOST_MEMORY);
    }
    /* threads that cannot start leave their work to factory_take */
    while (f->threads < b->threads &&
           pthread_create(&f->ids[f->threads], NULL, factory_worker, f) == 0)
        f->threads++;
    return 1;
}

/* Hands slot i over (plan, status, creation time), creating it here when
 * no worker has claimed it yet. */
static plan_slot factory_take(plan_factory *f, size_t i)
{
    plan_slot s;
    pthread_mutex_lock(&f->lock);
    if (!f->slots[i].claimed && f->next == i) {
        f->next++;
        f->slots[i].claimed = 1;
        pthread_mutex_unlock(&f->lock);
        factory_create(f, i);
        pthread_mutex_lock(&f->lock);
    }
    while (!f->slots[i].ready)
        pthread_cond_wait(&f->cond, &f->lock);
    s = f->slots[i];
    f->slots[i].plan = NULL;
    f->taken = i + 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
    return s;
}

/* Stops the workers and releases the plans nobody took. */
static void factory_stop(plan_factory *f)
{
    pthread_mutex_lock(&f->lock);
    f->stop = 1;
    pthread_cond_broadcast(&f->cond);
    pthread_mutex_unlock(&f->lock);
    for (unsigned t = 0; t < f->threads; t++)
        pthread_join(f->ids[t], NULL);
    for (size_t i = 0; i < f->l->n; i++)
        clipt_plan_release(f->slots[i].plan);
    pthread_cond_destroy(&f->cond);
    pthread_mutex_destroy(&f->lock);
    free(f->slots);
}

/* Device seconds of one plan: a warm-up run, then one timed run, or the
 * median of --repeat when the warm-up was cheap. */
static int time_plan(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                     double *seconds, bench_error *e)
{
    run_sample warm;
    size_t runs;
    if (!timed_run(b, sh, bf, plan, &warm, e))
        return 0;
    runs = warm.device_s < BRUTE_CHEAP_SECONDS ? b->a->repeat : 1;
    for (size_t k = 0; k < runs; k++) {
        if (!timed_run(b, sh, bf, plan, &b->runs[k], e))
            return 0;
        b->scratch[k] = b->runs[k].device_s;
    }
    *seconds = percentile(b->scratch, runs, 0.5);
    return 1;
}

/* Times candidate c from its slot and keeps the best; a combination that
 * clipt_plan_create turned down only counts as rejected. */
static int try_plan(bench *b, const shape *sh, const shape_bufs *bf, const candidate *c,
                    plan_slot *s, shape_result *r, bench_error *e)
{
    double seconds = 0, gbs;
    plan_facts f;
    int ok;
    r->create_s += s->create_s;
    if (!is_auto(c) && is_rejection(s->st)) {
        r->rejected++;
        return 1;
    }
    if (!check(e, "clipt_plan_create (brute force)", s->st))
        return 0;
    read_plan_facts(s->plan, sh, &f);
    ok = time_plan(b, sh, bf, s->plan, &seconds, e);
    clipt_plan_release(s->plan);
    if (!ok)
        return 0;
    r->tried++;
    gbs = gb_per_s(sh, b->a->elem, seconds);
    if (is_auto(c))
        r->auto_gbs = gbs;
    if (gbs > r->best_gbs) {
        r->best_gbs = gbs;
        r->best = f;
        r->best_cand = *c;
    }
    return 1;
}

/* Runs the best forced plan once more and checks its result: a plan that
 * is fast because it is wrong must not pass for the best.  (The automatic
 * plan was checked by the timed runs.) */
static int verify_best(bench *b, const shape *sh, const shape_bufs *bf, shape_result *r,
                       bench_error *e)
{
    clipt_plan_options o;
    clipt_plan plan = NULL;
    run_sample run;
    int ok;
    if (is_auto(&r->best_cand) || b->a->no_verify)
        return 1;
    candidate_options(b->a, &r->best_cand, &o);
    if (!check(e, "clipt_plan_create (brute-force best)",
               clipt_plan_create(b->s.cx, sh->rows, sh->cols, b->a->elem, &o, &plan)))
        return 0;
    ok = timed_run(b, sh, bf, plan, &run, e) &&
         verify(b, sh, bf, &r->best, "brute-force best", &r->best_check, e);
    clipt_plan_release(plan);
    return ok;
}

static int brute_force(bench *b, const shape *sh, const shape_bufs *bf, shape_result *r,
                       bench_error *e)
{
    candidate_list l = {NULL, 0, 0};
    plan_factory f;
    const double t0 = now_seconds();
    int ok = build_candidates(b, sh, &r->facts, &l, e), started;
    started = ok = ok && factory_start(&f, b, sh, &l, e);
    for (size_t i = 0; ok && i < l.n && r->tried < b->a->brute_limit; i++) {
        plan_slot s = factory_take(&f, i);
        ok = try_plan(b, sh, bf, &l.v[i], &s, r, e);
    }
    if (started)
        factory_stop(&f);
    free(l.v);
    ok = ok && verify_best(b, sh, bf, r, e);
    r->brute_s = now_seconds() - t0;
    return ok;
}

/* ---- one shape -------------------------------------------------------- */

static shape_outcome skip_unplannable(const shape *sh, clipt_status st)
{
    fprintf(stderr, "clipt bench: skipping %zu x %zu: %s\n", sh->rows, sh->cols,
            clipt_status_string(st));
    return SHAPE_SKIPPED;
}

/* A vector's transpose has the same bytes: no stage runs, no time to rate. */
static shape_outcome skip_vector(const shape *sh)
{
    fprintf(stderr, "clipt bench: skipping %zu x %zu: a single row or column, nothing "
            "moves\n", sh->rows, sh->cols);
    return SHAPE_SKIPPED;
}

static int measure(bench *b, const shape *sh, shape_bufs *bf, clipt_plan plan,
                   shape_result *r, bench_error *e)
{
    if (!prepare_buffers(b, sh, bf, e) || !time_runs(b, sh, bf, plan, r, e) ||
        !copy_bandwidth(b, bf, r, e))
        return 0;
    if (b->a->brute_force && !brute_force(b, sh, bf, r, e))
        return 0;
    r->gbs = gb_per_s(sh, b->a->elem, r->time_s);
    r->ratio = r->copy_gbs > 0 ? r->gbs / r->copy_gbs : 0;
    return 1;
}

static shape_outcome bench_shape(bench *b, const shape *sh, shape_result *r)
{
    clipt_plan plan = NULL;
    clipt_plan_options o;
    shape_bufs bf = {NULL, NULL, sh->rows * sh->cols * b->a->elem, 0};
    bench_error e = {NULL, CLIPT_SUCCESS};
    shape_outcome out = SHAPE_FAILED;
    clipt_status st;
    memset(r, 0, sizeof *r);
    r->sh = *sh;
    if (sh->rows == 1 || sh->cols == 1)
        return skip_vector(sh);
    /* the automatic plan tells the buffer size and builds the programs
     * (so single mode's plans find them in the context's cache) */
    bench_options(b->a, &o);
    st = clipt_plan_create(b->s.cx, sh->rows, sh->cols, b->a->elem, &o, &plan);
    if (st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS || st == CLIPT_ERROR_SHAPE_OVERFLOW)
        return skip_unplannable(sh, st);
    if (!check(&e, "clipt_plan_create", st))
        goto cleanup;
    read_plan_facts(plan, sh, &r->facts);
    bf.buffer_bytes = clipt_plan_buffer_size(plan);
    if (!fits_device(b, sh, bf.buffer_bytes, clipt_plan_scratch_size(plan))) {
        out = SHAPE_SKIPPED;
        goto cleanup;
    }
    if (b->a->mode == MODE_SINGLE) {
        clipt_plan_release(plan);
        plan = NULL;
    }
    if (measure(b, sh, &bf, plan, r, &e))
        out = SHAPE_MEASURED;
cleanup:
    if (out == SHAPE_FAILED) {
        char what[160];
        snprintf(what, sizeof what, "%zu x %zu: %s", sh->rows, sh->cols, e.what);
        cli_report(cli_cmd_bench.name, b->s.cx, what, e.st);
    }
    release_buffers(&bf);
    clipt_plan_release(plan);
    return out;
}

/* ---- output ----------------------------------------------------------- */

static const char csv_header[] =
    "rows,cols,elem,sequence,m,n,padded_rows,padded_cols,time_ms,gbs,copy_gbs,ratio,"
    "verified,stages_ms,mode,device_ms,best_gbs,best_sequence,best_m,best_n,auto_best,"
    "best_verified\n";

static const char *mode_name(bench_mode m)
{
    return m == MODE_SINGLE ? "single" : "repeated";
}

static void print_brute(const bench *b, const shape_result *r)
{
    printf("  auto/best %.1f %% (best %.2f GB/s: %s m=%zu n=%zu%s%s; %zu plans, "
           "%zu rejected; %.1f s, clipt_plan_create %.1f s on %u threads)",
           r->best_gbs > 0 ? 100 * r->auto_gbs / r->best_gbs : 0, r->best_gbs,
           r->best.sequence, r->best.m, r->best.n,
           is_auto(&r->best_cand) ? ", automatic" : ", verified ",
           is_auto(&r->best_cand) ? "" : verdict_name(r->best_check), r->tried, r->rejected,
           r->brute_s, r->create_s, b->threads);
}

static void print_shape(const bench *b, const shape_result *r)
{
    const plan_facts *f = &r->facts;
    printf("%zu x %zu  seq %s  m=%zu n=%zu  padded %zu x %zu  %.3f ms", r->sh.rows,
           r->sh.cols, f->sequence, f->m, f->n, f->prows, f->pcols, 1e3 * r->time_s);
    if (b->a->mode == MODE_SINGLE)
        printf(" (device %.3f ms)", 1e3 * r->device_s);
    printf("  %.2f GB/s  copy %.2f GB/s  ratio %.1f %%  verified %s", r->gbs, r->copy_gbs,
           100 * r->ratio, verdict_name(r->check));
    if (b->a->brute_force)
        print_brute(b, r);
    printf("\n");
    fflush(stdout);
}

static void write_csv_row(const bench *b, const shape_result *r)
{
    const plan_facts *f = &r->facts;
    FILE *c = b->csv;
    fprintf(c, "%zu,%zu,%zu,%s,%zu,%zu,%zu,%zu,%.6f,%.4f,%.4f,%.6f,%s,", r->sh.rows,
            r->sh.cols, b->a->elem, f->sequence, f->m, f->n, f->prows, f->pcols,
            1e3 * r->time_s, r->gbs, r->copy_gbs, r->ratio, verdict_name(r->check));
    for (unsigned i = 0; i < r->num_stages; i++)
        fprintf(c, "%s%.6f", i ? ";" : "", 1e3 * r->stage_s[i]);
    fprintf(c, ",%s,%.6f,", mode_name(b->a->mode), 1e3 * r->device_s);
    if (b->a->brute_force && r->best_gbs > 0)
        fprintf(c, "%.4f,%s,%zu,%zu,%.6f,%s\n", r->best_gbs, r->best.sequence, r->best.m,
                r->best.n, r->auto_gbs / r->best_gbs,
                verdict_name(is_auto(&r->best_cand) ? r->check : r->best_check));
    else
        fprintf(c, ",,,,,\n");
}

static void record(bench *b, const shape_result *r)
{
    series *s = &b->sr;
    print_shape(b, r);
    if (b->csv)
        write_csv_row(b, r);
    s->gbs[s->measured] = r->gbs;
    s->copy_gbs[s->measured] = r->copy_gbs;
    s->ratio[s->measured] = 100 * r->ratio;
    s->measured++;
    if (b->a->brute_force && r->best_gbs > 0)
        s->auto_best[s->brute++] = 100 * r->auto_gbs / r->best_gbs;
    b->verified += r->check != NOT_CHECKED;
    b->correct += r->check == CORRECT;
    b->wrong_best += r->best_check == WRONG;
}

static void print_summary(bench *b)
{
    series *s = &b->sr;
    const size_t n = s->measured;
    printf("mode %s: %s; %zu shapes measured, %zu skipped, %zu failed\n",
           mode_name(b->a->mode),
           b->a->mode == MODE_SINGLE
               ? "each run creates, enqueues, waits for and releases the plan (host clock)"
               : "plan created once per shape (device time, clipt_plan_profile)",
           n, b->skipped, b->failed);
    if (n == 0) {
        printf("median - GB/s  p10 -  p90 -  copy - GB/s  median/copy - %%  verified %zu/%zu\n"
               "ratio median - %%  p10 - %%  p90 - %%\n", b->correct, b->verified);
        return;
    }
    printf("median %.2f GB/s  p10 %.2f  p90 %.2f  copy %.2f GB/s  median/copy %.1f %%  "
           "verified %zu/%zu\n", percentile(s->gbs, n, 0.5), percentile(s->gbs, n, 0.1),
           percentile(s->gbs, n, 0.9), percentile(s->copy_gbs, n, 0.5),
           percentile(s->ratio, n, 0.5), b->correct, b->verified);
    printf("ratio median %.1f %%  p10 %.1f %%  p90 %.1f %%\n", percentile(s->ratio, n, 0.5),
           percentile(s->ratio, n, 0.1), percentile(s->ratio, n, 0.9));
    if (s->brute)
        printf("auto/best median %.1f %%  p10 %.1f %%  p90 %.1f %%  (%zu shapes)\n",
               percentile(s->auto_best, s->brute, 0.5),
               percentile(s->auto_best, s->brute, 0.1),
               percentile(s->auto_best, s->brute, 0.9), s->brute);
}

/* ---- histogram -------------------------------------------------------- */

static const char *plot_script(void)
{
    const char *env = getenv("CLIPT_PLOT_SCRIPT");
    if (env && env[0])
        return env;
#ifdef CLIPT_PLOT_SCRIPT
    if (access(CLIPT_PLOT_SCRIPT, R_OK) == 0)
        return CLIPT_PLOT_SCRIPT;
#endif
    return "tuning/plot_hist.py";
}

/* Runs python3 plot_hist.py CSV PNG --title ...; never fails the bench.
 * posix_spawn wants writable argument strings: they are copied. */
static void draw_histogram(const bench *b, const char *csv_path)
{
    static char python[] = "python3", flag[] = "--title";
    char script[4096], csv[4096], png[4096], title[768];
    char *argv[] = {python, script, csv, png, flag, title, NULL};
    pid_t pid;
    int rc, wstatus = 0;
    snprintf(script, sizeof script, "%s", plot_script());
    snprintf(csv, sizeof csv, "%s", csv_path);
    snprintf(png, sizeof png, "%s", b->a->png);
    snprintf(title, sizeof title, "clipt bench: %s, %s set, %zu-byte elements, %s mode",
             b->s.cl.device_name, b->set_name, b->a->elem, mode_name(b->a->mode));
    fflush(stdout);
    fflush(stderr);
    rc = posix_spawnp(&pid, python, NULL, NULL, argv, environ);
    if (rc != 0) {
        fprintf(stderr, "png: not written: cannot run python3 (%s)\n", strerror(rc));
        return;
    }
    if (waitpid(pid, &wstatus, 0) < 0 || !WIFEXITED(wstatus)) {
        fprintf(stderr, "png: not written: %s did not finish\n", script);
        return;
    }
    rc = WEXITSTATUS(wstatus);
    if (rc == 0)
        printf("png: %s\n", png);
    else if (rc == 127)
        fprintf(stderr, "png: not written: python3 not found\n");
    else if (rc != PLOT_EXIT_NO_MATPLOTLIB) /* that one has said why itself */
        fprintf(stderr, "png: not written: %s exited with status %d\n", script, rc);
}

/* ---- the subcommand --------------------------------------------------- */

/* Opens --csv, or a temporary CSV when only --png wants one. */
static int open_csv(bench *b, char *tmp_path, size_t len)
{
    const char *dir = getenv("TMPDIR");
    int fd;
    tmp_path[0] = '\0';
    if (b->a->csv) {
        if (!(b->csv = fopen(b->a->csv, "w")))
            return cli_usage_error(&cli_cmd_bench, "cannot write '%s': %s", b->a->csv,
                                   strerror(errno));
    } else if (b->a->png) {
        snprintf(tmp_path, len, "%s/clipt-bench-XXXXXX", dir && dir[0] ? dir : "/tmp");
        if ((fd = mkstemp(tmp_path)) < 0 || !(b->csv = fdopen(fd, "w"))) {
            fprintf(stderr, "clipt bench: cannot create a temporary CSV for --png: %s\n",
                    strerror(errno));
            if (fd >= 0)
                close(fd);
            tmp_path[0] = '\0';
            return CLI_EXIT_FAILURE;
        }
    }
    if (b->csv)
        fputs(csv_header, b->csv);
    return CLI_EXIT_OK;
}

static int close_csv(bench *b)
{
    int bad;
    if (!b->csv)
        return CLI_EXIT_OK;
    bad = ferror(b->csv) | fclose(b->csv);
    b->csv = NULL;
    if (!bad)
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: writing %s failed\n", b->a->csv ? b->a->csv : "the CSV");
    return CLI_EXIT_FAILURE;
}

static int allocate_series(bench *b, size_t shapes)
{
    series *s = &b->sr;
    const size_t repeat = b->a->repeat;
    s->gbs = calloc(shapes, sizeof *s->gbs);
    s->copy_gbs = calloc(shapes, sizeof *s->copy_gbs);
    s->ratio = calloc(shapes, sizeof *s->ratio);
    s->auto_best = calloc(shapes, sizeof *s->auto_best);
    b->runs = calloc(repeat, sizeof *b->runs);
    b->scratch = calloc(repeat, sizeof *b->scratch);
    if (s->gbs && s->copy_gbs && s->ratio && s->auto_best && b->runs && b->scratch)
        return CLI_EXIT_OK;
    fprintf(stderr, "clipt bench: out of host memory for %zu shapes\n", shapes);
    return CLI_EXIT_FAILURE;
}

static void free_bench(bench *b)
{
    free(b->sr.gbs);
    free(b->sr.copy_gbs);
    free(b->sr.ratio);
    free(b->sr.auto_best);
    free(b->runs);
    free(b->scratch);
    free(b->pattern);
    free(b->readback);
    if (b->csv)
        fclose(b->csv);
}

static const char *set_name(const bench_args *a)
{
    const char *slash;
    if (a->set == SET_GENERAL)
        return "general";
    if (a->set == SET_SKINNY)
        return "skinny";
    slash = strrchr(a->shapes_file, '/');
    return slash ? slash + 1 : a->shapes_file;
}

static unsigned verify_threads(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned long)n < MAX_VERIFY_THREADS ? (unsigned)n : MAX_VERIFY_THREADS;
}

static void print_header(const bench *b, size_t shapes)
{
    printf("device: %s (%s)\n", b->s.cl.device_name, b->s.cl.platform_name);
    printf("set: %s", b->set_name);
    if (!b->a->shapes_file)
        printf(" (seed %llu%s)", (unsigned long long)b->a->seed,
               b->a->max_dim ? ", --max-dim" : "");
    printf(", %zu shapes, %zu-byte elements, %zu run%s per shape, mode %s%s\n", shapes,
           b->a->elem, b->a->repeat, b->a->repeat == 1 ? "" : "s", mode_name(b->a->mode),
           b->a->brute_force ? ", brute force" : "");
    fflush(stdout);
}

static void run_shapes(bench *b, const shape_list *l)
{
    shape_result r;
    for (size_t i = 0; i < l->n; i++) {
        fprintf(stderr, "[%zu/%zu] %zux%zu ...\n", i + 1, l->n, l->v[i].rows, l->v[i].cols);
        switch (bench_shape(b, &l->v[i], &r)) {
        case SHAPE_MEASURED: record(b, &r); break;
        case SHAPE_SKIPPED: b->skipped++; break;
        case SHAPE_FAILED: b->failed++; break;
        }
    }
}

static int open_bench(bench *b, const shape_list *l, char *tmp_csv, size_t len)
{
    bench_error e = {NULL, CLIPT_SUCCESS};
    int status;
    if ((status = allocate_series(b, l->n)) != CLI_EXIT_OK ||
        (status = open_csv(b, tmp_csv, len)) != CLI_EXIT_OK ||
        (status = cli_session_open(&b->s)) != CLI_EXIT_OK)
        return status;
    if (!query_limits(b, &e)) {
        status = cli_report(cli_cmd_bench.name, NULL, e.what, e.st);
        cli_session_close(&b->s);
    }
    return status;
}

static int bench_main(int argc, char **argv)
{
    bench_args a = {NULL, SET_NONE, 0, 1, 0, 4, 5, NULL, NULL, 0, MODE_REPEATED, 0, 200, NULL};
    shape_list shapes = {NULL, 0, 0};
    bench b;
    char tmp_csv[512] = "";
    int status;
    memset(&b, 0, sizeof b);
    if (cli_bench_wants_host(argc, argv))
        return cli_bench_host_main(argc, argv);
    if (!parse_bench_args(argc, argv, &a, &status))
        return status;
    b.a = &a;
    b.set_name = set_name(&a);
    b.threads = verify_threads();
    if ((status = make_shapes(&a, &shapes)) != CLI_EXIT_OK ||
        (status = open_bench(&b, &shapes, tmp_csv, sizeof tmp_csv)) != CLI_EXIT_OK)
        goto cleanup;
    print_header(&b, shapes.n);
    run_shapes(&b, &shapes);
    print_summary(&b);
    status = close_csv(&b);
    if (a.png && status == CLI_EXIT_OK)
        draw_histogram(&b, a.csv ? a.csv : tmp_csv); /* its title names the device */
    cli_session_close(&b.s);
    if (b.failed)
        status = CLI_EXIT_FAILURE;
    if (b.correct < b.verified || b.wrong_best)
        status = CLI_EXIT_WRONG;
cleanup:
    if (tmp_csv[0])
        remove(tmp_csv);
    free(shapes.v);
    free_bench(&b);
    return status;
}

const cli_command cli_cmd_bench = {
    "bench", "(--shapes FILE | --random general|skinny) [options]",
    "throughput of automatic plans over many shapes, vs copy bandwidth",
    bench_description, bench_main,
};
