/* Factorisation and tile rules. */
#include "factor.h"

#include <math.h>
#include <stdlib.h>

size_t clipt_isqrt(size_t x)
{
    size_t r = (size_t)sqrt((double)x);
    while (r > 0 && r > x / r)
        r--;
    while ((r + 1) <= x / (r + 1))
        r++;
    return r;
}

size_t clipt_divisors(size_t x, size_t *out, size_t cap)
{
    size_t lo = 0, hi_count = 0;
    size_t root = clipt_isqrt(x);
    /* small divisors ascending; their partners are written afterwards in
     * reverse, which keeps the whole list ascending */
    for (size_t d = 1; d <= root; d++)
        if (x % d == 0)
            lo++;
    hi_count = lo - (root * root == x ? 1 : 0);
    if (out) {
        size_t i = 0;
        for (size_t d = 1; d <= root; d++)
            if (x % d == 0) {
                if (i < cap)
                    out[i] = d;
                size_t j = lo + hi_count - 1 - i;
                if (x / d != d && j < cap)
                    out[j] = x / d;
                i++;
            }
    }
    return lo + hi_count;
}

static size_t smallest_divisor_in(size_t dim, size_t min, size_t max)
{
    for (size_t f = min < 1 ? 1 : min; f <= max && f <= dim; f++)
        if (dim % f == 0)
            return f;
    return 0;
}

static size_t largest_divisor_upto(size_t dim, size_t limit)
{
    if (limit >= dim)
        return dim;
    for (size_t f = limit; f > 1; f--)
        if (dim % f == 0)
            return f;
    return 1;
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
    c.factor = smallest_divisor_in(dim, min, max);
    if (c.factor)
        return c;
    if (!allow_pad) {
        c.factor = largest_divisor_upto(dim, max);
        return c;
    }
    /* dim + k for some k < min is a multiple of min, so this ends */
    while (!c.factor) {
        c.dim++;
        c.factor = smallest_divisor_in(c.dim, min, max);
    }
    return c;
}

/* The smallest multiple of step in [min, max] that divides dim, or 0. */
static size_t smallest_multiple_divisor_in(size_t dim, size_t min, size_t max, size_t step)
{
    for (size_t f = (min + step - 1) / step * step; f <= max && f <= dim; f += step)
        if (f && dim % f == 0)
            return f;
    return 0;
}

clipt_tile_choice clipt_tile_alg5_aligned(size_t dim, size_t min, size_t max,
                                          int allow_pad, size_t step)
{
    clipt_tile_choice c = {dim, 0}, plain;
    if (step <= 1 || min > max || (min + step - 1) / step * step > max ||
        (dim <= max && dim >= min) || dim < min)
        return clipt_tile_alg5(dim, min, max, allow_pad);
    c.factor = smallest_multiple_divisor_in(dim, min, max, step);
    if (c.factor)
        return c;
    plain = clipt_tile_alg5(dim, min, max, 0);
    if (plain.factor >= min || !allow_pad)
        return plain;
    /* the next multiple of the smallest aligned factor qualifies, so this
     * ends within that many steps */
    while (!c.factor) {
        c.dim++;
        c.factor = smallest_multiple_divisor_in(c.dim, min, max, step);
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
