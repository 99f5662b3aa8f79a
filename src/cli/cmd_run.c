/* clipt run: transpose a demo matrix in place on the selected device, verify
 * every run bit-exactly against the CPU, and report the device time.
 *
 * Each run starts from a fresh upload of the same pattern, so every run is
 * the same work on the same input and is verified against the same
 * expected matrix.  (Transposing the result back instead would alternate
 * between two shapes and two plans, mixing their timings.)  The uploads and
 * read-backs are outside the timed region: the time comes from
 * clipt_plan_profile, i.e. from the first to the last command of the plan. */
#include "cli.h"
#include "hostmat.h"
#include "plan_text.h"
#include "timing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STAGES 8

typedef struct run_args {
    size_t rows, cols, elem;
    clipt_sequence sequence;
    size_t tile_m, tile_n;
    int no_padding;
    clipt_algorithm algorithm;
    clipt_padding padding; /* --padding; --no-padding is none           */
    size_t repeat;
    int describe;
    const char *tuning;    /* --tune list, or NULL */
    plan_text_permutation permute; /* --permute; ndim 0: the 2-D rows x cols */
} run_args;

/* The demo matrix on the host and on the device. */
typedef struct demo {
    size_t count;          /* rows * cols                                */
    size_t bytes;          /* count * elem                               */
    size_t buffer_bytes;   /* clipt_plan_buffer_size: room for padding   */
    unsigned char *input;  /* buffer_bytes: pattern, then zeroed room    */
    unsigned char *expect; /* bytes: CPU transpose of the pattern        */
    unsigned char *result; /* bytes: what the device left                */
    cl_mem buf;
} demo;

/* What the runs measured and found. */
typedef struct run_stats {
    double *total;         /* seconds, one per run                       */
    double *stages;        /* seconds, MAX_STAGES per run                */
    unsigned num_stages;
    size_t wrong_runs;
    size_t first_wrong_run, first_wrong_count, first_wrong_index;
} run_stats;

/* ---- options ---------------------------------------------------------- */

static const char run_description[] =
    "Creates a rows x cols matrix of elem-byte elements filled with a\n"
    "pattern, uploads it, transposes it in place on the selected device\n"
    "(CLIPT_PLATFORM / CLIPT_DEVICE; default: first GPU, else first device)\n"
    "with a clipt plan, reads it back and compares it bit for bit with a CPU\n"
    "transpose.  Every run is re-uploaded and verified.  Reports the plan,\n"
    "the median device time (clipt_plan_profile) and GB/s counted as\n"
    "2*rows*cols*elem bytes / time.\n"
    "The transposition runs in passes over the matrix: tile transposes in\n"
    "local memory (the papers' 010!) and moves of blocks of elements along\n"
    "cycles (100!).  --sequence forces their order, numbered as in TPDS 2016\n"
    "Fig. 2: 1 moves single elements along cycles; 2.1 and 2.2 take one tile\n"
    "transpose and one block move; 3.1, 3.2 three passes and 4.1, 4.2, 4.3\n"
    "four (4.3 fuses two) over m x n tiles.  --describe names every pass.\n"
    "--permute DIMS:AXES (e.g. 64x256x56x56:0,2,3,1, NCHW -> NHWC) permutes\n"
    "the axes of a DIMS array instead of transposing rows x cols, as\n"
    "numpy.transpose(a, axes) made contiguous, verified against the CPU.\n"
    "Exit status: 0 all runs verified, 1 wrong result, 2 usage error,\n"
    "3 OpenCL or clipt failure.";

/* A forced factor must not exceed its dimension, and must divide it
 * without padding (with padding, the library pads the dimension to the
 * next multiple). */
static int tile_fits(size_t tile, const char *tile_opt, size_t dim, const char *dim_opt,
                     clipt_padding padding, int *status)
{
    if (tile && tile > dim) {
        *status = cli_usage_error(&cli_cmd_run, "%s %zu does not divide %s %zu: it is larger "
                                  "than the dimension", tile_opt, tile, dim_opt, dim);
        return 0;
    }
    if (tile && (padding == CLIPT_PADDING_NONE || padding == CLIPT_PADDING_OFF) &&
        dim % tile) {
        *status = cli_usage_error(&cli_cmd_run, "%s %zu does not divide %s %zu: with "
                                  "--no-padding (or --padding none or off) a forced tile "
                                  "factor must divide its dimension", tile_opt, tile,
                                  dim_opt, dim);
        return 0;
    }
    return 1;
}

static int parse_run_args(int argc, char **argv, run_args *a, int *status)
{
    const cli_option opts[] = {
        {"rows", "R", cli_parse_positive_size, &a->rows, "rows of the matrix (default 5000)"},
        {"cols", "C", cli_parse_positive_size, &a->cols, "columns of the matrix (default 3001)"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "element size: 1, 2, 4, 8 or 16 (default 4)"},
        {"sequence", "S", cli_parse_sequence, &a->sequence,
         "auto, 1, 2.1, 2.2, 3.1, 3.2, 4.1, 4.2, 4.3 (default auto)"},
        {"algorithm", "A", cli_parse_algorithm, &a->algorithm,
         "tpds (the sequences), c2r (Catanzaro et al.'s decomposition), r2c (its "
         "inverse on the cols x rows view) or auto (default auto)"},
        {"tile-m", "M", cli_parse_positive_size, &a->tile_m,
         "force the tile factor m of rows (default automatic)"},
        {"tile-n", "N", cli_parse_positive_size, &a->tile_n,
         "force the tile factor n of cols (default automatic)"},
        {"no-padding", NULL, NULL, &a->no_padding,
         "exact-size buffer (--padding none: room-less padding or none)"},
        {"padding", "P", cli_parse_padding, &a->padding,
         "auto (room after the matrix), none (exact-size buffer, the plan's choice), "
         "scratch (exact-size, padded tail in the plan), off (never pad) (default auto)"},
        {"repeat", "K", cli_parse_positive_size, &a->repeat,
         "runs; the median time is reported (default 1)"},
        {"describe", NULL, NULL, &a->describe, "print the plan (clipt_plan_describe)"},
        {"tune", "LIST", cli_parse_tuning, &a->tuning,
         "tuning overrides NAME=VALUE,... (names as in 'clipt info')"},
        {"permute", "DIMS:AXES", cli_parse_permutation, &a->permute,
         "permute the axes of a DIMS array (e.g. 64x256x56x56:0,2,3,1), not rows x cols"},
    };
    if (!cli_parse_options(&cli_cmd_run, opts, sizeof opts / sizeof opts[0], argc,
                           argv, NULL, 0, NULL, status))
        return 0;
    if (a->no_padding && a->padding != CLIPT_PADDING_AUTO && a->padding != CLIPT_PADDING_NONE) {
        *status = cli_usage_error(&cli_cmd_run, "--no-padding is --padding none: not with "
                                  "another --padding");
        return 0;
    }
    if (a->no_padding)
        a->padding = CLIPT_PADDING_NONE;
    if (a->permute.ndim) { /* the array's elements, counted as rows x 1 */
        a->rows = 1;
        a->cols = 1;
        for (unsigned i = 0; i < a->permute.ndim; i++) {
            if (a->rows > SIZE_MAX / a->permute.dims[i]) {
                *status = cli_usage_error(&cli_cmd_run, "--permute: the array does not "
                                          "fit in memory");
                return 0;
            }
            a->rows *= a->permute.dims[i];
        }
    }
    /* caught here so that the messages name the options, not an API code */
    if (a->rows > SIZE_MAX / a->cols || a->rows * a->cols > SIZE_MAX / a->elem) {
        *status = cli_usage_error(&cli_cmd_run, "a %zu x %zu matrix of %zu-byte elements "
                                  "does not fit in memory", a->rows, a->cols, a->elem);
        return 0;
    }
    if (!tile_fits(a->tile_m, "--tile-m", a->rows, "--rows", a->padding, status) ||
        !tile_fits(a->tile_n, "--tile-n", a->cols, "--cols", a->padding, status))
        return 0;
    return 1;
}

/* ---- plan ------------------------------------------------------------- */

static int make_plan(cli_session *s, const run_args *a, clipt_plan *plan)
{
    clipt_plan_options o;
    clipt_status st;
    char what[128];
    clipt_plan_options_init(&o);
    o.sequence = a->sequence;
    o.algorithm = a->algorithm;
    o.tile_m = a->tile_m;
    o.tile_n = a->tile_n;
    o.padding = a->padding;
    cli_apply_tuning(a->tuning, &o); /* checked when parsed */
    st = a->permute.ndim ? clipt_plan_create_permute(s->cx, a->permute.ndim, a->permute.dims,
                                                     a->permute.perm, a->elem, &o, plan)
                         : clipt_plan_create(s->cx, a->rows, a->cols, a->elem, &o, plan);
    if (st == CLIPT_SUCCESS)
        return CLI_EXIT_OK;
    snprintf(what, sizeof what, "cannot plan %s%zu x %zu with %zu-byte elements",
             a->permute.ndim ? "the permutation of " : "", a->rows, a->cols, a->elem);
    return cli_report(cli_cmd_run.name, s->cx, what, st);
}

/* --describe: clipt_plan_describe's text (a cut one still says most). */
static void print_description(clipt_plan plan)
{
    static char text[16384];
    text[0] = '\0';
    clipt_plan_describe(plan, text, sizeof text);
    printf("plan:\n%s\n", text);
}

/* ---- demo matrix ------------------------------------------------------ */

static void demo_free(demo *d)
{
    if (d->buf)
        clReleaseMemObject(d->buf);
    free(d->input);
    free(d->expect);
    free(d->result);
    memset(d, 0, sizeof *d);
}

static int demo_prepare(cli_session *s, clipt_plan plan, const run_args *a, demo *d)
{
    cl_int err;
    memset(d, 0, sizeof *d);
    d->count = a->rows * a->cols;
    d->bytes = d->count * a->elem;
    d->buffer_bytes = clipt_plan_buffer_size(plan);
    d->input = calloc(d->buffer_bytes, 1); /* zeroed padding room */
    d->expect = malloc(d->bytes);
    d->result = malloc(d->bytes);
    if (!d->input || !d->expect || !d->result) {
        fprintf(stderr, "clipt run: out of host memory for three copies of %zu bytes\n",
                d->bytes);
        return CLI_EXIT_FAILURE;
    }
    hostmat_fill(d->input, d->count, a->elem);
    if (a->permute.ndim)
        hostmat_permute(d->input, d->expect, a->permute.ndim, a->permute.dims,
                        a->permute.perm, a->elem);
    else
        hostmat_transpose(d->input, d->expect, a->rows, a->cols, a->elem);
    d->buf = clCreateBuffer(s->cl.context, CL_MEM_READ_WRITE, d->buffer_bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        d->buf = NULL;
        return cli_report(cli_cmd_run.name, NULL, "clCreateBuffer of the matrix", err);
    }
    return CLI_EXIT_OK;
}

/* ---- runs ------------------------------------------------------------- */

/* One upload, transpose, read-back and comparison.  *wrong receives the
 * number of wrong elements, *first the first one's index. */
static int run_once(cli_session *s, clipt_plan plan, demo *d, double *total,
                    double *stages, unsigned *num_stages, size_t *wrong, size_t *first)
{
    cl_command_queue q = s->cl.queue;
    cl_event done = NULL;
    const char *what;
    clipt_status st;
    if ((st = clEnqueueWriteBuffer(q, d->buf, CL_TRUE, 0, d->buffer_bytes, d->input,
                                   0, NULL, NULL)) != CL_SUCCESS) {
        what = "uploading the matrix";
        goto fail;
    }
    if ((st = clipt_enqueue(plan, q, d->buf, 0, 0, NULL, &done)) != CLIPT_SUCCESS) {
        what = "clipt_enqueue";
        goto fail;
    }
    /* a kernel that failed on the device shows up here */
    if ((st = clWaitForEvents(1, &done)) != CL_SUCCESS) {
        what = "waiting for the transposition";
        goto fail;
    }
    if ((st = clipt_plan_profile(plan, total, stages, MAX_STAGES, num_stages)) !=
        CLIPT_SUCCESS) {
        what = "clipt_plan_profile";
        goto fail;
    }
    if ((st = clEnqueueReadBuffer(q, d->buf, CL_TRUE, 0, d->bytes, d->result, 0, NULL,
                                  NULL)) != CL_SUCCESS) {
        what = "reading the result back";
        goto fail;
    }
    clReleaseEvent(done);
    *wrong = hostmat_compare(d->result, d->expect, d->count, d->bytes / d->count, first);
    return CLI_EXIT_OK;
fail:
    if (done)
        clReleaseEvent(done);
    return cli_report(cli_cmd_run.name, s->cx, what, st);
}

static int run_all(cli_session *s, clipt_plan plan, demo *d, size_t repeat,
                   run_stats *r)
{
    r->total = calloc(repeat, sizeof *r->total);
    r->stages = calloc(repeat * MAX_STAGES, sizeof *r->stages);
    if (!r->total || !r->stages) {
        fprintf(stderr, "clipt run: out of host memory for %zu timings\n", repeat);
        return CLI_EXIT_FAILURE;
    }
    for (size_t k = 0; k < repeat; k++) {
        size_t wrong = 0, first = 0;
        int status = run_once(s, plan, d, &r->total[k], &r->stages[k * MAX_STAGES],
                              &r->num_stages, &wrong, &first);
        if (status != CLI_EXIT_OK)
            return status;
        if (wrong && r->wrong_runs++ == 0) {
            r->first_wrong_run = k;
            r->first_wrong_count = wrong;
            r->first_wrong_index = first;
        }
    }
    return CLI_EXIT_OK;
}

/* ---- report ----------------------------------------------------------- */

/* Median of n values taken every `stride` entries of v (v is not changed). */
static double median(const double *v, size_t n, size_t stride)
{
    double *copy = malloc(n * sizeof *copy), m;
    if (!copy)
        return v[0]; /* a report with one sample beats no report */
    for (size_t i = 0; i < n; i++)
        copy[i] = v[i * stride];
    m = util_median(copy, n);
    free(copy);
    return m;
}

static void print_stage_times(const run_stats *r, size_t repeat)
{
    const unsigned shown = r->num_stages < MAX_STAGES ? r->num_stages : MAX_STAGES;
    if (shown == 0)
        return;
    printf("stage times:  ");
    for (unsigned i = 0; i < shown; i++)
        printf("%s%.3f", i ? ", " : "", 1e3 * median(r->stages + i, repeat, MAX_STAGES));
    printf(" ms (medians)\n");
}

static void print_verdict(const run_args *a, const run_stats *r)
{
    size_t row, col;
    if (r->wrong_runs == 0) {
        printf("verified:     yes (%zu of %zu runs bit-exact)\n", a->repeat, a->repeat);
        return;
    }
    /* the result is cols x rows: element index -> (row, col) in it */
    row = r->first_wrong_index / a->rows;
    col = r->first_wrong_index % a->rows;
    printf("verified:     no (%zu of %zu runs wrong; run %zu: %zu of %zu elements "
           "differ, first at row %zu, column %zu of the transpose)\n",
           r->wrong_runs, a->repeat, r->first_wrong_run + 1, r->first_wrong_count,
           a->rows * a->cols, row, col);
}

/* "permutation: (64, 256, 56, 56) axes (0, 2, 3, 1), 4-byte elements" */
static void print_permutation(const run_args *a, double bytes)
{
    const plan_text_permutation *q = &a->permute;
    printf("permutation:  (");
    for (unsigned i = 0; i < q->ndim; i++)
        printf("%s%zu", i ? ", " : "", q->dims[i]);
    printf(") axes (");
    for (unsigned i = 0; i < q->ndim; i++)
        printf("%s%u", i ? ", " : "", q->perm[i]);
    printf("), %zu-byte elements (%.2f MB)\n", a->elem, bytes / 1e6);
}

/* The plan's choices in the words of clipt_plan_describe, then the runs'. */
static void print_report(const cli_session *s, const run_args *a, const clipt_plan_info *p,
                         const run_stats *r)
{
    const double bytes = (double)a->rows * (double)a->cols * (double)a->elem;
    const double t = median(r->total, a->repeat, 1);
    char choice[64], tiles[64], padded[64];
    plan_text_choice(p, choice, sizeof choice);
    plan_text_tiles(p, tiles, sizeof tiles);
    plan_text_padded(p, padded, sizeof padded);
    printf("device:       %s (%s)\n", s->cl.device_name, s->cl.platform_name);
    if (a->permute.ndim)
        print_permutation(a, bytes);
    else
        printf("shape:        %zu x %zu, %zu-byte elements (%.2f MB)\n", a->rows, a->cols,
               a->elem, bytes / 1e6);
    if (a->permute.ndim)
        printf("passes:       %u (--describe lists them)\n", p->num_passes);
    if (!a->permute.ndim || (p->num_passes == 1 && p->cols != 1)) { /* one 2-D plan */
        printf("sequence:     %s\n", choice);
        printf("tiles:        %s\n", tiles);
        printf("padded shape: %s\n", padded);
    }
    printf("device time:  %.3f ms (median of %zu run%s)\n", 1e3 * t, a->repeat,
           a->repeat == 1 ? "" : "s");
    print_stage_times(r, a->repeat);
    if (t > 0)
        printf("throughput:   %.2f GB/s (2*rows*cols*elem / time)\n", 2 * bytes / t / 1e9);
    else
        printf("throughput:   n/a (nothing was timed)\n");
    print_verdict(a, r);
}

/* ---- the subcommand --------------------------------------------------- */

static int run_main(int argc, char **argv)
{
    run_args a = {5000, 3001, 4, CLIPT_SEQUENCE_AUTO, 0, 0, 0, CLIPT_ALGORITHM_AUTO,
                  CLIPT_PADDING_AUTO, 1, 0, NULL, {0, {0}, {0}}};
    cli_session s;
    clipt_plan plan = NULL;
    demo d = {0};
    run_stats r = {0};
    clipt_plan_info info;
    int status;
    if (!parse_run_args(argc, argv, &a, &status))
        return status;
    if ((status = cli_session_open(&s)) != CLI_EXIT_OK)
        return status;
    if ((status = make_plan(&s, &a, &plan)) != CLI_EXIT_OK)
        goto cleanup;
    clipt_plan_query(plan, &info); /* cannot fail on a plan */
    if (a.describe)
        print_description(plan);
    if ((status = demo_prepare(&s, plan, &a, &d)) != CLI_EXIT_OK ||
        (status = run_all(&s, plan, &d, a.repeat, &r)) != CLI_EXIT_OK)
        goto cleanup;
    print_report(&s, &a, &info, &r);
    status = r.wrong_runs ? CLI_EXIT_WRONG : CLI_EXIT_OK;
cleanup:
    free(r.total);
    free(r.stages);
    demo_free(&d);
    clipt_plan_release(plan);
    cli_session_close(&s);
    return status;
}

const cli_command cli_cmd_run = {
    "run", "[options]",
    "transpose a demo matrix on the device, verify it and time it",
    run_description, run_main,
};
