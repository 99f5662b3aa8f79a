/* Host-side matrices: fill pattern, reference transpose, comparison. */
#include "hostmat.h"

#include <stdint.h>
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
    for (size_t i = 0; i < count; i++) {
        unsigned char *e = data + i * elem;
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
