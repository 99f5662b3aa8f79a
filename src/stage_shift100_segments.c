/* 100!/0100!/1000! along cycle segments (cl/shift100_segments.cl,
 * src/cycles.c): one launch saves each segment's head, a second walks every
 * segment independently.  No flags.  At plan creation the host lists one
 * record per cycle; at the plan's first run a kernel cuts them into the
 * segment table (a buffer of the context's pool; where the records would
 * be no smaller, the host cuts it and that run writes it), which goes
 * back to the pool with its contents named, so that the next plan of the
 * same stage shape takes it as it is: no listing, no cutting. */
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

/* The table's cutting on the device (cut_segments). */
#define CUT_SEGMENTS_ARGS(X)                                                   \
    X(seg_table, GLOBAL, "ulong*") X(cycle, GLOBAL, "ulong*")                  \
    X(segments, ULONG, "ulong") X(cycles, ULONG, "ulong")                      \
    X(n_mod, ULONG, "ulong") X(leap, ULONG, "ulong") X(seg_len, UINT, "uint")
CLIPT_KERNEL_ARGS(cut_segments, CUT_SEGMENTS_ARGS)

/* Work-items of a work-group of the cutting (any size serves). */
#define CUT_LOCAL 64

static const clipt_kernel_decl kernels[] = {
    {"save_segment_heads", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    {"walk_segments", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    /* kernel_style loops (CPUs): whole super-elements per work-item */
    {"save_segment_heads_loops", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    {"walk_segments_loops", shift100_segments_arg_decls,
     CLIPT_COUNT_OF(shift100_segments_arg_decls)},
    {"cut_segments", cut_segments_arg_decls, CLIPT_COUNT_OF(cut_segments_arg_decls)}};

/* Device bytes of the stage's table and cycle records (none when the host
 * cut the segments). */
static size_t table_bytes_all(const clipt_segments_state *g)
{
    return g->count * CLIPT_SEGMENT_BYTES + g->cycles * CLIPT_CYCLE_RECORD_BYTES;
}

/* A buffer of `bytes` from the context's pool (made at the first run).
 * What the host writes (the records, a table it cut) is read-only to the
 * kernels; only a table that cut_segments writes is read-write.  The pool
 * takes a buffer only for its own access, so no kernel ever writes into a
 * buffer that a host write filled before: Oclgrind 21.10 then counts
 * what the kernel writes past the host write's end as uninitialised
 * (docs/portability.md), and a table cut on the device after a shorter
 * one written by the host was reported read uninitialised. */
static clipt_status take_table(clipt_context c, size_t bytes, cl_mem_flags access, cl_mem *out)
{
    return clipt_pool_take_buffer(&c->pool, c->cl_ctx, bytes ? bytes : 4, access, out);
}

/* The cutting's launch: as many work-groups as the context's 100!
 * stages may have resident (the profile's tuning, not the plan's options),
 * whatever the table's size; the kernel strides over the segments.  One
 * size for every plan of a context matters on PoCL 3.1 (pthread device):
 * its cache of compiled work-group functions keys an entry on the kernel,
 * the local size and the widest grid dimension, but a finished launch gives
 * back its reference to the first entry of that kernel and local size,
 * whatever its grid.  Two plans' first runs in flight at once (an
 * out-of-order queue, two queues), each cutting with a grid of its own
 * table's size, then took references on two entries and returned them to
 * one, until a launch found its entry at zero and PoCL aborted
 * (`pocl_release_dlhandle_cache: found->ref_count > 0`; test_robustness's
 * two plans on one out-of-order queue, a few runs in a hundred).  With one
 * grid every cut shares one entry. */
static void cut_launch(clipt_context c, clipt_segments_state *g, size_t cut_limit)
{
    const clipt_tuning *t = &c->profile.tuning;
    g->cut_local = clipt_min_size(CUT_LOCAL, cut_limit);
    g->cut_global = clipt_groups_cap(c, t->groups_per_cu_100, t->groups_100) * g->cut_local;
}

/* Cuts the cycles into the table on the device, after the records'
 * write: the event of the cutting into *done. */
static cl_int cut_on_device(const clipt_stage *st, cl_command_queue q, cl_event written,
                            cl_event *done)
{
    const clipt_segments_state *g = &st->f.segments;
    const cut_segments_args v = {.seg_table = g->table, .cycle = g->records,
                                 .segments = g->count,
                                 .cycles = g->cycles, .n_mod = g->n_mod, .leap = g->leap,
                                 .seg_len = g->len};
    cl_int err = cut_segments_set(g->cut, &v);
    return err != CL_SUCCESS ? err
                             : clEnqueueNDRangeKernel(q, g->cut, 1, NULL, &g->cut_global,
                                                      &g->cut_local, 1, &written, done);
}

/* The table, ahead of the plan's first stage: the host's part written
 * (the cycle records, cut into segments on the device then; or, for the
 * walk, the whole table), st->uploaded the event after which it is whole.
 * The table comes from the pool, filled by no one (or already holding
 * these segments: then nothing is done), so it is written rather than
 * made with CL_MEM_COPY_HOST_PTR; and a write at the head of the run
 * blocks nothing (NVIDIA's runtime moved a CL_MEM_COPY_HOST_PTR buffer at
 * its first use, inside that launch, after the work queued before it:
 * docs/performance.md, issue 13).  After a failure the next run does it
 * again. */
static clipt_status upload(clipt_stage *st, cl_command_queue q)
{
    clipt_segments_state *g = &st->f.segments;
    cl_event e = NULL, cut = NULL;
    cl_int err;
    if (!g->host || g->count == 0)
        return CL_SUCCESS;
    err = clEnqueueWriteBuffer(q, g->cut ? g->records : g->table, CL_FALSE, 0, g->host_bytes,
                               g->host, g->writing ? 1 : 0, g->writing ? &g->writing : NULL,
                               &e);
    if (err != CL_SUCCESS)
        return err;
    if (g->writing)
        clReleaseEvent(g->writing);
    g->writing = e;
    if (g->cut && (err = cut_on_device(st, q, e, &cut)) != CL_SUCCESS)
        return err;
    if (!cut)
        clRetainEvent(e);
    st->uploaded = cut ? cut : e;
    return CL_SUCCESS;
}

/* Frees the host's part of the table once no write reads it. */
static void drop_host(clipt_segments_state *g)
{
    clipt_free_after_write(g->host, g->writing);
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

/* Lists the cycles and picks the shortest segment length the memory rule
 * allows, with the counts it gives.  The counts come from the cycle
 * classes, so a segment length that leaves the tables too large (short
 * cycles make them larger than the estimate) is doubled without cutting
 * anything. */
static clipt_status choose_cut(const clipt_stage_spec *sp, size_t elem, clipt_cycle_list *list,
                               unsigned *seg_len, uint64_t *segments, uint64_t *saved)
{
    const uint64_t budget = table_budget(sp, elem);
    clipt_status status;
    *seg_len = first_seg_len(sp, elem, budget);
    status = clipt_cycle_list_find(sp->a, sp->b, CLIPT_MAX_CYCLES, list);
    if (status != CLIPT_SUCCESS)
        return status;
    for (;;) {
        clipt_cycle_list_count(list, *seg_len, segments, saved);
        if (*segments > budget / 16 || table_bytes(sp, elem, *segments, *saved) <= budget ||
            *seg_len >= (1u << 16))
            break;
        *seg_len *= 2;
    }
    /* as the walk decided: too many segments at any length tried is too
     * many short cycles (the flag-based kernel takes the stage) */
    if (*segments > budget / 16) {
        clipt_cycle_list_free(list);
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    return CLIPT_SUCCESS;
}

/* Whether the device cuts the table from the cycle records: when they are
 * fewer bytes than the table (cycles of several segments) and fit the
 * memory rule beside it.  Else the host cuts and writes the table itself
 * (cycles of one segment each, where the records would only copy it), so
 * the tables never take more than the rule allows. */
static int cut_by_device(const clipt_stage_spec *sp, size_t elem, uint64_t cycles,
                         uint64_t segments, uint64_t saved)
{
    const uint64_t records = cycles * CLIPT_CYCLE_RECORD_BYTES;
    return records < segments * CLIPT_SEGMENT_BYTES &&
           table_bytes(sp, elem, segments, saved) + records <= table_budget(sp, elem);
}

/* A table cut on the host (segs, their block now the stage's) for the
 * first run to write whole. */
static void host_table(clipt_segments_state *g, clipt_segments *segs, unsigned seg_len)
{
    g->len = seg_len;
    g->count = segs->count;
    g->saved = segs->saved;
    g->cycles = 0;
    g->host = segs->start; /* the block (cycles.h) */
    g->host_bytes = segs->count * CLIPT_SEGMENT_BYTES;
}

/* The host's part of the table from the listed cycles: their records, for
 * the device to cut, or the table itself when that is no larger. */
static clipt_status listed_table(const clipt_stage_spec *sp, size_t elem,
                                 clipt_segments_state *g)
{
    clipt_cycle_list list;
    clipt_segments segs;
    cl_ulong *records = NULL;
    unsigned seg_len = 0;
    uint64_t segments = 0, saved = 0;
    clipt_status status = choose_cut(sp, elem, &list, &seg_len, &segments, &saved);
    if (status != CLIPT_SUCCESS)
        return status;
    if (!cut_by_device(sp, elem, list.count, segments, saved)) {
        status = clipt_cycle_list_cut(&list, seg_len, (size_t)segments, &segs);
        if (status == CLIPT_SUCCESS)
            host_table(g, &segs, seg_len);
    } else {
        status = clipt_cycle_list_records(&list, seg_len, &records, &g->count, &g->saved);
        if (status == CLIPT_SUCCESS) {
            g->len = seg_len;
            g->cycles = list.count;
            g->leap = clipt_cycle_step(&list, seg_len);
            g->n_mod = list.N;
            g->host = records;
            g->host_bytes = g->cycles * CLIPT_CYCLE_RECORD_BYTES;
        }
    }
    clipt_cycle_list_free(&list);
    return status;
}

/* The whole table cut on the host by the walk (CLIPT_CYCLE_WALK=1). */
static clipt_status walked_table(const clipt_stage_spec *sp, size_t elem,
                                 clipt_segments_state *g)
{
    clipt_segments segs;
    unsigned seg_len = 0;
    clipt_status status = cut_by_walk(sp, elem, &segs, &seg_len);
    if (status == CLIPT_SUCCESS)
        host_table(g, &segs, seg_len);
    return status;
}

/* What the stage's table holds, as the pool names it: the segments depend
 * on a, b, the bytes of one position (instances x s x elem: choose_cut's
 * estimate and table size, and with a x b the memory rule's budget) and
 * the way they were found.  Not the budget alone: every stage under
 * 441 MB (4 MiB / 0.95 %) has the floor's, whatever its bytes a position, and
 * would take a table cut with another segment length. */
static void table_key(const clipt_stage_spec *sp, size_t elem, uint64_t *key)
{
    key[0] = use_walk() ? 2 : 1;
    key[1] = sp->a;
    key[2] = sp->b;
    key[3] = sp->instances * sp->s * elem;
}

/* The stage's segment table: the pool's copy of it when one is free (the
 * segments' counts come with it), else a buffer for it and the host's
 * part that the first run writes (g->host). */
static clipt_status make_table(clipt_context c, const clipt_stage_spec *sp, size_t elem,
                               clipt_segments_state *g)
{
    uint64_t value[CLIPT_POOL_VALUE_WORDS];
    clipt_status status;
    table_key(sp, elem, g->key);
    if (clipt_pool_take_content(&c->pool, g->key, &g->table, value)) {
        g->len = (unsigned)value[0];
        g->count = (size_t)value[1];
        g->saved = (size_t)value[2];
        g->cycles = (size_t)value[3];
        return CLIPT_SUCCESS;
    }
    status = use_walk() ? walked_table(sp, elem, g) : listed_table(sp, elem, g);
    if (status == CLIPT_SUCCESS && g->cycles)
        status = take_table(c, g->cycles * CLIPT_CYCLE_RECORD_BYTES, CL_MEM_READ_ONLY,
                            &g->records);
    if (status != CLIPT_SUCCESS)
        return status;
    return take_table(c, g->count * CLIPT_SEGMENT_BYTES,
                      g->cycles ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY, &g->table);
}

/* Steps a walk reads ahead: the tuning's walk_unroll, but at most
 * WALK_SPLIT_AHEAD on a split region (room-less padding), whose last
 * instances resolve every step's address through REGION_AT: exact-size
 * fp64 plans ran at 17.3 % of copy with 16 steps, 19.2 % with 8, where the
 * plans with room gained 1 % from 16 (H100; docs/performance.md, "Steps
 * read ahead").  With the instances before the split walked plainly, 16
 * steps changed nothing either way (H200, per-shape median 0.98-1.02:
 * "Split walks"). */
#define WALK_SPLIT_AHEAD 8
static unsigned walk_read_ahead(unsigned walk_unroll, int split)
{
    return split && walk_unroll > WALK_SPLIT_AHEAD ? WALK_SPLIT_AHEAD : walk_unroll;
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
             clipt_elem_type_name(elem), q, walk_read_ahead(t->walk_unroll, sp->split != 0),
             clipt_small_index(c, sp->a * sp->b));
    st->aux_bytes = table_bytes_all(g);
    if (g->host && g->cycles) { /* cut on the device at the first run */
        size_t cut_limit = 0;
        if ((status = clipt_make_kernel(c, st, "cut_segments", &g->cut, &cut_limit,
                                        &own_local)))
            return status;
        cut_launch(c, g, cut_limit);
    }
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

/* The table goes back to the pool, free once the plan's last run and the
 * table's making have settled; named by its contents when they are whole
 * by then: made by this plan (the pool checks that its making completed)
 * or taken whole from the pool. */
static void release(clipt_stage *st)
{
    clipt_segments_state *g = &st->f.segments;
    const cl_event after[2] = {st->retire, st->uploaded ? st->uploaded : g->writing};
    const int whole = g->host ? st->uploaded != NULL : 1;
    clipt_pool_content content;
    memcpy(content.key, g->key, sizeof content.key);
    content.value[0] = g->len;
    content.value[1] = g->count;
    content.value[2] = g->saved;
    content.value[3] = g->cycles;
    clipt_pool_put_kernel(&st->ctx->pool, g->walk);
    clipt_pool_put_kernel(&st->ctx->pool, g->cut);
    g->walk = g->cut = NULL;
    clipt_pool_put_buffer(&st->ctx->pool, g->table, 2, after,
                          whole && g->table ? &content : NULL);
    clipt_pool_put_buffer(&st->ctx->pool, g->records, 2, after, NULL);
    g->table = g->records = NULL;
    if (st->uploaded)
        clReleaseEvent(st->uploaded);
    st->uploaded = NULL;
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
