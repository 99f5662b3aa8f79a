/* Factorisation of the matrix dimensions and the tile-size rules
 * (Algorithms 1, 2 and 5 of Gómez-Luna et al., TPDS 2016). */
#ifndef CLIPT_FACTOR_H
#define CLIPT_FACTOR_H

#include <stddef.h>

/* Writes the divisors of x (x >= 1) in ascending order into out (at most cap
 * of them) and returns how many x has (which may exceed cap). */
size_t clipt_divisors(size_t x, size_t *out, size_t cap);

/* A chosen factor and the (possibly padded) dimension it divides. */
typedef struct clipt_tile_choice {
    size_t dim;     /* padded dimension (== the input when not padded) */
    size_t factor;  /* tile side, divides dim */
} clipt_tile_choice;

/* Algorithm 5: a dimension in [1, max] (or below min) is one whole tile;
 * otherwise the smallest divisor of dim in [min, max].  When there is none,
 * with allow_pad the dimension grows by one until there is (max >= min
 * guarantees this within min steps); without, the largest divisor <= max. */
clipt_tile_choice clipt_tile_alg5(size_t dim, size_t min, size_t max,
                                  int allow_pad);

/* Algorithm 5 preferring factors that are multiples of `step` (so that a
 * super-element of that many elements covers whole memory sectors): the
 * smallest such divisor of dim in [min, max] if there is one; else
 * Algorithm 5's unpadded choice if there is one; else, with allow_pad, the
 * smallest dim' > dim with such a divisor (padding that is needed anyway
 * then also aligns the super-elements).  step <= 1, or no multiple of step
 * in [min, max], is plain Algorithm 5. */
clipt_tile_choice clipt_tile_alg5_aligned(size_t dim, size_t min, size_t max,
                                          int allow_pad, size_t step);

/* Algorithm 1 (Catanzaro et al.'s heuristic): largest divisor <= limit. */
size_t clipt_tile_alg1(size_t dim, size_t limit);

/* Algorithm 2: among divisors m of M and n of N strictly inside (min, max)
 * with m*n <= lm_words, the pair that maximises local-memory use
 * floor(lm_words / (m*n)) * m * n.  Falls back to Algorithm 5 without padding
 * for a side with no eligible divisor.  Results in *m, *n. */
void clipt_tile_alg2(size_t M, size_t N, size_t min, size_t max,
                     size_t lm_words, size_t *m, size_t *n);

/* floor(sqrt(x)) for size_t. */
size_t clipt_isqrt(size_t x);

#endif
