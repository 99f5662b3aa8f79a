/* Kernel loader and program cache.  Kernel sources are .cl files (and the
 * headers they include) found at run time; each (file, build options) pair
 * is built once per context. */
#ifndef CLIPT_LOADER_H
#define CLIPT_LOADER_H

#include "clipt.h"
#include "pool.h"

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

/* Calls visit(file, options, user) for every program built so far (the
 * options as the stage passed them, without the loader's -cl-std), in no
 * particular order, with the cache's lock held: visit must not use the
 * cache.  For tools that list what a context built
 * (tuning/kernel_builds.c). */
void clipt_cache_visit(clipt_program_cache *cache,
                       void (*visit)(const char *file, const char *options, void *user),
                       void *user);

/* A kernel object `kernel_name` from `file` built with `options`,
 * building the program on first use: a free one of the context's pool
 * (pool.h), else a new one.  The caller owns *out (its arguments as a
 * previous owner left them) and gives it back with clipt_pool_put_kernel
 * or releases it.
 * Errors: CLIPT_ERROR_KERNEL_NOT_FOUND (detail: the paths searched),
 * CLIPT_ERROR_KERNEL_BUILD (detail: the build log, or the file's path when
 * it built but has no such kernel), CLIPT_ERROR_OUT_OF_HOST_MEMORY (also
 * for a kernel file too large to read into memory), CL_*. */
clipt_status clipt_loader_kernel(clipt_context c, const char *file,
                                 const char *options, const char *kernel_name,
                                 cl_kernel *out);

/* The same, with its work-group limit and its own __local bytes in *info
 * (as the kernel reported them when new: see pool.h). */
clipt_status clipt_loader_kernel_info(clipt_context c, const char *file, const char *options,
                                      const char *kernel_name, cl_kernel *out,
                                      clipt_kernel_info *info);

/* Reads the whole kernel file `file` from the first directory of the search
 * order that has it, each `#include "name"` line replaced by the text of
 * `name` from the same directory (so that the program caches cover the
 * headers too, and the compiler needs no -I).  On success *text is a
 * malloc'ed NUL-terminated string and `found` the file's path.  `searched`
 * receives the paths tried (for error messages).
 * CLIPT_ERROR_KERNEL_NOT_FOUND when the file, or a file it includes, is not
 * there; CLIPT_ERROR_OUT_OF_HOST_MEMORY when one is there but its text
 * cannot be held in memory. */
clipt_status clipt_loader_read(const char *file, char **text, char *found, size_t found_len,
                               char *searched, size_t searched_len);

#endif
