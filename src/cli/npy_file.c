/* Files for `clipt transpose`: inputs are only ever read; outputs are
 * written to a temporary file in the target's directory and renamed over
 * the target once complete and synced, so an interruption or an error
 * never leaves a half-written file behind under the target's name. */
#define _XOPEN_SOURCE 700 /* fchmod, fchown, lstat, readlink, mkstemp */

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

/* Copies everything that comes on fd `from` into fd `to`. */
static int copy_stream(int from, int to)
{
    static unsigned char chunk[1 << 20];
    for (;;) {
        const ssize_t n = read(from, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0;
        if (!write_all(to, chunk, (size_t)n))
            return 0;
    }
}

const char *file_open_stdin(int *fd, size_t *size, char *err, size_t err_len)
{
    struct stat st;
    const char *dir = getenv("TMPDIR");
    char path[PATH_MAX];
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
        lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
        if ((*fd = dup(STDIN_FILENO)) < 0)
            return npy_message(err, err_len, "cannot read it: %s", strerror(errno));
        *size = (size_t)st.st_size;
        return NULL;
    }
    /* a pipe or a terminal: pread() needs a file, so the data goes into one */
    snprintf(path, sizeof path, "%s/clipt-stdin-XXXXXX", dir && dir[0] ? dir : "/tmp");
    if ((*fd = mkstemp(path)) < 0)
        return npy_message(err, err_len, "cannot create a temporary file for it in '%s': %s",
                           dir && dir[0] ? dir : "/tmp", strerror(errno));
    unlink(path);
    errno = 0;
    if (!copy_stream(STDIN_FILENO, *fd) || fstat(*fd, &st) != 0) {
        const int why = errno;
        close(*fd);
        *fd = -1;
        return npy_message(err, err_len, "cannot read it into a temporary file: %s",
                           why ? strerror(why) : "nothing written");
    }
    *size = (size_t)st.st_size;
    return NULL;
}

const char *file_write_stdout(const void *head, size_t head_len, const void *data,
                              size_t data_len, char *err, size_t err_len)
{
    errno = 0;
    if (!write_all(STDOUT_FILENO, head, head_len) ||
        !write_all(STDOUT_FILENO, data, data_len))
        return npy_message(err, err_len, "cannot write it: %s",
                           errno ? strerror(errno) : "nothing written");
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

/* The mode a new file gets from creat(): 0666 less the umask. */
static mode_t created_mode(void)
{
    const mode_t mask = umask(0); /* the only way to read it */
    umask(mask);
    return 0666 & ~mask;
}

/* Where the symbolic link `at` points: `link` itself when absolute, else
 * `link` in the directory of `at`.  NULL when it does not fit. */
static const char *link_target(const char *at, const char *link, char *out, size_t out_len)
{
    const char *slash = strrchr(at, '/');
    const int dir_len = link[0] == '/' || !slash ? 0 : (int)(slash - at) + 1;
    const int n = snprintf(out, out_len, "%.*s%s", dir_len, at, link);
    return n < 0 || (size_t)n >= out_len ? NULL : out;
}

const char *file_resolve_output(const char *path, file_target *t, char *err, size_t err_len)
{
    char at[PATH_MAX], link[PATH_MAX], next[PATH_MAX];
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at)
        return npy_message(err, err_len, "path is too long");
    t->exists = 0;
    /* stat() follows every link (the kernel's own links of /proc
     * included); only a chain that ends nowhere is walked here, one link
     * at a time, to find the name to create */
    for (int hops = 0; hops <= 40; hops++) {
        struct stat link_st;
        ssize_t n;
        if (stat(at, &t->st) == 0) {
            if (S_ISDIR(t->st.st_mode))
                return npy_message(err, err_len, "is a directory, not a file");
            /* a device, FIFO or socket is never replaced by a regular file */
            if (!S_ISREG(t->st.st_mode))
                return npy_message(err, err_len, "is not a regular file");
            if (!realpath(at, t->path))
                return npy_message(err, err_len, "cannot follow it: %s", strerror(errno));
            t->exists = 1;
            return NULL;
        }
        if (errno == ELOOP)
            break;
        /* absent (ENOENT), or unreachable (ENOTDIR, EACCES: making the
         * new file says why): created here unless it is a dangling link */
        if (errno != ENOENT || lstat(at, &link_st) != 0 || !S_ISLNK(link_st.st_mode)) {
            memcpy(t->path, at, sizeof at);
            return NULL;
        }
        if ((n = readlink(at, link, sizeof link - 1)) < 0)
            return npy_message(err, err_len, "cannot follow it: %s", strerror(errno));
        link[n] = '\0';
        if (!link_target(at, link, next, sizeof next))
            return npy_message(err, err_len, "path is too long");
        memcpy(at, next, sizeof at);
    }
    return npy_message(err, err_len, "cannot follow it: %s", strerror(ELOOP));
}

/* Gives the new file the owner, group and mode of the one it replaces.
 * Only root may give a file away; another user keeps the group where it
 * belongs to it, and else the new file is simply its own (EPERM is not an
 * error).  The owner goes first: chown clears set-user-ID bits. */
static const char *copy_attributes(int fd, const file_target *t, char *err, size_t err_len)
{
    if (!t->exists)
        return fchmod(fd, created_mode()) == 0
                   ? NULL
                   : npy_message(err, err_len, "cannot set the new file's mode: %s",
                                 strerror(errno));
    if (fchown(fd, t->st.st_uid, t->st.st_gid) != 0 &&
        (errno != EPERM || (fchown(fd, (uid_t)-1, t->st.st_gid) != 0 && errno != EPERM)))
        return npy_message(err, err_len, "cannot set the new file's owner: %s",
                           strerror(errno));
    if (fchmod(fd, t->st.st_mode & 07777) != 0)
        return npy_message(err, err_len, "cannot set the new file's mode: %s", strerror(errno));
    return NULL;
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
static const char *fill_temporary(int fd, const file_target *target, const void *head,
                                  size_t head_len, const void *data, size_t data_len,
                                  char *err, size_t err_len)
{
    const char *why = NULL;
    errno = 0; /* write_all can fail without errno: a write of 0 bytes */
    if (!write_all(fd, head, head_len) || !write_all(fd, data, data_len))
        why = npy_message(err, err_len, "cannot write the new file: %s",
                   errno ? strerror(errno) : "nothing written");
    else
        why = copy_attributes(fd, target, err, err_len);
    if (!why && fsync(fd) != 0)
        why = npy_message(err, err_len, "cannot sync the new file: %s", strerror(errno));
    if (close(fd) != 0 && !why)
        why = npy_message(err, err_len, "cannot close the new file: %s", strerror(errno));
    return why;
}

const char *file_replace_atomic(const file_target *t, const void *head, size_t head_len,
                                const void *data, size_t data_len, char *err,
                                size_t err_len)
{
    char dir[PATH_MAX], temp[PATH_MAX + 32];
    const char *target = t->path;
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
    why = fill_temporary(fd, t, head, head_len, data, data_len, err, err_len);
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
