"""Transposing PyOpenCL arrays and NumPy arrays in place."""

import ctypes

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from ._checks import check_device_array, check_dtype, check_shape
from ._lib import CLIPT_HOST_MAX_QUEUES, check, lib
from ._plan import PADDINGS, Context, enum_value, options_from

# An Array whose buffer's bytes after it are clipt's to use as padding room
# carries this attribute (set on the Array object itself, so that a view of
# it, a new object, does not: the bytes after a view may hold other data).
_ROOM_MARK = "_clipt_padding_room"


def _padding_and_room(a, padding):
    """(padding policy, bytes after the array that clipt may use)."""
    if padding is None:
        padding = "auto" if getattr(a, _ROOM_MARK, False) else "none"
    enum_value(PADDINGS, padding, "padding")
    room = a.base_data.size - a.offset - a.nbytes if padding == "auto" else 0
    return padding, max(room, 0)


def plan_for(queue, a, padding=None):
    """The cached Plan that clipt.transpose(queue, a, padding=padding)
    runs (see there for `padding`): the padded plan if it may pad and its
    buffer_size fits, else the plan with padding "none"."""
    check_device_array(a, "clipt.plan_for")
    padding, room = _padding_and_room(a, padding)
    context = Context.for_queue(queue)
    plan = context.plan(a.shape, a.dtype, padding)
    if plan.buffer_size > a.nbytes + room:
        plan = context.plan(a.shape, a.dtype, "none")
    return plan


def transpose(queue, a, *, padding=None, wait_for=None):
    """Transposes the 2-D C-contiguous pyopencl Array `a` in place on
    `queue`: returns a new Array of shape (cols, rows) over the same buffer
    and offset, which holds the transpose once the returned Array's last
    event (`result.events[-1]`) completes.  Non-blocking, like PyOpenCL's
    own operations; `a` itself keeps its shape and must not be used as a
    matrix afterwards (its memory now holds the transpose).

    Waits for `wait_for` and for `a.events`.  Plans are cached per context,
    device, shape, item size and padding (`clipt.Context.for_queue`);
    `clipt.plan_for` tells which one this call runs.

    `padding`: None (default) lets the plan pad only when the bytes after
    the array up to the end of its buffer are known to be free: arrays made
    by `clipt.empty`, `clipt.zeros`, `clipt.to_device`, and the results of
    transposing those; any other array is transposed with padding "none".
    "none": the buffer needs only the array's own bytes (a plan that pads
    keeps the padding in its own memory).
    "auto": the caller grants the bytes after the array up to the end of its
    buffer; the plan pads if it wants to and they suffice (they are then
    overwritten), else transposes without padding.

    Raises clipt.Error (with the clipt status) when clipt refuses, TypeError
    or ValueError for arrays it cannot take (not 2-D, not C-contiguous, not
    a Buffer, Python objects); in every case nothing was enqueued and the
    array is untouched."""
    check_device_array(a, "clipt.transpose")
    rows, cols = a.shape
    if a.size == 0:  # nothing moves (and there is no buffer)
        return cl_array.empty(queue, (cols, rows), a.dtype)
    result = cl_array.Array(queue, (cols, rows), a.dtype, data=a.base_data,
                            offset=a.offset, events=list(a.events))
    plan = plan_for(queue, a, padding)
    event = plan.enqueue(queue, a.base_data, a.offset,
                         wait_for=list(wait_for or []) + list(a.events))
    result.add_event(event)
    if getattr(a, _ROOM_MARK, False):
        setattr(result, _ROOM_MARK, True)
    return result


def _room_for(queue, shape, dtype):
    """Bytes a buffer needs for a (rows, cols) array of dtype to be
    transposed by clipt.transpose with padding either way round."""
    rows, cols = shape
    nbytes = rows * cols * dtype.itemsize
    if nbytes == 0:
        return 0
    context = Context.for_queue(queue)
    return max(context.plan((rows, cols), dtype).buffer_size,
               context.plan((cols, rows), dtype).buffer_size) - nbytes


def empty(queue, shape, dtype):
    """A new 2-D pyopencl Array (uninitialised) whose buffer has the room
    clipt's padded plans want after it, for both orientations: its plans
    (built here) may pad, and its padding room belongs to clipt."""
    dtype = np.dtype(dtype)
    check_dtype(dtype, "clipt.empty")
    shape = tuple(int(n) for n in shape)
    check_shape(shape, True, "clipt.empty")
    nbytes = shape[0] * shape[1] * dtype.itemsize
    buffer = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE,
                       max(nbytes + _room_for(queue, shape, dtype), 1))
    a = cl_array.Array(queue, shape, dtype, data=buffer)
    setattr(a, _ROOM_MARK, True)
    return a


def zeros(queue, shape, dtype):
    """clipt.empty, filled with zero bytes."""
    a = empty(queue, shape, dtype)
    fill = cl.enqueue_fill_buffer(queue, a.base_data, np.uint8(0), 0, a.base_data.size)
    a.add_event(fill)
    return a


def to_device(queue, ary):
    """A copy of the 2-D NumPy array `ary` on the device, in a clipt.empty
    array (with clipt's padding room).  The copy is enqueued, not waited
    for (the Array's events)."""
    ary = np.ascontiguousarray(ary)
    a = empty(queue, ary.shape, ary.dtype)
    if ary.nbytes:
        a.add_event(cl.enqueue_copy(queue, a.base_data, ary, is_blocking=False))
    return a


def transpose_host(queue, a, *, queues=1, **options):
    """Transposes the 2-D C-contiguous, writable NumPy array `a` in place
    through clipt_transpose_host on `queue`'s device (copied there and back
    into the same memory, the transfers overlapped with the compute over
    `queues` command queues) and returns the (cols, rows) view of the same
    memory, which now holds the transpose.  Blocking.  `a` keeps its shape
    and must not be used as a matrix afterwards.  `options`: the plan
    options of clipt.Plan (padding "auto" by default: the device buffer is
    clipt's own).

    Raises clipt.Error (with the clipt status) when clipt refuses, TypeError
    or ValueError for arrays it cannot take; the array is then unchanged."""
    where = "clipt.transpose_host"
    if not isinstance(a, np.ndarray) or isinstance(a, np.ma.MaskedArray):
        raise TypeError(f"{where}: expected a numpy.ndarray, got {type(a).__name__}")
    check_dtype(a.dtype, where)
    check_shape(a.shape, a.flags.c_contiguous, where)
    if not a.flags.writeable:
        raise ValueError(f"{where}: the array is read-only")
    if not 1 <= queues <= CLIPT_HOST_MAX_QUEUES:
        raise ValueError(f"{where}: queues must be 1 to {CLIPT_HOST_MAX_QUEUES}, got {queues}")
    rows, cols = a.shape
    if a.size:
        opts = options_from(**options)
        cx = Context.for_queue(queue).handle
        check(lib.clipt_transpose_host(cx, queue.int_ptr, a.ctypes.data, rows, cols,
                                       a.dtype.itemsize, queues, ctypes.byref(opts)),
              "clipt_transpose_host", cx)
    return a.reshape((cols, rows))
