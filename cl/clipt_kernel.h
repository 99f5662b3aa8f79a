/*
 * What the kernel files share: the element type, division by a run-time
 * divisor with magic numbers from the host, the transposition's
 * destination, and the claim flags that mark cycle positions as taken.
 *
 * The loader inserts this file into a kernel's source text where it is
 * included (src/loader.c), so the program caches key on its content; each
 * .cl file also compiles alone with `clang -cl-std=CL1.2 -I cl`.  Helpers
 * are `static inline`: OpenCL C 1.2 follows C99, where a plain `inline`
 * function has no definition to link against when the compiler does not
 * inline it (as at -cl-opt-disable).
 *
 * Build options: ELEM_TYPE, the element type moved (uchar, ushort, uint,
 * ulong, uint4); SPLIT, 1 when the stage's region continues in the plan's
 * tail buffer (room-less padding, REGION_AT below).
 */
#ifndef CLIPT_KERNEL_H
#define CLIPT_KERNEL_H

#include "host_shared.h"

#ifndef ELEM_TYPE
#define ELEM_TYPE uint
#endif

typedef ELEM_TYPE elem_t;

/* An array of n `type`s in local memory, one for the work-group, declared
 * in a kernel's body (tuning/cuda/cl_compat.cuh makes it __shared__). */
#ifndef CLIPT_GROUP_ARRAY
#define CLIPT_GROUP_ARRAY(type, name, n) __local type name[n]
#endif

#ifndef SPLIT
#define SPLIT 0
#endif

/* Where element i of a stage's region lives.  Every kernel takes the
 * region as (buf, offset, tail, split): with SPLIT=1 (room-less padding,
 * docs/design.md) the region's elements below `split` (a signed count,
 * negative for a part of the region that starts in the tail) are at
 * base = buf + offset, the rest in the plan's tail buffer, so that a
 * padded matrix runs in a caller's buffer that holds the unpadded one
 * only; the map is a bijection of indices, so every kernel's argument
 * about its indices holds unchanged.  With SPLIT=0 it is plain indexing
 * and tail and split are not used. */
#if SPLIT
#define REGION_AT(base, tail, split, i)                                        \
    ((long)(i) < (long)(split) ? (base) + (i) : (tail) + ((i) - (split)))
#else
#define REGION_AT(base, tail, split, i) ((base) + (i))
#endif

/* No variadic macros here or in the kernels: OpenCL C 1.2 has none, and
 * NVIDIA's compiler refuses them ("variadic macros not supported in
 * OpenCL") where clang takes them; tuning/compile_matrix.py compiles with
 * -Wpedantic, which flags them. */

/* A helper that must be inlined even where unrolling made it large (its
 * private arrays then stay in registers); plain `static inline` for
 * compilers without the attribute. */
#ifdef __clang__
#define CLIPT_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define CLIPT_ALWAYS_INLINE static inline
#endif

/* Work-group numbering.  Kernels take their group's place in the work from
 * clipt_group_id() and clipt_global_id(), never from get_group_id() or
 * get_global_id() directly.  CLIPT_GROUP_ORDER=1, a build option the
 * library never passes (the Oclgrind check adds it, tests/portability),
 * numbers the work-groups backwards, so that a simulator that runs them in
 * launch order runs the work in the opposite order from PoCL and GPUs; the
 * default leaves the built code as it is. */
#ifndef CLIPT_GROUP_ORDER
#define CLIPT_GROUP_ORDER 0
#endif
#if CLIPT_GROUP_ORDER
#define clipt_group_id() (get_num_groups(0) - 1 - get_group_id(0))
#define clipt_global_id() (clipt_group_id() * get_local_size(0) + get_local_id(0))
#else
#define clipt_group_id() get_group_id(0)
#define clipt_global_id() get_global_id(0)
#endif

/* n / d for any 32-bit n, with d's magic numbers as the host packs them
 * (Granlund-Montgomery, src/stage_kernel.c): x = magic, y = sh1, z = sh2,
 * w = d itself.  A division by a value known only at run time would cost
 * tens of instructions per element. */
static inline uint udiv(uint n, uint4 d)
{
    const uint t = mul_hi(n, d.x);
    return (t + ((n - t) >> d.y)) >> d.z;
}

/* The same with the magic numbers passed one by one. */
static inline uint udiv_magic(uint n, uint magic, uint sh1, uint sh2)
{
    return udiv(n, (uint4)(magic, sh1, sh2, 0));
}

/* Where the content of position k of one a x b tile moves in its b x a
 * transpose: k = i*b + j goes to j*a + i.  (The remainder is written out:
 * the compiler splits k % b into that anyway, behind an LLVM `freeze` that
 * Oclgrind 21.10's uninitialised-value check cannot run.) */
static inline uint tile_destination(uint k, uint a, uint b)
{
    const uint i = k / b;
    return (k - i * b) * a + i;
}

/* The same for position p counted over consecutive a x b instances
 * (ab = a * b): it stays in its instance. */
static inline ulong destination(ulong p, ulong a, ulong b, ulong ab)
{
    const ulong inst = p / ab;
    const ulong k = p - inst * ab;
    const ulong i = k / b;
    const ulong j = k - i * b;
    return inst * ab + j * a + i;
}

/* Claim flags: position (or slice) f owns bit flag_bit(f) of 32-bit word
 * f >> 5; set = "its original content has been taken by its owner". */
static inline uint flag_bit(ulong f)
{
    return 1u << (uint)(f & 31);
}

#endif
