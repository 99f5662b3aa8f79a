/* The walk of every position of the transposition (see cycles.h): the
 * tests' oracle for the cycle algebra, and the old method for comparisons. */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

/* Positions the host is willing to walk at plan creation (bitmap of 32 MiB,
 * a few hundred milliseconds); larger stages use the flag-based kernel. */
#define CLIPT_MAX_WALK ((uint64_t)1 << 28)

static int grow(clipt_segments *s, size_t *cap)
{
    size_t n = *cap ? *cap * 2 : 1024;
    cl_ulong *start = realloc(s->start, n * sizeof *start);
    if (!start)
        return 0;
    s->start = start;
    cl_uint *length = realloc(s->length, n * sizeof *length);
    if (!length)
        return 0;
    s->length = length;
    cl_uint *slot = realloc(s->slot, n * sizeof *slot);
    if (!slot)
        return 0;
    s->slot = slot;
    *cap = n;
    return 1;
}

clipt_status clipt_cycle_segments_walk(uint64_t a, uint64_t b, uint32_t seg_len,
                                       size_t max_segments, clipt_segments *out)
{
    const uint64_t ab = a * b;
    uint64_t *visited;
    size_t cap = 0;
    memset(out, 0, sizeof *out);
    if (ab > CLIPT_MAX_WALK || seg_len < 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    visited = calloc((size_t)(ab + 63) / 64, sizeof *visited);
    if (!visited)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint64_t k = 0; k < ab; k++) {
        if (visited[k >> 6] >> (k & 63) & 1)
            continue;
        const size_t first = out->count;
        uint64_t p = k, i = 0;
        do {
            visited[p >> 6] |= (uint64_t)1 << (p & 63);
            if (i % seg_len == 0) {
                clipt_status status = CLIPT_SUCCESS;
                if (out->count >= max_segments)
                    status = CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
                else if (out->count == cap && !grow(out, &cap))
                    status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
                if (status != CLIPT_SUCCESS) {
                    free(visited);
                    clipt_segments_free(out);
                    return status;
                }
                out->start[out->count] = p;
                out->length[out->count] = 0;
                out->count++;
            }
            out->length[out->count - 1]++;
            p = clipt_transpose_destination(p, a, b);
            i++;
        } while (p != k);
        if (i == 1) {
            out->count--; /* a fixed point does not move */
        } else if (out->count - first == 1) {
            out->length[first] |= CLIPT_SEGMENT_WHOLE_CYCLE;
        } else {
            for (size_t g = first; g < out->count; g++)
                out->slot[g] = (cl_uint)out->saved++;
        }
    }
    free(visited);
    return CLIPT_SUCCESS;
}
