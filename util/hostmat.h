/* Host-side matrices for the tool, the tests and the tuning programs: a
 * recognisable fill pattern, the CPU reference transpose, and element-wise
 * comparisons (plain and against a transpose, threaded). */
#ifndef CLIPT_UTIL_HOSTMAT_H
#define CLIPT_UTIL_HOSTMAT_H

#include <stddef.h>

/* Fills `count` elements of `elem` bytes (1, 2, 4, 8 or 16) with a scrambled
 * function of each element's index.  The function is a bijection for
 * elem >= 4 (up to 2^32 elements when elem is 4), so every element is
 * distinct and any misplaced one shows; 1- and 2-byte elements keep the
 * low bytes of the same values. */
void hostmat_fill(unsigned char *data, size_t count, size_t elem);

/* The same pattern for elements first .. first+count-1 only, written to
 * data[0 .. count*elem): a buffer can be extended without refilling it. */
void hostmat_fill_range(unsigned char *data, size_t first, size_t count, size_t elem);

/* out = transpose of the row-major rows x cols matrix `in` (out of place). */
void hostmat_transpose(const unsigned char *in, unsigned char *out,
                       size_t rows, size_t cols, size_t elem);

/* out = numpy.transpose(in, axes=perm) made contiguous (out of place):
 * `in` is a row-major array of ndim (1..8) dimensions dims[], perm a
 * permutation of 0..ndim-1; out's axis t is in's axis perm[t]. */
void hostmat_permute(const unsigned char *in, unsigned char *out, unsigned ndim,
                     const size_t *dims, const unsigned *perm, size_t elem);

/* Number of elements of `got` that differ from `want`; *first (when not
 * NULL and something differs) receives the index of the first one. */
size_t hostmat_compare(const unsigned char *got, const unsigned char *want,
                       size_t count, size_t elem, size_t *first);

/* Number of elements of `got` (cols x rows) that differ from the transpose
 * of `orig` (rows x cols), compared bit for bit in cache blocks without
 * materialising the transpose; the blocks are split over `threads` POSIX
 * threads (1..64; it falls back to fewer if a thread cannot start).
 * *first (when not NULL and something differs) receives the index in
 * `got` of the first wrong element. */
size_t hostmat_compare_transposed(const unsigned char *got, const unsigned char *orig,
                                  size_t rows, size_t cols, size_t elem,
                                  unsigned threads, size_t *first);

/* Number of elements of `got` that differ from numpy.transpose(orig,
 * axes=perm) made contiguous (orig: ndim (1..8) dimensions dims[]),
 * compared bit for bit without materialising the permutation, the output
 * split over `threads` POSIX threads (1..64; fewer if one cannot start).
 * *first (when not NULL and something differs) receives the index in
 * `got` of the first wrong element. */
size_t hostmat_compare_permuted(const unsigned char *got, const unsigned char *orig,
                                unsigned ndim, const size_t *dims, const unsigned *perm,
                                size_t elem, unsigned threads, size_t *first);

#endif
