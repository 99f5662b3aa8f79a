/*
 * Padding and unpadding in place (TPDS 2016 §6.2.1, Algorithm 4, with a
 * finer synchronisation than the paper's chain of adjacent work-groups).
 *
 * The matrix is `count` logical elements in rows of `width`.  Logical
 * element x (row x / width, column x % width) moves from
 *     src(x) = (x / width) * in_pitch  + x % width
 * to  dst(x) = (x / width) * out_pitch + x % width.
 *   pad_rows:   in_pitch = width (sources contiguous), out_pitch > width:
 *               elements move forward, chunks are processed from the end.
 *   unpad_rows: out_pitch = width (destinations contiguous), in_pitch >
 *               width: elements move backward, chunks from the start.
 * Both kernels take the pitch that is not the width as `pitch`.
 *
 * Work-group d (in processing order) owns chunk d, CHUNK = local size x REGS
 * consecutive logical elements.  It
 *   1. takes a dynamic id d from an atomic counter, so ids follow the order
 *      in which work-groups really start, not the launch order;
 *   2. reads its chunk into local memory and raises flag d ("read");
 *   3. waits for the flags of the chunks whose sources its destination range
 *      overlaps.  Moves go one way, so those chunks come earlier in the
 *      processing order: they took smaller ids, have started, and raise their
 *      flag after their own reads without waiting for anything;
 *   4. writes its chunk.
 * Nothing waits for a work-group that has not started, and a flag never
 * depends on another wait: no deadlock with any number of resident
 * work-groups (one CPU thread included), and no serial chain either.
 *
 * scratch[0] is the dynamic-id counter, scratch[1 + d] chunk d's flag; the
 * host zeroes them before each launch.
 *
 * The chunk is staged in local memory: a store needs its data, so once the
 * barrier after the staging stores is passed every load of the chunk has
 * returned, and only then is the flag raised.  (A barrier alone does not
 * wait for loads still in flight, and OpenCL 1.2 fences only order memory
 * within a work-group: on an H100 that let a later chunk overwrite sources
 * that were still being read.)
 *
 * Build options (defaults make the file compile alone):
 *   ELEM_TYPE    element type moved (clipt_kernel.h)
 *   REGS         elements per work-item: a chunk is local size x REGS, read
 *                into registers and stored into local memory
 *   SMALL_INDEX  1 when count < 2^32
 */
#include "clipt_kernel.h"

#ifndef REGS
#define REGS 8
#endif
#ifndef SMALL_INDEX
#define SMALL_INDEX 0
#endif

/* Where logical element x lives at row pitch `pitch`.  With SMALL_INDEX
 * (count < 2^32) the division by width is a multiply and two shifts with
 * the host's magic numbers (udiv): a 64-bit division per element made the
 * fp32 padding passes compute-bound. */
static inline ulong place(ulong x, ulong width, ulong pitch, uint4 div_width)
{
#if SMALL_INDEX
    const ulong row = udiv((uint)x, div_width);
#else
    const ulong row = x / width;
    (void)div_width;
#endif
    return row * pitch + (x - row * width);
}

/* Takes this work-group's dynamic id (uniform after the barrier). */
static inline uint take_id(__global volatile uint *scratch, __local uint *slot)
{
    if (get_local_id(0) == 0)
        *slot = atomic_inc(&scratch[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return *slot;
}

/* Elements a work-item loads before storing them: all REGS of them up to
 * 16, else 8 at a time.  Each element sits in a 32-bit register of its own
 * whatever its size, so 64 1-byte elements in flight took 134 VGPRs and
 * spilled on GCN, and batches of 16 still ran out of SGPRs on gfx9 (a
 * 64-bit condition mask per element); 8 loads in flight per work-item
 * cover the latency, and up to 16 keeps the code of the H100's 4- to
 * 16-byte padding kernels as it was. */
#define IN_FLIGHT (REGS <= 16 ? REGS : 8)

/* Copies logical elements [x0, end) of the chunk, which live at row pitch
 * `pitch`, into local memory.  IN_FLIGHT reads of a work-item are issued
 * before the first of their stores: a read-then-store loop keeps only one
 * read in flight per work-item (measured on an H100: the same change took
 * the 010! kernel's load phase from 72-82 % to 90-95 % of copy bandwidth).
 * The loops are unrolled so that v[] lives in registers (not unrolled,
 * unpad_rows kept it in private memory on nvptx and GCN). */
CLIPT_ALWAYS_INLINE void stage_chunk(__global const elem_t *base, __global const elem_t *tail,
                        ulong split, __local elem_t *held,
                        ulong x0, ulong end, ulong width, ulong pitch,
                        uint4 div_width)
{
    const ulong lsz = get_local_size(0);
    #pragma unroll 1
    for (uint r0 = 0; r0 < REGS; r0 += IN_FLIGHT) {
        elem_t v[IN_FLIGHT];
        #pragma unroll
        for (uint r = 0; r < IN_FLIGHT; r++) {
            const ulong x = x0 + get_local_id(0) + (r0 + r) * lsz;
            if (r0 + r < REGS && x < end)
                v[r] = *REGION_AT(base, tail, split,
                                  pitch == width ? x : place(x, width, pitch, div_width));
        }
        #pragma unroll
        for (uint r = 0; r < IN_FLIGHT; r++) {
            const ulong x = x0 + get_local_id(0) + (r0 + r) * lsz;
            if (r0 + r < REGS && x < end)
                held[x - x0] = v[r];
        }
    }
}

/* Writes the staged chunk back: logical elements [x0, end) to row pitch
 * `pitch`; more than 16 elements a work-item IN_FLIGHT at a time like the
 * reads (64 unrolled stores of 1-byte elements kept 64 condition masks
 * live: 104 SGPRs and spills on gfx9). */
static inline void store_chunk(__global elem_t *base, __global elem_t *tail, ulong split,
                        __local const elem_t *held,
                        ulong x0, ulong end, ulong width, ulong pitch,
                        uint4 div_width)
{
    const ulong lsz = get_local_size(0);
#if REGS > 16
    #pragma unroll 1
    for (uint r0 = 0; r0 < REGS; r0 += IN_FLIGHT) {
        #pragma unroll
        for (uint r = r0; r < r0 + IN_FLIGHT; r++) {
#else
    {
        for (uint r = 0; r < REGS; r++) {
#endif
            const ulong x = x0 + get_local_id(0) + r * lsz;
            if (r < REGS && x < end)
                *REGION_AT(base, tail, split,
                           pitch == width ? x : place(x, width, pitch, div_width)) = held[x - x0];
        }
    }
}

/* Raises this chunk's flag, then waits for chunks first..last (except d).
 * Called after the chunk was stored into local memory. */
static inline void announce_and_wait(__global volatile uint *scratch, uint d,
                              ulong first, ulong last)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atomic_or(&scratch[1 + d], 1u);
        for (ulong c = first; c <= last; c++)
            if (c != d)
                while (atomic_or(&scratch[1 + c], 0u) == 0u)
                    ;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

__kernel void pad_rows(__global elem_t *buf, ulong offset,
                       __global elem_t *tail, ulong split, ulong count,
                       ulong width, ulong pitch,
                       __global volatile uint *scratch, __local elem_t *held,
                       uint4 div_width)
{
    __local uint slot;
    const ulong lsz = get_local_size(0);
    const ulong chunk = lsz * REGS;
    __global elem_t *base = buf + offset;
    const uint d = take_id(scratch, &slot);
    const ulong end = count - (ulong)d * chunk;
    /* end - chunk, or 0 for the last chunk: written with a signed maximum
     * because LLVM turns the unsigned form into llvm.usub.sat, which
     * Oclgrind 21.10 cannot run */
    const long before_end = (long)end - (long)chunk;
    const ulong x0 = before_end > 0 ? (ulong)before_end : 0;

    stage_chunk(base, tail, split, held, x0, end, width, width, div_width);
    {
        /* sources are the logical positions themselves: memory y < count
         * belongs to chunk (count - 1 - y) / chunk */
        const ulong lo = place(x0, width, pitch, div_width);
        const ulong hi = place(end - 1, width, pitch, div_width);
        const ulong first = hi < count ? (count - 1 - hi) / chunk : 0;
        /* one unconditional call: the barriers inside must not sit in two
         * branches (PoCL 3.1 hangs on that with small work-groups) */
        const int overlap = lo < count;
        announce_and_wait(scratch, d, overlap ? first : 1,
                          overlap ? (count - 1 - lo) / chunk : 0);
    }
    store_chunk(base, tail, split, held, x0, end, width, pitch, div_width);
}

__kernel void unpad_rows(__global elem_t *buf, ulong offset,
                         __global elem_t *tail, ulong split, ulong count,
                         ulong width, ulong pitch,
                         __global volatile uint *scratch, __local elem_t *held,
                         uint4 div_width)
{
    __local uint slot;
    const ulong lsz = get_local_size(0);
    const ulong chunk = lsz * REGS;
    __global elem_t *base = buf + offset;
    const uint d = take_id(scratch, &slot);
    const ulong x0 = (ulong)d * chunk;
    const ulong end = min(count, x0 + chunk);

    stage_chunk(base, tail, split, held, x0, end, width, pitch, div_width);
    {
        /* destinations [x0, end) hold the sources of the logical elements
         * from the first one whose source is at or after x0 */
        const ulong row = x0 / pitch;
        const ulong col = min(x0 - row * pitch, width);
        const ulong first = (row * width + col) / chunk;
        announce_and_wait(scratch, d, first, d);
    }
    store_chunk(base, tail, split, held, x0, end, width, width, div_width);
}

/* The CPU forms (tuning kernel_style=2): one work-item moves every row, in
 * the order that never overwrites a source still to be read: padding from
 * the last row back (each row's elements from its end, where its own
 * destination overlaps its source), unpadding from the first row on.  No
 * flags, no waiting, no inter-group ordering: a CPU thread moves rows at
 * copy speed, which the chunk protocol's barriers and atomics did not.
 * Launched as one work-group of one work-item; scratch and held unused. */
static inline void pad_rows_in_order(__global elem_t *base, __global elem_t *tail,
                                     ulong split, ulong rows, ulong width, ulong pitch)
{
    for (ulong r = rows; r-- > 1;) { /* row 0 stays */
        const ulong from = r * width, to = r * pitch;
        /* the row moves up by `shift`: runs of at most `shift` elements
         * never overlap their own destination, so each is copied forward
         * (a plain copy loop), the runs taken from the row's end */
        const ulong run = min(r * (pitch - width), width); /* the shift */
        for (ulong end = width; end > 0;) {
            const ulong start = end - min(end, run);
            for (ulong c = start; c < end; c++)
                *REGION_AT(base, tail, split, to + c) = *REGION_AT(base, tail, split, from + c);
            end = start;
        }
    }
}

static inline void unpad_rows_in_order(__global elem_t *base, __global elem_t *tail,
                                       ulong split, ulong rows, ulong width, ulong pitch)
{
    for (ulong r = 1; r < rows; r++) {
        const ulong from = r * pitch, to = r * width;
        for (ulong c = 0; c < width; c++) /* destinations below sources */
            *REGION_AT(base, tail, split, to + c) = *REGION_AT(base, tail, split, from + c);
    }
}

/* A CPU form: pad_rows' arguments, `move` run by the one work-item. */
#define MOVE_ROWS_LOOPS(name, move)                                            \
    __kernel void name(__global elem_t *buf, ulong offset,                     \
                       __global elem_t *tail, ulong split, ulong count,        \
                       ulong width, ulong pitch,                               \
                       __global volatile uint *scratch, __local elem_t *held,  \
                       uint4 div_width)                                        \
    {                                                                          \
        (void)scratch; (void)held; (void)div_width;                            \
        if (clipt_global_id() == 0) /* one item is launched; more would race */ \
            move(buf + offset, tail, split, count / width, width, pitch);      \
    }

MOVE_ROWS_LOOPS(pad_rows_loops, pad_rows_in_order)
MOVE_ROWS_LOOPS(unpad_rows_loops, unpad_rows_in_order)
