/* Host-side matrices: fill pattern, reference transpose, comparison. */
#include "hostmat.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Invertible integer mixers (xor-shift-multiply rounds with odd
 * multipliers): neighbouring indices get unrelated-looking values, yet no
 * two indices collide. */
static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

void hostmat_fill(unsigned char *data, size_t count, size_t elem)
{
    hostmat_fill_range(data, 0, count, elem);
}

void hostmat_fill_range(unsigned char *data, size_t first, size_t count, size_t elem)
{
    for (size_t k = 0; k < count; k++) {
        const size_t i = first + k;
        unsigned char *e = data + k * elem;
        if (elem <= 4) {
            const uint32_t v = mix32((uint32_t)i);
            memcpy(e, &v, elem); /* low-order bytes on little-endian hosts */
        } else {
            /* the second word scrambles the first again so that the two
             * halves of a 16-byte element differ */
            const uint64_t v[2] = {mix64(i), mix64(mix64(i) ^ 0x5851f42d4c957f2dULL)};
            memcpy(e, v, elem);
        }
    }
}

void hostmat_transpose(const unsigned char *in, unsigned char *out,
                       size_t rows, size_t cols, size_t elem)
{
    /* blocks keep both the reads and the strided writes in cache */
    enum { B = 32 };
    for (size_t i0 = 0; i0 < rows; i0 += B)
        for (size_t j0 = 0; j0 < cols; j0 += B) {
            const size_t i1 = i0 + B < rows ? i0 + B : rows;
            const size_t j1 = j0 + B < cols ? j0 + B : cols;
            for (size_t i = i0; i < i1; i++)
                for (size_t j = j0; j < j1; j++)
                    memcpy(out + (j * rows + i) * elem, in + (i * cols + j) * elem, elem);
        }
}

void hostmat_permute(const unsigned char *in, unsigned char *out, unsigned ndim,
                     const size_t *dims, const unsigned *perm, size_t elem)
{
    size_t stride[8], idx[8] = {0}, count = 1, src = 0;
    for (unsigned a = ndim; a-- > 0;) {
        stride[a] = count;
        count *= dims[a];
    }
    /* walk the output in order, an odometer over its axes; src follows */
    for (size_t k = 0; k < count; k++) {
        memcpy(out + k * elem, in + src * elem, elem);
        for (unsigned t = ndim; t-- > 0;) {
            const unsigned a = perm[t];
            src += stride[a];
            if (++idx[t] < dims[a])
                break;
            src -= stride[a] * dims[a];
            idx[t] = 0;
        }
    }
}

size_t hostmat_compare(const unsigned char *got, const unsigned char *want,
                       size_t count, size_t elem, size_t *first)
{
    size_t wrong = 0;
    /* the common case, equal, at memcmp speed */
    if (memcmp(got, want, count * elem) == 0)
        return 0;
    for (size_t i = 0; i < count; i++)
        if (memcmp(got + i * elem, want + i * elem, elem) != 0) {
            if (wrong == 0 && first)
                *first = i;
            wrong++;
        }
    return wrong;
}

/* ---- threaded check against the transpose ----------------------------- */

/* Square blocks of the comparison: one block of the original (B rows of
 * B elements) and its mirror in the result both stay in L1/L2. */
enum { CHECK_BLOCK = 64, MAX_ELEM = 16, MAX_CHECK_THREADS = 64 };

typedef struct check_job {
    const unsigned char *got, *orig;
    size_t rows, cols, elem;
    size_t first_block, end_block; /* [first, end) of the block grid      */
    size_t wrong, first;           /* result: count and first wrong index */
} check_job;

/* Copies n elements, `stride` bytes apart, into consecutive ones.  Called
 * with a constant elem, so that the copy of one element is a plain move. */
static inline void gather(unsigned char *out, const unsigned char *in, size_t stride,
                          size_t n, size_t elem)
{
    for (size_t k = 0; k < n; k++)
        memcpy(out + k * elem, in + k * stride, elem);
}

static void gather_elems(unsigned char *out, const unsigned char *in, size_t stride,
                         size_t n, size_t elem)
{
    switch (elem) {
    case 1: gather(out, in, stride, n, 1); break;
    case 2: gather(out, in, stride, n, 2); break;
    case 4: gather(out, in, stride, n, 4); break;
    case 8: gather(out, in, stride, n, 8); break;
    default: gather(out, in, stride, n, 16); break;
    }
}

/* Counts the elements of one row segment that differ (the rare path). */
static void count_wrong(check_job *job, const unsigned char *got, const unsigned char *want,
                        size_t n, size_t index)
{
    for (size_t k = 0; k < n; k++)
        if (memcmp(got + k * job->elem, want + k * job->elem, job->elem) != 0) {
            if (job->wrong++ == 0)
                job->first = index + k;
        }
}

/* Block b of the grid covers rows [i0, i0+B) and columns [j0, j0+B) of the
 * original; blocks run column-block-major so that each job reads whole
 * stretches of the result's rows. */
static void check_block(check_job *job, size_t b, unsigned char *column)
{
    const size_t row_blocks = (job->rows + CHECK_BLOCK - 1) / CHECK_BLOCK;
    const size_t i0 = (b % row_blocks) * CHECK_BLOCK, j0 = (b / row_blocks) * CHECK_BLOCK;
    const size_t i1 = i0 + CHECK_BLOCK < job->rows ? i0 + CHECK_BLOCK : job->rows;
    const size_t j1 = j0 + CHECK_BLOCK < job->cols ? j0 + CHECK_BLOCK : job->cols;
    const size_t e = job->elem, n = i1 - i0;
    for (size_t j = j0; j < j1; j++) {
        /* column j of the original, rows i0..i1, is row j of the result */
        const unsigned char *got = job->got + (j * job->rows + i0) * e;
        gather_elems(column, job->orig + (i0 * job->cols + j) * e, job->cols * e, n, e);
        if (memcmp(got, column, n * e) != 0)
            count_wrong(job, got, column, n, j * job->rows + i0);
    }
}

static void *check_worker(void *arg)
{
    check_job *job = arg;
    unsigned char column[CHECK_BLOCK * MAX_ELEM];
    for (size_t b = job->first_block; b < job->end_block; b++)
        check_block(job, b, column);
    return NULL;
}

size_t hostmat_compare_transposed(const unsigned char *got, const unsigned char *orig,
                                  size_t rows, size_t cols, size_t elem,
                                  unsigned threads, size_t *first)
{
    const size_t blocks = ((rows + CHECK_BLOCK - 1) / CHECK_BLOCK) *
                          ((cols + CHECK_BLOCK - 1) / CHECK_BLOCK);
    check_job jobs[MAX_CHECK_THREADS];
    pthread_t ids[MAX_CHECK_THREADS];
    int started[MAX_CHECK_THREADS] = {0};
    size_t wrong = 0, first_wrong = SIZE_MAX;
    threads = threads < 1 ? 1 : threads > MAX_CHECK_THREADS ? MAX_CHECK_THREADS : threads;
    if (threads > blocks)
        threads = blocks ? (unsigned)blocks : 1;
    for (unsigned t = 0; t < threads; t++) {
        const check_job job = {got, orig, rows, cols, elem, blocks * t / threads,
                               blocks * (t + 1) / threads, 0, 0};
        jobs[t] = job;
        /* a thread that cannot start leaves its share to this one */
        started[t] = t > 0 && pthread_create(&ids[t], NULL, check_worker, &jobs[t]) == 0;
    }
    for (unsigned t = 0; t < threads; t++)
        if (!started[t])
            check_worker(&jobs[t]);
    for (unsigned t = 0; t < threads; t++) {
        if (started[t])
            pthread_join(ids[t], NULL);
        wrong += jobs[t].wrong;
        if (jobs[t].wrong && jobs[t].first < first_wrong)
            first_wrong = jobs[t].first;
    }
    if (wrong && first)
        *first = first_wrong;
    return wrong;
}
