/* clipt bench --host: effective throughput of clipt_transpose_host seen from
 * the host (upload, in-place transposition, read-back into the same host
 * memory) for several numbers of command queues, and the gain of
 * overlapping the transfers with the compute over one queue (Sung et al.,
 * PPoPP 2014, Sec. 7.6, measured +19 % with their best Q).
 *
 * Per count of queues: one untimed call (the first builds the kernels; on
 * PoCL the first calls after that still ran slower), then --repeat timed
 * calls, each on a fresh copy of the pattern (the copy is not timed), the
 * first one checked bit for bit. */
#include "cli.h"
#include "hostmat.h"
#include "plan_text.h"
#include "timing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_QUEUE_COUNTS 16
#define VERIFY_THREADS 4u

typedef struct host_args {
    int host;
    size_t rows, cols, elem, repeat;
    clipt_sequence sequence;
    unsigned queues[MAX_QUEUE_COUNTS];
    size_t num_queues;
    int no_verify;
    const char *csv;
} host_args;

static const char host_description[] =
    "Host-array mode of clipt bench: times clipt_transpose_host, which copies\n"
    "a rows x cols host matrix to the device, transposes it in place there and\n"
    "copies the transpose back into the same host memory, with the first and\n"
    "last stages' independent pieces spread over Q command queues so that the\n"
    "transfers overlap the compute.  For each Q of --queues: one untimed call\n"
    "(the first builds the kernels), then the median host wall time of\n"
    "--repeat calls, the effective GB/s = 2*rows*cols*elem / time, and the\n"
    "gain over the first Q listed (Q = 1 by default).  The first timed call\n"
    "of each Q is checked bit for bit against a CPU transpose.\n"
    "--csv FILE: a header, then one row per count: rows,cols,elem,sequence,\n"
    "queues,median_ms,gbs,gain,verified (gain as a ratio to the first\n"
    "count's time).\n"
    "Exit status: 0 all checked calls exact, 1 wrong result, 2 usage error,\n"
    "3 OpenCL or clipt failure.";

/* For the option parser's help and messages only: the mode is entered
 * through clipt bench (cli_bench_wants_host). */
static const cli_command bench_host_command = {
    "bench --host", "[options]", "", host_description, NULL,
};

/* "1,2,4,8": counts in 1..CLIPT_HOST_MAX_QUEUES. */
static const char *parse_queue_list(const char *text, void *target)
{
    host_args *a = target;
    const char *expected = "a comma-separated list of queue counts from 1 to 64";
    const char *at = text;
    a->num_queues = 0;
    while (*at) {
        char *end = NULL;
        unsigned long v;
        if (*at < '0' || *at > '9' || a->num_queues == MAX_QUEUE_COUNTS)
            return expected;
        v = strtoul(at, &end, 10);
        if (v < 1 || v > CLIPT_HOST_MAX_QUEUES || (*end != ',' && *end != '\0') ||
            (*end == ',' && end[1] == '\0'))
            return expected;
        a->queues[a->num_queues++] = (unsigned)v;
        at = *end ? end + 1 : end;
    }
    return a->num_queues ? NULL : expected;
}

static int parse_host_args(int argc, char **argv, host_args *a, int *status)
{
    const cli_option opts[] = {
        {"host", NULL, NULL, &a->host, "this mode (required)"},
        {"rows", "R", cli_parse_positive_size, &a->rows, "rows of the matrix (default 4000)"},
        {"cols", "C", cli_parse_positive_size, &a->cols,
         "columns of the matrix (default 3000)"},
        {"elem", "BYTES", cli_parse_elem_size, &a->elem,
         "element size: 1, 2, 4, 8 or 16 (default 4)"},
        {"sequence", "S", cli_parse_sequence, &a->sequence,
         "auto, 1, 2.1, 2.2, 3.1, 3.2, 4.1, 4.2, 4.3 (default auto)"},
        {"queues", "LIST", parse_queue_list, a,
         "queue counts to time, e.g. 1,2,4,8 (the default)"},
        {"repeat", "K", cli_parse_positive_size, &a->repeat,
         "timed calls per count; the median is reported (default 5)"},
        {"no-verify", NULL, NULL, &a->no_verify, "skip the bit-exact host check"},
        {"csv", "FILE", cli_parse_text, &a->csv, "write one row per count of queues"},
    };
    if (!cli_parse_options(&bench_host_command, opts, sizeof opts / sizeof opts[0], argc,
                           argv, NULL, 0, NULL, status))
        return 0;
    if (a->rows > SIZE_MAX / a->cols || a->rows * a->cols > SIZE_MAX / 2 / a->elem) {
        *status = cli_usage_error(&bench_host_command, "a %zu x %zu matrix of %zu-byte "
                                  "elements does not fit in memory", a->rows, a->cols,
                                  a->elem);
        return 0;
    }
    return 1;
}

int cli_bench_wants_host(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--host") == 0)
            return 1;
    return 0;
}

/* ---- timing ------------------------------------------------------------- */

/* The matrices of one bench: the pattern and the array the calls work on. */
typedef struct host_bench {
    const host_args *a;
    cli_session s;
    clipt_plan_options opts;
    size_t bytes;
    unsigned char *pattern, *data;
    double *times;
    const char *sequence; /* the plan's name of its sequence, for the CSV */
    FILE *csv;
} host_bench;

/* One call on a fresh copy of the pattern; *seconds is its wall time. */
static int timed_call(host_bench *b, unsigned queues, double *seconds)
{
    const host_args *a = b->a;
    double start;
    clipt_status st;
    memcpy(b->data, b->pattern, b->bytes);
    start = util_now_seconds();
    st = clipt_transpose_host(b->s.cx, b->s.cl.queue, b->data, a->rows, a->cols, a->elem,
                              queues, &b->opts);
    *seconds = util_now_seconds() - start;
    if (st == CLIPT_SUCCESS)
        return CLI_EXIT_OK;
    return cli_report("bench", b->s.cx, "clipt_transpose_host", st);
}

/* Whether b->data holds the transpose of the pattern; prints the first
 * wrong element otherwise. */
static int exact(const host_bench *b, unsigned queues)
{
    size_t first = 0;
    size_t wrong = hostmat_compare_transposed(b->data, b->pattern, b->a->rows, b->a->cols,
                                              b->a->elem, VERIFY_THREADS, &first);
    if (wrong)
        printf("Q=%u: %zu wrong elements, the first at row %zu, column %zu of the "
               "transpose\n", queues, wrong, first / b->a->rows, first % b->a->rows);
    return wrong == 0;
}

/* The plan's sequence and padded shape, as clipt_plan_describe words
 * them; keeps the sequence's name for the CSV. */
static void print_plan(host_bench *b)
{
    clipt_plan p = NULL;
    clipt_plan_info info;
    char choice[64], padded[64];
    b->sequence = "";
    if (clipt_plan_create(b->s.cx, b->a->rows, b->a->cols, b->a->elem, &b->opts, &p))
        return; /* the timed calls report the failure */
    clipt_plan_query(p, &info);
    plan_text_choice(&info, choice, sizeof choice);
    plan_text_padded(&info, padded, sizeof padded);
    printf("sequence: %s\npadded shape: %s\n", choice, padded);
    b->sequence = plan_text_sequence(info.sequence);
    clipt_plan_release(p);
}

/* Times every count of queues and prints one row each. */
static int time_queue_counts(host_bench *b)
{
    const host_args *a = b->a;
    const double moved = 2.0 * (double)b->bytes;
    double base = 0, warm = 0;
    int status, all_exact = 1;
    printf("%6s  %10s  %8s  %12s  %s\n", "queues", "median ms", "GB/s", "gain", "verified");
    for (size_t i = 0; i < a->num_queues; i++) {
        const unsigned q = a->queues[i];
        int ok = 1;
        double median;
        if ((status = timed_call(b, q, &warm)) != CLI_EXIT_OK)
            return status;
        for (size_t r = 0; r < a->repeat; r++) {
            if ((status = timed_call(b, q, &b->times[r])) != CLI_EXIT_OK)
                return status;
            if (r == 0 && !a->no_verify)
                ok = exact(b, q);
        }
        median = util_median(b->times, a->repeat);
        if (i == 0)
            base = median;
        printf("%6u  %10.3f  %8.3f  %+10.1f %%  %s\n", q, median * 1e3, moved / median / 1e9,
               (base / median - 1) * 100, a->no_verify ? "not checked" : ok ? "yes" : "NO");
        if (b->csv)
            fprintf(b->csv, "%zu,%zu,%zu,%s,%u,%.4f,%.4f,%.4f,%s\n", a->rows, a->cols, a->elem,
                    b->sequence, q, median * 1e3, moved / median / 1e9, base / median,
                    a->no_verify ? "" : ok ? "yes" : "no");
        all_exact &= ok;
    }
    return all_exact ? CLI_EXIT_OK : CLI_EXIT_WRONG;
}

int cli_bench_host_main(int argc, char **argv)
{
    host_args a = {0, 4000, 3000, 4, 5, CLIPT_SEQUENCE_AUTO, {1, 2, 4, 8}, 4, 0, NULL};
    host_bench b;
    int status;
    memset(&b, 0, sizeof b);
    if (!parse_host_args(argc, argv, &a, &status))
        return status;
    b.a = &a;
    b.bytes = a.rows * a.cols * a.elem;
    clipt_plan_options_init(&b.opts);
    b.opts.sequence = a.sequence;
    b.pattern = malloc(b.bytes);
    b.data = malloc(b.bytes);
    b.times = malloc(a.repeat * sizeof *b.times);
    if (!b.pattern || !b.data || !b.times) {
        fprintf(stderr, "clipt bench: out of host memory for %zu-byte matrices\n", b.bytes);
        status = CLI_EXIT_FAILURE;
        goto cleanup;
    }
    hostmat_fill(b.pattern, a.rows * a.cols, a.elem);
    if (a.csv && !(b.csv = fopen(a.csv, "w"))) {
        fprintf(stderr, "clipt bench: cannot write %s\n", a.csv);
        status = CLI_EXIT_FAILURE;
        goto cleanup;
    }
    if (b.csv)
        fprintf(b.csv, "rows,cols,elem,sequence,queues,median_ms,gbs,gain,verified\n");
    if ((status = cli_session_open(&b.s)) != CLI_EXIT_OK)
        goto cleanup;
    printf("device: %s (%s)\n", b.s.cl.device_name, b.s.cl.platform_name);
    printf("shape: %zu x %zu, %zu-byte elements (%.2f MB)\n", a.rows, a.cols, a.elem,
           (double)b.bytes / 1e6);
    print_plan(&b);
    printf("host wall time of clipt_transpose_host, median of %zu calls per count; "
           "gain over Q=%u\n", a.repeat, a.queues[0]);
    status = time_queue_counts(&b);
    cli_session_close(&b.s);
cleanup:
    if (b.csv && fclose(b.csv) != 0 && status == CLI_EXIT_OK) {
        fprintf(stderr, "clipt bench: cannot write %s\n", a.csv);
        status = CLI_EXIT_FAILURE;
    }
    free(b.pattern);
    free(b.data);
    free(b.times);
    return status;
}
