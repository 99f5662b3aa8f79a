/* 100!/0100!/1000! by workers that carry super-elements through local
 * memory along cycles, with claim flags in global memory (cl/shift100.cl);
 * the family of the fused 1000!+0010!, whose super-elements land
 * transposed. */
#include "stage_kernel.h"
#include "host_shared.h" /* CLIPT_SHIFT100_WORKER_STATE_BYTES */

#include <stdio.h>

#define SHIFT100_ARGS(X)                                                       \
    CLIPT_REGION_ARGS(X)                        \
    X(instances, ULONG, "ulong") X(a, ULONG, "ulong") X(b, ULONG, "ulong")     \
    X(s, UINT, "uint") X(sa, UINT, "uint") X(sb, UINT, "uint")                 \
    X(flags, GLOBAL, "uint*") X(carried, LOCAL, "elem_t*")                     \
    X(incoming, LOCAL, "elem_t*")
CLIPT_KERNEL_ARGS(shift100, SHIFT100_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"shift100", shift100_arg_decls, CLIPT_COUNT_OF(shift100_arg_decls)}};

static size_t pow2_at_least(size_t x)
{
    size_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    const int fused = clipt_spec_transposes_super(sp);
    const size_t per_worker = (size_t)sp->s * elem * (fused ? 2 : 1);
    /* each worker's bookkeeping in local memory, beside its super-elements */
    const size_t per_worker_state = CLIPT_SHIFT100_WORKER_STATE_BYTES;
    size_t worker = clipt_min_size(pow2_at_least((size_t)sp->s), t->simd_100);
    size_t wg = t->wg_100 > worker ? t->wg_100 / worker * worker : worker;
    const uint64_t total = sp->instances * sp->a * sp->b;

    st->kernel_name = kernels[0].name;
    if (sp->s > UINT32_MAX || per_worker + per_worker_state + 64 > budget)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    for (;;) {
        size_t workers = wg / worker;
        size_t wg_limit = 0, own_local = 0;
        clipt_status status;
        /* fewer workers when their super-elements overflow local memory */
        while (workers > 1 && workers * (per_worker + per_worker_state) + 64 > budget)
            workers /= 2;
        wg = workers * worker;
        snprintf(st->options, sizeof st->options,
                 "-DELEM_TYPE=%s -DWORKER_SIZE=%zu -DMAX_WORKERS=%zu -DTRANSPOSE_SUPER=%d",
                 clipt_elem_type_name(elem), worker, workers, fused);
        status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit,
                                   &own_local);
        if (status != CLIPT_SUCCESS)
            return status;
        if (wg <= wg_limit && workers * per_worker <= clipt_local_budget(&c->profile, own_local)) {
            st->f.workers.worker = (unsigned)worker;
            st->f.workers.workers = (unsigned)workers;
            st->local_bytes[0] = workers * (size_t)sp->s * elem;
            st->local_bytes[1] = fused ? st->local_bytes[0] : elem;
            break;
        }
        clReleaseKernel(st->kernel);
        st->kernel = NULL;
        if (workers > 1)
            wg = (workers / 2) * worker;
        else if (worker > 1)
            worker /= 2, wg = worker;
        else
            return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    }
    clipt_set_launch(st, wg, total, st->f.workers.workers,
                     clipt_groups_cap(c, t->groups_per_cu_100, t->groups_100));
    st->scratch_bytes = (size_t)((total + 31) / 32) * 4;
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const shift100_args v = {
        CLIPT_REGION_VALUES(g), .instances = g->instances, .a = sp->a,
        .b = sp->b, .s = (cl_uint)sp->s, .sa = (cl_uint)sp->sa, .sb = (cl_uint)sp->sb,
        .flags = g->scratch, .carried = st->local_bytes[0], .incoming = st->local_bytes[1]};
    return shift100_set(st->kernel, &v);
}

const clipt_family clipt_family_shift100 = {
    .id = CLIPT_FAMILY_SUPER_LOCAL,
    .file = "shift100.cl",
    .ops = 1u << CLIPT_OP_TRANSPOSE_TILES | 1u << CLIPT_OP_MOVE_SUPER,
    .transposes_super = 1,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
};
