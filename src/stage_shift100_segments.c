/* 100!/0100!/1000! along cycle segments cut on the host at plan creation
 * (cl/shift100_segments.cl, src/cycles.c): one launch saves each segment's
 * head, a second walks every segment independently.  No flags.  The
 * segment table is a buffer of the context's pool, written at the plan's
 * first run from the stage's host copy; it goes back to the pool with its
 * contents named, so that the next plan of the same stage shape takes it
 * as it is: no cutting, no write. */
#include "stage_kernel.h"
#include "cycles.h"
#include "factor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both kernels take the same arguments (save_segment_heads reads what
 * walk_segments writes, and the other way round for `saved`). */
#define SHIFT100_SEGMENTS_ARGS(X)                                              \
    CLIPT_REGION_ARGS(X)                        \
    X(instances, ULONG, "ulong") X(a, ULONG, "ulong") X(b, ULONG, "ulong")     \
    X(magic, UINT, "uint") X(sh1, UINT, "uint") X(sh2, UINT, "uint")           \
    X(slices, UINT, "uint") X(seg_table, GLOBAL, "ulong*")                     \
    X(segments, ULONG, "ulong") X(saved_per_instance, ULONG, "ulong")          \
    X(saved, GLOBAL, "elem_t*")
CLIPT_KERNEL_ARGS(shift100_segments, SHIFT100_SEGMENTS_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"save_segment_heads", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    {"walk_segments", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    /* kernel_style loops (CPUs): whole super-elements per work-item */
    {"save_segment_heads_loops", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    {"walk_segments_loops", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)}};

/* A table of `bytes` from the context's pool (written at the first run). */
static clipt_status take_table(clipt_context c, size_t bytes, cl_mem *out)
{
    return clipt_pool_take_buffer(&c->pool, c->cl_ctx, bytes ? bytes : 4, CL_MEM_READ_ONLY,
                                  out);
}

/* The table's write, ahead of the plan's first stage: its event tells
 * that it is done.  The table comes from the pool, filled by no one (or
 * already holding these segments: then nothing is written), so it is
 * written rather than made with CL_MEM_COPY_HOST_PTR; and a write at the
 * head of the run blocks nothing (NVIDIA's runtime moved a
 * CL_MEM_COPY_HOST_PTR buffer at its first use, inside that launch, after
 * the work queued before it: docs/performance.md, issue 13).  After a
 * failure the next run writes it again. */
static clipt_status upload(clipt_stage *st, cl_command_queue q)
{
    clipt_segments_state *g = &st->f.segments;
    const clipt_segments *h = g->host;
    cl_event e = NULL;
    cl_int err;
    if (!h || h->count == 0)
        return CL_SUCCESS;
    err = clEnqueueWriteBuffer(q, g->table, CL_FALSE, 0, h->count * CLIPT_SEGMENT_BYTES,
                               h->start, g->writing ? 1 : 0,
                               g->writing ? &g->writing : NULL, &e);
    if (err != CL_SUCCESS)
        return err;
    if (g->writing)
        clReleaseEvent(g->writing);
    g->writing = e;
    clRetainEvent(e);
    st->uploaded = e;
    return CL_SUCCESS;
}

static void CL_CALLBACK free_host(cl_event e, cl_int state, void *host)
{
    (void)e;
    (void)state;
    clipt_segments_free(host);
    free(host);
}

/* Frees the host copy of the tables once no write reads it: now, or when
 * the last write settles (a callback; waited for if none can be set). */
static void drop_host(clipt_segments_state *g)
{
    cl_int state = CL_COMPLETE;
    if (!g->host)
        return;
    if (g->writing)
        clGetEventInfo(g->writing, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                       NULL);
    if (state > CL_COMPLETE) {
        if (clSetEventCallback(g->writing, CL_COMPLETE, free_host, g->host) == CL_SUCCESS) {
            g->host = NULL;
            return;
        }
        clWaitForEvents(1, &g->writing);
    }
    free_host(NULL, CL_COMPLETE, g->host);
    g->host = NULL;
}

/* The memory rule: the saved heads and the descriptors together stay under
 * 0.95 % of the stage's data (or 4 MiB for small stages). */
static uint64_t table_budget(const clipt_stage_spec *sp, size_t elem)
{
    const uint64_t stage_bytes = sp->instances * sp->a * sp->b * sp->s * elem;
    /* 0.95 %: stages share the plan's scratch buffer (the largest heads)
     * but each keeps its own tables, so the plan stays under 1 % */
    const uint64_t share = stage_bytes / 10000 * 95;
    return share > (4u << 20) ? share : (4u << 20);
}

/* The first segment length to try: an estimate (one head and one
 * descriptor per seg_len positions). */
static unsigned first_seg_len(const clipt_stage_spec *sp, size_t elem, uint64_t budget)
{
    unsigned seg_len = 16;
    while (sp->a * sp->b / seg_len * (sp->instances * sp->s * elem + 16) > budget &&
           seg_len < (1u << 16))
        seg_len *= 2;
    return seg_len;
}

/* Device bytes of the saved heads and descriptors for these counts. */
static uint64_t table_bytes(const clipt_stage_spec *sp, size_t elem, uint64_t segments,
                            uint64_t saved)
{
    return sp->instances * saved * sp->s * elem + segments * (uint64_t)CLIPT_SEGMENT_BYTES;
}

/* The old way (CLIPT_CYCLE_WALK=1, for comparisons): walk every position,
 * doubling seg_len and walking again while the tables are too large. */
static clipt_status cut_by_walk(const clipt_stage_spec *sp, size_t elem,
                                  clipt_segments *segs, unsigned *seg_len)
{
    const uint64_t budget = table_budget(sp, elem);
    *seg_len = first_seg_len(sp, elem, budget);
    for (;;) {
        clipt_status status = clipt_cycle_segments_walk(sp->a, sp->b, *seg_len,
                                                        (size_t)(budget / 16), segs);
        if (status != CLIPT_SUCCESS)
            return status;
        if (table_bytes(sp, elem, segs->count, segs->saved) <= budget ||
            *seg_len >= (1u << 16))
            return CLIPT_SUCCESS;
        clipt_segments_free(segs);
        *seg_len *= 2;
    }
}

static int use_walk(void)
{
    const char *v = getenv("CLIPT_CYCLE_WALK");
    return v && strcmp(v, "1") == 0;
}

/* Cuts the cycles into segments as short as the memory rule allows.  The
 * counts come from the cycle classes, so a segment length that leaves the
 * tables too large (short cycles make them larger than the estimate) is
 * doubled without cutting anything; the cycles are listed once. */
static clipt_status cut_segments(const clipt_stage_spec *sp, size_t elem,
                                 clipt_segments *segs, unsigned *seg_len)
{
    const uint64_t budget = table_budget(sp, elem);
    clipt_cycle_list list;
    uint64_t segments, saved;
    clipt_status status;
    if (use_walk())
        return cut_by_walk(sp, elem, segs, seg_len);
    *seg_len = first_seg_len(sp, elem, budget);
    status = clipt_cycle_list_find(sp->a, sp->b, CLIPT_MAX_CYCLES, &list);
    if (status != CLIPT_SUCCESS)
        return status;
    /* as the walk decided: too many segments at any length tried is too
     * many short cycles (the flag-based kernel takes the stage) */
    for (;;) {
        clipt_cycle_list_count(&list, *seg_len, &segments, &saved);
        if (segments > budget / 16 || table_bytes(sp, elem, segments, saved) <= budget ||
            *seg_len >= (1u << 16))
            break;
        *seg_len *= 2;
    }
    status = clipt_cycle_list_cut(&list, *seg_len, (size_t)(budget / 16), segs);
    clipt_cycle_list_free(&list);
    return status;
}

/* What the stage's table holds, as the pool names it: the segments depend
 * on a, b, the memory rule's budget (which sets seg_len) and the way they
 * were found. */
static void table_key(const clipt_stage_spec *sp, size_t elem, uint64_t *key)
{
    key[0] = use_walk() ? 2 : 1;
    key[1] = sp->a;
    key[2] = sp->b;
    key[3] = table_budget(sp, elem);
}

/* The stage's segment table: the pool's copy of it when one is free (the
 * segments come with it), else cut now into g->host and a buffer for it
 * (written at the first run). */
static clipt_status make_table(clipt_context c, const clipt_stage_spec *sp, size_t elem,
                               clipt_segments_state *g)
{
    uint64_t value[CLIPT_POOL_VALUE_WORDS];
    clipt_segments segs;
    unsigned seg_len = 0;
    clipt_status status;
    table_key(sp, elem, g->key);
    if (clipt_pool_take_content(&c->pool, g->key, &g->table, value)) {
        g->len = (unsigned)value[0];
        g->count = (size_t)value[1];
        g->saved = (size_t)value[2];
        return CLIPT_SUCCESS;
    }
    if ((status = cut_segments(sp, elem, &segs, &seg_len)) != CLIPT_SUCCESS)
        return status;
    g->len = seg_len;
    g->count = segs.count;
    g->saved = segs.saved;
    if (!(g->host = malloc(sizeof *g->host))) {
        clipt_segments_free(&segs);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *g->host = segs; /* the stage's now (drop_host) */
    return take_table(c, g->count * CLIPT_SEGMENT_BYTES, &g->table);
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    clipt_segments_state *g = &st->f.segments;
    const int loops = clipt_tuning_loops(t);
    /* the loops kernels move whole super-elements: slices = s, Q = 1 */
    const size_t q = loops ? 1 : clipt_walk_slice_elems((size_t)sp->s, elem, t->walk_item_bytes);
    const clipt_kernel_decl *pair = kernels + (loops ? 2 : 0); /* save, walk */
    size_t wg_limit = 0, own_local = 0;
    clipt_status status;
    if (sp->s / q > UINT32_MAX) /* slices per super-element: a uint argument */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if ((status = make_table(c, sp, elem, g)) != CLIPT_SUCCESS)
        return status;
    g->q = (unsigned)q;
    snprintf(st->options, sizeof st->options,
             "-DELEM_TYPE=%s -DQ=%zu -DUNROLL=%u -DSMALL_INDEX=%d",
             clipt_elem_type_name(elem), q, t->walk_unroll,
             clipt_small_index(c, sp->a * sp->b));
    st->aux_bytes = g->count * CLIPT_SEGMENT_BYTES;
    if ((status = clipt_make_kernel(c, st, pair[1].name, &g->walk, &wg_limit,
                                    &own_local)) ||
        (status = clipt_make_kernel(c, st, pair[0].name, &st->kernel, &wg_limit,
                                    &own_local)))
        return status;
    st->kernel_name = loops ? "save_segment_heads_loops + walk_segments_loops"
                            : "save_segment_heads + walk_segments";
    clipt_set_launch(st, loops ? 1 : clipt_min_size(t->wg_100, wg_limit),
                     sp->instances * g->count * (loops ? 1 : sp->s / q),
                     loops ? 1 : clipt_min_size(t->wg_100, wg_limit),
                     clipt_groups_cap(c, t->groups_per_cu_100, t->groups_100));
    st->scratch_bytes = (size_t)(sp->instances * g->saved * sp->s * elem);
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const clipt_segments_state *seg = &st->f.segments;
    shift100_segments_args v = {
        CLIPT_REGION_VALUES(g), .instances = g->instances, .a = sp->a,
        .b = sp->b, .slices = (cl_uint)(sp->s / seg->q), .seg_table = seg->table,
        .segments = seg->count,
        .saved_per_instance = seg->saved, .saved = g->scratch};
    cl_int err;
    clipt_divisor_magic(sp->b, &v.magic, &v.sh1, &v.sh2);
    err = shift100_segments_set(st->kernel, &v);
    return err == CL_SUCCESS ? shift100_segments_set(seg->walk, &v) : err;
}

/* Saves the heads, then walks: the launch boundary orders them. */
static clipt_status enqueue(const clipt_stage *st, cl_command_queue q, cl_mem scratch,
                            cl_uint num_wait, const cl_event *wait, cl_event *first,
                            cl_event *done)
{
    cl_event saved = NULL;
    clipt_status status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global,
                                                 &st->local, num_wait, wait, &saved);
    (void)scratch;
    if (status == CL_SUCCESS)
        status = clEnqueueNDRangeKernel(q, st->f.segments.walk, 1, NULL, &st->global,
                                        &st->local, 1, &saved, done);
    if (status == CL_SUCCESS && first) {
        *first = saved;
        clRetainEvent(saved);
    }
    if (saved)
        clReleaseEvent(saved);
    return status;
}

static int describe(const clipt_stage *st, char *buf, size_t len)
{
    const clipt_segments_state *g = &st->f.segments;
    return snprintf(buf, len,
                    "; %zu cycle segments of <= %u positions (%zu heads saved, "
                    "%zu descriptor bytes)",
                    g->count, g->len, g->saved, st->aux_bytes);
}

/* The table goes back to the pool, free once the plan's last run and its
 * write have settled; named by its contents when they are whole by then:
 * written by this plan (the pool checks that the write completed) or
 * taken whole from the pool. */
static void release(clipt_stage *st)
{
    clipt_segments_state *g = &st->f.segments;
    const cl_event after[2] = {st->retire, g->writing};
    const int whole = g->host ? g->writing != NULL : 1;
    clipt_pool_content content;
    memcpy(content.key, g->key, sizeof content.key);
    content.value[0] = g->len;
    content.value[1] = g->count;
    content.value[2] = g->saved;
    if (st->uploaded)
        clReleaseEvent(st->uploaded);
    st->uploaded = NULL;
    clipt_pool_put_kernel(&st->ctx->pool, g->walk);
    g->walk = NULL;
    clipt_pool_put_buffer(&st->ctx->pool, g->table, 2, after,
                          whole && g->table ? &content : NULL);
    g->table = NULL;
    drop_host(g);
    if (g->writing)
        clReleaseEvent(g->writing);
    g->writing = NULL;
}

const clipt_family clipt_family_shift100_segments = {
    .id = CLIPT_FAMILY_SUPER_SEGMENTS,
    .file = "shift100_segments.cl",
    .ops = 1u << CLIPT_OP_TRANSPOSE_TILES | 1u << CLIPT_OP_MOVE_SUPER,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
    .enqueue = enqueue,
    .upload = upload,
    .describe = describe,
    .release = release,
};
