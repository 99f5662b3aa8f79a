/* A context's pool of free OpenCL objects for its plans (issue 13): the
 * kernels and device buffers of released plans, taken again by the next
 * plans instead of creating new ones.  Creating and releasing them cost
 * NVIDIA's runtime about 0.17 ms per plan (docs/performance.md), as long
 * as the smallest transpositions themselves.
 *
 * Ownership: a plan owns what it took until it gives it back (at its
 * release); the pool holds free objects only, so no two live plans ever
 * share a kernel (whose arguments are per cl_kernel, set at every enqueue)
 * or a buffer.
 *
 * The buffer rule: a buffer comes back with the events after which its
 * last user is done with it (the plan's last run, its tables' upload);
 * it is taken again only once they have settled (complete or failed), so
 * work of the old plan still running on any queue never overlaps work of
 * the new one.  Unsettled buffers are skipped, never waited for.
 *
 * Contents: a buffer may come back with what it holds named (a key, and
 * a few values that describe it), when that is a pure function of the key
 * and costs host work to make: the segment tables of a stage shape, which
 * a plan otherwise cuts on the host and writes at its first run.  A taker
 * that names the same key gets it as it is, once every event it came back
 * with has completed (a failed one loses the contents); a taker of plain
 * bytes gets it as undefined memory.
 *
 * Bounds: free buffers hold at most `cap_bytes` together (oldest released
 * first), free kernels at most CLIPT_POOL_KERNELS; a cap of 0 pools
 * nothing.  Thread-safe (one lock); no OpenCL call blocks under it. */
#ifndef CLIPT_POOL_H
#define CLIPT_POOL_H

#include "clipt.h"

#include <pthread.h>
#include <stdint.h>

/* Free kernels and free buffers a pool keeps at most. */
#define CLIPT_POOL_KERNELS 128
#define CLIPT_POOL_BUFFERS 64
/* Kernel names as the pool keeps them (the library's are shorter). */
#define CLIPT_POOL_NAME_BYTES 64

/* What a kernel's limits are, asked of the runtime when it was new:
 * CL_KERNEL_LOCAL_MEM_SIZE counts the __local arguments set last, so a
 * kernel that has run cannot be asked again (a pooled one would report its
 * previous owner's arguments as its own variables, and PoCL's kernels
 * then ran ten times slower with the launch sized from that). */
typedef struct clipt_kernel_info {
    size_t wg_limit;               /* CL_KERNEL_WORK_GROUP_SIZE           */
    size_t own_local;              /* its own __local variables, bytes    */
} clipt_kernel_info;

/* A free kernel (kernel set), or what a kernel of program's `name` is
 * (kernel NULL; the program retained). */
typedef struct clipt_pool_kernel {
    cl_program program;
    char name[CLIPT_POOL_NAME_BYTES];
    cl_kernel kernel;
    clipt_kernel_info info;
} clipt_pool_kernel;

/* What a buffer holds: key[0] == 0 means nothing named. */
#define CLIPT_POOL_KEY_WORDS 4
#define CLIPT_POOL_VALUE_WORDS 4
typedef struct clipt_pool_content {
    uint64_t key[CLIPT_POOL_KEY_WORDS];
    uint64_t value[CLIPT_POOL_VALUE_WORDS];
} clipt_pool_content;

typedef struct clipt_pool_buffer {
    cl_mem mem;
    size_t bytes;
    cl_mem_flags access;           /* CL_MEM_READ_WRITE, _READ_ONLY, ...   */
    cl_event after[2];             /* retained; NULL: none                 */
    clipt_pool_content content;    /* what it holds, if named              */
} clipt_pool_buffer;

typedef struct clipt_pool {
    pthread_mutex_t lock;
    size_t cap_bytes;              /* free buffers' bytes at most; 0: off  */
    size_t held_bytes;             /* free buffers' bytes now              */
    clipt_pool_kernel kernels[CLIPT_POOL_KERNELS]; /* oldest first */
    unsigned num_kernels;
    clipt_pool_kernel infos[CLIPT_POOL_KERNELS];   /* oldest first */
    unsigned num_infos;
    clipt_pool_buffer buffers[CLIPT_POOL_BUFFERS]; /* oldest first */
    unsigned num_buffers;
    unsigned long kernels_made, kernels_reused;     /* for tests */
    unsigned long buffers_made, buffers_reused;
    unsigned long contents_reused;                  /* named takes met */
} clipt_pool;

clipt_status clipt_pool_init(clipt_pool *pool, size_t cap_bytes);

/* Releases every free object (plans still holding theirs release them
 * themselves: what comes back after this is pooled again). */
void clipt_pool_clear(clipt_pool *pool);
void clipt_pool_destroy(clipt_pool *pool);

/* Sets the cap (0: pool nothing) and releases what exceeds it. */
void clipt_pool_set_cap(clipt_pool *pool, size_t cap_bytes);

/* A kernel `name` of `program`: a free one, else a new one (with the
 * status of clCreateKernel); *known tells whether *info holds its limits
 * (always for a free one; for a new one if the pool has noted them).  The
 * caller owns it until it gives it back (clipt_pool_put_kernel) or
 * releases it. */
cl_int clipt_pool_take_kernel(clipt_pool *pool, cl_program program, const char *name,
                              cl_kernel *out, clipt_kernel_info *info, int *known);

/* Notes the limits of program's kernel `name`, asked of a new kernel
 * (retains the program while noted).  Only a noted kind is pooled. */
void clipt_pool_note_kernel(clipt_pool *pool, cl_program program, const char *name,
                            const clipt_kernel_info *info);

/* Gives kernel k back (its program and name are asked of the runtime), or
 * releases it when the pool is full or off or its kind not noted.  NULL
 * is accepted. */
void clipt_pool_put_kernel(clipt_pool *pool, cl_kernel k);

/* A buffer of at least `bytes` (> 0) bytes with access flags `access`: a
 * free settled one of at most about twice the size, else a new one of
 * bytes rounded up to a size class (eighths of a power of two; exactly
 * `bytes` when the pool is off).  Contents undefined. */
cl_int clipt_pool_take_buffer(clipt_pool *pool, cl_context ctx, size_t bytes,
                              cl_mem_flags access, cl_mem *out);

/* A free buffer holding what `key` names (key[0] != 0), its events all
 * completed: 1 and the buffer (the caller's now, as from take_buffer) with
 * the values it came back with in value[]; else 0 (*out NULL). */
int clipt_pool_take_content(clipt_pool *pool, const uint64_t key[CLIPT_POOL_KEY_WORDS],
                            cl_mem *out, uint64_t value[CLIPT_POOL_VALUE_WORDS]);

/* Gives buffer m back, free once the `count` (<= 2) events that are not
 * NULL have settled (retained here), or releases it when it does not fit
 * the cap.  content: what it holds once they have completed (NULL:
 * nothing named).  NULL m is accepted. */
void clipt_pool_put_buffer(clipt_pool *pool, cl_mem m, unsigned count,
                           const cl_event *after, const clipt_pool_content *content);

#endif
