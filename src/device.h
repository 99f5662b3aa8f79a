/* Device profile: everything clipt knows about a device.  This module is the
 * only place that looks at vendors, extensions or device types; the rest of
 * the library reads the profile. */
#ifndef CLIPT_DEVICE_H
#define CLIPT_DEVICE_H

#include "clipt.h"

/* Every tuning field, in table order: one list serves the table's level
 * merge, the plan options' overrides and the profile's text. */
#define CLIPT_TUNING_FIELDS(X)                                               \
    X(wg_010) X(tile_elems_010) X(wg_100) X(simd_100) X(groups_per_cu_100)   \
    X(groups_100) X(groups_per_cu_010) X(pttwac_spread) X(pttwac_pad)        \
    X(min_super) X(skinny_super) X(walk_unroll) X(walk_item_bytes)          \
    X(align_bytes)

/* Execution configuration of the elementary transpositions. */
typedef struct clipt_tuning {
    unsigned wg_010;        /* work-group size of the BS 010! kernel        */
    unsigned tile_elems_010;/* elements one BS work-group batch aims at     */
    unsigned wg_100;        /* work-group size of 100!                      */
    unsigned simd_100;      /* max work-items per super-element in 100!     */
    unsigned groups_per_cu_100; /* resident work-groups per compute unit    */
    unsigned groups_100;    /* total work-groups of 100!, 0 = per-CU rule   */
    unsigned groups_per_cu_010;
    unsigned pttwac_spread; /* PTTWAC spreading factor R                    */
    unsigned pttwac_pad;    /* PTTWAC padding words per 32 flag words       */
    unsigned min_super;     /* Min of Algorithms 2 and 5                    */
    unsigned skinny_super;  /* 2.1/2.2: largest super-element (elements)    */
    unsigned walk_unroll;   /* 100! segment walks: steps read ahead          */
    unsigned walk_item_bytes; /* 100! segment walks: bytes per work-item step */
    unsigned align_bytes;   /* tile factors preferred as multiples of this
                             * many bytes (whole memory sectors for the
                             * 100! super-elements); 1 = no preference    */
} clipt_tuning;

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

/* Queries `dev` and fills *p, including the tuning entry. */
clipt_status clipt_device_profile_query(cl_device_id dev,
                                        clipt_device_profile *p);

/* Writes the profile as text (clipt_context_describe's format). */
int clipt_device_profile_format(const clipt_device_profile *p, char *buf,
                                size_t len);

#endif
