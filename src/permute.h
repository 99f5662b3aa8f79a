/* Axis permutations of dense row-major arrays (numpy.transpose(a, axes)
 * made contiguous), reduced to passes of batched transpositions of
 * adjacent axis groups.  Pure host logic: no OpenCL calls.
 *
 * A pass turns the layout (A, B, C, D) into (A, C, B, D): A independent
 * B x C matrices whose entries are runs of D elements.  plan_permute.c
 * lowers each pass to stage specs. */
#ifndef CLIPT_PERMUTE_H
#define CLIPT_PERMUTE_H

#include "clipt.h"

#include <stddef.h>
#include <stdint.h>

/* At most CLIPT_MAX_DIMS - 1 passes sort CLIPT_MAX_DIMS axes. */
#define CLIPT_MAX_PASSES (CLIPT_MAX_DIMS - 1)

typedef struct clipt_permute_pass {
    uint64_t A, B, C, D;
} clipt_permute_pass;

/* A permutation as given, as reduced (axes of 1 dropped, axes that stay
 * neighbours in order merged), and the passes chosen for it. */
typedef struct clipt_permutation {
    unsigned ndim;
    size_t dims[CLIPT_MAX_DIMS];
    unsigned perm[CLIPT_MAX_DIMS];
    unsigned rdim;                    /* reduced; 0 or 1: nothing moves  */
    uint64_t rdims[CLIPT_MAX_DIMS];
    unsigned rperm[CLIPT_MAX_DIMS];
    unsigned num_passes;
    clipt_permute_pass passes[CLIPT_MAX_PASSES];
} clipt_permutation;

/* Checks ndim, dims, perm and elem_size and writes the array's bytes.
 * Errors, in this order: CLIPT_ERROR_NULL_ARGUMENT (dims or perm NULL),
 * CLIPT_ERROR_INVALID_ELEM_SIZE, CLIPT_ERROR_INVALID_NDIM,
 * CLIPT_ERROR_INVALID_PERMUTATION (an axis repeated or out of range),
 * CLIPT_ERROR_INVALID_SHAPE (a dimension of 0), CLIPT_ERROR_SHAPE_OVERFLOW
 * (the product times elem_size does not fit size_t). */
clipt_status clipt_check_permutation(unsigned ndim, const size_t *dims, const unsigned *perm,
                                     size_t elem_size, size_t *bytes);

/* What a pass is estimated to cost, for the choice of passes: D >= min_super
 * moves super-elements in one pass; D == 1 is a batched 2-D transposition,
 * one pass when a B x C matrix has at most tile_elems elements; a small
 * D > 1 adds a pass of tiles first, unless its D elements of elem bytes
 * can be read as one wider element (clipt_permute_widen): then it is the
 * batched 2-D transposition of those.  elem 0: no widening. */
typedef struct clipt_permute_costs {
    uint64_t min_super, tile_elems, elem;
} clipt_permute_costs;

/* The factor by which a pass of elem-byte elements widens its element:
 * D when D > 1 and D * elem is an element size the kernels move (2, 4, 8
 * or 16 bytes), so that each run of D elements moves as one element of
 * D * elem bytes and the pass is a batched B x C transposition of those
 * (which needs the array's start aligned to D * elem bytes); else 1. */
uint64_t clipt_permute_widen(const clipt_permute_pass *pass, uint64_t elem);

/* Fills *out from checked arguments: the reduced permutation and the
 * cheapest list of passes by the costs above (the fewest passes among
 * equal costs), found by a shortest-path search over the orders of the
 * reduced axes (at most 8! of them).  Returns CLIPT_ERROR_OUT_OF_HOST_MEMORY
 * or CLIPT_SUCCESS. */
clipt_status clipt_permutation_plan(unsigned ndim, const size_t *dims, const unsigned *perm,
                                    const clipt_permute_costs *costs, clipt_permutation *out);

/* The cost units of a pass (clipt_permute_costs). */
unsigned clipt_permute_pass_cost(const clipt_permute_pass *pass,
                                 const clipt_permute_costs *costs);

#endif
