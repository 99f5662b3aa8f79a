/*
 * 100! and 0100!: shifting super-elements along the cycles of a transposition.
 *
 * The region holds `instances` consecutive a x b row-major matrices whose
 * elements are super-elements of `s` consecutive elements.  Each matrix
 * becomes its b x a transpose; a super-element moves as a whole.  Inside one
 * instance, super-element k (0 <= k < ab) moves to
 *     dest(k) = (k mod b) * a + k / b        (= k*a mod (ab-1), Eq. 1).
 * With instances == 1 this is 100!, with more it is 0100!; with s == 1 and
 * one instance it transposes a whole matrix element by element.
 *
 * Work is shared by workers of WORKER_SIZE work-items (virtual SIMD units);
 * a work-group holds G = local_size / WORKER_SIZE workers.  A worker picks a
 * start position, and carries super-elements along the cycle through it,
 * each step swapping the carried super-element into the next position, until
 * it meets a position whose content someone else already owns.
 *
 * Protocol (one flag bit per super-element in global memory, zeroed before
 * the launch; bit p set = "the original content of position p has been taken
 * by its unique owner"):
 *   start at p:  read p into local memory, THEN claim flag p with atomic_or.
 *                If the flag was already set, drop what was read (someone
 *                else owns it) and pick another start.
 *   step:        n = dest(cur); claim flag n.  Won: read n, write the carried
 *                value into n, carry n's original on.  Lost: write the
 *                carried value into n (its original was read by the owner
 *                before it claimed) and stop.
 * The only writer of position n is the owner of the original of the position
 * that maps to n, so every write happens after the original of n was read.
 * Nobody ever waits for another worker: the kernel is correct whatever order
 * work-groups and work-items are scheduled in, and needs no lock-step.
 *
 * Every barrier is reached by all work-items of the group in every round;
 * workers that have nothing to do in a round skip the work between them.
 *
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE        element type moved (clipt_kernel.h)
 *   WORKER_SIZE      work-items per super-element
 *   MAX_WORKERS      capacity of the per-worker local arrays (>= G)
 *   TRANSPOSE_SUPER  1: each super-element is an sa x sb tile written back
 *                    transposed (1000! fused with 0010!, sequence 4.3)
 */
#include "clipt_kernel.h"

#ifndef WORKER_SIZE
#define WORKER_SIZE 32
#endif
#ifndef MAX_WORKERS
#define MAX_WORKERS 64
#endif
#ifndef TRANSPOSE_SUPER
#define TRANSPOSE_SUPER 0
#endif

#define STATE_NEED_START 0u
#define STATE_CARRY 1u
#define STATE_DONE 2u

__kernel void shift100(__global elem_t *buf, ulong offset,
                       __global elem_t *tail, ulong split, ulong instances,
                       ulong a, ulong b, uint s, uint sa, uint sb,
                       __global volatile uint *flags,
                       __local elem_t *carried, __local elem_t *incoming)
{
    __local ulong cur[MAX_WORKERS];
    __local ulong nxt[MAX_WORKERS];
    __local ulong next_start[MAX_WORKERS];
    __local uint state[MAX_WORKERS];
    __local uint won[MAX_WORKERS];
    __local uint workers_done;
    __local uint lead_lane; /* 0: see IS_LEADER below */
    /* the host counts CLIPT_SHIFT100_WORKER_STATE_BYTES per worker for the
     * five arrays above (host_shared.h): compiling fails if they differ */
    (void)sizeof(char[1 - 2 * (sizeof cur + sizeof nxt + sizeof next_start +
                               sizeof state + sizeof won !=
                               MAX_WORKERS * CLIPT_SHIFT100_WORKER_STATE_BYTES)]);

    const uint lid = (uint)get_local_id(0);
    const uint w = lid / WORKER_SIZE;
    const uint lane = lid - w * WORKER_SIZE;
    /* Whether this work-item is its worker's leader (lane 0), read from
     * local memory at each use so that the compiler cannot unswitch the
     * round loop on this loop-invariant, work-item-divergent condition:
     * that would put the loop's barriers on divergent paths (PoCL 3.1 did
     * exactly this and ran each worker's leader code on every lane).  The
     * barriers in the loop may change lead_lane as far as the compiler
     * knows, so it is reloaded each round; and lead_lane is stored a value
     * the compiler cannot fold (instances >> 63: no region has 2^63
     * instances), else it would replace every load with the only value
     * ever stored.  (A volatile private flag did the same but lived in
     * scratch memory: 8 bytes per lane on GCN.) */
#define IS_LEADER (lane == lead_lane)
    const uint G = (uint)get_local_size(0) / WORKER_SIZE;
    const ulong ab = a * b;
    const ulong total = instances * ab;
    const ulong stride = (ulong)get_num_groups(0) * G;
    __local elem_t *mine = carried + (size_t)w * s;
    __global elem_t *base = buf + offset;
    /* element e of super-element p of the region */
#define SUPER(p, e) (*REGION_AT(base, tail, split, (p) * s + (e)))
    (void)incoming; (void)sa; (void)sb;

    if (lid == 0) {
        workers_done = 0;
        lead_lane = (uint)(instances >> 63);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (IS_LEADER) {
        state[w] = STATE_NEED_START;
        next_start[w] = (ulong)clipt_group_id() * G + w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (;;) {
        /* 1. Idle workers look for a start whose flag is not visibly set.
         *    A stale read only costs a wasted claim below. */
        if (IS_LEADER && state[w] == STATE_NEED_START) {
            ulong p = next_start[w];
            while (p < total && (flags[p >> 5] & flag_bit(p)))
                p += stride;
            if (p >= total) {
                state[w] = STATE_DONE;
                atomic_inc(&workers_done);
            } else {
                cur[w] = p;
                next_start[w] = p + stride;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (workers_done == G)
            break; /* uniform: read by all after the barrier */

        /* 2. Starting workers read their start before claiming it. */
        const uint starting = state[w] == STATE_NEED_START;
        if (starting) {
            const ulong src = cur[w];
            for (uint e = lane; e < s; e += WORKER_SIZE)
                mine[e] = SUPER(src, e);
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

        /* 3. Lane 0 claims the start (if starting) and the next position. */
        if (IS_LEADER) {
            uint st = state[w];
            if (starting) {
                const ulong p = cur[w];
                const uint old = atomic_or(&flags[p >> 5], flag_bit(p));
                st = (old & flag_bit(p)) ? STATE_NEED_START : STATE_CARRY;
#if !TRANSPOSE_SUPER
                /* A fixed point is already in place.  (When super-elements
                 * are transposed, it still needs that: its own claim below
                 * is then "lost" and it is written back transposed.) */
                if (st == STATE_CARRY && destination(p, a, b, ab) == p)
                    st = STATE_NEED_START;
#endif
                state[w] = st;
            }
            if (st == STATE_CARRY) {
                const ulong n = destination(cur[w], a, b, ab);
                const uint old = atomic_or(&flags[n >> 5], flag_bit(n));
                won[w] = (old & flag_bit(n)) == 0;
                nxt[w] = n;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

        /* 4. Carrying workers move one step along their cycle. */
        const uint carrying = state[w] == STATE_CARRY;
        const ulong dst = carrying ? nxt[w] : 0;
#if TRANSPOSE_SUPER
        __local elem_t *in = incoming + (size_t)w * s;
        if (carrying && won[w])
            for (uint e = lane; e < s; e += WORKER_SIZE)
                in[e] = SUPER(dst, e);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (carrying) {
            /* the carried sa x sb tile lands as its sb x sa transpose */
            for (uint e = lane; e < s; e += WORKER_SIZE) {
                const uint j = e / sa;
                const uint i = e - j * sa;
                SUPER(dst, e) = mine[i * sb + j];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (carrying && won[w])
            for (uint e = lane; e < s; e += WORKER_SIZE)
                mine[e] = in[e];
#else
        if (carrying) {
            /* each lane reads and writes the same elements: no barrier
             * needed between the read of n and the write into n */
            if (won[w]) {
                for (uint e = lane; e < s; e += WORKER_SIZE) {
                    const elem_t t = SUPER(dst, e);
                    SUPER(dst, e) = mine[e];
                    mine[e] = t;
                }
            } else {
                for (uint e = lane; e < s; e += WORKER_SIZE)
                    SUPER(dst, e) = mine[e];
            }
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        if (IS_LEADER && carrying) {
            if (won[w])
                cur[w] = nxt[w];
            else
                state[w] = STATE_NEED_START;
        }
    }
}
#undef IS_LEADER
#undef SUPER
