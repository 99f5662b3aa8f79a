/* Cycle structure of the transposition permutation, cut into segments.
 *
 * In an a x b matrix (of super-elements) transposed into b x a, the content
 * of position p = i*b + j moves to j*a + i.  The permutation's cycles are
 * walked once on the host (at plan creation) and cut into segments of at
 * most seg_len positions, so that the device can move every segment
 * independently (shift100_segments.cl). */
#ifndef CLIPT_CYCLES_H
#define CLIPT_CYCLES_H

#include "clipt.h"
#include "host_shared.h" /* CLIPT_SEGMENT_WHOLE_CYCLE, in the kernels' words */

#include <stddef.h>
#include <stdint.h>

typedef struct clipt_segments {
    cl_ulong *start;   /* first position of each segment                  */
    cl_uint *length;   /* positions in the segment, | WHOLE_CYCLE         */
    cl_uint *slot;     /* index of its saved head (cycles of 2+ segments) */
    size_t count;      /* segments                                        */
    size_t saved;      /* segments whose head is saved                    */
} clipt_segments;

/* Walks every cycle of the a x b transposition (fixed points skipped) and
 * cuts it into segments of seg_len positions (the last one of a cycle may
 * be shorter).  Gives up with CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS when a*b is
 * too large to walk or there would be more than max_segments segments
 * (many short cycles); CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_cycle_segments(uint64_t a, uint64_t b, uint32_t seg_len,
                                  size_t max_segments, clipt_segments *out);

void clipt_segments_free(clipt_segments *s);

/* The destination of position p (the same formula the kernels use). */
static inline uint64_t clipt_transpose_destination(uint64_t p, uint64_t a,
                                                   uint64_t b)
{
    return (p % b) * a + p / b;
}

#endif
