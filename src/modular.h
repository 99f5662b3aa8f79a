/* Modular arithmetic on 64-bit numbers for the cycle algebra (cycle_algebra.c):
 * products, powers, inverses, primality and factorisation.  No policy. */
#ifndef CLIPT_MODULAR_H
#define CLIPT_MODULAR_H

#include <stdint.h>

/* x * y mod m for x, y < m (m >= 1).  64-bit products overflow as soon as
 * m exceeds 2^32, which stages of more than 2^32 positions reach; below
 * that the plain product is cheaper. */
static inline uint64_t clipt_mulmod(uint64_t x, uint64_t y, uint64_t m)
{
    __extension__ typedef unsigned __int128 u128;
    if (m <= UINT32_MAX)
        return x * y % m;
    return (uint64_t)((u128)x * y % m);
}

/* Repeated products by one factor y modulo m (Shoup's method): with
 * y_shoup = floor(y * 2^64 / m) made once, each product is two multiplies
 * and a subtraction instead of a 128-bit division, which is what cutting
 * tens of thousands of cycle segments at plan creation spends its time on.
 * Needs y < m < 2^63 and x < m. */
static inline uint64_t clipt_shoup_prepare(uint64_t y, uint64_t m)
{
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)y << 64) / m);
}

static inline uint64_t clipt_mulmod_shoup(uint64_t x, uint64_t y, uint64_t y_shoup,
                                          uint64_t m)
{
    __extension__ typedef unsigned __int128 u128;
    const uint64_t q = (uint64_t)(((u128)x * y_shoup) >> 64);
    const uint64_t r = x * y - q * m; /* mod 2^64: the remainder, or it + m */
    return r >= m ? r - m : r;
}

/* x^e mod m (m >= 1; 0^0 = 1 mod m). */
uint64_t clipt_powmod(uint64_t x, uint64_t e, uint64_t m);

/* The inverse of x modulo m, for gcd(x, m) = 1 and m >= 2; 0 otherwise. */
uint64_t clipt_invmod(uint64_t x, uint64_t m);

/* Greatest common divisor; gcd(x, 0) = x. */
uint64_t clipt_gcd64(uint64_t x, uint64_t y);

/* Whether n is prime (deterministic for every 64-bit n). */
int clipt_is_prime64(uint64_t n);

/* The prime factorisation of n >= 1: primes ascending, with exponents.  A
 * 64-bit number has at most 15 distinct prime factors. */
#define CLIPT_MAX_PRIMES 16
typedef struct clipt_factors {
    uint64_t p[CLIPT_MAX_PRIMES];
    unsigned e[CLIPT_MAX_PRIMES];
    unsigned count;
} clipt_factors;

void clipt_factor64(uint64_t n, clipt_factors *f);

#endif
