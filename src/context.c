/* clipt_context: device profile, program cache, last failure's detail. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    status = err;
    if (err == CL_SUCCESS) {
        status = CLIPT_ERROR_DEVICE_MISMATCH;
        for (cl_uint i = 0; i < count; i++)
            if (devices[i] == dev)
                status = CLIPT_SUCCESS;
    }
    free(devices);
    return status;
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
    if ((status = clipt_cache_init(&c->cache)) != CLIPT_SUCCESS)
        goto fail;
    if (pthread_mutex_init(&c->detail_lock, NULL)) {
        clipt_cache_destroy(&c->cache);
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    if ((status = clRetainContext(ctx)) == CL_SUCCESS &&
        (status = clRetainDevice(dev)) != CL_SUCCESS)
        clReleaseContext(ctx);
    if (status != CL_SUCCESS) {
        pthread_mutex_destroy(&c->detail_lock);
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
    clipt_cache_destroy(&c->cache);
    pthread_mutex_destroy(&c->detail_lock);
    free(c->detail);
    clReleaseDevice(c->device);
    clReleaseContext(c->cl_ctx);
    free(c);
}

void clipt_context_set_detail(clipt_context c, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *text;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    text = malloc((size_t)n + 1);
    if (!text)
        return;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&c->detail_lock);
    free(c->detail);
    c->detail = text;
    pthread_mutex_unlock(&c->detail_lock);
}

clipt_status clipt_context_error_detail(clipt_context c, char *buf, size_t len)
{
    clipt_status status;
    if (!c)
        return CLIPT_ERROR_NULL_ARGUMENT;
    pthread_mutex_lock(&c->detail_lock);
    status = clipt_copy_text(c->detail ? c->detail : "", buf, len);
    pthread_mutex_unlock(&c->detail_lock);
    return status;
}

clipt_status clipt_context_describe(clipt_context c, char *buf, size_t len)
{
    char text[4096];
    if (!c)
        return CLIPT_ERROR_NULL_ARGUMENT;
    clipt_device_profile_format(&c->profile, text, sizeof text);
    return clipt_copy_text(text, buf, len);
}
