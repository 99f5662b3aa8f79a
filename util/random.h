/* A small deterministic pseudo-random generator (splitmix64): one seed
 * gives the same numbers on every machine, so random shapes and patterns
 * are reproducible. */
#ifndef CLIPT_UTIL_RANDOM_H
#define CLIPT_UTIL_RANDOM_H

#include <stddef.h>
#include <stdint.h>

/* The next number of the sequence that *state (the seed, at first)
 * stands in; advances *state. */
uint64_t util_splitmix64(uint64_t *state);

/* A number in [lo, hi] (lo <= hi) drawn from util_splitmix64. */
size_t util_rand_range(uint64_t *state, size_t lo, size_t hi);

#endif
