/* Plan lifetime: creation (options, choice, stages, memory), release, and
 * the plans the one-shot calls share through their context's cache. */
#include "enqueue.h"
#include "held_events.h"
#include "options.h"
#include "permute.h"

#include <stdlib.h>
#include <string.h>

/* Appends one prepared stage for spec, on elem-byte elements (the plan's,
 * or a widened pass's). */
static clipt_status add_spec(clipt_plan p, const clipt_stage_spec *spec, size_t elem)
{
    clipt_stage *st = &p->stages[p->num_stages];
    clipt_stage_spec own = *spec;
    clipt_status status;
    if (p->num_stages == CLIPT_MAX_PLAN_STAGES)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    clipt_tuning tuning = p->tuning;
    if (p->tail_bytes) /* room-less padding: the region continues in the plan's tail */
        own.split = p->buffer_bytes / elem;
    if (!p->widen) /* a twin: the stages move the elements as they are */
        tuning.wide_bytes = 1;
    status = clipt_stage_prepare(p->ctx, &own, elem, &tuning, st);
    if (status == CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS &&
        (p->opts.sequence != CLIPT_SEQUENCE_AUTO || p->opts.algorithm != CLIPT_ALGORITHM_AUTO))
        status = CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    if (status != CLIPT_SUCCESS)
        return status;
    p->num_stages++;
    /* st->elem: elem, or wider still where the stage widened its units */
    if (st->elem > p->word_bytes)
        p->word_bytes = st->elem;
    if (st->scratch_bytes > p->scratch_bytes)
        p->scratch_bytes = st->scratch_bytes;
    p->aux_bytes += st->aux_bytes;
    return CLIPT_SUCCESS;
}

/* Prepares the stages of a staged layout, identities left out, by the TPDS
 * sequence of the layout or by C2R's or R2C's passes. */
static clipt_status build_stages(clipt_plan p, const clipt_staged_layout *layout,
                                 clipt_algorithm algorithm, size_t elem)
{
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    const int count = algorithm == CLIPT_ALGORITHM_C2R || algorithm == CLIPT_ALGORITHM_R2C
                          ? (int)clipt_c2r_specs(layout->batch, layout->rows, layout->cols,
                                                 algorithm == CLIPT_ALGORITHM_R2C, specs)
                          : clipt_staged_specs(layout, specs);
    clipt_status status = CLIPT_SUCCESS;
    if (count < 0)
        return CLIPT_ERROR_INVALID_OPTION;
    for (int i = 0; i < count && status == CLIPT_SUCCESS; i++)
        status = add_spec(p, &specs[i], elem);
    return status;
}

/* Chooses for `batch` consecutive rows x cols matrices of elem-byte
 * elements (padding only as opts allows; never for batch > 1: OFF) and
 * appends their stages; the choice goes to *ch and the buffer size grows
 * to what it needs. */
static clipt_status add_staged(clipt_plan p, size_t batch, size_t rows, size_t cols,
                               size_t elem, const clipt_plan_options *opts,
                               clipt_plan_choice *ch)
{
    const clipt_device_profile *d = &p->ctx->profile;
    size_t bytes, padded;
    clipt_status status;
    status = clipt_plan_choose_batch(d, batch, rows, cols, elem, opts, &p->tuning, ch);
    if (status != CLIPT_SUCCESS)
        return status;
    if (!clipt_mul_ok(rows * cols, batch * elem, &bytes) ||
        !clipt_mul_ok(ch->prows, ch->pcols, &padded) ||
        !clipt_mul_ok(padded, batch * elem, &padded))
        return CLIPT_ERROR_SHAPE_OVERFLOW;
    if (ch->roomless) {
        /* the caller's buffer holds the matrix; the rest is the plan's */
        p->tail_bytes = padded - bytes;
        padded = bytes;
    }
    if (padded > d->max_alloc_bytes && bytes <= d->max_alloc_bytes)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if (padded > p->buffer_bytes)
        p->buffer_bytes = padded;
    const clipt_staged_layout layout = {batch, rows, cols, ch->prows, ch->pcols,
                                        ch->m, ch->n, ch->sequence};
    return build_stages(p, &layout, ch->algorithm, elem);
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

/* The scratch buffer and the padded tail, from the context's pool (their
 * contents undefined: stages zero what they need before each launch). */
static clipt_status allocate_scratch(clipt_plan p)
{
    clipt_pool *pool = &p->ctx->pool;
    cl_int err = CL_SUCCESS;
    if (p->scratch_bytes)
        err = clipt_pool_take_buffer(pool, p->ctx->cl_ctx, p->scratch_bytes,
                                     CL_MEM_READ_WRITE, &p->scratch);
    if (err == CL_SUCCESS && p->tail_bytes)
        err = clipt_pool_take_buffer(pool, p->ctx->cl_ctx, p->tail_bytes, CL_MEM_READ_WRITE,
                                     &p->tail);
    return err;
}

/* Checks the device memory and allocates the scratch buffer. */
static clipt_status finish(clipt_plan p)
{
    clipt_status status = check_device_memory(p);
    return status != CLIPT_SUCCESS ? status : allocate_scratch(p);
}

/* A new plan on c for elem-byte elements (checked) with `opts` (NULL:
 * defaults), checked; no stages yet. */
static clipt_status plan_new(clipt_context c, size_t elem, const clipt_plan_options *opts,
                             clipt_plan *out)
{
    clipt_plan_options defaults;
    clipt_plan p;
    clipt_status status;
    *out = NULL;
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
    p->elem = elem;
    p->word_bytes = elem;
    p->opts = *opts;
    p->tuning = clipt_options_tuning(opts, &c->profile.tuning);
    *out = p;
    return CLIPT_SUCCESS;
}

/* ---- axis permutations ----------------------------------------------------
 * The passes of permute.c, each lowered to stages.  A pass (A, B, C, D) ->
 * (A, C, B, D):
 *   D = 1          A staged B x C transpositions (the 2-D sequences with
 *                  the batch as instances; one tile pass when small);
 *   D * elem of 2, 4, 8 or 16 bytes (clipt_permute_widen; not in a plan
 *                  made narrow) the same on elements of D * elem bytes;
 *   D >= Min       one 0100! of D-element super-elements;
 *   1 < D < Min    a 0010! of C x D tiles, (A, B, C, D) -> (A, B, D, C),
 *                  then A staged (B*D) x C transpositions -> (A, C, B, D). */

/* Appends pass `index`'s stages; its staged choice goes to
 * p->pass_choice[index]. */
static clipt_status add_pass(clipt_plan p, unsigned index, const clipt_permute_pass *ps,
                             const clipt_plan_options *opts)
{
    clipt_plan_choice *ch = &p->pass_choice[index];
    const uint64_t widen = p->widen ? clipt_permute_widen(ps, p->elem) : 1;
    clipt_status status;
    if (ps->D == widen) {
        status = add_staged(p, ps->A, ps->B, ps->C, p->elem * widen, opts, ch);
        if (status == CLIPT_SUCCESS && p->choice.sequence == CLIPT_SEQUENCE_AUTO)
            p->choice = *ch; /* the first staged pass's, for clipt_plan_query */
        return status;
    }
    if (ps->D >= p->tuning.min_super) {
        const clipt_stage_spec move = {CLIPT_OP_MOVE_SUPER, "0100! super-elements",
                                       ps->A, ps->B, ps->C, ps->D, 0, 0, 0};
        return add_spec(p, &move, p->elem);
    }
    const clipt_stage_spec tiles = {CLIPT_OP_TRANSPOSE_TILES, "0010! inner tiles",
                                    ps->A * ps->B, ps->C, ps->D, 1, 0, 0, 0};
    if ((status = add_spec(p, &tiles, p->elem)) != CLIPT_SUCCESS)
        return status;
    const clipt_permute_pass rest = {ps->A, ps->B * ps->D, ps->C, 1};
    return add_pass(p, index, &rest, opts);
}

static clipt_status build_passes(clipt_plan p, size_t bytes)
{
    const clipt_permutation *nd = &p->nd;
    const clipt_permute_pass *one = &nd->passes[0];
    clipt_plan_options opts = p->opts;
    clipt_status status = CLIPT_SUCCESS;
    p->buffer_bytes = bytes;
    if (nd->ndim == 2 && nd->perm[0] == 1) { /* exactly clipt_plan_create's plan */
        p->rows = nd->dims[0];
        p->cols = nd->dims[1];
        return add_staged(p, 1, p->rows, p->cols, p->elem, &opts, &p->choice);
    }
    if (nd->num_passes == 1 && one->A == 1 && one->D == 1) {
        /* a 2-D transposition after the reduction: the same plan */
        p->rows = one->B;
        p->cols = one->C;
        return add_staged(p, 1, one->B, one->C, p->elem, &opts, &p->choice);
    }
    p->rows = bytes / p->elem;
    p->cols = 1;
    /* what clipt_plan_query reports when no pass is a staged 2-D one */
    p->choice = (clipt_plan_choice){p->rows, 1, 1, 1, CLIPT_SEQUENCE_AUTO,
                                    "no 2-D transposition: see the passes",
                                    CLIPT_ALGORITHM_TPDS, 0};
    opts.padding = CLIPT_PADDING_OFF; /* later passes need the bytes exact */
    /* the automatic C2R rule (choice.c) was measured on single matrices:
     * the passes of a permutation keep the sequences */
    if (opts.algorithm == CLIPT_ALGORITHM_AUTO)
        opts.algorithm = CLIPT_ALGORITHM_TPDS;
    for (unsigned i = 0; i < nd->num_passes && status == CLIPT_SUCCESS; i++)
        status = add_pass(p, i, &nd->passes[i], &opts);
    return status;
}

/* clipt_plan_create_permute, with widened passes and stages where they
 * are valid (widen) or none (the twin for offsets not aligned to a
 * widened element: N-D widening off, stages at wide_bytes 1). */
static clipt_status create_permute(clipt_context c, unsigned ndim, const size_t *dims,
                                   const unsigned *perm, size_t elem_size,
                                   const clipt_plan_options *opts, int widen, clipt_plan *out)
{
    clipt_plan p = NULL;
    clipt_status status;
    size_t bytes = 0;
    if (out)
        *out = NULL;
    if (!c || !out)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = clipt_check_permutation(ndim, dims, perm, elem_size, &bytes)) !=
            CLIPT_SUCCESS ||
        (status = plan_new(c, elem_size, opts, &p)) != CLIPT_SUCCESS)
        return status;
    const clipt_permute_costs costs = {
        p->tuning.min_super,
        clipt_local_budget(&c->profile, CLIPT_OWN_LOCALS_UNKNOWN) / elem_size,
        widen ? elem_size : 0};
    p->permute = !(ndim == 2 && perm[0] == 1); /* not a plain 2-D plan */
    p->widen = widen;
    if ((status = clipt_permutation_plan(ndim, dims, perm, &costs, &p->nd)) != CLIPT_SUCCESS ||
        (status = build_passes(p, bytes)) != CLIPT_SUCCESS ||
        (status = finish(p)) != CLIPT_SUCCESS)
        goto fail;
    *out = p;
    return CLIPT_SUCCESS;
fail:
    clipt_plan_release(p);
    return status;
}

clipt_status clipt_plan_create_permute(clipt_context c, unsigned ndim, const size_t *dims,
                                       const unsigned *perm, size_t elem_size,
                                       const clipt_plan_options *opts, clipt_plan *out)
{
    return create_permute(c, ndim, dims, perm, elem_size, opts, 1, out);
}

/* The plan's twin: the same permutation, options and buffer size with
 * both widenings off (no widened pass, stages at wide_bytes 1), made once; called with p->lock held.  It takes no reference to
 * the context: its plan's owner holds one (see plan_cache.h). */
static clipt_status narrow_twin(clipt_plan p)
{
    clipt_status status;
    if (p->narrow)
        return CLIPT_SUCCESS;
    status = create_permute(p->ctx, p->nd.ndim, p->nd.dims, p->nd.perm, p->elem, &p->opts, 0,
                            &p->narrow);
    if (status == CLIPT_SUCCESS) {
        p->narrow->holds_ctx = 0;
        clipt_context_release(p->ctx);
    }
    return status;
}

/* clipt_enqueue through the twin, serialised with the plan's own runs:
 * it waits for the plan's last run, and becomes it. */
static clipt_status enqueue_twin(clipt_plan p, cl_command_queue q, cl_mem buf,
                                 size_t offset_bytes, cl_uint n, const cl_event *list,
                                 cl_event *event)
{
    cl_event *wait = NULL;
    clipt_status status;
    pthread_mutex_lock(&p->lock);
    if ((status = narrow_twin(p)) != CLIPT_SUCCESS)
        goto unlock;
    if (!(wait = clipt_plan_wait_list(p, list, &n))) {
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto unlock;
    }
    /* clipt_plan_profile reports the twin's stages from now on; p's
     * events of an earlier run would be stale */
    clipt_plan_drop_events(p);
    p->last_ran_narrow = 1;
    status = clipt_plan_enqueue_stages(p->narrow, q, buf, offset_bytes, n, n ? wait : NULL,
                                       event);
    /* the twin's last run (also what a failed run left queued; only this
     * lock's holder enqueues the twin) is the plan's */
    if (p->narrow->last && p->narrow->last != p->last) {
        if (p->last)
            clReleaseEvent(p->last);
        p->last = p->narrow->last;
        clRetainEvent(p->last);
    }
unlock:
    pthread_mutex_unlock(&p->lock);
    free(wait);
    return status;
}

clipt_status clipt_enqueue(clipt_plan p, cl_command_queue q, cl_mem buf, size_t offset_bytes,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    /* widened passes and stages read the buffer as elements of up to
     * word_bytes: another offset (a multiple of the element, else refused
     * by the checks) runs the twin, which widens nothing */
    if (!p || !q || !buf || offset_bytes % p->elem || offset_bytes % p->word_bytes == 0 ||
        (num_events_in_wait_list == 0) != (event_wait_list == NULL))
        return clipt_plan_enqueue_stages(p, q, buf, offset_bytes, num_events_in_wait_list,
                                         event_wait_list, event);
    if (event)
        *event = NULL;
    return enqueue_twin(p, q, buf, offset_bytes, num_events_in_wait_list, event_wait_list,
                        event);
}

/* The 2-D transposition is the axis permutation (1, 0) of (rows, cols):
 * the same checks in the same order, and the same plan. */
clipt_status clipt_plan_create(clipt_context c, size_t rows, size_t cols,
                               size_t elem_size, const clipt_plan_options *opts,
                               clipt_plan *out)
{
    const size_t dims[2] = {rows, cols};
    const unsigned swap[2] = {1, 0};
    return clipt_plan_create_permute(c, 2, dims, swap, elem_size, opts, out);
}

void clipt_plan_release(clipt_plan p)
{
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    /* kernels and buffers go back to the context's pool; the buffers are
     * taken again only after the plan's last run (every stage of it waits
     * for the one before) has settled, on whichever queue it ran */
    for (unsigned i = 0; i < p->num_stages; i++) {
        p->stages[i].retire = p->last;
        clipt_stage_release(&p->stages[i]);
    }
    clipt_plan_release(p->narrow); /* the twin; its runs are in p->last too */
    clipt_pool_put_buffer(&p->ctx->pool, p->scratch, 1, &p->last, NULL);
    clipt_pool_put_buffer(&p->ctx->pool, p->tail, 1, &p->last, NULL);
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
    size_t bytes;
    if (!p)
        return 0;
    /* the twin's too once a misaligned enqueue has made it (clipt.h) */
    pthread_mutex_lock(&p->lock);
    bytes = p->scratch_bytes + p->aux_bytes + p->tail_bytes + clipt_plan_scratch_size(p->narrow);
    pthread_mutex_unlock(&p->lock);
    return bytes;
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
    case CLIPT_ERROR_INVALID_NDIM:
    case CLIPT_ERROR_INVALID_PERMUTATION:
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
