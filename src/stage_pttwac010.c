/* 010!/0010! for tiles too large for local memory (cl/pttwac010.cl): the
 * tile stays in global memory, its elements follow the tile's cycles, and
 * one flag bit per element lives in local memory, spread and padded. */
#include "stage_kernel.h"

#include <stdio.h>

#define PTTWAC010_ARGS(X)                                                      \
    CLIPT_REGION_ARGS(X)                        \
    X(instances, ULONG, "ulong") X(a, UINT, "uint") X(b, UINT, "uint")         \
    X(flag_words, UINT, "uint") X(flags, LOCAL, "uint*")
CLIPT_KERNEL_ARGS(pttwac010, PTTWAC010_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"pttwac010", pttwac010_arg_decls, CLIPT_COUNT_OF(pttwac010_arg_decls)}};

/* PTTWAC flag words for an ab-element tile with spreading R and padding P. */
static size_t flag_words(size_t ab, unsigned spread, unsigned pad)
{
    size_t words = (ab * spread + 31) / 32;
    return words + (words / 32) * pad + 1;
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    const size_t ab = (size_t)(sp->a * sp->b);
    unsigned spread = t->pttwac_spread;
    size_t wg_limit = 0, own_local = 0, words;
    clipt_status status;

    if (sp->a * sp->b > UINT32_MAX / 32)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* a smaller spreading factor when the spread flags overflow */
    while (spread > 1 && flag_words(ab, spread, t->pttwac_pad) * 4 > budget)
        spread /= 2;
    words = flag_words(ab, spread, t->pttwac_pad);
    if (words * 4 > budget)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->kernel_name = kernels[0].name;
    st->f.pttwac.spread = spread;
    st->f.pttwac.pad = t->pttwac_pad;
    st->f.pttwac.flag_words = (unsigned)words;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s -DSPREAD=%u -DFLAG_PAD=%u",
             clipt_elem_type_name(elem), spread, t->pttwac_pad);
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    if (words * 4 > clipt_local_budget(&c->profile, own_local))
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    st->local_bytes[0] = words * 4;
    /* one tile per work-group at a time */
    clipt_set_launch(st, clipt_min_size(t->wg_010, wg_limit), sp->instances, 1,
                     clipt_groups_cap(c, t->groups_per_cu_010, 0));
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const pttwac010_args v = {
        CLIPT_REGION_VALUES(g), .instances = g->instances,
        .a = (cl_uint)st->spec.a, .b = (cl_uint)st->spec.b,
        .flag_words = st->f.pttwac.flag_words, .flags = st->local_bytes[0]};
    return pttwac010_set(st->kernel, &v);
}

static int describe(const clipt_stage *st, char *buf, size_t len)
{
    return snprintf(buf, len, "; flags spread %u pad %u", st->f.pttwac.spread,
                    st->f.pttwac.pad);
}

const clipt_family clipt_family_pttwac010 = {
    .id = CLIPT_FAMILY_TILE_CYCLES,
    .file = "pttwac010.cl",
    .ops = 1u << CLIPT_OP_TRANSPOSE_TILES,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
    .describe = describe,
};
