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

/* The output's axes as an odometer over the input: out_dims[t] =
 * dims[perm[t]], in_stride[t] the input stride (elements) of that axis. */
typedef struct permute_walk {
    unsigned ndim;
    size_t out_dims[8], in_stride[8], idx[8];
    size_t src; /* input index of the current output element */
} permute_walk;

/* The walk positioned at output element k; returns the element count. */
static size_t walk_start(permute_walk *w, unsigned ndim, const size_t *dims,
                         const unsigned *perm, size_t k)
{
    size_t stride[8], count = 1;
    for (unsigned a = ndim; a-- > 0;) {
        stride[a] = count;
        count *= dims[a];
    }
    w->ndim = ndim;
    w->src = 0;
    for (unsigned t = ndim; t-- > 0;) {
        w->out_dims[t] = dims[perm[t]];
        w->in_stride[t] = stride[perm[t]];
        w->idx[t] = k % w->out_dims[t];
        k /= w->out_dims[t];
        w->src += w->idx[t] * w->in_stride[t];
    }
    return count;
}

/* To the next output element (the last axis fastest). */
static inline void walk_step(permute_walk *w)
{
    for (unsigned t = w->ndim; t-- > 0;) {
        w->src += w->in_stride[t];
        if (++w->idx[t] < w->out_dims[t])
            return;
        w->src -= w->in_stride[t] * w->out_dims[t];
        w->idx[t] = 0;
    }
}

void hostmat_permute(const unsigned char *in, unsigned char *out, unsigned ndim,
                     const size_t *dims, const unsigned *perm, size_t elem)
{
    permute_walk w;
    const size_t count = walk_start(&w, ndim, dims, perm, 0);
    /* walk the output in order; the input index follows */
    for (size_t k = 0; k < count; k++) {
        memcpy(out + k * elem, in + w.src * elem, elem);
        walk_step(&w);
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

/* A job's result: how many elements differ, the index of the first. */
typedef struct wrong_count {
    size_t wrong, first;
} wrong_count;

typedef struct check_job {
    const unsigned char *got, *orig;
    size_t rows, cols, elem;
    size_t first_block, end_block; /* [first, end) of the block grid      */
    wrong_count *out;
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

/* Counts the elements of one segment that differ (the rare path); the
 * first one's index is index + k. */
static void count_wrong(wrong_count *out, const unsigned char *got, const unsigned char *want,
                        size_t n, size_t elem, size_t index)
{
    for (size_t k = 0; k < n; k++)
        if (memcmp(got + k * elem, want + k * elem, elem) != 0) {
            if (out->wrong++ == 0)
                out->first = index + k;
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
            count_wrong(job->out, got, column, n, e, j * job->rows + i0);
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

/* Runs worker on jobs 0..threads-1 (job_size bytes each from `jobs`), on
 * their own POSIX threads but the first; a thread that cannot start leaves
 * its job to this one. */
static void run_jobs(void *jobs, size_t job_size, unsigned threads, void *(*worker)(void *))
{
    pthread_t ids[MAX_CHECK_THREADS];
    int started[MAX_CHECK_THREADS] = {0};
    unsigned char *job = jobs;
    for (unsigned t = 1; t < threads; t++)
        started[t] = pthread_create(&ids[t], NULL, worker, job + t * job_size) == 0;
    for (unsigned t = 0; t < threads; t++)
        if (!started[t])
            worker(job + t * job_size);
    for (unsigned t = 0; t < threads; t++)
        if (started[t])
            pthread_join(ids[t], NULL);
}

/* The sum of the jobs' counts; the lowest first index into *first. */
static size_t tally(const wrong_count *counts, unsigned threads, size_t *first)
{
    size_t total = 0, lowest = SIZE_MAX;
    for (unsigned t = 0; t < threads; t++) {
        total += counts[t].wrong;
        if (counts[t].wrong && counts[t].first < lowest)
            lowest = counts[t].first;
    }
    if (total && first)
        *first = lowest;
    return total;
}

static unsigned clamp_threads(unsigned threads, size_t parts)
{
    threads = threads < 1 ? 1 : threads > MAX_CHECK_THREADS ? MAX_CHECK_THREADS : threads;
    if (threads > parts)
        threads = parts ? (unsigned)parts : 1;
    return threads;
}

size_t hostmat_compare_transposed(const unsigned char *got, const unsigned char *orig,
                                  size_t rows, size_t cols, size_t elem,
                                  unsigned threads, size_t *first)
{
    const size_t blocks = ((rows + CHECK_BLOCK - 1) / CHECK_BLOCK) *
                          ((cols + CHECK_BLOCK - 1) / CHECK_BLOCK);
    check_job jobs[MAX_CHECK_THREADS];
    wrong_count counts[MAX_CHECK_THREADS] = {{0, 0}};
    threads = clamp_threads(threads, blocks);
    for (unsigned t = 0; t < threads; t++) {
        const check_job job = {got, orig, rows, cols, elem, blocks * t / threads,
                               blocks * (t + 1) / threads, &counts[t]};
        jobs[t] = job;
    }
    run_jobs(jobs, sizeof jobs[0], threads, check_worker);
    return tally(counts, threads, first);
}

/* ---- threaded check against a permutation --------------------------- */

enum { PERMUTE_CHUNK = 256 };

typedef struct permute_job {
    const unsigned char *got, *orig;
    unsigned ndim;
    const size_t *dims;
    const unsigned *perm;
    size_t elem, begin, end;   /* output elements [begin, end)           */
    wrong_count *out;
} permute_job;

/* Gathers the expected output in chunks and compares; elem is a constant
 * where it is inlined, so that an element's copy is a plain move. */
static inline void check_permuted(permute_job *job, size_t elem, unsigned char *want)
{
    permute_walk w;
    walk_start(&w, job->ndim, job->dims, job->perm, job->begin);
    for (size_t k = job->begin; k < job->end;) {
        const size_t n = job->end - k < PERMUTE_CHUNK ? job->end - k : PERMUTE_CHUNK;
        for (size_t i = 0; i < n; i++) {
            memcpy(want + i * elem, job->orig + w.src * elem, elem);
            walk_step(&w);
        }
        if (memcmp(job->got + k * elem, want, n * elem) != 0)
            count_wrong(job->out, job->got + k * elem, want, n, elem, k);
        k += n;
    }
}

static void *permute_worker(void *arg)
{
    permute_job *job = arg;
    unsigned char want[PERMUTE_CHUNK * MAX_ELEM];
    switch (job->elem) {
    case 1: check_permuted(job, 1, want); break;
    case 2: check_permuted(job, 2, want); break;
    case 4: check_permuted(job, 4, want); break;
    case 8: check_permuted(job, 8, want); break;
    default: check_permuted(job, 16, want); break;
    }
    return NULL;
}

size_t hostmat_compare_permuted(const unsigned char *got, const unsigned char *orig,
                                unsigned ndim, const size_t *dims, const unsigned *perm,
                                size_t elem, unsigned threads, size_t *first)
{
    permute_job jobs[MAX_CHECK_THREADS];
    wrong_count counts[MAX_CHECK_THREADS] = {{0, 0}};
    size_t count = 1;
    for (unsigned a = 0; a < ndim; a++)
        count *= dims[a];
    threads = clamp_threads(threads, count / PERMUTE_CHUNK);
    for (unsigned t = 0; t < threads; t++) {
        const permute_job job = {got, orig, ndim, dims, perm, elem, count * t / threads,
                                 count * (t + 1) / threads, &counts[t]};
        jobs[t] = job;
    }
    run_jobs(jobs, sizeof jobs[0], threads, permute_worker);
    return tally(counts, threads, first);
}
