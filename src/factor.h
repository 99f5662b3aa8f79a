/* Number theory for the tile rules: integer square roots, divisors, and
 * divisors within a range.  No policy: the rules that use them are in
 * choice.c. */
#ifndef CLIPT_FACTOR_H
#define CLIPT_FACTOR_H

#include <stddef.h>

/* floor(sqrt(x)) for size_t. */
size_t clipt_isqrt(size_t x);

/* Greatest common divisor; gcd(a, 0) = a. */
size_t clipt_gcd(size_t a, size_t b);

/* Writes the divisors of x (x >= 1) in ascending order into out (at most cap
 * of them) and returns how many x has (which may exceed cap). */
size_t clipt_divisors(size_t x, size_t *out, size_t cap);

/* The smallest divisor of dim in [lo, hi] that is a multiple of step
 * (step >= 1), or 0 if there is none. */
size_t clipt_smallest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step);

/* The largest divisor of dim in [lo, hi] that is a multiple of step
 * (step >= 1), or 0 if there is none. */
size_t clipt_largest_divisor_in(size_t dim, size_t lo, size_t hi, size_t step);

/* The largest divisor q of s whose q elements stay within max_bytes (1 at
 * least) of 32-bit registers: the elements one work-item moves per step of
 * a 100! kernel.  An element of 1 or 2 bytes still fills a register of its
 * own (counted as 4 bytes), so slices of small elements hold fewer of them
 * (64 1-byte elements took 111 VGPRs on GCN, 31 of them read 4 steps ahead
 * 240 VGPRs and SGPR spills). */
size_t clipt_slice_elems(size_t s, size_t elem, size_t max_bytes);

/* The segment walk's elements per work-item (shift100_segments): the
 * largest divisor of s within `bytes`; but when s's divisors leave that
 * under 8 bytes (s = 125 allows only 4-byte items within 16), up to twice
 * as much: measured on an H100, 125-element super-elements moved 15 %
 * faster with 20-byte items than with 4-byte ones, while 32-byte items
 * slowed 30-40-element ones down.  The cost model sizes the walk's steps
 * with it too. */
size_t clipt_walk_slice_elems(size_t s, size_t elem, size_t bytes);

#endif
