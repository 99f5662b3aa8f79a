/* clipt bench, shared between its files: the types of one bench and the
 * functions each part offers the others.  The parts, in the order data
 * flows through them (each uses only those above it):
 *
 *   bench_args.c     options, their help text, the options of every plan
 *   bench_shapes.c   the shape list: random sets, --permute, a file
 *   bench_device.c   device limits, buffers, host pattern, plan facts
 *   bench_timing.c   timed runs, the bit-exact check, copy bandwidth
 *   bench_factory.c  plans created ahead on worker threads
 *   bench_brute.c    --brute-force: candidates, their timing, the best
 *   bench_report.c   per-shape lines, CSV, summary, histogram
 *   cmd_bench.c      the subcommand: one shape after another
 *
 * Only the public clipt API is used. */
#ifndef CLIPT_CLI_BENCH_H
#define CLIPT_CLI_BENCH_H

#include "cli.h"
#include "plan_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BENCH_MAX_STAGES 8
#define BENCH_MAX_THREADS 8u

/* ---- types ------------------------------------------------------------ */

typedef enum { SET_NONE, SET_GENERAL, SET_SKINNY, SET_TENSOR } shape_set;
typedef enum { MODE_REPEATED, MODE_SINGLE, MODE_ONESHOT } bench_mode;
typedef enum { NOT_CHECKED, CORRECT, WRONG } verdict;

/* One case of the bench.  Every case is an axis permutation; 2-D is the
 * special case: a rows x cols transposition is dims {rows, cols}, axes
 * {1, 0}, and keeps its sides in rows and cols for what only 2-D plans do
 * (--brute-force, --mode oneshot, the blocked check). */
typedef struct shape {
    plan_text_permutation nd;
    size_t rows, cols;   /* a matrix transposition's sides; else 0, 0     */
    size_t count;        /* elements                                      */
} shape;

typedef struct shape_list {
    shape *v;
    size_t n, cap;
} shape_list;

typedef struct bench_args {
    const char *shapes_file;
    shape_set set;
    shape_list permute;  /* --permute cases, in order                     */
    size_t count;        /* 0: every line of the file / the default count  */
    uint64_t seed;
    size_t max_dim;      /* 0: the papers' ranges unchanged                */
    size_t max_bytes;    /* --random tensor: 0, the range unchanged        */
    int list;            /* --list: print the cases, run nothing           */
    size_t elem, repeat;
    const char *csv, *png;
    int no_verify;
    bench_mode mode;
    int brute_force;
    size_t brute_limit;
    const char *tuning;  /* --tune list for every plan, or NULL           */
    clipt_tile_rule tile_rule; /* --tile-rule for every automatic plan     */
    clipt_algorithm algorithm; /* --algorithm for every plan              */
    clipt_padding padding;     /* --padding for every automatic plan       */
} bench_args;

/* What the report says of a plan (clipt_plan_query). */
typedef struct plan_facts {
    clipt_sequence seq;
    const char *sequence;  /* its name; "none" for a plan that moves nothing,
                              "nd" for a permutation that is not one 2-D
                              transposition                             */
    size_t m, n, prows, pcols;
    unsigned passes, stages;
    double predicted_s;    /* the cost model's device time (0: none)        */
} plan_facts;

typedef struct run_sample {
    double host_s, device_s;
    double stage_s[BENCH_MAX_STAGES];
    unsigned num_stages;
} run_sample;

/* A plan of the brute-force search; seq AUTO: the automatic plan. */
typedef struct candidate {
    clipt_sequence seq;
    size_t m, n;        /* a factor that does not divide its side pads it */
    double rank;        /* order of timing: distance to the automatic plan */
    clipt_algorithm algorithm; /* not AUTO: that algorithm's automatic plan */
} candidate;

typedef struct shape_result {
    shape sh;
    plan_facts facts;
    double time_s;       /* reported: device (repeated), host (single,
                            oneshot)                                       */
    double device_s;     /* device only (oneshot: the repeated plan's)     */
    double first_s;      /* oneshot: the shape's first call, host clock    */
    double plan_host_s;  /* oneshot: the kept plan's enqueue + wait, host
                            clock (what a blocking call cannot go below)   */
    double stage_s[BENCH_MAX_STAGES];
    unsigned num_stages;
    double gbs, copy_gbs, ratio;
    verdict check;
    /* --brute-force */
    size_t tried, rejected;
    double brute_s, create_s;  /* wall time of the search, of its creates */
    double auto_gbs, best_gbs;
    plan_facts best;
    candidate best_cand;  /* bench_is_auto: the automatic plan */
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
    size_t bytes;        /* elements * elem                                */
    size_t buffer_bytes; /* clipt_plan_buffer_size: room for padding       */
} shape_bufs;

/* Per-shape series that the summary takes percentiles of. */
typedef struct series {
    double *gbs, *copy_gbs, *ratio, *auto_best;
    double *model_error;  /* |predicted / measured device time - 1|, %     */
    double *oneshot, *first; /* oneshot: median call / first call over the
                                repeated device time                      */
    double *vs_host;      /* oneshot: median call / the kept plan's host time */
    double first_call_s;  /* oneshot: the run's first clipt_transpose     */
    size_t measured, brute, predicted;
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

/* ---- small helpers ---------------------------------------------------- */

/* Records the first failure; returns 1 when st is a success. */
static inline int bench_check(bench_error *e, const char *what, clipt_status st)
{
    if (st == CLIPT_SUCCESS)
        return 1;
    e->what = what;
    e->st = st;
    return 0;
}

/* Grows *v (elements of `size` bytes) to hold at least `need`. */
static inline int bench_grow(void **v, size_t *cap, size_t need, size_t size)
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

/* ---- bench_args.c ----------------------------------------------------- */

extern const char bench_description[];

/* Parses argv into *a for `cmd`; 0 with *status set when the command
 * should not go on (help printed, or a usage error). */
int bench_parse_args(const cli_command *cmd, int argc, char **argv, bench_args *a,
                     int *status);

/* Defaults plus the --tune overrides: the options of every plan. */
void bench_options(const bench_args *a, clipt_plan_options *o);

/* ---- bench_shapes.c --------------------------------------------------- */

/* --permute's value: one or more DIMS:AXES, separated by blanks or ';',
 * appended to the shape_list target (the option may be repeated). */
const char *bench_parse_permute(const char *text, void *shape_list_target);

/* The shapes of --shapes, --random or --permute; returns an exit status. */
int bench_make_shapes(const cli_command *cmd, const bench_args *a, shape_list *l);

/* --list: the cases, one a line, in the forms --shapes reads. */
void bench_print_shapes(const shape_list *l);

/* "407 x 300" for a matrix, "64x256x56x56:0,2,3,1" for another case. */
void bench_shape_name(const shape *sh, char *buf, size_t len);

/* The shape's plan (clipt_plan_create_permute: a matrix's is
 * clipt_plan_create's). */
clipt_status bench_plan_create(const bench *b, const shape *sh, const clipt_plan_options *o,
                               clipt_plan *out);

/* ---- bench_device.c --------------------------------------------------- */

int bench_query_limits(bench *b, bench_error *e);
/* Whether the session's context and queue still work (a small write and
 * read back): after some failures (a kernel fault, an out-of-range
 * command) a runtime marks the context unusable, and every later command
 * fails. */
int bench_session_healthy(bench *b);

/* Prints why a shape is skipped and returns 0, or returns 1 if it fits. */
int bench_fits_device(const bench *b, const shape *sh, size_t buffer_bytes,
                      size_t scratch_bytes);

/* Work and pristine buffers; the pristine one holds the pattern and zeroed
 * padding room, as clipt run uploads it. */
int bench_prepare_buffers(bench *b, const shape *sh, shape_bufs *bf, bench_error *e);
void bench_release_buffers(shape_bufs *bf);

/* A host buffer of at least `bytes` in b->readback. */
int bench_ensure_readback(bench *b, size_t bytes, bench_error *e);

void bench_plan_facts(clipt_plan p, const shape *sh, plan_facts *f);

/* ---- bench_timing.c --------------------------------------------------- */

/* 2 * elements * elem bytes over `seconds`, in GB/s (0 for no time). */
double bench_gbs(const shape *sh, size_t elem, double seconds);

/* One timed transposition of the restored matrix.  With `shared`, only
 * enqueues that plan; without (single mode), creates the automatic plan
 * inside the host-timed region and releases it afterwards. */
int bench_timed_run(const bench *b, const shape *sh, const shape_bufs *bf, clipt_plan shared,
                    run_sample *out, bench_error *e);

/* Reads the result back and compares it with the permuted pattern (a
 * matrix: its transpose);
 * a wrong result is reported with the shape and `plan` (which plan). */
int bench_verify(bench *b, const shape *sh, const shape_bufs *bf, const plan_facts *plan,
                 const char *which, verdict *out, bench_error *e);

/* --repeat timed runs (plan NULL in single mode), the first one verified;
 * their medians into r. */
int bench_time_runs(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                    shape_result *r, bench_error *e);

/* --mode oneshot: the repeated device time of `plan` (the automatic plan
 * without padding, clipt_transpose's), then the first and --repeat more
 * clipt_transpose calls, host-timed; the first call's result checked. */
int bench_time_oneshots(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                        shape_result *r, bench_error *e);

/* Device copy of a buffer of the matrix's size, pristine -> work. */
int bench_copy_bandwidth(bench *b, const shape_bufs *bf, shape_result *r, bench_error *e);

/* ---- bench_factory.c -------------------------------------------------- */

/* Plan factory: clipt_plan_create walks cycles on the host and builds
 * programs, which costs more than timing a plan on a GPU, so worker threads
 * create the plans of a list of options ahead (at most `window` beyond the
 * one taken last) while the main thread takes them in order.  The context
 * is thread-safe; each plan has its own kernels. */
typedef struct plan_slot {
    clipt_plan plan;
    clipt_status st;
    double create_s;
    int claimed, ready;
} plan_slot;

typedef struct plan_factory plan_factory;

/* Starts up to `threads` workers creating the rows x cols (elem-byte)
 * plans of opts[0..count-1].  NULL when out of memory (*what says what
 * failed). */
plan_factory *plan_factory_start(clipt_context cx, size_t rows, size_t cols, size_t elem,
                                 const clipt_plan_options *opts, size_t count,
                                 unsigned threads, const char **what);

/* Hands plan i over (plan, status, creation time), creating it here when
 * no worker has claimed it yet.  Take them in order. */
plan_slot plan_factory_take(plan_factory *f, size_t i);

/* Stops the workers and releases the plans nobody took. */
void plan_factory_stop(plan_factory *f);

/* ---- bench_brute.c ---------------------------------------------------- */

int bench_is_auto(const candidate *c);

/* Bytes from the matrix's offset that the brute-force plans of a shape
 * need at most (forced padded tiles pad beyond the automatic plan). */
size_t bench_brute_buffer_bytes(const bench *b, const shape *sh);

/* Times the automatic plan and forced ones; the best into r. */
int bench_brute_force(bench *b, const shape *sh, const shape_bufs *bf, shape_result *r,
                      bench_error *e);

/* ---- bench_report.c --------------------------------------------------- */

const char *bench_mode_name(bench_mode m);

/* Opens --csv, or a temporary CSV (its path in tmp_path) when only --png
 * wants one, and writes the header; returns an exit status. */
int bench_open_csv(const cli_command *cmd, bench *b, char *tmp_path, size_t len);
int bench_close_csv(bench *b);

/* Prints a measured shape, writes its CSV row, adds it to the series. */
void bench_record(bench *b, const shape_result *r);
void bench_print_summary(bench *b);

/* python3 plot_hist.py CSV PNG --title ...; never fails the bench. */
void bench_draw_histogram(const bench *b, const char *csv_path);

#endif
