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
 * its reads and writes are contiguous runs) into a temporary, waits at a
 * barrier, and writes the unit back in its new order.  The temporary is
 * local memory when the unit fits (kernels *_local), else the work-group's
 * own slot of the plan's scratch buffer (kernels *_global).  Work-groups
 * take units round-robin; `instances` matrices lie back to back.
 *
 * No flags, no atomics, no waiting for other work-groups: correct in any
 * schedule.  Each unit is read once and written once (the global variants
 * also write and read their scratch slot once).
 *
 * Build options (each has a default so the file compiles alone):
 *   ELEM_TYPE   the element type moved (clipt_kernel.h).
 */
#include "clipt_kernel.h"

/* What the column kernels do (argument `kind`). */
#define C2R_ROTATE 0u
#define C2R_SHUFFLE 1u

/* x mod m for x < 2m. */
static inline uint c2r_wrap(uint x, uint m)
{
    return x >= m ? x - m : x;
}

/* Row shuffle, gather form: the column of row i that lands in column k.
 * The scatter is k = ((i + l) mod M + j*M) mod N with l = floor(j / b),
 * j = l*b + h; as c divides N and M*h = c*(a*h), k mod c is
 * (i + l) mod c and floor(k / c) is (floor(u / c) + a*h) mod b with
 * u = (i + l) mod M.  So l comes from k mod c, and h from floor(k / c)
 * with the inverse a_inv of a modulo b. */
static inline uint c2r_row_source(uint i, uint k, uint rows, uint g, uint b, uint a_inv)
{
    const uint k1 = k / g;
    const uint k0 = k - k1 * g;
    const uint l = c2r_wrap(k0 + g - i % g, g);
    const uint u = c2r_wrap(i + l, rows);
    const uint u1 = (u / g) % b;
    const uint h = (uint)(((ulong)c2r_wrap(k1 + b - u1, b) * a_inv) % b);
    return l * b + h;
}

/* Column passes, gather form: the row of column j that lands in row i. */
static inline uint c2r_column_source(uint kind, uint i, uint j, uint rows, uint cols_mod_rows,
                                     uint a, uint b)
{
    if (kind == C2R_ROTATE)
        return c2r_wrap(i + j / b, rows);
    /* (j + i*N - floor(i / a)) mod M, with floor(i / a) < c <= M */
    return (uint)(((ulong)i * cols_mod_rows + j + rows - i / a) % rows);
}

/* One row per unit: tmp receives the row, then the row is written back
 * gathered from tmp. */
#define C2R_ROWS_BODY(tmp, FENCE)                                              \
    const uint lid = (uint)get_local_id(0);                                    \
    const uint lsz = (uint)get_local_size(0);                                  \
    const ulong units = instances * rows;                                      \
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) { \
        __global elem_t *row = buf + offset + unit * cols;                     \
        const uint i = (uint)(unit % rows);                                    \
        for (uint k = lid; k < cols; k += lsz)                                 \
            tmp[k] = row[k];                                                   \
        barrier(FENCE);                                                        \
        for (uint k = lid; k < cols; k += lsz)                                 \
            row[k] = tmp[c2r_row_source(i, k, rows, g, b, a_inv)];             \
        barrier(FENCE);                                                        \
    }

/* One block of `width` consecutive columns per unit (the last of a matrix
 * may be narrower), held in tmp as rows x w. */
#define C2R_COLUMNS_BODY(tmp, FENCE)                                           \
    const uint lid = (uint)get_local_id(0);                                    \
    const uint lsz = (uint)get_local_size(0);                                  \
    const uint blocks = (cols + width - 1) / width;                            \
    const ulong units = instances * blocks;                                    \
    const uint cols_mod_rows = cols % rows;                                    \
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) { \
        const ulong inst = unit / blocks;                                      \
        const uint j0 = (uint)(unit - inst * blocks) * width;                  \
        const uint w = min(width, cols - j0);                                  \
        const uint count = rows * w;                                           \
        __global elem_t *base = buf + offset + inst * rows * (ulong)cols + j0; \
        for (uint k = lid; k < count; k += lsz) {                              \
            const uint i = k / w;                                              \
            tmp[k] = base[(ulong)i * cols + (k - i * w)];                      \
        }                                                                      \
        barrier(FENCE);                                                        \
        for (uint k = lid; k < count; k += lsz) {                              \
            const uint i = k / w;                                              \
            const uint jj = k - i * w;                                         \
            const uint src = c2r_column_source(kind, i, j0 + jj, rows, cols_mod_rows, a, b); \
            base[(ulong)i * cols + jj] = tmp[src * w + jj];                    \
        }                                                                      \
        barrier(FENCE);                                                        \
    }

/* The signature every kernel shares; the last argument is the unit's
 * temporary: a __local array, or the plan's __global scratch. */
#define C2R_KERNEL(name, space, tmp)                                           \
    __kernel void name(__global elem_t *buf, ulong offset, ulong instances,    \
                       uint rows, uint cols, uint g, uint a, uint b, uint a_inv, \
                       uint kind, uint width, space elem_t *tmp)

/* Row shuffle with the row in local memory (cols elements). */
C2R_KERNEL(c2r_rows_local, __local, tmp)
{
    (void)a;
    (void)kind;
    (void)width;
    C2R_ROWS_BODY(tmp, CLK_LOCAL_MEM_FENCE)
}

/* The same with the row in the work-group's slot of `scratch` (cols
 * elements per work-group). */
C2R_KERNEL(c2r_rows_global, __global, scratch)
{
    __global elem_t *tmp = scratch + (ulong)clipt_group_id() * cols;
    (void)a;
    (void)kind;
    (void)width;
    C2R_ROWS_BODY(tmp, CLK_GLOBAL_MEM_FENCE)
}

/* Column rotation (kind 0) or column shuffle (kind 1) with a block of
 * rows x width elements in local memory. */
C2R_KERNEL(c2r_columns_local, __local, tmp)
{
    (void)g;
    (void)a_inv;
    C2R_COLUMNS_BODY(tmp, CLK_LOCAL_MEM_FENCE)
}

/* The same with the block in the work-group's slot of `scratch`
 * (rows x width elements per work-group). */
C2R_KERNEL(c2r_columns_global, __global, scratch)
{
    __global elem_t *tmp = scratch + (ulong)clipt_group_id() * rows * (ulong)width;
    (void)g;
    (void)a_inv;
    C2R_COLUMNS_BODY(tmp, CLK_GLOBAL_MEM_FENCE)
}
