/* libFuzzer target for the .npy header parser (src/cli/npy.c).
 *
 * Any input must give either a parsed header or a non-empty one-line
 * message, never a crash or undefined behaviour (built with ASan and
 * UBSan).  A header that parses must also survive the way `clipt
 * transpose` uses it: its swapped-shape header, as written by
 * npy_format_header, parses back to the same descr, order and shape, is
 * aligned to 64 bytes, and never claims more bytes than it has. */
#include "npy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_message(const char *why, const char *err)
{
    /* the message is the caller's buffer, terminated, one line */
    if (why != err || err[0] == '\0' || strchr(err, '\n'))
        abort();
}

static void check_round_trip(const npy_header *in)
{
    npy_header swapped = *in, back;
    unsigned char out[NPY_HEADER_MAX];
    char err[NPY_ERROR_MAX];
    size_t len;
    if (in->ndim == 2) {
        swapped.shape[0] = in->shape[1];
        swapped.shape[1] = in->shape[0];
    }
    len = npy_format_header(&swapped, out, sizeof out);
    if (len == 0 || len % NPY_ALIGN != 0 || out[len - 1] != '\n')
        abort();
    if (npy_parse_header(out, len, &back, err, sizeof err) != NULL)
        abort();
    if (back.header_bytes != len || strcmp(back.descr, in->descr) != 0 ||
        back.elem_size != in->elem_size || back.fortran_order != in->fortran_order ||
        back.ndim != in->ndim || back.data_bytes != in->data_bytes ||
        memcmp(back.shape, swapped.shape, in->ndim * sizeof in->shape[0]) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    npy_header h;
    char err[NPY_ERROR_MAX];
    const char *why;
    err[0] = '\0';
    why = npy_parse_header(data, size, &h, err, sizeof err);
    if (why) {
        check_message(why, err);
        return 0;
    }
    if (h.header_bytes > size || h.ndim > NPY_MAX_DIMS)
        abort();
    check_round_trip(&h);
    return 0;
}
