/* Files for `clipt transpose`: inputs are only ever read; outputs are
 * written to a temporary file in the target's directory and renamed over
 * the target once complete and synced, so an interruption or an error
 * never leaves a half-written file behind under the target's name. */
#define _XOPEN_SOURCE 700 /* realpath, fchmod, mkstemp */

#include "npy_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A lying header could claim 4 GiB; headers NumPy writes are far smaller. */
#define MAX_HEADER_BYTES ((size_t)1 << 20)

/* ---- reading ------------------------------------------------------------ */

const char *file_open_input(const char *path, int *fd, size_t *size, char *err,
                            size_t err_len)
{
    struct stat st;
    const char *why = NULL;
    *fd = open(path, O_RDONLY);
    if (*fd < 0)
        return npy_message(err, err_len, "cannot open it: %s", strerror(errno));
    if (fstat(*fd, &st) != 0)
        why = npy_message(err, err_len, "cannot read it: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode))
        why = npy_message(err, err_len, "is a directory, not a file");
    else if (!S_ISREG(st.st_mode))
        why = npy_message(err, err_len, "is not a regular file");
    if (why) {
        close(*fd);
        *fd = -1;
        return why;
    }
    *size = (size_t)st.st_size;
    return NULL;
}

const char *file_read_at(int fd, void *buf, size_t len, size_t offset, char *err,
                         size_t err_len)
{
    unsigned char *p = buf;
    while (len > 0) {
        const ssize_t n = pread(fd, p, len, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return npy_message(err, err_len, "cannot read it: %s", strerror(errno));
        if (n == 0)
            return npy_message(err, err_len, "it became shorter while being read");
        p += n;
        len -= (size_t)n;
        offset += (size_t)n;
    }
    return NULL;
}

const char *npy_read_header(int fd, size_t file_size, npy_header *h, char *err,
                            size_t err_len)
{
    unsigned char prefix[NPY_PREFIX_V2], *text;
    const size_t seen = file_size < sizeof prefix ? file_size : sizeof prefix;
    const char *why;
    char shape[256];
    size_t after;
    if ((why = file_read_at(fd, prefix, seen, 0, err, err_len)) != NULL ||
        (why = npy_parse_prefix(prefix, seen, h, err, err_len)) != NULL)
        return why;
    if (h->header_bytes > file_size)
        return npy_message(err, err_len, "truncated header: it claims %zu bytes, the file has %zu",
                    h->header_bytes, file_size);
    if (h->header_bytes > MAX_HEADER_BYTES)
        return npy_message(err, err_len, "header of %zu bytes is longer than the %zu that clipt "
                    "reads", h->header_bytes, MAX_HEADER_BYTES);
    if (!(text = malloc(h->header_bytes)))
        return npy_message(err, err_len, "out of host memory for the header");
    if ((why = file_read_at(fd, text, h->header_bytes, 0, err, err_len)) == NULL)
        why = npy_parse_header(text, h->header_bytes, h, err, err_len);
    free(text);
    if (why)
        return why;
    after = file_size - h->header_bytes;
    if (after == h->data_bytes)
        return NULL;
    npy_shape_text(h, shape, sizeof shape);
    return npy_message(err, err_len, "%s: shape %s of %zu-byte elements needs %zu bytes after "
                "the header, the file has %zu",
                after < h->data_bytes ? "truncated data" : "data size mismatch", shape,
                h->elem_size, h->data_bytes, after);
}

/* ---- atomic replacement ------------------------------------------------- */

static int write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        const ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

/* The mode of the file being replaced, else what creat() would give. */
static mode_t new_file_mode(const char *target)
{
    struct stat st;
    mode_t mask;
    if (stat(target, &st) == 0)
        return st.st_mode & 07777;
    mask = umask(0); /* the only way to read it */
    umask(mask);
    return 0666 & ~mask;
}

/* Makes the rename itself durable.  Some file systems cannot sync a
 * directory (EINVAL): the file's own data is synced regardless. */
static int sync_directory(const char *dir)
{
    int ok;
    const int fd = open(dir, O_RDONLY);
    if (fd < 0)
        return 0;
    ok = fsync(fd) == 0 || errno == EINVAL;
    close(fd);
    return ok;
}

/* Writes the new contents into the open temporary file and closes it. */
static const char *fill_temporary(int fd, const char *target, const void *head,
                                  size_t head_len, const void *data, size_t data_len,
                                  char *err, size_t err_len)
{
    const char *why = NULL;
    errno = 0; /* write_all can fail without errno: a write of 0 bytes */
    if (!write_all(fd, head, head_len) || !write_all(fd, data, data_len))
        why = npy_message(err, err_len, "cannot write the new file: %s",
                   errno ? strerror(errno) : "nothing written");
    else if (fchmod(fd, new_file_mode(target)) != 0)
        why = npy_message(err, err_len, "cannot set the new file's mode: %s", strerror(errno));
    else if (fsync(fd) != 0)
        why = npy_message(err, err_len, "cannot sync the new file: %s", strerror(errno));
    if (close(fd) != 0 && !why)
        why = npy_message(err, err_len, "cannot close the new file: %s", strerror(errno));
    return why;
}

const char *file_replace_atomic(const char *path, const void *head, size_t head_len,
                                const void *data, size_t data_len, char *err,
                                size_t err_len)
{
    char resolved[PATH_MAX], dir[PATH_MAX], temp[PATH_MAX + 32];
    const char *target = realpath(path, resolved) ? resolved : path;
    const char *slash = strrchr(target, '/');
    const char *why = NULL;
    int fd, n;
    /* the temporary must be in the target's directory: rename() is atomic
     * only within one file system */
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == target)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
    n = snprintf(temp, sizeof temp, "%s/.%s.clipt-XXXXXX", dir, slash ? slash + 1 : target);
    if (n < 0 || (size_t)n >= sizeof temp)
        return npy_message(err, err_len, "path is too long");
    if ((fd = mkstemp(temp)) < 0)
        return npy_message(err, err_len, "cannot create a file in directory '%s': %s", dir,
                    strerror(errno));
    why = fill_temporary(fd, target, head, head_len, data, data_len, err, err_len);
    if (!why && rename(temp, target) != 0)
        why = npy_message(err, err_len, "cannot rename the new file over it: %s", strerror(errno));
    if (why) {
        unlink(temp);
        return why;
    }
    if (!sync_directory(dir))
        return npy_message(err, err_len, "written, but syncing directory '%s' failed: %s", dir,
                    strerror(errno));
    return NULL;
}
