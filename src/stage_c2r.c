/* The passes of the C2R decomposition (cl/c2r.cl): column rotation, row
 * shuffle and column shuffle of the rows x cols view, and R2C's inverses
 * of them, each a gather of one unit (a row, or a block of consecutive
 * columns) through local memory when the unit fits, else through as much
 * local memory as there is and the work-group's slot of the plan's
 * scratch buffer for the rest; a column shuffle whose blocks local memory
 * cannot hold is split in a reflection and a row walk first
 * (stage_c2r_split.c).  The spec: `instances` consecutive a x b
 * views (a = rows, b = cols of the view: for R2C the matrix's cols and
 * rows), s = 1; the op names the pass. */
#include "c2r_walk.h"
#include "modular.h"
#include "stage_c2r_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C2R_COMMON_ARGS(X)                                                     \
    X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong")                        \
    X(instances, ULONG, "ulong") X(rows, UINT, "uint") X(cols, UINT, "uint")   \
    X(a_inv, UINT, "uint") X(kind, UINT, "uint") X(div_g, UINT4, "uint4")      \
    X(div_b, UINT4, "uint4") X(div_rows, UINT4, "uint4") X(div_a, UINT4, "uint4") \
    X(div_width, UINT4, "uint4") X(div_last, UINT4, "uint4")                  \
    X(div_cols, UINT4, "uint4")
#define C2R_LOCAL_ARGS(X) C2R_COMMON_ARGS(X) X(tmp, LOCAL, "elem_t*")
#define C2R_GLOBAL_ARGS(X)                                                     \
    C2R_COMMON_ARGS(X) X(in_local, UINT, "uint") X(tmp, LOCAL, "elem_t*")      \
        X(scratch, GLOBAL, "elem_t*")
#define C2R_REGS_ARGS(X)                                                       \
    C2R_COMMON_ARGS(X) X(in_local, UINT, "uint") X(tmp, LOCAL, "elem_t*")
#define C2R_REFLECT_ARGS(X)                                                    \
    X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong")                        \
    X(instances, ULONG, "ulong") X(rows, UINT, "uint") X(cols, UINT, "uint")   \
    X(height, UINT, "uint") X(div_rows, UINT4, "uint4") X(tmp, LOCAL, "elem_t*")
#define C2R_WALK_ARGS(X)                                                       \
    X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong")                        \
    X(instances, ULONG, "ulong") X(rows, UINT, "uint") X(cols, UINT, "uint")   \
    X(table, GLOBAL, "uint*") X(segments, UINT, "uint") X(slots, UINT, "uint") \
    X(saved, GLOBAL, "elem_t*")
CLIPT_KERNEL_ARGS(c2r_local, C2R_LOCAL_ARGS)
CLIPT_KERNEL_ARGS(c2r_global, C2R_GLOBAL_ARGS)
CLIPT_KERNEL_ARGS(c2r_regs, C2R_REGS_ARGS)
CLIPT_KERNEL_ARGS(c2r_reflect, C2R_REFLECT_ARGS)
CLIPT_KERNEL_ARGS(c2r_walk, C2R_WALK_ARGS)

/* The variants, in the kernels[] order (COLUMNS_SPLIT: its three kernels,
 * the first of them). */
enum {
    ROWS_LOCAL,
    ROWS_REGS,
    ROWS_GLOBAL,
    COLUMNS_LOCAL,
    COLUMNS_GLOBAL,
    ROTATE_STREAM,
    COLUMNS_SPLIT
};

static const clipt_kernel_decl kernels[] = {
    {"c2r_rows_local", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)},
    {"c2r_rows_regs", c2r_regs_arg_decls, CLIPT_COUNT_OF(c2r_regs_arg_decls)},
    {"c2r_rows_global", c2r_global_arg_decls, CLIPT_COUNT_OF(c2r_global_arg_decls)},
    {"c2r_columns_local", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)},
    {"c2r_columns_global", c2r_global_arg_decls, CLIPT_COUNT_OF(c2r_global_arg_decls)},
    {"c2r_rotate_stream", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)},
    {"c2r_save_heads", c2r_walk_arg_decls, CLIPT_COUNT_OF(c2r_walk_arg_decls)},
    {"c2r_walk_rows", c2r_walk_arg_decls, CLIPT_COUNT_OF(c2r_walk_arg_decls)},
    {"c2r_reflect", c2r_reflect_arg_decls, CLIPT_COUNT_OF(c2r_reflect_arg_decls)}};

/* What each op tries, best first: the last always fits.  The column
 * shuffles try the split form (COLUMNS_SPLIT, not for rotations) after the
 * local one; CLIPT_C2R_COLUMNS=split puts it first, =scratch leaves it out
 * (a measurement's knob, as CLIPT_C2R_SCRATCH_MIB: the tests run the split
 * form on PoCL, whose local memory holds their columns). */
static const int rotate_variants[] = {ROTATE_STREAM, COLUMNS_LOCAL, COLUMNS_GLOBAL, -1};
static const int rows_variants[] = {ROWS_LOCAL, ROWS_REGS, ROWS_GLOBAL, -1};
static const int columns_variants[] = {COLUMNS_LOCAL, COLUMNS_SPLIT, COLUMNS_GLOBAL, -1};
static const int columns_split_first[] = {COLUMNS_SPLIT, COLUMNS_LOCAL, COLUMNS_GLOBAL, -1};
static const int columns_no_split[] = {COLUMNS_LOCAL, COLUMNS_GLOBAL, -1};

static int split_forced(void)
{
    const char *v = getenv("CLIPT_C2R_COLUMNS");
    return v && strcmp(v, "split") == 0;
}

static const int *columns_order(void)
{
    const char *v = getenv("CLIPT_C2R_COLUMNS");
    if (split_forced())
        return columns_split_first;
    if (v && strcmp(v, "scratch") == 0)
        return columns_no_split;
    return columns_variants;
}

/* The split form pays two passes over the matrix, the scratch form two
 * more transfers of each block's part past local memory: with blocks (one
 * 32-byte sector wide) up to half again as large as local memory the
 * scratch form was the faster on the H100 (the split at 0.75-0.97 of its
 * speed on 14 shapes, 1.09-1.27 on the 10 past that; docs/performance.md,
 * "The column shuffle split"). */
static int split_pays(const clipt_stage_spec *sp, size_t elem, size_t usable)
{
    return !clipt_c2r_columns_on_chip(sp->a, sp->b, elem, usable + usable / 2);
}

/* Work-items of a work-group: units in local memory leave room for
 * several work-groups per compute unit; the global variants, whose
 * work-groups are few (their scratch slots), take larger ones to keep
 * enough loads in flight. */
#define C2R_GROUP_SIZE CLIPT_C2R_GROUP_SIZE
#define C2R_GLOBAL_GROUP_SIZE CLIPT_C2R_GLOBAL_GROUP_SIZE
/* Scratch of the global variants: at most an eighth of the region, or
 * this many bytes (but no more than half the region) when that is more,
 * and at least one work-group's slot: with few slots a small matrix's
 * column pass ran on a few work-groups (H100, 1018 columns: 16). */
#define C2R_SCRATCH_FLOOR ((size_t)32 << 20)
/* Elements a row pass moves as one 32-bit word (C2R_PACK, cl/c2r.cl):
 * 1- and 2-byte rows held in local memory go in words. */
static unsigned c2r_pack(size_t elem) { return elem < 4 ? (unsigned)(4 / elem) : 1u; }

/* Elements a work-item loads before it stores (C2R_BATCH): loads in
 * flight per work-item, in registers (4 of 16 bytes, 8 of the others); 1
 * where the tuning runs the CPU kernels: there a work-group's work-items
 * are a loop, and the batch's private arrays and tests made PoCL's column
 * and row passes up to 1.7x slower. */
#define C2R_MAX_BATCH CLIPT_C2R_MAX_BATCH
static int c2r_batch(const clipt_tuning *t, size_t elem)
{
    if (clipt_tuning_loops(t))
        return 1;
    return CLIPT_C2R_BATCH_OF(elem);
}

static int is_rows(const clipt_stage_spec *sp)
{
    return sp->op == CLIPT_OP_SHUFFLE_ROWS || sp->op == CLIPT_OP_UNSHUFFLE_ROWS;
}

static int is_rotation(const clipt_stage_spec *sp)
{
    return sp->op == CLIPT_OP_ROTATE_COLUMNS || sp->op == CLIPT_OP_UNROTATE_COLUMNS;
}

/* R2C's passes: the kernels built with C2R_INVERSE. */
static int is_inverse(const clipt_stage_spec *sp)
{
    return sp->op == CLIPT_OP_UNSHUFFLE_COLUMNS || sp->op == CLIPT_OP_UNSHUFFLE_ROWS ||
           sp->op == CLIPT_OP_UNROTATE_COLUMNS;
}

/* The rotation streams (c2r_rotate_stream) when local memory keeps the
 * first gcd - 1 rows of a strip one 32-byte sector wide. */
static uint64_t sector_width(const clipt_stage_spec *sp, size_t elem)
{
    const uint64_t sector = 32 / elem > 1 ? 32 / elem : 1;
    return sector < sp->b ? sector : sp->b;
}

static int streams(const clipt_stage_spec *sp, size_t elem, size_t usable)
{
    return is_rotation(sp) &&
           (clipt_gcd64(sp->a, sp->b) - 1) * sector_width(sp, elem) * elem <= usable;
}

/* Columns of a block: one 128-byte line of a row where local memory holds
 * rows x that many, else as many as it holds down to one 32-byte sector;
 * 0 when not even that fits (then the global variant takes full lines). */
static unsigned column_width(const clipt_stage_spec *sp, size_t elem, size_t usable)
{
    const uint64_t line = 128 / elem > 1 ? 128 / elem : 1;
    const uint64_t w = line < sp->b ? line : sp->b;
    const uint64_t fit = usable / (sp->a * elem);
    /* the cost model asks the same (clipt_c2r_columns_on_chip) */
    if (!clipt_c2r_columns_on_chip(sp->a, sp->b, elem, usable))
        return 0;
    return (unsigned)(w < fit ? w : fit);
}

/* Whether `variant` takes the stage's unit with `usable` bytes of local
 * memory and work-groups of `wg` items moving `batch` elements a step;
 * sets its block width and the unit's elements in local memory. */
static int fits(int variant, const clipt_stage_spec *sp, size_t elem, size_t usable, size_t wg,
                unsigned batch, unsigned *width, size_t *in_local)
{
    const size_t held = usable / elem; /* what local memory holds */
    *width = 1;
    switch (variant) {
    case ROTATE_STREAM:
        *width = (unsigned)sector_width(sp, elem);
        *in_local = (clipt_gcd64(sp->a, sp->b) - 1) * *width;
        return streams(sp, elem, usable);
    case ROWS_LOCAL:
        *in_local = sp->b;
        return sp->b <= held;
    case COLUMNS_LOCAL:
        *width = column_width(sp, elem, usable);
        *in_local = sp->a * *width;
        return *width > 0;
    case ROWS_REGS: /* the rest of the row in registers, `batch` per item */
        *in_local = clipt_min_size(held, sp->b - 1);
        return sp->b - *in_local <= wg * batch;
    case ROWS_GLOBAL:
        *in_local = clipt_min_size(held, sp->b - 1);
        return 1;
    default: /* COLUMNS_GLOBAL: blocks of one 32-byte sector per row, four
                times the work-groups of 128-byte blocks in the same scratch */
        *width = (unsigned)sector_width(sp, elem);
        *in_local = clipt_min_size(held, sp->a * *width - 1);
        return 1;
    }
}

/* Work-items of a variant's work-groups, before the kernel's own limit. */
static size_t group_size(int variant)
{
    return variant == ROWS_LOCAL || variant == COLUMNS_LOCAL ? C2R_GROUP_SIZE
                                                             : C2R_GLOBAL_GROUP_SIZE;
}

static clipt_status prepare_split(clipt_context c, size_t elem, const clipt_tuning *t,
                                  clipt_stage *st);

/* Builds the kernel of the first variant of the op that fits: first with
 * all of local memory and the largest work-group (no kernel built for a
 * variant that cannot fit even so), then with what the kernel's own
 * variables leave and its work-group limit.  The split form prepares
 * itself (prepare_split), or passes. */
static clipt_status make_variant(clipt_context c, size_t elem, const clipt_tuning *t,
                                 unsigned batch, clipt_stage *st, size_t *wg)
{
    const clipt_stage_spec *sp = &st->spec;
    const int *v = is_rotation(sp) ? rotate_variants
                   : is_rows(sp)                       ? rows_variants
                                                       : columns_order();
    for (; *v >= 0; v++) {
        size_t own_local = 0, limit = 0, in_local;
        unsigned width;
        clipt_status status;
        if (*v == COLUMNS_SPLIT) {
            if (!split_forced() && !split_pays(sp, elem, clipt_local_budget(&c->profile, 0)))
                continue;
            status = prepare_split(c, elem, t, st);
            if (status != CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS)
                return status;
            continue;
        }
        if (v[1] >= 0 && !fits(*v, sp, elem, clipt_local_budget(&c->profile, 0), group_size(*v),
                               batch, &width, &in_local))
            continue;
        st->kernel_name = kernels[*v].name;
        status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &limit, &own_local);
        if (status != CLIPT_SUCCESS)
            return status;
        *wg = clipt_min_size(group_size(*v), limit);
        if (fits(*v, sp, elem, clipt_local_budget(&c->profile, own_local), *wg, batch, &width,
                 &in_local)) {
            st->f.c2r.variant = *v;
            st->f.c2r.width = width;
            st->f.c2r.in_local = in_local;
            return CLIPT_SUCCESS;
        }
        clReleaseKernel(st->kernel);
        st->kernel = NULL;
    }
    return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS; /* not reached: the last fits */
}

/* The scratch the global variants may take: the rule above, or
 * CLIPT_C2R_SCRATCH_MIB mebibytes when the environment sets it (a
 * measurement's knob, as CLIPT_CYCLE_WALK: whether a scratch small enough
 * to stay in the GPU's L2 cache, with fewer work-groups, beats the rule;
 * tuning/gpu_c2r_speed.sh runs both). */
static size_t scratch_limit(size_t region)
{
    const char *v = getenv("CLIPT_C2R_SCRATCH_MIB");
    const long mib = v ? strtol(v, NULL, 10) : 0;
    const size_t low = clipt_min_size(C2R_SCRATCH_FLOOR, region / 2);
    if (mib > 0 && mib < 65536)
        return (size_t)mib << 20;
    return region / 8 > low ? region / 8 : low;
}

/* Whether the variant holds its unit in the work-group's scratch slot. */
static int in_scratch(int variant) { return variant == ROWS_GLOBAL || variant == COLUMNS_GLOBAL; }

/* The split column shuffle (stage_c2r_split.c): for column shuffles of at
 * least two rows whose saved heads fit the scratch rule. */
static clipt_status prepare_split(clipt_context c, size_t elem, const clipt_tuning *t,
                                  clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    clipt_status status;
    if (is_rotation(sp) || sp->a < 2 || sp->a > CLIPT_C2R_WALK_MAX_ROWS)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    status = clipt_c2r_split_prepare(
        c, elem, t, scratch_limit((size_t)clipt_spec_region_elems(sp) * elem), st);
    if (status == CLIPT_SUCCESS)
        st->f.c2r.variant = COLUMNS_SPLIT;
    return status;
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const unsigned batch = c2r_batch(t, elem);
    size_t wg = 0, per_group, cap;
    uint64_t units;
    unsigned width;
    clipt_status status;
    if (sp->split) /* C2R never pads, so no plan splits its region */
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;

    if (!clipt_c2r_indexable(sp->a, sp->b, elem))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* 1- and 2-byte rows in 32-bit words (C2R_PACK, cl/c2r.cl), the
     * reflection's columns per work-item and rows at a time, and a
     * matrix's offsets in 32 bits where they fit (C2R_INDEX32,
     * cl/c2r_columns.h: H200, forced split C2R, the plans 1.032x faster
     * for 2-byte elements (10 of 10 shapes faster), 1.009x for fp32,
     * 1.002x for fp64; tuning/gpu_c2r_parts.sh) */
    snprintf(st->options, sizeof st->options,
             "-DELEM_TYPE=%s -DC2R_BATCH=%u -DC2R_WALK=%u -DC2R_PACK=%u "
             "-DC2R_REFLECT_COLS=%u -DC2R_REFLECT_BATCH=%u -DC2R_STRIP_LINES=%u "
             "-DC2R_ROW_CURSOR=%u -DC2R_WALK_SHARED=%u -DC2R_INDEX32=%d%s",
             clipt_elem_type_name(elem), batch, clipt_c2r_walk_rows(t, elem),
             c2r_pack(elem), clipt_c2r_reflect_cols(elem),
             clipt_c2r_reflect_batch(elem, batch), clipt_c2r_strip_lines(elem),
             clipt_c2r_row_cursor(t, elem), clipt_c2r_walk_shared(t),
             clipt_small_index(c, sp->a * sp->b),
             is_inverse(sp) ? " -DC2R_INVERSE=1" : "");
    status = make_variant(c, elem, t, batch, st, &wg);
    if (status != CLIPT_SUCCESS || st->f.c2r.variant == COLUMNS_SPLIT)
        return status;
    width = st->f.c2r.width;
    units = sp->instances * (is_rows(sp) ? sp->a : (sp->b + width - 1) / width);
    cap = clipt_groups_cap(c, t->groups_per_cu_010, 0);
    /* the local part (at least one element: a __local argument has a size) */
    st->local_bytes[0] = (st->f.c2r.in_local ? st->f.c2r.in_local : 1) * elem;
    /* the scratch slot: the unit past its local part */
    per_group = ((is_rows(sp) ? sp->b : sp->a * width) - st->f.c2r.in_local) * elem;
    if (in_scratch(st->f.c2r.variant)) {
        /* one slot per work-group, within the scratch rule */
        const size_t limit = scratch_limit((size_t)clipt_spec_region_elems(sp) * elem);
        const size_t by_memory = limit / per_group ? limit / per_group : 1;
        cap = clipt_min_size(cap, by_memory);
    }
    if (st->f.c2r.variant == ROWS_LOCAL) {
        /* a short row takes no more work-items than it has elements (or
         * 32-bit words): a 5-byte row kept 251 of 256 idle, which made
         * the Oclgrind case of 12000 x 5 bytes take 400 s (now 51); on
         * the H100, 24 coprime shapes of 1000-3000 x 40-250, forced C2R
         * ran 1.07x faster (fp32; 1-byte 0.99x, launch-bound) */
        const size_t per_item = c2r_pack(elem);
        const size_t needed = ((sp->b + per_item - 1) / per_item + 31) / 32 * 32;
        wg = clipt_min_size(wg, needed);
    }
    clipt_set_launch(st, wg, units, 1, cap);
    if (in_scratch(st->f.c2r.variant))
        st->scratch_bytes = st->global / st->local * per_group;
    return CLIPT_SUCCESS;
}

/* The arguments both variants share (the last, the temporary, apart). */
#define C2R_SHARED_VALUES(g, w, last)                                       \
    .buf = (g)->buf, .offset = (g)->offset, .instances = (g)->instances,        \
    .rows = (cl_uint)sp->a, .cols = (cl_uint)sp->b, .a_inv = a_inv, .kind = kind, \
    .div_g = clipt_divisor_vector(gcd), .div_b = clipt_divisor_vector(b),       \
    .div_rows = clipt_divisor_vector(sp->a), .div_a = clipt_divisor_vector(a),  \
    .div_width = clipt_divisor_vector(w), .div_last = clipt_divisor_vector(last), \
    .div_cols = clipt_divisor_vector(sp->b)

static clipt_status set_split_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const clipt_c2r_state *f = &st->f.c2r;
    const c2r_reflect_args r = {.buf = g->buf, .offset = g->offset, .instances = g->instances,
                                .rows = (cl_uint)sp->a, .cols = (cl_uint)sp->b,
                                .height = f->height, .div_rows = clipt_divisor_vector(sp->a),
                                .tmp = st->local_bytes[0]};
    const c2r_walk_args w = {.buf = g->buf, .offset = g->offset, .instances = g->instances,
                             .rows = (cl_uint)sp->a, .cols = (cl_uint)sp->b,
                             .table = f->table, .segments = (cl_uint)f->segments,
                             .slots = (cl_uint)f->slots, .saved = g->scratch};
    cl_int err = c2r_reflect_set(f->reflect, &r);
    if (err == CL_SUCCESS)
        err = c2r_walk_set(st->kernel, &w);
    return err == CL_SUCCESS ? c2r_walk_set(f->walk, &w) : err;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const uint64_t gcd = clipt_gcd64(sp->a, sp->b);
    const uint64_t a = sp->a / gcd, b = sp->b / gcd;
    const cl_uint kind = is_rotation(sp) ? 0 : 1; /* C2R_ROTATE, C2R_SHUFFLE */
    /* the row passes take a^-1 mod b, the column unshuffle b^-1 mod a */
    const cl_uint a_inv = sp->op == CLIPT_OP_UNSHUFFLE_COLUMNS
                              ? (a > 1 ? (cl_uint)clipt_invmod(b % a, a) : 0)
                              : (b > 1 ? (cl_uint)clipt_invmod(a % b, b) : 0);
    const unsigned w = st->f.c2r.width;
    const uint64_t last = sp->b % w ? sp->b % w : w;
    const cl_uint in_local = (cl_uint)st->f.c2r.in_local;
    if (st->f.c2r.variant == COLUMNS_SPLIT)
        return set_split_args(st, g);
    if (in_scratch(st->f.c2r.variant)) {
        const c2r_global_args v = {C2R_SHARED_VALUES(g, w, last), .in_local = in_local,
                                   .tmp = st->local_bytes[0], .scratch = g->scratch};
        return c2r_global_set(st->kernel, &v);
    } else if (st->f.c2r.variant == ROWS_REGS) {
        const c2r_regs_args v = {C2R_SHARED_VALUES(g, w, last), .in_local = in_local,
                                 .tmp = st->local_bytes[0]};
        return c2r_regs_set(st->kernel, &v);
    } else {
        const c2r_local_args v = {C2R_SHARED_VALUES(g, w, last), .tmp = st->local_bytes[0]};
        return c2r_local_set(st->kernel, &v);
    }
}

/* One launch (the split form: three); the scratch slots and saved heads
 * need no clearing (each is written before it is read). */
static clipt_status enqueue(const clipt_stage *st, cl_command_queue q, cl_mem scratch,
                            cl_uint num_wait, const cl_event *wait, cl_event *first,
                            cl_event *done)
{
    clipt_status status;
    (void)scratch;
    if (st->f.c2r.variant == COLUMNS_SPLIT)
        return clipt_c2r_split_enqueue(st, q, num_wait, wait, first, done);
    status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global, &st->local, num_wait,
                                    wait, done);
    if (status == CL_SUCCESS && first) {
        *first = *done;
        clRetainEvent(*first);
    }
    return status;
}

static int describe(const clipt_stage *st, char *buf, size_t len)
{
    const unsigned w = st->f.c2r.width;
    const size_t kept = st->f.c2r.in_local;
    switch (st->f.c2r.variant) {
    case ROTATE_STREAM:
        return snprintf(buf, len, "; strips of %u columns streamed down the rows, their first "
                        "%zu elements kept in local memory", w, kept);
    case ROWS_LOCAL:
        return snprintf(buf, len, "; one row per unit, in local memory");
    case ROWS_REGS:
        return snprintf(buf, len, "; one row per unit, the first %zu elements in local memory, "
                        "the rest in registers (scattered)", kept);
    case ROWS_GLOBAL:
        return snprintf(buf, len, "; one row per unit, the first %zu elements in local memory, "
                        "the rest in global scratch", kept);
    case COLUMNS_LOCAL:
        return snprintf(buf, len, "; blocks of %u columns, in local memory", w);
    case COLUMNS_SPLIT:
        return clipt_c2r_split_describe(st, buf, len);
    default:
        return snprintf(buf, len, "; blocks of %u columns, the first %zu elements in local "
                        "memory, the rest in global scratch", w, kept);
    }
}

const clipt_family clipt_family_c2r = {
    .id = CLIPT_FAMILY_C2R,
    .file = "c2r.cl",
    .ops = 1u << CLIPT_OP_ROTATE_COLUMNS | 1u << CLIPT_OP_SHUFFLE_ROWS |
           1u << CLIPT_OP_SHUFFLE_COLUMNS | 1u << CLIPT_OP_UNSHUFFLE_COLUMNS |
           1u << CLIPT_OP_UNSHUFFLE_ROWS | 1u << CLIPT_OP_UNROTATE_COLUMNS,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
    .enqueue = enqueue,
    .upload = clipt_c2r_split_upload,
    .describe = describe,
    .release = clipt_c2r_split_release,
};
