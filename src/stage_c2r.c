/* The passes of the C2R decomposition (cl/c2r.cl): column rotation, row
 * shuffle and column shuffle of the rows x cols view, each a gather of one
 * unit (a row, or a block of consecutive columns) through local memory
 * when the unit fits, else through as much local memory as there is and
 * the work-group's slot of the plan's scratch buffer for the rest.  The
 * spec: `instances` consecutive a x b matrices (a = rows, b = cols),
 * s = 1; the op names the pass. */
#include "modular.h"
#include "stage_kernel.h"

#include <stdio.h>

#define C2R_COMMON_ARGS(X)                                                     \
    X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong")                        \
    X(instances, ULONG, "ulong") X(rows, UINT, "uint") X(cols, UINT, "uint")   \
    X(a_inv, UINT, "uint") X(kind, UINT, "uint") X(div_g, UINT4, "uint4")      \
    X(div_b, UINT4, "uint4") X(div_rows, UINT4, "uint4") X(div_a, UINT4, "uint4") \
    X(div_width, UINT4, "uint4") X(div_last, UINT4, "uint4")
#define C2R_LOCAL_ARGS(X) C2R_COMMON_ARGS(X) X(tmp, LOCAL, "elem_t*")
#define C2R_GLOBAL_ARGS(X)                                                     \
    C2R_COMMON_ARGS(X) X(in_local, UINT, "uint") X(tmp, LOCAL, "elem_t*")      \
        X(scratch, GLOBAL, "elem_t*")
CLIPT_KERNEL_ARGS(c2r_local, C2R_LOCAL_ARGS)
CLIPT_KERNEL_ARGS(c2r_global, C2R_GLOBAL_ARGS)

enum { ROWS_LOCAL, ROWS_GLOBAL, COLUMNS_LOCAL, COLUMNS_GLOBAL, ROTATE_STREAM };

static const clipt_kernel_decl kernels[] = {
    {"c2r_rows_local", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)},
    {"c2r_rows_global", c2r_global_arg_decls, CLIPT_COUNT_OF(c2r_global_arg_decls)},
    {"c2r_columns_local", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)},
    {"c2r_columns_global", c2r_global_arg_decls, CLIPT_COUNT_OF(c2r_global_arg_decls)},
    {"c2r_rotate_stream", c2r_local_arg_decls, CLIPT_COUNT_OF(c2r_local_arg_decls)}};

/* Work-items of a work-group: units in local memory leave room for
 * several work-groups per compute unit; the global variants, whose
 * work-groups are few (their scratch slots), take larger ones to keep
 * enough loads in flight. */
#define C2R_GROUP_SIZE 256
#define C2R_GLOBAL_GROUP_SIZE 1024
/* Scratch of the global variants: at most an eighth of the region, or
 * this many bytes (but no more than half the region) when that is more,
 * and at least one work-group's slot: with few slots a small matrix's
 * column pass ran on a few work-groups (H100, 1018 columns: 16). */
#define C2R_SCRATCH_FLOOR ((size_t)32 << 20)
/* Elements a work-item loads before it stores (C2R_BATCH): loads in
 * flight per work-item, in registers (4 of 16 bytes, 8 of the others); 1
 * where the tuning runs the CPU kernels: there a work-group's work-items
 * are a loop, and the batch's private arrays and tests made PoCL's column
 * and row passes up to 1.7x slower. */
#define C2R_MAX_BATCH 8
static int c2r_batch(const clipt_tuning *t, size_t elem)
{
    if (clipt_tuning_loops(t))
        return 1;
    return elem > 8 ? 4 : C2R_MAX_BATCH;
}

static int is_rows(const clipt_stage_spec *sp) { return sp->op == CLIPT_OP_SHUFFLE_ROWS; }

/* The rotation streams (c2r_rotate_stream) when local memory keeps the
 * first gcd - 1 rows of a strip one 32-byte sector wide. */
static uint64_t sector_width(const clipt_stage_spec *sp, size_t elem)
{
    const uint64_t sector = 32 / elem > 1 ? 32 / elem : 1;
    return sector < sp->b ? sector : sp->b;
}

static int streams(const clipt_stage_spec *sp, size_t elem, size_t usable)
{
    return sp->op == CLIPT_OP_ROTATE_COLUMNS &&
           (clipt_gcd64(sp->a, sp->b) - 1) * sector_width(sp, elem) * elem <= usable;
}

/* Columns of a block: one 128-byte line of a row where local memory holds
 * rows x that many, else as many as it holds down to one 32-byte sector;
 * 0 when not even that fits (then the global variant takes full lines). */
static unsigned column_width(const clipt_stage_spec *sp, size_t elem, size_t usable)
{
    const uint64_t line = 128 / elem > 1 ? 128 / elem : 1;
    const uint64_t sector = 32 / elem > 1 ? 32 / elem : 1;
    uint64_t w = line < sp->b ? line : sp->b;
    const uint64_t fit = usable / (sp->a * elem);
    if (w > fit)
        w = fit;
    return w >= sector || w == sp->b ? (unsigned)w : 0;
}

/* Builds the kernel of the unit's variant: local memory when `try_local`
 * and the unit fits what the kernel's own variables leave (st->f.c2r.local
 * then 1), else local memory for the unit's first in_local elements and
 * global scratch for the rest.  *retry is set when local memory was tried
 * but the kernel's own variables left too little: call again without. */
static clipt_status make_variant(clipt_context c, size_t elem, clipt_stage *st, int try_local,
                                 size_t *wg_limit, int *retry)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    size_t own_local = 0, usable;
    unsigned width = 1;
    uint64_t unit;
    const int stream = try_local && streams(sp, elem, budget);
    int local = try_local && (is_rows(sp) ? sp->b * elem <= budget
                                          : column_width(sp, elem, budget) > 0);
    clipt_status status;
    *retry = 0;
    st->kernel_name = kernels[stream ? ROTATE_STREAM
                              : is_rows(sp) ? (local ? ROWS_LOCAL : ROWS_GLOBAL)
                                            : (local ? COLUMNS_LOCAL : COLUMNS_GLOBAL)]
                          .name;
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    usable = clipt_local_budget(&c->profile, own_local);
    st->f.c2r.stream = stream;
    if (stream) {
        width = (unsigned)sector_width(sp, elem);
        st->f.c2r.width = width;
        st->f.c2r.local = 1;
        st->f.c2r.in_local = (clipt_gcd64(sp->a, sp->b) - 1) * width; /* the rows kept */
        if (!streams(sp, elem, usable)) {
            clReleaseKernel(st->kernel);
            st->kernel = NULL;
            *retry = 1;
        }
        return CLIPT_SUCCESS;
    }
    /* through global scratch, blocks of one 32-byte sector per row: four
     * times the work-groups of 128-byte blocks in the same scratch */
    if (!is_rows(sp))
        width = local ? column_width(sp, elem, usable) : (unsigned)sector_width(sp, elem);
    if (local && (width == 0 || (is_rows(sp) && sp->b * elem > usable))) {
        clReleaseKernel(st->kernel);
        st->kernel = NULL;
        *retry = 1;
        return CLIPT_SUCCESS;
    }
    unit = is_rows(sp) ? sp->b : sp->a * width;
    st->f.c2r.width = width;
    st->f.c2r.local = local;
    /* the global variants keep what local memory holds of the unit there */
    st->f.c2r.in_local = local ? unit : clipt_min_size(usable / elem, unit - 1);
    return CLIPT_SUCCESS;
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const uint64_t line = 128 / elem > 1 ? 128 / elem : 1;
    size_t wg_limit = 0, unit_elems, per_group, cap;
    uint64_t units;
    if (sp->split) /* C2R never pads, so no plan splits its region */
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    unsigned width;
    int local, retry = 0;
    clipt_status status;

    /* 32-bit indices within a unit, with a batch's steps past its end */
    if (sp->a > UINT32_MAX || sp->b > UINT32_MAX ||
        sp->a * line + (uint64_t)C2R_MAX_BATCH * C2R_GLOBAL_GROUP_SIZE > UINT32_MAX)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DC2R_BATCH=%d",
             clipt_elem_type_name(elem), c2r_batch(t, elem));
    status = make_variant(c, elem, st, 1, &wg_limit, &retry);
    if (status == CLIPT_SUCCESS && retry)
        status = make_variant(c, elem, st, 0, &wg_limit, &retry);
    if (status != CLIPT_SUCCESS)
        return status;
    width = st->f.c2r.width;
    local = st->f.c2r.local;
    unit_elems = is_rows(sp) ? (size_t)sp->b
                 : st->f.c2r.stream ? st->f.c2r.in_local
                                    : (size_t)(sp->a * width);
    units = sp->instances * (is_rows(sp) ? sp->a : (sp->b + width - 1) / width);
    cap = clipt_groups_cap(c, t->groups_per_cu_010, 0);
    /* the local part (at least one element: a __local argument has a size) */
    st->local_bytes[0] = (st->f.c2r.in_local ? st->f.c2r.in_local : 1) * elem;
    per_group = (unit_elems - st->f.c2r.in_local) * elem; /* the scratch slot */
    if (!local) {
        /* one slot per work-group, within the scratch rule */
        const size_t region = (size_t)clipt_spec_region_elems(sp) * elem;
        const size_t low = clipt_min_size(C2R_SCRATCH_FLOOR, region / 2);
        const size_t limit = region / 8 > low ? region / 8 : low;
        const size_t by_memory = limit / per_group ? limit / per_group : 1;
        cap = clipt_min_size(cap, by_memory);
    }
    /* a streaming strip's steps are a round trip to memory each: large
     * work-groups keep more bytes of a strip in flight */
    clipt_set_launch(st, clipt_min_size(local && !st->f.c2r.stream ? C2R_GROUP_SIZE
                                                                  : C2R_GLOBAL_GROUP_SIZE,
                                        wg_limit),
                     units, 1, cap);
    if (!local)
        st->scratch_bytes = st->global / st->local * per_group;
    return CLIPT_SUCCESS;
}

/* The arguments both variants share (the last, the temporary, apart). */
#define C2R_SHARED_VALUES(g, w, last)                                       \
    .buf = (g)->buf, .offset = (g)->offset, .instances = (g)->instances,        \
    .rows = (cl_uint)sp->a, .cols = (cl_uint)sp->b, .a_inv = a_inv, .kind = kind, \
    .div_g = clipt_divisor_vector(gcd), .div_b = clipt_divisor_vector(b),       \
    .div_rows = clipt_divisor_vector(sp->a), .div_a = clipt_divisor_vector(a),  \
    .div_width = clipt_divisor_vector(w), .div_last = clipt_divisor_vector(last)

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const uint64_t gcd = clipt_gcd64(sp->a, sp->b);
    const uint64_t a = sp->a / gcd, b = sp->b / gcd;
    const cl_uint kind = sp->op == CLIPT_OP_ROTATE_COLUMNS ? 0 : 1;
    const cl_uint a_inv = b > 1 ? (cl_uint)clipt_invmod(a % b, b) : 0;
    const unsigned w = st->f.c2r.width;
    const uint64_t last = sp->b % w ? sp->b % w : w;
    if (st->f.c2r.local) {
        const c2r_local_args v = {C2R_SHARED_VALUES(g, w, last),
                                  .tmp = st->local_bytes[0]};
        return c2r_local_set(st->kernel, &v);
    } else {
        const c2r_global_args v = {C2R_SHARED_VALUES(g, w, last),
                                   .in_local = (cl_uint)st->f.c2r.in_local,
                                   .tmp = st->local_bytes[0], .scratch = g->scratch};
        return c2r_global_set(st->kernel, &v);
    }
}

/* One launch; the scratch slots need no clearing (each is written before
 * it is read). */
static clipt_status enqueue(const clipt_stage *st, cl_command_queue q, cl_mem scratch,
                            cl_uint num_wait, const cl_event *wait, cl_event *first,
                            cl_event *done)
{
    clipt_status status = clEnqueueNDRangeKernel(q, st->kernel, 1, NULL, &st->global,
                                                 &st->local, num_wait, wait, done);
    (void)scratch;
    if (status == CL_SUCCESS && first) {
        *first = *done;
        clRetainEvent(*first);
    }
    return status;
}

static int describe(const clipt_stage *st, char *buf, size_t len)
{
    const char *unit = is_rows(&st->spec) ? "one row per unit" : "blocks of ";
    char width[32] = "";
    if (!is_rows(&st->spec))
        snprintf(width, sizeof width, "%u columns", st->f.c2r.width);
    if (st->f.c2r.stream)
        return snprintf(buf, len, "; strips of %u columns streamed down the rows, their first "
                        "%zu elements kept in local memory", st->f.c2r.width,
                        st->f.c2r.in_local);
    if (st->f.c2r.local)
        return snprintf(buf, len, "; %s%s, in local memory", unit, width);
    return snprintf(buf, len, "; %s%s, the first %zu elements in local memory, the rest in "
                    "global scratch", unit, width, st->f.c2r.in_local);
}

const clipt_family clipt_family_c2r = {
    .id = CLIPT_FAMILY_C2R,
    .file = "c2r.cl",
    .ops = 1u << CLIPT_OP_ROTATE_COLUMNS | 1u << CLIPT_OP_SHUFFLE_ROWS |
           1u << CLIPT_OP_SHUFFLE_COLUMNS,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
    .enqueue = enqueue,
    .describe = describe,
};
