/* clipt_context: device profile and tuning, program cache, plan cache,
 * pool of free kernels and buffers, last failure's detail. */
#include "internal.h"
#include "tuning_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sub-devices nest: a device is at most this many partitions deep. */
enum { MAX_SUB_DEVICE_DEPTH = 16 };

/* Whether dev, or a device it was partitioned from, is one of the
 * context's: a context made for a sub-device may list its parent instead
 * (PoCL 3.1 does), and a sub-device of a context's device runs there. */
static clipt_status device_in_context(cl_context ctx, cl_device_id dev)
{
    cl_uint count = 0;
    cl_device_id *devices = NULL;
    clipt_status status;
    cl_int err = clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof count,
                                  &count, NULL);
    if (err != CL_SUCCESS)
        return err;
    devices = calloc(count ? count : 1, sizeof *devices);
    if (!devices)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    err = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, count * sizeof *devices,
                           devices, NULL);
    status = err == CL_SUCCESS ? CLIPT_ERROR_DEVICE_MISMATCH : err;
    for (int depth = 0; status == CLIPT_ERROR_DEVICE_MISMATCH && dev &&
                        depth <= MAX_SUB_DEVICE_DEPTH; depth++) {
        for (cl_uint i = 0; i < count; i++)
            if (devices[i] == dev)
                status = CLIPT_SUCCESS;
        if (status != CLIPT_SUCCESS &&
            clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    }
    free(devices);
    return status;
}

/* Device memory the one-shot calls' cached plans may hold together (their
 * scratch buffers and segment tables): a sixteenth of the device's, so
 * that a cache nobody clears never crowds the application out. */
static size_t plan_cache_budget(const clipt_device_profile *d)
{
    const cl_ulong budget = d->global_mem_bytes / 16;
    return budget < SIZE_MAX ? (size_t)budget : SIZE_MAX;
}

/* Device memory the pool's free buffers may hold together (clipt.h,
 * clipt_context_set_pool_limit): a 64th of the device's, or
 * CLIPT_POOL_BYTES from the environment (0: no pool; for comparisons). */
static size_t pool_budget(const clipt_device_profile *d)
{
    const char *v = getenv("CLIPT_POOL_BYTES");
    const cl_ulong budget = d->global_mem_bytes / 64;
    if (v && *v)
        return (size_t)strtoull(v, NULL, 10);
    return budget < SIZE_MAX ? (size_t)budget : SIZE_MAX;
}

clipt_status clipt_context_create(cl_context ctx, cl_device_id dev,
                                  clipt_context *out)
{
    clipt_context c = NULL;
    clipt_status status;
    if (out)
        *out = NULL;
    if (!ctx || !dev || !out)
        return CLIPT_ERROR_NULL_ARGUMENT;
    status = device_in_context(ctx, dev);
    if (status != CLIPT_SUCCESS)
        return status;
    c = calloc(1, sizeof *c);
    if (!c)
        return CLIPT_ERROR_OUT_OF_HOST_MEMORY;
    status = clipt_device_profile_query(dev, &c->profile);
    if (status != CLIPT_SUCCESS)
        goto fail;
    clipt_tuning_select(&c->profile);
    if ((status = clipt_cache_init(&c->cache)) != CLIPT_SUCCESS)
        goto fail;
    if ((status = clipt_detail_init(&c->detail)) != CLIPT_SUCCESS) {
        clipt_cache_destroy(&c->cache);
        goto fail;
    }
    if ((status = clipt_pool_init(&c->pool, pool_budget(&c->profile))) != CLIPT_SUCCESS) {
        clipt_detail_destroy(&c->detail);
        clipt_cache_destroy(&c->cache);
        goto fail;
    }
    if ((status = clipt_plan_cache_init(&c->plans, plan_cache_budget(&c->profile))) !=
        CLIPT_SUCCESS) {
        clipt_pool_destroy(&c->pool);
        clipt_detail_destroy(&c->detail);
        clipt_cache_destroy(&c->cache);
        goto fail;
    }
    if ((status = clRetainContext(ctx)) == CL_SUCCESS &&
        (status = clRetainDevice(dev)) != CL_SUCCESS)
        clReleaseContext(ctx);
    if (status != CL_SUCCESS) {
        clipt_plan_cache_destroy(&c->plans);
        clipt_pool_destroy(&c->pool);
        clipt_detail_destroy(&c->detail);
        clipt_cache_destroy(&c->cache);
        goto fail;
    }
    c->cl_ctx = ctx;
    c->device = dev;
    c->wide_index_from = CLIPT_WIDE_INDEX_FROM;
    atomic_init(&c->refs, 1);
    *out = c;
    return CLIPT_SUCCESS;
fail:
    free(c);
    return status;
}

void clipt_context_retain(clipt_context c) { atomic_fetch_add(&c->refs, 1); }

void clipt_context_release(clipt_context c)
{
    if (!c || atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    clipt_plan_cache_destroy(&c->plans); /* its plans hold no reference */
    clipt_pool_destroy(&c->pool);        /* after the plans' give-backs */
    clipt_cache_destroy(&c->cache);
    clipt_detail_destroy(&c->detail);
    clReleaseDevice(c->device);
    clReleaseContext(c->cl_ctx);
    free(c);
}

clipt_status clipt_context_error_detail(clipt_context c, char *buf, size_t len)
{
    return c ? clipt_detail_copy(&c->detail, buf, len) : CLIPT_ERROR_NULL_ARGUMENT;
}

clipt_status clipt_context_describe(clipt_context c, char *buf, size_t len)
{
    char text[4096];
    if (!c)
        return CLIPT_ERROR_NULL_ARGUMENT;
    clipt_device_profile_format(&c->profile, text, sizeof text);
    return clipt_copy_text(text, buf, len);
}

void clipt_context_plan_cache_clear(clipt_context c)
{
    if (!c)
        return;
    clipt_plan_cache_clear(&c->plans);
    clipt_pool_clear(&c->pool); /* after the plans' give-backs */
}

void clipt_context_set_pool_limit(clipt_context c, size_t max_bytes)
{
    if (c)
        clipt_pool_set_cap(&c->pool, max_bytes);
}
