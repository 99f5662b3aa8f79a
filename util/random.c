#include "random.h"

uint64_t util_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

size_t util_rand_range(uint64_t *state, size_t lo, size_t hi)
{
    return lo + (size_t)(util_splitmix64(state) % (uint64_t)(hi - lo + 1));
}
