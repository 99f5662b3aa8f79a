/* The split column shuffle (cl/c2r_columns.h, stage_c2r_split.h): a
 * reflection of the columns in strips of one 128-byte line, then a walk
 * of the rows along the cycles the host lists (c2r_walk.h); R2C's
 * unshuffle walks first.  The kernels' arguments are set by stage_c2r.c
 * with the family's others. */
#include "stage_c2r_split.h"
#include "c2r_walk.h"
#include "pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* R2C's unshuffle: the walk first, along the inverse permutation. */
static int is_inverse(const clipt_stage_spec *sp)
{
    return sp->op == CLIPT_OP_UNSHUFFLE_COLUMNS;
}

/* Pairs a reflected strip takes at most: as many as local memory holds,
 * up to 192.  H100, tenth session (tuning/gpu_reflect.sh, 10-16 fresh
 * coprime shapes a size, two lists): the column pass in copies' time
 * with 96 and 192 pairs, 2-byte 4.56 / 4.39 and 4.05 / 3.96, fp32 3.14 /
 * 3.10 and 3.15 / 3.09, fp64 2.88 / 2.65 and 2.72 / 2.66.  (Before the
 * windows were stored from each column's first cell on, they took a
 * strip's width more rows: 64 pairs had cost fp32 1.85 copies, 96 1.65.) */
#define C2R_REFLECT_HEIGHT 192u

/* Columns per work-item of the reflection (C2R_REFLECT_COLS): H100, 20
 * coprime shapes a size, the split column pass in copies' time with 1, 2
 * and 4 columns: 1-byte 9.8, 8.2, 9.5; 2-byte 4.8, 4.2, 5.2; fp32 3.14,
 * 3.11, 3.9; fp64 2.5, 2.9, 4.5. */
unsigned clipt_c2r_reflect_cols(size_t elem) { return elem <= 2 ? 2u : 1u; }

/* A positive whole number from the environment variable `name` (a
 * measuring knob, tuning/README.md), else `fallback`. */
static unsigned knob(const char *name, unsigned fallback)
{
    const char *v = getenv(name);
    const long n = v ? strtol(v, NULL, 10) : 0;
    return n > 0 && n <= 4096 ? (unsigned)n : fallback;
}

/* 128-byte lines of a reflected strip (C2R_STRIP_LINES): 4 for 16-byte
 * elements (32 columns, as one line of fp32), else 1.  H100, the same
 * runs: 16-byte column passes of 2.83 / 2.82 copies' time with 1 line and
 * 96 pairs, 2.56 / 2.60 with 2 lines and 96, 2.54 / 2.53 with 4 and 48;
 * for fp32, 2 lines cost as much as 1 (3.15, 3.19), 4 lines leave too few
 * pairs in local memory (the pass falls back to scratch: 5.75). */
unsigned clipt_c2r_strip_lines(size_t elem)
{
    const unsigned n = knob("CLIPT_C2R_STRIP_LINES", elem >= 16 ? 4 : 1);
    return n == 1 || n == 2 || n == 4 ? n : 1;
}

/* Rows of a walk segment (C2R_WALK): loads each work-item keeps in
 * flight, in registers.  H100, 16 fp32 shapes, the walk with its offsets
 * from the table: the split column pass at 3.40 copies' time with 8, 3.05
 * with 16, 2.95 with 32; 16 of 16 bytes.  With the offsets in local memory
 * (C2R_WALK_SHARED, the GPU kernels), H200, forced split C2R on fresh
 * coprime shapes (tuning/gpu_c2r_parts.sh, seed 2026120620), the column
 * pass with 32, 24 and 16 rows: fp32 3.38, 3.35, 3.42; fp64 2.89, 2.88,
 * 2.89; 2-byte 4.18, 4.40, 4.10; 1-byte 7.59, 7.81, 7.48.  The CPU
 * kernels keep 32 (16 of 16 bytes).  CLIPT_C2R_WALK_ROWS (1..32) replaces
 * it, a knob for measurements. */
unsigned clipt_c2r_walk_rows(const clipt_tuning *t, size_t elem)
{
    const unsigned gpu = elem == 4 || elem == 8 ? 24u : 16u;
    const unsigned n = knob("CLIPT_C2R_WALK_ROWS",
                            clipt_tuning_loops(t) ? (elem > 8 ? 16u : 32u) : gpu);
    return n <= 32 ? n : 32u;
}

/* The walk's row offsets through local memory, once per work-group
 * (C2R_WALK_SHARED, cl/c2r_columns.h), in the GPU kernels: H200, the walk
 * 2-8 % faster in fp32 and fp64 (tuning/gpu_c2r_ncu.sh).  On PoCL the
 * barriers it needs made the column pass 1.7-3.5x slower (fp32, fp64),
 * so the CPU kernels read the table in each row's branch. */
unsigned clipt_c2r_walk_shared(const clipt_tuning *t) { return !clipt_tuning_loops(t); }

/* Rows of each window a work-item of the reflection loads before storing
 * them to local memory (C2R_REFLECT_BATCH): 4 for elements of up to 4
 * bytes, else the C2R passes' batch.  H200, forced split C2R on fresh
 * coprime shapes (tuning/gpu_c2r_parts.sh, four lists), the column pass
 * in copies' time with 8 and 4: fp32 3.72 / 3.54, 3.71 / 3.53, 3.59 /
 * 3.39; 2-byte 5.24 / 4.84, 5.31 / 4.97, 5.38 / 5.00; fp64 3.05 / 3.01
 * (16-byte elements already take 4).  More rows were slower (fp32 with
 * 16 and 32: 3.79 and 4.91, where 8 took 3.68), so more loads in flight
 * are not what the pass lacks; work-groups of 512 or 1024 instead of 256
 * changed nothing (3.44 and 3.50 with 4 and 2 rows). */
unsigned clipt_c2r_reflect_batch(size_t elem, unsigned batch)
{
    return elem <= 4 && batch > 4 ? 4u : batch;
}

/* The reflection's row offsets by addition (C2R_ROW_CURSOR): in both
 * loops for 2-byte elements on GPUs and for every size in the CPU
 * kernels, in the write-back alone for 1-byte elements on GPUs.  H200,
 * forced split C2R on fresh coprime shapes (tuning/gpu_c2r_parts.sh, seed
 * 2026120530), the column pass in copies' time with a division per row
 * and with the cursor: 2-byte 4.61 and 4.29 (the plans 16.3 -> 17.2 % of
 * copy), fp32 3.35 and 3.56, fp64 2.89 and 3.45.  For fp32 Nsight Compute
 * counted a quarter fewer instructions with the cursor, but each window
 * row's load then waited on the stores to local memory before it
 * (tuning/gpu_c2r_ncu.sh).  The cursor in the write-back alone (whose
 * stores wait on nothing but local memory), seeds 2026120610 and
 * 2026120620: 1-byte 6.45 and 7.14, where the division took 6.80-6.97
 * and 7.54-7.81; fp32 3.33 and 3.37 against 3.33-3.39; fp64 3.15 and 3.09
 * against 2.88-2.94; 2-byte the same as in both loops.  On PoCL, where a
 * division costs more and nothing overlaps loads, the cursor made the
 * plans 1.14-1.41x faster for every size (docs/performance.md). */
unsigned clipt_c2r_row_cursor(const clipt_tuning *t, size_t elem)
{
    if (clipt_tuning_loops(t) || elem == 2)
        return 3u;
    return elem == 1 ? 2u : 0u;
}

static unsigned line_columns(size_t elem) { return 128 / elem > 1 ? (unsigned)(128 / elem) : 1; }

/* The reflection's kernel and launch: work-groups a multiple of a
 * strip's lanes (its columns over C2R_REFLECT_COLS), windows of local
 * memory as tall as C2R_REFLECT_HEIGHT or what fits. */
static clipt_status split_reflection(clipt_context c, size_t elem, const clipt_tuning *t,
                                     clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    clipt_c2r_state *g = &st->f.c2r;
    const uint64_t w = (uint64_t)line_columns(elem) * clipt_c2r_strip_lines(elem);
    const uint64_t lanes = w / clipt_c2r_reflect_cols(elem);
    size_t limit = 0, own_local = 0, budget, lsz, height;
    uint64_t units;
    clipt_status status = clipt_make_kernel(c, st, "c2r_reflect", &g->reflect, &limit,
                                            &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    lsz = clipt_min_size(CLIPT_C2R_GROUP_SIZE, limit) / lanes * lanes;
    budget = clipt_local_budget(&c->profile, own_local) / (2 * w * elem);
    height = clipt_min_size(budget, knob("CLIPT_C2R_REFLECT_HEIGHT", C2R_REFLECT_HEIGHT));
    /* below half a strip's columns, the loads' loops would pass more rows
     * that hold none of the unit's cells than rows that do */
    if (lsz == 0 || height == 0 || height < w / 2)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    g->height = (unsigned)height;
    g->width = (unsigned)w;
    st->local_bytes[0] = 2 * height * w * elem;
    units = sp->instances * ((sp->b - 1) / sp->a + 1) *
            (((sp->a < sp->b ? sp->a : sp->b) + w - 1) / w) *
            ((sp->a / 2 + height - 1) / height);
    g->reflect_local = lsz;
    g->reflect_global = lsz * clipt_min_size(units ? units : 1,
                                             clipt_groups_cap(c, t->groups_per_cu_010, 0));
    return CLIPT_SUCCESS;
}

/* The walk's table (the host's copy, written at the first run), kernels
 * and launches. */
static clipt_status split_walk(clipt_context c, size_t elem, const clipt_tuning *t,
                               size_t scratch_cap, clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    clipt_c2r_state *g = &st->f.c2r;
    const size_t cap = clipt_groups_cap(c, t->groups_per_cu_100, t->groups_100);
    size_t limit = 0, save_limit = 0, own_local = 0, lsz;
    clipt_c2r_walk walk;
    clipt_status status;
    g->walk_rows = clipt_c2r_walk_rows(t, elem);
    status = clipt_c2r_walk_make(sp->a, sp->b, is_inverse(sp), g->walk_rows, &walk);
    if (status != CLIPT_SUCCESS)
        return status;
    g->host = walk.table;
    g->host_bytes = walk.bytes;
    g->segments = walk.segments;
    g->slots = walk.slots;
    st->scratch_bytes = (size_t)(sp->instances * walk.slots * sp->b * elem);
    st->aux_bytes = walk.bytes;
    if (walk.segments > UINT32_MAX || walk.slots > UINT32_MAX ||
        st->scratch_bytes > scratch_cap)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    if ((status = clipt_make_kernel(c, st, "c2r_walk_rows", &g->walk, &limit, &own_local)) ||
        (status = clipt_make_kernel(c, st, "c2r_save_heads", &st->kernel, &save_limit,
                                    &own_local)))
        return status;
    lsz = clipt_min_size(CLIPT_C2R_GROUP_SIZE, clipt_min_size(limit, save_limit));
    clipt_set_launch(st, lsz, sp->instances * walk.segments * ((sp->b - 1) / lsz + 1), 1, cap);
    g->save_global = lsz * clipt_min_size(cap, walk.segments ? sp->instances * walk.segments : 1);
    return clipt_pool_take_buffer(&c->pool, c->cl_ctx, walk.bytes ? walk.bytes : 4,
                                  CL_MEM_READ_ONLY, &g->table);
}

clipt_status clipt_c2r_split_prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                                     size_t scratch_cap, clipt_stage *st)
{
    clipt_status status = split_reflection(c, elem, t, st);
    st->kernel_name = is_inverse(&st->spec) ? "c2r_save_heads + c2r_walk_rows + c2r_reflect"
                                            : "c2r_reflect + c2r_save_heads + c2r_walk_rows";
    if (status == CLIPT_SUCCESS)
        status = split_walk(c, elem, t, scratch_cap, st);
    if (status != CLIPT_SUCCESS) { /* the stage as before: the next variant's */
        clipt_c2r_split_release(st);
        if (st->kernel)
            clReleaseKernel(st->kernel);
        st->kernel = NULL;
        st->kernel_name = NULL;
        st->scratch_bytes = st->aux_bytes = 0;
        st->local_bytes[0] = 0;
        memset(&st->f.c2r, 0, sizeof st->f.c2r);
    }
    return status;
}

/* The split form's three launches in order, each after the one before:
 * the reflection, the heads' saving, the walk (R2C: the reflection last). */
clipt_status clipt_c2r_split_enqueue(const clipt_stage *st, cl_command_queue q,
                                     cl_uint num_wait, const cl_event *wait, cl_event *first,
                                     cl_event *done)
{
    const clipt_c2r_state *f = &st->f.c2r;
    const int inverse = is_inverse(&st->spec);
    const cl_kernel k[3] = {inverse ? st->kernel : f->reflect, inverse ? f->walk : st->kernel,
                            inverse ? f->reflect : f->walk};
    const size_t global[3] = {inverse ? f->save_global : f->reflect_global,
                              inverse ? st->global : f->save_global,
                              inverse ? f->reflect_global : st->global};
    const size_t local[3] = {inverse ? st->local : f->reflect_local, st->local,
                             inverse ? f->reflect_local : st->local};
    cl_event e[3] = {NULL, NULL, NULL};
    cl_int err = CL_SUCCESS;
    unsigned i;
    for (i = 0; i < 3 && err == CL_SUCCESS; i++)
        err = clEnqueueNDRangeKernel(q, k[i], 1, NULL, &global[i], &local[i],
                                     i ? 1 : num_wait, i ? &e[i - 1] : wait, &e[i]);
    if (err == CL_SUCCESS) {
        *done = e[2];
        e[2] = NULL;
        if (first) {
            *first = e[0];
            clRetainEvent(e[0]);
        }
    }
    for (i = 0; i < 3; i++)
        if (e[i])
            clReleaseEvent(e[i]);
    return err;
}

/* The walk's table, written ahead of the plan's first stage (not made
 * with CL_MEM_COPY_HOST_PTR: see stage_shift100_segments.c's upload). */
clipt_status clipt_c2r_split_upload(clipt_stage *st, cl_command_queue q)
{
    clipt_c2r_state *f = &st->f.c2r;
    cl_event e = NULL;
    cl_int err;
    if (!f->host || f->host_bytes == 0)
        return CL_SUCCESS;
    err = clEnqueueWriteBuffer(q, f->table, CL_FALSE, 0, f->host_bytes, f->host,
                               f->writing ? 1 : 0, f->writing ? &f->writing : NULL, &e);
    if (err != CL_SUCCESS)
        return err;
    if (f->writing)
        clReleaseEvent(f->writing);
    f->writing = e;
    clRetainEvent(e);
    st->uploaded = e;
    return CL_SUCCESS;
}

/* What the split form holds besides st->kernel: its kernels and table
 * back to the pool (the table free once the plan's last run and its write
 * have settled), the host's table freed once its write no longer reads it. */
void clipt_c2r_split_release(clipt_stage *st)
{
    clipt_c2r_state *f = &st->f.c2r;
    const cl_event after[2] = {st->retire, st->uploaded ? st->uploaded : f->writing};
    clipt_pool_put_kernel(&st->ctx->pool, f->reflect);
    clipt_pool_put_kernel(&st->ctx->pool, f->walk);
    f->reflect = f->walk = NULL;
    clipt_pool_put_buffer(&st->ctx->pool, f->table, 2, after, NULL);
    f->table = NULL;
    if (st->uploaded)
        clReleaseEvent(st->uploaded);
    st->uploaded = NULL;
    clipt_free_after_write(f->host, f->writing);
    f->host = NULL;
    if (f->writing)
        clReleaseEvent(f->writing);
    f->writing = NULL;
}

int clipt_c2r_split_describe(const clipt_stage *st, char *buf, size_t len)
{
    const clipt_c2r_state *f = &st->f.c2r;
    return snprintf(buf, len, "; split: columns reflected in strips of %u, %u pairs at a time, "
                    "and rows walked along %zu cycle segments of <= %u (%zu rows saved)",
                    f->width, f->height, f->segments, f->walk_rows, f->slots);
}
