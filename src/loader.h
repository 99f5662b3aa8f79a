/* Kernel loader and program cache.  Kernel sources are .cl files found at
 * run time; each (file, build options) pair is built once per context. */
#ifndef CLIPT_LOADER_H
#define CLIPT_LOADER_H

#include "clipt.h"

#include <pthread.h>

typedef struct clipt_program_entry clipt_program_entry;

typedef struct clipt_program_cache {
    pthread_mutex_t lock;
    clipt_program_entry *head;
    /* the on-disk cache (CLIPT_CACHE_DIR), counted for tests */
    size_t disk_hits;     /* programs loaded from an entry              */
    size_t disk_rejects;  /* entries found invalid or refused (rebuilt)  */
    size_t disk_stores;   /* entries written after a build from source   */
} clipt_program_cache;

clipt_status clipt_cache_init(clipt_program_cache *cache);
void clipt_cache_destroy(clipt_program_cache *cache);

/* Number of programs built so far (for tests of the cache). */
size_t clipt_cache_count(clipt_program_cache *cache);

/* Creates a new kernel object `kernel_name` from `file` built with
 * `options`, building the program on first use.  The caller owns *out.
 * Errors: CLIPT_ERROR_KERNEL_NOT_FOUND (detail: the paths searched),
 * CLIPT_ERROR_KERNEL_BUILD (detail: the build log), CL_*. */
clipt_status clipt_loader_kernel(clipt_context c, const char *file,
                                 const char *options, const char *kernel_name,
                                 cl_kernel *out);

/* Reads the whole kernel file `file` from the first directory of the search
 * order that has it.  On success *text is a malloc'ed NUL-terminated string.
 * `searched` receives the directories tried (for error messages). */
clipt_status clipt_loader_read(const char *file, char **text, char *searched,
                               size_t searched_len);

#endif
