#!/usr/bin/env python3
"""`clipt transpose` checked with NumPy, run by ctest as

    python3 transpose_npy_test.py CLIPT WORKDIR

For many dtypes (1 to 16 bytes, complex128 and byte-swapped ones among
them), C and Fortran order and .npy versions 1.0, 2.0 and 3.0, NumPy writes
an array, clipt transposes the file (to -o OUT, and in place), and NumPy
checks that numpy.load(out) == numpy.load(in).T bit for bit, with the same
dtype and order flag, and that the input of -o is unchanged.  Raw files and
the README's demo are checked the same way, and N-D arrays with --axes
against numpy.transpose(a, axes).  Exits 77 (ctest: skipped) with
the reason when NumPy is missing.
"""
import os
import subprocess
import sys

SKIP = 77

# dtype strings as NumPy writes them: every element size clipt moves, both
# byte orders, complex128 (16 bytes), 16-byte strings and datetimes
DTYPES = ["|u1", "|i1", "|b1", "<i2", ">u2", "<f2", "<f4", ">i4", "<U1", "<f8",
          ">i8", "<M8[ns]", "<c8", "<c16", ">c16", "|S16", "|V16", "<U4"]
SHAPES = [(37, 53), (64, 48), (1, 17), (17, 1), (300, 7)]
VERSIONS = [(1, 0), (2, 0), (3, 0)]


def distinct_array(np, dtype, shape, order):
    """An array whose elements all differ (as far as the dtype allows),
    so that a misplaced element shows."""
    count = shape[0] * shape[1]
    raw = np.frombuffer(bytes((i * 131 + i // 251 * 7 + 11) % 256
                              for i in range(count * dtype.itemsize)), dtype=np.uint8)
    if dtype.kind in "fc":
        # random bytes can be NaNs, which compare unequal: use numbers
        values = np.arange(count, dtype=np.float64) * 1.25 - 7
        if dtype.kind == "c":
            values = values + 1j * (values[::-1] + 0.5)
        arr = values.astype(dtype)
    elif dtype.kind == "b":
        arr = (np.arange(count) % 3 == 0)
    else:
        arr = raw.view(dtype).copy()
    arr = arr.reshape(shape)
    return np.asfortranarray(arr) if order == "F" else np.ascontiguousarray(arr)


def read_output_header(np, path):
    """(version, fortran_order, dtype) of a file clipt wrote: version 1.0
    expected, read with NumPy's public functions (1.x and 2.x alike)."""
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        if version != (1, 0):
            return version, None, None
        _, fortran, dtype = np.lib.format.read_array_header_1_0(f)
    return version, fortran, dtype


class Checker:
    def __init__(self, np, clipt, workdir):
        self.np, self.clipt, self.workdir = np, clipt, workdir
        self.failures, self.checks = [], 0

    def run(self, *args):
        proc = subprocess.run([self.clipt, "transpose", *args], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            self.fail("clipt transpose %s: exit %d\n%s%s" % (
                " ".join(args), proc.returncode, proc.stdout, proc.stderr))
        return proc.returncode == 0

    def fail(self, what):
        self.failures.append(what)
        print("FAIL:", what)

    def same_bits(self, got, want):
        np = self.np
        return (got.dtype == want.dtype and got.shape == want.shape and
                np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes())

    def check_npy(self, arr, version, in_place):
        np = self.np
        self.checks += 1
        name = "a%02d_%s_%s_v%d" % (self.checks, arr.dtype.str.strip("<>|=").replace("[", "")
                                    .replace("]", ""), "F" if arr.flags.f_contiguous else "C",
                                    version[0])
        src = os.path.join(self.workdir, name + ".npy")
        out = src if in_place else os.path.join(self.workdir, name + "_t.npy")
        with open(src, "wb") as f:
            np.lib.format.write_array(f, arr, version=version)
        with open(src, "rb") as f:
            before = f.read()
        # what write_array records: Fortran only when not also C-contiguous
        fortran_in = bool(arr.flags.f_contiguous and not arr.flags.c_contiguous)
        args = [src] if in_place else [src, "-o", out]
        if not self.run(*args, "--verify"):
            return
        got = np.load(out)
        version_out, fortran_out, dtype = read_output_header(np, out)
        if not self.same_bits(got, arr.T):
            self.fail("%s: numpy.load(out) is not numpy.load(in).T" % name)
        elif version_out != (1, 0):
            self.fail("%s: written as version %d.%d, not 1.0" % ((name,) + version_out))
        elif fortran_out != fortran_in or dtype.str != arr.dtype.str:
            self.fail("%s: order or dtype changed: fortran %s -> %s, %s -> %s" % (
                name, fortran_in, fortran_out, arr.dtype.str, dtype.str))
        elif not in_place and open(src, "rb").read() != before:
            self.fail("%s: the input of -o was changed" % name)

    def check_raw(self, rows, cols, elem):
        np = self.np
        arr = distinct_array(np, np.dtype("|V%d" % elem), (rows, cols), "C")
        src = os.path.join(self.workdir, "raw_%dx%d_e%d.bin" % (rows, cols, elem))
        out = src + ".t"
        arr.tofile(src)
        self.checks += 1
        if self.run(src, "-o", out, "--rows", str(rows), "--cols", str(cols),
                    "--elem", str(elem)):
            got = np.fromfile(out, dtype=arr.dtype).reshape(cols, rows)
            if not self.same_bits(got, arr.T):
                self.fail("raw %d x %d of %d bytes: wrong transpose" % (rows, cols, elem))

    def check_axes(self, dtype, shape, axes, order):
        """--axes: numpy.load(out) == numpy.transpose(numpy.load(in), axes)."""
        np = self.np
        self.checks += 1
        count = 1
        for d in shape:
            count *= d
        arr = distinct_array(np, np.dtype(dtype), (count, 1), "C").reshape(shape)
        arr = np.asfortranarray(arr) if order == "F" else arr
        name = "nd%02d_%s" % (self.checks, order)
        src = os.path.join(self.workdir, name + ".npy")
        out = os.path.join(self.workdir, name + "_t.npy")
        np.save(src, arr)
        if not self.run(src, "-o", out, "--axes", ",".join(map(str, axes)), "--verify"):
            return
        got = np.load(out)
        if not self.same_bits(got, np.transpose(arr, axes)):
            self.fail("%s: shape %s %s axes %s: not numpy.transpose(in, axes)" % (
                name, shape, order, axes))

    def check_raw_batch(self, batch, rows, cols, elem):
        np = self.np
        arr = distinct_array(np, np.dtype("|V%d" % elem), (batch * rows, cols), "C")
        src = os.path.join(self.workdir, "rawb_%dx%dx%d_e%d.bin" % (batch, rows, cols, elem))
        out = src + ".t"
        arr.tofile(src)
        self.checks += 1
        if self.run(src, "-o", out, "--rows", str(rows), "--cols", str(cols),
                    "--elem", str(elem), "--batch", str(batch), "--verify"):
            got = np.fromfile(out, dtype=arr.dtype).reshape(batch, cols, rows)
            if not self.same_bits(got, np.transpose(arr.reshape(batch, rows, cols), (0, 2, 1))):
                self.fail("raw batch %d of %d x %d of %d bytes: wrong" % (batch, rows, cols, elem))

    def check_demo(self):
        np = self.np
        path = os.path.join(self.workdir, "demo.npy")
        self.checks += 1
        if self.run("--demo", path):
            want = np.arange(3000 * 2000, dtype=np.float32).reshape(3000, 2000).T
            if not self.same_bits(np.load(path).astype(np.float32), want):
                self.fail("--demo: the result is not the transpose of the demo array")


def main():
    clipt, workdir = sys.argv[1], sys.argv[2]
    try:
        import numpy as np
    except ImportError as e:
        print("SKIP: NumPy is not available to %s (%s); Debian: apt-get install "
              "python3-numpy" % (sys.executable, e))
        return SKIP
    os.makedirs(workdir, exist_ok=True)
    c = Checker(np, clipt, workdir)
    for k, dtype in enumerate(DTYPES):
        for order in "CF":
            shape = SHAPES[k % len(SHAPES)]
            version = VERSIONS[k % len(VERSIONS)]
            arr = distinct_array(np, np.dtype(dtype), shape, order)
            c.check_npy(arr, version, in_place=order == "F" and k % 2 == 0)
    for k, version in enumerate(VERSIONS):
        arr = distinct_array(np, np.dtype("<c16"), (40 + k, 25), "CF"[k % 2])
        c.check_npy(arr, version, in_place=k == 1)
    for rows, cols, elem in [(5, 7, 1), (33, 20, 2), (100, 61, 4), (8, 128, 8), (19, 3, 16)]:
        c.check_raw(rows, cols, elem)
    # N-D arrays with --axes: NCHW <-> NHWC, batches, 1- to 6-D, C and Fortran
    for k, (shape, axes) in enumerate([
            ((4, 6, 7, 9), (0, 2, 3, 1)), ((4, 7, 9, 6), (0, 3, 1, 2)),
            ((50, 8, 12), (0, 2, 1)), ((3, 1, 5, 2, 7), (4, 2, 0, 3, 1)),
            ((13,), (0,)), ((2, 3, 2, 3, 2, 3), (5, 4, 3, 2, 1, 0)),
            ((6, 30, 5), (1, 0, 2)), ((5, 7), (1, 0))]):
        c.check_axes(DTYPES[(3 * k) % len(DTYPES)], shape, axes, "CF"[k % 2])
    for batch, rows, cols, elem in [(7, 5, 3, 1), (100, 32, 48, 4), (3, 64, 100, 2)]:
        c.check_raw_batch(batch, rows, cols, elem)
    c.check_demo()
    print("%d passed, %d failed" % (c.checks - len(c.failures), len(c.failures)))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
