/*
 * 100! / 0100! / 1000! by independent slices: the fast form of shift100.cl.
 *
 * Same transposition as shift100.cl: `instances` consecutive a x b matrices
 * of s-element super-elements, each becoming its b x a transpose.  Every
 * super-element is cut into s / Q slices of Q consecutive elements.  Slice w
 * of all super-elements follows the same permutation and never meets another
 * slice, so the stage is s / Q independent transpositions of Q-element
 * super-elements, and one work-item moves one slice at a time, holding it in
 * registers.  Work-items never synchronise: no barriers, no local memory,
 * and a cycle is walked by as many work-items as started on it.
 *
 * Protocol per (position, slice), one flag bit each in global memory, zeroed
 * before the launch; set = "the original of this slice at this position has
 * been taken by its unique owner":
 *   start:  skip if the flag is visibly set; read the slice, THEN claim it
 *           (atomic_or); drop it if someone claimed first.
 *   step:   claim the slice at the next position.  Won: read it, write the
 *           carried slice there, carry the original on.  Lost: its original
 *           was read before it was claimed, so write the carried slice there
 *           and stop.
 * Each slice position is written once, by the owner of the original that
 * belongs there, after its own original was read: correct in any schedule,
 * with no waiting (see docs/design.md).
 *
 * Flags are slice-major (flag of slice w at position p is w * positions + p)
 * so that the work-items moving the slices of one super-element do not all
 * hit the same flag word.
 *
 * Ordering: OpenCL 1.2 fences only order memory within a work-group, and
 * on a GPU a claim issued after a load may become visible to other compute
 * units before that load has returned.  So the claim's address is made to
 * depend on the loaded values through `zero` (0 at run time, unknown to the
 * compiler): the hardware cannot issue the claim before the data is in.
 *
 * Build options (defaults make the file compile alone):
 *   ELEM_TYPE  element type moved (clipt_kernel.h); ELEM_WORDS 4 for
 *              16-byte elements
 *   Q          elements per slice (divides s)
 */
#include "clipt_kernel.h"

#ifndef Q
#define Q 1
#endif

/* ELEM_BITS(v): some bits of an element, to make an address depend on a
 * loaded value (see `zero` below).  ELEM_WORDS = 4 for 16-byte elements. */
#ifndef ELEM_WORDS
#define ELEM_WORDS 1
#endif
#if ELEM_WORDS == 4
#define ELEM_BITS(v) ((v).x | (v).y | (v).z | (v).w)
#else
#define ELEM_BITS(v) ((uint)(v))
#endif

__kernel void shift100_slices(__global elem_t *buf, ulong offset,
                              __global elem_t *tail, ulong split,
                              ulong instances, ulong a, ulong b, uint slices,
                              __global volatile uint *flags, uint zero)
{
    const ulong ab = a * b;
    const ulong positions = instances * ab;
    const ulong work = positions * slices;
    const ulong s = (ulong)slices * Q;
    __global elem_t *base = buf + offset;

    for (ulong t = clipt_global_id(); t < work; t += get_global_size(0)) {
        /* consecutive work-items take consecutive slices of a super-element,
         * so their reads and writes are adjacent */
        const ulong p = t / slices;
        const uint w = (uint)(t - p * slices);
        const ulong flag_base = (ulong)w * positions;
        ulong f = flag_base + p;
        if (flags[f >> 5] & flag_bit(f))
            continue; /* already taken: no need to read it */

        elem_t carried[Q];
        uint loaded = 0;
        ulong at = p * s + (ulong)w * Q;
        for (uint e = 0; e < Q; e++) {
            carried[e] = *REGION_AT(base, tail, split, at + e);
            loaded |= ELEM_BITS(carried[e]);
        }
        /* the claim waits for the read (its address depends on the data) */
        if (atomic_or(&flags[(f >> 5) + (loaded & zero)], flag_bit(f)) & flag_bit(f))
            continue;

        ulong cur = p;
        for (;;) {
            const ulong next = destination(cur, a, b, ab);
            if (next == cur)
                break; /* a fixed point is already in place */
            at = next * s + (ulong)w * Q;
            f = flag_base + next;
            if (atomic_or(&flags[f >> 5], flag_bit(f)) & flag_bit(f)) {
                for (uint e = 0; e < Q; e++)
                    *REGION_AT(base, tail, split, at + e) = carried[e];
                break;
            }
            for (uint e = 0; e < Q; e++) {
                const elem_t original = *REGION_AT(base, tail, split, at + e);
                *REGION_AT(base, tail, split, at + e) = carried[e];
                carried[e] = original;
            }
            cur = next;
        }
    }
}
