/*
 * 010! (and its batched form 0010!) by barrier synchronisation (BS).
 *
 * The region holds `instances` consecutive a x b row-major tiles; each becomes
 * the b x a row-major transpose of itself.  A work-group loads a batch of
 * whole tiles into local memory with coalesced reads, waits at a barrier, and
 * writes them back transposed with coalesced writes.  Every element is read
 * once and written once.  The tiles of one batch are consecutive in memory,
 * so several small tiles share one work-group (the "virtual SIMD unit" idea
 * of TPDS 2016 §5.2) without idle work-items.
 *
 * In local memory a tile row occupies `pitch` >= b slots; the host picks an
 * odd pitch when it fits so that the strided reads of the write phase hit
 * different banks.
 *
 * transpose010_loops computes the same with one work-item per work-group
 * (the CPU form, tuning kernel_style=2): it copies its batch into local
 * memory with a plain loop, then writes each tile back transposed in
 * BLOCK x BLOCK blocks that stay in cache.  No barrier, no division per
 * element: on a CPU runtime (PoCL) a work-group of many work-items with
 * barriers costs a context switch per barrier and per item, which made the
 * BS kernel run at 2-3 % of copy bandwidth there.
 *
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE   the element type moved (clipt_kernel.h).
 *   LOAD_AHEAD  global reads each work-item issues before storing them.
 *   BLOCK       side of the cache blocks of transpose010_loops (elements).
 *   WORD        elements per global access of transpose010_bs (1, 2, 4):
 *               with WORD > 1 a batch whose range starts at a multiple of
 *               WORD elements of the buffer (offset included) and holds a
 *               multiple of WORD elements, all of it before a split, is
 *               read and written as WORD_TYPE words of WORD elements (1-
 *               and 2-byte elements: 4-byte words instead of 1- or 2-byte
 *               accesses); any other batch takes the element path.
 *   WORD_TYPE   an unsigned integer type of WORD elements (default: elem_t,
 *               WORD 1).
 */
#include "clipt_kernel.h"

#ifndef LOAD_AHEAD
#define LOAD_AHEAD 4
#endif
#ifndef BLOCK
#define BLOCK 16
#endif
#ifndef WORD
#define WORD 1
#endif
#ifndef WORD_TYPE
#define WORD_TYPE elem_t
#endif

/* Words need the elements' order in a word: little-endian devices only
 * (every GPU clipt targets; OpenCL defines __ENDIAN_LITTLE__ there). */
#if WORD > 1 && defined(__ENDIAN_LITTLE__)
#define WORDS 1
#define ELEM_BITS (8 * (uint)sizeof(elem_t))

/* The batch's `count` elements from `at` (a multiple of WORD, as count),
 * read as words, stored into the tiles: each word's elements go to
 * consecutive positions of a tile row, wrapping to the next row or tile. */
CLIPT_ALWAYS_INLINE void load_words(__global const elem_t *at, uint count, uint a, uint b,
                              uint pitch, __local elem_t *tile, uint4 div_ab, uint4 div_b)
{
    const uint lid = (uint)get_local_id(0), lsz = (uint)get_local_size(0);
    const uint ab = a * b, tile_slots = a * pitch, words = count / WORD;
    __global const WORD_TYPE *src = (__global const WORD_TYPE *)at;
    for (uint w0 = lid; w0 < words; w0 += LOAD_AHEAD * lsz) {
        WORD_TYPE v[LOAD_AHEAD]; /* registers: both loops unrolled */
        #pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++)
            if (w0 + u * lsz < words)
                v[u] = src[w0 + u * lsz];
        #pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++) {
            const uint k = (w0 + u * lsz) * WORD;
            if (k < count) {
                uint t = udiv(k, div_ab);
                const uint r = k - t * ab;
                uint i = udiv(r, div_b);
                uint j = r - i * b;
                for (uint e = 0; e < WORD; e++) {
                    tile[t * tile_slots + i * pitch + j] = (elem_t)(v[u] >> (e * ELEM_BITS));
                    if (++j == b) { /* next row, or the next tile's first */
                        j = 0;
                        if (++i == a) {
                            i = 0;
                            t++;
                        }
                    }
                }
            }
        }
    }
}

/* The transposed tiles written back as words: output position k is
 * element (j, i) of a tile's b x a result, i running fastest. */
static inline void store_words(__global elem_t *at, uint count, uint a, uint b, uint pitch,
                               __local const elem_t *tile, uint4 div_ab, uint4 div_a)
{
    const uint lid = (uint)get_local_id(0), lsz = (uint)get_local_size(0);
    const uint ab = a * b, tile_slots = a * pitch, words = count / WORD;
    __global WORD_TYPE *dst = (__global WORD_TYPE *)at;
    for (uint w = lid; w < words; w += lsz) {
        const uint k = w * WORD;
        uint t = udiv(k, div_ab);
        const uint r = k - t * ab;
        uint j = udiv(r, div_a);
        uint i = r - j * a;
        WORD_TYPE v = 0;
        for (uint e = 0; e < WORD; e++) {
            v |= (WORD_TYPE)tile[t * tile_slots + i * pitch + j] << (e * ELEM_BITS);
            if (++i == a) {
                i = 0;
                if (++j == b) {
                    j = 0;
                    t++;
                }
            }
        }
        dst[w] = v;
    }
}
#else
#define WORDS 0
#endif

/* Divisions by a, b and ab use the host's magic numbers (udiv). */
__kernel void transpose010_bs(__global elem_t *buf, ulong offset,
                              __global elem_t *tail, ulong split,
                              ulong instances, uint a, uint b, uint pitch,
                              uint batch, __local elem_t *tile, uint4 div_ab,
                              uint4 div_a, uint4 div_b)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const uint ab = a * b;
    const uint tile_slots = a * pitch;
    const ulong nbatches = (instances + batch - 1) / batch;

    for (ulong bi = clipt_group_id(); bi < nbatches; bi += get_num_groups(0)) {
        const ulong first = bi * (ulong)batch;
        const uint tiles = (uint)min((ulong)batch, instances - first);
        const uint count = tiles * ab;
        __global elem_t *region = buf + offset;
        const ulong at0 = first * (ulong)ab;

#if WORDS
        /* the same for the whole work-group: no divergence */
        if ((offset + at0) % WORD == 0 && count % WORD == 0
#if SPLIT
            && (long)(at0 + count) <= (long)split /* none of it in the tail */
#endif
        ) {
            load_words(region + at0, count, a, b, pitch, tile, div_ab, div_b);
            barrier(CLK_LOCAL_MEM_FENCE);
            store_words(region + at0, count, a, b, pitch, tile, div_ab, div_a);
            barrier(CLK_LOCAL_MEM_FENCE);
            continue;
        }
#endif
        /* LOAD_AHEAD global reads in flight per work-item before any of
         * them is stored to local memory: a read-then-store loop leaves one
         * read per work-item outstanding, too few to cover the latency */
        for (uint k0 = lid; k0 < count; k0 += LOAD_AHEAD * lsz) {
            elem_t v[LOAD_AHEAD];
            for (uint u = 0; u < LOAD_AHEAD; u++) {
                const uint k = k0 + u * lsz;
                if (k < count)
                    v[u] = *REGION_AT(region, tail, split, at0 + k);
            }
            for (uint u = 0; u < LOAD_AHEAD; u++) {
                const uint k = k0 + u * lsz;
                if (k < count) {
                    const uint t = udiv(k, div_ab);
                    const uint r = k - t * ab;
                    const uint i = udiv(r, div_b);
                    const uint j = r - i * b;
                    tile[t * tile_slots + i * pitch + j] = v[u];
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = lid; k < count; k += lsz) {
            /* output position k is element (j, i) of the b x a result */
            const uint t = udiv(k, div_ab);
            const uint r = k - t * ab;
            const uint j = udiv(r, div_a);
            const uint i = r - j * a;
            *REGION_AT(region, tail, split, at0 + k) = tile[t * tile_slots + i * pitch + j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The tiles of one batch, staged at `tile` (pitch b), written back to
 * their place at0 of the region transposed: block by block, each block's
 * rows written whole. */
static inline void write_tiles_transposed(__global elem_t *region, __global elem_t *tail,
                                          ulong split, ulong at0,
                                          __local const elem_t *tile, uint tiles, uint a,
                                          uint b)
{
    const uint ab = a * b;
    for (uint t = 0; t < tiles; t++) {
        const ulong out = at0 + t * (ulong)ab;
        __local const elem_t *in = tile + t * ab;
        for (uint j0 = 0; j0 < b; j0 += BLOCK) {
            const uint j1 = min(j0 + BLOCK, b);
            for (uint i0 = 0; i0 < a; i0 += BLOCK) {
                const uint i1 = min(i0 + BLOCK, a);
                for (uint j = j0; j < j1; j++)
#if SPLIT
/* not vectorized: vectors of the accessor's choices spilled scalar
 * registers on AMD targets (compile matrix, 1- and 2-byte elements) */
#pragma clang loop vectorize(disable) interleave(disable)
#endif
                    for (uint i = i0; i < i1; i++)
                        *REGION_AT(region, tail, split, out + j * a + i) = in[i * b + j];
            }
        }
    }
}

/* Same arguments as transpose010_bs (the host sets pitch = b); launched
 * with work-groups of one work-item. */
__kernel void transpose010_loops(__global elem_t *buf, ulong offset,
                                 __global elem_t *tail, ulong split,
                                 ulong instances, uint a, uint b, uint pitch,
                                 uint batch, __local elem_t *tile, uint4 div_ab,
                                 uint4 div_a, uint4 div_b)
{
    const uint ab = a * b;
    __global elem_t *region = buf + offset;
    (void)pitch; (void)div_ab; (void)div_a; (void)div_b;
    if (get_local_id(0) != 0)
        return; /* the host launches one item per group; more would race */
    /* batches of `batch` tiles, taken in turn by the work-groups */
    for (ulong first = clipt_group_id() * batch; first < instances;
         first += get_num_groups(0) * batch) {
        const uint tiles = (uint)min((ulong)batch, instances - first);
        const ulong at0 = first * ab;
        for (uint k = 0; k < tiles * ab; k++)
            tile[k] = *REGION_AT(region, tail, split, at0 + k);
        write_tiles_transposed(region, tail, split, at0, tile, tiles, a, b);
    }
}
