#!/usr/bin/env python3
"""Writes the small .npy files in tests/npy/: valid ones and broken ones.

They serve twice: src/cli/cli_tests.cmake (group transpose) runs
`clipt transpose` on them and checks each one's exact message, exit status
and that the file is unchanged; the fuzz target of the header parser
(tests/fuzz) starts from them as its seed corpus.  Plain Python, no NumPy:
the point is to write headers NumPy would never write.  The files are
committed; run this only to change them:

    python3 tests/npy_fixtures.py
"""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npy")


def header(text, version=(1, 0), align=64):
    """The prefix and header for a dict text, padded as NumPy pads it."""
    prefix_len = 10 if version[0] == 1 else 12
    body = text.encode("latin1")
    total = -(-(prefix_len + len(body) + 1) // align) * align
    body += b" " * (total - prefix_len - len(body) - 1) + b"\n"
    fmt = "<H" if version[0] == 1 else "<I"
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, len(body)) + body


def dict_text(descr, fortran, shape):
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (
        descr if descr.startswith("[") else repr(descr), fortran, shape)


def data(count):
    """Distinct bytes, so that a misplaced element would show."""
    return bytes((i * 7 + 3) % 251 for i in range(count))


def main():
    os.makedirs(HERE, exist_ok=True)
    f4_34 = header(dict_text("<f4", False, "(3, 4)"))
    files = {
        # valid
        "valid_c_f4_v1.npy": f4_34 + data(48),
        "valid_f_c16_v2.npy": header(dict_text(">c16", True, "(3, 2)"), (2, 0)) + data(96),
        "valid_c_u1_v3.npy": header(dict_text("|u1", False, "(2, 5)"), (3, 0)) + data(10),
        # other quotes, key order, no trailing comma, Python 2 long suffix
        "valid_odd_spelling.npy": header(
            '{"shape": (2L, 3L), "fortran_order": False, "descr": "<i2"}') + data(12),
        "valid_empty.npy": header(dict_text("<f8", False, "(0, 3)")),
        # empty whatever the other dimension (found by the fuzz target)
        "valid_empty_huge.npy": header(dict_text("<f8", False, "(18446744073709551615, 0)")),
        # broken prefix
        "bad_magic.npy": b"\x93NUMPX\x01\x00" + f4_34[8:] + data(48),
        "bad_version.npy": f4_34[:6] + b"\x04\x00" + f4_34[8:] + data(48),
        "truncated_prefix.npy": f4_34[:7],
        "truncated_header.npy": f4_34[:50],
        # the data does not match the header
        "truncated_data.npy": f4_34 + data(40),
        "size_lie.npy": f4_34 + data(60),
        # not a 2-D array of plain elements
        "one_d.npy": header(dict_text("<f4", False, "(12,)")) + data(48),
        "three_d.npy": header(dict_text("<f4", False, "(2, 3, 2)")) + data(48),
        "object.npy": header(dict_text("|O", False, "(2, 2)")) + data(32),
        "structured.npy": header(dict_text("[('a', '<f4'), ('b', '<i4')]", False,
                                           "(2, 2)")) + data(32),
        "itemsize12.npy": header(dict_text("<U3", False, "(2, 2)")) + data(48),
        # malformed dicts
        "unknown_key.npy": header("{'descr': '<f4', 'fortran_order': False, "
                                  "'shape': (3, 4), 'extra': 1, }") + data(48),
        "missing_key.npy": header("{'descr': '<f4', 'shape': (3, 4), }") + data(48),
        "repeated_key.npy": header("{'descr': '<f4', 'descr': '<f4', "
                                   "'fortran_order': False, 'shape': (3, 4), }") + data(48),
        "shape_list.npy": header(dict_text("<f4", False, "[3, 4]")) + data(48),
        "shape_negative.npy": header(dict_text("<f4", False, "(-3, 4)")) + data(48),
        "shape_huge.npy": header(dict_text("<f4", False,
                                           "(4611686018427387904, 4)")) + data(48),
        "fortran_number.npy": header(dict_text("<f4", 0, "(3, 4)")) + data(48),
        "trailing_text.npy": header(dict_text("<f4", False, "(3, 4)") + " x") + data(48),
    }
    for name, content in sorted(files.items()):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(content)
    print("wrote %d files in %s" % (len(files), HERE))


if __name__ == "__main__":
    main()
