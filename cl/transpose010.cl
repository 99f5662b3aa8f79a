/*
 * 010! (and its batched form 0010!) by barrier synchronisation (BS).
 *
 * The region holds `instances` consecutive a x b row-major tiles; each becomes
 * the b x a row-major transpose of itself.  A work-group loads a batch of
 * whole tiles into local memory with coalesced reads, waits at a barrier, and
 * writes them back transposed with coalesced writes.  Every element is read
 * once and written once.  The tiles of one batch are consecutive in memory,
 * so several small tiles share one work-group (the "virtual SIMD unit" idea
 * of TPDS 2016 §5.2) without idle work-items.
 *
 * In local memory a tile row occupies `pitch` >= b slots; the host picks an
 * odd pitch when it fits so that the strided reads of the write phase hit
 * different banks.
 *
 * transpose010_loops computes the same with one work-item per work-group
 * (the CPU form, tuning kernel_style=2): it copies its batch into local
 * memory with a plain loop, then writes each tile back transposed in
 * BLOCK x BLOCK blocks that stay in cache.  No barrier, no division per
 * element: on a CPU runtime (PoCL) a work-group of many work-items with
 * barriers costs a context switch per barrier and per item, which made the
 * BS kernel run at 2-3 % of copy bandwidth there.
 *
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE   the element type moved (clipt_kernel.h).
 *   LOAD_AHEAD  global reads each work-item issues before storing them.
 *   BLOCK       side of the cache blocks of transpose010_loops (elements).
 *   PACK        elements per word in global memory (1; 4 or 8 for 1-byte
 *               elements, 8 / elem for 2- and 4-byte ones): transpose010_bs
 *               then reads and writes the body of each batch as words of
 *               PACK elements and moves the few elements before the first
 *               aligned word and after the last one alone.  The kernel
 *               issues instructions at its limit: a narrow element's load
 *               or store moves fewer bytes per instruction, and every
 *               element costs two divisions for its position, where a word
 *               costs them once and steps to the next element with
 *               carries (fp32 tile stages at 0.72-0.75 of copy as single
 *               elements, 0.87-0.92 as 8-byte words; fp64's, the same
 *               instructions for twice the bytes, at 0.91).  A work-item
 *               that reads PACK consecutive results from the tile strides
 *               PACK rows: with 4-byte words and an odd pitch an odd
 *               number of banks, no conflict; with 8-byte words two
 *               lanes meet in a bank, which costs less than the
 *               instructions saved, except for 1-byte elements on output
 *               rows shorter than 32 (tiles of 17 or 25 x 128: 0.7-0.8x;
 *               the host gives those 4-byte words).  A word that lies in
 *               one row moves without stepping positions (a load or store
 *               at slot + x, or slot + x pitch, per element).  Needs
 *               little-endian words
 *               (__ENDIAN_LITTLE__, every GPU).  With SPLIT=1 the batches
 *               that reach past the split move element by element.
 *   WORD_TYPE   the word's type: uint (default) or ulong.
 *   QUAD        1-byte elements, a >= 32 and a and b multiples of 4 (the
 *               host's choice; with PACK): whole batches at an offset
 *               that is a multiple of 4 bytes move as 4-byte words in
 *               local memory too, tile rows at pitch b with their words
 *               rotated, and each work-item transposes 4 x 4 bytes in
 *               registers (quad_load, quad_store).
 */
#include "clipt_kernel.h"

#ifndef LOAD_AHEAD
#define LOAD_AHEAD 4
#endif
#ifndef BLOCK
#define BLOCK 16
#endif
#ifndef PACK
#define PACK 1
#endif
#ifndef WORD_TYPE
#define WORD_TYPE uint
#endif
#ifndef QUAD
#define QUAD 0
#endif
#if PACK > 1 && defined(__ENDIAN_LITTLE__)
#define PACKED 1
typedef WORD_TYPE word_t;
#else
#define PACKED 0
#endif
#if !PACKED
#undef QUAD
#define QUAD 0
#endif

/* Position k of a batch of consecutive tiles laid out row-major with n
 * columns: tile t, row r, column c.  The input has n = b (row i, column
 * j); the output, each tile's b x a transpose, n = a (row j, column i). */
typedef struct tile_pos {
    uint t, r, c;
} tile_pos;

static inline tile_pos position(uint k, uint ab, uint n, uint4 div_ab, uint4 div_n)
{
    tile_pos q;
    q.t = udiv(k, div_ab);
    const uint rest = k - q.t * ab;
    q.r = udiv(rest, div_n);
    q.c = rest - q.r * n;
    return q;
}

#if PACKED
/* Positions [0, count) of a batch at region + at0: the first `head` and the
 * last (count - head) % PACK move alone, the rest as words of PACK. */
static inline uint packed_head(ulong offset, ulong at0, uint count)
{
    return min((uint)((PACK - ((offset + at0) & (PACK - 1))) & (PACK - 1)), count);
}

/* The PACK elements of one input word into the tile, the first at tile
 * slot `slot`, column c of its row.  The slot steps on by one, and by the
 * row's padding (pitch - b) past a row's end, which also crosses into the
 * next tile (tile_slots = a x pitch): recomputing t x tile_slots + r x
 * pitch + c for every element took twice the instructions. */
CLIPT_ALWAYS_INLINE void store_word(__local elem_t *tile, uint slot, uint c, uint pitch,
                                    uint b, word_t v)
{
    if (c + PACK <= b) { /* the word lies in one tile row */
#pragma unroll
        for (uint x = 0; x < PACK; x++)
            tile[slot + x] = (elem_t)(v >> (x * 8 * sizeof(elem_t)));
        return;
    }
#pragma unroll
    for (uint x = 0; x < PACK; x++) {
        tile[slot] = (elem_t)(v >> (x * 8 * sizeof(elem_t)));
        const int wraps = ++c == b;
        c = wraps ? 0 : c;
        slot += wraps ? pitch - b + 1 : 1;
    }
}

/* The k-th position moved alone: the head's, then the tail's. */
static inline uint edge_position(uint e, uint head, uint body_end)
{
    return e < head ? e : body_end + (e - head);
}
#endif

/* Element i of a batch's region: plain indexing where the whole batch lies
 * before the split (`whole`: a constant in each inlined copy, the kernel
 * branching on it around the calls), else the split accessor (REGION_AT).
 * Room-less plans' batches all lie before it but the last few; the
 * accessor's compare on every element made their tile stages 16 % slower
 * than the same stage with room (H100, fp32). */
#define BATCH_AT(whole, i) ((whole) ? region + (i) : REGION_AT(region, tail, split, i))

/* The batch's `count` elements at at0 into its tiles in local memory: the
 * input has rows of b.  LOAD_AHEAD global reads in flight per work-item
 * before any of them is stored to local memory: a read-then-store loop
 * leaves one read per work-item outstanding, too few to cover the
 * latency. */
CLIPT_ALWAYS_INLINE void load_batch(__global elem_t *region, __global elem_t *tail, ulong split,
                                    ulong at0, uint count, uint ab, uint b, uint pitch,
                                    uint tile_slots, __local elem_t *tile, uint4 div_ab,
                                    uint4 div_b, uint lid, uint lsz, int whole)
{
    (void)tail; (void)split;
    for (uint k0 = lid; k0 < count; k0 += LOAD_AHEAD * lsz) {
        elem_t v[LOAD_AHEAD];
        for (uint u = 0; u < LOAD_AHEAD; u++) {
            const uint k = k0 + u * lsz;
            if (k < count)
                v[u] = *BATCH_AT(whole, at0 + k);
        }
        for (uint u = 0; u < LOAD_AHEAD; u++) {
            const uint k = k0 + u * lsz;
            if (k < count) {
                const tile_pos q = position(k, ab, b, div_ab, div_b);
                tile[q.t * tile_slots + q.r * pitch + q.c] = v[u];
            }
        }
    }
}

/* The batch's tiles from local memory back to at0, transposed: output
 * position k is element (j, i) of a b x a result. */
CLIPT_ALWAYS_INLINE void store_batch(__global elem_t *region, __global elem_t *tail, ulong split,
                                     ulong at0, uint count, uint ab, uint a, uint pitch,
                                     uint tile_slots, __local const elem_t *tile, uint4 div_ab,
                                     uint4 div_a, uint lid, uint lsz, int whole)
{
    (void)tail; (void)split;
    for (uint k = lid; k < count; k += lsz) {
        const tile_pos q = position(k, ab, a, div_ab, div_a);
        *BATCH_AT(whole, at0 + k) = tile[q.t * tile_slots + q.c * pitch + q.r];
    }
}

#if PACKED
/* load_batch for a batch that lies before the split, its body as words of
 * PACK elements (body: the first aligned word, at position head). */
CLIPT_ALWAYS_INLINE void packed_load(__global const elem_t *at, uint count, uint head,
                                     uint words, uint ab, uint a, uint b, uint pitch,
                                     uint tile_slots, __local elem_t *tile, uint4 div_ab,
                                     uint4 div_b, uint lid, uint lsz)
{
    const uint body_end = head + words * PACK;
    __global const word_t *body = (__global const word_t *)(at + head);
    for (uint e = lid; e < count - words * PACK; e += lsz) {
        const uint k = edge_position(e, head, body_end);
        const tile_pos q = position(k, ab, b, div_ab, div_b);
        tile[q.t * tile_slots + q.r * pitch + q.c] = at[k];
    }
    for (uint w0 = lid; w0 < words; w0 += LOAD_AHEAD * lsz) {
        /* fully unrolled, so that v stays in registers (nvptx kept it
         * in local memory for PACK = 4 otherwise: compile matrix) */
        word_t v[LOAD_AHEAD];
#pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++)
            v[u] = w0 + u * lsz < words ? body[w0 + u * lsz] : 0;
#pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++)
            if (w0 + u * lsz < words) {
                const tile_pos q =
                    position(head + (w0 + u * lsz) * PACK, ab, b, div_ab, div_b);
                store_word(tile, q.t * tile_slots + q.r * pitch + q.c, q.c, pitch, b, v[u]);
            }
    }
}

/* store_batch for the same batch, in words of PACK elements. */
CLIPT_ALWAYS_INLINE void packed_store(__global elem_t *at, uint count, uint head, uint words,
                                      uint ab, uint a, uint b, uint pitch, uint tile_slots,
                                      __local const elem_t *tile, uint4 div_ab, uint4 div_a,
                                      uint lid, uint lsz)
{
    const uint body_end = head + words * PACK;
    __global word_t *body = (__global word_t *)(at + head);
    for (uint e = lid; e < count - words * PACK; e += lsz) {
        const uint k = edge_position(e, head, body_end);
        const tile_pos q = position(k, ab, a, div_ab, div_a);
        at[k] = tile[q.t * tile_slots + q.c * pitch + q.r];
    }
    for (uint w = lid; w < words; w += lsz) {
        /* output (t, j, i) is tile slot t x tile_slots + i x pitch + j:
         * the slot steps by pitch; past the output row's end (i = a) back
         * to the next column (1 - tile_slots), past the tile's last column
         * (j = b) on to the next tile (tile_slots - b) */
        const tile_pos q = position(head + w * PACK, ab, a, div_ab, div_a);
        uint slot = q.t * tile_slots + q.c * pitch + q.r, i = q.c, j = q.r;
        word_t v = 0;
        if (i + PACK <= a) { /* the word lies in one output row */
#pragma unroll
            for (uint x = 0; x < PACK; x++)
                v |= (word_t)tile[slot + x * pitch] << (x * 8 * sizeof(elem_t));
            body[w] = v;
            continue;
        }
#pragma unroll
        for (uint x = 0; x < PACK; x++) {
            v |= (word_t)tile[slot] << (x * 8 * sizeof(elem_t));
            const int row_ends = ++i == a;
            const int tile_ends = row_ends && ++j == b;
            i = row_ends ? 0 : i;
            j = tile_ends ? 0 : j;
            slot += tile_ends ? pitch + 1 - b : row_ends ? pitch + 1 - tile_slots : pitch;
        }
        body[w] = v;
    }
}
#endif

#if QUAD
/* ---- 1-byte tiles in 4 x 4 byte quads (QUAD) ------------------------------
 *
 * Bytes moved one at a time through local memory cost a local load or
 * store each, and the 8-byte words' column reads met two lanes in a bank:
 * general 1-byte 0010! stages ran at 0.67 of copy where 4-byte ones ran at
 * 0.87 (H200).  Here the tiles sit in local memory as 4-byte words (tile
 * t, row r, word column J: word t a (b / 4) + r (b / 4) + rot(J, r)), and
 * a work-item moves quad (t, J, I): rows 4I..4I+3 of word column J, read
 * as four words, transposed in registers into the four output words of
 * output rows 4J..4J+3 at column 4I.  A warp's lanes take consecutive I,
 * so they read rows 4I + y: rotating row r's words by (r / 4) mod `spread`
 * (the largest power of two up to 32 and b / 4) puts them in different
 * banks; the load phase's lanes store consecutive words of one row, in
 * different banks whatever the rotation.  On an H200 the general 1-byte
 * 0010! stages went from 1.42 to 1.01 copies' time. */

/* The local buffer's first 4-byte word (the host gives it 3 bytes more):
 * the buffer is a __local uchar argument, which an implementation may
 * place at any byte (NVIDIA's did: 4-byte accesses at the buffer's start
 * faulted on an H200). */
static inline __local uint *quad_words(__local elem_t *tile)
{
    return (__local uint *)(tile + ((4u - (uint)((size_t)tile & 3u)) & 3u));
}

/* Word column J of row r, rotated within the row's `words`. */
static inline uint quad_column(uint J, uint r, uint words, uint spread)
{
    const uint j = J + ((r >> 2) & (spread - 1));
    return j >= words ? j - words : j;
}

/* The batch's words into the tiles, rows rotated: 8 bytes a load where
 * rows are whole 8-byte words (`pairs`, a constant in each inlined copy:
 * the kernel branches on it around the calls), else 4. */
CLIPT_ALWAYS_INLINE void quad_load(__global const uint *body, uint count, uint ab, uint b,
                                   __local uint *tile, uint4 div_ab, uint4 div_b, uint spread,
                                   int pairs, uint lid, uint lsz)
{
    const uint row_words = b / 4, tile_words = ab / 4;
    const uint step = pairs ? 8 : 4; /* bytes a load */
    const uint loads = count / step;
    for (uint w0 = lid; w0 < loads; w0 += LOAD_AHEAD * lsz) {
        ulong v[LOAD_AHEAD];
#pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++) {
            const uint w = w0 + u * lsz;
            v[u] = w >= loads ? 0 : pairs ? ((__global const ulong *)body)[w] : body[w];
        }
#pragma unroll
        for (uint u = 0; u < LOAD_AHEAD; u++)
            if (w0 + u * lsz < loads) {
                const tile_pos q = position(step * (w0 + u * lsz), ab, b, div_ab, div_b);
                const uint row = q.t * tile_words + q.r * row_words;
                tile[row + quad_column(q.c / 4, q.r, row_words, spread)] = (uint)v[u];
                if (pairs)
                    tile[row + quad_column(q.c / 4 + 1, q.r, row_words, spread)] =
                        (uint)(v[u] >> 32);
            }
    }
}

/* The 4 x 4 bytes of rows w[0..3] transposed: word x of the result holds
 * byte x of each (little-endian). */
static inline uint4 quad_transpose(uint w0, uint w1, uint w2, uint w3)
{
    const uint t0 = (w0 & 0x00ff00ffu) | ((w1 << 8) & 0xff00ff00u);
    const uint t1 = ((w0 >> 8) & 0x00ff00ffu) | (w1 & 0xff00ff00u);
    const uint t2 = (w2 & 0x00ff00ffu) | ((w3 << 8) & 0xff00ff00u);
    const uint t3 = ((w2 >> 8) & 0x00ff00ffu) | (w3 & 0xff00ff00u);
    return (uint4)((t0 & 0xffffu) | (t2 << 16), (t1 & 0xffffu) | (t3 << 16),
                   (t0 >> 16) | (t2 & 0xffff0000u), (t1 >> 16) | (t3 & 0xffff0000u));
}

/* The tiles back to the batch, transposed, a quad per work-item and step:
 * quad m = t (ab / 16) + J (a / 4) + I writes output rows 4J..4J+3 of tile
 * t from byte 4I on; 4 m = t ab / 4 + a J + 4 I, so t = 16 m / ab and J
 * and 4I are the quotient and the remainder of 4 m - t ab / 4 by a. */
CLIPT_ALWAYS_INLINE void quad_store(__global uint *body, uint count, uint ab, uint a, uint b,
                                    __local const uint *tile, uint4 div_ab, uint4 div_a,
                                    uint spread, uint lid, uint lsz)
{
    const uint quads = count / 16, row_words = b / 4, tile_words = ab / 4;
    for (uint m = lid; m < quads; m += lsz) {
        const uint t = udiv(16 * m, div_ab);
        const uint rest = 4 * m - t * tile_words; /* a J + 4 I */
        const uint J = udiv(rest, div_a), I4 = rest - J * a;
        /* rows 4I..4I+3 share the rotation */
        const uint at = t * tile_words + I4 * row_words + quad_column(J, I4, row_words, spread);
        const uint4 o = quad_transpose(tile[at], tile[at + row_words], tile[at + 2 * row_words],
                                       tile[at + 3 * row_words]);
        const uint out = t * tile_words + J * a + I4 / 4; /* output row 4J, word I */
        body[out] = o.x;
        body[out + a / 4] = o.y;
        body[out + a / 2] = o.z;
        body[out + 3 * (a / 4)] = o.w;
    }
}
#endif

/* Divisions by a, b and ab use the host's magic numbers (udiv). */
__kernel void transpose010_bs(__global elem_t *buf, ulong offset,
                              __global elem_t *tail, ulong split,
                              ulong instances, uint a, uint b, uint pitch,
                              uint batch, __local elem_t *tile, uint4 div_ab,
                              uint4 div_a, uint4 div_b)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const uint ab = a * b;
    const uint tile_slots = a * pitch;
    const ulong nbatches = (instances + batch - 1) / batch;

    for (ulong bi = clipt_group_id(); bi < nbatches; bi += get_num_groups(0)) {
        const ulong first = bi * (ulong)batch;
        const uint tiles = (uint)min((ulong)batch, instances - first);
        const uint count = tiles * ab;
        __global elem_t *region = buf + offset;
        const ulong at0 = first * (ulong)ab;
#if SPLIT
        const int whole = (long)(at0 + count) <= (long)split;
#else
        const int whole = 1;
#endif

#if PACKED
        /* packed where the batch lies before the split (every batch without
         * SPLIT), element by element past it */
        const uint head = packed_head(offset, at0, count);
        const uint words = (count - head) / PACK;
#if QUAD
        /* tiles of a multiple of 16 bytes: aligned where the region is */
        const int quads = whole && ((offset + at0) & 3) == 0;
        const uint spread = min(32u, 1u << (31 - clz(b / 4)));
        if (quads && ((offset + at0) & 7) == 0 && b % 8 == 0)
            quad_load((__global const uint *)(region + at0), count, ab, b, quad_words(tile),
                      div_ab, div_b, spread, 1, lid, lsz);
        else if (quads)
            quad_load((__global const uint *)(region + at0), count, ab, b, quad_words(tile),
                      div_ab, div_b, spread, 0, lid, lsz);
        else
#endif
        if (whole)
            packed_load(region + at0, count, head, words, ab, a, b, pitch, tile_slots, tile,
                        div_ab, div_b, lid, lsz);
        else
            load_batch(region, tail, split, at0, count, ab, b, pitch, tile_slots, tile, div_ab,
                       div_b, lid, lsz, 0);
#if QUAD
        /* a quad's item writes words that other items read: their reads
         * ordered before the writes (the element paths write what the
         * same item read) */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (quads)
            quad_store((__global uint *)(region + at0), count, ab, a, b, quad_words(tile),
                       div_ab, div_a, spread, lid, lsz);
        else
#else
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        if (whole)
            packed_store(region + at0, count, head, words, ab, a, b, pitch, tile_slots, tile,
                         div_ab, div_a, lid, lsz);
        else
            store_batch(region, tail, split, at0, count, ab, a, pitch, tile_slots, tile, div_ab,
                        div_a, lid, lsz, 0);
#else
        if (whole) /* two inlined copies, whole constant in each */
            load_batch(region, tail, split, at0, count, ab, b, pitch, tile_slots, tile, div_ab,
                       div_b, lid, lsz, 1);
        else
            load_batch(region, tail, split, at0, count, ab, b, pitch, tile_slots, tile, div_ab,
                       div_b, lid, lsz, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (whole) /* two inlined copies, whole constant in each */
            store_batch(region, tail, split, at0, count, ab, a, pitch, tile_slots, tile, div_ab,
                       div_a, lid, lsz, 1);
        else
            store_batch(region, tail, split, at0, count, ab, a, pitch, tile_slots, tile, div_ab,
                       div_a, lid, lsz, 0);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The tiles of one batch, staged at `tile` (pitch b), written back to
 * their place at0 of the region transposed: block by block, each block's
 * rows written whole. */
static inline void write_tiles_transposed(__global elem_t *region, __global elem_t *tail,
                                          ulong split, ulong at0,
                                          __local const elem_t *tile, uint tiles, uint a,
                                          uint b)
{
    const uint ab = a * b;
    for (uint t = 0; t < tiles; t++) {
        const ulong out = at0 + t * (ulong)ab;
        __local const elem_t *in = tile + t * ab;
        for (uint j0 = 0; j0 < b; j0 += BLOCK) {
            const uint j1 = min(j0 + BLOCK, b);
            for (uint i0 = 0; i0 < a; i0 += BLOCK) {
                const uint i1 = min(i0 + BLOCK, a);
                for (uint j = j0; j < j1; j++)
#if SPLIT
/* not vectorized: vectors of the accessor's choices spilled scalar
 * registers on AMD targets (compile matrix, 1- and 2-byte elements) */
#pragma clang loop vectorize(disable) interleave(disable)
#endif
                    for (uint i = i0; i < i1; i++)
                        *REGION_AT(region, tail, split, out + j * a + i) = in[i * b + j];
            }
        }
    }
}

/* Same arguments as transpose010_bs (the host sets pitch = b); launched
 * with work-groups of one work-item. */
__kernel void transpose010_loops(__global elem_t *buf, ulong offset,
                                 __global elem_t *tail, ulong split,
                                 ulong instances, uint a, uint b, uint pitch,
                                 uint batch, __local elem_t *tile, uint4 div_ab,
                                 uint4 div_a, uint4 div_b)
{
    const uint ab = a * b;
    __global elem_t *region = buf + offset;
    (void)pitch; (void)div_ab; (void)div_a; (void)div_b;
    if (get_local_id(0) != 0)
        return; /* the host launches one item per group; more would race */
    /* batches of `batch` tiles, taken in turn by the work-groups */
    for (ulong first = clipt_group_id() * batch; first < instances;
         first += get_num_groups(0) * batch) {
        const uint tiles = (uint)min((ulong)batch, instances - first);
        const ulong at0 = first * ab;
        for (uint k = 0; k < tiles * ab; k++)
            tile[k] = *REGION_AT(region, tail, split, at0 + k);
        write_tiles_transposed(region, tail, split, at0, tile, tiles, a, b);
    }
}
