/* What the kernel families (stage_*.c) share on the host: the element type
 * of the build options, the divisor magic numbers, kernel creation with its
 * limits, the launch sizes, and kernel argument lists declared once. */
#ifndef CLIPT_STAGE_KERNEL_H
#define CLIPT_STAGE_KERNEL_H

#include "stages.h"

/* The families, one per module. */
extern const clipt_family clipt_family_transpose010;
extern const clipt_family clipt_family_pttwac010;
extern const clipt_family clipt_family_shift100;
extern const clipt_family clipt_family_shift100_slices;
extern const clipt_family clipt_family_shift100_segments;
extern const clipt_family clipt_family_pad;
extern const clipt_family clipt_family_c2r;

static inline size_t clipt_min_size(size_t a, size_t b) { return a < b ? a : b; }

/* The OpenCL type of elem_size-byte elements (ELEM_TYPE), NULL if none. */
const char *clipt_elem_type_name(size_t elem_size);

/* Magic numbers for dividing any 32-bit n by d with a multiply and shifts
 * (Granlund and Montgomery's round-up method), one by one and packed as
 * the kernels' udiv takes them (magic, sh1, sh2, d). */
void clipt_divisor_magic(uint64_t d, cl_uint *magic, cl_uint *sh1, cl_uint *sh2);
cl_uint4 clipt_divisor_vector(uint64_t d);

/* Whether kernels may index a region of `count` elements with 32-bit
 * arithmetic (their SMALL_INDEX build option). */
int clipt_small_index(clipt_context c, uint64_t count);

/* Creates kernel `name` from st's family file built with st->options;
 * *wg_limit receives its CL_KERNEL_WORK_GROUP_SIZE and *own_local its
 * CL_KERNEL_LOCAL_MEM_SIZE (its own __local variables).  The caller owns
 * *out (NULL after a failure). */
clipt_status clipt_make_kernel(clipt_context c, const clipt_stage *st, const char *name,
                               cl_kernel *out, size_t *wg_limit, size_t *own_local);

/* Work-groups a launch keeps busy at most: `total` when the tuning sets
 * one, else `per_cu` per compute unit. */
size_t clipt_groups_cap(clipt_context c, unsigned per_cu, unsigned total);

/* The launch sizing of every family: work-groups of `local` items, one per
 * `per_group` units of `work` (rounded up), at most `cap` of them, at least
 * one.  Sets st->local and st->global. */
void clipt_set_launch(clipt_stage *st, size_t local, uint64_t work, uint64_t per_group,
                      size_t cap);

/* Frees `host`, a table that a write enqueued with event `writing` (NULL:
 * none) reads, once the write no longer does: now, or from the event's
 * callback when it settles (waited for if no callback can be set). */
void clipt_free_after_write(void *host, cl_event writing);

/* ---- kernel arguments, declared once ----------------------------------
 * A family lists its kernel's arguments once, in signature order, as
 *     #define NAME_ARGS(X) X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong") ...
 * (name, clipt_arg_kind without its prefix, type as the kernel declares
 * it) and CLIPT_KERNEL_ARGS(name, NAME_ARGS) makes from it:
 *     struct name_args        one member per argument (LOCAL: its bytes),
 *     name_arg_decls[]        the list, for the signature test,
 *     name_set(kernel, args)  clSetKernelArg for each, in order. */
#define CLIPT_ARG_CTYPE_ULONG cl_ulong
#define CLIPT_ARG_CTYPE_UINT cl_uint
#define CLIPT_ARG_CTYPE_UINT4 cl_uint4
#define CLIPT_ARG_CTYPE_GLOBAL cl_mem
#define CLIPT_ARG_CTYPE_LOCAL size_t

#define CLIPT_ARG_MEMBER(name, kind, type) CLIPT_ARG_CTYPE_##kind name;
#define CLIPT_ARG_DECL(name, kind, type) {#name, CLIPT_ARG_##kind, type},
#define CLIPT_ARG_SET(name, kind, type)                                        \
    if (err == CL_SUCCESS)                                                     \
        err = clipt_set_arg(k, index++, CLIPT_ARG_##kind, sizeof v->name, &v->name);

#define CLIPT_KERNEL_ARGS(prefix, LIST)                                        \
    typedef struct prefix##_args {                                             \
        LIST(CLIPT_ARG_MEMBER)                                                 \
    } prefix##_args;                                                           \
    static const clipt_arg_decl prefix##_arg_decls[] = {LIST(CLIPT_ARG_DECL)}; \
    static cl_int prefix##_set(cl_kernel k, const prefix##_args *v)            \
    {                                                                          \
        cl_int err = CL_SUCCESS;                                               \
        cl_uint index = 0;                                                     \
        LIST(CLIPT_ARG_SET)                                                    \
        return err;                                                            \
    }

/* The region every kernel starts its arguments with (cl/clipt_kernel.h's
 * REGION_AT): the buffer and the region's element offset in it, the plan's
 * tail buffer and the split (region elements in buf, signed), and their
 * values from a stage's arguments. */
#define CLIPT_REGION_ARGS(X)                                                   \
    X(buf, GLOBAL, "elem_t*") X(offset, ULONG, "ulong")                        \
    X(tail, GLOBAL, "elem_t*") X(split, ULONG, "ulong")
#define CLIPT_REGION_VALUES(g)                                                 \
    .buf = (g)->buf, .offset = (g)->offset, .tail = (g)->tail, .split = (g)->split

#define CLIPT_COUNT_OF(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* clSetKernelArg for one argument of the given kind (LOCAL: *value is the
 * __local array's size in bytes). */
cl_int clipt_set_arg(cl_kernel k, cl_uint index, clipt_arg_kind kind, size_t size,
                     const void *value);

#endif
