/* clipt bench: throughput of automatic plans over a set of shapes, next to
 * the device's copy bandwidth, as in the evaluations of Gómez-Luna et al.
 * (TPDS 2016, Figs. 12-16) and Sung et al. (PPoPP 2014): the random
 * "general" and "skinny" (AoS <-> SoA) sets, shapes from a file, and axis
 * permutations (--permute, the random "tensor" set after TTLG's
 * evaluation), the matrix being their 2-D case.
 *
 * Per shape: one automatic plan (its facts from clipt_plan_query),
 * a work buffer and a pristine copy on the device, --repeat timed runs each
 * restored from the pristine copy (clEnqueueCopyBuffer, not timed), a
 * bit-exact host check of the first run, the copy bandwidth of a buffer of
 * the matrix's size, and with --brute-force the best forced (sequence, m, n)
 * next to the automatic choice. */
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { SHAPE_MEASURED, SHAPE_SKIPPED, SHAPE_FAILED } shape_outcome;

/* ---- one shape -------------------------------------------------------- */

static shape_outcome skip_unplannable(const shape *sh, clipt_status st)
{
    char name[256];
    bench_shape_name(sh, name, sizeof name);
    fprintf(stderr, "clipt bench: skipping %s: %s\n", name, clipt_status_string(st));
    return SHAPE_SKIPPED;
}

/* A vector's transpose, or a permutation that is the identity once axes of
 * 1 are dropped, has the same bytes: no stage runs, no time to rate. */
static shape_outcome skip_still(const shape *sh)
{
    char name[256];
    bench_shape_name(sh, name, sizeof name);
    fprintf(stderr, "clipt bench: skipping %s: %s, nothing moves\n", name,
            sh->rows ? "a single row or column" : "the identity without axes of 1");
    return SHAPE_SKIPPED;
}

static int measure(bench *b, const shape *sh, shape_bufs *bf, clipt_plan plan,
                   shape_result *r, bench_error *e)
{
    if (!bench_prepare_buffers(b, sh, bf, e) ||
        !(b->a->mode == MODE_ONESHOT ? bench_time_oneshots(b, sh, bf, plan, r, e)
                                     : bench_time_runs(b, sh, bf, plan, r, e)) ||
        !bench_copy_bandwidth(b, bf, r, e))
        return 0;
    if (b->a->brute_force && !bench_brute_force(b, sh, bf, r, e))
        return 0;
    r->gbs = bench_gbs(sh, b->a->elem, r->time_s);
    r->ratio = r->copy_gbs > 0 ? r->gbs / r->copy_gbs : 0;
    return 1;
}

static shape_outcome bench_shape(bench *b, const shape *sh, shape_result *r)
{
    clipt_plan plan = NULL;
    clipt_plan_options o;
    shape_bufs bf = {NULL, NULL, sh->count * b->a->elem, 0};
    bench_error e = {NULL, CLIPT_SUCCESS};
    shape_outcome out = SHAPE_FAILED;
    clipt_status st;
    memset(r, 0, sizeof *r);
    r->sh = *sh;
    /* the automatic plan tells the buffer size and builds the programs
     * (so single mode's plans find them in the context's cache) */
    bench_options(b->a, &o);
    st = bench_plan_create(b, sh, &o, &plan);
    if (st == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS || st == CLIPT_ERROR_SHAPE_OVERFLOW)
        return skip_unplannable(sh, st);
    if (!bench_check(&e, "clipt_plan_create_permute", st))
        goto cleanup;
    bench_plan_facts(plan, sh, &r->facts);
    if (r->facts.stages == 0) {
        clipt_plan_release(plan);
        return skip_still(sh);
    }
    bf.buffer_bytes = clipt_plan_buffer_size(plan);
    if (b->a->brute_force) {
        const size_t room = bench_brute_buffer_bytes(b, sh);
        bf.buffer_bytes = room > bf.buffer_bytes ? room : bf.buffer_bytes;
    }
    if (!bench_fits_device(b, sh, bf.buffer_bytes, clipt_plan_scratch_size(plan))) {
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
        char what[384], name[256];
        bench_shape_name(sh, name, sizeof name);
        snprintf(what, sizeof what, "%s: %s", name, e.what);
        cli_report(cli_cmd_bench.name, b->s.cx, what, e.st);
    }
    bench_release_buffers(&bf);
    clipt_plan_release(plan);
    return out;
}

static int allocate_series(bench *b, size_t shapes)
{
    series *s = &b->sr;
    const size_t repeat = b->a->repeat;
    s->gbs = calloc(shapes, sizeof *s->gbs);
    s->copy_gbs = calloc(shapes, sizeof *s->copy_gbs);
    s->ratio = calloc(shapes, sizeof *s->ratio);
    s->auto_best = calloc(shapes, sizeof *s->auto_best);
    s->model_error = calloc(shapes, sizeof *s->model_error);
    s->oneshot = calloc(shapes, sizeof *s->oneshot);
    s->first = calloc(shapes, sizeof *s->first);
    s->vs_host = calloc(shapes, sizeof *s->vs_host);
    b->runs = calloc(repeat, sizeof *b->runs);
    b->scratch = calloc(repeat, sizeof *b->scratch);
    if (s->gbs && s->copy_gbs && s->ratio && s->auto_best && s->model_error && s->oneshot &&
        s->first && s->vs_host && b->runs && b->scratch)
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
    free(b->sr.model_error);
    free(b->sr.oneshot);
    free(b->sr.first);
    free(b->sr.vs_host);
    free(b->runs);
    free(b->scratch);
    free(b->pattern);
    free(b->readback);
    if (b->csv)
        fclose(b->csv);
}

static const char *set_name(const bench_args *a)
{
    static const char *const names[] = {"permute", "general", "skinny", "tensor"};
    const char *slash;
    if (!a->shapes_file)
        return names[a->set]; /* SET_NONE: --permute */
    slash = strrchr(a->shapes_file, '/');
    return slash ? slash + 1 : a->shapes_file;
}

static unsigned verify_threads(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned long)n < BENCH_MAX_THREADS ? (unsigned)n : BENCH_MAX_THREADS;
}

static void print_header(const bench *b, size_t shapes)
{
    printf("device: %s (%s)\n", b->s.cl.device_name, b->s.cl.platform_name);
    printf("set: %s", b->set_name);
    if (b->a->set != SET_NONE)
        printf(" (seed %llu%s)", (unsigned long long)b->a->seed,
               b->a->max_dim ? ", --max-dim" : b->a->max_bytes ? ", --max-bytes" : "");
    printf(", %zu shapes, %zu-byte elements, %zu run%s per shape, mode %s%s\n", shapes,
           b->a->elem, b->a->repeat, b->a->repeat == 1 ? "" : "s", bench_mode_name(b->a->mode),
           b->a->brute_force ? ", brute force" : "");
    fflush(stdout);
}

/* After a failed shape: a session the runtime broke is opened afresh, so
 * that one failing shape does not fail every later one.  0 when that is
 * impossible (the run stops). */
/* For the test of that recovery (cli_tests.cmake): CLIPT_BENCH_BREAK_SHAPE=k
 * makes the k-th shape (1-based) fail as if the runtime had broken the
 * session, which then must be opened afresh. */
static size_t broken_shape(void)
{
    const char *v = getenv("CLIPT_BENCH_BREAK_SHAPE");
    return v ? (size_t)strtoul(v, NULL, 10) : 0;
}

static int recover_session(bench *b, int broken)
{
    bench_error e = {NULL, CLIPT_SUCCESS};
    if (!broken && bench_session_healthy(b))
        return 1;
    fprintf(stderr, "clipt bench: the device session no longer works after that failure; "
                    "opening a new one\n");
    cli_session_close(&b->s);
    if (cli_session_open(&b->s) != CLI_EXIT_OK)
        return 0;
    if (!bench_query_limits(b, &e)) {
        cli_report(cli_cmd_bench.name, NULL, e.what, e.st);
        return 0;
    }
    return 1;
}

static void run_shapes(bench *b, const shape_list *l)
{
    shape_result r;
    char name[256];
    for (size_t i = 0; i < l->n; i++) {
        bench_shape_name(&l->v[i], name, sizeof name);
        fprintf(stderr, "[%zu/%zu] %s ...\n", i + 1, l->n, name);
        const int broken = i + 1 == broken_shape();
        switch (broken ? SHAPE_FAILED : bench_shape(b, &l->v[i], &r)) {
        case SHAPE_MEASURED: bench_record(b, &r); break;
        case SHAPE_SKIPPED: b->skipped++; break;
        case SHAPE_FAILED:
            if (broken)
                fprintf(stderr, "clipt bench: %s: failed on purpose "
                                "(CLIPT_BENCH_BREAK_SHAPE)\n", name);
            b->failed++;
            if (!recover_session(b, broken)) {
                b->failed += l->n - i - 1; /* the shapes never tried */
                return;
            }
            break;
        }
    }
}

static int open_bench(bench *b, const shape_list *l, char *tmp_csv, size_t len)
{
    bench_error e = {NULL, CLIPT_SUCCESS};
    int status;
    if ((status = allocate_series(b, l->n)) != CLI_EXIT_OK ||
        (status = bench_open_csv(&cli_cmd_bench, b, tmp_csv, len)) != CLI_EXIT_OK ||
        (status = cli_session_open(&b->s)) != CLI_EXIT_OK)
        return status;
    if (!bench_query_limits(b, &e)) {
        status = cli_report(cli_cmd_bench.name, NULL, e.what, e.st);
        cli_session_close(&b->s);
    }
    return status;
}

/* --mode oneshot (clipt_transpose) and --brute-force (forced sequences)
 * plan matrices only. */
static int check_matrices(const bench_args *a, const shape_list *l)
{
    char name[256];
    if (a->mode != MODE_ONESHOT && !a->brute_force)
        return CLI_EXIT_OK;
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].rows) {
            bench_shape_name(&l->v[i], name, sizeof name);
            return cli_usage_error(&cli_cmd_bench, "%s is no matrix: --mode oneshot and "
                                   "--brute-force time 2-D plans only", name);
        }
    return CLI_EXIT_OK;
}

static int bench_main(int argc, char **argv)
{
    bench_args a = {NULL, SET_NONE, {NULL, 0, 0}, 0, 1, 0, 0, 0, 4, 5, NULL, NULL, 0,
                    MODE_REPEATED, 0, 200, NULL, CLIPT_TILE_RULE_AUTO,
                    CLIPT_ALGORITHM_AUTO, CLIPT_PADDING_AUTO};
    shape_list shapes = {NULL, 0, 0};
    bench b;
    char tmp_csv[512] = "";
    int status;
    memset(&b, 0, sizeof b);
    if (cli_bench_wants_host(argc, argv))
        return cli_bench_host_main(argc, argv);
    if (!bench_parse_args(&cli_cmd_bench, argc, argv, &a, &status))
        goto cleanup;
    b.a = &a;
    b.set_name = set_name(&a);
    b.threads = verify_threads();
    if ((status = bench_make_shapes(&cli_cmd_bench, &a, &shapes)) != CLI_EXIT_OK ||
        (status = check_matrices(&a, &shapes)) != CLI_EXIT_OK)
        goto cleanup;
    if (a.list) {
        bench_print_shapes(&shapes);
        goto cleanup;
    }
    if ((status = open_bench(&b, &shapes, tmp_csv, sizeof tmp_csv)) != CLI_EXIT_OK)
        goto cleanup;
    print_header(&b, shapes.n);
    run_shapes(&b, &shapes);
    bench_print_summary(&b);
    status = bench_close_csv(&b);
    if (a.png && status == CLI_EXIT_OK)
        bench_draw_histogram(&b, a.csv ? a.csv : tmp_csv); /* its title names the device */
    cli_session_close(&b.s);
    if (b.failed)
        status = CLI_EXIT_FAILURE;
    if (b.correct < b.verified || b.wrong_best)
        status = CLI_EXIT_WRONG;
cleanup:
    if (tmp_csv[0])
        remove(tmp_csv);
    free(shapes.v);
    free(a.permute.v);
    free_bench(&b);
    return status;
}

const cli_command cli_cmd_bench = {
    "bench", "(--shapes FILE | --random general|skinny|tensor | --permute DIMS:AXES) "
    "[options]",
    "throughput of automatic plans over many shapes, vs copy bandwidth",
    bench_description, bench_main,
};
