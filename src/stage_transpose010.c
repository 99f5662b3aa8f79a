/* 010!/0010! with whole tiles staged in local memory (cl/transpose010.cl,
 * the BS kernel): a work-group takes a batch of consecutive tiles. */
#include "stage_kernel.h"

#include <stdio.h>

#define TRANSPOSE010_ARGS(X)                                                   \
    CLIPT_REGION_ARGS(X)                        \
    X(instances, ULONG, "ulong") X(a, UINT, "uint") X(b, UINT, "uint")         \
    X(pitch, UINT, "uint") X(batch, UINT, "uint") X(tile, LOCAL, "elem_t*")    \
    X(div_ab, UINT4, "uint4") X(div_a, UINT4, "uint4") X(div_b, UINT4, "uint4")
CLIPT_KERNEL_ARGS(transpose010, TRANSPOSE010_ARGS)

static const clipt_kernel_decl kernels[] = {
    {"transpose010_bs", transpose010_arg_decls, CLIPT_COUNT_OF(transpose010_arg_decls)},
    {"transpose010_loops", transpose010_arg_decls, CLIPT_COUNT_OF(transpose010_arg_decls)}};

/* Tiles a work-group takes at once: about tuning.tile_elems_010 elements
 * (for the BS kernel, 16 / elem times as many of elements narrower than 16
 * bytes: the bytes of tile_elems_010 16-byte elements), as many as `usable`
 * bytes hold, no more than there are.  A BS batch is loaded whole, waited
 * for at a barrier and written back, so a work-group's bytes in flight are
 * its batch's: with batches of 1024 elements whatever their size, fp32
 * tile stages ran at 0.70 of copy and fp64 ones, the same instructions for
 * twice the bytes, at 0.91; batches of 16 KiB sped skinny 1-, 2- and
 * 4-byte plans up by 1.05-1.07 (median per shape) and changed general ones
 * by at most 1 % (H200; docs/performance.md, "Tile batches in bytes"). */
static unsigned batch_of(const clipt_stage_spec *sp, const clipt_tuning *t, size_t elem,
                         size_t usable, size_t slots, int loops)
{
    const size_t ab = (size_t)(sp->a * sp->b);
    const size_t per_elem = loops || elem >= 16 ? 1 : 16 / elem;
    size_t by_target = (size_t)t->tile_elems_010 * per_elem / ab;
    size_t by_memory = usable / (slots * elem);
    size_t batch = clipt_min_size(by_target ? by_target : 1, by_memory);
    return (unsigned)clipt_min_size(batch ? batch : 1, (size_t)sp->instances);
}

/* The BS kernel moves elements narrower than 8 bytes as words of several
 * (PACK, cl/transpose010.cl): it is bound by the instructions it issues,
 * and a word costs one load, one store and one position where its
 * elements cost one each.  8-byte words for 2- and 4-byte elements (H200:
 * skinny fp32 plans 1.07x, 2-byte 1.05x; docs/performance.md, "Tiles in
 * 8-byte words").  1-byte elements take 8-byte words when the tiles'
 * output rows (a) hold 32 or more, 4-byte ones below: on output rows of
 * 12-25 bytes the 8-byte words of two lanes met in a bank and those tiles
 * ran at 0.77-0.94x, where the rest gained 1.03-1.13x (H200, 60 fresh
 * shapes; "Tile slots stepped, not recomputed").  1-byte tiles with sides
 * multiples of 4 and such rows also move as 4 x 4 quads through local
 * memory (clipt_spec_tiles_in_quads; H200, general 1-byte: 1.08x, "1-byte
 * tiles in 4 x 4 quads").  The loops kernel copies whole batches. */
static const char *words_option(size_t elem, uint64_t a, int quads)
{
    switch (elem) {
    case 1:
        return quads ? " -DPACK=8 -DWORD_TYPE=ulong -DQUAD=1"
                     : a >= 32 ? " -DPACK=8 -DWORD_TYPE=ulong" : " -DPACK=4";
    case 2: return " -DPACK=4 -DWORD_TYPE=ulong";
    case 4: return " -DPACK=2 -DWORD_TYPE=ulong";
    default: return "";
    }
}

static clipt_status prepare(clipt_context c, size_t elem, const clipt_tuning *t,
                            clipt_stage *st)
{
    const clipt_stage_spec *sp = &st->spec;
    const size_t budget = clipt_local_budget(&c->profile, 0);
    size_t wg_limit = 0, own_local = 0, usable, slots;
    clipt_status status;
    const size_t ab = (size_t)(sp->a * sp->b);
    const int loops = clipt_tuning_loops(t);
    /* quads: rows at pitch b in local memory, rotated instead of padded */
    const int quads = clipt_spec_tiles_in_quads(sp, elem, loops);

    st->kernel_name = kernels[loops ? 1 : 0].name;
    snprintf(st->options, sizeof st->options, "-DELEM_TYPE=%s%s",
             clipt_elem_type_name(elem), loops ? "" : words_option(elem, sp->a, quads));
    if (sp->a * sp->b * elem > budget || sp->a * sp->b > UINT32_MAX)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    status = clipt_make_kernel(c, st, st->kernel_name, &st->kernel, &wg_limit, &own_local);
    if (status != CLIPT_SUCCESS)
        return status;
    usable = clipt_local_budget(&c->profile, own_local);
    if (ab * elem > usable)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    /* an odd row pitch spreads the column reads over the banks (GPUs; the
     * loops kernel reads its tiles whole, and the quads rotate their rows,
     * at pitch b) */
    st->f.tiles.pitch = (unsigned)sp->b;
    if (!loops && !quads && sp->b % 2 == 0 && sp->a * (sp->b + 1) * elem <= usable)
        st->f.tiles.pitch = (unsigned)sp->b + 1;
    slots = (size_t)sp->a * st->f.tiles.pitch;
    st->f.tiles.batch = batch_of(sp, t, elem, usable, slots, loops);
    /* the quads' words start at the buffer's first aligned byte */
    st->local_bytes[0] = st->f.tiles.batch * slots * elem + (quads ? 3 : 0);
    if (clipt_min_size(t->wg_010, wg_limit) < 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    clipt_set_launch(st, loops ? 1 : clipt_min_size(t->wg_010, wg_limit), sp->instances,
                     st->f.tiles.batch, clipt_groups_cap(c, t->groups_per_cu_010, 0));
    return CLIPT_SUCCESS;
}

static clipt_status set_args(const clipt_stage *st, const clipt_stage_args *g)
{
    const clipt_stage_spec *sp = &st->spec;
    const transpose010_args v = {
        CLIPT_REGION_VALUES(g), .instances = g->instances,
        .a = (cl_uint)sp->a, .b = (cl_uint)sp->b, .pitch = st->f.tiles.pitch,
        .batch = st->f.tiles.batch, .tile = st->local_bytes[0],
        .div_ab = clipt_divisor_vector(sp->a * sp->b),
        .div_a = clipt_divisor_vector(sp->a), .div_b = clipt_divisor_vector(sp->b)};
    return transpose010_set(st->kernel, &v);
}

const clipt_family clipt_family_transpose010 = {
    .id = CLIPT_FAMILY_TILE_LOCAL,
    .file = "transpose010.cl",
    .ops = 1u << CLIPT_OP_TRANSPOSE_TILES,
    .kernels = kernels,
    .num_kernels = CLIPT_COUNT_OF(kernels),
    .prepare = prepare,
    .set_args = set_args,
};
