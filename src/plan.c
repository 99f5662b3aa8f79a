/* Plan creation (factors, padding, sequence choice), describe, enqueue. */
#include "plan.h"
#include "factor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void clipt_plan_options_init(clipt_plan_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

clipt_status clipt_plan_options_set_tuning(clipt_plan_options *o,
                                           const char *name, unsigned value)
{
    if (!o || !name)
        return CLIPT_ERROR_NULL_ARGUMENT;
#define SET_IF_NAMED(f)                                                        \
    if (strcmp(name, #f) == 0) {                                               \
        o->f = value;                                                          \
        return CLIPT_SUCCESS;                                                  \
    }
    CLIPT_TUNING_FIELDS(SET_IF_NAMED)
#undef SET_IF_NAMED
    return CLIPT_ERROR_INVALID_OPTION;
}

static int valid_elem_size(size_t e)
{
    return e == 1 || e == 2 || e == 4 || e == 8 || e == 16;
}

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

static clipt_status check_options(const clipt_plan_options *o,
                                  const clipt_device_profile *profile)
{
    switch (o->sequence) {
    case CLIPT_SEQUENCE_AUTO: case CLIPT_SEQUENCE_1: case CLIPT_SEQUENCE_2_1:
    case CLIPT_SEQUENCE_2_2: case CLIPT_SEQUENCE_3_1: case CLIPT_SEQUENCE_3_2:
    case CLIPT_SEQUENCE_4_1: case CLIPT_SEQUENCE_4_2: case CLIPT_SEQUENCE_4_3:
        break;
    default:
        return CLIPT_ERROR_INVALID_OPTION;
    }
    if (o->padding != CLIPT_PADDING_AUTO && o->padding != CLIPT_PADDING_NONE)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->tile_rule != CLIPT_TILE_RULE_AUTO && o->tile_rule != CLIPT_TILE_RULE_ALG5 &&
        o->tile_rule != CLIPT_TILE_RULE_ALG2 && o->tile_rule != CLIPT_TILE_RULE_ALG1)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->pttwac_spread && (!is_pow2(o->pttwac_spread) || o->pttwac_spread > 32))
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->pttwac_pad > 32)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->simd_100 && (!is_pow2(o->simd_100) || o->simd_100 > profile->max_wg_size))
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->wg_010 > profile->max_wg_size || o->wg_100 > profile->max_wg_size)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->wg_100 && o->simd_100 && o->wg_100 % o->simd_100)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->min_super > 1u << 20 || o->skinny_super > 1u << 20 ||
        o->tile_elems_010 > 1u << 24)
        return CLIPT_ERROR_INVALID_OPTION;
    if (o->groups_per_cu_100 > 1024 || o->groups_per_cu_010 > 1024 ||
        o->walk_unroll > 32 || o->walk_item_bytes > 256 || o->align_bytes > 4096)
        return CLIPT_ERROR_INVALID_OPTION;
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i])
            return CLIPT_ERROR_INVALID_OPTION;
    return CLIPT_SUCCESS;
}

static void merge_tuning(const clipt_plan_options *o, clipt_tuning *t)
{
#define OVERRIDE(f) if (o->f) t->f = o->f;
    CLIPT_TUNING_FIELDS(OVERRIDE)
#undef OVERRIDE
}

/* Local memory in elements available to a tile. */
static size_t local_words(const clipt_device_profile *p, size_t elem)
{
    size_t bytes = (size_t)p->local_mem_bytes;
    bytes = bytes > 1024 ? bytes - 1024 : bytes / 2; /* kernels' own locals */
    return bytes / elem;
}

static int is_four_stage(clipt_sequence s)
{
    return s == CLIPT_SEQUENCE_4_1 || s == CLIPT_SEQUENCE_4_2 ||
           s == CLIPT_SEQUENCE_4_3;
}

/* Algorithm 5 for both sides.  Only the tile m x n has to fit local memory,
 * so once one side is chosen (within sqrt(LM)), the other may range up to
 * LM / that side: fewer shapes need padding.  Both orders are tried and the
 * one that pads fewer sides, then the smaller padded area, wins.  Factors
 * that are multiples of `step` are preferred (clipt_tile_alg5_aligned). */
static void alg5_pair(clipt_plan_choice *ch, size_t min, size_t max, size_t lm,
                      int pad, size_t step)
{
    clipt_tile_choice rm = clipt_tile_alg5_aligned(ch->prows, min, max, 0, step);
    if (pad && rm.factor < min)
        rm = clipt_tile_alg5_aligned(ch->prows, min, lm / min, pad, step);
    clipt_tile_choice rn = clipt_tile_alg5_aligned(ch->pcols, min, lm / rm.factor, pad, step);
    clipt_tile_choice cn = clipt_tile_alg5_aligned(ch->pcols, min, max, 0, step);
    if (pad && cn.factor < min)
        cn = clipt_tile_alg5_aligned(ch->pcols, min, lm / min, pad, step);
    clipt_tile_choice cm = clipt_tile_alg5_aligned(ch->prows, min, lm / cn.factor, pad, step);
    /* each padded side costs a pass over the matrix (pad or unpad), more
     * than any difference in padded area: fewer padded sides first */
    const int r_passes = (rm.dim != ch->prows) + (rn.dim != ch->pcols);
    const int c_passes = (cm.dim != ch->prows) + (cn.dim != ch->pcols);
    if (r_passes < c_passes ||
        (r_passes == c_passes && (double)rm.dim * rn.dim <= (double)cm.dim * cn.dim)) {
        ch->prows = rm.dim, ch->m = rm.factor;
        ch->pcols = rn.dim, ch->n = rn.factor;
    } else {
        ch->prows = cm.dim, ch->m = cm.factor;
        ch->pcols = cn.dim, ch->n = cn.factor;
    }
}

/* Elements per tuning.align_bytes: the step of preferred tile factors. */
static size_t align_step(const clipt_tuning *t, size_t elem)
{
    size_t a = t->align_bytes ? t->align_bytes : 1, g = a, e = elem;
    while (e) { /* gcd(a, elem) */
        size_t r = g % e;
        g = e;
        e = r;
    }
    return a / g;
}

/* Picks m and n by the plan's rule; may pad prows/pcols. */
static void choose_tiles(const clipt_plan_options *o, const clipt_tuning *t,
                         size_t lm, size_t elem, clipt_plan_choice *ch)
{
    const int pad = o->padding == CLIPT_PADDING_AUTO;
    /* four-stage sequences move whole m x n tiles as super-elements (twice
     * that when fused), so their tiles must leave room for that */
    size_t max = clipt_isqrt(is_four_stage(o->sequence) ? lm / 2 : lm);
    size_t min = t->min_super;
    if (max < 1)
        max = 1;
    switch (o->tile_rule) {
    case CLIPT_TILE_RULE_ALG1:
        ch->m = clipt_tile_alg1(ch->prows, max < 72 ? max : 72);
        ch->n = clipt_tile_alg1(ch->pcols, max < 72 ? max : 72);
        ch->why = "tiles by Algorithm 1 (largest factor <= 72)";
        break;
    case CLIPT_TILE_RULE_ALG2:
        clipt_tile_alg2(ch->prows, ch->pcols, min, max + 1,
                        is_four_stage(o->sequence) ? lm / 2 : lm, &ch->m, &ch->n);
        ch->why = "tiles by Algorithm 2 (best local-memory use)";
        break;
    default:
        alg5_pair(ch, min, max, is_four_stage(o->sequence) ? lm / 2 : lm, pad,
                  align_step(t, elem));
        if (align_step(t, elem) > 1)
            ch->why = pad ? "tiles by Algorithm 5, aligned factors preferred (padding allowed)"
                          : "tiles by Algorithm 5, aligned factors preferred (no padding)";
        else
            ch->why = pad ? "tiles by Algorithm 5 (padding allowed)"
                          : "tiles by Algorithm 5 (no padding)";
        break;
    }
}

/* The largest divisor of dim in [lo, hi] that is a multiple of step, or
 * failing that the largest divisor there, or 0. */
static size_t largest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step)
{
    size_t any = 0;
    for (size_t f = hi < dim ? hi : dim; f >= lo && f >= 1; f--)
        if (dim % f == 0) {
            if (f % step == 0)
                return f;
            if (!any)
                any = f;
        }
    return any;
}

/* Two-stage sequences move whole m x N slabs through local memory and then
 * m-element super-elements along cycles: measured on an H100, super-elements
 * of ~100 elements run 30 % faster than Algorithm 5's smallest factor, as
 * long as the slab leaves room for a second work-group (half of LM).  So
 * take the largest divisor up to tuning.skinny_super that satisfies that;
 * keep Algorithm 5's choice when there is none. */
static void widen_skinny_tile(clipt_plan_choice *ch, const clipt_tuning *t,
                              size_t lm, size_t rows, size_t cols, size_t step)
{
    size_t *side = NULL, dim = 0, hi = 0;
    if (ch->sequence == CLIPT_SEQUENCE_2_1) {
        side = &ch->m, dim = ch->prows, hi = lm / 2 / cols;
    } else if (ch->sequence == CLIPT_SEQUENCE_2_2) {
        side = &ch->n, dim = ch->pcols, hi = lm / 2 / rows;
    }
    if (side) {
        size_t f = largest_divisor_in(dim, *side, hi < t->skinny_super ? hi : t->skinny_super,
                                      step);
        /* a wider but unaligned factor does not replace an aligned one */
        if (f > *side && (f % step == 0 || *side % step != 0))
            *side = f;
    }
}

/* Sequences that never tile a dimension do not need it padded: 2.1 moves
 * whole rows of N, 2.2 whole columns of M, and 1 moves single elements. */
static void drop_unused_padding(clipt_plan_choice *ch, size_t rows, size_t cols)
{
    if (ch->sequence == CLIPT_SEQUENCE_2_1 || ch->sequence == CLIPT_SEQUENCE_1) {
        ch->pcols = cols;
        ch->n = cols;
    }
    if (ch->sequence == CLIPT_SEQUENCE_2_2 || ch->sequence == CLIPT_SEQUENCE_1) {
        ch->prows = rows;
        ch->m = rows;
    }
}

clipt_status clipt_plan_choose(const clipt_device_profile *profile,
                               size_t rows, size_t cols, size_t elem,
                               const clipt_plan_options *o,
                               const clipt_tuning *t, clipt_plan_choice *ch)
{
    const size_t lm = local_words(profile, elem);
    memset(ch, 0, sizeof *ch);
    ch->prows = rows;
    ch->pcols = cols;
    if (rows == 1 || cols == 1) {
        /* a vector's transpose has the same bytes */
        ch->m = rows;
        ch->n = cols;
        ch->sequence = o->sequence;
        ch->why = "a single row or column: nothing moves";
        return CLIPT_SUCCESS;
    }
    if (o->tile_m || o->tile_n) {
        ch->m = o->tile_m;
        ch->n = o->tile_n;
        if ((o->tile_m && rows % o->tile_m) || (o->tile_n && cols % o->tile_n))
            return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    }
    if (!ch->m || !ch->n) {
        clipt_plan_choice auto_choice = *ch;
        choose_tiles(o, t, lm, elem, &auto_choice);
        /* a forced factor pins its dimension: no padding there */
        if (!ch->m) {
            ch->m = o->tile_n ? clipt_tile_alg5(rows, t->min_super, clipt_isqrt(lm), 0).factor
                              : auto_choice.m;
            ch->prows = o->tile_n ? rows : auto_choice.prows;
        }
        if (!ch->n) {
            ch->n = o->tile_m ? clipt_tile_alg5(cols, t->min_super, clipt_isqrt(lm), 0).factor
                              : auto_choice.n;
            ch->pcols = o->tile_m ? cols : auto_choice.pcols;
        }
        ch->why = auto_choice.why;
    } else {
        ch->why = "tiles forced by options";
    }
    if (o->sequence != CLIPT_SEQUENCE_AUTO) {
        ch->sequence = o->sequence;
    } else if (ch->m * cols <= lm) {
        /* Algorithm 3: two stages when a whole m x N (or M x n) slab fits
         * local memory, else the three-stage sequence whose 100! moves the
         * larger super-element */
        ch->sequence = CLIPT_SEQUENCE_2_1;
    } else if (rows * ch->n <= lm) {
        ch->sequence = CLIPT_SEQUENCE_2_2;
    } else {
        ch->sequence = ch->m < ch->n ? CLIPT_SEQUENCE_3_1 : CLIPT_SEQUENCE_3_2;
    }
    drop_unused_padding(ch, rows, cols);
    if (!o->tile_m && !o->tile_n)
        widen_skinny_tile(ch, t, lm, rows, cols, align_step(t, elem));
    return CLIPT_SUCCESS;
}

static void drop_profile_events(clipt_plan p);

static clipt_status check_shape(size_t rows, size_t cols, size_t elem,
                                size_t *bytes)
{
    size_t count;
    if (!valid_elem_size(elem))
        return CLIPT_ERROR_INVALID_ELEM_SIZE;
    if (rows == 0 || cols == 0)
        return CLIPT_ERROR_INVALID_SHAPE;
    if (!clipt_mul_ok(rows, cols, &count) || !clipt_mul_ok(count, elem, bytes))
        return CLIPT_ERROR_SHAPE_OVERFLOW;
    return CLIPT_SUCCESS;
}

/* Padding appends rows for free (room at the end) but must spread the rows
 * apart for extra columns; after the transposition, extra rows of the
 * original became extra columns of the result and are squeezed out. */
static void padding_specs(clipt_plan p, clipt_stage_spec *pad,
                          clipt_stage_spec *unpad)
{
    clipt_stage_spec in = {CLIPT_STAGE_PAD, "pad", p->rows, p->cols, 1, 1,
                           p->cols, p->pcols};
    clipt_stage_spec out = {CLIPT_STAGE_UNPAD, "unpad", p->cols, p->rows, 1, 1,
                            p->prows, p->rows};
    *pad = in;
    *unpad = out;
}

static clipt_status build_stages(clipt_plan p)
{
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    unsigned count;
    clipt_status status;
    if (p->rows == 1 || p->cols == 1)
        return CLIPT_SUCCESS;
    count = clipt_sequence_specs(p->sequence, p->prows / p->m, p->m,
                                 p->pcols / p->n, p->n, specs + 1);
    if (count == 0)
        return CLIPT_ERROR_INVALID_OPTION;
    padding_specs(p, &specs[0], &specs[count + 1]);
    count += 2;
    for (unsigned i = 0; i < count; i++) {
        clipt_stage *st = &p->stages[p->num_stages];
        if (clipt_stage_is_identity(&specs[i]))
            continue;
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
    clipt_plan_choice choice;
    clipt_status status;
    size_t bytes = 0, padded_count;
    if (out)
        *out = NULL;
    if (!c || !out)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = check_shape(rows, cols, elem_size, &bytes)) != CLIPT_SUCCESS)
        return status;
    if (!opts) {
        clipt_plan_options_init(&defaults);
        opts = &defaults;
    }
    if ((status = check_options(opts, &c->profile)) != CLIPT_SUCCESS)
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
    p->rows = rows;
    p->cols = cols;
    p->elem = elem_size;
    p->opts = *opts;
    p->tuning = c->profile.tuning;
    merge_tuning(opts, &p->tuning);
    status = clipt_plan_choose(&c->profile, rows, cols, elem_size, opts,
                               &p->tuning, &choice);
    if (status != CLIPT_SUCCESS)
        goto fail;
    p->prows = choice.prows;
    p->pcols = choice.pcols;
    p->m = choice.m;
    p->n = choice.n;
    p->sequence = choice.sequence;
    p->why = choice.why;
    if (!clipt_mul_ok(p->prows, p->pcols, &padded_count) ||
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
    drop_profile_events(p);
    pthread_mutex_destroy(&p->lock);
    clipt_context_release(p->ctx);
    free(p);
}

size_t clipt_plan_buffer_size(clipt_plan p) { return p ? p->buffer_bytes : 0; }

size_t clipt_plan_scratch_size(clipt_plan p)
{
    return p ? p->scratch_bytes + p->aux_bytes : 0;
}

clipt_status clipt_plan_describe(clipt_plan p, char *buf, size_t len)
{
    char text[8192];
    size_t used = 0;
    if (!p)
        return CLIPT_ERROR_NULL_ARGUMENT;
#define APPEND(...)                                                            \
    do {                                                                       \
        int n_ = snprintf(text + used, sizeof text - used, __VA_ARGS__);       \
        if (n_ > 0)                                                            \
            used = used + (size_t)n_ < sizeof text ? used + (size_t)n_         \
                                                   : sizeof text - 1;          \
    } while (0)
    APPEND("shape: %zu x %zu, %zu-byte elements\n", p->rows, p->cols, p->elem);
    APPEND("sequence: %s%s\n", clipt_sequence_name(p->sequence),
           p->opts.sequence ? " (forced)" : " (automatic)");
    APPEND("tiles: m=%zu n=%zu (%s)\n", p->m, p->n, p->why);
    APPEND("padded shape: %zu x %zu%s\n", p->prows, p->pcols,
           (p->prows != p->rows || p->pcols != p->cols) ? "" : " (no padding)");
    APPEND("buffer bytes: %zu\n", p->buffer_bytes);
    APPEND("scratch bytes: %zu (scratch buffer %zu, cycle-segment tables %zu)\n",
           p->scratch_bytes + p->aux_bytes, p->scratch_bytes, p->aux_bytes);
    APPEND("tuning entry: %s", p->ctx->profile.tuning_entry);
    /* the plan options that replaced values of that entry */
#define OVERRIDDEN(f)                                                          \
    if (p->opts.f)                                                             \
        APPEND(" [option %s=%u]", #f, p->opts.f);
    CLIPT_TUNING_FIELDS(OVERRIDDEN)
#undef OVERRIDDEN
    APPEND("\n");
    if (p->num_stages == 0)
        APPEND("stages: none (the transpose has the same bytes)\n");
    for (unsigned i = 0; i < p->num_stages; i++) {
        char line[1024];
        clipt_stage_format(&p->stages[i], line, sizeof line);
        APPEND("stage %u: %s\n", i + 1, line);
    }
#undef APPEND
    return clipt_copy_text(text, buf, len);
}

/* ---- enqueue ---------------------------------------------------------- */

static clipt_status check_queue(clipt_plan p, cl_command_queue q)
{
    cl_context qctx = NULL;
    cl_device_id qdev = NULL;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
    if (err != CL_SUCCESS)
        return err;
    err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (qctx != p->ctx->cl_ctx || qdev != p->ctx->device)
        return CLIPT_ERROR_DEVICE_MISMATCH;
    return CLIPT_SUCCESS;
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

static clipt_status check_wait_list(clipt_plan p, cl_uint n, const cl_event *list)
{
    if ((n == 0) != (list == NULL))
        return CLIPT_ERROR_INVALID_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        cl_context ectx = NULL;
        if (!list[i] ||
            clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof ectx, &ectx, NULL) != CL_SUCCESS ||
            ectx != p->ctx->cl_ctx)
            return CLIPT_ERROR_INVALID_WAIT_LIST;
    }
    return CLIPT_SUCCESS;
}

static void drop_profile_events(clipt_plan p)
{
    for (unsigned i = 0; i < CLIPT_MAX_STAGES; i++) {
        if (p->stage_first[i])
            clReleaseEvent(p->stage_first[i]);
        if (p->stage_done[i])
            clReleaseEvent(p->stage_done[i]);
        p->stage_first[i] = p->stage_done[i] = NULL;
    }
}

/* Enqueues the stages, each waiting for the one before (so out-of-order
 * queues keep the order); called with p->lock held. */
static clipt_status enqueue_stages(clipt_plan p, cl_command_queue q, cl_mem buf,
                                   cl_ulong offset_elems, cl_uint n,
                                   const cl_event *wait, cl_event *done)
{
    cl_event prev = NULL;
    clipt_status status = CLIPT_SUCCESS;
    drop_profile_events(p);
    if (p->num_stages == 0)
        return clEnqueueMarkerWithWaitList(q, n, wait, done);
    /* every argument first: a failure then leaves nothing enqueued */
    for (unsigned i = 0; i < p->num_stages; i++)
        if ((status = clipt_stage_set_args(&p->stages[i], buf, offset_elems,
                                           p->scratch)) != CL_SUCCESS)
            return status;
    for (unsigned i = 0; i < p->num_stages; i++) {
        status = clipt_stage_enqueue(&p->stages[i], q, p->scratch, prev ? 1 : n,
                                     prev ? &prev : wait, &p->stage_first[i],
                                     &p->stage_done[i]);
        if (status != CL_SUCCESS) {
            /* the stages already queued will still run: later runs of the
             * plan must wait for them, so hand their last event out as
             * `done` (the caller keeps it as the plan's last run) */
            if (prev)
                clRetainEvent(prev);
            *done = prev;
            drop_profile_events(p);
            return status;
        }
        prev = p->stage_done[i];
    }
    clRetainEvent(prev);
    *done = prev;
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
    return CLIPT_SUCCESS;
}

/* A previous run that failed (say, because an event of its wait list
 * failed) would make every later run wait on a failed event, which some
 * runtimes never resolve; it touched nothing of this run's, so skip it. */
static int previous_run_failed(cl_event last)
{
    cl_int state = CL_COMPLETE;
    if (clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                       NULL) != CL_SUCCESS)
        return 0; /* keep the wait; the runtime reports a bad event itself */
    return state < 0;
}

clipt_status clipt_enqueue(clipt_plan p, cl_command_queue q, cl_mem buf,
                           size_t offset_bytes, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    clipt_status status;
    cl_event *wait = NULL;
    cl_uint n = num_events_in_wait_list;
    cl_event done = NULL;
    if (event)
        *event = NULL;
    if (!p || !q || !buf)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = check_wait_list(p, num_events_in_wait_list, event_wait_list)) ||
        (status = check_queue(p, q)) || (status = check_buffer(p, buf, offset_bytes)))
        return status;
    pthread_mutex_lock(&p->lock);
    /* wait for the caller's events and for this plan's previous run, which
     * shares the scratch buffer */
    wait = malloc(((size_t)n + 1) * sizeof *wait);
    if (!wait) {
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto unlock;
    }
    for (cl_uint i = 0; i < n; i++)
        wait[i] = event_wait_list[i];
    if (p->last && !previous_run_failed(p->last))
        wait[n++] = p->last;
    status = enqueue_stages(p, q, buf, (cl_ulong)(offset_bytes / p->elem), n,
                            n ? wait : NULL, &done);
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
    if ((status = check_shape(rows, cols, elem_size, &bytes)) != CLIPT_SUCCESS)
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
