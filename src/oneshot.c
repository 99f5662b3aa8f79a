/* clipt_transpose: one transposition, blocking, with a context and a plan
 * taken from caches so that a second call on the same device builds no
 * program again and a second call on the same shape makes no plan again.
 *
 * The process keeps a context for each of the last CLIPT_ONESHOT_ENTRIES
 * (cl_context, cl_device_id) pairs used, least recently used dropped
 * first; each context keeps the plans of its last shapes (plan_cache.h).
 * A cached context retains its cl_context and device, so the handles of an
 * entry cannot be freed and reused for another context while it is there:
 * the key stays unambiguous.  Thread-safe: the table is locked; a call
 * holds its own reference to the context it uses, so entries may be
 * dropped (by another call, or clipt_transpose_cache_clear) meanwhile. */
#include "oneshot.h"
#include "enqueue.h"
#include "options.h"

#include <pthread.h>

typedef struct oneshot_entry {
    cl_context ctx;
    cl_device_id dev;
    clipt_context cx;        /* NULL: a free slot; holds one reference */
    uint64_t used;
} oneshot_entry;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static oneshot_entry table[CLIPT_ONESHOT_ENTRIES];
static uint64_t table_clock;

/* With table_lock held. */
static oneshot_entry *find(cl_context ctx, cl_device_id dev)
{
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++)
        if (table[i].cx && table[i].ctx == ctx && table[i].dev == dev)
            return &table[i];
    return NULL;
}

/* The context of (ctx, dev) from the table, with a reference for the
 * caller, or NULL.  With table_lock held. */
static clipt_context take(cl_context ctx, cl_device_id dev)
{
    oneshot_entry *e = find(ctx, dev);
    if (!e)
        return NULL;
    clipt_context_retain(e->cx);
    e->used = ++table_clock;
    return e->cx;
}

/* A free slot, made by emptying the least recently used one: its context
 * goes to *evicted, released by the caller after the lock.  With
 * table_lock held. */
static oneshot_entry *free_slot(clipt_context *evicted)
{
    oneshot_entry *oldest = &table[0];
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++) {
        if (!table[i].cx)
            return &table[i];
        if (table[i].used < oldest->used)
            oldest = &table[i];
    }
    *evicted = oldest->cx;
    oldest->cx = NULL;
    return oldest;
}

/* The context of (ctx, dev), cached: from the table, or made (outside the
 * lock: it queries the device) and entered.  A reference for the caller. */
static clipt_status acquire(cl_context ctx, cl_device_id dev, clipt_context *out)
{
    clipt_context made = NULL, evicted = NULL, spare = NULL;
    clipt_status status;
    pthread_mutex_lock(&table_lock);
    *out = take(ctx, dev);
    pthread_mutex_unlock(&table_lock);
    if (*out)
        return CLIPT_SUCCESS;
    if ((status = clipt_context_create(ctx, dev, &made)) != CLIPT_SUCCESS)
        return status;
    pthread_mutex_lock(&table_lock);
    if ((*out = take(ctx, dev)) != NULL) {
        spare = made; /* another thread entered one meanwhile */
    } else {
        oneshot_entry *e = free_slot(&evicted);
        e->ctx = ctx;
        e->dev = dev;
        e->cx = made; /* the table's reference: the one made */
        e->used = ++table_clock;
        *out = take(ctx, dev);
    }
    pthread_mutex_unlock(&table_lock);
    clipt_context_release(spare);
    clipt_context_release(evicted);
    return CLIPT_SUCCESS;
}

/* Drops cx's entry, if it still has one (after a failure). */
static void forget(clipt_context cx)
{
    clipt_context gone = NULL;
    pthread_mutex_lock(&table_lock);
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++)
        if (table[i].cx == cx) {
            gone = cx;
            table[i].cx = NULL;
        }
    pthread_mutex_unlock(&table_lock);
    clipt_context_release(gone);
}

void clipt_transpose_cache_clear(void)
{
    clipt_context gone[CLIPT_ONESHOT_ENTRIES] = {NULL};
    pthread_mutex_lock(&table_lock);
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++) {
        gone[i] = table[i].cx;
        table[i].cx = NULL;
    }
    pthread_mutex_unlock(&table_lock);
    /* after the lock: releasing a context releases its programs and plans */
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++)
        clipt_context_release(gone[i]);
}

clipt_context clipt_oneshot_peek(cl_context ctx, cl_device_id dev)
{
    const oneshot_entry *e;
    clipt_context cx = NULL;
    pthread_mutex_lock(&table_lock);
    if ((e = find(ctx, dev)) != NULL) {
        cx = e->cx;
        clipt_context_retain(cx);
    }
    pthread_mutex_unlock(&table_lock);
    return cx;
}

size_t clipt_oneshot_count(void)
{
    size_t n = 0;
    pthread_mutex_lock(&table_lock);
    for (unsigned i = 0; i < CLIPT_ONESHOT_ENTRIES; i++)
        n += table[i].cx != NULL;
    pthread_mutex_unlock(&table_lock);
    return n;
}

/* The plan without padding (the buffer has no room), enqueued and waited
 * for. */
static clipt_status run(clipt_context cx, cl_command_queue q, cl_mem buf,
                        size_t offset_bytes, size_t rows, size_t cols, size_t elem_size)
{
    clipt_plan p = NULL;
    clipt_plan_options o;
    cl_event done = NULL;
    clipt_status status;
    clipt_plan_options_init(&o);
    o.padding = CLIPT_PADDING_NONE;
    if ((status = clipt_plan_shared(cx, rows, cols, elem_size, &o, &p)) == CLIPT_SUCCESS &&
        (status = clipt_enqueue(p, q, buf, offset_bytes, 0, NULL, &done)) == CLIPT_SUCCESS)
        status = clWaitForEvents(1, &done);
    if (done)
        clReleaseEvent(done);
    if (clipt_status_drops_cache(status))
        clipt_plan_cache_forget(&cx->plans, p);
    clipt_plan_release(p);
    return status;
}

clipt_status clipt_transpose(cl_command_queue q, cl_mem buf, size_t offset_bytes,
                             size_t rows, size_t cols, size_t elem_size)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    clipt_context cx = NULL;
    size_t bytes;
    clipt_status status;
    if (!q || !buf)
        return CLIPT_ERROR_NULL_ARGUMENT;
    if ((status = clipt_check_shape(rows, cols, elem_size, &bytes)) != CLIPT_SUCCESS)
        return status;
    if ((status = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL)) ||
        (status = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL)))
        return status;
    if ((status = acquire(ctx, dev, &cx)) != CLIPT_SUCCESS)
        return status;
    status = run(cx, q, buf, offset_bytes, rows, cols, elem_size);
    /* a runtime failure (a lost device, a context the runtime gave up on)
     * drops the entry: the next call starts from a new context */
    if (clipt_status_drops_cache(status))
        forget(cx);
    clipt_context_release(cx);
    return status;
}
