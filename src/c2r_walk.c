/* The cycles of the row walk, listed by following them over a bitmap of
 * the rows (the permutation has no number theory as handy as the TPDS
 * stages' multiplicative one: cycles.c). */
#include "c2r_walk.h"
#include "modular.h"

#include <stdlib.h>
#include <string.h>

/* q(i) = (i*N - floor(i / a)) mod M, the column shuffle's row permutation
 * (cl/c2r.cl, c2r_column_source: the shuffle of column j reads row
 * (q(i) + j) mod M). */
static uint64_t shuffle_rows(uint64_t rows, uint64_t cols, uint64_t a, uint64_t i)
{
    return ((i * (cols % rows)) % rows + rows - i / a) % rows;
}

/* pi(i) = (M - q(i)) mod M: the row a forward walk step at row i reads. */
static uint64_t walk_pi(uint64_t rows, uint64_t cols, uint64_t a, uint64_t i)
{
    return (rows - shuffle_rows(rows, cols, a, i)) % rows;
}

uint64_t clipt_c2r_walk_source(uint64_t rows, uint64_t cols, int inverse, uint64_t i)
{
    const uint64_t a = rows / clipt_gcd64(rows, cols);
    uint64_t x;
    if (!inverse)
        return walk_pi(rows, cols, a, i);
    for (x = 0; x < rows; x++) /* the tests' oracle only: O(M) */
        if (walk_pi(rows, cols, a, x) == i)
            return x;
    return rows;
}

int clipt_c2r_walk_short(uint64_t rows, uint64_t cols, unsigned most)
{
    const uint64_t g = (rows - cols % rows) % rows;
    uint64_t x = g;
    unsigned k;
    if (rows < 2 || g == 1)
        return 0; /* no row moves */
    for (k = 1; k <= most; k++, x = clipt_mulmod(x, g, rows))
        if (x == 1)
            return 1;
    return 0;
}

/* next[i]: the row that step i reads, for every row. */
static uint32_t *walk_sources(uint64_t rows, uint64_t cols, int inverse)
{
    const uint64_t a = rows / clipt_gcd64(rows, cols);
    uint32_t *next = malloc(rows * sizeof *next);
    uint64_t i;
    if (!next)
        return NULL;
    for (i = 0; i < rows; i++) {
        const uint32_t pi = (uint32_t)walk_pi(rows, cols, a, i);
        if (inverse)
            next[pi] = (uint32_t)i;
        else
            next[i] = pi;
    }
    return next;
}

/* Follows every cycle of next (fixed points left out): their positions in
 * walk order into order[], their lengths into *lengths (malloc'ed). */
static clipt_status follow_cycles(const uint32_t *next, uint64_t rows, uint32_t *order,
                                  size_t *moving, uint32_t **lengths, size_t *cycles)
{
    unsigned char *seen = calloc(rows, 1);
    size_t cap = 16, n = 0, count = 0;
    uint32_t *len = malloc(cap * sizeof *len);
    uint64_t i;
    if (!seen || !len) {
        free(seen);
        free(len);
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (i = 0; i < rows; i++) {
        uint32_t p = (uint32_t)i;
        const size_t start = n;
        if (seen[i] || next[i] == i)
            continue;
        do {
            seen[p] = 1;
            order[n++] = p;
            p = next[p];
        } while (p != i);
        if (count == cap) {
            uint32_t *more = realloc(len, 2 * cap * sizeof *len);
            if (!more) {
                free(seen);
                free(len);
                return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
            }
            len = more;
            cap *= 2;
        }
        len[count++] = (uint32_t)(n - start);
    }
    free(seen);
    *moving = n;
    *lengths = len;
    *cycles = count;
    return CLIPT_SUCCESS;
}

/* The segment records: each cycle cut into ceil(length / max_len)
 * segments; the segments of a cycle of several save their first rows in
 * consecutive slots, and each reads the next one's (the last the first's). */
static void cut_segments(const uint32_t *lengths, size_t cycles, unsigned max_len,
                         uint32_t *rec, size_t *slots)
{
    size_t c, first = 0, slot = 0;
    for (c = 0; c < cycles; c++) {
        const size_t parts = (lengths[c] + max_len - 1) / max_len;
        size_t s;
        for (s = 0; s < parts; s++, rec += 4) {
            rec[0] = (uint32_t)(first + s * max_len);
            rec[1] = (uint32_t)(s + 1 < parts ? max_len : lengths[c] - s * max_len);
            rec[2] = parts > 1 ? (uint32_t)(slot + s) : CLIPT_C2R_NO_SLOT;
            rec[3] = parts > 1 ? (uint32_t)(slot + (s + 1) % parts) : CLIPT_C2R_NO_SLOT;
        }
        slot += parts > 1 ? parts : 0;
        first += lengths[c];
    }
    *slots = slot;
}

clipt_status clipt_c2r_walk_make(uint64_t rows, uint64_t cols, int inverse, unsigned max_len,
                                 clipt_c2r_walk *out)
{
    uint32_t *next = NULL, *order = NULL, *lengths = NULL;
    size_t moving = 0, cycles = 0, segments = 0, c;
    clipt_status status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    memset(out, 0, sizeof *out);
    if (rows < 1 || rows > CLIPT_C2R_WALK_MAX_ROWS || cols < 1 || max_len < 1 || max_len > 32)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    next = walk_sources(rows, cols, inverse);
    order = malloc(rows * sizeof *order);
    if (!next || !order)
        goto cleanup;
    status = follow_cycles(next, rows, order, &moving, &lengths, &cycles);
    if (status != CLIPT_SUCCESS)
        goto cleanup;
    for (c = 0; c < cycles; c++)
        segments += (lengths[c] + max_len - 1) / max_len;
    out->bytes = (4 * segments + moving) * sizeof(uint32_t);
    out->table = malloc(out->bytes ? out->bytes : 1);
    if (!out->table) {
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto cleanup;
    }
    cut_segments(lengths, cycles, max_len, out->table, &out->slots);
    memcpy(out->table + 4 * segments, order, moving * sizeof *order);
    out->segments = segments;
    out->moving = moving;
cleanup:
    free(next);
    free(order);
    free(lengths);
    return status;
}

void clipt_c2r_walk_free(clipt_c2r_walk *w)
{
    free(w->table);
    memset(w, 0, sizeof *w);
}
