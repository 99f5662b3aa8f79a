/*
 * 010! / 0010! by PTTWAC: for tiles too large for local memory.
 *
 * The region holds `instances` consecutive a x b row-major tiles in global
 * memory; each becomes its b x a transpose.  One work-group handles one tile
 * at a time.  Work-items follow the cycles of the tile's permutation
 *     dest(k) = (k mod b) * a + k / b
 * element by element, coordinating through one flag bit per element kept in
 * local memory (set = "the original of this position has been taken by its
 * unique owner").  The protocol is the one of shift100.cl at the scale of
 * single elements: a starter reads its element before claiming it, a carrier
 * claims the next position before reading it and writes into it whether or
 * not the claim was won.  No work-item ever waits for another.
 *
 * Flag layout (Sung et al., PPoPP 2014, §5.1): with spreading factor R each
 * element owns R bit positions, so only 32/R flags share a word (fewer
 * atomic collisions between neighbouring work-items); with padding P, P
 * unused words follow every 32 words (different banks for power-of-two
 * strides).
 *
 * Build options (defaults make the file compile alone):
 *   ELEM_TYPE  element type moved (clipt_kernel.h)
 *   SPREAD     spreading factor R (1, 2, 4, 8, 16, 32)
 *   FLAG_PAD   padding words P per 32 flag words
 */
#include "clipt_kernel.h"

#ifndef SPREAD
#define SPREAD 1
#endif
#ifndef FLAG_PAD
#define FLAG_PAD 0
#endif

/* Position k's flag: a bit of word spread_word(k) of local memory. */
static inline uint spread_word(uint k)
{
    const uint word = (uint)(((ulong)k * SPREAD) >> 5);
    return word + (word >> 5) * FLAG_PAD;
}

static inline uint spread_mask(uint k)
{
    return 1u << (uint)(((ulong)k * SPREAD) & 31);
}

/* Claims position k; returns non-zero if it was already claimed. */
static inline uint claim(__local volatile uint *flags, uint k)
{
    return atomic_or(&flags[spread_word(k)], spread_mask(k)) & spread_mask(k);
}

__kernel void pttwac010(__global elem_t *buf, ulong offset,
                        __global elem_t *tail, ulong split, ulong instances,
                        uint a, uint b, uint flag_words,
                        __local volatile uint *flags)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const uint ab = a * b;

    for (ulong t = clipt_group_id(); t < instances; t += get_num_groups(0)) {
        __global elem_t *region = buf + offset;
        const ulong at0 = t * (ulong)ab;
#define TILE(k) (*REGION_AT(region, tail, split, at0 + (k)))
        for (uint w = lid; w < flag_words; w += lsz)
            flags[w] = 0;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

        for (uint k = lid; k < ab; k += lsz) {
            elem_t carried = TILE(k);
            /* the read must be complete before the claim can be seen */
            mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            if (claim(flags, k))
                continue;
            uint cur = k;
            for (;;) {
                const uint next = tile_destination(cur, a, b);
                if (next == cur)
                    break; /* a fixed point is already in place */
                if (claim(flags, next)) {
                    TILE(next) = carried;
                    break;
                }
                const elem_t original = TILE(next);
                TILE(next) = carried;
                carried = original;
                cur = next;
            }
        }
        /* every write of this tile is done before its flags are reused */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#undef TILE
    }
}
