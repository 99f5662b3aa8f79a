/* Device profile: everything clipt knows about a device.  This module is the
 * only place that looks at vendors, extensions or device types; the rest of
 * the library reads the profile. */
#ifndef CLIPT_DEVICE_H
#define CLIPT_DEVICE_H

#include "tuning.h"

typedef struct clipt_device_profile {
    char name[256];
    char vendor[256];
    char driver[128];
    char version[128];
    cl_device_type type;
    cl_ulong local_mem_bytes;    /* usable local memory per work-group */
    cl_ulong max_alloc_bytes;
    cl_ulong global_mem_bytes;
    size_t max_wg_size;
    size_t max_item_size0;
    cl_ulong max_global_size;    /* largest global work size (address bits) */
    cl_uint compute_units;
    unsigned simd_width;         /* warp / wavefront / preferred multiple */
    const char *simd_source;     /* which query gave simd_width */
    clipt_tuning tuning;
    char tuning_entry[128];      /* which tuning table entry was used */
} clipt_device_profile;

/* Queries `dev` and fills *p, all but the tuning (clipt_tuning_select). */
clipt_status clipt_device_profile_query(cl_device_id dev,
                                        clipt_device_profile *p);

/* Local memory (bytes) a kernel may use for its data (tiles, super-
 * elements, flags) beside `own` bytes of its own __local variables (its
 * CL_KERNEL_LOCAL_MEM_SIZE once built).  Before a kernel is built its own
 * variables are not known: CLIPT_OWN_LOCALS_UNKNOWN keeps 1 KiB for them
 * (half the memory when there is no more than 1 KiB); 0 gives the whole
 * memory, an upper bound for checks made before building.  The one rule of
 * the local-memory budget: the plan's tile choice and every stage use it. */
#define CLIPT_OWN_LOCALS_UNKNOWN ((size_t)-1)
size_t clipt_local_budget(const clipt_device_profile *p, size_t own);

/* Writes the profile as text (clipt_context_describe's format). */
int clipt_device_profile_format(const clipt_device_profile *p, char *buf,
                                size_t len);

#endif
