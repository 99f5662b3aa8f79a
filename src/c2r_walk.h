/* The row walk of C2R's split column shuffle (cl/c2r_columns.h): the
 * cycles of the row permutation pi(i) = (M - q(i)) mod M, q(i) = (i*N -
 * floor(i / a)) mod M (a = M / gcd(M, N)), or of its inverse for R2C, cut
 * into segments of at most `max_len` rows, as the kernels read them. */
#ifndef CLIPT_C2R_WALK_H
#define CLIPT_C2R_WALK_H

#include "clipt.h"
#include "host_shared.h" /* CLIPT_C2R_NO_SLOT, in the kernels' words */

#include <stddef.h>
#include <stdint.h>

/* Rows a walk table is made for at most: the host lists every row
 * (about 9 bytes of host memory a row while it does). */
#define CLIPT_C2R_WALK_MAX_ROWS ((uint64_t)1 << 24)

typedef struct clipt_c2r_walk {
    uint32_t *table;  /* segments x {first, length, own slot, tail slot},
                         then the positions (malloc'ed)                   */
    size_t bytes;     /* of table                                         */
    size_t segments;  /* segments                                         */
    size_t slots;     /* rows saved per instance                          */
    size_t moving;    /* rows that move (positions listed)                */
} clipt_c2r_walk;

/* The row a walk step at row i reads (the gather's source): pi(i), or
 * pi^-1(i) when inverse (tests check tables against it). */
uint64_t clipt_c2r_walk_source(uint64_t rows, uint64_t cols, int inverse, uint64_t i);

/* Whether the walk of coprime rows x cols moves rows, along cycles of at
 * most `most` rows: pi(i) = -i*N mod M there, so its longest cycle is the
 * order of -N modulo M (a cycle through i with gcd(i, M) = d has the
 * order modulo M / d, which divides it); order 1 moves no row.  O(most). */
int clipt_c2r_walk_short(uint64_t rows, uint64_t cols, unsigned most);

/* The walk of the rows x cols view's column shuffle (inverse: R2C's
 * unshuffle).  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS beyond
 * CLIPT_C2R_WALK_MAX_ROWS rows or for max_len outside 1..32;
 * CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_c2r_walk_make(uint64_t rows, uint64_t cols, int inverse, unsigned max_len,
                                 clipt_c2r_walk *out);
void clipt_c2r_walk_free(clipt_c2r_walk *w);

#endif
