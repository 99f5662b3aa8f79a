/* The random tensor set of `clipt bench --random tensor` and
 * `clipt_permute_bench --random-tensor` (one generator, so that the two
 * measure the same cases): axis permutations shaped after TTLG's
 * evaluation (Vedurada et al., ../shared/papers/002, sec. V-VI), with the
 * common CNN layout changes among them.
 *
 * Case k of a set (k = 0, 1, ...; all drawn in order from one splitmix64
 * state seeded with the set's seed):
 *   k % 10 == 0: a CNN layout change, NCHW -> NHWC (axes 0,2,3,1) for even
 *     k / 10, NHWC -> NCHW (0,3,1,2) for odd; C from {3, 16, 32, 64, 96,
 *     128, 256, 512}, H = W from {7, 14, 28, 56, 112, 224} (those whose
 *     C*H*W elements fit the largest size), N from the drawn size;
 *   otherwise: rank 3 to 6, extents ordered as in TTLG's data set (all the
 *     same, increasing, decreasing, increasing then decreasing, or
 *     decreasing then increasing; neighbours differ by up to 4x), at least 2
 *     each, and a random permutation other than the identity.
 * Sizes are drawn log-uniformly in [lo, hi] bytes, [10^7, 10^9] by default
 * (TTLG: 16 MB to 2 GB; issue 15: 10^7-10^9); the extents are rounded, and
 * a case's size is then brought within [lo, hi] where its extents allow.
 * max_bytes > 0 below 10^9 scales the range down to [min(10^7,
 * ceil(max_bytes / 100)), max_bytes] (quick runs keep the spread of 100x).
 * The arithmetic is IEEE double and libm exp/log/pow: the same list on
 * machines whose libm agrees (glibc's do). */
#ifndef CLIPT_UTIL_TENSOR_SET_H
#define CLIPT_UTIL_TENSOR_SET_H

#include "plan_text.h"

#include <stddef.h>
#include <stdint.h>

#define TENSOR_SET_MIN_BYTES 10000000.0   /* 10^7 */
#define TENSOR_SET_MAX_BYTES 1000000000.0 /* 10^9 */

/* The byte range of a set for max_bytes (0: the default range). */
void tensor_set_range(size_t max_bytes, double *lo, double *hi);

/* Fills out[0..count-1] with cases 0..count-1 of the set (seed, elem,
 * max_bytes). */
void tensor_set_make(uint64_t seed, size_t count, size_t elem, size_t max_bytes,
                     plan_text_permutation *out);

#endif
