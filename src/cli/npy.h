/* The NumPy .npy format, as pure functions on byte buffers: parsing a
 * header (what the fuzz target exercises) and writing one.  No file I/O
 * here: npy_file.h reads and writes files.
 *
 * A .npy file is "\x93NUMPY", a major and a minor version byte, the header
 * length (2 bytes little-endian in version 1.0, 4 bytes in 2.0 and 3.0),
 * then the header: a Python dict literal such as
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n', then the raw array data.  Version
 * 3.0 only allows UTF-8 in the header; the dicts accepted here are ASCII. */
#ifndef CLIPT_CLI_NPY_H
#define CLIPT_CLI_NPY_H

#include <stddef.h>

enum {
    NPY_PREFIX_V1 = 10,   /* magic, version, 2-byte header length          */
    NPY_PREFIX_V2 = 12,   /* magic, version, 4-byte length (2.0 and 3.0)    */
    NPY_ALIGN = 64,       /* NumPy pads magic..newline to a multiple of it  */
    NPY_DESCR_MAX = 32,   /* room for the dtype string and its NUL          */
    NPY_MAX_DIMS = 64,    /* NumPy's own limit is lower                     */
    NPY_HEADER_MAX = 2048,/* npy_format_header never writes more than this  */
    NPY_ERROR_MAX = 256   /* room for any message of these functions        */
};

/* What a header says.  header_bytes and data_bytes are derived. */
typedef struct npy_header {
    unsigned major, minor;     /* format version                          */
    size_t header_bytes;       /* magic to newline: where the data starts */
    char descr[NPY_DESCR_MAX]; /* dtype string as in the file, "<f4"      */
    size_t elem_size;          /* bytes per element, from descr           */
    int fortran_order;         /* 1: column-major data                    */
    size_t ndim;
    size_t shape[NPY_MAX_DIMS];
    size_t data_bytes;         /* product of shape, times elem_size       */
} npy_header;

/* Reads the fixed prefix of buf[0..len): magic, version and header length,
 * filling h->major, h->minor and h->header_bytes (prefix plus header).
 * Returns NULL on success, else a one-line description of what is wrong,
 * written into err (err_len bytes, NPY_ERROR_MAX is enough).  len may be
 * shorter than the whole header; a len shorter than the prefix is an
 * error ("truncated header").  Pure: no I/O, no allocation, thread-safe. */
const char *npy_parse_prefix(const unsigned char *buf, size_t len, npy_header *h,
                             char *err, size_t err_len);

/* Parses the whole header in buf[0..len) (len may run on into the data:
 * only h->header_bytes are read) and fills *h.  Accepts versions 1.0, 2.0
 * and 3.0, keys in any order, both quote styles, and a trailing comma;
 * rejects anything NumPy would not write for a plain array: unknown,
 * missing or repeated keys, structured (list) and object dtypes, element
 * sizes other than 1, 2, 4, 8 or 16 bytes, shapes that are not tuples of
 * whole numbers or whose byte size overflows size_t.  Any number of
 * dimensions (up to NPY_MAX_DIMS) is accepted: callers check ndim.
 * Returns NULL on success, else the message written into err.  *h is
 * unspecified after a failure.  Pure: no I/O, no allocation, thread-safe. */
const char *npy_parse_header(const unsigned char *buf, size_t len, npy_header *h,
                             char *err, size_t err_len);

/* Writes the header for h->descr, h->fortran_order, h->ndim and h->shape
 * (the other fields are ignored) into out[0..cap): version 1.0 when the
 * header length fits in 16 bits, else 2.0, padded with spaces to a
 * multiple of NPY_ALIGN bytes and ended by '\n', as NumPy writes it.
 * Returns the number of bytes written (the data offset), or 0 when cap is
 * too small (NPY_HEADER_MAX always suffices).  Thread-safe. */
size_t npy_format_header(const npy_header *h, unsigned char *out, size_t cap);

/* Writes the shape as NumPy prints it, "(3, 4)", "(5,)" or "()", into
 * out (cut to len bytes if needed, always terminated). */
void npy_shape_text(const npy_header *h, char *out, size_t len);

/* Formats a message into err (err_len bytes) and returns err: the failure
 * path of the functions here and in npy_file.h, "return npy_message(...)". */
const char *npy_message(char *err, size_t err_len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
