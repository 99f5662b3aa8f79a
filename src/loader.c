/* Kernel loader and program cache. */
#define _GNU_SOURCE /* dladdr */
#include "disk_cache.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* The build tree's shared library (its path at build time). */
#ifndef CLIPT_BUILD_LIBRARY
#define CLIPT_BUILD_LIBRARY ""
#endif

struct clipt_program_entry {
    char *file;
    char *options;
    char *path;              /* where the file was read, for messages */
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
        free(e->path);
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

void clipt_cache_visit(clipt_program_cache *cache,
                       void (*visit)(const char *file, const char *options, void *user),
                       void *user)
{
    pthread_mutex_lock(&cache->lock);
    for (clipt_program_entry *e = cache->head; e; e = e->next)
        visit(e->file, e->options, user);
    pthread_mutex_unlock(&cache->lock);
}

/* Reads the whole file at `path` into *text (malloc'ed, NUL-terminated).
 * KERNEL_NOT_FOUND when it cannot be opened or read; OUT_OF_HOST_MEMORY
 * when its text cannot be held (it is there: "not found" would mislead). */
static clipt_status read_file(const char *path, char **text)
{
    FILE *f = fopen(path, "rb");
    clipt_status status = CLIPT_ERROR_KERNEL_NOT_FOUND;
    long size;
    *text = NULL;
    if (!f)
        return status;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        char *buf = malloc((size_t)size + 1);
        if (!buf) {
            status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
        } else if (fread(buf, 1, (size_t)size, f) == (size_t)size) {
            buf[size] = '\0';
            *text = buf;
            status = CLIPT_SUCCESS;
        } else {
            free(buf);
        }
    }
    fclose(f);
    return status;
}

/* Reads dir/file (dir: its first dir_len characters) as read_file does,
 * after noting the path in `searched`. */
static clipt_status read_in_dir(const char *dir, size_t dir_len, const char *file,
                                char *searched, size_t searched_len, char **text)
{
    char path[4096];
    size_t used = strlen(searched);
    snprintf(path, sizeof path, "%.*s/%s", (int)dir_len, dir, file);
    snprintf(searched + used, searched_len - used, "%s%s", used ? ", " : "", path);
    return read_file(path, text);
}

/* A growing string; `failed` once an allocation failed. */
typedef struct text_buf {
    char *s;
    size_t len, cap;
    int failed;
} text_buf;

static void put(text_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* The file name of a line `#include "name"` (spaces allowed around `#`),
 * or NULL; *name_len receives its length. */
static const char *included_name(const char *line, size_t *name_len)
{
    const char *at = line, *end;
    while (*at == ' ' || *at == '\t')
        at++;
    if (*at++ != '#')
        return NULL;
    while (*at == ' ' || *at == '\t')
        at++;
    if (strncmp(at, "include", 7) != 0)
        return NULL;
    at += 7;
    while (*at == ' ' || *at == '\t')
        at++;
    if (*at++ != '"' || !(end = strchr(at, '"')) || memchr(at, '\n', (size_t)(end - at)))
        return NULL;
    *name_len = (size_t)(end - at);
    return at;
}

#define CLIPT_MAX_INCLUDE_DEPTH 8

/* Appends `text` (of file `file`) to out with each `#include "name"` line
 * replaced by the text of `name` from the same directory, itself expanded,
 * between #line markers so that build logs name the right file and line.
 * The kernels' headers have include guards, so a header met twice costs
 * nothing.  A header that is not there is CLIPT_ERROR_KERNEL_NOT_FOUND,
 * with its path in `searched`; one too large for memory is
 * CLIPT_ERROR_OUT_OF_HOST_MEMORY. */
static clipt_status expand_includes(const char *dir, size_t dir_len, const char *file,
                                    const char *text, int depth, text_buf *out,
                                    char *searched, size_t searched_len)
{
    unsigned line_no = 1;
    for (const char *line = text; *line; line_no++) {
        const char *eol = strchr(line, '\n');
        const size_t len = eol ? (size_t)(eol - line + 1) : strlen(line);
        size_t name_len = 0;
        const char *name = included_name(line, &name_len);
        if (name && depth < CLIPT_MAX_INCLUDE_DEPTH) {
            char header[256], marker[600];
            char *inner = NULL;
            clipt_status status;
            snprintf(header, sizeof header, "%.*s", (int)name_len, name);
            status = read_in_dir(dir, dir_len, header, searched, searched_len, &inner);
            if (status != CLIPT_SUCCESS)
                return status;
            snprintf(marker, sizeof marker, "#line 1 \"%s\"\n", header);
            put(out, marker, strlen(marker));
            status = expand_includes(dir, dir_len, header, inner, depth + 1, out, searched,
                                     searched_len);
            free(inner);
            if (status != CLIPT_SUCCESS)
                return status;
            snprintf(marker, sizeof marker, "\n#line %u \"%s\"\n", line_no + 1, file);
            put(out, marker, strlen(marker));
        } else {
            put(out, line, len);
        }
        line += len;
    }
    return out->failed ? CLIPT_ERROR_OUT_OF_HOST_MEMORY : CLIPT_SUCCESS;
}

/* Tries each directory of a ':'-separated list in turn.  Returns 0 when
 * none has the file; else 1, with *status telling whether *text holds it,
 * its includes from the same directory expanded, and `found` its path.  A
 * file that is there but cannot be held in memory ends the search. */
static int read_from_dirs(const char *dirs, const char *file, char **text,
                          clipt_status *status, char *found, size_t found_len,
                          char *searched, size_t searched_len)
{
    for (const char *at = dirs; at && *at;) {
        const char *end = strchr(at, ':');
        const size_t n = end ? (size_t)(end - at) : strlen(at);
        char *raw = NULL;
        *status = n > 0 ? read_in_dir(at, n, file, searched, searched_len, &raw)
                        : CLIPT_ERROR_KERNEL_NOT_FOUND;
        if (*status == CLIPT_ERROR_OUT_OF_HOST_MEMORY)
            return 1;
        if (raw) {
            text_buf out = {NULL, 0, 0, 0};
            snprintf(found, found_len, "%.*s/%s", (int)n, at, file);
            put(&out, "", 0); /* an empty file is an empty text */
            *status = expand_includes(at, n, file, raw, 0, &out, searched, searched_len);
            free(raw);
            if (*status == CLIPT_SUCCESS)
                *text = out.s;
            else
                free(out.s);
            return 1;
        }
        at = end ? end + 1 : NULL;
    }
    return 0;
}

/* Whether this code runs from the build tree, where it takes the source
 * tree's kernels: linked into an executable (only the build's static
 * library is), or the build's own shared library.  Anything else is an
 * installed library, whatever is beside it: one whose kernel directory is
 * missing must not fall back on a build tree of another version. */
static int in_build_tree(const Dl_info *info, const struct link_map *map)
{
    char self[PATH_MAX], built[PATH_MAX];
    if (!map->l_name || !map->l_name[0])
        return 1; /* the main program's link map has no name */
    return CLIPT_BUILD_LIBRARY[0] && realpath(info->dli_fname, self) &&
           realpath(CLIPT_BUILD_LIBRARY, built) && strcmp(self, built) == 0;
}

/* The kernel directory of an installed library: CLIPT_LIB_TO_KERNEL_DIR
 * from the directory of the file that holds this code.  It follows the
 * files wherever the install went (DESTDIR, --prefix at install time,
 * moved later).  Empty when this code runs from the build tree. */
static void installed_kernel_dir(char *out, size_t len)
{
    static const char anchor = 0; /* any object of this library */
    Dl_info info;
    struct link_map *map = NULL;
    const char *slash;
    out[0] = '\0';
    if (!CLIPT_LIB_TO_KERNEL_DIR[0] ||
        !dladdr1(&anchor, &info, (void **)&map, RTLD_DL_LINKMAP) || !map ||
        !info.dli_fname || in_build_tree(&info, map) ||
        !(slash = strrchr(info.dli_fname, '/')))
        return;
    snprintf(out, len, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
             CLIPT_LIB_TO_KERNEL_DIR);
}

clipt_status clipt_loader_read(const char *file, char **text, char *found, size_t found_len,
                               char *searched, size_t searched_len)
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
        clipt_status status;
        if (read_from_dirs(order[i], file, text, &status, found, found_len, searched,
                           searched_len))
            return status;
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
        clipt_detail_set(&c->detail, "build of %s with \"%s\" failed (%d):\n%s",
                                 file, full_options, err, log);
    } else {
        clipt_detail_set(&c->detail, "build of %s with \"%s\" failed (%d)",
                                 file, full_options, err);
    }
    free(log);
}

static clipt_status build_from_source(clipt_context c, const char *path,
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
        record_build_log(c, program, path, full_options, err);
        clReleaseProgram(program);
        return CLIPT_ERROR_KERNEL_BUILD;
    }
    *out = program;
    return CLIPT_SUCCESS;
}

/* Reads `file` (from `path`, which it fills) and builds it, through the
 * on-disk cache when CLIPT_CACHE_DIR is set: a valid entry (same source
 * text, options, device, driver and library) replaces the build, and a
 * build from source writes the entry.  Called with the program cache's
 * lock held. */
static clipt_status build_program(clipt_context c, const char *file,
                                  const char *options, cl_program *out, char *path,
                                  size_t path_len)
{
    char searched[8192];
    char *source = NULL, *full_options = NULL, *key = NULL;
    const char *dir = clipt_disk_cache_dir();
    clipt_disk_outcome outcome = CLIPT_DISK_MISS;
    clipt_status status = clipt_loader_read(file, &source, path, path_len, searched,
                                            sizeof searched);
    if (status != CLIPT_SUCCESS) {
        if (status == CLIPT_ERROR_KERNEL_NOT_FOUND)
            clipt_detail_set(&c->detail, "kernel file %s (or a file it includes) not found; "
                             "searched: %s",
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
    status = build_from_source(c, path, source, full_options, out);
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

/* The program of (file, options), built on first use; *path: where the
 * file was read (the entry's, valid as long as the context). */
static clipt_status cached_program(clipt_context c, const char *file,
                                   const char *options, cl_program *out,
                                   const char **path)
{
    clipt_program_cache *cache = &c->cache;
    clipt_program_entry *e;
    clipt_status status = CLIPT_SUCCESS;
    pthread_mutex_lock(&cache->lock);
    for (e = cache->head; e; e = e->next)
        if (strcmp(e->file, file) == 0 && strcmp(e->options, options) == 0)
            break;
    if (!e) {
        char found[4096];
        cl_program program = NULL;
        status = build_program(c, file, options, &program, found, sizeof found);
        if (status == CLIPT_SUCCESS) {
            e = calloc(1, sizeof *e);
            if (e && (e->file = copy_string(file)) && (e->options = copy_string(options)) &&
                (e->path = copy_string(found))) {
                e->program = program;
                e->next = cache->head;
                cache->head = e;
            } else {
                if (e) {
                    free(e->file);
                    free(e->options);
                    free(e);
                    e = NULL;
                }
                clReleaseProgram(program);
                status = CLIPT_ERROR_OUT_OF_HOST_MEMORY;
            }
        }
    }
    if (e) {
        *out = e->program;
        *path = e->path;
    }
    pthread_mutex_unlock(&cache->lock);
    return status;
}

/* The limits of a new kernel k of program, noted in the pool for the
 * next ones (pool.h: a kernel that has run cannot be asked). */
static cl_int query_info(clipt_context c, cl_program program, const char *name, cl_kernel k,
                         clipt_kernel_info *info)
{
    cl_ulong local_used = 0;
    cl_int err = clGetKernelWorkGroupInfo(k, c->device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof info->wg_limit, &info->wg_limit, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(k, c->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                       sizeof local_used, &local_used, NULL);
    info->own_local = (size_t)local_used;
    if (err == CL_SUCCESS)
        clipt_pool_note_kernel(&c->pool, program, name, info);
    return err;
}

clipt_status clipt_loader_kernel_info(clipt_context c, const char *file, const char *options,
                                      const char *kernel_name, cl_kernel *out,
                                      clipt_kernel_info *info)
{
    cl_program program = NULL;
    const char *path = file;
    cl_int err;
    int known = 0;
    clipt_status status = cached_program(c, file, options, &program, &path);
    *out = NULL;
    if (status != CLIPT_SUCCESS)
        return status;
    err = clipt_pool_take_kernel(&c->pool, program, kernel_name, out, info, &known);
    if (err == CL_SUCCESS && !known && (err = query_info(c, program, kernel_name, *out, info))) {
        clReleaseKernel(*out);
        *out = NULL;
    }
    if (err != CL_INVALID_KERNEL_NAME)
        return err;
    /* the file built but lacks the kernel: an empty or modified copy */
    clipt_detail_set(&c->detail, "%s (options \"%s\") built, but defines no kernel %s: an "
                     "empty or modified kernel file?", path, options, kernel_name);
    return CLIPT_ERROR_KERNEL_BUILD;
}

clipt_status clipt_loader_kernel(clipt_context c, const char *file, const char *options,
                                 const char *kernel_name, cl_kernel *out)
{
    clipt_kernel_info info;
    return clipt_loader_kernel_info(c, file, options, kernel_name, out, &info);
}
