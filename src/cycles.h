/* Cycle structure of the transposition permutation, cut into segments.
 *
 * In an a x b matrix (of super-elements) transposed into b x a, the content
 * of position p = i*b + j moves to j*a + i.  The permutation's cycles come
 * from number theory (cycle_algebra.h: lengths, counts and one leader per
 * cycle, without touching the positions) and are cut into segments of at
 * most seg_len positions, so that the device can move every segment
 * independently (shift100_segments.cl).  Segment k of a cycle with leader x
 * starts at x * a^(k*seg_len) mod (a*b - 1). */
#ifndef CLIPT_CYCLES_H
#define CLIPT_CYCLES_H

#include "clipt.h"
#include "cycle_algebra.h"
#include "host_shared.h" /* CLIPT_SEGMENT_WHOLE_CYCLE, in the kernels' words */

#include <stddef.h>
#include <stdint.h>

/* Cycles the host lists at most for one stage (one leader each, about
 * 10 ns apiece): more means many short cycles, which the flag-based kernel
 * moves instead.  As many as the smallest segment table allows (4 MiB of
 * 16-byte descriptors), so that only stages larger than 440 MB can find
 * their cycles listed no more where the walk cut them. */
#define CLIPT_MAX_CYCLES ((size_t)1 << 18)

/* The moving cycles of a stage, in the order their segments are laid out:
 * by length descending, then by leader ascending (close to the order in
 * which a walk of the positions meets them: long cycles first). */
typedef struct clipt_cycle_list {
    uint64_t a, N;         /* N = a*b - 1                               */
    uint64_t *leader;      /* one position of each cycle                */
    uint64_t *length;      /* its positions                             */
    size_t count;          /* cycles (fixed points left out)            */
    clipt_cycle_structure cs;
} clipt_cycle_list;

/* Lists the cycles of the a x b transposition.  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS
 * when there are more than max_cycles, when a*b >= 2^63, or if the algebra
 * contradicts itself (never expected: the flag-based kernel then moves the
 * stage, which needs no cycle list); CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_cycle_list_find(uint64_t a, uint64_t b, size_t max_cycles,
                                   clipt_cycle_list *out);
void clipt_cycle_list_free(clipt_cycle_list *l);

/* Segments and saved heads that cutting l's cycles into seg_len positions
 * gives (from the classes: no cycle is visited). */
void clipt_cycle_list_count(const clipt_cycle_list *l, uint32_t seg_len, uint64_t *segments,
                            uint64_t *saved);

/* The three arrays lie in one block of count * CLIPT_SEGMENT_BYTES bytes
 * at `start`, as the device's table holds them (start[count], then
 * length[count], then slot[count]: shift100_segments.cl), so that one
 * write moves them; `start` owns the block. */
/* One cycle as the device cuts it (cl/shift100_segments.cl's cut_segments):
 * four cl_ulongs per cycle, in segment order. */
#define CLIPT_CYCLE_RECORD_WORDS 4
#define CLIPT_CYCLE_RECORD_BYTES (CLIPT_CYCLE_RECORD_WORDS * sizeof(cl_ulong))

/* The records of l's cycles cut into seg_len positions: leader, length,
 * its first segment and its first saved-head slot (0 for a cycle of one
 * segment), into *out (malloc'ed, l->count records; the caller frees it),
 * with the totals that clipt_cycle_list_count gives.  What
 * clipt_cycle_list_cut makes from the same list, the device makes from
 * these, one segment per work-item, with clipt_cycle_step's factor.
 * CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_cycle_list_records(const clipt_cycle_list *l, uint32_t seg_len,
                                      cl_ulong **out, size_t *segments, size_t *saved);

/* The factor that moves a position seg_len steps along its cycle:
 * a^seg_len mod (a*b - 1) (0 when no cycle moves). */
uint64_t clipt_cycle_step(const clipt_cycle_list *l, uint32_t seg_len);

typedef struct clipt_segments {
    cl_ulong *start;   /* first position of each segment                  */
    cl_uint *length;   /* positions in the segment, | WHOLE_CYCLE         */
    cl_uint *slot;     /* index of its saved head (cycles of 2+ segments) */
    size_t count;      /* segments                                        */
    size_t saved;      /* segments whose head is saved                    */
} clipt_segments;

/* Bytes of one segment's descriptor in the table (start, length, slot). */
#define CLIPT_SEGMENT_BYTES (sizeof(cl_ulong) + 2 * sizeof(cl_uint))

/* Allocates the block for `count` segments and points the arrays into it
 * (count and saved left 0); 0 when out of memory. */
int clipt_segments_alloc(clipt_segments *s, size_t count);

/* Cuts l's cycles into segments of seg_len positions (the last one of a
 * cycle may be shorter), the segments of a cycle consecutive and in cycle
 * order.  CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS beyond max_segments segments;
 * CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_cycle_list_cut(const clipt_cycle_list *l, uint32_t seg_len,
                                  size_t max_segments, clipt_segments *out);

/* The same segments by walking every position of the permutation (the
 * method before the algebra, O(a*b) with a bitmap): cycles in the order of
 * their smallest position, each from there.  Kept as the tests' oracle and
 * for comparisons (CLIPT_CYCLE_WALK=1 makes plans use it).  Gives up with
 * CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS beyond 2^28 positions or max_segments
 * segments; CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
clipt_status clipt_cycle_segments_walk(uint64_t a, uint64_t b, uint32_t seg_len,
                                       size_t max_segments, clipt_segments *out);

void clipt_segments_free(clipt_segments *s);

/* The destination of position p (the same formula the kernels use). */
static inline uint64_t clipt_transpose_destination(uint64_t p, uint64_t a,
                                                   uint64_t b)
{
    return (p % b) * a + p / b;
}

#endif
