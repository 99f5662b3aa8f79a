"""Helpers of the Python package's tests."""

import numpy as np
import pyopencl as cl

# Every NumPy dtype kind with items of 1 to 16 bytes, structured and opaque
# ones included; clipt moves items of 1, 2, 4, 8 or 16 bytes, whatever they
# hold.
SUPPORTED_DTYPES = [
    np.bool_, np.int8, np.uint8, "S1", "V1",
    np.int16, np.uint16, np.float16, "S2", "V2", [("lo", "u1"), ("hi", "i1")],
    np.int32, np.uint32, np.float32, "U1", "S4", "V4", [("x", "<f2"), ("y", ">i2")],
    np.int64, np.uint64, np.float64, np.complex64, "datetime64[ns]", "timedelta64[s]",
    "U2", "S8", "V8", [("x", "f4"), ("y", "i4")], [("rgba", "u1", (4,)), ("w", "f4")],
    np.complex128, "U4", "S16", "V16", [("re", "f8"), ("im", "f8")],
    [("a", "f8"), ("b", "f4"), ("c", "i2"), ("d", "u1"), ("e", "u1")], [("v", "f4", (4,))],
]
if np.dtype(np.longdouble).itemsize == 16:  # x86-64: 80-bit in 16 bytes
    SUPPORTED_DTYPES.append(np.longdouble)

# items of sizes clipt does not move: clipt.Error CLIPT_ERROR_INVALID_ELEM_SIZE
UNSUPPORTED_DTYPES = ["S3", "V12", [("r", "u1"), ("g", "u1"), ("b", "u1")],
                      [("v", "f4", (3,))], np.clongdouble, "U5"]


def dtype_id(dtype):
    return str(np.dtype(dtype))


def random_host(shape, dtype, seed=1):
    """A C-contiguous array of `dtype` filled with random bytes (any bit
    pattern: NaNs, odd booleans; comparisons are on bytes)."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    count = int(np.prod(shape)) * dtype.itemsize
    return rng.integers(0, 256, count, dtype=np.uint8).view(dtype).reshape(shape)


def read_buffer(queue, buffer):
    """Every byte of a pyopencl Buffer, after the queue's work."""
    out = np.empty(buffer.size, np.uint8)
    cl.enqueue_copy(queue, out, buffer)
    return out


def assert_transposed(result, host):
    """`result` (a device or host array) holds numpy.transpose(host), byte
    for byte."""
    got = result if isinstance(result, np.ndarray) else result.get()
    want = np.ascontiguousarray(np.transpose(host))
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
