"""clipt: in-place transposition of matrices in OpenCL buffers, from Python.

    import clipt, numpy as np, pyopencl as cl
    queue = cl.CommandQueue(cl.create_some_context())
    a = clipt.to_device(queue, np.arange(6.0).reshape(2, 3))
    b = clipt.transpose(queue, a)            # same memory, shape (3, 2)

A binding of libclipt's public C API (include/clipt.h) through ctypes; the
wheel carries the library, its OpenCL kernels and the clipt tool
(`python -m clipt info|run|bench|transpose`).  See docs/python.md.
"""

from ._lib import Error, lib, library_path, tuning_names, version
from ._plan import Context, Plan, PlanInfo, StageInfo
from ._arrays import empty, plan_for, to_device, transpose, transpose_host, zeros

__version__ = version()


def clear_cache():
    """Releases the shared clipt contexts (one per OpenCL context and
    device) and the plans they cache (clipt.transpose_host's too), and the
    library's own cache of clipt_transpose (C), so that no OpenCL context
    is retained by clipt any more; plans you hold stay valid.  The next
    call makes them again."""
    Context.clear_shared()
    lib.clipt_transpose_cache_clear()


__all__ = ["Context", "Error", "Plan", "PlanInfo", "StageInfo", "clear_cache", "empty",
           "library_path", "plan_for", "to_device", "transpose", "transpose_host", "tuning_names",
           "version", "zeros"]
