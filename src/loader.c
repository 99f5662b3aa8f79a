/* Kernel loader and program cache. */
#define _GNU_SOURCE /* dladdr */
#include "disk_cache.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CLIPT_BUILD_KERNEL_DIR
#define CLIPT_BUILD_KERNEL_DIR ""
#endif
#ifndef CLIPT_INSTALL_KERNEL_DIR
#define CLIPT_INSTALL_KERNEL_DIR ""
#endif
/* The installed kernel directory relative to the installed library's
 * directory ("../share/clipt/cl"). */
#ifndef CLIPT_LIB_TO_KERNEL_DIR
#define CLIPT_LIB_TO_KERNEL_DIR ""
#endif

struct clipt_program_entry {
    char *file;
    char *options;
    cl_program program;
    clipt_program_entry *next;
};

clipt_status clipt_cache_init(clipt_program_cache *cache)
{
    cache->head = NULL;
    cache->disk_hits = cache->disk_rejects = cache->disk_stores = 0;
    return pthread_mutex_init(&cache->lock, NULL) ? CLIPT_ERROR_OUT_OF_HOST_MEMORY
                                                  : CLIPT_SUCCESS;
}

void clipt_cache_destroy(clipt_program_cache *cache)
{
    clipt_program_entry *e = cache->head;
    while (e) {
        clipt_program_entry *next = e->next;
        clReleaseProgram(e->program);
        free(e->file);
        free(e->options);
        free(e);
        e = next;
    }
    cache->head = NULL;
    pthread_mutex_destroy(&cache->lock);
}

size_t clipt_cache_count(clipt_program_cache *cache)
{
    size_t n = 0;
    pthread_mutex_lock(&cache->lock);
    for (clipt_program_entry *e = cache->head; e; e = e->next)
        n++;
    pthread_mutex_unlock(&cache->lock);
    return n;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0)
        goto done;
    text = malloc((size_t)size + 1);
    if (!text)
        goto done;
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
        goto done;
    }
    text[size] = '\0';
done:
    fclose(f);
    return text;
}

/* Tries each directory of a ':'-separated list in turn. */
static char *read_from_dirs(const char *dirs, const char *file, char *searched,
                            size_t searched_len)
{
    const char *at = dirs;
    while (at && *at) {
        const char *end = strchr(at, ':');
        size_t n = end ? (size_t)(end - at) : strlen(at);
        if (n > 0) {
            char path[4096];
            size_t used = strlen(searched);
            snprintf(path, sizeof path, "%.*s/%s", (int)n, at, file);
            snprintf(searched + used, searched_len - used, "%s%s",
                     used ? ", " : "", path);
            char *text = read_file(path);
            if (text)
                return text;
        }
        at = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The kernel directory of an installed library: CLIPT_LIB_TO_KERNEL_DIR
 * from the directory of the file that holds this code, if that is a
 * directory.  It follows the files wherever the install went (DESTDIR,
 * --prefix at install time, moved later).  Empty when this code is not in
 * an installed library: a build tree, or an executable linked statically. */
static void installed_kernel_dir(char *out, size_t len)
{
    static const char anchor = 0; /* any object of this library */
    Dl_info info;
    const char *slash;
    struct stat st;
    out[0] = '\0';
    if (!CLIPT_LIB_TO_KERNEL_DIR[0] || !dladdr(&anchor, &info) || !info.dli_fname ||
        !(slash = strrchr(info.dli_fname, '/')))
        return;
    snprintf(out, len, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
             CLIPT_LIB_TO_KERNEL_DIR);
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
        out[0] = '\0';
}

clipt_status clipt_loader_read(const char *file, char **text, char *searched,
                               size_t searched_len)
{
    char installed[4096];
    const char *order[3];
    int n = 0;
    order[n++] = getenv("CLIPT_KERNEL_PATH");
    installed_kernel_dir(installed, sizeof installed);
    if (installed[0]) {
        /* an installed library uses its own kernels only: never those of
         * a build tree that may belong to another version */
        order[n++] = installed;
    } else {
        order[n++] = CLIPT_BUILD_KERNEL_DIR;
        order[n++] = CLIPT_INSTALL_KERNEL_DIR;
    }
    searched[0] = '\0';
    for (int i = 0; i < n; i++) {
        *text = read_from_dirs(order[i], file, searched, searched_len);
        if (*text)
            return CLIPT_SUCCESS;
    }
    return CLIPT_ERROR_KERNEL_NOT_FOUND;
}

/* Records the compiler's log of a failed build as the context's detail. */
static void record_build_log(clipt_context c, cl_program program, const char *file,
                             const char *full_options, cl_int err)
{
    size_t log_len = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(program, c->device, CL_PROGRAM_BUILD_LOG, 0,
                              NULL, &log_len) == CL_SUCCESS &&
        (log = malloc(log_len + 1)) != NULL &&
        clGetProgramBuildInfo(program, c->device, CL_PROGRAM_BUILD_LOG,
                              log_len, log, NULL) == CL_SUCCESS) {
        log[log_len] = '\0';
        clipt_context_set_detail(c, "build of %s with \"%s\" failed (%d):\n%s",
                                 file, full_options, err, log);
    } else {
        clipt_context_set_detail(c, "build of %s with \"%s\" failed (%d)",
                                 file, full_options, err);
    }
    free(log);
}

static clipt_status build_from_source(clipt_context c, const char *file,
                                      const char *source, const char *full_options,
                                      cl_program *out)
{
    const char *sources[1] = {source};
    cl_int err;
    cl_program program = clCreateProgramWithSource(c->cl_ctx, 1, sources, NULL, &err);
    if (err != CL_SUCCESS)
        return err;
    err = clBuildProgram(program, 1, &c->device, full_options, NULL, NULL);
    if (err != CL_SUCCESS) {
        record_build_log(c, program, file, full_options, err);
        clReleaseProgram(program);
        return CLIPT_ERROR_KERNEL_BUILD;
    }
    *out = program;
    return CLIPT_SUCCESS;
}

/* Reads `file` and builds it, through the on-disk cache when
 * CLIPT_CACHE_DIR is set: a valid entry (same source text, options,
 * device, driver and library) replaces the build, and a build from source
 * writes the entry.  Called with the program cache's lock held. */
static clipt_status build_program(clipt_context c, const char *file,
                                  const char *options, cl_program *out)
{
    char searched[8192];
    char *source = NULL, *full_options = NULL, *key = NULL;
    const char *dir = clipt_disk_cache_dir();
    clipt_disk_outcome outcome = CLIPT_DISK_MISS;
    clipt_status status = clipt_loader_read(file, &source, searched, sizeof searched);
    if (status != CLIPT_SUCCESS) {
        clipt_context_set_detail(c, "kernel file %s not found; searched: %s",
                                 file, searched[0] ? searched : "(no directory)");
        return status;
    }
    full_options = malloc(strlen(options) + 32);
    if (!full_options) {
        status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        goto cleanup;
    }
    sprintf(full_options, "-cl-std=CL1.2 %s", options);
    /* no key (out of memory, a failed query): no disk cache this time */
    if (dir)
        key = clipt_disk_cache_key(c, file, source, full_options);
    if (key && (*out = clipt_disk_cache_fetch(c, dir, key, full_options, &outcome))) {
        c->cache.disk_hits++;
        goto cleanup;
    }
    if (outcome == CLIPT_DISK_REJECTED)
        c->cache.disk_rejects++;
    status = build_from_source(c, file, source, full_options, out);
    if (status == CLIPT_SUCCESS && key && clipt_disk_cache_store(c, dir, key, *out))
        c->cache.disk_stores++;
cleanup:
    free(key);
    free(full_options);
    free(source);
    return status;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

static clipt_status cached_program(clipt_context c, const char *file,
                                   const char *options, cl_program *out)
{
    clipt_program_cache *cache = &c->cache;
    clipt_program_entry *e;
    clipt_status status = CLIPT_SUCCESS;
    pthread_mutex_lock(&cache->lock);
    for (e = cache->head; e; e = e->next)
        if (strcmp(e->file, file) == 0 && strcmp(e->options, options) == 0)
            break;
    if (!e) {
        cl_program program = NULL;
        status = build_program(c, file, options, &program);
        if (status == CLIPT_SUCCESS) {
            e = calloc(1, sizeof *e);
            if (e && (e->file = copy_string(file)) && (e->options = copy_string(options))) {
                e->program = program;
                e->next = cache->head;
                cache->head = e;
            } else {
                if (e) {
                    free(e->file);
                    free(e);
                    e = NULL;
                }
                clReleaseProgram(program);
                status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
            }
        }
    }
    if (e)
        *out = e->program;
    pthread_mutex_unlock(&cache->lock);
    return status;
}

clipt_status clipt_loader_kernel(clipt_context c, const char *file,
                                 const char *options, const char *kernel_name,
                                 cl_kernel *out)
{
    cl_program program = NULL;
    cl_int err;
    clipt_status status = cached_program(c, file, options, &program);
    if (status != CLIPT_SUCCESS)
        return status;
    *out = clCreateKernel(program, kernel_name, &err);
    return err;
}
