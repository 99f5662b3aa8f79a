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
 *   SMALL_INDEX  1 when count < 2^32 (the word kernels: the region's
 *                elements)
 *   WORDS_REGS   the word kernels: destination words per work-item (a
 *                chunk is local size x WORDS_REGS words)
 *   ELEM_SHIFT   the word kernels: log2 of the element's bytes
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

/* Element i of a chunk's region: plain indexing where the whole chunk lies
 * before the split (`whole`, a constant in each inlined copy: the kernels
 * branch on it around the calls), else the split accessor (REGION_AT):
 * room-less plans' chunks all lie before it but the last few, and the
 * accessor's compare on every element made their padding stages 12-17 %
 * slower than with room (H100, fp32). */
#define CHUNK_AT(whole, i) ((whole) ? base + (i) : REGION_AT(base, tail, split, i))

/* Whether a chunk whose highest element is at region index `hi` lies
 * wholly before the split (always, without SPLIT). */
static inline int chunk_whole(ulong split, ulong hi)
{
#if SPLIT
    return (long)hi < (long)split;
#else
    (void)split; (void)hi;
    return 1;
#endif
}

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
                        uint4 div_width, int whole)
{
    (void)tail; (void)split;
    const ulong lsz = get_local_size(0);
    #pragma unroll 1
    for (uint r0 = 0; r0 < REGS; r0 += IN_FLIGHT) {
        elem_t v[IN_FLIGHT];
        #pragma unroll
        for (uint r = 0; r < IN_FLIGHT; r++) {
            const ulong x = x0 + get_local_id(0) + (r0 + r) * lsz;
            if (r0 + r < REGS && x < end)
                v[r] = *CHUNK_AT(whole, pitch == width ? x : place(x, width, pitch, div_width));
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
                        uint4 div_width, int whole)
{
    (void)tail; (void)split;
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
                *CHUNK_AT(whole, pitch == width ? x : place(x, width, pitch, div_width)) =
                    held[x - x0];
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

    /* the chunk's highest index: its last destination */
    const int whole = end > x0 && chunk_whole(split, place(end - 1, width, pitch, div_width));
    if (whole) /* two inlined copies, whole constant in each */
        stage_chunk(base, tail, split, held, x0, end, width, width, div_width, 1);
    else
        stage_chunk(base, tail, split, held, x0, end, width, width, div_width, 0);
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
    if (whole) /* two inlined copies, whole constant in each */
        store_chunk(base, tail, split, held, x0, end, width, pitch, div_width, 1);
    else
        store_chunk(base, tail, split, held, x0, end, width, pitch, div_width, 0);
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

    /* the chunk's highest index: its last source */
    const int whole = end > x0 && chunk_whole(split, place(end - 1, width, pitch, div_width));
    if (whole) /* two inlined copies, whole constant in each */
        stage_chunk(base, tail, split, held, x0, end, width, pitch, div_width, 1);
    else
        stage_chunk(base, tail, split, held, x0, end, width, pitch, div_width, 0);
    {
        /* destinations [x0, end) hold the sources of the logical elements
         * from the first one whose source is at or after x0 to the last
         * one whose source is before end: one or two chunks, whatever the
         * rows' shift (waiting for every chunk up to d instead took the
         * H100's unpadding from 0.9 to 0.3 of copy as the shift grew) */
        const ulong row = x0 / pitch;
        const ulong col = min(x0 - row * pitch, width);
        const ulong first = (row * width + col) / chunk;
        /* a source before end is at least row's shift past its element
         * (no second division by pitch), and while that stays within this
         * chunk the last is d (no division by chunk either: an extra
         * 64-bit division here made the H100's unpadding 15 % slower) */
        const ulong z_last = end - 1 - row * (pitch - width);
        const ulong last = z_last >= x0 ? (ulong)d : z_last / chunk;
        announce_and_wait(scratch, d, first, last);
    }
    if (whole) /* two inlined copies, whole constant in each */
        store_chunk(base, tail, split, held, x0, end, width, width, div_width, 1);
    else
        store_chunk(base, tail, split, held, x0, end, width, width, div_width, 0);
}

/* ---- Rows moved as 16-byte words (GPUs) ---------------------------------
 *
 * pad_rows_words and unpad_rows_words move the same rows as pad_rows and
 * unpad_rows, for any element size, in 16-byte words.  An element at a
 * time, 1-byte elements cost 16 times the instructions of 16-byte ones for
 * the same bytes (on an H100 the element kernels padded at 2.8 copies'
 * time for 1-byte elements, 1.6 for 4-byte and 1.05 for 16-byte ones).
 *
 * Their arguments are pad_rows' in bytes (offset, count, width, pitch; the
 * host builds them with ELEM_TYPE=uint4 and never with SPLIT).  In the
 * region's bytes, destination byte z takes
 *     padding:    z - row (pitch - width),  row = z / pitch, when
 *                 z % pitch < width (else z is a gap: left as it is);
 *     unpadding:  z + row (pitch - width),  row = z / width.
 * The destination is cut into the words of the buffer's own 16-byte grid
 * (word k: region bytes [16k - lead, 16k - lead + 16), lead = offset % 16),
 * and a chunk of WORDS_REGS x local size of them is one work-group's:
 *   1. it copies the aligned words under its sources, one contiguous
 *      window of the region, into local memory (a plain copy, the loads
 *      in flight together);
 *   2. it raises its flag and waits, as the element kernels' chunks do,
 *      for the chunks whose sources its destination bytes overlap;
 *   3. it writes each destination word: a word inside one row's data is
 *      its source run, 16 bytes from one or two window words shifted into
 *      place; a word at a row's edge, in a gap or at the region's ends is
 *      written byte by byte from the window (a few words a row).
 * The window also holds bytes that are no source of this chunk (up to 15
 * at either end, and the gaps between unpadded rows); other chunks may be
 * writing those, and they are never used.  The host sizes the window's
 * local memory for the widest chunk (stage_pad.c). */

#define WORD_BYTES 16

#ifndef WORDS_REGS
#define WORDS_REGS 4
#endif
/* log2 of the element's bytes: rows start at whole elements, so a byte's
 * row is its element's, divided with the magic numbers of the row's
 * length in elements (32-bit while the region has < 2^32 elements) */
#ifndef ELEM_SHIFT
#define ELEM_SHIFT 0
#endif
/* window words a work-item loads before storing them: the window is a
 * chunk and a few words (stage_pad.c), and one round of loads covers it
 * (a second round for its last words would make the whole work-group wait
 * for another trip to memory); at most 8 (small work-groups take many
 * words each, and a register per loaded word each) */
#define WINDOW_IN_FLIGHT (WORDS_REGS < 8 ? WORDS_REGS + 1 : 8)

/* The row of region byte z in rows of row_bytes bytes. */
static inline ulong row_of_byte(ulong z, ulong row_bytes, uint4 magic)
{
#if SMALL_INDEX
    (void)row_bytes;
    return udiv((uint)(z >> ELEM_SHIFT), magic);
#else
    (void)magic;
    return (z >> ELEM_SHIFT) / (row_bytes >> ELEM_SHIFT);
#endif
}

#ifdef __ENDIAN_LITTLE__
/* The 16 bytes from byte r (0..15) of lo on, lo and hi consecutive
 * little-endian words.  The words are chosen by selects: Oclgrind 21.10
 * ran the same choice written as a switch of swizzles wrongly. */
static inline uint4 shifted_word(uint4 lo, uint4 hi, uint r)
{
    const uint sh = (r & 3u) * 8u, q = r >> 2;
    const uint4 by1 = (uint4)(lo.y, lo.z, lo.w, hi.x);
    const uint4 by2 = (uint4)(lo.z, lo.w, hi.x, hi.y);
    const uint4 by3 = (uint4)(lo.w, hi.x, hi.y, hi.z);
    const uint4 a = q == 0 ? lo : q == 1 ? by1 : q == 2 ? by2 : by3;
    const uint4 b = q == 0 ? by1 : q == 1 ? by2 : q == 2 ? by3 : hi;
    return sh ? (a >> sh) | (b << (32u - sh)) : a;
}
#endif

/* A chunk's sources: region bytes [*from, *to) hold the sources of its
 * destination bytes [lo, hi) (and the gaps between them); *from == *to:
 * none (a chunk of padding gaps only). */
static inline void chunk_sources(ulong lo, ulong hi, int padding, ulong width, ulong pitch,
                                 uint4 magic, ulong *from, ulong *to)
{
    const ulong row_bytes = padding ? pitch : width;
    const ulong gap = pitch - width;
    ulong row, col;
    *from = *to = 0;
    if (lo >= hi)
        return;
    row = row_of_byte(lo, row_bytes, magic);
    col = lo - row * row_bytes;
    if (!padding) {
        *from = lo + row * gap;
        row = row_of_byte(hi - 1, row_bytes, magic);
        *to = hi + row * gap;
        return;
    }
    /* padding: the first data byte at or after lo, the last before hi */
    *from = col < width ? lo - row * gap : (row + 1) * width;
    row = row_of_byte(hi - 1, row_bytes, magic);
    col = hi - 1 - row * row_bytes;
    *to = (col < width ? hi - 1 - row * gap : row * width + width - 1) + 1;
    if (*to < *from)
        *to = *from;
}

/* Copies the window's aligned words [q_first, q_end) into local memory;
 * a last word that reaches past the region (region_end) is copied byte by
 * byte, so that nothing past the caller's buffer is read. */
CLIPT_ALWAYS_INLINE void stage_window(__global const uint4 *words, __global const uchar *bytes,
                                      __local uint4 *window, ulong q_first, ulong q_end,
                                      ulong lead, ulong region_end)
{
    const ulong lsz = get_local_size(0);
    const ulong whole_end = min(q_end, (region_end + lead) / WORD_BYTES);
    #pragma unroll 1
    for (ulong q0 = q_first + get_local_id(0); q0 < whole_end;
         q0 += WINDOW_IN_FLIGHT * lsz) {
        uint4 v[WINDOW_IN_FLIGHT];
        #pragma unroll
        for (uint r = 0; r < WINDOW_IN_FLIGHT; r++)
            if (q0 + r * lsz < whole_end)
                v[r] = words[q0 + r * lsz];
        #pragma unroll
        for (uint r = 0; r < WINDOW_IN_FLIGHT; r++)
            if (q0 + r * lsz < whole_end)
                window[q0 + r * lsz - q_first] = v[r];
    }
    if (whole_end < q_end && get_local_id(0) == 0) {
        /* the region's last, partial word */
        __local uchar *to = (__local uchar *)(window + (whole_end - q_first));
        const ulong z = whole_end * WORD_BYTES - lead;
        for (uint b = 0; b < WORD_BYTES; b++)
            if (z + b < region_end)
                to[b] = bytes[z + b];
    }
}

/* Writes destination word k: whole when it is data of one row (its
 * source run shifted out of the window), else byte by byte. */
CLIPT_ALWAYS_INLINE void store_word(__global uint4 *words, __global uchar *bytes,
                                    __local const uint4 *window, ulong q_first, ulong k,
                                    ulong lead, int padding, ulong width, ulong pitch,
                                    ulong dest_end, uint4 magic)
{
    const ulong row_bytes = padding ? pitch : width;
    const ulong gap = pitch - width;
    const long z0 = (long)(k * WORD_BYTES) - (long)lead;
    const ulong z = z0 < 0 ? 0 : (ulong)z0;
    ulong row = row_of_byte(z, row_bytes, magic), col = z - row * row_bytes;
    if (z0 >= 0 && z + WORD_BYTES <= dest_end && col + WORD_BYTES <= width) {
        const ulong src = (padding ? z - row * gap : z + row * gap) + lead;
        const ulong at = src / WORD_BYTES - q_first;
        const uint r = (uint)(src % WORD_BYTES);
#ifdef __ENDIAN_LITTLE__
        words[k] = shifted_word(window[at], r ? window[at + 1] : window[at], r);
#else /* the shift assumes little-endian words: the 16 bytes one by one */
        __local const uchar *run = (__local const uchar *)(window + at) + r;
        words[k] = as_uint4((uchar16)(run[0], run[1], run[2], run[3], run[4], run[5], run[6],
                                      run[7], run[8], run[9], run[10], run[11], run[12],
                                      run[13], run[14], run[15]));
#endif
        return;
    }
    {
        __local const uchar *from = (__local const uchar *)window;
        const ulong base = q_first * WORD_BYTES - lead; /* region byte of from[0] */
        #pragma unroll 1
        for (uint b = 0; b < WORD_BYTES; b++) {
            const long zb = z0 + (long)b;
            if (zb >= 0 && (ulong)zb < dest_end && col < width)
                bytes[zb] = from[(padding ? (ulong)zb - row * gap : (ulong)zb + row * gap) -
                                 base];
            if (zb >= 0 && ++col == row_bytes) {
                col = 0;
                row++;
            }
        }
    }
}

/* The chunk (of `chunk` words) that holds region byte z. */
static inline ulong chunk_of_byte(ulong z, ulong lead, ulong chunk)
{
    return (z + lead) / WORD_BYTES / chunk;
}

/* The chunks (by dynamic id) that chunk d must wait for: those whose
 * sources lie in its destination bytes [lo, hi).  Padding: the sources
 * there are data bytes y < count, read by the chunks of their destinations
 * y + (y / width)(pitch - width), at or after its own.  Unpadding: the
 * destinations from the first whose source is at or after lo (the first
 * byte of source row lo / pitch at or after lo) to, at most, the last
 * whose source is before hi, at or before its own.  *first > *last:
 * none. */
static inline void chunk_waits(uint d, ulong chunks, ulong chunk, ulong lo, ulong hi,
                               ulong lead, ulong count, ulong width, ulong pitch, int padding,
                               ulong *first, ulong *last)
{
    *first = 1;
    *last = 0;
    if (padding && lo < min(hi, count)) {
        const ulong y_last = min(hi, count) - 1;
        const ulong j_first = chunk_of_byte(lo + lo / width * (pitch - width), lead, chunk);
        const ulong j_last = chunk_of_byte(y_last + y_last / width * (pitch - width), lead,
                                           chunk);
        *first = chunks - 1 - j_last;
        *last = chunks - 1 - j_first;
    } else if (!padding && lo < hi) {
        const ulong row = lo / pitch, col = min(lo - row * pitch, width);
        const ulong z = row * width + col;
        /* the sources before hi belong to destinations before hi less
         * the shift of row lo / pitch (or of a later row); d while that
         * stays in this chunk (no second division, as in unpad_rows) */
        const ulong z_last = hi - 1 - row * (pitch - width);
        if (z < count && z <= z_last) {
            *first = chunk_of_byte(z, lead, chunk);
            *last = z_last >= lo ? d : chunk_of_byte(z_last, lead, chunk);
        }
    }
}

/* Both word kernels: `padding` selects the direction.  Chunks in address
 * order j = 0 .. chunks - 1 are processed from the end for padding (moves
 * forward), from the start for unpadding: chunk j by the work-group with
 * dynamic id d. */
CLIPT_ALWAYS_INLINE void move_rows_words(__global elem_t *buf, ulong offset, ulong count,
                                         ulong width, ulong pitch,
                                         __global volatile uint *scratch,
                                         __local elem_t *held, __local uint *slot,
                                         uint4 magic, int padding)
{
    const ulong lead = offset % WORD_BYTES;
    __global uchar *bytes = (__global uchar *)buf + offset;
    __global uint4 *words = (__global uint4 *)(bytes - lead);
    __local uint4 *window = (__local uint4 *)held;
    const ulong lsz = get_local_size(0);
    const ulong rows = width ? count / width : 0;
    /* the destination's bytes, and the larger layout's */
    const ulong dest_end = padding && rows ? (rows - 1) * pitch + width : count;
    const ulong region_end = rows ? (rows - 1) * pitch + width : 0;
    const ulong all_words = (dest_end + lead + WORD_BYTES - 1) / WORD_BYTES;
    const ulong chunk = lsz * WORDS_REGS;
    const ulong chunks = (all_words + chunk - 1) / chunk;
    const uint d = take_id(scratch, slot);
    /* the launch covers the most chunks any lead gives: the rest idle */
    const int live = d < chunks;
    const ulong j = live ? (padding ? chunks - 1 - d : d) : 0;
    const ulong k0 = j * chunk;
    const ulong kend = live ? min(k0 + chunk, all_words) : k0;
    /* this chunk's destination bytes [lo, hi), sources [from, to) */
    /* max(16 k0 - lead, 0) written signed: LLVM turns the unsigned form
     * into llvm.usub.sat, which Oclgrind 21.10 cannot run */
    const long lo_signed = (long)(k0 * WORD_BYTES) - (long)lead;
    const ulong lo = lo_signed > 0 ? (ulong)lo_signed : 0;
    const ulong hi = live ? min(kend * WORD_BYTES - lead, dest_end) : lo;
    ulong from, to, first = 1, last = 0;
    chunk_sources(lo, hi, padding, width, pitch, magic, &from, &to);
    {
        const ulong q_first = (from + lead) / WORD_BYTES;
        const ulong q_end = from < to ? (to - 1 + lead) / WORD_BYTES + 1 : q_first;
        stage_window(words, bytes, window, q_first, q_end, lead, region_end);
        /* only the first work-item waits: it alone computes what for */
        if (get_local_id(0) == 0)
            chunk_waits(d, chunks, chunk, lo, hi, lead, count, width, pitch, padding, &first,
                        &last);
        /* one unconditional call (the barriers inside: see pad_rows) */
        announce_and_wait(scratch, d, first, last);
        for (ulong k = k0 + get_local_id(0); k < kend; k += lsz)
            store_word(words, bytes, window, q_first, k, lead, padding, width, pitch, dest_end,
                       magic);
    }
}

/* pad_rows' signature, which every kernel of this file has. */
#define MOVE_ROWS_KERNEL(name)                                                 \
    __kernel void name(__global elem_t *buf, ulong offset,                     \
                       __global elem_t *tail, ulong split, ulong count,        \
                       ulong width, ulong pitch,                               \
                       __global volatile uint *scratch, __local elem_t *held,  \
                       uint4 div_width)

/* A word kernel: its arguments in bytes, `padding` its direction. */
#define MOVE_ROWS_WORDS(name, padding)                                         \
    MOVE_ROWS_KERNEL(name)                                                     \
    {                                                                          \
        __local uint slot;                                                     \
        (void)tail; (void)split;                                               \
        move_rows_words(buf, offset, count, width, pitch, scratch, held, &slot, \
                        div_width, padding);                                   \
    }

MOVE_ROWS_WORDS(pad_rows_words, 1)
MOVE_ROWS_WORDS(unpad_rows_words, 0)

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
    MOVE_ROWS_KERNEL(name)                                                     \
    {                                                                          \
        (void)scratch; (void)held; (void)div_width;                            \
        if (clipt_global_id() == 0) /* one item is launched; more would race */ \
            move(buf + offset, tail, split, count / width, width, pitch);      \
    }

MOVE_ROWS_LOOPS(pad_rows_loops, pad_rows_in_order)
MOVE_ROWS_LOOPS(unpad_rows_loops, unpad_rows_in_order)
