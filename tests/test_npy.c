/* The .npy header parser and writer of the clipt tool (src/cli/npy.c):
 * what it accepts, the exact message for each way a header can be wrong,
 * and the bytes it writes.  Host-only: no device. */
#include "support.h"
#include "npy.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { BUF = 4096 };

/* A whole header for dict `text`: magic, version, length, text, padded
 * with spaces and a newline to a multiple of 64 as NumPy writes it.
 * Returns its length. */
static size_t make_header(unsigned char *out, const char *text, unsigned major)
{
    const size_t prefix = major == 1 ? NPY_PREFIX_V1 : NPY_PREFIX_V2;
    const size_t len = strlen(text);
    const size_t total = (prefix + len + 1 + 63) / 64 * 64;
    const size_t header_len = total - prefix;
    assert_true(total <= BUF);
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        out[8 + i] = (unsigned char)(header_len >> (8 * i));
    memcpy(out + prefix, text, len);
    memset(out + prefix + len, ' ', total - prefix - len - 1);
    out[total - 1] = '\n';
    return total;
}

static npy_header parse_ok_buffer(const unsigned char *buf, size_t len)
{
    char err[NPY_ERROR_MAX];
    npy_header h;
    const char *why = npy_parse_header(buf, len, &h, err, sizeof err);
    if (why)
        fail_msg("header %.*s refused: %s", (int)len, (const char *)buf, why);
    assert_int_equal(h.header_bytes, len);
    return h;
}

static npy_header parse_ok(const char *text, unsigned major)
{
    unsigned char buf[BUF];
    const npy_header h = parse_ok_buffer(buf, make_header(buf, text, major));
    assert_int_equal(h.major, major);
    return h;
}

static void expect_message(const unsigned char *buf, size_t len, const char *want)
{
    char err[NPY_ERROR_MAX];
    npy_header h;
    const char *why = npy_parse_header(buf, len, &h, err, sizeof err);
    if (!why)
        fail_msg("accepted, expected the message: %s", want);
    if (strcmp(why, want) != 0)
        fail_msg("message\n  %s\nexpected\n  %s", why, want);
}

/* ---- what is accepted ---------------------------------------------------- */

static void test_numpy_header(void **state)
{
    (void)state;
    const npy_header h =
        parse_ok("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 1);
    assert_string_equal(h.descr, "<f4");
    assert_int_equal(h.elem_size, 4);
    assert_int_equal(h.fortran_order, 0);
    assert_int_equal(h.ndim, 2);
    assert_int_equal(h.shape[0], 3);
    assert_int_equal(h.shape[1], 4);
    assert_int_equal(h.data_bytes, 48);
}

static void test_versions_and_spellings(void **state)
{
    (void)state;
    npy_header h = parse_ok("{'descr': '>c16', 'fortran_order': True, 'shape': (2, 5), }", 2);
    assert_int_equal(h.elem_size, 16);
    assert_int_equal(h.fortran_order, 1);
    assert_int_equal(h.data_bytes, 160);
    h = parse_ok("{'descr': '|u1', 'fortran_order': False, 'shape': (7, 1), }", 3);
    assert_int_equal(h.data_bytes, 7);
    /* other quotes, order, blanks and newlines, no trailing comma */
    h = parse_ok("{ \"shape\" :(2 ,3 ,) ,\n\t\"fortran_order\":True,'descr':\"<i2\"}", 1);
    assert_int_equal(h.ndim, 2);
    assert_int_equal(h.shape[1], 3);
    assert_int_equal(h.data_bytes, 12);
    /* Python 2's long suffix, in version 1.0 only */
    h = parse_ok("{'descr': '<i8', 'fortran_order': False, 'shape': (2L, 3L), }", 1);
    assert_int_equal(h.data_bytes, 48);
}

static void test_any_dimensions(void **state)
{
    (void)state;
    npy_header h = parse_ok("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 1);
    assert_int_equal(h.ndim, 0);
    assert_int_equal(h.data_bytes, 8); /* a scalar is one element */
    h = parse_ok("{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }", 1);
    assert_int_equal(h.ndim, 1);
    h = parse_ok("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 0, 3), }", 1);
    assert_int_equal(h.ndim, 3);
    assert_int_equal(h.data_bytes, 0);
}

static void test_dtype_sizes(void **state)
{
    static const struct {
        const char *descr;
        size_t size;
    } cases[] = {
        {"|b1", 1}, {"?", 1},    {"|i1", 1},     {"<f2", 2},      {">u2", 2},
        {"<U1", 4}, {"<U4", 16}, {"<M8[ns]", 8}, {">m8[25s]", 8}, {"<c8", 8},
        {"<c16", 16}, {"|S16", 16}, {"|V8", 8},  {"=i4", 4},      {"<f16", 16},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char text[128];
        snprintf(text, sizeof text,
                 "{'descr': '%s', 'fortran_order': False, 'shape': (1, 1), }",
                 cases[i].descr);
        assert_int_equal(parse_ok(text, 1).elem_size, cases[i].size);
    }
}

/* ---- the messages ------------------------------------------------------ */

static void test_prefix_errors(void **state)
{
    unsigned char buf[BUF];
    const size_t len =
        make_header(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 1);
    (void)state;
    expect_message(buf, 0, "truncated header: 0 bytes, a .npy file starts with at least 10");
    expect_message(buf, 4, "truncated header: 4 bytes, a .npy file starts with at least 10");
    expect_message(buf, 9, "truncated header: 9 bytes, the version 1.0 prefix needs 10");
    expect_message(buf, 100, "truncated header: it claims 128 bytes, the file has 100");
    buf[7] = 1;
    expect_message(buf, len, "unsupported .npy version 1.1 (known: 1.0, 2.0, 3.0)");
    buf[6] = 0;
    buf[7] = 0;
    expect_message(buf, len, "unsupported .npy version 0.0 (known: 1.0, 2.0, 3.0)");
    buf[6] = 1;
    buf[1] = 'n';
    expect_message(buf, len, "not a .npy file (it does not start with \\x93NUMPY)");
    expect_message((const unsigned char *)"PK", 2,
                   "not a .npy file (it does not start with \\x93NUMPY)");
    make_header(buf, "{}", 2);
    expect_message(buf, 11, "truncated header: 11 bytes, the version 2.0 prefix needs 12");
}

static void test_dict_errors(void **state)
{
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"[]", "malformed header: expected '{' opening the header dict at byte 10, found '['"},
        {"", "malformed header: expected '{' opening the header dict at byte 64, found the "
             "end of the header"},
        {"{'descr': '<f4', 'fortran_order': False}", "malformed header: no 'shape' key"},
        {"{'fortran_order': False, 'shape': (1, 2)}", "malformed header: no 'descr' key"},
        {"{'descr': '<f4', 'descr': '<f4'}", "malformed header: key 'descr' appears twice"},
        {"{'descr': '<f4', 'Shape': (1, 2)}", "malformed header: unknown key 'Shape' at byte 29 "
         "(a .npy header has 'descr', 'fortran_order' and 'shape')"},
        {"{'descr': '<f4' 'shape': (1, 2)}", "malformed header: expected ',' or '}' at byte 28, "
         "found '''"},
        {"{'descr' '<f4'}", "malformed header: expected ':' after the key at byte 21, found '''"},
        {"{descr: '<f4'}", "malformed header: expected a quoted key or '}' at byte 13, found 'd'"},
        {"{'descr': '<f\\x34'}", "malformed header: expected a printable character without "
         "escapes or the closing quote at byte 25, found '\\'"},
        {"{'descr': '<f4", "malformed header: expected a printable character without escapes "
         "or the closing quote at byte 63, found byte 0x0a"},
        {"{'descr': '<f4444444444444444444444444444444'}", "malformed header: a dtype string "
         "for 'descr' at byte 22 is longer than 31 characters"},
        {"{'descr': <f4}", "malformed header: expected a dtype string for 'descr' at byte 22, "
         "found '<'"},
        {"{'fortran_order': false}", "malformed header: expected True or False for "
         "'fortran_order' at byte 30, found 'f'"},
        {"{'fortran_order': Trueish}", "malformed header: expected True or False for "
         "'fortran_order' at byte 30, found 'T'"},
        {"{'shape': 12}", "malformed header: expected a tuple such as (3, 4) for 'shape' at "
         "byte 22, found '1'"},
        {"{'shape': (12)}", "malformed header: 'shape' (12) is a number, not a tuple (a 1-D "
         "shape is written (12,))"},
        {"{'shape': (1, -2)}", "malformed header: negative dimension in 'shape' at byte 26"},
        {"{'shape': (1, 2.5)}", "malformed header: expected ',' or ')' in 'shape' at byte 27, "
         "found '.'"},
        {"{'shape': (1,, 2)}", "malformed header: expected a whole number in 'shape' at byte "
         "25, found ','"},
        {"{'shape': (99999999999999999999, 1)}", "malformed header: dimension at byte 23 does "
         "not fit in 64 bits"},
        {"{'shape': (1L, 2)}", "malformed header: expected ',' or ')' in 'shape' at byte 24, "
         "found 'L'"},
        {"{} }", "malformed header: expected only blanks after the header dict at byte 15, "
         "found '}'"},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        unsigned char buf[BUF];
        /* version 2.0: its prefix is 12 bytes, so the dict starts at byte 12,
         * except for the first two, which are version 1.0 below */
        const unsigned major = i < 2 ? 1 : 2;
        const size_t len = make_header(buf, cases[i].text, major);
        expect_message(buf, len, cases[i].message);
    }
}

static void test_dtype_errors(void **state)
{
    static const struct {
        const char *descr;
        const char *message;
    } cases[] = {
        {"|O", "object dtype '|O' is not supported: its elements are Python objects, not data"},
        {"O8", "object dtype 'O8' is not supported: its elements are Python objects, not data"},
        {"<U3", "dtype '<U3' has 12-byte elements: clipt moves elements of 1, 2, 4, 8 or 16 bytes"},
        {"<c32", "dtype '<c32' has 32-byte elements: clipt moves elements of 1, 2, 4, 8 or 16 "
                 "bytes"},
        {"|S0", "dtype '|S0' has 0-byte elements: clipt moves elements of 1, 2, 4, 8 or 16 bytes"},
        {"<f", "unsupported dtype '<f' (expected a NumPy type string such as '<f4')"},
        {"float32", "unsupported dtype 'float32' (expected a NumPy type string such as '<f4')"},
        {"<x4", "unsupported dtype '<x4' (expected a NumPy type string such as '<f4')"},
        {"<M8[ns", "unsupported dtype '<M8[ns' (expected a NumPy type string such as '<f4')"},
        {"<M4[s]", "unsupported dtype '<M4[s]' (expected a NumPy type string such as '<f4')"},
        {"<M8[]", "unsupported dtype '<M8[]' (expected a NumPy type string such as '<f4')"},
        /* found by the fuzz target: a quote inside would not survive being
         * written back between quotes */
        {"<m2[(\"a\")]", "unsupported dtype '<m2[(\"a\")]' (expected a NumPy type string such "
                         "as '<f4')"},
        {"<f4 ", "unsupported dtype '<f4 ' (expected a NumPy type string such as '<f4')"},
        {"", "unsupported dtype '' (expected a NumPy type string such as '<f4')"},
    };
    unsigned char buf[BUF];
    size_t len;
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char text[128];
        snprintf(text, sizeof text,
                 "{'descr': '%s', 'fortran_order': False, 'shape': (1, 1), }", cases[i].descr);
        len = make_header(buf, text, 1);
        expect_message(buf, len, cases[i].message);
    }
    len = make_header(buf, "{'descr': [('a', '<f4')], 'fortran_order': False, "
                           "'shape': (1, 1), }", 1);
    expect_message(buf, len, "structured dtype (a list of fields) is not supported: only "
                             "plain element types");
}

static void test_size_overflow(void **state)
{
    unsigned char buf[BUF];
    size_t len;
    (void)state;
    len = make_header(buf, "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (4611686018427387904, 4), }", 1);
    expect_message(buf, len, "shape (4611686018427387904, 4) of 4-byte elements is larger "
                             "than memory can hold");
    /* a zero dimension makes any other harmless, wherever it stands (the
     * fuzz target found that (huge, 0) failed while (0, huge) passed) */
    len = make_header(buf, "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (0, 18446744073709551615), }", 1);
    assert_int_equal(parse_ok_buffer(buf, len).data_bytes, 0);
    len = make_header(buf, "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (18446744073709551615, 7, 0), }", 1);
    assert_int_equal(parse_ok_buffer(buf, len).data_bytes, 0);
}

/* ---- writing ------------------------------------------------------------ */

static void test_format_as_numpy(void **state)
{
    static const char want_text[] =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }";
    npy_header h = {0};
    unsigned char out[NPY_HEADER_MAX];
    size_t len;
    (void)state;
    strcpy(h.descr, "<f4");
    h.ndim = 2;
    h.shape[0] = 4;
    h.shape[1] = 3;
    len = npy_format_header(&h, out, sizeof out);
    /* NumPy's own bytes for this array: 128 in all, header length 118 */
    assert_int_equal(len, 128);
    assert_memory_equal(out, "\x93NUMPY\x01\x00\x76\x00", 10);
    assert_memory_equal(out + 10, want_text, strlen(want_text));
    for (size_t i = 10 + strlen(want_text); i < 127; i++)
        assert_int_equal(out[i], ' ');
    assert_int_equal(out[127], '\n');
    assert_int_equal(npy_format_header(&h, out, 127), 0); /* too small: nothing */
}

static void test_format_round_trip(void **state)
{
    static const size_t shapes[][3] = {{0, 0, 0}, {1, 5, 0}, {2, 7, 9}, {3, 0, 1},
                                       {2, SIZE_MAX, 0}};
    (void)state;
    for (size_t i = 0; i < COUNT(shapes); i++) {
        npy_header h = {0}, back;
        unsigned char out[NPY_HEADER_MAX];
        size_t len;
        strcpy(h.descr, i % 2 ? ">c16" : "|u1");
        h.fortran_order = (int)(i % 2);
        h.ndim = shapes[i][0];
        h.shape[0] = shapes[i][1];
        h.shape[1] = shapes[i][2];
        len = npy_format_header(&h, out, sizeof out);
        assert_int_equal(len % 64, 0);
        back = parse_ok_buffer(out, len);
        assert_string_equal(back.descr, h.descr);
        assert_int_equal(back.fortran_order, h.fortran_order);
        assert_int_equal(back.ndim, h.ndim);
        for (size_t d = 0; d < h.ndim; d++)
            assert_int_equal(back.shape[d], h.shape[d]);
    }
}

static void test_shape_text(void **state)
{
    npy_header h = {0};
    char text[16];
    (void)state;
    npy_shape_text(&h, text, sizeof text);
    assert_string_equal(text, "()");
    h.ndim = 1;
    h.shape[0] = 12;
    npy_shape_text(&h, text, sizeof text);
    assert_string_equal(text, "(12,)");
    h.ndim = 3;
    h.shape[1] = 3456;
    h.shape[2] = 789012;
    npy_shape_text(&h, text, sizeof text);
    assert_string_equal(text, "(12, 3456, 7890"); /* cut, terminated */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_header),
        cmocka_unit_test(test_versions_and_spellings),
        cmocka_unit_test(test_any_dimensions),
        cmocka_unit_test(test_dtype_sizes),
        cmocka_unit_test(test_prefix_errors),
        cmocka_unit_test(test_dict_errors),
        cmocka_unit_test(test_dtype_errors),
        cmocka_unit_test(test_size_overflow),
        cmocka_unit_test(test_format_as_numpy),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_shape_text),
    };
    test_apply_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
