/*
 * The C2R decomposition of Catanzaro, Keller and Garland (PPoPP 2014):
 * the row-major M x N matrix becomes its N x M transpose by permutations
 * that each stay inside one row or one column of the M x N view.  With
 * c = gcd(M, N), a = M / c, b = N / c:
 *
 *   1. column rotation (only when c > 1): column j is rotated up by
 *      floor(j / b), gathering R[i][j] = A[(i + floor(j / b)) mod M][j];
 *   2. row shuffle: every row is permuted on its own, gathering
 *      B[i][k] = R[i][src_i(k)] (the inverse of the paper's scatter
 *      d'_i, derived in docs/design.md);
 *   3. column shuffle: every column is permuted on its own, gathering
 *      C[i][j] = B[(j + i*N - floor(i / a)) mod M][j].
 *
 * Every pass is a gather: a work-group copies one unit (a row, or a block
 * of `width` consecutive columns: whole rows of `width` elements, so that
 * its reads and writes are contiguous runs, consecutive work-items on
 * consecutive columns) into a temporary, waits at a barrier, and writes
 * the unit back in its new order.  The temporary is local memory when the
 * unit fits (kernels *_local); else (kernels *_global) its first
 * `in_local` elements are in local memory and the rest in the work-group's
 * own slot of the plan's scratch buffer.  Work-groups take units
 * round-robin; `instances` matrices lie back to back.
 *
 * Each work-item moves C2R_BATCH elements per step: it issues all their
 * loads before the first store, so that a work-item keeps C2R_BATCH loads
 * in flight (a load and a store to a possibly aliasing __global pointer
 * would otherwise wait for each other, one round trip to memory per
 * element).
 *
 * The column rotation, whose shifts are below g = gcd(rows, cols), streams
 * instead (c2r_rotate_stream): a work-group walks a strip of `width`
 * columns down the rows, step by step, each step loading its outputs'
 * sources (rows further down: not yet written) before a barrier and
 * storing after it; the strip's first g - 1 rows, which the last rows
 * read, are kept in local memory from the start.  One read and one write
 * of the matrix, no scratch.
 *
 * In the scratch slot a column shuffle's block is kept skewed: slot row r,
 * column jj holds block row (r + jj) mod rows.  The shuffle's source rows
 * for output row i are (base(i) + jj) mod rows, a diagonal of the block;
 * skewed, they are one contiguous slot row, so the gather from the slot
 * reads whole sectors instead of one element of `width` sectors (the
 * diagonal moves to the reads from the matrix, whose sectors the
 * work-group reads again for the next rows, from the caches).
 *
 * R2C, the inverse decomposition, undoes these passes in reverse order on
 * the cols x rows view of a rows x cols matrix (its transpose is what C2R
 * of that view would take apart): the column unshuffle gathers with the
 * inverse of step 3's index (a row permutation after a rotation, both
 * inverted), the row unshuffle with step 2's scatter index as its gather
 * (and the gather index as its scatter where part of the row is in
 * registers), the unrotation rotates down by floor(j / b) (the streamed
 * rotation of the rows counted from the bottom).  So its column passes run
 * along the matrix's rows: short for a tall matrix, as C2R's are for a
 * wide one.
 *
 * A column shuffle whose column blocks local memory cannot hold takes two
 * passes instead, a reflection of the columns and a walk of the rows
 * (c2r_columns.h, included at the end), before the scratch form.
 *
 * No flags, no atomics, no waiting for other work-groups: correct in any
 * schedule.  Each unit is read once and written once (the global variants
 * also write and read their scratch slot once).
 *
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE   the element type moved (clipt_kernel.h);
 *   C2R_BATCH   elements a work-item loads before it stores (1..16);
 *   C2R_INVERSE 1 for R2C's passes, 0 for C2R's;
 *   C2R_PACK    elements per 32-bit word (1, or 4 bytes / element for 1-
 *               and 2-byte elements): c2r_rows_local then reads and writes
 *               each row's body as 32-bit words (the few elements before
 *               its first aligned word and after its last move alone);
 *               needs little-endian words (__ENDIAN_LITTLE__, every GPU);
 *   C2R_WALK    rows of a cycle segment at most (c2r_columns.h, with
 *               the split column pass's other options).
 */
#include "clipt_kernel.h"

#ifndef C2R_BATCH
#define C2R_BATCH 8
#endif
#ifndef C2R_INVERSE
#define C2R_INVERSE 0
#endif
#ifndef C2R_PACK
#define C2R_PACK 1
#endif
#if C2R_PACK > 1 && defined(__ENDIAN_LITTLE__)
#define C2R_PACKED 1
#else
#define C2R_PACKED 0
#endif

/* What the column kernels do (argument `kind`): the rotation or the
 * shuffle, of C2R, or with C2R_INVERSE their inverses, R2C's.  The
 * direction is a build option, not an argument: with both directions'
 * index functions in one kernel the C2R kernels ran 2-25 % slower on an
 * H100 (more registers), so a plan builds the direction it runs. */
#define C2R_ROTATE 0u
#define C2R_SHUFFLE 1u

/* x mod m for x < 2m. */
static inline uint c2r_wrap(uint x, uint m)
{
    return x >= m ? x - m : x;
}

/* x mod d (d.w) with d's magic numbers. */
static inline uint c2r_mod(uint x, uint4 d)
{
    return x - udiv(x, d) * d.w;
}

/* The divisors the kernels divide by, with their magic numbers (udiv):
 * g = gcd(rows, cols), b = cols / g, rows, a = rows / g, and the width of a
 * column block. */
typedef struct c2r_divisors {
    uint4 g, b, rows, a, width;
} c2r_divisors;

/* Row shuffle, gather form: the column of row i that lands in column k
 * (i_mod_g = i mod g).  The scatter is k = ((i + l) mod M + j*M) mod N with
 * l = floor(j / b), j = l*b + h; as g divides N and M*h = g*(a*h), k mod g
 * is (i + l) mod g and floor(k / g) is (floor(u / g) + a*h) mod b with
 * u = (i + l) mod M.  So l comes from k mod g, and h from floor(k / g)
 * with the inverse a_inv of a modulo b. */
static inline uint c2r_row_source(uint i, uint i_mod_g, uint k, const c2r_divisors *d,
                                  uint a_inv)
{
    const uint g = d->g.w, b = d->b.w;
    const uint k1 = udiv(k, d->g);
    const uint l = c2r_wrap(k - k1 * g + g - i_mod_g, g);
    const uint u1 = c2r_mod(udiv(c2r_wrap(i + l, d->rows.w), d->g), d->b);
    const uint diff = c2r_wrap(k1 + b - u1, b);
    /* diff * a_inv < b^2: 32 bits when b < 2^16 */
    const uint h = b < 65536u ? c2r_mod(diff * a_inv, d->b)
                              : (uint)(((ulong)diff * a_inv) % b);
    return l * b + h;
}

/* Row shuffle, scatter form: the column that element j of row i goes to,
 * ((i + l) mod M + j*M) mod N with l = floor(j / b) (rows_mod_cols =
 * M mod N; div_cols divides by N). */
static inline uint c2r_row_destination(uint i, uint j, const c2r_divisors *d,
                                       uint rows_mod_cols, uint4 div_cols)
{
    const uint cols = div_cols.w;
    const uint u = c2r_wrap(i + udiv(j, d->b), d->rows.w);
    /* j * rows_mod_cols < N^2: 32 bits when N < 2^16 */
    const uint jm = cols < 65536u ? c2r_mod(j * rows_mod_cols, div_cols)
                                  : (uint)(((ulong)j * rows_mod_cols) % cols);
    return c2r_wrap(c2r_mod(u, div_cols) + jm, cols);
}

/* (x + y) mod rows and (x - y) mod rows, for x < rows and any y (y is a
 * column of a block: below rows but where a block is wider than the
 * matrix is tall). */
static inline uint c2r_add_mod(uint x, uint y, const c2r_divisors *d)
{
    const uint rows = d->rows.w;
    return y < rows ? c2r_wrap(x + y, rows) : c2r_mod(x + c2r_mod(y, d->rows), d->rows);
}

static inline uint c2r_sub_mod(uint x, uint y, const c2r_divisors *d)
{
    const uint rows = d->rows.w;
    return c2r_wrap(x + rows - (y < rows ? y : c2r_mod(y, d->rows)), rows);
}

#if C2R_INVERSE
/* x * y mod m (m = div_m.w) for x, y < m: one 32-bit product below 2^16,
 * else by doubling (a 64-bit % here made the column kernels of 1-byte
 * elements spill scalar registers on AMD targets: tuning/compile_matrix.py). */
static inline uint c2r_mulmod(uint x, uint y, uint4 div_m)
{
    const ulong m = div_m.w;
    ulong r = 0, xx = x;
    if (m < 65536u)
        return c2r_mod(x * y, div_m);
    for (; y; y >>= 1) {
        if (y & 1u) {
            r += xx;
            r = r >= m ? r - m : r;
        }
        xx += xx;
        xx = xx >= m ? xx - m : xx;
    }
    return (uint)r;
}

/* The inverse of the column shuffle's row permutation q(i) = (i*N -
 * floor(i/a)) mod M (the shuffle's index is q(i) + j): with i = k*a + y
 * (k < g, y < a), q(i) = g*(y*b mod a) - k, wrapped to M - k when y*b mod
 * a = 0 < k.  So for x = q(i): ceil(x / g) = y*b mod a (mod a), and
 * (-x) mod g = k; y follows with b_inv = b^-1 mod a. */
static inline uint c2r_unpermute(uint x, uint b_inv, const c2r_divisors *d)
{
    const uint g = d->g.w, a = d->a.w;
    const uint q = udiv(x, d->g), r = x - q * g;
    const uint up = q + (r != 0u);                     /* ceil(x / g) <= a */
    const uint k = r ? g - r : 0u;
    const uint u = up >= a ? up - a : up;
    return k * a + c2r_mulmod(u, b_inv, d->a);
}
#endif

/* Row passes: the column of row i that lands in column k (gather) and
 * the column that element k of row i goes to (scatter); the unshuffle
 * swaps them (rows_mod_cols = rows mod cols, div_cols divides by cols). */
#if C2R_INVERSE
#define C2R_ROW_GATHER(i, i_mod_g, k) c2r_row_destination(i, k, &d, rows_mod_cols, div_cols)
#define C2R_ROW_SCATTER(i, i_mod_g, k) c2r_row_source(i, i_mod_g, k, &d, a_inv)
#else
#define C2R_ROW_GATHER(i, i_mod_g, k) c2r_row_source(i, i_mod_g, k, &d, a_inv)
#define C2R_ROW_SCATTER(i, i_mod_g, k) c2r_row_destination(i, k, &d, rows_mod_cols, div_cols)
#endif

/* With gcd(rows, cols) = 1 the row passes' gather index is linear in the
 * column: l = 0 and b = cols above, so the source of k + 1 is k's plus
 * a_inv (C2R), and the destination of j + 1 is j's plus rows mod cols
 * (R2C's gather), modulo cols.  The row kernels then step a work-item's
 * index along its elements instead of dividing four times per element:
 * the 1- and 2-byte row passes were bound by that arithmetic. */
#if C2R_INVERSE
#define C2R_ROW_STEP rows_mod_cols
#else
#define C2R_ROW_STEP a_inv
#endif

/* (step * n) mod m: the index's advance over n elements. */
static inline uint c2r_advance(uint step, uint n, uint m)
{
    return (uint)(((ulong)step * n) % m);
}

/* Column passes, gather form: the row of column j that lands in row i
 * (cols_mod_rows = cols mod rows; b_inv for the unshuffle). */
static inline uint c2r_column_source(uint kind, uint i, uint j, uint cols_mod_rows,
                                     uint b_inv, const c2r_divisors *d)
{
#if C2R_INVERSE
    (void)cols_mod_rows;
    if (kind == C2R_ROTATE)
        return c2r_sub_mod(i, udiv(j, d->b), d);
    return c2r_unpermute(c2r_sub_mod(i, j, d), b_inv, d);
#else
    const uint rows = d->rows.w;
    (void)b_inv;
    if (kind == C2R_ROTATE)
        return c2r_wrap(i + udiv(j, d->b), rows);
    /* (j + i*N - floor(i / a)) mod M, with floor(i / a) < g <= M: in 32 bits
     * when every term stays below 2^32 */
    if (rows < 65536u)
        return c2r_mod(i * cols_mod_rows + c2r_mod(j, d->rows) + rows - udiv(i, d->a), d->rows);
    return (uint)(((ulong)i * cols_mod_rows + j + rows - udiv(i, d->a)) % rows);
#endif
}

/* The indices k < count of one step of C2R_BATCH elements (from k0, one
 * every lsz), element b of the step being k = k0 + b * lsz. */
#define C2R_EACH(count, DO)                                                    \
    _Pragma("unroll") for (uint b = 0; b < C2R_BATCH; b++) {                   \
        const uint k = k0 + b * lsz;                                           \
        if (k < (count)) {                                                     \
            DO                                                                 \
        }                                                                      \
    }

/* Steps of C2R_BATCH elements over `count` elements, work-item `lid` of
 * `lsz`: LOADS runs for every element of the step first, then STORES
 * (v[b] is element b's value). */
#define C2R_BATCHED(count, LOADS, STORES) C2R_BATCHED_AS(elem_t, count, LOADS, STORES)
#define C2R_BATCHED_AS(type, count, LOADS, STORES)                             \
    for (uint k0 = lid; k0 < (count); k0 += lsz * C2R_BATCH) {                 \
        type v[C2R_BATCH];                                                     \
        C2R_EACH(count, LOADS)                                                 \
        C2R_EACH(count, STORES)                                                \
    }

/* One row per unit: tmp receives the row, then the row is written back
 * gathered from tmp (TMP_LOAD(k) / TMP_STORE(k, x) reach element k). */
#define C2R_ROWS_BODY(TMP_LOAD, TMP_STORE, FENCE)                              \
    const uint lid = (uint)get_local_id(0);                                    \
    const uint lsz = (uint)get_local_size(0);                                  \
    const c2r_divisors d = {div_g, div_b, div_rows, div_a, div_width};         \
    const ulong units = instances * rows;                                      \
    const uint rows_mod_cols = rows % cols;                                    \
    const uint stride = c2r_advance(C2R_ROW_STEP, lsz, cols);                  \
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) { \
        __global elem_t *row = buf + offset + unit * cols;                     \
        const uint i = (uint)(unit % rows);                                    \
        const uint i_mod_g = i % div_g.w;                                      \
        (void)i_mod_g; /* not the unshuffle's */                               \
        (void)rows_mod_cols; /* nor the shuffle's */                           \
        C2R_BATCHED(cols, v[b] = row[k];, TMP_STORE(k, v[b]);)                 \
        barrier(FENCE);                                                        \
        if (div_g.w == 1u) { /* the index stepped (C2R_ROW_STEP) */           \
            uint s = lid < cols ? C2R_ROW_GATHER(i, i_mod_g, lid) : 0u;        \
            C2R_BATCHED(cols, v[b] = TMP_LOAD(s); s = c2r_wrap(s + stride, cols);, \
                        row[k] = v[b];)                                        \
        } else {                                                               \
            C2R_BATCHED(cols, v[b] = TMP_LOAD(C2R_ROW_GATHER(i, i_mod_g, k));, \
                        row[k] = v[b];)                                        \
        }                                                                      \
        barrier(FENCE);                                                        \
    }

/* One block of `width` consecutive columns per unit (the last of a matrix
 * may be narrower: div_last), held in tmp as rows x w, row r of tmp
 * holding block row (r + skew(jj)) mod rows in column jj, with skew(jj) =
 * jj when SKEW and the pass is the shuffle, else 0. */
#define C2R_COLUMNS_BODY(TMP_LOAD, TMP_STORE, FENCE, SKEW)                     \
    const uint lid = (uint)get_local_id(0);                                    \
    const uint lsz = (uint)get_local_size(0);                                  \
    const c2r_divisors d = {div_g, div_b, div_rows, div_a, div_width};         \
    const uint width = div_width.w;                                            \
    const uint blocks = (cols + width - 1) / width;                            \
    const ulong units = instances * blocks;                                    \
    const uint cols_mod_rows = cols % rows;                                    \
    /* the unshuffle's sources are no diagonal: no skew */                    \
    const uint skewed = (SKEW) && kind == C2R_SHUFFLE && !C2R_INVERSE;         \
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) { \
        const ulong inst = unit / blocks;                                      \
        const uint j0 = (uint)(unit - inst * blocks) * width;                  \
        const uint4 div_w = j0 + width <= cols ? div_width : div_last;         \
        const uint w = div_w.w;                                                \
        const uint count = rows * w;                                           \
        __global elem_t *base = buf + offset + inst * rows * (ulong)cols + j0; \
        C2R_BATCHED(count,                                                     \
                    const uint r = udiv(k, div_w); const uint jj = k - r * w;  \
                    const uint src = skewed ? c2r_add_mod(r, jj, &d) : r;     \
                    v[b] = base[(ulong)src * cols + jj];,                      \
                    TMP_STORE(k, v[b]);)                                       \
        barrier(FENCE);                                                        \
        C2R_BY_KIND(C2R_COLUMN_GATHER, TMP_LOAD)                               \
        barrier(FENCE);                                                        \
    }

/* The block's gather back into the matrix for pass `K` (rows of the
 * matrix written whole, their sources read from tmp). */
#define C2R_COLUMN_GATHER(K, TMP_LOAD)                                         \
    C2R_BATCHED(count,                                                         \
                const uint i = udiv(k, div_w); const uint jj = k - i * w;      \
                uint src = c2r_column_source(K, i, j0 + jj, cols_mod_rows, a_inv, &d); \
                if (skewed) src = c2r_sub_mod(src, jj, &d);                   \
                v[b] = TMP_LOAD(src * w + jj);,                                \
                const uint i = udiv(k, div_w);                                 \
                base[(ulong)i * cols + (k - i * w)] = v[b];)

/* R2C's two index functions in loops of their own: in one loop, each
 * element choosing by `kind`, 1-byte elements' column kernels spilled
 * scalar registers on AMD targets (tuning/compile_matrix.py).  C2R's keep
 * the one loop they were measured with. */
#if C2R_INVERSE
#define C2R_BY_KIND(GATHER, TMP_LOAD)                                          \
    if (kind == C2R_ROTATE) {                                                  \
        GATHER(C2R_ROTATE, TMP_LOAD)                                           \
    } else {                                                                   \
        GATHER(C2R_SHUFFLE, TMP_LOAD)                                          \
    }
#else
#define C2R_BY_KIND(GATHER, TMP_LOAD) GATHER(kind, TMP_LOAD)
#endif

/* The signature every kernel shares; the local variants end with the
 * unit's __local temporary, the global ones with `in_local`, that
 * temporary (its first in_local elements) and the plan's scratch.  a_inv
 * is a^-1 mod b for the row passes and b^-1 mod a for the column
 * unshuffle; the divisors are of g = gcd(rows, cols), b = cols / g, rows,
 * a = rows / g, a block's width and the last block's, and cols. */
#define C2R_KERNEL(name)                                                       \
    __kernel void name(__global elem_t *buf, ulong offset, ulong instances,    \
                       uint rows, uint cols, uint a_inv, uint kind, uint4 div_g, \
                       uint4 div_b, uint4 div_rows, uint4 div_a, uint4 div_width, \
                       uint4 div_last, uint4 div_cols,

#define C2R_LOCAL_LOAD(k) tmp[k]
#define C2R_LOCAL_STORE(k, x) tmp[k] = (x)
#define C2R_SPLIT_LOAD(k) ((k) < in_local ? tmp[k] : slot[(k) - in_local])
#define C2R_SPLIT_STORE(k, x)                                                  \
    if ((k) < in_local)                                                        \
        tmp[k] = (x);                                                          \
    else                                                                       \
        slot[(k) - in_local] = (x)
#define C2R_FENCE_BOTH (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

#if C2R_PACKED
/* Element e of a row's edges (e < cols - words * C2R_PACK): the `head`
 * elements before its first aligned word, then those after its body. */
static inline uint c2r_edge(uint e, uint head, uint body_end)
{
    return e < head ? e : body_end + (e - head);
}

/* A word's C2R_PACK elements, the first lowest, into tmp from `at` on. */
static inline void c2r_unpack(__local elem_t *tmp, uint at, uint v)
{
    _Pragma("unroll") for (uint x = 0; x < C2R_PACK; x++)
        tmp[at + x] = (elem_t)(v >> (x * 8u * (uint)sizeof(elem_t)));
}

/* A word of the elements of tmp at s, s + step, ... (mod cols). */
static inline uint c2r_pack_run(__local const elem_t *tmp, uint s, uint step, uint cols)
{
    uint v = 0;
    _Pragma("unroll") for (uint x = 0; x < C2R_PACK; x++) {
        v |= (uint)tmp[s] << (x * 8u * (uint)sizeof(elem_t));
        s = c2r_wrap(s + step, cols);
    }
    return v;
}
#endif

/* Row shuffle or unshuffle with the row in local memory (cols elements);
 * with C2R_PACKED the row's body moves in 32-bit words. */
C2R_KERNEL(c2r_rows_local) __local elem_t *tmp)
{
    (void)kind;
    (void)div_last;
#if C2R_PACKED
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const c2r_divisors d = {div_g, div_b, div_rows, div_a, div_width};
    const ulong units = instances * rows;
    const uint rows_mod_cols = rows % cols;
    const uint step = c2r_advance(C2R_ROW_STEP, 1, cols);
    const uint stride = c2r_advance(C2R_ROW_STEP, lsz * C2R_PACK, cols);
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        const ulong at = offset + unit * cols;
        __global elem_t *row = buf + at;
        const uint i = (uint)(unit % rows);
        const uint i_mod_g = i % div_g.w;
        const uint head = min((uint)((C2R_PACK - (at & (C2R_PACK - 1))) & (C2R_PACK - 1)), cols);
        const uint words = (cols - head) / C2R_PACK;
        const uint body_end = head + words * C2R_PACK, edges = cols - words * C2R_PACK;
        __global uint *body = (__global uint *)(row + head);
        (void)i_mod_g; /* not the unshuffle's */
        (void)rows_mod_cols; /* nor the shuffle's */
        for (uint e = lid; e < edges; e += lsz) {
            const uint k = c2r_edge(e, head, body_end);
            tmp[k] = row[k];
        }
        C2R_BATCHED_AS(uint, words, v[b] = body[k];, c2r_unpack(tmp, head + k * C2R_PACK, v[b]);)
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = lid; e < edges; e += lsz) {
            const uint k = c2r_edge(e, head, body_end);
            row[k] = tmp[C2R_ROW_GATHER(i, i_mod_g, k)];
        }
        if (div_g.w == 1u) { /* the index stepped (C2R_ROW_STEP) */
            uint s = lid < words ? C2R_ROW_GATHER(i, i_mod_g, head + lid * C2R_PACK) : 0u;
            C2R_BATCHED_AS(uint, words, v[b] = c2r_pack_run(tmp, s, step, cols);
                           s = c2r_wrap(s + stride, cols);, body[k] = v[b];)
        } else {
            C2R_BATCHED_AS(uint, words, v[b] = 0u;
                           _Pragma("unroll") for (uint x = 0; x < C2R_PACK; x++) v[b] |=
                           (uint)tmp[C2R_ROW_GATHER(i, i_mod_g, head + k * C2R_PACK + x)]
                           << (x * 8u * (uint)sizeof(elem_t));, body[k] = v[b];)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    C2R_ROWS_BODY(C2R_LOCAL_LOAD, C2R_LOCAL_STORE, CLK_LOCAL_MEM_FENCE)
#endif
}

/* The same with the row's first in_local elements in local memory and the
 * rest in the work-group's slot of `scratch` (cols - in_local elements). */
C2R_KERNEL(c2r_rows_global) uint in_local, __local elem_t *tmp,
                            __global elem_t *scratch)
{
    __global elem_t *slot = scratch + (ulong)clipt_group_id() * (cols - in_local);
    (void)kind;
    (void)div_last;
    C2R_ROWS_BODY(C2R_SPLIT_LOAD, C2R_SPLIT_STORE, C2R_FENCE_BOTH)
}

/* Row shuffle or unshuffle with the row's first in_local elements in
 * local memory and the rest (at most lsz * C2R_BATCH) in registers,
 * element in_local + lid + b*lsz in kept[b]: the outputs whose source
 * local memory holds are gathered from it, the registers are scattered to
 * their columns, so that no scratch is read or written. */
C2R_KERNEL(c2r_rows_regs) uint in_local, __local elem_t *tmp)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const c2r_divisors d = {div_g, div_b, div_rows, div_a, div_width};
    const ulong units = instances * rows;
    const uint rows_mod_cols = rows % cols;
    (void)kind;
    (void)div_last;
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        __global elem_t *row = buf + offset + unit * cols;
        const uint i = (uint)(unit % rows);
        const uint i_mod_g = i % div_g.w;
        elem_t kept[C2R_BATCH];
        C2R_BATCHED(in_local, v[b] = row[k];, tmp[k] = v[b];)
        {
            const uint k0 = in_local + lid;
            C2R_EACH(cols, kept[b] = row[k];)
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (uint k = lid; k < cols; k += lsz) {
            const uint src = C2R_ROW_GATHER(i, i_mod_g, k);
            if (src < in_local)
                row[k] = tmp[src];
        }
        {
            const uint k0 = in_local + lid;
            C2R_EACH(cols, row[C2R_ROW_SCATTER(i, i_mod_g, k)] = kept[b];)
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}

/* A column pass (rotation or shuffle: kind; or their inverses) with a block
 * of rows x width elements in local memory. */
C2R_KERNEL(c2r_columns_local) __local elem_t *tmp)
{
    (void)div_cols;
    C2R_COLUMNS_BODY(C2R_LOCAL_LOAD, C2R_LOCAL_STORE, CLK_LOCAL_MEM_FENCE, 0)
}

/* The same with the block's first in_local elements in local memory and
 * the rest in the work-group's slot of `scratch` (rows x width - in_local
 * elements), skewed for the shuffle. */
C2R_KERNEL(c2r_columns_global) uint in_local, __local elem_t *tmp,
                               __global elem_t *scratch)
{
    __global elem_t *slot =
        scratch + (ulong)clipt_group_id() * (rows * (ulong)div_width.w - in_local);
    (void)div_cols;
    C2R_COLUMNS_BODY(C2R_SPLIT_LOAD, C2R_SPLIT_STORE, C2R_FENCE_BOTH, 1)
}

/* Column rotation streamed, a strip of width columns per unit (the last
 * of a matrix may be narrower: div_last): row i of column j takes row
 * (i + floor(j / b)) of the same column, a shift below g.  Steps of lsz *
 * C2R_BATCH elements in row-major order over the strip: a step's loads
 * come from rows at or below its own, which no earlier step wrote;
 * sources past the last row wrap to the first g - 1 rows, kept in tmp
 * ((g - 1) x w) before the first store.  The unrotation (C2R_INVERSE)
 * is the same with the rows counted from the bottom: row i
 * from the bottom takes row i + floor(j / b) from the bottom. */
C2R_KERNEL(c2r_rotate_stream) __local elem_t *tmp)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const uint width = div_width.w;
    const uint blocks = (cols + width - 1) / width;
    const ulong units = instances * blocks;
    const uint kept = div_g.w - 1;
    /* row i counted from the top, or from the bottom: at(i) * cols */
    const uint flip = C2R_INVERSE;
#define C2R_AT(i) ((ulong)(flip ? rows - 1u - (i) : (i)) * cols)
    (void)a_inv;
    (void)kind;
    (void)div_a;
    (void)div_cols;
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        const ulong inst = unit / blocks;
        const uint j0 = (uint)(unit - inst * blocks) * width;
        const uint4 div_w = j0 + width <= cols ? div_width : div_last;
        const uint w = div_w.w;
        const uint count = rows * w;
        __global elem_t *base = buf + offset + inst * rows * (ulong)cols + j0;
        for (uint k = lid; k < kept * w; k += lsz) {
            const uint r = udiv(k, div_w);
            tmp[k] = base[C2R_AT(r) + (k - r * w)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s0 = 0; s0 < count; s0 += lsz * C2R_BATCH) {
            const uint k0 = s0 + lid;
            elem_t v[C2R_BATCH];
            C2R_EACH(count, const uint i = udiv(k, div_w); const uint jj = k - i * w;
                     const uint src = i + udiv(j0 + jj, div_b);
                     v[b] = src < rows ? base[C2R_AT(src) + jj]
                                       : tmp[(src - rows) * w + jj];)
            barrier(CLK_GLOBAL_MEM_FENCE);
            C2R_EACH(count, const uint i = udiv(k, div_w);
                     base[C2R_AT(i) + (k - i * w)] = v[b];)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef C2R_AT
}

/* The column shuffle for tall columns, reflected and walked. */
#include "c2r_columns.h"
