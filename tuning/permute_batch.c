/* clipt_permute_bench --batch-vs-plans (issue 15: "a batch of B matrices
 * never slower than B separate 2-D plans enqueued back to back").
 *
 * A case B x M x N with axes 0,2,1 is timed two ways on the same buffer:
 *   batch  the batch plan (clipt_plan_create_permute), one enqueue;
 *   plans  the M x N plan (clipt_plan_create, CLIPT_PADDING_NONE: it needs
 *          exactly the matrix's bytes, so matrix k+1 follows matrix k)
 *          enqueued B times back to back at offsets k*M*N*elem, as a user
 *          without batches would (one plan object: B plans would each
 *          hold their own scratch and programs, and run the same stages).
 * Each way: the pattern uploaded, one run checked bit for bit against the
 * permuted pattern, then K timed runs.  A run is bracketed by two 4-byte
 * fills on a small buffer of the same in-order queue: span = from the end
 * of the first to the start of the second (device time of everything
 * between, gaps between launches included); wall = host clock from before
 * the first enqueue to the end of the wait.  Medians.  One CSV row:
 *   case,elem,mbytes,batch_stages,plan_stages,batch_ms,batch_span_ms,
 *   plans_span_ms,batch_wall_ms,plans_wall_ms,span_ratio,wall_ratio,
 *   verified,plans_verified
 * batch_ms: the batch plan's own device time (clipt_plan_profile);
 * span_ratio = batch_span_ms / plans_span_ms, wall_ratio likewise (<= 1:
 * the batch is not slower). */
#include "permute_bench.h"
#include "hostmat.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

static const char header[] = "case,elem,mbytes,batch_stages,plan_stages,batch_ms,"
                             "batch_span_ms,plans_span_ms,batch_wall_ms,plans_wall_ms,"
                             "span_ratio,wall_ratio,verified,plans_verified\n";

typedef struct timing {
    double plan_ms, span_ms, wall_ms;
    int verified;
} timing;

typedef struct batch_run {
    pbench *b;
    const plan_text_permutation *q;
    cl_mem buf, mark;
    const unsigned char *pattern;
    unsigned char *got;
    size_t count;
} batch_run;

static cl_int mark(const batch_run *r, cl_event *e)
{
    const cl_uint zero = 0;
    return clEnqueueFillBuffer(r->b->cl.queue, r->mark, &zero, sizeof zero, 0, sizeof zero, 0,
                               NULL, e);
}

/* Seconds from the end of `before` to the start of `after`. */
static cl_int between(cl_event before, cl_event after, double *seconds)
{
    cl_ulong end = 0, start = 0;
    cl_int err = clGetEventProfilingInfo(before, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                         NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(after, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      NULL);
    *seconds = start > end ? (double)(start - end) * 1e-9 : 0;
    return err;
}

/* `plan` enqueued `times` times, `stride` bytes apart, between two marks. */
static clipt_status run_once(const batch_run *r, clipt_plan plan, size_t times, size_t stride,
                             double *span_s, double *wall_s)
{
    cl_event e0 = NULL, e1 = NULL;
    const double t0 = util_now_seconds();
    clipt_status s = mark(r, &e0);
    for (size_t k = 0; s == CLIPT_SUCCESS && k < times; k++)
        s = clipt_enqueue(plan, r->b->cl.queue, r->buf, k * stride, 0, NULL, NULL);
    if (s == CLIPT_SUCCESS)
        s = mark(r, &e1);
    if (s == CLIPT_SUCCESS)
        s = clWaitForEvents(1, &e1);
    *wall_s = util_now_seconds() - t0;
    if (s == CLIPT_SUCCESS)
        s = between(e0, e1, span_s);
    if (e0)
        clReleaseEvent(e0);
    if (e1)
        clReleaseEvent(e1);
    return s == CLIPT_SUCCESS ? clFinish(r->b->cl.queue) : s;
}

/* The pattern uploaded, one run checked, K timed runs: medians into *t. */
static clipt_status time_way(const batch_run *r, clipt_plan plan, size_t times, size_t stride,
                             timing *t)
{
    double span[PBENCH_MAX_REPEAT], wall[PBENCH_MAX_REPEAT], own[PBENCH_MAX_REPEAT];
    pbench *b = r->b;
    clipt_status s = pbench_upload(b, r->buf, r->pattern, r->count * b->elem);
    if (s == CLIPT_SUCCESS)
        s = run_once(r, plan, times, stride, &span[0], &wall[0]);
    if (s == CLIPT_SUCCESS && (t->verified = pbench_check(b, r->buf, r->q, r->pattern, r->got,
                                                          r->count)) < 0)
        s = CL_OUT_OF_RESOURCES; /* the read back failed */
    /* each run permutes the previous result: the same work */
    for (size_t k = 0; s == CLIPT_SUCCESS && k < b->repeat; k++)
        if ((s = run_once(r, plan, times, stride, &span[k], &wall[k])) == CLIPT_SUCCESS)
            s = clipt_plan_profile(plan, &own[k], NULL, 0, NULL);
    if (s != CLIPT_SUCCESS)
        return s;
    t->span_ms = 1e3 * util_median(span, b->repeat);
    t->wall_ms = 1e3 * util_median(wall, b->repeat);
    t->plan_ms = 1e3 * util_median(own, b->repeat);
    return CLIPT_SUCCESS;
}

static unsigned stages_of(clipt_plan p)
{
    clipt_plan_info info;
    return p && clipt_plan_query(p, &info) == CLIPT_SUCCESS ? info.num_stages : 0;
}

int pbench_batch_case(pbench *b, const plan_text_permutation *q, const char *name)
{
    batch_run r = {b, q, NULL, NULL, NULL, NULL, pbench_count(q)};
    timing tb = {-1, -1, -1, 0}, tp = {-1, -1, -1, 0};
    clipt_plan batch = NULL, one = NULL;
    clipt_plan_options o;
    unsigned char *pattern = NULL;
    const size_t bytes = r.count * b->elem;
    clipt_status s;
    cl_int err;
    char row[640];
    if (q->ndim != 3 || q->perm[0] != 0 || q->perm[1] != 2 || q->perm[2] != 1) {
        fprintf(stderr, "%s: --batch-vs-plans takes B x M x N with axes 0,2,1\n", name);
        return 0;
    }
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_NONE; /* matrix k+1 follows matrix k */
    if ((s = clipt_plan_create_permute(b->cx, 3, q->dims, q->perm, b->elem, NULL, &batch)) ||
        (s = clipt_plan_create(b->cx, q->dims[1], q->dims[2], b->elem, &o, &one)))
        goto report;
    s = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (!(pattern = malloc(bytes)) || !(r.got = malloc(bytes)))
        goto report;
    hostmat_fill(pattern, r.count, b->elem);
    r.pattern = pattern;
    r.buf = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, clipt_plan_buffer_size(batch),
                           NULL, &err);
    if ((s = err) != CL_SUCCESS)
        goto report;
    r.mark = clCreateBuffer(b->cl.context, CL_MEM_READ_WRITE, 64, NULL, &err);
    if ((s = err) != CL_SUCCESS ||
        (s = time_way(&r, batch, 1, 0, &tb)) != CLIPT_SUCCESS ||
        (s = time_way(&r, one, q->dims[0], q->dims[1] * q->dims[2] * b->elem, &tp)))
        goto report;
report:
    if (s != CLIPT_SUCCESS)
        fprintf(stderr, "%s: %s\n", name, clipt_status_string(s));
    snprintf(row, sizeof row,
             "\"%s\",%zu,%.3f,%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%s\n", name, b->elem,
             (double)bytes / 1e6, stages_of(batch), stages_of(one), tb.plan_ms, tb.span_ms,
             tp.span_ms, tb.wall_ms, tp.wall_ms, tp.span_ms > 0 ? tb.span_ms / tp.span_ms : 0,
             tp.wall_ms > 0 ? tb.wall_ms / tp.wall_ms : 0,
             s != CLIPT_SUCCESS ? clipt_status_string(s) : tb.verified == 1 ? "yes" : "NO",
             tp.verified == 1 ? "yes" : "no");
    pbench_emit(b, header, row);
    if (r.buf)
        clReleaseMemObject(r.buf);
    if (r.mark)
        clReleaseMemObject(r.mark);
    free(pattern);
    free(r.got);
    clipt_plan_release(batch);
    clipt_plan_release(one);
    return s == CLIPT_SUCCESS && tb.verified == 1 && tp.verified == 1;
}
