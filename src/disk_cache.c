/* On-disk cache of program binaries (see disk_cache.h).
 *
 * An entry is the file <dir>/<XXH3-128 of the key, hex>.bin:
 *   8 bytes   magic and format version "CLIPTPB1"
 *   4 bytes   key length K, little-endian
 *   8 bytes   binary length B, little-endian
 *   16 bytes  XXH3-128 of the binary (xxHash's canonical form)
 *   K bytes   the key text, compared in full with the wanted key
 *   B bytes   the binary
 * and nothing else: the file size must be exactly 36 + K + B. */
#define _POSIX_C_SOURCE 200809L
#include "disk_cache.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define MAGIC "CLIPTPB1"
#define HEADER_BYTES (8 + 4 + 8 + 16)
#define MAX_ENTRY_BYTES ((size_t)1 << 30) /* larger files are not entries */

const char *clipt_disk_cache_dir(void)
{
    const char *dir = getenv("CLIPT_CACHE_DIR");
    return dir && dir[0] ? dir : NULL;
}

/* ---- the key -------------------------------------------------------------- */

static int platform_text(cl_device_id dev, char *name, size_t name_len, char *version,
                         size_t version_len)
{
    cl_platform_id platform = NULL;
    return clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) ==
               CL_SUCCESS &&
           clGetPlatformInfo(platform, CL_PLATFORM_NAME, name_len, name, NULL) == CL_SUCCESS &&
           clGetPlatformInfo(platform, CL_PLATFORM_VERSION, version_len, version, NULL) ==
               CL_SUCCESS;
}

/* A malloc'ed string formatted from fmt, or NULL. */
static char *format_new(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static char *format_new(const char *fmt, ...)
{
    va_list ap;
    char *text;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(text = malloc((size_t)n + 1)))
        return NULL;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return text;
}

char *clipt_disk_cache_key(clipt_context c, const char *file, const char *source,
                           const char *options)
{
    const clipt_device_profile *p = &c->profile;
    const XXH128_hash_t h = XXH3_128bits(source, strlen(source));
    char platform[256] = "", platform_version[256] = "";
    if (!platform_text(c->device, platform, sizeof platform, platform_version,
                       sizeof platform_version))
        return NULL;
    /* every line is something that can change the binary */
    return format_new("library %s\nplatform %s\nplatform version %s\ndevice %s\n"
                      "device version %s\ndriver %s\nfile %s\n"
                      "source xxh3-128 %016llx%016llx\noptions %s\n",
                      clipt_version_string(), platform, platform_version, p->name,
                      p->version, p->driver, file, (unsigned long long)h.high64,
                      (unsigned long long)h.low64, options);
}

/* <dir>/<hash of key>.bin */
static int entry_path(const char *dir, const char *key, char *path, size_t len)
{
    const XXH128_hash_t h = XXH3_128bits(key, strlen(key));
    int n = snprintf(path, len, "%s/%016llx%016llx.bin", dir, (unsigned long long)h.high64,
                     (unsigned long long)h.low64);
    return n > 0 && (size_t)n < len;
}

/* ---- the file format -------------------------------------------------------- */

static void put_le(unsigned char *at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        at[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *at, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | at[i];
    return v;
}

static void checksum(const unsigned char *bytes, size_t len, unsigned char out[16])
{
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes, len));
    memcpy(out, canonical.digest, 16);
}

/* The whole file at path (malloc'ed) and its size, or NULL. */
static unsigned char *read_entry(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    long len;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        (unsigned long)len <= MAX_ENTRY_BYTES && fseek(f, 0, SEEK_SET) == 0 &&
        (bytes = malloc(len ? (size_t)len : 1)) != NULL &&
        fread(bytes, 1, (size_t)len, f) != (size_t)len) {
        free(bytes);
        bytes = NULL;
    }
    if (bytes)
        *size = (size_t)len;
    fclose(f);
    return bytes;
}

/* Where the binary starts in an entry of `size` bytes stored under `key`,
 * with its length in *binary_len; NULL unless every check passes. */
static const unsigned char *valid_binary(const unsigned char *e, size_t size,
                                         const char *key, size_t *binary_len)
{
    const size_t key_len = strlen(key);
    unsigned char sum[16];
    uint64_t stored_key_len, stored_len;
    if (size < HEADER_BYTES || memcmp(e, MAGIC, 8) != 0)
        return NULL;
    stored_key_len = get_le(e + 8, 4);
    stored_len = get_le(e + 12, 8);
    if (stored_key_len != key_len || size - HEADER_BYTES <= key_len ||
        stored_len != size - HEADER_BYTES - key_len ||
        memcmp(e + HEADER_BYTES, key, key_len) != 0)
        return NULL;
    checksum(e + HEADER_BYTES + key_len, (size_t)stored_len, sum);
    if (memcmp(sum, e + 20, 16) != 0)
        return NULL;
    *binary_len = (size_t)stored_len;
    return e + HEADER_BYTES + key_len;
}

/* ---- fetch ---------------------------------------------------------------------- */

/* A program from `binary`, built for c's device; NULL if the runtime
 * refuses it (another driver, a damaged binary that passed the checks). */
static cl_program program_from_binary(clipt_context c, const unsigned char *binary,
                                      size_t len, const char *options)
{
    cl_int err = CL_SUCCESS, binary_status = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(c->cl_ctx, 1, &c->device, &len,
                                                   &binary, &binary_status, &err);
    if (err != CL_SUCCESS || binary_status != CL_SUCCESS) {
        if (program)
            clReleaseProgram(program);
        return NULL;
    }
    if (clBuildProgram(program, 1, &c->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

cl_program clipt_disk_cache_fetch(clipt_context c, const char *dir, const char *key,
                                  const char *options, clipt_disk_outcome *outcome)
{
    char path[4096];
    size_t size = 0, binary_len = 0;
    unsigned char *entry;
    const unsigned char *binary;
    cl_program program = NULL;
    *outcome = CLIPT_DISK_MISS;
    if (!entry_path(dir, key, path, sizeof path) || !(entry = read_entry(path, &size)))
        return NULL;
    binary = valid_binary(entry, size, key, &binary_len);
    if (binary)
        program = program_from_binary(c, binary, binary_len, options);
    *outcome = program ? CLIPT_DISK_HIT : CLIPT_DISK_REJECTED;
    free(entry);
    return program;
}

/* ---- store ---------------------------------------------------------------------- */

/* The binary of `program` for c's device (malloc'ed), or NULL. */
static unsigned char *program_binary(clipt_context c, cl_program program, size_t *len)
{
    cl_uint count = 0;
    cl_device_id *devices = NULL;
    size_t *sizes = NULL;
    unsigned char **binaries = NULL, *mine = NULL;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, NULL) ||
        count == 0 || !(devices = calloc(count, sizeof *devices)) ||
        !(sizes = calloc(count, sizeof *sizes)) || !(binaries = calloc(count, sizeof *binaries)) ||
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, count * sizeof *devices, devices, NULL) ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, count * sizeof *sizes, sizes, NULL))
        goto done;
    /* the program may list other devices of the context: only ours is built */
    for (cl_uint i = 0; i < count; i++)
        if (devices[i] == c->device && sizes[i] > 0 && (mine = malloc(sizes[i]))) {
            binaries[i] = mine;
            *len = sizes[i];
        }
    if (mine && clGetProgramInfo(program, CL_PROGRAM_BINARIES, count * sizeof *binaries,
                                 binaries, NULL) != CL_SUCCESS) {
        free(mine);
        mine = NULL;
    }
done:
    free(devices);
    free(sizes);
    free(binaries);
    return mine;
}

static int write_all(int fd, const unsigned char *bytes, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, bytes, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        bytes += n;
        len -= (size_t)n;
    }
    return 1;
}

/* Writes header, key and binary to a new temporary file beside `path` and
 * renames it to `path`. */
static int write_entry(const char *path, const char *key, const unsigned char *binary,
                       size_t len)
{
    char tmp[4096 + 16];
    unsigned char header[HEADER_BYTES];
    const size_t key_len = strlen(key);
    int fd, ok;
    memcpy(header, MAGIC, 8);
    put_le(header + 8, key_len, 4);
    put_le(header + 12, len, 8);
    checksum(binary, len, header + 20);
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    if ((fd = mkstemp(tmp)) < 0)
        return 0;
    ok = write_all(fd, header, sizeof header) &&
         write_all(fd, (const unsigned char *)key, key_len) && write_all(fd, binary, len);
    ok = close(fd) == 0 && ok && rename(tmp, path) == 0;
    if (!ok)
        unlink(tmp);
    return ok;
}

int clipt_disk_cache_store(clipt_context c, const char *dir, const char *key,
                           cl_program program)
{
    char path[4096];
    size_t len = 0;
    unsigned char *binary;
    int ok;
    if (strlen(key) > UINT32_MAX || !entry_path(dir, key, path, sizeof path) ||
        !(binary = program_binary(c, program, &len)))
        return 0;
    /* the usual failure is EEXIST; any other shows up when writing */
    (void)mkdir(dir, 0777);
    ok = write_entry(path, key, binary, len);
    free(binary);
    return ok;
}
