/* On-disk cache of built kernel programs, for the loader.  Off unless
 * CLIPT_CACHE_DIR names a directory.  An entry holds one device's program
 * binary (clGetProgramInfo CL_PROGRAM_BINARIES) under a key made of
 * everything that can change the binary; it is trusted only when its
 * stored key equals the wanted one and its checksum matches its bytes, and
 * the runtime accepts it.  Anything else is a miss, and the program is
 * built from source and stored again.  Nothing here prints or fails a
 * build: a cache that cannot be read or written is no cache.  Built only
 * with xxHash (CMake option CLIPT_DISK_CACHE); without, the functions below
 * do nothing and the variable is ignored. */
#ifndef CLIPT_DISK_CACHE_H
#define CLIPT_DISK_CACHE_H

#include "internal.h"

typedef enum clipt_disk_outcome {
    CLIPT_DISK_MISS,     /* no entry                                       */
    CLIPT_DISK_HIT,      /* the program came from the entry                */
    CLIPT_DISK_REJECTED  /* an entry was there but invalid or refused:
                            truncated, corrupt, another key, bad binary    */
} clipt_disk_outcome;

#ifdef CLIPT_DISK_CACHE

/* The cache directory ($CLIPT_CACHE_DIR), or NULL when unset or empty. */
const char *clipt_disk_cache_dir(void);

/* The key of the program built for context c's device from kernel file
 * `file` with text `source` and the full build `options`: platform,
 * device, driver and library versions, a hash of the source, the options.
 * A malloc'ed string, or NULL when out of memory or a query fails. */
char *clipt_disk_cache_key(clipt_context c, const char *file, const char *source,
                           const char *options);

/* The program stored under `key` in `dir`, built for c's device with
 * `options`, or NULL; *outcome says which. */
cl_program clipt_disk_cache_fetch(clipt_context c, const char *dir, const char *key,
                                  const char *options, clipt_disk_outcome *outcome);

/* Writes the binary of `program` for c's device under `key` in `dir`
 * (creating dir's last component if missing) through a temporary file
 * renamed into place, so readers never see half an entry.  Returns 1 when
 * the entry was written. */
int clipt_disk_cache_store(clipt_context c, const char *dir, const char *key,
                           cl_program program);

#else /* built without xxHash: no disk cache, the variable is ignored */

static inline const char *clipt_disk_cache_dir(void) { return NULL; }

static inline char *clipt_disk_cache_key(clipt_context c, const char *file,
                                         const char *source, const char *options)
{
    (void)c, (void)file, (void)source, (void)options;
    return NULL;
}

static inline cl_program clipt_disk_cache_fetch(clipt_context c, const char *dir,
                                                const char *key, const char *options,
                                                clipt_disk_outcome *outcome)
{
    (void)c, (void)dir, (void)key, (void)options;
    *outcome = CLIPT_DISK_MISS;
    return NULL;
}

static inline int clipt_disk_cache_store(clipt_context c, const char *dir,
                                         const char *key, cl_program program)
{
    (void)c, (void)dir, (void)key, (void)program;
    return 0;
}

#endif

#endif
