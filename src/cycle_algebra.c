/* The transposition's cycles from number theory (see cycle_algebra.h). */
#include "cycle_algebra.h"

#include <stdlib.h>
#include <string.h>

/* Cyclic factors of U(n): one per odd prime power, two for 2^e (e >= 3). */
#define MAX_COMPONENTS (CLIPT_MAX_PRIMES + 1)
/* Below this group order a logarithm digit is found by trying each value. */
#define LINEAR_SEARCH_LIMIT 64u

/* The logarithms of a that the classes share: for each prime q of N and
 * each q^e dividing N, log of a mod q^e to the generator gen[q] (for q = 2:
 * its sign, a = -1 mod 4, and its logarithm to 5 for e >= 3). */
typedef struct prime_logs {
    uint64_t gen;       /* primitive root mod every q^e (odd q)          */
    uint64_t log[64];   /* log[e] for q^e; for q = 2 the log to 5         */
    uint8_t sign[64];   /* q = 2: a = -1 mod 4 (the same for every e)     */
} prime_logs;

/* One cyclic factor of U(n) in a class. */
typedef struct component {
    uint64_t m;    /* its order                                         */
    uint64_t t;    /* log of a in it                                    */
    uint64_t Q;    /* the prime power modulus it lives in               */
    uint64_t gen;  /* its generator mod Q                               */
} component;

/* ---- discrete logarithms ------------------------------------------------ */

typedef struct baby_table {
    uint64_t *key, *val;
    size_t mask;
} baby_table;

/* d in [0, r) with gamma^d = h mod Q, gamma of order r (prime), by baby
 * steps and giant steps; r when there is none or memory ran out (only a
 * bug reaches either: h lies in <gamma> by construction). */
static uint64_t small_log(uint64_t gamma, uint64_t h, uint64_t r, uint64_t Q)
{
    if (r <= LINEAR_SEARCH_LIMIT) {
        uint64_t x = 1 % Q;
        for (uint64_t d = 0; d < r; d++, x = clipt_mulmod(x, gamma, Q))
            if (x == h)
                return d;
        return r;
    }
    uint64_t s = 1;
    while (s * s < r)
        s++;
    size_t size = 1;
    while (size < 2 * s)
        size <<= 1;
    baby_table t = {calloc(size, sizeof *t.key), calloc(size, sizeof *t.val), size - 1};
    uint64_t result = r;
    if (!t.key || !t.val)
        goto done;
    /* keys are stored + 1 so that 0 marks an empty slot */
    uint64_t x = 1 % Q;
    for (uint64_t j = 0; j < s; j++, x = clipt_mulmod(x, gamma, Q)) {
        size_t at = (size_t)(x * 0x9E3779B97F4A7C15u >> 17) & t.mask;
        while (t.key[at] && t.key[at] != x + 1)
            at = (at + 1) & t.mask;
        if (!t.key[at]) {
            t.key[at] = x + 1;
            t.val[at] = j;
        }
    }
    const uint64_t giant = clipt_invmod(clipt_powmod(gamma, s, Q), Q);
    uint64_t y = h;
    for (uint64_t i = 0; i < s + 1; i++, y = clipt_mulmod(y, giant, Q)) {
        size_t at = (size_t)(y * 0x9E3779B97F4A7C15u >> 17) & t.mask;
        while (t.key[at] && t.key[at] != y + 1)
            at = (at + 1) & t.mask;
        if (t.key[at]) {
            result = (i * s + t.val[at]) % r;
            break;
        }
    }
done:
    free(t.key);
    free(t.val);
    return result;
}

/* log_g(y) mod Q, g of order m whose factorisation is fm (Pohlig-Hellman:
 * one digit at a time in each prime piece, then CRT). */
static uint64_t discrete_log(uint64_t g, uint64_t y, uint64_t Q, uint64_t m,
                             const clipt_factors *fm)
{
    const uint64_t ginv = clipt_invmod(g, Q);
    uint64_t X = 0, M = 1;
    for (unsigned i = 0; i < fm->count; i++) {
        const uint64_t r = fm->p[i];
        uint64_t R = 1, x = 0;
        const uint64_t gamma = clipt_powmod(g, m / r, Q);
        for (unsigned k = 0; k < fm->e[i]; k++) {
            R *= r; /* r^(k+1) */
            const uint64_t h = clipt_powmod(clipt_mulmod(clipt_powmod(ginv, x, Q), y, Q),
                                            m / R, Q);
            x += small_log(gamma, h, r, Q) * (R / r);
        }
        /* X = X mod M and x mod R -> mod M*R */
        const uint64_t k = clipt_mulmod((x % R + R - X % R) % R, clipt_invmod(M % R, R), R);
        X += M * k;
        M *= R;
    }
    return m == 1 ? 0 : X % m;
}

/* ---- primitive roots and the shared logarithms ------------------------ */

/* A generator of U(q^e) for every e (q odd prime). */
static uint64_t primitive_root(uint64_t q, const clipt_factors *fq1)
{
    uint64_t g = 2;
    for (;; g++) {
        unsigned i = 0;
        while (i < fq1->count && clipt_powmod(g, (q - 1) / fq1->p[i], q) != 1)
            i++;
        if (i == fq1->count)
            break;
    }
    /* g generates U(q^2), hence every U(q^e), unless g^(q-1) = 1 mod q^2 */
    if (q < ((uint64_t)1 << 31) && clipt_powmod(g, q - 1, q * q) == 1)
        g += q;
    return g;
}

/* The factorisation of q^(e-1) * (q - 1) from that of q - 1. */
static void order_factors(uint64_t q, unsigned e, const clipt_factors *fq1, clipt_factors *out)
{
    *out = *fq1;
    if (e > 1) {
        unsigned i = 0;
        while (i < out->count && out->p[i] < q)
            i++;
        /* q does not divide q - 1: it goes after the smaller primes */
        for (unsigned j = out->count; j > i; j--) {
            out->p[j] = out->p[j - 1];
            out->e[j] = out->e[j - 1];
        }
        out->p[i] = q;
        out->e[i] = e - 1;
        out->count++;
    }
}

/* Each logarithm is checked by exponentiation: a wrong one (memory ran out
 * in the baby steps, or a bug) would give wrong cycle lengths, and with
 * them a wrong transposition; a failed check refuses the list instead. */
static int logs_of_two(uint64_t a, unsigned E, prime_logs *pl)
{
    for (unsigned e = 1; e <= E; e++) {
        const uint64_t Q = (uint64_t)1 << e;
        const uint64_t x = a % Q;
        pl->sign[e] = (uint8_t)(e >= 2 && x % 4 == 3);
        pl->log[e] = 0;
        if (e >= 3) {
            clipt_factors f = {.p = {2}, .e = {e - 2}, .count = 1};
            const uint64_t y = pl->sign[e] ? Q - x : x;
            pl->log[e] = discrete_log(5, y, Q, Q / 4, &f);
            if (clipt_powmod(5, pl->log[e], Q) != y)
                return 0;
        }
    }
    return 1;
}

static int logs_of_odd(uint64_t a, uint64_t q, unsigned E, prime_logs *pl)
{
    clipt_factors fq1, fm;
    uint64_t Q = 1, phi;
    clipt_factor64(q - 1, &fq1);
    pl->gen = primitive_root(q, &fq1);
    for (unsigned e = 1; e <= E; e++) {
        Q *= q;
        phi = Q / q * (q - 1);
        order_factors(q, e, &fq1, &fm);
        pl->log[e] = discrete_log(pl->gen % Q, a % Q, Q, phi, &fm);
        if (clipt_powmod(pl->gen % Q, pl->log[e], Q) != a % Q)
            return 0;
    }
    return 1;
}

/* ---- classes ------------------------------------------------------------ */

/* The cyclic factors of U(n) for n = prod q_i^f[i], with a's logarithms. */
static unsigned components_of(const clipt_cycle_structure *cs, const prime_logs *pl,
                              const unsigned *f, component *c)
{
    unsigned k = 0;
    for (unsigned i = 0; i < cs->fN.count; i++) {
        const uint64_t q = cs->fN.p[i];
        uint64_t Q = 1;
        if (f[i] == 0)
            continue;
        for (unsigned e = 0; e < f[i]; e++)
            Q *= q;
        if (q != 2) {
            c[k++] = (component){Q / q * (q - 1), pl[i].log[f[i]], Q, pl[i].gen % Q};
            continue;
        }
        if (f[i] >= 2)
            c[k++] = (component){2, pl[i].sign[f[i]], Q, Q - 1};
        if (f[i] >= 3)
            c[k++] = (component){Q / 4, pl[i].log[f[i]], Q, 5};
    }
    return k;
}

/* ord of a: the lcm of the orders of its components. */
static uint64_t order_of(const component *c, unsigned k)
{
    uint64_t ord = 1;
    for (unsigned i = 0; i < k; i++) {
        const uint64_t o = c[i].m / clipt_gcd64(c[i].t, c[i].m);
        ord = ord / clipt_gcd64(ord, o) * o;
    }
    return ord;
}

/* The shared logarithms, kept beside the classes (one allocation). */
static prime_logs *shared_logs(const clipt_cycle_structure *cs)
{
    return (prime_logs *)(void *)(cs->classes + cs->num_classes + 1);
}

static int compare_class(const void *x, const void *y)
{
    const clipt_cycle_class *p = x, *q = y;
    return (p->d > q->d) - (p->d < q->d);
}

int clipt_cycle_structure_init(uint64_t a, uint64_t b, clipt_cycle_structure *cs)
{
    unsigned k[CLIPT_MAX_PRIMES] = {0}, f[CLIPT_MAX_PRIMES];
    size_t divisors = 1;
    memset(cs, 0, sizeof *cs);
    cs->a = a;
    if (a * b <= 2)
        return 0; /* 1 x 1, 1 x 2 and 2 x 1: nothing moves */
    cs->N = a * b - 1;
    clipt_factor64(cs->N, &cs->fN);
    for (unsigned i = 0; i < cs->fN.count; i++)
        divisors *= cs->fN.e[i] + 1;
    /* classes, one spare entry, then the logs of each prime */
    cs->classes = malloc((divisors + 1) * sizeof *cs->classes +
                         cs->fN.count * sizeof(prime_logs) + sizeof(prime_logs));
    if (!cs->classes)
        return -1;
    prime_logs *pl = (prime_logs *)(void *)(cs->classes + divisors + 1);
    for (unsigned i = 0; i < cs->fN.count; i++) {
        const int ok = cs->fN.p[i] == 2 ? logs_of_two(a, cs->fN.e[i], &pl[i])
                                        : logs_of_odd(a, cs->fN.p[i], cs->fN.e[i], &pl[i]);
        if (!ok) {
            clipt_cycle_structure_free(cs);
            return -2;
        }
    }
    /* every divisor d < N: k = exponents of d, f = those of n = N/d */
    for (;;) {
        uint64_t d = 1;
        for (unsigned i = 0; i < cs->fN.count; i++) {
            f[i] = cs->fN.e[i] - k[i];
            for (unsigned e = 0; e < k[i]; e++)
                d *= cs->fN.p[i];
        }
        if (d < cs->N) {
            component c[MAX_COMPONENTS];
            const unsigned nc = components_of(cs, pl, f, c);
            uint64_t phi = 1;
            for (unsigned i = 0; i < nc; i++)
                phi *= c[i].m;
            const uint64_t ord = order_of(c, nc);
            if (ord > 1) {
                cs->classes[cs->num_classes++] = (clipt_cycle_class){d, ord, phi / ord};
                cs->cycles += phi / ord;
                cs->moved += phi;
            }
        }
        unsigned i = 0;
        while (i < cs->fN.count && k[i] == cs->fN.e[i])
            k[i++] = 0;
        if (i == cs->fN.count)
            break;
        k[i]++;
    }
    qsort(cs->classes, cs->num_classes, sizeof *cs->classes, compare_class);
    /* the logs move next to the (fewer) classes, where shared_logs finds them */
    memmove(shared_logs(cs), pl, cs->fN.count * sizeof *pl);
    return 0;
}

void clipt_cycle_structure_free(clipt_cycle_structure *cs)
{
    free(cs->classes);
    memset(cs, 0, sizeof *cs);
}

/* ---- leaders ------------------------------------------------------------ */

/* The unit of U(n) that is c.gen modulo c.Q and 1 modulo n / c.Q (CRT). */
static uint64_t lift(const component *c, uint64_t n)
{
    const uint64_t M = n / c->Q;
    if (M == 1)
        return c->gen % n;
    const uint64_t k = clipt_mulmod((c->gen + c->Q - 1) % c->Q, clipt_invmod(M % c->Q, c->Q),
                                    c->Q);
    return 1 + M * k;
}

int clipt_cycle_class_leaders(const clipt_cycle_structure *cs, size_t k, uint64_t *out)
{
    const clipt_cycle_class *cl = &cs->classes[k];
    const uint64_t n = cs->N / cl->d;
    unsigned f[CLIPT_MAX_PRIMES];
    component c[MAX_COMPONENTS];
    uint64_t box[MAX_COMPONENTS], G[MAX_COMPONENTS], v[MAX_COMPONENTS];
    uint64_t l[MAX_COMPONENTS] = {0}, pre[MAX_COMPONENTS + 1];
    uint64_t size = 1;
    for (unsigned i = 0; i < cs->fN.count; i++) {
        uint64_t rest = n;
        f[i] = 0;
        while (rest % cs->fN.p[i] == 0) {
            rest /= cs->fN.p[i];
            f[i]++;
        }
    }
    const unsigned nc = components_of(cs, shared_logs(cs), f, c);
    /* echelon reduction: component i of a coset moves by multiples of
     * gcd(v_i, m_i) only; what keeps it fixed is (m_i / gcd) * v */
    for (unsigned i = 0; i < nc; i++)
        v[i] = c[i].t % c[i].m;
    for (unsigned i = 0; i < nc; i++) {
        const uint64_t g = clipt_gcd64(v[i], c[i].m);
        box[i] = g;
        size *= g;
        for (unsigned j = i; j < nc; j++)
            v[j] = clipt_mulmod(v[j], (c[i].m / g) % c[j].m, c[j].m);
        G[i] = lift(&c[i], n);
    }
    if (size != cl->cycles || clipt_powmod(cs->a, cl->length, n) != 1 % n)
        return -1;
    /* the box in mixed radix, last component fastest: pre[i] is the
     * product of G_j^l_j for j < i */
    pre[0] = 1 % n;
    for (unsigned i = 0; i < nc; i++)
        pre[i + 1] = pre[i];
    for (uint64_t x = 0; x < size; x++) {
        out[x] = cl->d * pre[nc];
        unsigned i = nc;
        while (i > 0) {
            i--;
            if (++l[i] < box[i]) {
                pre[i + 1] = clipt_mulmod(pre[i + 1], G[i], n);
                for (unsigned j = i + 1; j < nc; j++)
                    pre[j + 1] = pre[i + 1];
                break;
            }
            l[i] = 0;
        }
    }
    return 0;
}
