/*
 * 100! / 0100! / 1000! along precomputed cycle segments: the fast form.
 *
 * Same transposition as shift100.cl: `instances` consecutive a x b matrices
 * of s-element super-elements, each becoming its b x a transpose.  The host
 * listed the permutation's cycles (by number theory, src/cycle_algebra.c)
 * and cut them into segments (src/cycles.c): segment g starts at position
 * seg_start[g] and covers seg_length[g] consecutive cycle positions.  The
 * three arrays come as one table (seg_start, then seg_length, then
 * seg_slot, `segments` entries each), which the host writes at once.
 * Within a segment, the content
 * of each position moves to the next one; the last moves to the first
 * position of the next segment of its cycle.
 *
 * Two launches:
 *   save_segment_heads: copies the first super-element of every segment
 *                       (every instance) into `saved`;
 *   walk_segments:      each work-item carries one saved slice along its
 *                       segment: it swaps the carried slice into positions
 *                       2..length and writes the last carried slice into the
 *                       next segment's first position, whose original is in
 *                       `saved` already.
 * Every position is read and written by one work-item only, after the
 * launch boundary that follows the saving: no flags, no atomics, no waiting,
 * and every work-item does the same amount of work.  Positions along a
 * segment are known before the data is, so each work-item reads UNROLL steps
 * ahead before writing them.
 *
 * Slices: the elements of a super-element are dealt to W = s / Q work-items
 * (work-item w takes elements w, w + W, ..., w + (Q-1) W); every slice
 * follows the same cycles independently, so one work-item moves one slice,
 * and the W work-items of a super-element read and write it together, in
 * contiguous runs of W elements.
 *
 * Indices: when a * b < 2^32 (SMALL_INDEX), division by b is a multiply and
 * two shifts with the magic numbers the host passes (Granlund-Montgomery),
 * instead of a 64-bit division per step.
 *
 * Build options (defaults make the file compile alone):
 *   ELEM_TYPE    element type moved (clipt_kernel.h)
 *   Q            elements per work-item (divides s)
 *   UNROLL       steps read ahead
 *   SMALL_INDEX  1 when a * b < 2^32
 */
#include "clipt_kernel.h"

#ifndef Q
#define Q 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef SMALL_INDEX
#define SMALL_INDEX 0
#endif

/* Divisor b with its magic numbers (udiv_magic). */
typedef struct divisor {
    ulong b;
    uint magic, sh1, sh2;
} divisor;

/* Where the content of position p of an a x b matrix moves. */
static inline ulong walk_destination(ulong p, ulong a, divisor d)
{
#if SMALL_INDEX
    const uint n = (uint)p;
    const uint i = udiv_magic(n, d.magic, d.sh1, d.sh2);
    return (ulong)(n - i * (uint)d.b) * a + i;
#else
    const ulong i = p / d.b;
    return (p - i * d.b) * a + i;
#endif
}

/* Work-item t -> (instance, segment, slice); slices fastest so that the
 * work-items of one super-element touch adjacent memory. */
#define DECOMPOSE(t)                                                         \
    const ulong unit = (t) / slices;                                         \
    const uint w = (uint)((t) - unit * slices);                              \
    const ulong inst = unit / segments;                                      \
    const ulong g = unit - inst * segments

/* The table's three arrays (see the top). */
#define SEGMENT_ARRAYS                                                         \
    __global const ulong *seg_start = seg_table;                               \
    __global const uint *seg_length = (__global const uint *)(seg_table + segments); \
    __global const uint *seg_slot = seg_length + segments

/* Where the saved head of segment g of instance inst lives. */
#define SAVED_AT(inst, g) (saved + ((inst) * saved_per_instance + seg_slot[g]) * s + w)

__kernel void save_segment_heads(__global const elem_t *buf, ulong offset,
                                 __global const elem_t *tail, ulong split,
                                 ulong instances, ulong a, ulong b, uint magic,
                                 uint sh1, uint sh2, uint slices,
                                 __global const ulong *seg_table, ulong segments,
                                 ulong saved_per_instance, __global elem_t *saved)
{
    SEGMENT_ARRAYS;
    const ulong s = (ulong)slices * Q;
    const ulong work = instances * segments * slices;
    for (ulong t = clipt_global_id(); t < work; t += get_global_size(0)) {
        DECOMPOSE(t);
        if (seg_length[g] & CLIPT_SEGMENT_WHOLE_CYCLE)
            continue; /* its walker reads the head itself */
        __global const elem_t *region = buf + offset;
        const ulong from = (inst * a * b + seg_start[g]) * s + w;
        __global elem_t *to = SAVED_AT(inst, g);
        (void)magic; (void)sh1; (void)sh2;
        for (uint e = 0; e < Q; e++)
            to[e * slices] = *REGION_AT(region, tail, split, from + e * slices);
    }
}

__kernel void walk_segments(__global elem_t *buf, ulong offset,
                            __global elem_t *tail, ulong split,
                            ulong instances, ulong a, ulong b, uint magic,
                            uint sh1, uint sh2, uint slices,
                            __global const ulong *seg_table, ulong segments,
                            ulong saved_per_instance, __global const elem_t *saved)
{
    SEGMENT_ARRAYS;
    const ulong s = (ulong)slices * Q;
    const ulong work = instances * segments * slices;
    for (ulong t = clipt_global_id(); t < work; t += get_global_size(0)) {
        DECOMPOSE(t);
        __global elem_t *region = buf + offset;
        /* element k of this instance's slice w */
        const ulong matrix = inst * a * b * s + w;
        const divisor d = {b, magic, sh1, sh2};
#if SPLIT
        /* Only an instance that reaches past the split takes the split
         * accessor; the others (all of a room-less plan's but the last
         * few) fall through to plain indexing: the accessor's compare on
         * every move made the moves of such stages up to 1.57x slower
         * (H200, fp64). */
        if ((long)((inst + 1) * a * b * s) > (long)split) {
#define MATRIX(k) (*REGION_AT(region, tail, split, matrix + (k)))
#include "walk_segment.h"
#undef MATRIX
            continue;
        }
#endif
#define MATRIX(k) region[matrix + (k)]
#include "walk_segment.h"
#undef MATRIX
    }
}

/* The CPU forms (tuning kernel_style=2; the host passes slices = s and
 * launches work-groups of one work-item): one work-item per segment moves
 * whole super-elements with plain loops over their s contiguous elements.
 * The segment's saved head (or, for a whole cycle, its first position) is
 * the carrier: each move swaps the carrier with the next position, so the
 * carrier then holds that position's original; the last move of a segment
 * only writes (a whole cycle closes on its carrier: nothing to write).  No
 * private array sized at build time, no interleaved slices: each step is
 * one contiguous run that a CPU moves as a memcpy. */
/* A CPU form's signature: that of the GPU pair, the region `qual`
 * (const for the saving kernel), `saved` writable (the walk swaps with
 * it). */
#define SEGMENTS_LOOPS_KERNEL(name, qual)                                      \
    __kernel void name(__global qual elem_t *buf, ulong offset,                \
                       __global qual elem_t *tail, ulong split,                \
                       ulong instances, ulong a, ulong b, uint magic,          \
                       uint sh1, uint sh2, uint slices,                        \
                       __global const ulong *seg_table, ulong segments,      \
                       ulong saved_per_instance, __global elem_t *saved)

SEGMENTS_LOOPS_KERNEL(save_segment_heads_loops, const)
{
    SEGMENT_ARRAYS;
    const ulong s = slices;
    const ulong work = instances * segments;
    __global const elem_t *region = buf + offset;
    (void)magic; (void)sh1; (void)sh2;
    for (ulong unit = clipt_global_id(); unit < work; unit += get_global_size(0)) {
        const ulong inst = unit / segments, g = unit - inst * segments;
        if (seg_length[g] & CLIPT_SEGMENT_WHOLE_CYCLE)
            continue; /* its walker uses the head in place */
        const ulong from = (inst * a * b + seg_start[g]) * s;
        __global elem_t *to = saved + (inst * saved_per_instance + seg_slot[g]) * s;
        for (ulong e = 0; e < s; e++)
            to[e] = *REGION_AT(region, tail, split, from + e);
    }
}

/* The moves of one segment with the carrier's element e at CARRIER(e);
 * `closes`: the last move lands on the carrier itself (a whole cycle). */
#define WALK_RUNS(CARRIER, closes)                                             \
    for (; left > 1; left--) {                                                 \
        pos = walk_destination(pos, a, d);                                     \
        for (ulong e = 0; e < s; e++) {                                        \
            const elem_t t = MATRIX(pos * s + e);                              \
            MATRIX(pos * s + e) = CARRIER(e);                                  \
            CARRIER(e) = t;                                                    \
        }                                                                      \
    }                                                                          \
    if (left == 1 && !(closes)) {                                              \
        const ulong last = walk_destination(pos, a, d) * s;                    \
        for (ulong e = 0; e < s; e++)                                          \
            MATRIX(last + e) = CARRIER(e);                                     \
    }

SEGMENTS_LOOPS_KERNEL(walk_segments_loops, )
{
    SEGMENT_ARRAYS;
    const ulong s = slices;
    const ulong work = instances * segments;
    const divisor d = {b, magic, sh1, sh2};
    __global elem_t *region = buf + offset;
    for (ulong unit = clipt_global_id(); unit < work; unit += get_global_size(0)) {
        const ulong inst = unit / segments, g = unit - inst * segments;
        const ulong matrix = inst * a * b * s; /* the instance's first element */
#define MATRIX(k) (*REGION_AT(region, tail, split, matrix + (k)))
        const uint len = seg_length[g];
        uint left = len & ~CLIPT_SEGMENT_WHOLE_CYCLE; /* moves still to make */
        ulong pos = seg_start[g];
        if (len & CLIPT_SEGMENT_WHOLE_CYCLE) {
            const ulong head = pos * s;
#define CARRIER(e) MATRIX(head + (e))
            WALK_RUNS(CARRIER, walk_destination(pos, a, d) == seg_start[g])
#undef CARRIER
        } else {
            __global elem_t *head = saved + (inst * saved_per_instance + seg_slot[g]) * s;
#define CARRIER(e) head[e]
            WALK_RUNS(CARRIER, 0)
#undef CARRIER
        }
#undef MATRIX
    }
}
#undef WALK_RUNS
#undef SEGMENTS_LOOPS_KERNEL

/* ---- cutting the cycles into segments, on the device ---------------------
 *
 * The host lists one leader per cycle (by number theory) and nothing per
 * segment: the records it writes (`cycle`) hold four ulongs per cycle in
 * segment order: leader, length, its first segment, its first saved-head
 * slot.  Segment k of a
 * cycle starts at leader * leap^k mod n_mod, leap = a^seg_len mod (a*b - 1)
 * (src/cycles.h); one work-item per segment finds its cycle by bisection
 * and writes its start, length and slot, as src/cycles.c's
 * clipt_cycle_list_cut does on the host (the tests compare the two). */

/* x * y mod n for x, y < n < 2^63: one product below 2^32, else doubling
 * (no 128-bit products in OpenCL C; stages of 2^32 positions and more). */
static inline ulong cut_mulmod(ulong x, ulong y, ulong n)
{
    if (n <= 0xffffffffUL)
        return x * y % n;
    ulong r = 0;
    for (; y; y >>= 1) {
        if (y & 1) {
            r += x;
            r = r >= n ? r - n : r;
        }
        x += x;
        x = x >= n ? x - n : x;
    }
    return r;
}

__kernel void cut_segments(__global ulong *seg_table, __global const ulong *cycle,
                           ulong segments, ulong cycles, ulong n_mod, ulong leap,
                           uint seg_len)
{
    __global ulong *start = seg_table;
    __global uint *length = (__global uint *)(seg_table + segments);
    __global uint *slot = length + segments;
    for (ulong g = clipt_global_id(); g < segments; g += get_global_size(0)) {
        ulong lo = 0, hi = cycles - 1; /* the last cycle whose first segment <= g */
        while (lo < hi) {
            const ulong mid = (lo + hi + 1) / 2;
            if (cycle[4 * mid + 2] <= g)
                lo = mid;
            else
                hi = mid - 1;
        }
        const ulong k = g - cycle[4 * lo + 2], len = cycle[4 * lo + 1];
        ulong p = cycle[4 * lo], base = leap;
        for (ulong e = k; e; e >>= 1) { /* p = leader * leap^k */
            if (e & 1)
                p = cut_mulmod(p, base, n_mod);
            base = cut_mulmod(base, base, n_mod);
        }
        start[g] = p;
        if (len <= seg_len) {
            length[g] = (uint)len | CLIPT_SEGMENT_WHOLE_CYCLE;
            slot[g] = 0;
        } else {
            const ulong left = len - k * seg_len;
            length[g] = (uint)(left < seg_len ? left : seg_len);
            slot[g] = (uint)(cycle[4 * lo + 3] + k);
        }
    }
}
