/* The plan's host policy: tile rules, padding, sequence (see choice.h). */
#include "choice.h"
#include "c2r_walk.h"
#include "choice_cost.h"
#include "factor.h"

#include <stdlib.h>
#include <string.h>

/* The largest divisor of dim not above limit (1 at least). */
static size_t largest_divisor_upto(size_t dim, size_t limit)
{
    const size_t f = clipt_largest_divisor_in(dim, 1, limit, 1);
    return f ? f : 1;
}

clipt_tile_choice clipt_tile_alg5(size_t dim, size_t min, size_t max,
                                  int allow_pad)
{
    clipt_tile_choice c = {dim, 0};
    if (max < 1)
        max = 1;
    if (min > max)
        min = max;
    /* a dimension that fits the range whole needs no tiling decision */
    if (dim <= max && dim >= min) {
        c.factor = dim;
        return c;
    }
    if (dim < min) {
        c.factor = dim;
        return c;
    }
    c.factor = clipt_smallest_divisor_in(dim, min, max, 1);
    if (c.factor)
        return c;
    if (!allow_pad) {
        c.factor = largest_divisor_upto(dim, max);
        return c;
    }
    /* dim + k for some k < min is a multiple of min, so this ends */
    while (!c.factor) {
        c.dim++;
        c.factor = clipt_smallest_divisor_in(c.dim, min, max, 1);
    }
    return c;
}

clipt_tile_choice clipt_tile_alg5_aligned(size_t dim, size_t min, size_t max,
                                          int allow_pad, size_t step)
{
    clipt_tile_choice c = {dim, 0}, plain;
    if (step <= 1 || min > max || (min + step - 1) / step * step > max ||
        (dim <= max && dim >= min) || dim < min)
        return clipt_tile_alg5(dim, min, max, allow_pad);
    c.factor = clipt_smallest_divisor_in(dim, min, max, step);
    if (c.factor)
        return c;
    plain = clipt_tile_alg5(dim, min, max, 0);
    if (plain.factor >= min || !allow_pad)
        return plain;
    /* the next multiple of the smallest aligned factor qualifies, so this
     * ends within that many steps; but not past clipt_aligned_pad_limit:
     * then the plain rule's padding, at most min - 1 */
    while (!c.factor) {
        if (++c.dim - dim > clipt_aligned_pad_limit(dim))
            return clipt_tile_alg5(dim, min, max, allow_pad);
        c.factor = clipt_smallest_divisor_in(c.dim, min, max, step);
    }
    return c;
}

size_t clipt_tile_alg1(size_t dim, size_t limit)
{
    return largest_divisor_upto(dim, limit);
}

static size_t eligible(size_t dim, size_t min, size_t max, size_t **out)
{
    size_t count = clipt_divisors(dim, NULL, 0), k = 0;
    size_t *all = malloc(count * sizeof *all);
    if (!all) {
        *out = NULL;
        return 0;
    }
    clipt_divisors(dim, all, count);
    for (size_t i = 0; i < count; i++)
        if (all[i] > min && all[i] < max)
            all[k++] = all[i];
    *out = all;
    return k;
}

void clipt_tile_alg2(size_t M, size_t N, size_t min, size_t max,
                     size_t lm_words, size_t *m, size_t *n)
{
    size_t *fm = NULL, *fn = NULL;
    size_t km = eligible(M, min, max, &fm);
    size_t kn = eligible(N, min, max, &fn);
    size_t best = 0;
    size_t root = clipt_isqrt(lm_words);
    *m = km ? 0 : clipt_tile_alg5(M, min, root, 0).factor;
    *n = kn ? 0 : clipt_tile_alg5(N, min, root, 0).factor;
    for (size_t i = 0; i < (km ? km : 1); i++)
        for (size_t j = 0; j < (kn ? kn : 1); j++) {
            size_t cm = km ? fm[i] : *m, cn = kn ? fn[j] : *n;
            size_t area = cm * cn;
            if (area > lm_words || area == 0)
                continue;
            size_t use = (lm_words / area) * area;
            if (use > best) {
                best = use;
                if (km) *m = cm;
                if (kn) *n = cn;
            }
        }
    if (*m == 0)
        *m = clipt_tile_alg5(M, min, root, 0).factor;
    if (*n == 0)
        *n = clipt_tile_alg5(N, min, root, 0).factor;
    free(fm);
    free(fn);
}

/* Local memory in elements available to a tile: no kernel is built yet,
 * so some is kept for the kernels' own variables. */
static size_t local_words(const clipt_device_profile *p, size_t elem)
{
    return clipt_local_budget(p, CLIPT_OWN_LOCALS_UNKNOWN) / elem;
}

static int is_four_stage(clipt_sequence s)
{
    return s == CLIPT_SEQUENCE_4_1 || s == CLIPT_SEQUENCE_4_2 ||
           s == CLIPT_SEQUENCE_4_3;
}

/* Algorithm 5 for both sides.  Only the tile m x n has to fit local memory,
 * so once one side is chosen (within sqrt(LM)), the other may range up to
 * LM / that side: fewer shapes need padding.  Both orders are tried and the
 * one that pads fewer sides, then the smaller padded area, wins.  Factors
 * that are multiples of `step` are preferred (clipt_tile_alg5_aligned). */
static void alg5_pair(clipt_plan_choice *ch, size_t min, size_t max, size_t lm,
                      int pad, size_t step)
{
    clipt_tile_choice rm = clipt_tile_alg5_aligned(ch->prows, min, max, 0, step);
    if (pad && rm.factor < min)
        rm = clipt_tile_alg5_aligned(ch->prows, min, lm / min, pad, step);
    clipt_tile_choice rn = clipt_tile_alg5_aligned(ch->pcols, min, lm / rm.factor, pad, step);
    clipt_tile_choice cn = clipt_tile_alg5_aligned(ch->pcols, min, max, 0, step);
    if (pad && cn.factor < min)
        cn = clipt_tile_alg5_aligned(ch->pcols, min, lm / min, pad, step);
    clipt_tile_choice cm = clipt_tile_alg5_aligned(ch->prows, min, lm / cn.factor, pad, step);
    /* each padded side costs a pass over the matrix (pad or unpad), more
     * than any difference in padded area: fewer padded sides first */
    const int r_passes = (rm.dim != ch->prows) + (rn.dim != ch->pcols);
    const int c_passes = (cm.dim != ch->prows) + (cn.dim != ch->pcols);
    if (r_passes < c_passes ||
        (r_passes == c_passes && (double)rm.dim * rn.dim <= (double)cm.dim * cn.dim)) {
        ch->prows = rm.dim, ch->m = rm.factor;
        ch->pcols = rn.dim, ch->n = rn.factor;
    } else {
        ch->prows = cm.dim, ch->m = cm.factor;
        ch->pcols = cn.dim, ch->n = cn.factor;
    }
}

/* Elements per tuning.align_bytes: the step of preferred tile factors. */
static size_t align_step(const clipt_tuning *t, size_t elem)
{
    return t->align_bytes / clipt_gcd(t->align_bytes, elem);
}

/* Picks m and n by the plan's rule; may pad prows/pcols. */
static void choose_tiles(const clipt_plan_options *o, const clipt_tuning *t,
                         size_t lm, size_t elem, clipt_plan_choice *ch)
{
    const int pad = o->padding == CLIPT_PADDING_AUTO;
    /* four-stage sequences move whole m x n tiles as super-elements (twice
     * that when fused), so their tiles must leave room for that */
    size_t max = clipt_isqrt(is_four_stage(o->sequence) ? lm / 2 : lm);
    size_t min = t->min_super;
    if (max < 1)
        max = 1;
    switch (o->tile_rule) {
    case CLIPT_TILE_RULE_ALG1:
        ch->m = clipt_tile_alg1(ch->prows, max < 72 ? max : 72);
        ch->n = clipt_tile_alg1(ch->pcols, max < 72 ? max : 72);
        ch->why = "largest factors up to 72 [Algorithm 1]";
        break;
    case CLIPT_TILE_RULE_ALG2:
        clipt_tile_alg2(ch->prows, ch->pcols, min, max + 1,
                        is_four_stage(o->sequence) ? lm / 2 : lm, &ch->m, &ch->n);
        ch->why = "factors that fill local memory best [Algorithm 2]";
        break;
    default:
        alg5_pair(ch, min, max, is_four_stage(o->sequence) ? lm / 2 : lm, pad,
                  align_step(t, elem));
        if (align_step(t, elem) > 1)
            ch->why = pad ? "smallest factors from min_super that fit local memory, "
                            "aligned ones preferred, padding allowed [Algorithm 5]"
                          : "smallest factors from min_super that fit local memory, "
                            "aligned ones preferred, no padding [Algorithm 5]";
        else
            ch->why = pad ? "smallest factors from min_super that fit local memory, "
                            "padding allowed [Algorithm 5]"
                          : "smallest factors from min_super that fit local memory, "
                            "no padding [Algorithm 5]";
        break;
    }
}

/* The largest divisor of dim in [lo, hi] that is a multiple of step, or
 * failing that the largest divisor there, or 0. */
static size_t largest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step)
{
    const size_t f = clipt_largest_divisor_in(dim, lo, hi, step);
    return f ? f : clipt_largest_divisor_in(dim, lo, hi, 1);
}

/* Two-stage sequences move whole m x N slabs through local memory and then
 * m-element super-elements along cycles: measured on an H100, super-elements
 * of ~100 elements run 30 % faster than Algorithm 5's smallest factor, as
 * long as the slab leaves room for a second work-group (half of LM).  So
 * take the largest divisor up to tuning.skinny_super that satisfies that;
 * keep Algorithm 5's choice when there is none. */
static void widen_skinny_tile(clipt_plan_choice *ch, const clipt_tuning *t,
                              size_t lm, size_t rows, size_t cols, size_t step)
{
    size_t *side = NULL, dim = 0, hi = 0;
    if (ch->sequence == CLIPT_SEQUENCE_2_1) {
        side = &ch->m, dim = ch->prows, hi = lm / 2 / cols;
    } else if (ch->sequence == CLIPT_SEQUENCE_2_2) {
        side = &ch->n, dim = ch->pcols, hi = lm / 2 / rows;
    }
    if (side) {
        size_t f = largest_divisor_in(dim, *side, hi < t->skinny_super ? hi : t->skinny_super,
                                      step);
        /* a wider but unaligned factor does not replace an aligned one */
        if (f > *side && (f % step == 0 || *side % step != 0))
            *side = f;
    }
}

/* Sequences that never tile a dimension do not need it padded: 2.1 moves
 * whole rows of N, 2.2 whole columns of M, and 1 moves single elements. */
static void drop_unused_padding(clipt_plan_choice *ch, size_t rows, size_t cols)
{
    if (ch->sequence == CLIPT_SEQUENCE_2_1 || ch->sequence == CLIPT_SEQUENCE_1) {
        ch->pcols = cols;
        ch->n = cols;
    }
    if (ch->sequence == CLIPT_SEQUENCE_2_2 || ch->sequence == CLIPT_SEQUENCE_1) {
        ch->prows = rows;
        ch->m = rows;
    }
}

/* ---- the cost model's choice (choice_cost.c) ------------------------------ */

/* Whether the model chooses: automatic tiles by the default rule, and a
 * sequence it knows how to price candidates for. */
static int model_chooses(const clipt_plan_options *o)
{
    return o->tile_rule == CLIPT_TILE_RULE_AUTO && !o->tile_m && !o->tile_n &&
           (o->sequence == CLIPT_SEQUENCE_AUTO || o->sequence == CLIPT_SEQUENCE_2_1 ||
            o->sequence == CLIPT_SEQUENCE_2_2 || o->sequence == CLIPT_SEQUENCE_3_1 ||
            o->sequence == CLIPT_SEQUENCE_3_2);
}

clipt_cost_env clipt_cost_env_of(const clipt_device_profile *p)
{
    const clipt_cost_env env = {p->simd_width, clipt_local_budget(p, CLIPT_OWN_LOCALS_UNKNOWN),
                                clipt_local_budget(p, 0)};
    return env;
}

/* Replaces Algorithm 5's choice in *ch by the cheapest predicted candidate
 * around it (Algorithm 5's stays unless another is clearly cheaper). */
static void choose_by_model(const clipt_device_profile *p, size_t batch, size_t rows,
                            size_t cols, size_t elem, const clipt_plan_options *o,
                            const clipt_tuning *t, size_t lm, clipt_plan_choice *ch)
{
    const size_t alloc_elems = p->max_alloc_bytes ? (size_t)(p->max_alloc_bytes / elem) : 0;
    const clipt_cost_search s = {
        rows, cols, elem, lm, t->min_super, align_step(t, elem),
        o->padding == CLIPT_PADDING_AUTO, o->sequence,
        alloc_elems > rows * cols || alloc_elems == 0 ? (alloc_elems ? alloc_elems : SIZE_MAX)
                                                      : rows * cols,
        t, clipt_cost_env_of(p), batch, 0};
    const clipt_cost_choice fallback = {ch->prows, ch->pcols, ch->m, ch->n, ch->sequence, 0};
    clipt_cost_choice best;
    clipt_cost_choose(&s, &fallback, &best);
    if (best.prows == ch->prows && best.pcols == ch->pcols && best.m == ch->m &&
        best.n == ch->n && best.sequence == ch->sequence) {
        ch->why = "tiles by Algorithm 5; the cost model found no cheaper candidate";
        return;
    }
    ch->prows = best.prows, ch->pcols = best.pcols, ch->m = best.m, ch->n = best.n;
    ch->sequence = best.sequence;
    ch->why = "sequence, tiles and padding by the cost model (cheapest predicted among "
              "Algorithm 5's choice and its neighbours)";
}

/* ---- the plan's choice ----------------------------------------------------- */

/* A forced factor f of `dim` (0: none) must divide it, unless padding is
 * allowed: then the dimension is padded to the factor's next multiple (how
 * brute-force searches reach padded plans), provided the factor is no
 * larger than the dimension and the matrix is not a single row or column
 * (which moves nothing).  Writes the padded dimension; 0 when the factor
 * is incompatible. */
static int forced_padding(size_t dim, size_t f, int vector, const clipt_plan_options *o,
                          size_t *padded)
{
    *padded = dim;
    if (!f || dim % f == 0)
        return 1;
    if (vector || f > dim || o->padding != CLIPT_PADDING_AUTO)
        return 0;
    *padded = (dim / f + 1) * f;
    return 1;
}

/* Whether the plan runs Catanzaro et al.'s decomposition, either way. */
static int is_c2r_family(clipt_algorithm a)
{
    return a == CLIPT_ALGORITHM_C2R || a == CLIPT_ALGORITHM_R2C;
}

static clipt_status choose_staged(const clipt_device_profile *profile, size_t batch,
                                  size_t rows, size_t cols, size_t elem,
                                  const clipt_plan_options *o, const clipt_tuning *t,
                                  clipt_plan_choice *ch)
{
    const size_t lm = local_words(profile, elem);
    memset(ch, 0, sizeof *ch);
    ch->prows = rows;
    ch->pcols = cols;
    ch->algorithm = CLIPT_ALGORITHM_TPDS;
    const clipt_algorithm chosen = is_c2r_family(o->algorithm)
                                       ? o->algorithm
                                       : clipt_c2r_chosen(profile, batch, rows, cols, elem, o, t);
    if (is_c2r_family(chosen)) {
        /* permutations inside rows and columns: no tiles, no padding */
        if (o->sequence != CLIPT_SEQUENCE_AUTO || o->tile_m || o->tile_n)
            return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
        ch->algorithm = chosen;
        ch->m = ch->n = 1;
        if (o->algorithm == chosen)
            ch->why = chosen == CLIPT_ALGORITHM_C2R ? "C2R decomposition (forced): no tiles"
                                                    : "R2C decomposition (forced): no tiles";
        else
            ch->why = chosen == CLIPT_ALGORITHM_C2R
                          ? "C2R decomposition (automatic): coprime sides, columns of at "
                            "most the tuning's c2r_column_bytes or rows in local memory; "
                            "no tiles"
                          : "R2C decomposition (automatic): coprime sides, rows of at most "
                            "the tuning's c2r_column_bytes or columns in local memory; "
                            "no tiles";
        return CLIPT_SUCCESS;
    }
    if (!forced_padding(rows, o->tile_m, rows == 1 || cols == 1, o, &ch->prows) ||
        !forced_padding(cols, o->tile_n, rows == 1 || cols == 1, o, &ch->pcols))
        return CLIPT_ERROR_INCOMPATIBLE_OPTIONS;
    if (rows == 1 || cols == 1) {
        /* a vector's transpose has the same bytes */
        ch->m = rows;
        ch->n = cols;
        ch->sequence = o->sequence;
        ch->why = "a single row or column: nothing moves";
        return CLIPT_SUCCESS;
    }
    if (o->tile_m || o->tile_n) {
        ch->m = o->tile_m;
        ch->n = o->tile_n;
    }
    if (!ch->m || !ch->n) {
        clipt_plan_choice auto_choice = *ch;
        choose_tiles(o, t, lm, elem, &auto_choice);
        /* a forced factor pins its dimension: no padding there */
        if (!ch->m) {
            ch->m = o->tile_n ? clipt_tile_alg5(rows, t->min_super, clipt_isqrt(lm), 0).factor
                              : auto_choice.m;
            ch->prows = o->tile_n ? rows : auto_choice.prows;
        }
        if (!ch->n) {
            ch->n = o->tile_m ? clipt_tile_alg5(cols, t->min_super, clipt_isqrt(lm), 0).factor
                              : auto_choice.n;
            ch->pcols = o->tile_m ? cols : auto_choice.pcols;
        }
        ch->why = auto_choice.why;
    } else {
        ch->why = "forced by the options";
    }
    if (o->sequence != CLIPT_SEQUENCE_AUTO) {
        ch->sequence = o->sequence;
    } else if (ch->m * cols <= lm) {
        /* Algorithm 3: two stages when a whole m x N (or M x n) slab fits
         * local memory, else the three-stage sequence whose 100! moves the
         * larger super-element */
        ch->sequence = CLIPT_SEQUENCE_2_1;
    } else if (rows * ch->n <= lm) {
        ch->sequence = CLIPT_SEQUENCE_2_2;
    } else {
        ch->sequence = ch->m < ch->n ? CLIPT_SEQUENCE_3_1 : CLIPT_SEQUENCE_3_2;
    }
    drop_unused_padding(ch, rows, cols);
    if (!o->tile_m && !o->tile_n)
        widen_skinny_tile(ch, t, lm, rows, cols, align_step(t, elem));
    if (model_chooses(o))
        choose_by_model(profile, batch, rows, cols, elem, o, t, lm, ch);
    return CLIPT_SUCCESS;
}

/* ---- room-less padding ------------------------------------------------------ */

/* A room-less padded plan keeps at most this share of the matrix in its
 * tail when NONE chooses it (automatic padding stays far below: at most
 * about 1.4 %, docs/design.md). */
#define ROOMLESS_MAX_SHARE 16

static clipt_staged_layout layout_of(size_t rows, size_t cols, const clipt_plan_choice *ch)
{
    const clipt_staged_layout l = {1,     rows,  cols,        ch->prows,
                                   ch->pcols, ch->m, ch->n, ch->sequence};
    return l;
}

static double predicted(const clipt_device_profile *p, size_t rows, size_t cols, size_t elem,
                        const clipt_tuning *t, const clipt_plan_choice *ch)
{
    const clipt_staged_layout l = layout_of(rows, cols, ch);
    const clipt_cost_env env = clipt_cost_env_of(p);
    return clipt_cost_staged_seconds_checked(&l, elem, t, &env);
}

/* Whether a stage of the choice moves super-elements of fewer than `min`
 * elements: outside what the cost model was fitted on (choice_cost.c),
 * and on every device measured the slow case -- element by element at
 * worst (H100: 2.5-10 % of copy against 15 % padded, issue 14). */
static int moves_small(size_t rows, size_t cols, const clipt_plan_choice *ch, size_t min)
{
    const clipt_staged_layout l = layout_of(rows, cols, ch);
    clipt_stage_spec specs[CLIPT_MAX_STAGES];
    const int count = clipt_staged_specs(&l, specs);
    for (int i = 0; i < count; i++)
        if (specs[i].op == CLIPT_OP_MOVE_SUPER && specs[i].s < min)
            return 1;
    return 0;
}

/* NONE: the padded choice (room-less) when the unpadded one moves
 * super-elements below Min and the padded one does not, or when the cost
 * model predicts it faster by more than its margin; else the unpadded
 * one.  Forced tiles keep NONE's old meaning (they must divide). */
static clipt_status choose_exact_size(const clipt_device_profile *profile, size_t rows,
                                      size_t cols, size_t elem, const clipt_plan_options *o,
                                      const clipt_tuning *t, clipt_plan_choice *ch)
{
    clipt_plan_options as = *o;
    clipt_plan_choice padded;
    double with, without, tail;
    clipt_status status;
    as.padding = CLIPT_PADDING_OFF;
    if ((status = choose_staged(profile, 1, rows, cols, elem, &as, t, ch)) != CLIPT_SUCCESS ||
        o->tile_m || o->tile_n || rows == 1 || cols == 1 ||
        is_c2r_family(ch->algorithm)) /* C2R and R2C never pad */
        return status;
    as.padding = CLIPT_PADDING_AUTO;
    if (choose_staged(profile, 1, rows, cols, elem, &as, t, &padded) != CLIPT_SUCCESS)
        return CLIPT_SUCCESS;
    tail = (double)padded.prows * (double)padded.pcols - (double)rows * (double)cols;
    /* a small tail, and one that leaves the device room for the rest (a
     * matrix that only just fits keeps its unpadded plan) */
    if (tail > (double)rows * (double)cols / ROOMLESS_MAX_SHARE ||
        tail * (double)elem >
            ((double)profile->global_mem_bytes - (double)rows * (double)cols * (double)elem) / 4)
        return CLIPT_SUCCESS;
    with = predicted(profile, rows, cols, elem, t, &padded);
    without = predicted(profile, rows, cols, elem, t, ch);
    if ((moves_small(rows, cols, ch, t->min_super) &&
         !moves_small(rows, cols, &padded, t->min_super)) ||
        (with >= 0 && (without < 0 || with < without * (1 - CLIPT_COST_MARGIN)))) {
        *ch = padded;
        ch->roomless = padded.prows != rows || padded.pcols != cols;
    }
    return CLIPT_SUCCESS;
}

/* ---- batches ---------------------------------------------------------------- */

/* The largest divisor of dim in [2, limit], or 0. */
static size_t largest_divisor(size_t dim, size_t limit)
{
    for (size_t f = limit < dim ? limit : dim; f >= 2; f--)
        if (dim % f == 0)
            return f;
    return 0;
}

/* A batch's choice that moves single elements along cycles (2.2 with n = 1
 * or 2.1 with m = 1: the slab of the other side does not fit local memory
 * and the matrix cannot be padded) is replaced by the two-stage sequence
 * whose slab fits and whose 100! moves the longest runs, where one exists.
 * The cost model, fitted on runs of at least Min elements, prices the walk
 * of single elements far too low: 672 matrices 124 x 149 of 8 bytes on an
 * H100 took 0.547 ms that way and 0.224 ms as 2.1 with m = 31
 * (tuning/gpu_nd_speed.sh, docs/performance.md). */
static void avoid_single_moves(size_t rows, size_t cols, size_t lm, clipt_plan_choice *ch)
{
    const size_t m = cols <= lm ? largest_divisor(rows, lm / cols) : 0;
    const size_t n = rows <= lm ? largest_divisor(cols, lm / rows) : 0;
    if (!moves_small(rows, cols, ch, 2) || (!m && !n))
        return;
    ch->prows = rows;
    ch->pcols = cols;
    if (m >= n)
        ch->m = m, ch->n = cols, ch->sequence = CLIPT_SEQUENCE_2_1;
    else
        ch->m = rows, ch->n = n, ch->sequence = CLIPT_SEQUENCE_2_2;
    ch->why = "a batch: the two-stage sequence with the longest runs, not single elements "
              "along cycles";
}

clipt_status clipt_plan_choose_batch(const clipt_device_profile *profile, size_t batch,
                                     size_t rows, size_t cols, size_t elem,
                                     const clipt_plan_options *o, const clipt_tuning *t,
                                     clipt_plan_choice *ch)
{
    clipt_plan_options off = *o;
    clipt_status status;
    if (batch <= 1)
        return clipt_plan_choose(profile, rows, cols, elem, o, t, ch);
    off.padding = CLIPT_PADDING_OFF; /* no stage pads matrices each apart */
    status = choose_staged(profile, batch, rows, cols, elem, &off, t, ch);
    if (status == CLIPT_SUCCESS && o->sequence == CLIPT_SEQUENCE_AUTO && !o->tile_m &&
        !o->tile_n && ch->algorithm == CLIPT_ALGORITHM_TPDS && rows > 1 && cols > 1)
        avoid_single_moves(rows, cols, local_words(profile, elem), ch);
    return status;
}

clipt_status clipt_plan_choose(const clipt_device_profile *profile,
                               size_t rows, size_t cols, size_t elem,
                               const clipt_plan_options *o,
                               const clipt_tuning *t, clipt_plan_choice *ch)
{
    clipt_plan_options as = *o;
    clipt_status status;
    switch (o->padding) {
    case CLIPT_PADDING_NONE:
        return choose_exact_size(profile, rows, cols, elem, o, t, ch);
    case CLIPT_PADDING_SCRATCH:
        as.padding = CLIPT_PADDING_AUTO;
        status = choose_staged(profile, 1, rows, cols, elem, &as, t, ch);
        ch->roomless = ch->prows != rows || ch->pcols != cols;
        return status;
    default:
        return choose_staged(profile, 1, rows, cols, elem, o, t, ch);
    }
}
