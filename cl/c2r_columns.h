/*
 * The column shuffle of C2R (and R2C's unshuffle) for columns too tall
 * for local memory, in two passes that read and write whole 128-byte
 * lines, with no scratch beyond one row per cycle segment.  Included by
 * c2r.cl (its ELEM_TYPE, C2R_BATCH and helpers).
 *
 * The shuffle gathers C[i][j] = B[(j + q(i)) mod M][j] with q(i) = (i*N -
 * floor(i/a)) mod M, a permutation of the rows.  Split it as
 *
 *   reflection:  D[x][j] = B[(j - x) mod M][j], each column reflected;
 *   row walk:    C[i] = D[pi(i)] with pi(i) = (M - q(i)) mod M,
 *
 * since D[pi(i)][j] = B[(j + q(i)) mod M][j].  A reflection x -> (j - x)
 * mod M is its own inverse, so it is a set of swaps of two elements of a
 * column, done in place with no order between the swaps; the row walk
 * moves whole rows along the cycles of pi (the host lists them: the same
 * for every column).  R2C's unshuffle runs the walk along pi's inverse and
 * then the same reflection.
 *
 * c2r_reflect: a unit is a strip of w = C2R_STRIP columns (C2R_STRIP_LINES
 * 128-byte lines, within one period of M columns, so that j mod M = c0 +
 * jj) and `height` of the strip's pairs.  Column j pairs row e_j + k with
 * (c_j - e_j - k) mod M for k < floor(M/2), with c_j = j mod M and e_j =
 * floor(c_j / 2) + 1:
 * every pair once (and at most one fixed point, 2x = j mod M, left out of
 * the swaps and of the partner window).
 * Across the strip e_j grows by one every second column, so the unit's
 * first members lie in a window of height + delta rows and their partners
 * in one of height + eps rows (delta + eps = w - 1): both windows are read
 * row by row (the cells of the unit's pairs only) into local memory, where
 * each column is stored from its first cell on (a window of height x w
 * elements, not (height + w) x w), and each window written back, row by
 * row, to the same cells, each cell from its pair's other member.  Only
 * the owner of a pair reads or writes its two cells: no other unit
 * touches them, so units need no order.
 *
 * c2r_save_heads + c2r_walk_rows: the host lists pi's cycles in `table`:
 * per segment four uints (first index into the positions, length, the
 * slot where its first row is saved, the slot holding the row after its
 * last; C2R_NO_SLOT for a segment that is a whole cycle), then the
 * positions, cycle by cycle in walk order p, pi(p), pi(pi(p)), ...  The
 * first launch saves the first row of every segment of a cycle of several
 * segments; the second moves, element k of every row of a segment, row
 * p_{t+1} into row p_t, reading all of the segment's rows (at most
 * C2R_WALK) before writing any, the last one's source being the next
 * segment's saved head (or, for a whole cycle, its own first row, still
 * unwritten).  Each cell is written by one work-item only.
 *
 * Build options: C2R_WALK, the rows of a segment at most (1..32);
 * C2R_REFLECT_BATCH, the rows of each window a work-item of c2r_reflect
 * loads before it stores them to local memory (default C2R_BATCH);
 * C2R_INDEX32, 1 where a matrix's rows x cols fits 32 bits: the rows'
 * offsets within a matrix in 32-bit arithmetic (fewer registers);
 * C2R_REFLECT_COLS, the columns of a strip each work-item of c2r_reflect
 * takes (1, 2 or 4, dividing C2R_LINE); C2R_STRIP_LINES, the 128-byte lines
 * of a strip (1, 2 or 4); C2R_ROW_CURSOR, where the reflection takes its
 * row offsets by addition (c2r_row_cursor: 1 the windows' loads, 2 the
 * write-back, 3 both; default 0); C2R_WALK_SHARED, 1 for the walk's row
 * offsets through local memory, 0 from the table in each row's branch
 * (default 1).
 */
#ifndef CLIPT_C2R_COLUMNS_H
#define CLIPT_C2R_COLUMNS_H

#ifndef C2R_WALK
#define C2R_WALK 16
#endif
#ifndef C2R_REFLECT_COLS
#define C2R_REFLECT_COLS 1
#endif
#ifndef C2R_REFLECT_BATCH
#define C2R_REFLECT_BATCH C2R_BATCH
#endif
#ifndef C2R_INDEX32
#define C2R_INDEX32 0
#endif
#if C2R_INDEX32
typedef uint c2r_index_t;
#else
typedef ulong c2r_index_t;
#endif
#ifndef C2R_STRIP_LINES
#define C2R_STRIP_LINES 1
#endif

/* Columns of a 128-byte line, and of a strip. */
#define C2R_LINE (128u / (uint)sizeof(elem_t) > 1u ? 128u / (uint)sizeof(elem_t) : 1u)
#define C2R_STRIP (C2R_LINE * C2R_STRIP_LINES)
/* A segment with no saved row (host_shared.h). */
#define C2R_NO_SLOT CLIPT_C2R_NO_SLOT

/* Columns a work-item takes in a strip (C2R_REFLECT_COLS): jl, jl +
 * lanes, ... with lanes = C2R_LINE / C2R_REFLECT_COLS work-items side by
 * side, so that one row's address serves several columns (the reflection
 * was bound by that arithmetic for elements of 1 and 2 bytes). */
#define C2R_VEC C2R_REFLECT_COLS

/* The cells of one column of a strip that a unit owns: its own-window
 * rows from `delta` on (`own_count` of them) and its partner-window rows
 * from `skip_partner` = eps + fixed on (`partner_count`: the pairs but a
 * fixed point, which is also how many own-window rows are written back);
 * the counts are 0 past the strip (`on` 0), so that each test is one
 * unsigned comparison, r - delta < own_count (r below delta wraps past
 * every count). */
typedef struct c2r_column_cells {
    uint delta, eps, fixed, skip_partner, own_count, partner_count;
    /* where window row 0 of the column would be stored, relative to
     * column jl's row 0 (modulo 2^32: only rows from delta or eps on are
     * stored, at r * w + own_at or + partner_at) */
    uint own_at, partner_at;
    /* where the other member of own-window row 0's pair is stored (in the
     * partner window) and that of partner-window row 0's (in the own
     * window), less r * w for window row r (modulo 2^32 likewise) */
    uint own_swap_at, partner_swap_at;
    int on;
} c2r_column_cells;

/* The offsets of matrix rows (start + r) mod M for r = first, first +
 * step, ... (M = div_rows.w), c2r_row_at.  By a cursor (where
 * C2R_ROW_CURSOR has the loop's bit, C2R_CURSOR_LOADS or
 * C2R_CURSOR_WRITES), row first's from a division and each next one by an
 * addition and at most one subtraction (c2r_row_next); else each row's
 * own, start + r less M where it passes M (and the cursor is dead code):
 * start < M, and a window row that is read or written has r < M (a
 * window is at most floor(M/2) pairs plus half a strip's columns, the
 * strip no wider than M), so one subtraction takes it mod M, with no
 * division and no chain from row to row (rows past a window compute an
 * offset that no load or store uses).  The host chooses
 * (src/stage_c2r_split.c, clipt_c2r_row_cursor): on an H200 the cursor
 * made the column pass 7 % faster for 2-byte elements and 6 % (fp32) and
 * 19 % (fp64) slower than a division per row, where fewer instructions
 * came with loads that no longer issued ahead of the stores to local
 * memory; on PoCL it made the plans faster for every size.  The
 * subtraction instead of that division, with the window tests of one
 * comparison (c2r_column_cells), made the column pass 6.1 % faster for
 * 1-byte elements and 2.9 % for 2-byte ones on an H100 (median per shape,
 * forced split C2R, 6-12 fresh coprime shapes a size), fp32 and fp64
 * within the run's 1 % (clang's nvptx code of c2r_reflect: 21-31 % fewer
 * instructions); 1-byte elements kept the cursor in the write-back (5 %
 * faster than without), 2-byte ones in both loops (the same as without). */
#ifndef C2R_ROW_CURSOR
#define C2R_ROW_CURSOR 0
#endif
#define C2R_CURSOR_LOADS 1u
#define C2R_CURSOR_WRITES 2u
typedef struct c2r_row_cursor {
    c2r_index_t at;     /* the current row's offset, in elements */
    c2r_index_t stride; /* (step mod M) rows */
    c2r_index_t back;   /* M rows less stride: at from here on wraps */
} c2r_row_cursor;

static inline c2r_row_cursor c2r_row_start(uint start, uint first, uint step, uint cols,
                                           uint4 div_rows)
{
    c2r_row_cursor k;
    k.at = (c2r_index_t)c2r_mod(start + first, div_rows) * cols;
    k.stride = (c2r_index_t)c2r_mod(step, div_rows) * cols;
    /* no overflow: at + stride < 2 M cols could pass 2^32 */
    k.back = (c2r_index_t)div_rows.w * cols - k.stride;
    return k;
}

static inline void c2r_row_next(c2r_row_cursor *k)
{
    k->at = k->at >= k->back ? k->at - k->back : k->at + k->stride;
}

/* The offset of row (start + r) mod M for start, r < M: the cursor's
 * where C2R_ROW_CURSOR has `loop` (a constant), or a subtraction. */
static inline c2r_index_t c2r_row_at(const c2r_row_cursor *k, uint loop, uint start, uint r,
                                     uint cols, uint4 div_rows)
{
    return (C2R_ROW_CURSOR & loop) ? k->at
                                   : (c2r_index_t)c2r_wrap(start + r, div_rows.w) * cols;
}

/* Rows `first`, `first + step`, ... of the work-item's columns read into
 * two local windows, row r of a window from matrix row (start + r) mod M,
 * 2 x C2R_REFLECT_BATCH rows in flight: of each window only the rows
 * that hold the column's pairs (cells[v]), stored from the column's first
 * cell on (own row r at r - delta, partner row r at r - eps); the other
 * cells of a window row belong to other work-groups' pairs, which may be
 * writing them.  Work-items side by side take the same window row, so the
 * loads stay whole lines. */
static inline void c2r_windows_load(__local elem_t *own, __local elem_t *partner,
                                    const __global elem_t *col,
                                    const c2r_column_cells cells[C2R_VEC], uint own_start,
                                    uint partner_start, uint rows_max, uint first,
                                    uint step, uint w, uint lanes, uint cols, uint4 div_rows)
{
    c2r_row_cursor ko = c2r_row_start(own_start, first, step, cols, div_rows);
    c2r_row_cursor kp = c2r_row_start(partner_start, first, step, cols, div_rows);
    for (uint r0 = first; r0 < rows_max; r0 += step * C2R_REFLECT_BATCH) {
        elem_t x[C2R_REFLECT_BATCH][C2R_VEC], y[C2R_REFLECT_BATCH][C2R_VEC];
        _Pragma("unroll") for (uint b = 0; b < C2R_REFLECT_BATCH; b++) {
            const uint r = r0 + b * step;
            const __global elem_t *o =
                col + c2r_row_at(&ko, C2R_CURSOR_LOADS, own_start, r, cols, div_rows);
            const __global elem_t *p =
                col + c2r_row_at(&kp, C2R_CURSOR_LOADS, partner_start, r, cols, div_rows);
            _Pragma("unroll") for (uint v = 0; v < C2R_VEC; v++) {
                const c2r_column_cells *c = &cells[v];
                if (r - c->delta < c->own_count)
                    x[b][v] = o[v * lanes];
                if (r - c->skip_partner < c->partner_count)
                    y[b][v] = p[v * lanes];
            }
            c2r_row_next(&ko);
            c2r_row_next(&kp);
        }
        _Pragma("unroll") for (uint b = 0; b < C2R_REFLECT_BATCH; b++) {
            const uint r = r0 + b * step;
            _Pragma("unroll") for (uint v = 0; v < C2R_VEC; v++) {
                const c2r_column_cells *c = &cells[v];
                if (r - c->delta < c->own_count)
                    own[r * w + c->own_at] = x[b][v];
                if (r - c->skip_partner < c->partner_count)
                    partner[r * w + c->partner_at] = y[b][v];
            }
        }
    }
}

/* Columns reflected: a strip's pairs swapped through local memory (two
 * windows of height x C2R_STRIP elements in tmp).  Work-groups are a
 * multiple of lanes = C2R_STRIP / C2R_REFLECT_COLS work-items:
 * work-item lid takes the columns jl = lid mod lanes, jl + lanes, ... of
 * the strip and every (lsz / lanes)-th row. */
__kernel void c2r_reflect(__global elem_t *buf, ulong offset, ulong instances, uint rows,
                          uint cols, uint height, uint4 div_rows, __local elem_t *tmp)
{
    const uint w = C2R_STRIP, lanes = C2R_STRIP / C2R_VEC;
    const uint lid = (uint)get_local_id(0);
    const uint first = lid / lanes, jl = lid - first * lanes;
    const uint step = (uint)get_local_size(0) / lanes;
    const uint pairs = rows / 2;
    const uint per_period = ((rows < cols ? rows : cols) + w - 1) / w;
    const uint periods = (cols - 1) / rows + 1;
    const uint tiles = (pairs + height - 1) / height;
    const ulong units = instances * periods * per_period * tiles;
    __local elem_t *own = tmp, *partner = tmp + height * w;
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        /* strips fastest: work-groups side by side read neighbouring
         * lines of the same rows (2 % faster on an H100 than tiles
         * fastest) */
        const ulong rest = unit / per_period, strip = rest / tiles;
        const ulong inst = strip / periods;
        const uint block = (uint)(unit - rest * per_period), t = (uint)(rest - strip * tiles);
        const uint period = (uint)(strip - inst * periods);
        const uint c0 = block * w, j0 = period * rows + c0;
        if (c0 >= rows || j0 >= cols)
            continue; /* the whole work-group: no barrier skipped by some */
        {
            const uint wc = min(w, min(rows - c0, cols - j0));
            const uint k0 = t * height, hc = min(height, pairs - k0);
            const uint r_own = c2r_wrap(c0 / 2 + 1 + k0, rows);
            const uint last = (c0 + wc - 1) / 2 - c0 / 2;
            const uint own_rows = hc + last, partner_rows = hc + (wc - 1 - last);
            const uint r_partner = c2r_mod(c0 + 2 * rows - r_own - (hc - 1), div_rows);
            c2r_column_cells cells[C2R_VEC];
            int any = 0;
            _Pragma("unroll") for (uint v = 0; v < C2R_VEC; v++) {
                const uint jj = jl + v * lanes;
                c2r_column_cells *c = &cells[v];
                c->delta = (c0 + jj) / 2 - c0 / 2;
                c->eps = jj - c->delta;
                c->on = jj < wc;
                /* the one fixed point among the pairs (2x = j mod M: M
                 * and j mod M even, the last pair), its partner cell the
                 * first member itself: left out of the partner window, so
                 * that no two work-items touch the cell */
                c->fixed = rows % 2 == 0 && (c0 + jj) % 2 == 0 && k0 + hc == pairs;
                c->skip_partner = c->eps + c->fixed;
                c->own_count = c->on ? hc : 0u;
                c->partner_count = c->on ? hc - c->fixed : 0u;
                c->own_at = v * lanes - c->delta * w;
                c->partner_at = v * lanes - c->eps * w;
                c->own_swap_at = v * lanes + (hc - 1 + c->delta) * w;
                c->partner_swap_at = v * lanes + (hc - 1 + c->eps) * w;
                any |= c->on;
            }
            /* column jl of the strip (jl + v * lanes at v * lanes from it) */
            __global elem_t *col = buf + offset + inst * rows * (ulong)cols + j0 + jl;
            if (any)
                c2r_windows_load(own + jl, partner + jl, col, cells, r_own, r_partner,
                                 hc + max(last, wc - 1 - last), first, step, w, lanes, cols,
                                 div_rows);
            barrier(CLK_LOCAL_MEM_FENCE);
            /* each window back, row by row, each cell taking its pair's
             * other member: own row r holds pair h = r - delta (at own
             * local row h), whose partner cell is at partner local row
             * hc - 1 - h; partner row r (at partner local row L = r - eps)
             * holds pair hc - 1 - L, whose own cell is at own local row
             * hc - 1 - L.  So the swap happens in the write-back, with no
             * pass over local memory and no barrier of its own (H200,
             * fp32: the column pass 3.47 -> 3.31 copies' time,
             * docs/performance.md).  A fixed point keeps its cell
             * unwritten. */
            c2r_row_cursor k = c2r_row_start(r_own, first, step, cols, div_rows);
            for (uint r = first; any && r < own_rows; r += step, c2r_row_next(&k)) {
                __global elem_t *o =
                    col + c2r_row_at(&k, C2R_CURSOR_WRITES, r_own, r, cols, div_rows);
                _Pragma("unroll") for (uint v = 0; v < C2R_VEC; v++) {
                    const c2r_column_cells *c = &cells[v];
                    if (r - c->delta < c->partner_count)
                        o[v * lanes] = partner[jl + c->own_swap_at - r * w];
                }
            }
            k = c2r_row_start(r_partner, first, step, cols, div_rows);
            for (uint r = first; any && r < partner_rows; r += step, c2r_row_next(&k)) {
                __global elem_t *p =
                    col + c2r_row_at(&k, C2R_CURSOR_WRITES, r_partner, r, cols, div_rows);
                _Pragma("unroll") for (uint v = 0; v < C2R_VEC; v++) {
                    const c2r_column_cells *c = &cells[v];
                    if (r - c->skip_partner < c->partner_count)
                        p[v * lanes] = own[jl + c->partner_swap_at - r * w];
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}

/* The signature of the walk's two launches: `segments` table entries,
 * `slots` saved rows per instance in `saved`. */
#define C2R_WALK_KERNEL(name)                                                  \
    __kernel void name(__global elem_t *buf, ulong offset, ulong instances,    \
                       uint rows, uint cols, __global const uint *table,       \
                       uint segments, uint slots, __global elem_t *saved)

/* The first row of each segment of a cycle of several, into its slot. */
C2R_WALK_KERNEL(c2r_save_heads)
{
    const uint lid = (uint)get_local_id(0);
    const uint lsz = (uint)get_local_size(0);
    const ulong units = instances * segments;
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        const ulong inst = unit / segments;
        const uint s = (uint)(unit - inst * segments);
        const uint slot = table[4 * s + 2];
        if (slot != C2R_NO_SLOT) {
            const uint p = table[4 * (ulong)segments + table[4 * s]];
            const __global elem_t *src = buf + offset + (inst * rows + p) * (ulong)cols;
            __global elem_t *dst = saved + (inst * slots + slot) * (ulong)cols;
            C2R_BATCHED(cols, v[b] = src[k];, dst[k] = v[b];)
        }
    }
}

/* Every row of a segment takes the next one's content (element k per
 * work-item; a unit is a segment and lsz consecutive elements of its
 * rows).  With C2R_WALK_SHARED (the GPU kernels) the segment's row
 * offsets come from the table once per work-group, into local memory,
 * before any row's load: read from the table in each row's branch, each
 * row's load waited for its entry and the stores read the table again
 * (H200, Nsight Compute: a third of the walk's stalls); kept in each
 * work-item's registers, they took 113 registers for 32 rows (25 %
 * occupancy).  H200, c2r_save_heads + c2r_walk_rows in copies' time on
 * 2801 x 10007 and 4440 x 5863 (tuning/gpu_c2r_ncu.sh): fp32 1.56 and
 * 1.72 from the table, 1.51 and 1.58 shared, with 24 rows; fp64 1.36 and
 * 1.46, 1.34 and 1.36.  The CPU kernels read the table (the barriers cost
 * more there, src/stage_c2r_split.c). */
#ifndef C2R_WALK_SHARED
#define C2R_WALK_SHARED 1
#endif
C2R_WALK_KERNEL(c2r_walk_rows)
{
    const uint lsz = (uint)get_local_size(0), lid = (uint)get_local_id(0);
    const uint chunks = (cols - 1) / lsz + 1;
    const ulong units = instances * segments * chunks;
#if C2R_WALK_SHARED
    CLIPT_GROUP_ARRAY(c2r_index_t, at, C2R_WALK);
#endif
    for (ulong unit = clipt_group_id(); unit < units; unit += get_num_groups(0)) {
        const ulong rest = unit / chunks;
        const uint k = (uint)(unit - rest * chunks) * lsz + lid;
        const ulong inst = rest / segments;
        const uint s = (uint)(rest - inst * segments);
        const __global uint *pos = table + 4 * (ulong)segments + table[4 * s];
        const uint len = table[4 * s + 1], tail = table[4 * s + 3];
        __global elem_t *base = buf + offset + inst * rows * (ulong)cols + k;
#if C2R_WALK_SHARED
        for (uint t = lid; t < len; t += lsz)
            at[t] = (c2r_index_t)pos[t] * cols;
        barrier(CLK_LOCAL_MEM_FENCE);
#define C2R_WALK_AT(t) at[t]
#else
#define C2R_WALK_AT(t) ((c2r_index_t)pos[t] * cols)
#endif
        if (k < cols) { /* every work-item at the barriers */
            elem_t v[C2R_WALK];
            const __global elem_t *next = tail == C2R_NO_SLOT
                                              ? base + C2R_WALK_AT(0)
                                              : saved + (inst * slots + tail) * (ulong)cols + k;
            _Pragma("unroll") for (uint t = 0; t < C2R_WALK; t++) {
                if (t < len)
                    v[t] = t + 1 < len ? base[C2R_WALK_AT(min(t + 1, C2R_WALK - 1u))] : *next;
            }
            _Pragma("unroll") for (uint t = 0; t < C2R_WALK; t++) {
                if (t < len)
                    base[C2R_WALK_AT(t)] = v[t];
            }
        }
#undef C2R_WALK_AT
#if C2R_WALK_SHARED
        barrier(CLK_LOCAL_MEM_FENCE); /* at[] read by all before the next unit's */
#endif
    }
}

#endif
