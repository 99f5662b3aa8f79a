/*
 * The walk of one work-item's segment in walk_segments
 * (shift100_segments.cl), included there once per accessor: MATRIX(k) is
 * element k of the work-item's slice of its instance, plain indexing or
 * the split accessor (room-less padding).  A body included twice rather
 * than a function called with a constant: with such a function, NVIDIA's
 * OpenCL ran the walks of plans with room at half speed (H200, fp64).
 *
 * Uses the kernel's seg_length, seg_start, g, inst, a, d, s, slices, w,
 * saved, saved_per_instance (SAVED_AT) and UNROLL, Q; no include guard.
 */
{
    elem_t carried[Q];
    const uint len = seg_length[g];
    ulong pos = seg_start[g];
    if (len & CLIPT_SEGMENT_WHOLE_CYCLE) {
        #pragma unroll
        for (uint e = 0; e < Q; e++)
            carried[e] = MATRIX(pos * s + e * slices);
    } else {
        __global const elem_t *head = SAVED_AT(inst, g);
        #pragma unroll
        for (uint e = 0; e < Q; e++)
            carried[e] = head[e * slices];
    }
    uint left = len & ~CLIPT_SEGMENT_WHOLE_CYCLE; /* moves still to make */
    while (left > 0) {
        /* read up to UNROLL positions ahead, then shift the carried
         * slice through them; the last move of a segment only writes.
         * The loops are unrolled so that at[] and ahead[] live in
         * registers (nvptx kept them in local memory with UNROLL 8) */
        const uint n = left < UNROLL ? left : UNROLL;
        ulong at[UNROLL];
        elem_t ahead[UNROLL][Q];
        #pragma unroll
        for (uint u = 0; u < UNROLL; u++) {
            if (u < n) {
                pos = walk_destination(pos, a, d);
                at[u] = pos * s;
                if (u + 1 < left) {
                    #pragma unroll
                    for (uint e = 0; e < Q; e++)
                        ahead[u][e] = MATRIX(at[u] + e * slices);
                }
            }
        }
        #pragma unroll
        for (uint u = 0; u < UNROLL; u++) {
            if (u < n) {
                #pragma unroll
                for (uint e = 0; e < Q; e++)
                    MATRIX(at[u] + e * slices) = carried[e];
                if (u + 1 < left) {
                    #pragma unroll
                    for (uint e = 0; e < Q; e++)
                        carried[e] = ahead[u][e];
                }
            }
        }
        left -= n;
    }
}
