/* clipt bench's measurements: timed runs of a plan on the restored
 * matrix, the bit-exact check of a result, and the device's copy
 * bandwidth for the same bytes. */
#include "bench.h"
#include "cl_timing.h"
#include "hostmat.h"
#include "timing.h"

double bench_gbs(const shape *sh, size_t elem, double seconds)
{
    const double bytes = (double)sh->count * (double)elem;
    return seconds > 0 ? 2 * bytes / seconds / 1e9 : 0;
}

/* Restores the original matrix (whole buffer, padding room included) and
 * waits, so that neither the copy nor its wait is timed. */
static int restore(const bench *b, const shape_bufs *bf, bench_error *e)
{
    const cl_command_queue q = b->s.cl.queue;
    return bench_check(e, "restoring the matrix (clEnqueueCopyBuffer)",
                       clEnqueueCopyBuffer(q, bf->pristine, bf->work, 0, 0, bf->buffer_bytes, 0,
                                           NULL, NULL)) &&
           bench_check(e, "clFinish after the restore", clFinish(q));
}

int bench_timed_run(const bench *b, const shape *sh, const shape_bufs *bf, clipt_plan shared,
                    run_sample *out, bench_error *e)
{
    clipt_plan plan = shared;
    clipt_plan_options o;
    cl_event done = NULL;
    double t0;
    int ok = 0;
    if (!restore(b, bf, e))
        return 0;
    t0 = util_now_seconds();
    bench_options(b->a, &o);
    if (!plan && !bench_check(e, "clipt_plan_create_permute", bench_plan_create(b, sh, &o, &plan)))
        goto cleanup;
    if (!bench_check(e, "clipt_enqueue",
                     clipt_enqueue(plan, b->s.cl.queue, bf->work, 0, 0, NULL, &done)) ||
        /* a kernel that failed on the device shows up here */
        !bench_check(e, "waiting for the transposition", clWaitForEvents(1, &done)))
        goto cleanup;
    out->host_s = util_now_seconds() - t0;
    ok = bench_check(e, "clipt_plan_profile",
                     clipt_plan_profile(plan, &out->device_s, out->stage_s, BENCH_MAX_STAGES,
                                        &out->num_stages));
cleanup:
    if (done)
        clReleaseEvent(done);
    if (plan != shared)
        clipt_plan_release(plan);
    return ok;
}

/* Where the first wrong element is: "row R, column C of the transpose", or
 * "element K of the result" for another permutation. */
static void where_wrong(const shape *sh, size_t first, char *buf, size_t len)
{
    if (sh->rows)
        snprintf(buf, len, "row %zu, column %zu of the transpose", first / sh->rows,
                 first % sh->rows);
    else
        snprintf(buf, len, "element %zu of the result", first);
}

int bench_verify(bench *b, const shape *sh, const shape_bufs *bf, const plan_facts *plan,
                 const char *which, verdict *out, bench_error *e)
{
    const plan_text_permutation *p = &sh->nd;
    size_t first = 0, wrong;
    char name[256], where[96];
    if (!bench_ensure_readback(b, bf->bytes, e) ||
        !bench_check(e, "reading the result back",
                     clEnqueueReadBuffer(b->s.cl.queue, bf->work, CL_TRUE, 0, bf->bytes,
                                         b->readback, 0, NULL, NULL)))
        return 0;
    /* a matrix: the cache-blocked check; any other permutation: walked */
    wrong = sh->rows ? hostmat_compare_transposed(b->readback, b->pattern, sh->rows, sh->cols,
                                                  b->a->elem, b->threads, &first)
                     : hostmat_compare_permuted(b->readback, b->pattern, p->ndim, p->dims,
                                                p->perm, b->a->elem, b->threads, &first);
    *out = wrong ? WRONG : CORRECT;
    if (wrong) {
        bench_shape_name(sh, name, sizeof name);
        where_wrong(sh, first, where, sizeof where);
        fprintf(stderr, "clipt bench: WRONG RESULT for %s (%zu-byte elements, %s "
                "plan: sequence %s m=%zu n=%zu, %u passes): %zu of %zu elements differ, "
                "first at %s\n", name, b->a->elem, which, plan->sequence, plan->m, plan->n,
                plan->passes, wrong, sh->count, where);
    }
    return 1;
}

/* Medians of the samples' device, host and stage times into r. */
static void summarise_runs(bench *b, size_t runs, shape_result *r)
{
    double *v = b->scratch;
    r->num_stages = b->runs[0].num_stages < BENCH_MAX_STAGES ? b->runs[0].num_stages
                                                             : BENCH_MAX_STAGES;
    for (unsigned i = 0; i < r->num_stages; i++) {
        for (size_t k = 0; k < runs; k++)
            v[k] = b->runs[k].stage_s[i];
        r->stage_s[i] = util_median(v, runs);
    }
    for (size_t k = 0; k < runs; k++)
        v[k] = b->runs[k].host_s;
    r->time_s = util_median(v, runs);
    for (size_t k = 0; k < runs; k++)
        v[k] = b->runs[k].device_s;
    r->device_s = util_median(v, runs);
    if (b->a->mode == MODE_REPEATED)
        r->time_s = r->device_s;
    if (b->a->mode == MODE_SINGLE) /* the shape's first plan: nothing pooled for it */
        r->first_s = b->runs[0].host_s;
}

int bench_time_runs(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                    shape_result *r, bench_error *e)
{
    for (size_t k = 0; k < b->a->repeat; k++) {
        if (!bench_timed_run(b, sh, bf, plan, &b->runs[k], e))
            return 0;
        if (k == 0 && !b->a->no_verify &&
            !bench_verify(b, sh, bf, &r->facts, "automatic", &r->check, e))
            return 0;
    }
    summarise_runs(b, b->a->repeat, r);
    return 1;
}

/* One clipt_transpose of the restored matrix, host-timed. */
static int timed_oneshot(const bench *b, const shape *sh, const shape_bufs *bf,
                         double *seconds, bench_error *e)
{
    double t0;
    if (!restore(b, bf, e))
        return 0;
    t0 = util_now_seconds();
    if (!bench_check(e, "clipt_transpose",
                     clipt_transpose(b->s.cl.queue, bf->work, 0, sh->rows, sh->cols,
                                     b->a->elem)))
        return 0;
    *seconds = util_now_seconds() - t0;
    return 1;
}

int bench_time_oneshots(bench *b, const shape *sh, const shape_bufs *bf, clipt_plan plan,
                        shape_result *r, bench_error *e)
{
    verdict first_check = NOT_CHECKED;
    if (!bench_time_runs(b, sh, bf, plan, r, e))
        return 0;
    r->plan_host_s = r->time_s; /* outside repeated mode: the host median */
    if (!timed_oneshot(b, sh, bf, &r->first_s, e))
        return 0;
    if (!b->a->no_verify &&
        !bench_verify(b, sh, bf, &r->facts, "clipt_transpose's", &first_check, e))
        return 0;
    if (first_check == WRONG)
        r->check = WRONG;
    for (size_t k = 0; k < b->a->repeat; k++)
        if (!timed_oneshot(b, sh, bf, &b->scratch[k], e))
            return 0;
    r->time_s = util_median(b->scratch, b->a->repeat);
    return 1;
}

int bench_copy_bandwidth(bench *b, const shape_bufs *bf, shape_result *r, bench_error *e)
{
    double median = 0;
    if (!bench_check(e, "clEnqueueCopyBuffer (copy bandwidth)",
                           util_copy_seconds(b->s.cl.queue, bf->pristine, bf->work, bf->bytes,
                                             b->a->repeat, b->scratch, &median)))
        return 0;
    r->copy_gbs = 2.0 * (double)bf->bytes / median / 1e9;
    return 1;
}
