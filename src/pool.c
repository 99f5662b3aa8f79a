/* A context's pool of free kernels and device buffers (see pool.h). */
#include "pool.h"

#include <string.h>

/* Buffers up to this size are made this large: small tables and scratch
 * buffers of every shape then share one class. */
#define SMALLEST_CLASS 4096
/* A free buffer serves a request up to this much above twice its size. */
#define SLACK_BYTES 65536

clipt_status clipt_pool_init(clipt_pool *pool, size_t cap_bytes)
{
    memset(pool, 0, sizeof *pool);
    pool->cap_bytes = cap_bytes;
    return pthread_mutex_init(&pool->lock, NULL) ? CLIPT_ERROR_OUT_OF_HOST_MEMORY
                                                 : CLIPT_SUCCESS;
}

/* Releases the references to the events a buffer came back with. */
static void drop_events(clipt_pool_buffer *b)
{
    for (int k = 0; k < 2; k++)
        if (b->after[k])
            clReleaseEvent(b->after[k]);
}

static void release_buffer(clipt_pool_buffer *b)
{
    drop_events(b);
    clReleaseMemObject(b->mem);
}

/* Moves the oldest free buffers out (into `out`, for release outside the
 * lock) until `room` more bytes and one more buffer fit; returns how many. */
static unsigned evict_buffers(clipt_pool *pool, size_t room, clipt_pool_buffer *out)
{
    unsigned n = 0;
    while (pool->num_buffers > 0 &&
           (pool->num_buffers == CLIPT_POOL_BUFFERS || pool->held_bytes + room > pool->cap_bytes)) {
        out[n] = pool->buffers[0];
        pool->held_bytes -= out[n++].bytes;
        memmove(pool->buffers, pool->buffers + 1, --pool->num_buffers * sizeof *pool->buffers);
    }
    return n;
}

/* Moves the oldest entries of list (free kernels or notes) out until at
 * most `keep` stay, their handles into `out`; returns how many. */
static unsigned evict_kernels(clipt_pool_kernel *list, unsigned *count, unsigned keep,
                              clipt_pool_kernel *out)
{
    unsigned n = 0;
    while (*count > keep) {
        out[n++] = list[0];
        memmove(list, list + 1, --*count * sizeof *list);
    }
    return n;
}

/* Releases evicted free kernels and notes (their programs). */
static void release_kernels(const clipt_pool_kernel *list, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (list[i].kernel)
            clReleaseKernel(list[i].kernel);
        else
            clReleaseProgram(list[i].program);
    }
}

/* Drops free objects until `room` bytes fit (SIZE_MAX: all of them, and
 * the notes) and at most keep_kernels free kernels stay. */
static void trim(clipt_pool *pool, size_t room, unsigned keep_kernels)
{
    static const size_t all = (size_t)-1;
    clipt_pool_buffer buffers[CLIPT_POOL_BUFFERS];
    clipt_pool_kernel kernels[CLIPT_POOL_KERNELS], infos[CLIPT_POOL_KERNELS];
    unsigned nb, nk, ni = 0;
    pthread_mutex_lock(&pool->lock);
    if (room == all) {
        const size_t cap = pool->cap_bytes;
        pool->cap_bytes = 0;
        nb = evict_buffers(pool, 1, buffers);
        pool->cap_bytes = cap;
    } else {
        nb = evict_buffers(pool, room, buffers);
    }
    nk = evict_kernels(pool->kernels, &pool->num_kernels, keep_kernels, kernels);
    if (room == all)
        ni = evict_kernels(pool->infos, &pool->num_infos, 0, infos);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < nb; i++)
        release_buffer(&buffers[i]);
    release_kernels(kernels, nk);
    release_kernels(infos, ni);
}

void clipt_pool_clear(clipt_pool *pool) { trim(pool, (size_t)-1, 0); }

void clipt_pool_destroy(clipt_pool *pool)
{
    clipt_pool_clear(pool);
    pthread_mutex_destroy(&pool->lock);
}

void clipt_pool_set_cap(clipt_pool *pool, size_t cap_bytes)
{
    pthread_mutex_lock(&pool->lock);
    pool->cap_bytes = cap_bytes;
    pthread_mutex_unlock(&pool->lock);
    if (cap_bytes == 0)
        clipt_pool_clear(pool);
    else
        trim(pool, 0, CLIPT_POOL_KERNELS);
}

/* ---- kernels ------------------------------------------------------------ */

/* The index in list of program's `name`, or -1 (newest first). */
static int find_kernel(const clipt_pool_kernel *list, unsigned count, cl_program program,
                       const char *name)
{
    for (unsigned i = count; i-- > 0;)
        if (list[i].program == program && strcmp(list[i].name, name) == 0)
            return (int)i;
    return -1;
}

cl_int clipt_pool_take_kernel(clipt_pool *pool, cl_program program, const char *name,
                              cl_kernel *out, clipt_kernel_info *info, int *known)
{
    cl_int err = CL_SUCCESS;
    int i;
    *out = NULL;
    *known = 0;
    pthread_mutex_lock(&pool->lock);
    if ((i = find_kernel(pool->kernels, pool->num_kernels, program, name)) >= 0) {
        *out = pool->kernels[i].kernel;
        *info = pool->kernels[i].info;
        *known = 1;
        memmove(pool->kernels + i, pool->kernels + i + 1,
                (--pool->num_kernels - (unsigned)i) * sizeof *pool->kernels);
        pool->kernels_reused++;
    } else {
        if ((i = find_kernel(pool->infos, pool->num_infos, program, name)) >= 0) {
            *info = pool->infos[i].info;
            *known = 1;
        }
        pool->kernels_made++;
    }
    pthread_mutex_unlock(&pool->lock);
    if (!*out)
        *out = clCreateKernel(program, name, &err);
    return err;
}

void clipt_pool_note_kernel(clipt_pool *pool, cl_program program, const char *name,
                            const clipt_kernel_info *info)
{
    clipt_pool_kernel entry = {program, "", NULL, *info}, oldest;
    unsigned n = 0;
    if (strlen(name) >= sizeof entry.name || clRetainProgram(program) != CL_SUCCESS)
        return;
    strcpy(entry.name, name);
    pthread_mutex_lock(&pool->lock);
    if (pool->cap_bytes > 0 && find_kernel(pool->infos, pool->num_infos, program, name) < 0) {
        n = evict_kernels(pool->infos, &pool->num_infos, CLIPT_POOL_KERNELS - 1, &oldest);
        pool->infos[pool->num_infos++] = entry;
        entry.program = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
    release_kernels(&oldest, n);
    if (entry.program)
        clReleaseProgram(program);
}

void clipt_pool_put_kernel(clipt_pool *pool, cl_kernel k)
{
    clipt_pool_kernel entry = {NULL, "", k, {0, 0}}, oldest;
    size_t name_bytes = 0;
    unsigned n = 0;
    int kept = 0, i;
    if (!k)
        return;
    /* a kernel pooled under a program keeps the program alive, so a pooled
     * handle never matches a later program made at the same address */
    if (clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof entry.program, &entry.program, NULL) ==
            CL_SUCCESS &&
        clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof entry.name, entry.name,
                        &name_bytes) == CL_SUCCESS &&
        name_bytes <= sizeof entry.name) {
        pthread_mutex_lock(&pool->lock);
        i = find_kernel(pool->infos, pool->num_infos, entry.program, entry.name);
        if (pool->cap_bytes > 0 && i >= 0) {
            entry.info = pool->infos[i].info;
            n = evict_kernels(pool->kernels, &pool->num_kernels, CLIPT_POOL_KERNELS - 1,
                              &oldest);
            pool->kernels[pool->num_kernels++] = entry;
            kept = 1;
        }
        pthread_mutex_unlock(&pool->lock);
    }
    release_kernels(&oldest, n);
    if (!kept)
        clReleaseKernel(k);
}

/* ---- buffers ------------------------------------------------------------ */

/* bytes rounded up to eighths of its power of two (at most 12.5 % more). */
static size_t size_class(size_t bytes)
{
    size_t top = SMALLEST_CLASS, step;
    if (bytes <= SMALLEST_CLASS)
        return SMALLEST_CLASS;
    while (top < bytes / 2 + 1)
        top *= 2;
    step = top / 8;
    return bytes > (size_t)-1 - step ? bytes : (bytes + step - 1) / step * step;
}

/* Whether every event a free buffer waits for has settled (complete or
 * failed), or with whole_only, completed: what its named contents need to
 * be whole. */
static int events_done(const clipt_pool_buffer *b, int whole_only)
{
    for (int i = 0; i < 2; i++) {
        cl_int state = CL_COMPLETE;
        if (b->after[i] &&
            (clGetEventInfo(b->after[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state,
                            &state, NULL) != CL_SUCCESS ||
             state > CL_COMPLETE || (whole_only && state != CL_COMPLETE)))
            return 0;
    }
    return 1;
}

/* Takes free buffer i out of the list (under the lock); the caller
 * releases its events' references (drop_events, outside the lock). */
static clipt_pool_buffer remove_buffer(clipt_pool *pool, unsigned i)
{
    clipt_pool_buffer found = pool->buffers[i];
    pool->held_bytes -= found.bytes;
    memmove(pool->buffers + i, pool->buffers + i + 1,
            (--pool->num_buffers - i) * sizeof *pool->buffers);
    return found;
}

/* Whether free buffer b serves a plain request better than `best` (-1:
 * none yet): one holding nothing named first (named contents are kept for
 * a plan that asks for them), then the smaller. */
static int better(const clipt_pool *pool, const clipt_pool_buffer *b, int best)
{
    const clipt_pool_buffer *o;
    if (best < 0)
        return 1;
    o = &pool->buffers[best];
    if ((b->content.key[0] == 0) != (o->content.key[0] == 0))
        return b->content.key[0] == 0;
    return b->bytes < o->bytes;
}

/* The index of the settled free buffer that serves the request best, or
 * -1. */
static int find_buffer(const clipt_pool *pool, size_t bytes, cl_mem_flags access)
{
    const size_t most = bytes > ((size_t)-1 - SLACK_BYTES) / 2 ? (size_t)-1
                                                               : 2 * bytes + SLACK_BYTES;
    int best = -1;
    for (unsigned i = 0; i < pool->num_buffers; i++) {
        const clipt_pool_buffer *b = &pool->buffers[i];
        if (b->access == access && b->bytes >= bytes && b->bytes <= most &&
            better(pool, b, best) && events_done(b, 0))
            best = (int)i;
    }
    return best;
}

cl_int clipt_pool_take_buffer(clipt_pool *pool, cl_context ctx, size_t bytes,
                              cl_mem_flags access, cl_mem *out)
{
    clipt_pool_buffer found = {0};
    cl_int err = CL_SUCCESS;
    int pooled, i;
    pthread_mutex_lock(&pool->lock);
    pooled = pool->cap_bytes > 0;
    if (pooled && (i = find_buffer(pool, bytes, access)) >= 0) {
        found = remove_buffer(pool, (unsigned)i);
        pool->buffers_reused++;
    } else {
        pool->buffers_made++;
    }
    pthread_mutex_unlock(&pool->lock);
    if (found.mem) {
        drop_events(&found);
        *out = found.mem;
        return CL_SUCCESS;
    }
    *out = clCreateBuffer(ctx, access, pooled ? size_class(bytes) : bytes, NULL, &err);
    return err;
}

int clipt_pool_take_content(clipt_pool *pool, const uint64_t key[CLIPT_POOL_KEY_WORDS],
                            cl_mem *out, uint64_t value[CLIPT_POOL_VALUE_WORDS])
{
    clipt_pool_buffer found = {0};
    *out = NULL;
    if (key[0] == 0)
        return 0;
    pthread_mutex_lock(&pool->lock);
    for (unsigned i = pool->num_buffers; i-- > 0;) { /* newest first */
        const clipt_pool_buffer *b = &pool->buffers[i];
        if (memcmp(b->content.key, key, sizeof b->content.key) == 0 && events_done(b, 1)) {
            found = remove_buffer(pool, i);
            pool->buffers_reused++;
            pool->contents_reused++;
            break;
        }
    }
    pthread_mutex_unlock(&pool->lock);
    if (!found.mem)
        return 0;
    drop_events(&found);
    memcpy(value, found.content.value, sizeof found.content.value);
    *out = found.mem;
    return 1;
}

void clipt_pool_put_buffer(clipt_pool *pool, cl_mem m, unsigned count, const cl_event *after,
                           const clipt_pool_content *content)
{
    clipt_pool_buffer b = {m, 0, 0, {NULL, NULL}, {{0}, {0}}}, evicted[CLIPT_POOL_BUFFERS];
    const cl_mem_flags kinds = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    unsigned n = 0;
    int kept = 0;
    if (!m)
        return;
    if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof b.bytes, &b.bytes, NULL) == CL_SUCCESS &&
        clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof b.access, &b.access, NULL) == CL_SUCCESS) {
        b.access &= kinds;
        if (content)
            b.content = *content;
        for (unsigned i = 0, k = 0; i < count && i < 2; i++)
            if (after[i] && clRetainEvent(after[i]) == CL_SUCCESS)
                b.after[k++] = after[i];
        pthread_mutex_lock(&pool->lock);
        if (b.bytes <= pool->cap_bytes) {
            n = evict_buffers(pool, b.bytes, evicted);
            pool->buffers[pool->num_buffers++] = b;
            pool->held_bytes += b.bytes;
            kept = 1;
        }
        pthread_mutex_unlock(&pool->lock);
    }
    for (unsigned i = 0; i < n; i++)
        release_buffer(&evicted[i]);
    if (!kept)
        release_buffer(&b);
}
