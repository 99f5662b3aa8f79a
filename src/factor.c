/* Number theory for the tile rules (see factor.h). */
#include "factor.h"
#include "modular.h"

#include <math.h>

size_t clipt_isqrt(size_t x)
{
    size_t r = (size_t)sqrt((double)x);
    while (r > 0 && r > x / r)
        r--;
    while ((r + 1) <= x / (r + 1))
        r++;
    return r;
}

size_t clipt_gcd(size_t a, size_t b)
{
    return (size_t)clipt_gcd64(a, b);
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

/* The same by trial division up to sqrt(dim): each divisor pair (d,
 * dim / d) looked at once, the smallest in range kept. */
static size_t smallest_divisor_by_pairs(size_t dim, size_t lo, size_t hi, size_t step)
{
    const size_t root = clipt_isqrt(dim);
    size_t best = 0;
    for (size_t d = 1; d <= root; d++) {
        if (dim % d)
            continue;
        const size_t pair[2] = {d, dim / d};
        for (int k = 0; k < 2; k++)
            if (pair[k] >= lo && pair[k] <= hi && pair[k] % step == 0 &&
                (best == 0 || pair[k] < best))
                best = pair[k];
        if (best && best <= d) /* no later pair holds a smaller one */
            break;
    }
    return best;
}

size_t clipt_smallest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step)
{
    /* the scan tries (hi - lo) / step values, the pairs sqrt(dim): the
     * padded candidates of a plan's choice ask this for hundreds of dims
     * in a row (a tenth of plan creation by the scan) */
    if (dim > 0 && (hi < dim ? hi : dim) / step > 2 * clipt_isqrt(dim))
        return smallest_divisor_by_pairs(dim, lo ? lo : 1, hi, step);
    for (size_t f = (lo + step - 1) / step * step; f <= hi && f <= dim; f += step)
        if (f && dim % f == 0)
            return f;
    return 0;
}

size_t clipt_largest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step)
{
    for (size_t f = hi < dim ? hi : dim; f >= lo && f >= 1; f--)
        if (dim % f == 0 && f % step == 0)
            return f;
    return 0;
}

size_t clipt_slice_elems(size_t s, size_t elem, size_t max_bytes)
{
    const size_t held = elem < 4 ? 4 : elem; /* register bytes of one */
    size_t best = 1;
    for (size_t q = 1; q <= s && q * held <= max_bytes; q++)
        if (s % q == 0)
            best = q;
    return best;
}

size_t clipt_walk_slice_elems(size_t s, size_t elem, size_t bytes)
{
    size_t q = clipt_slice_elems(s, elem, bytes);
    if (q * elem < 8)
        q = clipt_slice_elems(s, elem, 2 * bytes);
    return q;
}
