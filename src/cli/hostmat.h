/* Host-side matrices for the tool: a recognisable fill pattern, the CPU
 * reference transpose, and an element-wise comparison. */
#ifndef CLIPT_CLI_HOSTMAT_H
#define CLIPT_CLI_HOSTMAT_H

#include <stddef.h>

/* Fills `count` elements of `elem` bytes (1, 2, 4, 8 or 16) with a scrambled
 * function of each element's index.  The function is a bijection for
 * elem >= 4 (up to 2^32 elements when elem is 4), so every element is
 * distinct and any misplaced one shows; 1- and 2-byte elements keep the
 * low bytes of the same values. */
void hostmat_fill(unsigned char *data, size_t count, size_t elem);

/* out = transpose of the row-major rows x cols matrix `in` (out of place). */
void hostmat_transpose(const unsigned char *in, unsigned char *out,
                       size_t rows, size_t cols, size_t elem);

/* Number of elements of `got` that differ from `want`; *first (when not
 * NULL and something differs) receives the index of the first one. */
size_t hostmat_compare(const unsigned char *got, const unsigned char *want,
                       size_t count, size_t elem, size_t *first);

#endif
