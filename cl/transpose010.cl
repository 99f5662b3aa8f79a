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
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE   the element type moved (clipt_kernel.h).
 *   LOAD_AHEAD  global reads each work-item issues before storing them.
 */
#include "clipt_kernel.h"

#ifndef LOAD_AHEAD
#define LOAD_AHEAD 4
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
