/*
 * Padding and unpadding in place (TPDS 2016 §6.2.1, Algorithm 4).
 *
 * The matrix is a sequence of logical rows of `width` elements.  Logical
 * element x (row x / width, column x % width) moves from
 *     src(x) = (x / width) * in_pitch  + x % width
 * to  dst(x) = (x / width) * out_pitch + x % width.
 * Padding columns: in_pitch = cols, out_pitch = padded cols; every element
 * moves forward (dst >= src), so the work runs from the end of the matrix.
 * Unpadding after the transposition: in_pitch = padded rows, out_pitch =
 * width = rows; elements move backward, so the work runs from the start.
 *
 * Work-group d (in the processing order) owns a chunk of CHUNK = local size
 * x REGS consecutive logical elements.  Its destinations can only overlap
 * the sources of chunks processed before it (or its own), so it:
 *   1. takes a dynamic id d from an atomic counter, in the order the
 *      work-groups actually start (scheduling order is not launch order);
 *   2. reads its chunk into registers;
 *   3. waits until chunk d-1 has announced that chunks 0..d-1 have read
 *      theirs, then announces its own (flag d);
 *   4. writes its chunk to the destinations.
 * A work-group only ever waits for one that took a smaller id, i.e. one that
 * had already started and waits in turn only for smaller ids: there is no
 * cycle, so no deadlock, whatever the number of resident work-groups (with a
 * single CPU thread, chunk d-1 has even finished before d starts).
 *
 * scratch[0] is the dynamic-id counter, scratch[1 + d] chunk d's flag; the
 * host zeroes them before each launch.
 *
 * Build options: ELEM_TYPE, REGS (elements per work-item).
 */
#ifndef ELEM_TYPE
#define ELEM_TYPE uint
#endif
#ifndef REGS
#define REGS 8
#endif

typedef ELEM_TYPE elem_t;

__kernel void move_rows(__global elem_t *buf, ulong offset, ulong count,
                        ulong width, ulong in_pitch, ulong out_pitch,
                        uint descending, __global volatile uint *scratch)
{
    __local uint dynamic_id;
    const uint lid = (uint)get_local_id(0);
    const ulong lsz = get_local_size(0);
    const ulong chunk = lsz * REGS;
    __global elem_t *base = buf + offset;
    elem_t held[REGS];
    ulong x0, end;

    if (lid == 0)
        dynamic_id = atomic_inc(&scratch[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint d = dynamic_id;
    if (descending) {
        end = count - (ulong)d * chunk;
        x0 = end > chunk ? end - chunk : 0;
    } else {
        x0 = (ulong)d * chunk;
        end = min(count, x0 + chunk);
    }

    for (uint r = 0; r < REGS; r++) {
        const ulong x = x0 + lid + r * lsz;
        if (x < end) {
            const ulong row = x / width;
            held[r] = base[row * in_pitch + (x - row * width)];
        }
    }
    /* all reads of this chunk are complete before it is announced */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        if (d > 0)
            while (atomic_or(&scratch[d], 0u) == 0u)
                ; /* chunk d-1 and, through it, all before it have read */
        atomic_or(&scratch[1 + d], 1u);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);

    for (uint r = 0; r < REGS; r++) {
        const ulong x = x0 + lid + r * lsz;
        if (x < end) {
            const ulong row = x / width;
            base[row * out_pitch + (x - row * width)] = held[r];
        }
    }
}
