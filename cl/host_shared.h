/*
 * Numbers that the host code and the kernels must agree on.  Plain
 * #defines, valid C and OpenCL C: src/ includes this file through its
 * include path, the kernels through cl/clipt_kernel.h.
 */
#ifndef CLIPT_HOST_SHARED_H
#define CLIPT_HOST_SHARED_H

/* shift100_segments.cl: bit set in a segment's length when the segment is a
 * whole cycle, whose first position's content need not be saved ahead
 * (src/cycles.c sets it). */
#define CLIPT_SEGMENT_WHOLE_CYCLE 0x80000000u

/* shift100.cl: local memory each worker keeps for its bookkeeping (cur,
 * nxt and next_start: 8 bytes each; state and won: 4 bytes each), which the
 * host counts when it sizes work-groups before building the kernel. */
#define CLIPT_SHIFT100_WORKER_STATE_BYTES (3 * 8 + 2 * 4)

/* c2r_columns.h: a walk segment's slot when it saves no row (a whole
 * cycle; src/c2r_walk.c writes it). */
#define CLIPT_C2R_NO_SLOT 0xffffffffu

#endif
