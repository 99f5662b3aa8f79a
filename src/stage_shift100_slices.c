/* 100!/0100!/1000! by independent slices held in registers, with one claim
 * flag per slice position in global memory (cl/shift100_slices.cl): no
 * barriers, no local memory. */
#include "stage_kernel.h"
#include "factor.h"

#include <stdio.h>

/* Largest slice a work-item carries in registers. */
#define CLIPT_SLICE_MAX_BYTES 64

#define SHIFT100_SLICES_ARGS(X)                                                \
    CLIPT_REGION_ARGS(X)                        \
    X(instances, ULONG, "ulong") X(a, ULONG, "ulong") X(b, ULONG, "ulong")     \
    X(slices, UINT, "uint") X(flags, GLOBAL, "uint*") X(zero, UINT, "uint")
CLIPT_KERNEL_ARGS(shift100_slices, SHIFT100_SLICES_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"shift100_slices", shift100_slices_arg_decls,
     CLIPT_COUNT_OF(shift100_slices_arg_decls)}};

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t q = clipt_slice_elems((size_t)sp->s, elem, CLIPT_SLICE_MAX_BYTES);
    const uint64_t work = sp->instances * sp->a * sp->b * (sp->s / q);
    size_t wg_limit = 0, own_local = 0, wg;
    clipt_status status;
    st->kernel_name = kernels[0].name;
    if (sp->s / q > UINT32_MAX) /* slices per super-element: a uint argument */
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->f.slices.q = (unsigned)q;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DELEM_WORDS=%d -DQ=%zu",
             clipt_elem_type_name(elem), elem == 16 ? 4 : 1, q);
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    wg = clipt_min_size(t->wg_100, wg_limit);
    clipt_set_launch(st, wg, work, wg, clipt_groups_cap(c, t->groups_per_cu_100, t->groups_100));
    st->local_bytes[0] = st->local_bytes[1] = 0;
    st->scratch_bytes = (size_t)((work + 31) / 32) * 4;
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const shift100_slices_args v = {
        CLIPT_REGION_VALUES(g), .instances = g->instances, .a = sp->a,
        .b = sp->b, .slices = (cl_uint)(sp->s / st->f.slices.q), .flags = g->scratch,
        .zero = 0};
    return shift100_slices_set(st->kernel, &v);
}

const clipt_family clipt_family_shift100_slices = {
    .id = CLIPT_FAMILY_SUPER_SLICES,
    .file = "shift100_slices.cl",
    .ops = 1u << CLIPT_OP_TRANSPOSE_TILES | 1u << CLIPT_OP_MOVE_SUPER,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
};
