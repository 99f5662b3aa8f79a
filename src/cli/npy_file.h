/* The file side of `clipt transpose`: opening and reading an input file
 * without changing it, reading and checking a .npy header from it, and
 * replacing a file atomically.  Every function returns NULL on success or
 * a one-line message (written into err, err_len bytes; NPY_ERROR_MAX is
 * enough) that does not repeat the path; callers print the path. */
#ifndef CLIPT_CLI_NPY_FILE_H
#define CLIPT_CLI_NPY_FILE_H

#include "npy.h"

#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>

/* Opens path read-only; it must be a regular file.  *fd and *size (bytes)
 * are set on success; the caller closes *fd. */
const char *file_open_input(const char *path, int *fd, size_t *size, char *err,
                            size_t err_len);

/* Standard input as a file that pread() works on: a duplicate of fd 0
 * when it is a regular file read from its start (a redirection), else its
 * whole contents copied into a temporary file (in TMPDIR, else /tmp),
 * deleted at once so that nothing is left behind.  Like file_open_input. */
const char *file_open_stdin(int *fd, size_t *size, char *err, size_t err_len);

/* Writes head[0..head_len) then data[0..data_len) on standard output. */
const char *file_write_stdout(const void *head, size_t head_len, const void *data,
                              size_t data_len, char *err, size_t err_len);

/* Reads exactly len bytes at byte `offset` of fd into buf. */
const char *file_read_at(int fd, void *buf, size_t len, size_t offset, char *err,
                         size_t err_len);

/* Reads the header of the .npy file open as fd (file_size bytes long) and
 * checks it with npy_parse_header, then checks that the file holds exactly
 * h->data_bytes after it ("truncated data", "data size mismatch"). */
const char *npy_read_header(int fd, size_t file_size, npy_header *h, char *err,
                            size_t err_len);

/* Where writing `path` goes: the file it names, or at the end of its
 * symbolic links the file they point to (which need not exist: a dangling
 * link has its target created).  A directory ("is a directory, not a
 * file"), a device, FIFO or socket ("is not a regular file") and a link
 * loop ("cannot follow it: ...") are refused: they are never replaced. */
typedef struct file_target {
    char path[PATH_MAX];  /* the file to create or replace            */
    int exists;           /* a regular file is there now: st holds it */
    struct stat st;
} file_target;

const char *file_resolve_output(const char *path, file_target *t, char *err,
                                size_t err_len);

/* Writes head[0..head_len) then data[0..data_len) as the new contents of
 * the resolved target t, atomically: into a new file next to it (same
 * directory), synced, then renamed over it, so that it holds either its
 * old contents or all of the new ones, whatever happens.  The new file
 * takes the mode, owner and group of the file it replaces (owner and group
 * as far as this user may give them), or else 0666 less the umask.  On
 * failure the temporary file is removed and the target is untouched. */
const char *file_replace_atomic(const file_target *t, const void *head, size_t head_len,
                                const void *data, size_t data_len, char *err,
                                size_t err_len);

#endif
