/* The plan's choice by predicted time (see choice_cost.h).
 *
 * Candidates: for each side, a handful of (padded dimension, factor)
 * options -- the smallest aligned (to the step and to a quarter of it)
 * and the smallest plain divisor in [Min, LM / Min], the largest divisors
 * there, the whole side, and with padding allowed the nearest larger
 * dimensions with such divisors in [Min, sqrt(LM)]; for elements so small
 * that Min of them are fewer than model_run_bytes, also the smallest
 * aligned divisor of at least that many bytes and the nearest dimension
 * within 1/64 with one -- paired wherever the tile fits local memory, each
 * pair under sequences 3.1 and 3.2; for 2.1 (2.2) the row (column)
 * options, plus the widest slab factors, whenever an m x cols (rows x n)
 * slab fits.  A few dozen specs lists, priced in microseconds. */
#include "choice_cost.h"
#include "factor.h"

#define SIDE_OPTIONS 12

typedef struct side_option {
    size_t dim, factor;
} side_option;

typedef struct side_options {
    side_option v[SIDE_OPTIONS];
    unsigned n;
} side_options;

static void add_option(side_options *o, size_t dim, size_t factor)
{
    if (factor == 0 || dim % factor || o->n == SIDE_OPTIONS)
        return;
    for (unsigned i = 0; i < o->n; i++)
        if (o->v[i].dim == dim && o->v[i].factor == factor)
            return;
    o->v[o->n++] = (side_option){dim, factor};
}

/* The smallest dim' > dim with a divisor in [lo, hi] that is a multiple of
 * step, and that divisor; nothing when there is none within `reach`. */
static void add_padded(side_options *o, size_t dim, size_t lo, size_t hi, size_t step,
                       size_t reach)
{
    for (size_t d = dim + 1; d <= dim + reach; d++) {
        const size_t f = clipt_smallest_divisor_in(d, lo, hi, step);
        if (f) {
            add_option(o, d, f);
            return;
        }
    }
}

/* The options of one side of `dim` elements whose tile partner may be as
 * small as Min (so the factor may reach lm / Min).  No factor below Min
 * (but the whole side): super-elements of a few elements lie outside what
 * the model was fitted on, and measured far slower than it would say. */
static void side_options_of(const clipt_cost_search *s, size_t dim, side_options *o)
{
    const size_t min = s->min ? s->min : 1, hi = s->lm / min, root = clipt_isqrt(s->lm);
    /* the fewest elements of a super-element that the model prices as a
     * whole run (model_run_bytes): more than Min for small elements */
    const size_t run = (s->tuning->model_run_bytes + s->elem - 1) / s->elem;
    /* a quarter of the step too: with 128-byte lines as the step, the
     * 32-byte sectors' step pads 1-byte sides by up to 31 elements where
     * the line's pads by up to 127 (on the H100 19281 x 1231 bytes: 0.10 ms
     * padded to 19296 rows, 0.15 ms to 19328 x 1280) */
    const size_t sub = s->step % 4 == 0 ? s->step / 4 : 0;
    o->n = 0;
    if (dim <= hi)
        add_option(o, dim, dim);
    add_option(o, dim, clipt_smallest_divisor_in(dim, min, hi, s->step));
    add_option(o, dim, clipt_smallest_divisor_in(dim, min, hi, 1));
    add_option(o, dim, clipt_largest_divisor_in(dim, min, root, s->step));
    add_option(o, dim, clipt_largest_divisor_in(dim, min, hi, 1));
    if (sub > 1)
        add_option(o, dim, clipt_smallest_divisor_in(dim, min, hi, sub));
    if (run > min && run <= root)
        add_option(o, dim, clipt_smallest_divisor_in(dim, run, hi, s->step));
    if (s->pad && dim > root) {
        /* Algorithm 5's reach, a multiple of the smallest candidate, but
         * aligned ones within clipt_aligned_pad_limit */
        const size_t cap = clipt_aligned_pad_limit(dim);
        add_padded(o, dim, min, root, s->step, min * s->step < cap ? min * s->step : cap);
        add_padded(o, dim, min, root, 1, min);
        if (sub > 1)
            add_padded(o, dim, min, root, sub, min * sub < cap ? min * sub : cap);
        /* within 1/64 of the side: longer runs do not pay for more */
        if (run > min && run <= root)
            add_padded(o, dim, run, root, s->step, dim / 64);
    }
}

/* The widest slab factors of a 2-stage sequence: the largest (aligned,
 * then any) divisor of dim up to `limit`. */
static void add_slab_options(const clipt_cost_search *s, size_t dim, size_t limit,
                             side_options *o)
{
    const unsigned cap = limit < s->tuning->skinny_super ? (unsigned)limit
                                                          : s->tuning->skinny_super;
    add_option(o, dim, clipt_largest_divisor_in(dim, s->min, cap, s->step));
    add_option(o, dim, clipt_largest_divisor_in(dim, s->min, cap, 1));
}

/* A candidate's price, its moves' families checked if the search says. */
static double staged_seconds(const clipt_cost_search *s, const clipt_staged_layout *l)
{
    return s->checked ? clipt_cost_staged_seconds_checked(l, s->elem, s->tuning, &s->env)
                      : clipt_cost_staged_seconds(l, s->elem, s->tuning, &s->env);
}

/* Prices one candidate and keeps it in *best if cheaper. */
static void consider(const clipt_cost_search *s, clipt_cost_choice c, clipt_cost_choice *best,
                     unsigned *priced)
{
    const clipt_staged_layout l = {s->batch, s->rows, s->cols, c.prows, c.pcols, c.m, c.n,
                                   c.sequence};
    if ((double)c.prows * (double)c.pcols > (double)s->max_elems)
        return;
    c.seconds = staged_seconds(s, &l);
    (*priced)++;
    if (c.seconds >= 0 && c.seconds < best->seconds)
        *best = c;
}

static int wants(const clipt_cost_search *s, clipt_sequence q)
{
    return s->sequence == CLIPT_SEQUENCE_AUTO || s->sequence == q;
}

/* 2.1 tiles m x cols (columns never padded), 2.2 rows x n. */
static void consider_two_stage(const clipt_cost_search *s, const side_options *ro,
                               const side_options *co, clipt_cost_choice *best,
                               unsigned *priced)
{
    side_options slab = *ro;
    if (wants(s, CLIPT_SEQUENCE_2_1)) {
        add_slab_options(s, s->rows, s->lm / 2 / s->cols, &slab);
        for (unsigned i = 0; i < slab.n; i++)
            if (slab.v[i].factor * s->cols <= s->lm)
                consider(s, (clipt_cost_choice){slab.v[i].dim, s->cols, slab.v[i].factor,
                                                s->cols, CLIPT_SEQUENCE_2_1, 0},
                         best, priced);
    }
    slab = *co;
    if (wants(s, CLIPT_SEQUENCE_2_2)) {
        add_slab_options(s, s->cols, s->lm / 2 / s->rows, &slab);
        for (unsigned j = 0; j < slab.n; j++)
            if (s->rows * slab.v[j].factor <= s->lm)
                consider(s, (clipt_cost_choice){s->rows, slab.v[j].dim, s->rows,
                                                slab.v[j].factor, CLIPT_SEQUENCE_2_2, 0},
                         best, priced);
    }
}

static unsigned search(const clipt_cost_search *s, const clipt_cost_choice *fallback,
                       clipt_cost_choice *best)
{
    const clipt_staged_layout l0 = {s->batch,    s->rows,      s->cols,     fallback->prows,
                                    fallback->pcols, fallback->m, fallback->n,
                                    fallback->sequence};
    clipt_cost_choice found;
    side_options ro, co;
    unsigned priced = 1;
    *best = *fallback;
    best->seconds = staged_seconds(s, &l0);
    found = *best;
    found.seconds = best->seconds >= 0 ? best->seconds * (1 - CLIPT_COST_MARGIN) : 1e300;
    side_options_of(s, s->rows, &ro);
    side_options_of(s, s->cols, &co);
    for (unsigned i = 0; i < ro.n; i++)
        for (unsigned j = 0; j < co.n; j++) {
            const side_option r = ro.v[i], c = co.v[j];
            if (r.factor * c.factor > s->lm)
                continue;
            if (wants(s, CLIPT_SEQUENCE_3_1))
                consider(s, (clipt_cost_choice){r.dim, c.dim, r.factor, c.factor,
                                                CLIPT_SEQUENCE_3_1, 0},
                         &found, &priced);
            if (wants(s, CLIPT_SEQUENCE_3_2))
                consider(s, (clipt_cost_choice){r.dim, c.dim, r.factor, c.factor,
                                                CLIPT_SEQUENCE_3_2, 0},
                         &found, &priced);
        }
    consider_two_stage(s, &ro, &co, &found, &priced);
    if (found.seconds < best->seconds * (1 - CLIPT_COST_MARGIN) || best->seconds < 0)
        *best = found;
    return priced;
}

unsigned clipt_cost_choose(const clipt_cost_search *s, const clipt_cost_choice *fallback,
                           clipt_cost_choice *best)
{
    unsigned priced = search(s, fallback, best);
    const clipt_staged_layout l = {s->batch, s->rows, s->cols, best->prows, best->pcols,
                                   best->m, best->n, best->sequence};
    /* counting cycles costs microseconds a move: only the choice's are
     * counted, and only a choice with a refused walk (rare: short cycles
     * of sides like 9216 x 96) makes every candidate counted */
    if (!s->checked && best->seconds >= 0 &&
        clipt_cost_staged_seconds_checked(&l, s->elem, s->tuning, &s->env) > best->seconds) {
        clipt_cost_search again = *s;
        again.checked = 1;
        priced += search(&again, fallback, best);
    }
    return priced;
}
