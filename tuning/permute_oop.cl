/* The measuring stick of issue 15: an out-of-place axis permutation, what a
 * user with spare memory would write.  One work-item per output element
 * (writes coalesced, reads gathered), the output index split into the
 * output's coordinates, each times the input stride of its axis.
 * Element type and index width by -D; the dimensions in a constant
 * buffer (at most 8). */
#ifndef ELEM_TYPE
#define ELEM_TYPE uint
#endif
#ifndef NDIM
#define NDIM 2
#endif
#ifndef INDEX_TYPE
#define INDEX_TYPE uint
#endif

__kernel void permute_oop(__global const ELEM_TYPE *src, __global ELEM_TYPE *dst,
                          ulong count, __constant ulong *odims, __constant ulong *istride)
{
    for (ulong k = get_global_id(0); k < count; k += get_global_size(0)) {
        INDEX_TYPE rest = (INDEX_TYPE)k, s = 0;
        for (int t = NDIM - 1; t >= 0; t--) {
            const INDEX_TYPE d = (INDEX_TYPE)odims[t];
            s += (rest % d) * (INDEX_TYPE)istride[t];
            rest /= d;
        }
        dst[k] = src[s];
    }
}
