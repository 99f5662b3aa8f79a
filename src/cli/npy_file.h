/* The file side of `clipt transpose`: opening and reading an input file
 * without changing it, reading and checking a .npy header from it, and
 * replacing a file atomically.  Every function returns NULL on success or
 * a one-line message (written into err, err_len bytes; NPY_ERROR_MAX is
 * enough) that does not repeat the path; callers print the path. */
#ifndef CLIPT_CLI_NPY_FILE_H
#define CLIPT_CLI_NPY_FILE_H

#include "npy.h"

#include <stddef.h>

/* Opens path read-only; it must be a regular file.  *fd and *size (bytes)
 * are set on success; the caller closes *fd. */
const char *file_open_input(const char *path, int *fd, size_t *size, char *err,
                            size_t err_len);

/* Reads exactly len bytes at byte `offset` of fd into buf. */
const char *file_read_at(int fd, void *buf, size_t len, size_t offset, char *err,
                         size_t err_len);

/* Reads the header of the .npy file open as fd (file_size bytes long) and
 * checks it with npy_parse_header, then checks that the file holds exactly
 * h->data_bytes after it ("truncated data", "data size mismatch"). */
const char *npy_read_header(int fd, size_t file_size, npy_header *h, char *err,
                            size_t err_len);

/* Writes head[0..head_len) then data[0..data_len) as the new contents of
 * path, atomically: into a new file next to it (same directory), synced,
 * then renamed over it, so that path holds either its old contents or all
 * of the new ones, whatever happens.  A path that is a symbolic link has
 * its target replaced.  The new file takes the mode of the file it
 * replaces, or 0666 less the umask.  On failure the temporary file is
 * removed and path is untouched. */
const char *file_replace_atomic(const char *path, const void *head, size_t head_len,
                                const void *data, size_t data_len, char *err,
                                size_t err_len);

#endif
