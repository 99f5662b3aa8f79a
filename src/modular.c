/* Modular arithmetic on 64-bit numbers (see modular.h). */
#include "modular.h"

/* Trial division covers the primes below this; a cofactor below its square
 * is prime. */
#define TRIAL_LIMIT 1000u

uint64_t clipt_powmod(uint64_t x, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    x %= m;
    while (e) {
        if (e & 1)
            r = clipt_mulmod(r, x, m);
        x = clipt_mulmod(x, x, m);
        e >>= 1;
    }
    return r;
}

uint64_t clipt_gcd64(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t r = x % y;
        x = y;
        y = r;
    }
    return x;
}

uint64_t clipt_invmod(uint64_t x, uint64_t m)
{
    /* extended Euclid on (m, x): the coefficients stay below m in absolute
     * value, so they are kept as magnitudes with a parity for the sign */
    uint64_t r0 = m, r1 = x % m, s0 = 0, s1 = 1;
    int neg = 0; /* sign of s1 is (-1)^(steps) */
    unsigned steps = 0;
    if (m < 2)
        return 0;
    while (r1) {
        const uint64_t q = r0 / r1, r2 = r0 - q * r1, s2 = s0 + q * s1;
        r0 = r1;
        r1 = r2;
        s0 = s1;
        s1 = s2;
        steps++;
    }
    if (r0 != 1)
        return 0;
    /* x * s0 = (-1)^(steps + 1) mod m */
    neg = (steps & 1) == 0;
    return neg ? m - s0 % m : s0 % m;
}

/* Whether n (odd, > 2) passes the strong probable-prime test to base w. */
static int strong_probable_prime(uint64_t n, uint64_t w)
{
    uint64_t d = n - 1, x;
    unsigned s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    x = clipt_powmod(w % n, d, n);
    if (x == 1 || x == n - 1 || w % n == 0)
        return 1;
    for (unsigned i = 1; i < s; i++) {
        x = clipt_mulmod(x, x, n);
        if (x == n - 1)
            return 1;
    }
    return 0;
}

int clipt_is_prime64(uint64_t n)
{
    /* the first 12 primes as bases decide every n < 3.3 * 10^24 */
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return 0;
    for (unsigned i = 0; i < sizeof bases / sizeof *bases; i++) {
        if (n == bases[i])
            return 1;
        if (n % bases[i] == 0)
            return 0;
    }
    for (unsigned i = 0; i < sizeof bases / sizeof *bases; i++)
        if (!strong_probable_prime(n, bases[i]))
            return 0;
    return 1;
}

/* A non-trivial factor of the odd composite n (Pollard's rho with Brent's
 * cycle finding and batched gcds); tries further constants until one
 * splits n. */
static uint64_t rho_factor(uint64_t n)
{
    for (uint64_t c = 1;; c++) {
        uint64_t y = 2, x = 2, q = 1, g = 1, ys = 2;
        const uint64_t batch = 64;
        for (uint64_t r = 1; g == 1; r <<= 1) {
            x = y;
            for (uint64_t i = 0; i < r; i++)
                y = (clipt_mulmod(y, y, n) + c) % n;
            for (uint64_t k = 0; k < r && g == 1; k += batch) {
                ys = y;
                for (uint64_t i = 0; i < batch && i < r - k; i++) {
                    y = (clipt_mulmod(y, y, n) + c) % n;
                    q = clipt_mulmod(q, x > y ? x - y : y - x, n);
                }
                g = clipt_gcd64(q, n);
            }
        }
        if (g == n) /* the batch overshot: step through it one by one */
            do {
                ys = (clipt_mulmod(ys, ys, n) + c) % n;
                g = clipt_gcd64(x > ys ? x - ys : ys - x, n);
            } while (g == 1);
        if (g != n)
            return g;
    }
}

static void add_prime(clipt_factors *f, uint64_t p, unsigned e)
{
    unsigned i = 0;
    while (i < f->count && f->p[i] < p)
        i++;
    if (i < f->count && f->p[i] == p) {
        f->e[i] += e;
        return;
    }
    for (unsigned j = f->count; j > i; j--) {
        f->p[j] = f->p[j - 1];
        f->e[j] = f->e[j - 1];
    }
    f->p[i] = p;
    f->e[i] = e;
    f->count++;
}

/* Adds the factorisation of n (no prime factor below TRIAL_LIMIT). */
static void factor_large(uint64_t n, clipt_factors *f)
{
    if (n == 1)
        return;
    if ((uint64_t)TRIAL_LIMIT * TRIAL_LIMIT > n || clipt_is_prime64(n)) {
        add_prime(f, n, 1);
        return;
    }
    const uint64_t g = rho_factor(n);
    factor_large(g, f);
    factor_large(n / g, f);
}

void clipt_factor64(uint64_t n, clipt_factors *f)
{
    f->count = 0;
    for (uint64_t p = 2; p < TRIAL_LIMIT && p * p <= n; p += p == 2 ? 1 : 2) {
        unsigned e = 0;
        while (n % p == 0) {
            n /= p;
            e++;
        }
        if (e)
            add_prime(f, p, e);
    }
    factor_large(n, f);
}
