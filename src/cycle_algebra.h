/* The cycles of the transposition permutation from number theory alone.
 *
 * In an a x b matrix (of super-elements) the content of position
 * p = i*b + j moves to j*a + i.  With N = a*b - 1 that is p -> p*a mod N for
 * p < N (0 and N stay), so the cycles are the orbits of multiplication by a
 * in Z/N (a is a unit: a*b = 1 mod N).  The positions p with gcd(p, N) = d
 * are d*u for the units u modulo n = N/d, and their orbits are d times the
 * cosets of <a> in the unit group U(n): every cycle of this class has
 * ord_n(a) positions, and there are phi(n) / ord_n(a) of them.
 *
 * Leaders (one position per cycle) come from the structure of U(n):
 * U(n) = prod U(q^e) over n's prime powers (CRT), U(q^e) cyclic for odd q,
 * U(2^e) = <-1> x <5> for e >= 3.  With discrete logarithms, units are
 * exponent vectors in prod Z/m_i, a is a vector t, and the cosets of <t>
 * have canonical representatives in a box [0,g_1) x [0,g_2) x ... (echelon
 * reduction, cycle_algebra.c), which is enumerated directly.  The host's
 * work is polynomial in log N per class plus one multiplication per leader:
 * nothing is proportional to a*b. */
#ifndef CLIPT_CYCLE_ALGEBRA_H
#define CLIPT_CYCLE_ALGEBRA_H

#include "modular.h"

#include <stddef.h>
#include <stdint.h>

/* One class of cycles: the positions d*u, u a unit modulo N/d. */
typedef struct clipt_cycle_class {
    uint64_t d;       /* gcd of its positions with N                     */
    uint64_t length;  /* positions per cycle: ord_{N/d}(a)                */
    uint64_t cycles;  /* phi(N/d) / length                                */
} clipt_cycle_class;

/* The cycle structure of an a x b transposition, fixed points left out. */
typedef struct clipt_cycle_structure {
    uint64_t a, N;              /* N = a*b - 1 (0 when a*b <= 1)          */
    clipt_factors fN;           /* N's factorisation                      */
    clipt_cycle_class *classes; /* classes whose cycles move (length > 1) */
    size_t num_classes;
    uint64_t cycles;            /* their cycles, all classes together     */
    uint64_t moved;             /* positions they cover                   */
} clipt_cycle_structure;

/* Computes the classes of the a x b transposition (a, b >= 1, a*b < 2^63).
 * Returns 0 on success, -1 when out of memory, -2 when a discrete
 * logarithm fails its check (never expected). */
int clipt_cycle_structure_init(uint64_t a, uint64_t b, clipt_cycle_structure *cs);
void clipt_cycle_structure_free(clipt_cycle_structure *cs);

/* Writes one leader of each cycle of class k (cs->classes[k].cycles of
 * them; a leader is a position in [1, N)) into out.  Returns 0, or -1 if
 * the algebra disagrees with itself (a^length is not 1 modulo N/d, or the
 * box of representatives does not hold exactly `cycles` vectors: a bug,
 * never expected). */
int clipt_cycle_class_leaders(const clipt_cycle_structure *cs, size_t k, uint64_t *out);

#endif
