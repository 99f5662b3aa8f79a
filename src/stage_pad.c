/* Padding and unpadding: rows moved in place to a wider or narrower pitch
 * (cl/pad.cl), chunk by chunk, each work-group waiting only for the chunks
 * whose sources its destinations overlap. */
#include "stage_kernel.h"

#include <stdio.h>

/* Both kernels take the same arguments; `pitch` is the one that is not
 * the width: padding's destination pitch, unpadding's source pitch. */
#define MOVE_ROWS_ARGS(X)                                                      \
    CLIPT_REGION_ARGS(X) X(count, ULONG, "ulong") \
    X(width, ULONG, "ulong") X(pitch, ULONG, "ulong") X(scratch, GLOBAL, "uint*") \
    X(held, LOCAL, "elem_t*") X(div_width, UINT4, "uint4")
CLIPT_KERNEL_ARGS(move_rows, MOVE_ROWS_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"pad_rows", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    {"unpad_rows", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    /* kernel_style loops (CPUs): one work-item moves all rows in order */
    {"pad_rows_loops", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)},
    {"unpad_rows_loops", move_rows_arg_decls, CLIPT_COUNT_OF(move_rows_arg_decls)}};

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    size_t wg_limit = 0, own_local = 0, local, chunk, chunks;
    const uint64_t count = sp->instances * sp->a;
    /* chunks of about 16 KiB: each chunk pays one announce-and-wait, so
     * larger chunks amortise it (2048-element chunks ran at ~50 % of copy
     * bandwidth on an H100) while staying well inside local memory; at
     * most half of it, so that devices with 16 KiB or less still pad */
    const size_t chunk_bytes = clipt_min_size(16384, budget / 2);
    clipt_status status;
    const int loops = clipt_tuning_loops(t);
    st->kernel_name = kernels[(sp->op == CLIPT_OP_PAD ? 0 : 1) + (loops ? 2 : 0)].name;
    st->f.rows.regs = (unsigned)(chunk_bytes / (clipt_min_size(t->wg_010, 256) * elem));
    if (st->f.rows.regs < 2)
        st->f.rows.regs = 2;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DREGS=%u -DSMALL_INDEX=%d",
             clipt_elem_type_name(elem), st->f.rows.regs, clipt_small_index(c, count));
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    if (loops) {
        st->local_bytes[0] = elem; /* held: unused, but a size of 0 is invalid */
        clipt_set_launch(st, 1, 1, 1, 1);
        st->scratch_bytes = 4;
        return CLIPT_SUCCESS;
    }
    local = clipt_min_size(t->wg_010, wg_limit);
    chunk = local * st->f.rows.regs;
    st->local_bytes[0] = chunk * elem;
    if (st->local_bytes[0] > clipt_local_budget(&c->profile, own_local))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    chunks = (size_t)((count + chunk - 1) / chunk);
    if (chunks >= UINT32_MAX - 1) /* chunk ids and their counter are 32-bit */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* one work-group per chunk: no cap */
    clipt_set_launch(st, local, count, chunk, SIZE_MAX);
    st->scratch_bytes = (chunks + 1) * 4; /* the counter, a flag per chunk */
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const move_rows_args v = {
        CLIPT_REGION_VALUES(g), .count = g->instances * sp->a,
        .width = sp->a, .pitch = sp->op == CLIPT_OP_PAD ? sp->sb : sp->sa,
        .scratch = g->scratch, .held = st->local_bytes[0],
        .div_width = clipt_divisor_vector(sp->a)};
    return move_rows_set(st->kernel, &v);
}

const clipt_family clipt_family_pad = {
    .id = CLIPT_FAMILY_ROWS,
    .file = "pad.cl",
    .ops = 1u << CLIPT_OP_PAD | 1u << CLIPT_OP_UNPAD,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
};
