/* The spec algebra (see spec.h): properties of stage specs, and the stage
 * list of a staged transposition. */
#include "spec.h"
#include "modular.h"

static int moves_rows(const clipt_stage_spec *spec)
{
    return spec->op == CLIPT_OP_PAD || spec->op == CLIPT_OP_UNPAD;
}

int clipt_spec_transposes_super(const clipt_stage_spec *spec)
{
    return spec->op == CLIPT_OP_MOVE_SUPER && spec->sa > 1 && spec->sb > 1;
}

int clipt_spec_is_identity(const clipt_stage_spec *spec)
{
    if (moves_rows(spec))
        return spec->sa == spec->sb || spec->instances == 0;
    if (clipt_spec_transposes_super(spec))
        return 0; /* super-elements still get transposed */
    return spec->instances == 0 || spec->a <= 1 || spec->b <= 1;
}

uint64_t clipt_spec_instance_elems(const clipt_stage_spec *spec)
{
    return spec->a * spec->b * spec->s;
}

uint64_t clipt_spec_region_elems(const clipt_stage_spec *spec)
{
    if (moves_rows(spec))
        return spec->instances * (spec->sa > spec->sb ? spec->sa : spec->sb);
    return spec->instances * clipt_spec_instance_elems(spec);
}

/* The bytes every contiguous unit of the stage is a multiple of (0: the
 * stage has none that may widen). */
static uint64_t unit_bytes(const clipt_stage_spec *spec, size_t elem)
{
    if (clipt_spec_is_identity(spec))
        return 0;
    if (moves_rows(spec)) /* rows start at multiples of either pitch */
        return clipt_gcd64(clipt_gcd64(spec->a, spec->sa), spec->sb) * elem;
    if (spec->op == CLIPT_OP_MOVE_SUPER && !clipt_spec_transposes_super(spec))
        return spec->s * elem;
    return 0;
}

size_t clipt_spec_wide_bytes(const clipt_stage_spec *spec, size_t elem, size_t most)
{
    const uint64_t bytes = unit_bytes(spec, elem);
    size_t w = 16;
    while (w > elem && (w > most || bytes % w || spec->split * elem % w))
        w /= 2;
    return bytes && w > elem ? w : elem;
}

int clipt_spec_rows_in_words(const clipt_stage_spec *spec, size_t elem, int loops,
                             size_t most)
{
    return moves_rows(spec) && !loops && most >= 16 && !spec->split &&
           clipt_spec_wide_bytes(spec, elem, most) < 8;
}

int clipt_spec_tiles_in_quads(const clipt_stage_spec *spec, size_t elem, int loops)
{
    return spec->op == CLIPT_OP_TRANSPOSE_TILES && !loops && elem == 1 && spec->a >= 32 &&
           spec->a % 4 == 0 && spec->b % 4 == 0;
}

/* The spec with its unit-sized lengths multiplied by num / den. */
static clipt_stage_spec rescaled(const clipt_stage_spec *spec, uint64_t num, uint64_t den)
{
    clipt_stage_spec sp = *spec;
    if (moves_rows(spec)) {
        sp.a = sp.a * num / den;
        sp.sa = sp.sa * num / den;
        sp.sb = sp.sb * num / den;
    } else {
        sp.s = sp.s * num / den;
    }
    sp.split = sp.split * num / den;
    return sp;
}

clipt_stage_spec clipt_spec_widened(const clipt_stage_spec *spec, uint64_t unit)
{
    return rescaled(spec, 1, unit);
}

clipt_stage_spec clipt_spec_narrowed(const clipt_stage_spec *spec, uint64_t unit)
{
    return rescaled(spec, unit, 1);
}

/* Padding appends rows for free (room at the end) but must spread the rows
 * apart for extra columns; after the transposition, extra rows of the
 * original became extra columns of the result and are squeezed out. */
static clipt_stage_spec pad_spec(const clipt_staged_layout *l)
{
    clipt_stage_spec sp = {CLIPT_OP_PAD, "pad", l->batch * l->rows, l->cols, 1, 1,
                           l->cols, l->pcols, 0};
    return sp;
}

static clipt_stage_spec unpad_spec(const clipt_staged_layout *l)
{
    clipt_stage_spec sp = {CLIPT_OP_UNPAD, "unpad", l->batch * l->cols, l->rows, 1, 1,
                           l->prows, l->rows, 0};
    return sp;
}

int clipt_staged_specs(const clipt_staged_layout *l, clipt_stage_spec specs[CLIPT_MAX_STAGES])
{
    clipt_stage_spec all[CLIPT_MAX_STAGES];
    unsigned count;
    int kept = 0;
    if (l->rows == 1 || l->cols == 1)
        return 0; /* a vector's transpose has the same bytes */
    if (l->batch > 1 && (l->prows != l->rows || l->pcols != l->cols))
        return -1;
    count = clipt_sequence_specs(l->sequence, l->prows / l->m, l->m, l->pcols / l->n, l->n,
                                 all + 1);
    if (count == 0)
        return -1;
    /* the batch's matrices are consecutive instances of every stage */
    for (unsigned i = 1; i <= count; i++)
        all[i].instances *= l->batch;
    all[0] = pad_spec(l);
    all[count + 1] = unpad_spec(l);
    for (unsigned i = 0; i < count + 2; i++)
        if (!clipt_spec_is_identity(&all[i]))
            specs[kept++] = all[i];
    return kept;
}
