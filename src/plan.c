/* Plan lifetime: creation (options, choice, stages, memory), release, and
 * the one-shot transpose. */
#include "enqueue.h"
#include "held_events.h"
#include "options.h"

#include <stdlib.h>
#include <string.h>

/* Prepares the stages of the plan's choice, identities left out. */
static clipt_status build_stages(clipt_plan p)
{
    const clipt_plan_choice *ch = &p->choice;
    const clipt_staged_layout layout = {p->batch, p->rows, p->cols, ch->prows, ch->pcols,
                                        ch->m, ch->n, ch->sequence};
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    const int count = clipt_staged_specs(&layout, specs);
    if (count < 0)
        return CLIPT_ERROR_INVALID_OPTION;
    for (int i = 0; i < count; i++) {
        clipt_stage *st = &p->stages[p->num_stages];
        clipt_status status = clipt_stage_prepare(p->ctx, &specs[i], p->elem, &p->tuning, st);
        if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS &&
            p->opts.sequence != CLIPT_SEQUENCE_AUTO)
            status = CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
        if (status != CLIPT_SUCCESS)
            return status;
        p->num_stages++;
        if (st->scratch_bytes > p->scratch_bytes)
            p->scratch_bytes = st->scratch_bytes;
        p->aux_bytes += st->aux_bytes;
    }
    return CLIPT_SUCCESS;
}

/* Refuses, at plan creation rather than at enqueue, a plan whose buffers
 * cannot exist on the device: a scratch buffer larger than one allocation
 * may be, or matrix, scratch and segment tables together larger than the
 * device's memory (runtimes may allocate lazily, at the first enqueue). */
static clipt_status check_device_memory(clipt_plan p)
{
    const clipt_device_profile *d = &p->ctx->profile;
    if (p->scratch_bytes > d->max_alloc_bytes)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (p->buffer_bytes > d->global_mem_bytes ||
        p->scratch_bytes + p->aux_bytes > d->global_mem_bytes - p->buffer_bytes)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    return CLIPT_SUCCESS;
}

static clipt_status allocate_scratch(clipt_plan p)
{
    cl_int err;
    if (p->scratch_bytes == 0)
        return CLIPT_SUCCESS;
    p->scratch = clCreateBuffer(p->ctx->cl_ctx, CL_MEM_READ_WRITE,
                                p->scratch_bytes, NULL, &err);
    return err;
}

clipt_status clipt_plan_create(clipt_context c, size_t rows, size_t cols,
                               size_t elem_size, const clipt_plan_options *opts,
                               clipt_plan *out)
{
    clipt_plan p = NULL;
    clipt_plan_options defaults;
    clipt_status status;
    size_t bytes = 0, padded_count;
    if (out)
        *out = NULL;
    if (!c || !out)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = clipt_check_shape(rows, cols, elem_size, &bytes)) != CLIPT_SUCCESS)
        return status;
    if (!opts) {
        clipt_plan_options_init(&defaults);
        opts = &defaults;
    }
    if ((status = clipt_check_options(opts, &c->profile)) != CLIPT_SUCCESS)
        return status;
    p = calloc(1, sizeof *p);
    if (!p)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    if (pthread_mutex_init(&p->lock, NULL)) {
        free(p);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    clipt_context_retain(c);
    p->ctx = c;
    p->batch = 1;
    p->rows = rows;
    p->cols = cols;
    p->elem = elem_size;
    p->opts = *opts;
    p->tuning = clipt_options_tuning(opts, &c->profile.tuning);
    status = clipt_plan_choose(&c->profile, rows, cols, elem_size, opts, &p->tuning,
                               &p->choice);
    if (status != CLIPT_SUCCESS)
        goto fail;
    if (!clipt_mul_ok(p->choice.prows, p->choice.pcols, &padded_count) ||
        !clipt_mul_ok(padded_count, elem_size, &p->buffer_bytes)) {
        status = CLIPT_ERROR_SHAPE_OVERFLOW;
        goto fail;
    }
    if (p->buffer_bytes > c->profile.max_alloc_bytes &&
        bytes <= c->profile.max_alloc_bytes) {
        status = CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
        goto fail;
    }
    if ((status = build_stages(p)) != CLIPT_SUCCESS ||
        (status = check_device_memory(p)) != CLIPT_SUCCESS ||
        (status = allocate_scratch(p)) != CLIPT_SUCCESS)
        goto fail;
    *out = p;
    return CLIPT_SUCCESS;
fail:
    clipt_plan_release(p);
    return status;
}

void clipt_plan_release(clipt_plan p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < p->num_stages; i++)
        clipt_stage_release(&p->stages[i]);
    if (p->scratch)
        clReleaseMemObject(p->scratch);
    if (p->last)
        clReleaseEvent(p->last);
    clipt_plan_drop_events(p);
    /* the events of its runs that have not settled stay held */
    clipt_held_sweep();
    pthread_mutex_destroy(&p->lock);
    clipt_context_release(p->ctx);
    free(p);
}

size_t clipt_plan_buffer_size(clipt_plan p) { return p ? p->buffer_bytes : 0; }

size_t clipt_plan_scratch_size(clipt_plan p)
{
    return p ? p->scratch_bytes + p->aux_bytes : 0;
}

/* ---- one-shot ---------------------------------------------------------- */

clipt_status clipt_transpose(cl_command_queue q, cl_mem buf, size_t offset_bytes,
                             size_t rows, size_t cols, size_t elem_size)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    clipt_context c = NULL;
    clipt_plan p = NULL;
    clipt_plan_options o;
    cl_event done = NULL;
    size_t bytes;
    clipt_status status;
    if (!q || !buf)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = clipt_check_shape(rows, cols, elem_size, &bytes)) != CLIPT_SUCCESS)
        return status;
    if ((status = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL)) ||
        (status = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL)))
        return status;
    if ((status = clipt_context_create(ctx, dev, &c)) != CLIPT_SUCCESS)
        return status;
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_NONE;
    if ((status = clipt_plan_create(c, rows, cols, elem_size, &o, &p)) ||
        (status = clipt_enqueue(p, q, buf, offset_bytes, 0, NULL, &done)))
        goto cleanup;
    status = clWaitForEvents(1, &done);
cleanup:
    if (done)
        clReleaseEvent(done);
    clipt_plan_release(p);
    clipt_context_release(c);
    return status;
}
