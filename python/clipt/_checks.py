"""What the package checks of an array before clipt sees it."""

import pyopencl as cl
import pyopencl.array as cl_array


def check_dtype(dtype, where):
    if dtype.hasobject:
        raise TypeError(f"{where}: arrays of Python objects cannot be transposed by clipt")


def check_shape(shape, contiguous, where):
    if len(shape) != 2:
        raise ValueError(f"{where}: a 2-D array is needed, got {len(shape)}-D shape "
                         f"{tuple(shape)} (N-D permutations are not available yet)")
    if not contiguous:
        raise ValueError(f"{where}: the array is not C-contiguous (a view with strides); "
                         "clipt transposes a whole row-major matrix in its own memory: "
                         "make a contiguous copy first")


def check_device_array(a, where):
    """`a` if it is a 2-D C-contiguous pyopencl Array over a Buffer;
    otherwise a TypeError or ValueError that says what is wrong."""
    if not isinstance(a, cl_array.Array):
        raise TypeError(f"{where}: expected a pyopencl.array.Array, got {type(a).__name__}")
    check_dtype(a.dtype, where)
    check_shape(a.shape, a.flags.c_contiguous, where)
    if a.size and not isinstance(a.base_data, cl.Buffer):
        raise TypeError(f"{where}: the array's data is not a pyopencl.Buffer "
                        f"({type(a.base_data).__name__}); clipt needs a cl_mem")
    return a
