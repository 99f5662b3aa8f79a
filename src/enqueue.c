/* Enqueueing plans (see enqueue.h): checks, the stage path, profiling. */
#include "enqueue.h"
#include "held_events.h"

#include <stdatomic.h>
#include <stdlib.h>

/* ---- checks ------------------------------------------------------------- */

clipt_status clipt_check_queue(clipt_context c, cl_command_queue q)
{
    cl_context qctx = NULL;
    cl_device_id qdev = NULL;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
    if (err != CL_SUCCESS)
        return err;
    return qctx == c->cl_ctx && qdev == c->device ? CLIPT_SUCCESS
                                                  : CLIPT_ERROR_DEVICE_MISMATCH;
}

static clipt_status check_buffer(clipt_plan p, cl_mem buf, size_t offset)
{
    cl_context mctx = NULL;
    cl_mem_flags flags = 0;
    size_t size = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (mctx != p->ctx->cl_ctx)
        return CLIPT_ERROR_DEVICE_MISMATCH;
    if ((err = clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof flags, &flags, NULL)) ||
        (err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL)))
        return err;
    if (flags & CL_MEM_READ_ONLY)
        return CLIPT_ERROR_READ_ONLY_BUFFER;
    if (flags & CL_MEM_WRITE_ONLY)
        return CLIPT_ERROR_WRITE_ONLY_BUFFER; /* the kernels read it too */
    if (offset % p->elem)
        return CLIPT_ERROR_MISALIGNED_OFFSET;
    if (offset > size || size - offset < p->buffer_bytes)
        return CLIPT_ERROR_BUFFER_TOO_SMALL;
    return CLIPT_SUCCESS;
}

/* An event that failed before the enqueue is refused: OpenCL gives a
 * command waiting for it no defined outcome, and some runtimes (PoCL 3.1)
 * leave it queued for ever, and every later run of the plan behind it. */
static clipt_status check_wait_list(clipt_plan p, cl_uint n, const cl_event *list)
{
    if ((n == 0) != (list == NULL))
        return CLIPT_ERROR_INVALID_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        cl_context ectx = NULL;
        cl_int state = CL_COMPLETE;
        if (!list[i] ||
            clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof ectx, &ectx, NULL) != CL_SUCCESS ||
            ectx != p->ctx->cl_ctx ||
            clGetEventInfo(list[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                           NULL) != CL_SUCCESS)
            return CLIPT_ERROR_INVALID_WAIT_LIST;
        if (state < 0)
            return CLIPT_ERROR_WAIT_EVENT_FAILED;
    }
    return CLIPT_SUCCESS;
}

/* ---- the stage path ------------------------------------------------------ */

/* The test hook's countdown: the stage enqueue that takes it to 0 fails. */
static atomic_uint fail_countdown;

void clipt_test_fail_stage_enqueue(unsigned k)
{
    atomic_store(&fail_countdown, k);
}

static int injected_failure(void)
{
    unsigned k = atomic_load(&fail_countdown);
    while (k > 0 && !atomic_compare_exchange_weak(&fail_countdown, &k, k - 1))
        ;
    return k == 1;
}

/* Sets stage i's arguments for the run's part of the region.  A widened
 * pass's stage was prepared on elements `widen` of the plan's (its own
 * widening of whole units, st->unit, is the stage's business). */
static clipt_status set_run_args(const struct clipt_plan_s *p, unsigned i,
                                 const clipt_stage_run *run, cl_mem scratch)
{
    const clipt_stage *st = &p->stages[i];
    const uint64_t widen = st->elem / st->unit / p->elem;
    const uint64_t size = clipt_stage_instance_elems(st) * widen;
    const cl_ulong offset = run->offset / widen;
    if (run->begin == run->end)
        return clipt_stage_set_args(st, run->buf, offset, p->tail, scratch);
    return clipt_stage_set_part_args(st, run->begin / size, (run->end - run->begin) / size,
                                     run->buf, offset, p->tail, scratch);
}

/* The stages' tables, made on the device at the plan's first run ahead
 * of its first stage (each stage's enqueue would make its own otherwise,
 * behind the stages before it); the events of those made now are kept for
 * clipt_plan_profile. */
static clipt_status upload_tables(struct clipt_plan_s *p, cl_command_queue q)
{
    clipt_status status = CLIPT_SUCCESS;
    for (unsigned i = 0; i < p->num_stages && status == CLIPT_SUCCESS; i++) {
        clipt_stage *st = &p->stages[i];
        const int made = st->uploaded != NULL;
        status = clipt_stage_upload(st, q);
        if (!made && st->uploaded && !p->stage_prep[i] &&
            clRetainEvent(st->uploaded) == CL_SUCCESS)
            p->stage_prep[i] = st->uploaded;
    }
    return status;
}

clipt_status clipt_plan_run_stages(struct clipt_plan_s *p, const clipt_stage_run *run,
                                   cl_uint num_wait, const cl_event *wait,
                                   cl_event *first_events, cl_event *done_events,
                                   cl_event *done)
{
    cl_mem scratch = run->scratch ? run->scratch : p->scratch;
    cl_event prev = NULL;
    clipt_status status = CLIPT_SUCCESS;
    *done = NULL;
    if (run->count == 0)
        return clEnqueueMarkerWithWaitList(run->queue, num_wait, wait, done);
    for (unsigned i = 0; i < run->count; i++)
        if ((status = set_run_args(p, run->first + i, run, scratch)) != CL_SUCCESS)
            return status;
    if ((status = upload_tables(p, run->queue)) != CL_SUCCESS)
        return status;
    for (unsigned i = 0; i < run->count; i++) {
        cl_event last = NULL;
        status = injected_failure()
                     ? CL_OUT_OF_RESOURCES
                     : clipt_stage_enqueue(&p->stages[run->first + i], run->queue, scratch,
                                           prev ? 1 : num_wait, prev ? &prev : wait,
                                           first_events ? &first_events[i] : NULL, &last);
        if (status != CL_SUCCESS)
            break;
        if (done_events) {
            done_events[i] = last;
            clRetainEvent(last);
        }
        if (prev)
            clReleaseEvent(prev);
        prev = last;
    }
    /* after a failure, the stages already queued still run: what comes
     * next must wait for them */
    *done = prev;
    return status;
}

size_t clipt_plan_run_scratch(const struct clipt_plan_s *p, unsigned first, unsigned count)
{
    size_t most = 0;
    for (unsigned i = first; i < first + count; i++)
        if (p->stages[i].scratch_bytes > most)
            most = p->stages[i].scratch_bytes;
    return most;
}

/* ---- clipt_enqueue's path ---------------------------------------------------------- */

void clipt_plan_drop_events(struct clipt_plan_s *p)
{
    for (unsigned i = 0; i < CLIPT_MAX_PLAN_STAGES; i++) {
        if (p->stage_first[i])
            clReleaseEvent(p->stage_first[i]);
        if (p->stage_done[i])
            clReleaseEvent(p->stage_done[i]);
        if (p->stage_prep[i])
            clReleaseEvent(p->stage_prep[i]);
        p->stage_first[i] = p->stage_done[i] = p->stage_prep[i] = NULL;
    }
}

/* Every stage of the plan, keeping their events for clipt_plan_profile
 * and, every one of them, in `held` until the run settles; called with
 * p->lock held.  *done as clipt_plan_run_stages. */
static clipt_status enqueue_all(clipt_plan p, cl_command_queue q, cl_mem buf,
                                cl_ulong offset_elems, cl_uint n, const cl_event *wait,
                                clipt_held_run *held, cl_event *done)
{
    const clipt_stage_run run = {0, p->num_stages, 0, 0, q, buf, offset_elems, NULL};
    clipt_status status;
    clipt_plan_drop_events(p);
    status = clipt_plan_run_stages(p, &run, n, wait, p->stage_first, p->stage_done, done);
    for (unsigned i = 0; i < p->num_stages; i++) {
        if (p->stage_first[i])
            clipt_held_run_add(held, p->stage_first[i]);
        if (p->stage_done[i])
            clipt_held_run_add(held, p->stage_done[i]);
    }
    if (*done)
        clipt_held_run_add(held, *done);
    if (status != CL_SUCCESS)
        clipt_plan_drop_events(p);
    return status;
}

static clipt_status event_time(cl_event e, cl_profiling_info what, cl_ulong *t)
{
    return clGetEventProfilingInfo(e, what, sizeof *t, t, NULL);
}

clipt_status clipt_plan_profile(clipt_plan p, double *total_seconds,
                                double *stage_seconds, unsigned max_stages,
                                unsigned *num_stages)
{
    cl_ulong first_start = 0, last_end = 0;
    clipt_status status = CLIPT_SUCCESS;
    if (!p)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if (!p->last)
        return CL_INVALID_OPERATION;
    if (p->last_ran_narrow) /* its stages ran, not p's */
        return clipt_plan_profile(p->narrow, total_seconds, stage_seconds, max_stages,
                                  num_stages);
    if (num_stages)
        *num_stages = p->num_stages;
    for (unsigned i = 0; i < p->num_stages; i++) {
        cl_ulong start = 0, end = 0;
        if ((status = event_time(p->stage_first[i], CL_PROFILING_COMMAND_START, &start)) ||
            (status = event_time(p->stage_done[i], CL_PROFILING_COMMAND_END, &end)))
            return status;
        if (i == 0)
            first_start = start;
        last_end = end;
        if (stage_seconds && i < max_stages)
            stage_seconds[i] = (double)(end - start) * 1e-9;
    }
    if (p->num_stages == 0 &&
        ((status = event_time(p->last, CL_PROFILING_COMMAND_START, &first_start)) ||
         (status = event_time(p->last, CL_PROFILING_COMMAND_END, &last_end))))
        return status;
    if (total_seconds)
        *total_seconds = (double)(last_end - first_start) * 1e-9;
    /* the tables this run made (cut on the device): work the plan's
     * creation left to its first run, so counted in it */
    for (unsigned i = 0; i < p->num_stages && total_seconds; i++) {
        cl_ulong start = 0, end = 0;
        if (p->stage_prep[i] &&
            event_time(p->stage_prep[i], CL_PROFILING_COMMAND_START, &start) == CL_SUCCESS &&
            event_time(p->stage_prep[i], CL_PROFILING_COMMAND_END, &end) == CL_SUCCESS)
            *total_seconds += (double)(end - start) * 1e-9;
    }
    return CLIPT_SUCCESS;
}

int clipt_run_failed(cl_event last)
{
    cl_int state = CL_COMPLETE;
    if (clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                       NULL) != CL_SUCCESS)
        return 0; /* keep the wait; the runtime reports a bad event itself */
    return state < 0;
}

cl_event *clipt_plan_wait_list(const struct clipt_plan_s *p, const cl_event *list, cl_uint *n)
{
    cl_event *wait = malloc(((size_t)*n + 1) * sizeof *wait);
    if (!wait)
        return NULL;
    for (cl_uint i = 0; i < *n; i++)
        wait[i] = list[i];
    if (p->last && !clipt_run_failed(p->last))
        wait[(*n)++] = p->last;
    return wait;
}

clipt_status clipt_plan_enqueue_stages(clipt_plan p, cl_command_queue q, cl_mem buf,
                                       size_t offset_bytes, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event)
{
    clipt_status status;
    cl_event *wait = NULL;
    cl_uint n = num_events_in_wait_list;
    cl_event done = NULL;
    clipt_held_run *held = NULL;
    if (event)
        *event = NULL;
    if (!p || !q || !buf)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = check_wait_list(p, num_events_in_wait_list, event_wait_list)) ||
        (status = clipt_check_queue(p->ctx, q)) || (status = check_buffer(p, buf, offset_bytes)))
        return status;
    pthread_mutex_lock(&p->lock);
    /* wait for the caller's events and for this plan's previous run, which
     * shares the scratch buffer */
    wait = clipt_plan_wait_list(p, event_wait_list, &n);
    held = clipt_held_run_new(2 * p->num_stages + 1);
    if (!wait || !held) {
        free(held);
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto unlock;
    }
    p->last_ran_narrow = 0; /* clipt_plan_profile reports p's own stages */
    status = enqueue_all(p, q, buf, (cl_ulong)(offset_bytes / p->elem), n, n ? wait : NULL,
                         held, &done);
    clipt_held_run_submit(held, done);
    if (done) {
        if (p->last)
            clReleaseEvent(p->last);
        p->last = done;
    }
    if (status != CLIPT_SUCCESS)
        goto unlock;
    if (event) {
        clRetainEvent(done);
        *event = done;
    }
unlock:
    pthread_mutex_unlock(&p->lock);
    free(wait);
    return status;
}

