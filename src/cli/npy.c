/* .npy headers: a small recursive-descent parser for the one dict literal
 * NumPy writes, and the writer.  Every failure names what was expected and
 * where (a byte offset in the file), because the message is all a user
 * sees of a bad file. */
#include "npy.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

const char *npy_message(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return err;
}

/* ---- prefix ------------------------------------------------------------- */

const char *npy_parse_prefix(const unsigned char *buf, size_t len, npy_header *h,
                             char *err, size_t err_len)
{
    size_t prefix, header_len;
    /* a file cut inside the magic is truncated, not foreign */
    const size_t magic_seen = len < sizeof npy_magic ? len : sizeof npy_magic;
    if (memcmp(buf, npy_magic, magic_seen) != 0)
        return npy_message(err, err_len, "not a .npy file (it does not start with \\x93NUMPY)");
    if (len < 8)
        return npy_message(err, err_len, "truncated header: %zu bytes, a .npy file starts with "
                    "at least %d", len, NPY_PREFIX_V1);
    h->major = buf[6];
    h->minor = buf[7];
    if (h->major < 1 || h->major > 3 || h->minor != 0)
        return npy_message(err, err_len, "unsupported .npy version %u.%u (known: 1.0, 2.0, 3.0)",
                    h->major, h->minor);
    prefix = h->major == 1 ? NPY_PREFIX_V1 : NPY_PREFIX_V2;
    if (len < prefix)
        return npy_message(err, err_len, "truncated header: %zu bytes, the version %u.0 prefix "
                    "needs %zu", len, h->major, prefix);
    header_len = (size_t)buf[8] | (size_t)buf[9] << 8;
    if (h->major > 1)
        header_len |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    if (header_len > SIZE_MAX - prefix) /* only where size_t has 32 bits */
        return npy_message(err, err_len, "header length %zu does not fit in memory", header_len);
    h->header_bytes = prefix + header_len;
    return NULL;
}

/* ---- dict literal ------------------------------------------------------- */

/* The header being parsed: the dict is text[pos..end), and text is the
 * whole file from its first byte, so that pos is the file offset that
 * messages give. */
typedef struct cursor {
    const unsigned char *text;
    size_t pos, end;
    char *err;
    size_t err_len;
} cursor;

/* The three keys, as bits of a "seen" set. */
enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

enum { LONGEST_KEY = 16 }; /* "fortran_order" and its NUL, with room */

static int at_end(const cursor *c)
{
    return c->pos >= c->end;
}

static int peek(const cursor *c)
{
    return at_end(c) ? -1 : c->text[c->pos];
}

/* Python's blanks; newlines are blanks too inside the braces. */
static void skip_blanks(cursor *c)
{
    while (!at_end(c) && c->text[c->pos] && strchr(" \t\n\r\f\v", c->text[c->pos]))
        c->pos++;
}

/* "expected X at byte N" with what is there instead. */
static const char *expected(cursor *c, const char *what)
{
    const int ch = peek(c);
    if (ch < 0)
        return npy_message(c->err, c->err_len, "malformed header: expected %s at byte %zu, "
                    "found the end of the header", what, c->pos);
    if (ch >= 0x20 && ch < 0x7f)
        return npy_message(c->err, c->err_len, "malformed header: expected %s at byte %zu, "
                    "found '%c'", what, c->pos, ch);
    return npy_message(c->err, c->err_len, "malformed header: expected %s at byte %zu, "
                "found byte 0x%02x", what, c->pos, (unsigned)ch);
}

static int accept(cursor *c, int ch)
{
    if (peek(c) != ch)
        return 0;
    c->pos++;
    return 1;
}

/* A quoted string of printable ASCII without escapes, into out[0..cap).
 * Returns NULL or the message. */
static const char *parse_string(cursor *c, char *out, size_t cap, const char *what)
{
    const int quote = peek(c);
    const size_t open = c->pos;
    size_t n;
    if (quote != '\'' && quote != '"')
        return expected(c, what);
    c->pos++;
    /* to the closing quote first, so that an unclosed string is named as such */
    while (peek(c) != quote) {
        const int ch = peek(c);
        if (ch < 0x20 || ch >= 0x7f || ch == '\\')
            return expected(c, "a printable character without escapes or the "
                               "closing quote");
        c->pos++;
    }
    n = c->pos - open - 1;
    if (n >= cap)
        return npy_message(c->err, c->err_len, "malformed header: %s at byte %zu is longer "
                           "than %zu characters", what, open, cap - 1);
    memcpy(out, c->text + open + 1, n);
    out[n] = '\0';
    c->pos++;
    return NULL;
}

/* True or False, not followed by more of a name. */
static const char *parse_bool(cursor *c, int *value)
{
    static const char *const names[2] = {"False", "True"};
    for (int v = 0; v < 2; v++) {
        const size_t n = strlen(names[v]);
        if (c->end - c->pos >= n && memcmp(c->text + c->pos, names[v], n) == 0) {
            const size_t after = c->pos + n;
            const int next = after < c->end ? c->text[after] : ' ';
            if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                (next >= '0' && next <= '9') || next == '_')
                break;
            c->pos = after;
            *value = v;
            return NULL;
        }
    }
    return expected(c, "True or False for 'fortran_order'");
}

/* A whole number that fits in size_t; version 1.0 files written by Python 2
 * may carry an 'L' suffix, as NumPy's own reader allows. */
static const char *parse_dimension(cursor *c, size_t *value, int allow_long_suffix)
{
    size_t v = 0;
    const size_t start = c->pos;
    if (peek(c) == '-')
        return npy_message(c->err, c->err_len, "malformed header: negative dimension in "
                    "'shape' at byte %zu", c->pos);
    if (peek(c) < '0' || peek(c) > '9')
        return expected(c, "a whole number in 'shape'");
    while (peek(c) >= '0' && peek(c) <= '9') {
        const size_t digit = (size_t)(peek(c) - '0');
        if (v > (SIZE_MAX - digit) / 10)
            return npy_message(c->err, c->err_len, "malformed header: dimension at byte %zu "
                        "does not fit in %zu bits", start, sizeof(size_t) * 8);
        v = v * 10 + digit;
        c->pos++;
    }
    if (allow_long_suffix)
        accept(c, 'L');
    *value = v;
    return NULL;
}

/* A tuple of dimensions: "()", "(3,)", "(3, 4)", "(3, 4,)". */
static const char *parse_shape(cursor *c, npy_header *h)
{
    const char *why;
    h->ndim = 0;
    if (!accept(c, '('))
        return expected(c, "a tuple such as (3, 4) for 'shape'");
    skip_blanks(c);
    while (!accept(c, ')')) {
        size_t dim = 0;
        if (h->ndim == NPY_MAX_DIMS)
            return npy_message(c->err, c->err_len, "malformed header: 'shape' has more than %d "
                        "dimensions", NPY_MAX_DIMS);
        if ((why = parse_dimension(c, &dim, h->major == 1)) != NULL)
            return why;
        h->shape[h->ndim++] = dim;
        skip_blanks(c);
        if (accept(c, ',')) {
            skip_blanks(c);
            continue;
        }
        if (peek(c) != ')')
            return expected(c, "',' or ')' in 'shape'");
        /* Python reads "(3)" as the number 3, which NumPy rejects */
        if (h->ndim == 1)
            return npy_message(c->err, c->err_len, "malformed header: 'shape' (%zu) is a "
                        "number, not a tuple (a 1-D shape is written (%zu,))",
                        h->shape[0], h->shape[0]);
    }
    return NULL;
}

/* ---- dtype -------------------------------------------------------------- */

/* Bytes per element of a NumPy type string such as "<f4", "|b1", ">c16",
 * "<U4" or "<M8[ns]"; 0 with a message when it is not a plain fixed-size
 * type. */
static size_t dtype_size(const char *descr, char *err, size_t err_len)
{
    const char *p = descr;
    char kind;
    size_t count = 0, digits = 0;
    if (*p && strchr("<>|=", *p))
        p++;
    kind = *p ? *p++ : '\0';
    if (kind == 'O') {
        npy_message(err, err_len, "object dtype '%s' is not supported: its elements are "
             "Python objects, not data", descr);
        return 0;
    }
    if (kind == '?' && *p == '\0')
        return 1;
    while (*p >= '0' && *p <= '9' && digits < 9) {
        count = count * 10 + (size_t)(*p++ - '0');
        digits++;
    }
    /* datetimes and timedeltas carry a unit of letters and digits: "<M8[ns]",
     * "<m8[25s]" (nothing else: the string is written back between quotes) */
    if ((kind == 'M' || kind == 'm') && *p == '[') {
        const char *q = p + 1;
        while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
               (*q >= '0' && *q <= '9'))
            q++;
        if (*q == ']' && q > p + 1)
            p = q + 1;
    }
    if (!kind || !strchr("biufcSaUVmM", kind) || digits == 0 || *p != '\0' ||
        ((kind == 'M' || kind == 'm') && count != 8)) {
        npy_message(err, err_len, "unsupported dtype '%s' (expected a NumPy type string "
             "such as '<f4')", descr);
        return 0;
    }
    if (kind == 'U')
        count *= 4; /* UCS-4 characters */
    if (count != 1 && count != 2 && count != 4 && count != 8 && count != 16) {
        npy_message(err, err_len, "dtype '%s' has %zu-byte elements: clipt moves elements of "
             "1, 2, 4, 8 or 16 bytes", descr, count);
        return 0;
    }
    return count;
}

static const char *parse_descr(cursor *c, npy_header *h)
{
    const char *why;
    if (peek(c) == '[')
        return npy_message(c->err, c->err_len, "structured dtype (a list of fields) is not "
                    "supported: only plain element types");
    if ((why = parse_string(c, h->descr, sizeof h->descr, "a dtype string for 'descr'")))
        return why;
    h->elem_size = dtype_size(h->descr, c->err, c->err_len);
    return h->elem_size ? NULL : c->err;
}

/* ---- the dict ----------------------------------------------------------- */

static const char *parse_entry(cursor *c, npy_header *h, unsigned *seen)
{
    static const struct {
        const char *name;
        unsigned bit;
    } keys[] = {{"descr", KEY_DESCR}, {"fortran_order", KEY_FORTRAN}, {"shape", KEY_SHAPE}};
    char key[LONGEST_KEY];
    const size_t key_at = c->pos;
    const char *why = parse_string(c, key, sizeof key, "a quoted key or '}'");
    unsigned bit = 0;
    if (why)
        return why;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i].name) == 0)
            bit = keys[i].bit;
    if (!bit)
        return npy_message(c->err, c->err_len, "malformed header: unknown key '%s' at byte %zu "
                    "(a .npy header has 'descr', 'fortran_order' and 'shape')", key, key_at);
    if (*seen & bit)
        return npy_message(c->err, c->err_len, "malformed header: key '%s' appears twice", key);
    *seen |= bit;
    skip_blanks(c);
    if (!accept(c, ':'))
        return expected(c, "':' after the key");
    skip_blanks(c);
    if (bit == KEY_DESCR)
        return parse_descr(c, h);
    if (bit == KEY_FORTRAN)
        return parse_bool(c, &h->fortran_order);
    return parse_shape(c, h);
}

static const char *parse_dict(cursor *c, npy_header *h)
{
    unsigned seen = 0;
    const char *why;
    skip_blanks(c);
    if (!accept(c, '{'))
        return expected(c, "'{' opening the header dict");
    for (;;) {
        skip_blanks(c);
        if (accept(c, '}'))
            break;
        if ((why = parse_entry(c, h, &seen)) != NULL)
            return why;
        skip_blanks(c);
        if (accept(c, '}'))
            break;
        if (!accept(c, ','))
            return expected(c, "',' or '}'");
    }
    skip_blanks(c);
    if (!at_end(c))
        return expected(c, "only blanks after the header dict");
    if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
        return npy_message(c->err, c->err_len, "malformed header: no '%s' key",
                    !(seen & KEY_DESCR) ? "descr"
                    : !(seen & KEY_FORTRAN) ? "fortran_order" : "shape");
    return NULL;
}

/* data_bytes = product of the shape times elem_size, if it fits.  Any zero
 * dimension makes the array empty whatever the others are, in any order
 * (the shape is swapped on output and must parse back the same). */
static const char *count_bytes(npy_header *h, char *err, size_t err_len)
{
    size_t bytes = h->elem_size;
    for (size_t i = 0; i < h->ndim; i++)
        if (h->shape[i] == 0) {
            h->data_bytes = 0;
            return NULL;
        }
    for (size_t i = 0; i < h->ndim; i++) {
        if (bytes > SIZE_MAX / h->shape[i]) {
            char shape[256];
            npy_shape_text(h, shape, sizeof shape);
            return npy_message(err, err_len, "shape %s of %zu-byte elements is larger than "
                               "memory can hold", shape, h->elem_size);
        }
        bytes *= h->shape[i];
    }
    h->data_bytes = bytes;
    return NULL;
}

const char *npy_parse_header(const unsigned char *buf, size_t len, npy_header *h,
                             char *err, size_t err_len)
{
    cursor c;
    const char *why;
    memset(h, 0, sizeof *h);
    if ((why = npy_parse_prefix(buf, len, h, err, err_len)) != NULL)
        return why;
    if (len < h->header_bytes)
        return npy_message(err, err_len, "truncated header: it claims %zu bytes, the file has "
                    "%zu", h->header_bytes, len);
    c.text = buf;
    c.pos = h->major == 1 ? NPY_PREFIX_V1 : NPY_PREFIX_V2;
    c.end = h->header_bytes;
    c.err = err;
    c.err_len = err_len;
    if ((why = parse_dict(&c, h)) != NULL)
        return why;
    return count_bytes(h, err, err_len);
}

/* ---- writing ------------------------------------------------------------ */

void npy_shape_text(const npy_header *h, char *out, size_t len)
{
    size_t used = 0;
    int n = snprintf(out, len, "(");
    for (size_t i = 0; i < h->ndim && n >= 0; i++) {
        used += (size_t)n;
        if (used >= len)
            return;
        n = snprintf(out + used, len - used, "%s%zu", i ? ", " : "", h->shape[i]);
    }
    if (n < 0 || (used += (size_t)n) >= len)
        return;
    snprintf(out + used, len - used, "%s)", h->ndim == 1 ? "," : "");
}

size_t npy_format_header(const npy_header *h, unsigned char *out, size_t cap)
{
    /* small enough that the padded total stays within NPY_HEADER_MAX */
    char dict[NPY_HEADER_MAX - NPY_ALIGN - NPY_PREFIX_V2], shape[NPY_HEADER_MAX];
    size_t text_len, prefix = NPY_PREFIX_V1, total, header_len;
    int n;
    npy_shape_text(h, shape, sizeof shape);
    /* the keys in NumPy's (sorted) order, with its trailing ", " */
    n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
                 h->descr, h->fortran_order ? "True" : "False", shape);
    if (n < 0 || (size_t)n >= sizeof dict)
        return 0;
    text_len = (size_t)n + 1; /* and the newline */
    total = (NPY_PREFIX_V1 + text_len + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    if (total - NPY_PREFIX_V1 > 0xffff) {
        prefix = NPY_PREFIX_V2;
        total = (NPY_PREFIX_V2 + text_len + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    }
    if (total > cap)
        return 0;
    header_len = total - prefix;
    memcpy(out, npy_magic, sizeof npy_magic);
    out[6] = prefix == NPY_PREFIX_V1 ? 1 : 2;
    out[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        out[8 + i] = (unsigned char)(header_len >> (8 * i));
    memcpy(out + prefix, dict, text_len - 1);
    memset(out + prefix + text_len - 1, ' ', total - prefix - text_len);
    out[total - 1] = '\n';
    return total;
}
