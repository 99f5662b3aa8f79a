/* The walk of every position of the transposition (see cycles.h): the
 * tests' oracle for the cycle algebra, and the old method for comparisons. */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

/* Positions the host is willing to walk at plan creation (bitmap of 32 MiB,
 * a few hundred milliseconds); larger stages use the flag-based kernel. */
#define CLIPT_MAX_WALK ((uint64_t)1 << 28)

/* A segment as the walk finds it (packed into the table block at the end). */
typedef struct walked {
    cl_ulong start;
    cl_uint length, slot;
} walked;

static int grow(walked **w, size_t *cap)
{
    size_t n = *cap ? *cap * 2 : 1024;
    walked *more = realloc(*w, n * sizeof *more);
    if (!more)
        return 0;
    *w = more;
    *cap = n;
    return 1;
}

/* The walked segments in the table's layout (cycles.h). */
static clipt_status pack(const walked *w, size_t count, size_t saved, clipt_segments *out)
{
    if (!clipt_segments_alloc(out, count))
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    for (size_t g = 0; g < count; g++) {
        out->start[g] = w[g].start;
        out->length[g] = w[g].length;
        out->slot[g] = w[g].slot;
    }
    out->count = count;
    out->saved = saved;
    return CLIPT_SUCCESS;
}

clipt_status clipt_cycle_segments_walk(uint64_t a, uint64_t b, uint32_t seg_len,
                                       size_t max_segments, clipt_segments *out)
{
    const uint64_t ab = a * b;
    uint64_t *visited;
    walked *w = NULL;
    size_t cap = 0, count = 0, saved = 0;
    clipt_status status = CLIPT_SUCCESS;
    memset(out, 0, sizeof *out);
    if (ab > CLIPT_MAX_WALK || seg_len < 1)
        return CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
    visited = calloc((size_t)(ab + 63) / 64, sizeof *visited);
    if (!visited)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint64_t k = 0; k < ab && status == CLIPT_SUCCESS; k++) {
        if (visited[k >> 6] >> (k & 63) & 1)
            continue;
        const size_t first = count;
        uint64_t p = k, i = 0;
        do {
            visited[p >> 6] |= (uint64_t)1 << (p & 63);
            if (i % seg_len == 0) {
                if (count >= max_segments)
                    status = CLIPT_ERROR_EXCEEDS_DEVICE_LIMITS;
                else if (count == cap && !grow(&w, &cap))
                    status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
                if (status != CLIPT_SUCCESS)
                    break;
                w[count].start = p;
                w[count].length = 0;
                w[count++].slot = 0;
            }
            w[count - 1].length++;
            p = clipt_transpose_destination(p, a, b);
            i++;
        } while (p != k);
        if (status != CLIPT_SUCCESS)
            break;
        if (i == 1) {
            count--; /* a fixed point does not move */
        } else if (count - first == 1) {
            w[first].length |= CLIPT_SEGMENT_WHOLE_CYCLE;
        } else {
            for (size_t g = first; g < count; g++)
                w[g].slot = (cl_uint)saved++;
        }
    }
    free(visited);
    if (status == CLIPT_SUCCESS)
        status = pack(w, count, saved, out);
    free(w);
    return status;
}
