/* Internal structures shared by the library's modules.  Not installed. */
#ifndef CLIPT_INTERNAL_H
#define CLIPT_INTERNAL_H

#include "clipt.h"
#include "detail.h"
#include "device.h"
#include "loader.h"
#include "plan_cache.h"
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct clipt_context_s {
    atomic_int refs;             /* the user's handle + one per plan not
                                    in its plan cache + one per one-shot
                                    call using it */
    cl_context cl_ctx;
    cl_device_id device;
    clipt_device_profile profile;
    clipt_program_cache cache;
    clipt_plan_cache plans;      /* the one-shot calls' plans */
    clipt_pool pool;             /* released plans' kernels and buffers */
    clipt_detail detail;         /* last failure's detail */
    /* Kernels index a region of fewer elements than this with 32-bit
     * arithmetic (SMALL_INDEX=1), larger ones with 64-bit only.  Always
     * CLIPT_WIDE_INDEX_FROM; tests lower it to run the 64-bit paths on
     * small shapes. */
    uint64_t wide_index_from;
};

/* 32-bit indices hold 0 .. 2^32 - 1. */
#define CLIPT_WIDE_INDEX_FROM ((uint64_t)1 << 32)

void clipt_context_retain(clipt_context c);

/* Checked size arithmetic: return 0 on overflow, else store the result. */
static inline int clipt_mul_ok(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

/* Copies text into a user buffer with the library's truncation rule. */
clipt_status clipt_copy_text(const char *text, char *buf, size_t len);

#endif
