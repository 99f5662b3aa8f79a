/* clipt_transpose_host: a host matrix through the device and back, with the
 * independent instances of the first and last stages cut into pieces on
 * several command queues so that the transfers overlap the compute. */
#include "host.h"
#include "enqueue.h"

#include <stdlib.h>
#include <string.h>

/* ---- the split ---------------------------------------------------------- */

/* Padding moves rows across the whole buffer, and a single instance is one
 * piece: neither can be cut. */
static int has_independent_instances(const clipt_stage *st)
{
    return st->spec.op != CLIPT_OP_PAD && st->spec.op != CLIPT_OP_UNPAD &&
           st->spec.instances > 1;
}

/* Whether st can join a run whose pieces are cut at multiples of *unit
 * (0: an empty run): the cuts must fall on instance boundaries of every
 * stage of the run, which holds when one instance size divides the other;
 * the larger one becomes the unit. */
static int joins_run(const clipt_stage *st, uint64_t *unit)
{
    const uint64_t size = clipt_stage_instance_elems(st);
    if (!has_independent_instances(st))
        return 0;
    if (*unit == 0 || size % *unit == 0) {
        *unit = size;
        return 1;
    }
    return *unit % size == 0;
}

static void finish_run(clipt_host_run *r, unsigned first, unsigned count,
                       uint64_t total, unsigned queues)
{
    r->first = first;
    r->count = count;
    if (count == 0)
        r->unit = total;
    r->chunks = total / r->unit < queues ? (unsigned)(total / r->unit) : queues;
}

void clipt_host_split_plan(const struct clipt_plan_s *p, unsigned queues,
                           clipt_host_split *out)
{
    const uint64_t total = clipt_plan_region_elems(p);
    unsigned head_end = 0, tail_start = p->num_stages;
    memset(out, 0, sizeof *out);
    while (head_end < p->num_stages && joins_run(&p->stages[head_end], &out->head.unit))
        head_end++;
    while (tail_start > head_end && joins_run(&p->stages[tail_start - 1], &out->tail.unit))
        tail_start--;
    finish_run(&out->head, 0, head_end, total, queues);
    finish_run(&out->tail, tail_start, p->num_stages - tail_start, total, queues);
    out->queues = out->head.chunks > out->tail.chunks ? out->head.chunks : out->tail.chunks;
}

void clipt_host_chunk(const clipt_host_run *r, uint64_t total, unsigned chunk,
                      uint64_t *begin, uint64_t *end)
{
    const uint64_t units = total / r->unit;
    *begin = units * chunk / r->chunks * r->unit;
    *end = units * (chunk + 1) / r->chunks * r->unit;
}

/* ---- one call's device objects ------------------------------------------ */

typedef struct host_job {
    clipt_plan plan;
    unsigned char *host;
    size_t host_bytes;        /* rows * cols * elem: the rest is padding   */
    cl_mem buf;               /* the padded matrix at offset 0             */
    cl_command_queue queue[CLIPT_HOST_MAX_QUEUES]; /* [0]: the caller's q  */
    cl_mem scratch[CLIPT_HOST_MAX_QUEUES];         /* NULL: the plan's     */
    unsigned num_queues;
    cl_event after;           /* the plan's previous run (clipt_enqueue),
                                 which the uploads wait for; NULL: none    */
    cl_event *events;         /* every command's event: waited for, then
                                 released, at the end                      */
    size_t num_events, max_events;
} host_job;

/* Scratch each extra queue needs: the most any cut stage zeroes or uses. */
static size_t piece_scratch_bytes(const clipt_plan p, const clipt_host_split *sp)
{
    const size_t head = clipt_plan_run_scratch(p, sp->head.first, sp->head.count);
    const size_t tail = clipt_plan_run_scratch(p, sp->tail.first, sp->tail.count);
    return head > tail ? head : tail;
}

/* The device buffer, the extra queues with their scratch buffers, and room
 * for every event the call can make. */
static clipt_status open_job(host_job *j, cl_command_queue q, const clipt_host_split *sp)
{
    const clipt_context c = j->plan->ctx;
    const size_t scratch_bytes = piece_scratch_bytes(j->plan, sp);
    cl_int err = CL_SUCCESS;
    /* per piece: upload, stages, read-back; plus the stages between */
    j->max_events = ((size_t)j->plan->num_stages + 2) * (sp->queues + 1);
    j->events = calloc(j->max_events, sizeof *j->events);
    if (!j->events)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    j->buf = clCreateBuffer(c->cl_ctx, CL_MEM_READ_WRITE, j->plan->buffer_bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return err;
    j->queue[0] = q;
    j->num_queues = 1;
    for (unsigned k = 1; k < sp->queues; k++, j->num_queues++) {
        j->queue[k] = clCreateCommandQueue(c->cl_ctx, c->device, 0, &err);
        if (err != CL_SUCCESS)
            return err;
        if (scratch_bytes == 0)
            continue; /* NULL, the plan's: no stage cut here touches it */
        j->scratch[k] = clCreateBuffer(c->cl_ctx, CL_MEM_READ_WRITE, scratch_bytes, NULL, &err);
        if (err != CL_SUCCESS) {
            j->num_queues++; /* the queue is made: close_job releases it */
            return err;
        }
    }
    return CLIPT_SUCCESS;
}

static void close_job(host_job *j)
{
    for (size_t i = 0; i < j->num_events; i++)
        clReleaseEvent(j->events[i]);
    free(j->events);
    for (unsigned k = 1; k < j->num_queues; k++) {
        if (j->scratch[k])
            clReleaseMemObject(j->scratch[k]);
        clReleaseCommandQueue(j->queue[k]);
    }
    if (j->buf)
        clReleaseMemObject(j->buf);
    clipt_plan_release(j->plan);
}

/* Keeps ev to wait for and release at the end. */
static void keep(host_job *j, cl_event ev)
{
    j->events[j->num_events++] = ev;
}

/* Flushes every queue and waits for every command; the first failure. */
static clipt_status wait_all(host_job *j)
{
    clipt_status first = CLIPT_SUCCESS;
    for (unsigned k = 0; k < j->num_queues; k++) {
        cl_int err = clFlush(j->queue[k]);
        if (first == CLIPT_SUCCESS)
            first = err;
    }
    /* one at a time: a failed event must not stop the wait for the others,
     * which may still be writing into the caller's memory */
    for (size_t i = 0; i < j->num_events; i++) {
        cl_int err = clWaitForEvents(1, &j->events[i]);
        if (first == CLIPT_SUCCESS)
            first = err;
    }
    return first;
}

/* ---- enqueueing ------------------------------------------------------------ */

/* Copies elements [begin, end) of the device matrix to or from the host
 * array on queue qi, clipped to the rows*cols elements the host holds (the
 * rest is padding); a piece of padding only gets a marker, for the chain. */
static clipt_status transfer(host_job *j, int to_device, unsigned qi, uint64_t begin,
                             uint64_t end, cl_uint num_wait, const cl_event *wait,
                             cl_event *done)
{
    const uint64_t elem = j->plan->elem;
    const size_t lo = (size_t)(begin * elem < j->host_bytes ? begin * elem : j->host_bytes);
    const size_t hi = (size_t)(end * elem < j->host_bytes ? end * elem : j->host_bytes);
    cl_command_queue q = j->queue[qi];
    cl_int err;
    if (lo == hi)
        err = clEnqueueMarkerWithWaitList(q, num_wait, wait, done);
    else if (to_device)
        err = clEnqueueWriteBuffer(q, j->buf, CL_FALSE, lo, hi - lo, j->host + lo,
                                   num_wait, wait, done);
    else
        err = clEnqueueReadBuffer(q, j->buf, CL_FALSE, lo, hi - lo, j->host + lo,
                                  num_wait, wait, done);
    if (err == CL_SUCCESS)
        keep(j, *done);
    return err;
}

/* Enqueues `run` (stages of the plan) on queue qi with that queue's
 * scratch, after `wait`, keeping every stage's event; *last receives the
 * last stage's. */
static clipt_status run_stages(host_job *j, clipt_stage_run *run, unsigned qi,
                               cl_uint num_wait, const cl_event *wait, cl_event *last)
{
    cl_event done[CLIPT_MAX_PLAN_STAGES] = {NULL};
    clipt_status status;
    run->queue = j->queue[qi];
    run->buf = j->buf;
    run->offset = 0;
    run->scratch = j->scratch[qi];
    status = clipt_plan_run_stages(j->plan, run, num_wait, wait, NULL, done, last);
    for (unsigned i = 0; i < run->count && done[i]; i++)
        keep(j, done[i]);
    if (*last)
        clReleaseEvent(*last); /* kept above, as done[count - 1] */
    return status;
}

/* The stages of run r on the instances within elements [begin, end), on
 * queue qi, the first after `wait`; *last receives the final event (wait[0]
 * when the run is empty, which is only ever called with one event). */
static clipt_status piece_stages(host_job *j, const clipt_host_run *r, unsigned qi,
                                 uint64_t begin, uint64_t end, cl_uint num_wait,
                                 const cl_event *wait, cl_event *last)
{
    clipt_stage_run run = {r->first, r->count, begin, end, NULL, NULL, 0, NULL};
    *last = wait[0];
    if (r->count == 0)
        return CLIPT_SUCCESS;
    return run_stages(j, &run, qi, num_wait, wait, last);
}

/* Each head piece: its upload, then the head stages on its instances, on
 * its own queue; front[] receives each piece's last event. */
static clipt_status upload(host_job *j, const clipt_host_split *sp, uint64_t total,
                           cl_event *front, cl_uint *num_front)
{
    for (unsigned k = 0; k < sp->head.chunks; k++) {
        uint64_t begin, end;
        cl_event written = NULL;
        clipt_status status;
        clipt_host_chunk(&sp->head, total, k, &begin, &end);
        if ((status = transfer(j, 1, k, begin, end, j->after ? 1 : 0,
                               j->after ? &j->after : NULL, &written)) ||
            (status = piece_stages(j, &sp->head, k, begin, end, 1, &written,
                                   &front[*num_front])))
            return status;
        ++*num_front;
    }
    return CLIPT_SUCCESS;
}

/* The stages between the runs, whole, on the caller's queue after front[]. */
static clipt_status middle(host_job *j, const clipt_host_split *sp, cl_event *front,
                           cl_uint *num_front)
{
    clipt_stage_run run = {sp->head.count, sp->tail.first - sp->head.count, 0, 0,
                           NULL, NULL, 0, NULL};
    cl_event last = NULL;
    clipt_status status;
    if (run.count == 0)
        return CLIPT_SUCCESS;
    status = run_stages(j, &run, 0, *num_front, front, &last);
    if (status == CLIPT_SUCCESS) {
        front[0] = last;
        *num_front = 1;
    }
    return status;
}

/* Each tail piece: the tail stages after front[], then its read-back, on
 * its own queue; with no tail stages, one read-back of everything. */
static clipt_status download(host_job *j, const clipt_host_split *sp, uint64_t total,
                             const cl_event *front, cl_uint num_front)
{
    for (unsigned k = 0; k < sp->tail.chunks; k++) {
        uint64_t begin, end;
        cl_event last = NULL, read = NULL;
        clipt_status status;
        clipt_host_chunk(&sp->tail, total, k, &begin, &end);
        if (sp->tail.count == 0)
            status = transfer(j, 0, k, begin, end, num_front, front, &read);
        else if ((status = piece_stages(j, &sp->tail, k, begin, end, num_front, front,
                                        &last)) == CLIPT_SUCCESS)
            status = transfer(j, 0, k, begin, end, 1, &last, &read);
        if (status != CLIPT_SUCCESS)
            return status;
    }
    return CLIPT_SUCCESS;
}

static clipt_status enqueue_all(host_job *j, const clipt_host_split *sp)
{
    const uint64_t total = clipt_plan_region_elems(j->plan);
    cl_event front[CLIPT_HOST_MAX_QUEUES];
    cl_uint num_front = 0;
    clipt_status status = upload(j, sp, total, front, &num_front);
    if (status == CLIPT_SUCCESS &&
        (status = middle(j, sp, front, &num_front)) == CLIPT_SUCCESS)
        status = download(j, sp, total, front, num_front);
    return status;
}

clipt_status clipt_transpose_host(clipt_context c, cl_command_queue q, void *data,
                                  size_t rows, size_t cols, size_t elem_size,
                                  unsigned queues, const clipt_plan_options *opts)
{
    host_job j;
    clipt_host_split sp;
    clipt_status status, waited;
    clipt_plan_options room;
    memset(&j, 0, sizeof j);
    if (!c || !q || !data)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (opts && (opts->padding == CLIPT_PADDING_SCRATCH ||
                 (opts->padding == CLIPT_PADDING_NONE && !opts->tile_m && !opts->tile_n))) {
        /* the device buffer is the call's own: padding gets room there, the
         * factors room-less padding would give without the split indexing
         * (and the pieces cut below address one buffer) */
        room = *opts;
        room.padding = CLIPT_PADDING_AUTO;
        opts = &room;
    }
    if (queues == 0 || queues > CLIPT_HOST_MAX_QUEUES)
        return CLIPT_ERROR_INVALID_OPTION;
    if ((status = clipt_check_queue(c, q)) != CLIPT_SUCCESS ||
        (status = clipt_plan_shared(c, rows, cols, elem_size, opts, &j.plan)) != CLIPT_SUCCESS)
        return status;
    j.host = data;
    j.host_bytes = rows * cols * elem_size; /* the plan checked the product */
    clipt_host_split_plan(j.plan, queues, &sp);
    /* the plan may be shared with other threads' calls (the context's plan
     * cache): they share its kernels' arguments and its scratch buffer, so
     * one call runs it at a time, from its first argument set to its last
     * command's end */
    pthread_mutex_lock(&j.plan->lock);
    if (j.plan->last && !clipt_run_failed(j.plan->last))
        j.after = j.plan->last;
    if ((status = open_job(&j, q, &sp)) == CLIPT_SUCCESS)
        status = enqueue_all(&j, &sp);
    /* also after a failure: what was enqueued may still be copying into
     * the caller's memory */
    waited = wait_all(&j);
    if (status == CLIPT_SUCCESS)
        status = waited;
    pthread_mutex_unlock(&j.plan->lock);
    if (clipt_status_drops_cache(status))
        clipt_plan_cache_forget(&c->plans, j.plan);
    close_job(&j);
    return status;
}
