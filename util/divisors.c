#include "divisors.h"

size_t util_divisors(size_t x, size_t *out, size_t cap)
{
    size_t small = 0, total, i = 0;
    int square = 0;
    for (size_t d = 1; d <= x / d; d++)
        if (x % d == 0) {
            small++;
            square = x / d == d; /* the last one: sqrt(x) if x is a square */
        }
    total = 2 * small - (size_t)square;
    /* the divisors up to sqrt(x) ascending from the front; each one's
     * partner x / d from the back, so the whole list comes out sorted */
    for (size_t d = 1; d <= x / d; d++)
        if (x % d == 0) {
            if (i < cap)
                out[i] = d;
            if (x / d != d && total - 1 - i < cap)
                out[total - 1 - i] = x / d;
            i++;
        }
    return total;
}
