/* Divisors of a whole number, for the tile searches of the tool. */
#ifndef CLIPT_UTIL_DIVISORS_H
#define CLIPT_UTIL_DIVISORS_H

#include <stddef.h>

/* Writes the divisors of x (x >= 1) in ascending order into out (at most
 * `cap` of them; out may be NULL when cap is 0) and returns how many there
 * are, so that a first call with cap 0 sizes the array. */
size_t util_divisors(size_t x, size_t *out, size_t cap);

#endif
