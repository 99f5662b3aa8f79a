/* Plan lifetime: creation (options, choice, stages, memory), release, and
 * the plans the one-shot calls share through their context's cache. */
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
        clipt_status status;
        /* room-less padding: the region continues in the plan's tail */
        if (p->tail_bytes)
            specs[i].split = p->buffer_bytes / p->elem;
        status = clipt_stage_prepare(p->ctx, &specs[i], p->elem, &p->tuning, st);
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
    if (p->scratch_bytes > d->max_alloc_bytes || p->tail_bytes > d->max_alloc_bytes)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (p->buffer_bytes > d->global_mem_bytes ||
        (double)p->scratch_bytes + (double)p->aux_bytes + (double)p->tail_bytes >
            (double)(d->global_mem_bytes - p->buffer_bytes))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    return CLIPT_SUCCESS;
}

static clipt_status allocate_scratch(clipt_plan p)
{
    cl_int err = CL_SUCCESS;
    if (p->scratch_bytes)
        p->scratch = clCreateBuffer(p->ctx->cl_ctx, CL_MEM_READ_WRITE, p->scratch_bytes, NULL,
                                    &err);
    if (err == CL_SUCCESS && p->tail_bytes)
        p->tail = clCreateBuffer(p->ctx->cl_ctx, CL_MEM_READ_WRITE, p->tail_bytes, NULL, &err);
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
    atomic_init(&p->refs, 1);
    p->holds_ctx = 1;
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
    if (p->choice.roomless) {
        /* the caller's buffer holds the matrix; the rest is the plan's */
        p->tail_bytes = p->buffer_bytes - bytes;
        p->buffer_bytes = bytes;
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
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    for (unsigned i = 0; i < p->num_stages; i++)
        clipt_stage_release(&p->stages[i]);
    if (p->scratch)
        clReleaseMemObject(p->scratch);
    if (p->tail)
        clReleaseMemObject(p->tail);
    if (p->last)
        clReleaseEvent(p->last);
    clipt_plan_drop_events(p);
    /* the events of its runs that have not settled stay held */
    clipt_held_sweep();
    pthread_mutex_destroy(&p->lock);
    if (p->holds_ctx)
        clipt_context_release(p->ctx);
    free(p);
}

size_t clipt_plan_buffer_size(clipt_plan p) { return p ? p->buffer_bytes : 0; }

size_t clipt_plan_scratch_size(clipt_plan p)
{
    return p ? p->scratch_bytes + p->aux_bytes + p->tail_bytes : 0;
}

/* ---- shared plans ------------------------------------------------------- */

clipt_status clipt_plan_shared(clipt_context c, size_t rows, size_t cols, size_t elem_size,
                               const clipt_plan_options *opts, clipt_plan *out)
{
    clipt_plan_options defaults;
    clipt_plan_key key;
    clipt_plan p = NULL, used;
    clipt_status status;
    size_t bytes;
    int cached = 0;
    *out = NULL;
    memset(&key, 0, sizeof key);
    if (!opts) {
        clipt_plan_options_init(&defaults);
        opts = &defaults;
    }
    /* the key is made of checked values only; a bad argument reaches
     * clipt_plan_create's checks and their exact status */
    if (clipt_check_shape(rows, cols, elem_size, &bytes) == CLIPT_SUCCESS &&
        clipt_check_options(opts, &c->profile) == CLIPT_SUCCESS) {
        key = clipt_plan_key_of(rows, cols, elem_size, opts, &c->profile.tuning);
        if ((*out = clipt_plan_cache_find(&c->plans, &key)) != NULL)
            return CLIPT_SUCCESS;
    }
    if ((status = clipt_plan_create(c, rows, cols, elem_size, opts, &p)) != CLIPT_SUCCESS)
        return status;
    used = clipt_plan_cache_offer(&c->plans, &key, p, clipt_plan_scratch_size(p),
                                  clipt_plan_release, &cached);
    if (cached) {
        /* the cache is the context's: a plan in it must not keep the
         * context alive (see plan_cache.h); the caller's reference to c
         * covers the plan's use */
        p->holds_ctx = 0;
        clipt_context_release(c);
    }
    if (used != p)
        clipt_plan_release(p);
    *out = used;
    return CLIPT_SUCCESS;
}

int clipt_status_drops_cache(clipt_status status)
{
    switch (status) {
    case CLIPT_SUCCESS:
    case CLIPT_ERROR_INVALID_SHAPE:
    case CLIPT_ERROR_SHAPE_OVERFLOW:
    case CLIPT_ERROR_INVALID_ELEM_SIZE:
    case CLIPT_ERROR_NULL_ARGUMENT:
    case CLIPT_ERROR_BUFFER_TOO_SMALL:
    case CLIPT_ERROR_MISALIGNED_OFFSET:
    case CLIPT_ERROR_DEVICE_MISMATCH:
    case CLIPT_ERROR_INVALID_OPTION:
    case CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS:
    case CLIPT_ERROR_READ_ONLY_BUFFER:
    case CLIPT_ERROR_WRITE_ONLY_BUFFER:
    case CLIPT_ERROR_INVALID_WAIT_LIST:
    case CLIPT_ERROR_INCOMPATIBLE_OPTIONS:
    case CLIPT_ERROR_WAIT_EVENT_FAILED:
        return 0;
    default:
        return 1;
    }
}
