/* The one-shot clipt_transpose and its process-wide cache of contexts,
 * one per (cl_context, cl_device_id), each with its plan cache.  Reached
 * by tests through this internal header. */
#ifndef CLIPT_ONESHOT_H
#define CLIPT_ONESHOT_H

#include "clipt.h"

/* (cl_context, device) pairs clipt_transpose keeps contexts for. */
#define CLIPT_ONESHOT_ENTRIES CLIPT_TRANSPOSE_CACHE_SIZE

/* Test hooks: the cached context of (ctx, dev) with a reference for the
 * caller (clipt_context_release), or NULL; and how many are cached. */
clipt_context clipt_oneshot_peek(cl_context ctx, cl_device_id dev);
size_t clipt_oneshot_count(void);

#endif
