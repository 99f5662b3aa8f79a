"""clipt.transpose on PyOpenCL arrays: bit-exact against numpy.transpose
for every dtype, shape, offset and padding case; what it refuses, and
that a refused array is untouched."""

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import pytest

import clipt
from helpers import (SUPPORTED_DTYPES, UNSUPPORTED_DTYPES, assert_transposed, dtype_id,
                     random_host, read_buffer)

# 1x1, one row, one column, primes, powers of two, skinny, and shapes whose
# automatic plans pad (on PoCL: a padded column for 1009 x 1013, a padded
# row for 1021 x 1019, for 4-byte items)
SHAPES = [(1, 1), (1, 17), (17, 1), (2, 3), (13, 7), (64, 64), (128, 32), (37, 53),
          (3, 1001), (1001, 3), (1009, 1013), (1021, 1019)]
PADDED_SHAPES = [(1009, 1013), (1021, 1019)]


@pytest.mark.parametrize("dtype", SUPPORTED_DTYPES, ids=dtype_id)
def test_every_dtype(queue, dtype):
    host = random_host((37, 53), dtype)
    a = cl_array.to_device(queue, host)
    b = clipt.transpose(queue, a)
    assert b.shape == (53, 37) and b.dtype == a.dtype
    assert b.base_data is a.base_data and b.offset == a.offset
    assert_transposed(b, host)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.complex64,
                                   np.complex128], ids=dtype_id)
def test_shapes(queue, shape, dtype):
    host = random_host(shape, dtype, seed=shape[0] * 7 + shape[1])
    assert_transposed(clipt.transpose(queue, cl_array.to_device(queue, host)), host)


def test_twice_is_identity(queue):
    host = random_host((300, 77), np.float64)
    a = cl_array.to_device(queue, host)
    b = clipt.transpose(queue, clipt.transpose(queue, a))
    assert b.shape == host.shape
    assert b.get().tobytes() == host.tobytes()


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0)], ids=str)
def test_empty_arrays(queue, shape):
    for a in (cl_array.empty(queue, shape, np.float32),
              clipt.to_device(queue, np.zeros(shape, np.float32))):
        assert clipt.transpose(queue, a).shape == shape[::-1]


@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.complex128], ids=dtype_id)
def test_offset_views(queue, k, dtype):
    """array[k:] starts k rows into its buffer (array.offset): only its
    rows move, the first k stay as they were."""
    parent_host = random_host((40 + k, 29), dtype, seed=k)
    parent = cl_array.to_device(queue, parent_host)
    view = parent[k:]
    assert view.offset == k * 29 * np.dtype(dtype).itemsize
    b = clipt.transpose(queue, view)
    assert b.offset == view.offset
    assert_transposed(b, parent_host[k:])
    head = read_buffer(queue, parent.base_data)[:view.offset]
    assert head.tobytes() == parent_host[:k].tobytes()


@pytest.mark.parametrize("shape", PADDED_SHAPES, ids=str)
def test_padding_room_of_package_arrays(queue, shape):
    """clipt.to_device leaves the room padded plans want, and
    clipt.transpose uses it, both ways round."""
    host = random_host(shape, np.float32, seed=5)
    a = clipt.to_device(queue, host)
    plan = clipt.plan_for(queue, a)
    assert plan.padding == "auto" and plan.buffer_size > plan.nbytes, plan.describe()
    b = clipt.transpose(queue, a)
    assert_transposed(b, host)
    assert clipt.plan_for(queue, b).buffer_size > b.nbytes
    c = clipt.transpose(queue, b)
    assert c.get().tobytes() == host.tobytes()


@pytest.mark.parametrize("shape", PADDED_SHAPES, ids=str)
def test_no_padding_without_room(queue, shape):
    """A plain pyopencl array has no room: its plan does not pad."""
    host = random_host(shape, np.float32, seed=6)
    a = cl_array.to_device(queue, host)
    plan = clipt.plan_for(queue, a)
    assert plan.padding == "none" and plan.buffer_size == plan.nbytes
    assert_transposed(clipt.transpose(queue, a), host)


@pytest.mark.parametrize("shape", PADDED_SHAPES, ids=str)
def test_view_never_pads_into_its_parent(queue, shape):
    """parent[2:2+rows]: the bytes after the view are the parent's rows;
    by default they are not padding room and stay untouched."""
    rows, cols = shape
    parent_host = random_host((rows + 5, cols), np.float32, seed=7)
    parent = clipt.to_device(queue, parent_host)
    view = parent[2:2 + rows]
    assert clipt.plan_for(queue, view).padding == "none"
    b = clipt.transpose(queue, view)
    assert_transposed(b, parent_host[2:2 + rows])
    everything = read_buffer(queue, parent.base_data)
    itemsize = 4
    assert everything[:view.offset].tobytes() == parent_host[:2].tobytes()
    tail = everything[view.offset + view.nbytes:parent_host.nbytes]
    assert tail.tobytes() == parent_host[2 + rows:].tobytes()
    assert view.nbytes == rows * cols * itemsize


@pytest.mark.parametrize("shape", PADDED_SHAPES, ids=str)
def test_granted_room(queue, context, shape):
    """padding="auto": the caller's buffer has room after the array; the
    padded plan runs in it."""
    rows, cols = shape
    host = random_host(shape, np.float32, seed=8)
    needed = clipt.Context.for_queue(queue).plan(shape, np.float32, "auto").buffer_size
    buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE, needed)
    a = cl_array.Array(queue, shape, np.float32, data=buffer)
    a.set(host)
    plan = clipt.plan_for(queue, a, padding="auto")
    assert plan.padding == "auto" and plan.buffer_size == needed > a.nbytes
    assert_transposed(clipt.transpose(queue, a, padding="auto"), host)


def test_granted_room_too_small(queue, context):
    """padding="auto" with less room than the padded plan wants: the plan
    without padding runs and the bytes after the array stay as they were."""
    shape = PADDED_SHAPES[0]
    host = random_host(shape, np.float32, seed=9)
    buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE, host.nbytes + 4)
    cl.enqueue_copy(queue, buffer, np.concatenate([host.view(np.uint8).ravel(),
                                                    np.full(4, 0xAB, np.uint8)]))
    a = cl_array.Array(queue, shape, np.float32, data=buffer)
    assert clipt.plan_for(queue, a, padding="auto").padding == "none"
    assert_transposed(clipt.transpose(queue, a, padding="auto"), host)
    assert read_buffer(queue, buffer)[-4:].tolist() == [0xAB] * 4


def test_wait_for_and_events(queue, context):
    """The transposition waits for wait_for; the result carries its event."""
    host = random_host((50, 70), np.int32)
    a = cl_array.to_device(queue, host)
    a.finish()
    gate = cl.UserEvent(context)
    b = clipt.transpose(queue, a, wait_for=[gate])
    done = b.events[-1]
    assert isinstance(done, cl.Event)
    assert done.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    done.wait()
    assert_transposed(b, host)


def test_fortran_order_and_strided_views_refused(queue):
    host = random_host((20, 30), np.float32)
    a = cl_array.to_device(queue, host)
    for bad in (a[:, 1:], a[::2], cl_array.to_device(queue, np.asfortranarray(host))):
        with pytest.raises(ValueError, match="not C-contiguous"):
            clipt.transpose(queue, bad)
    assert a.get().tobytes() == host.tobytes()


def test_other_refusals(queue):
    with pytest.raises(ValueError, match="2-D"):
        clipt.transpose(queue, cl_array.zeros(queue, (2, 3, 4), np.float32))
    with pytest.raises(ValueError, match="2-D"):
        clipt.transpose(queue, cl_array.zeros(queue, (6,), np.float32))
    with pytest.raises(TypeError, match="pyopencl.array.Array"):
        clipt.transpose(queue, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="unknown padding"):
        clipt.transpose(queue, cl_array.zeros(queue, (2, 3), np.float32), padding="some")


def refusal(queue, a, name):
    """The clipt.Error that clipt.transpose(queue, a) raises; its name is
    `name`."""
    with pytest.raises(clipt.Error) as caught:
        clipt.transpose(queue, a)
    assert caught.value.name == name
    return caught.value


@pytest.mark.parametrize("dtype", UNSUPPORTED_DTYPES, ids=dtype_id)
def test_unsupported_item_sizes(queue, dtype):
    host = random_host((9, 11), dtype)
    a = cl_array.to_device(queue, host)
    error = refusal(queue, a, "CLIPT_ERROR_INVALID_ELEM_SIZE")
    assert error.status == -1002 and error.function == "clipt_plan_create"
    assert error.text == "element size is not 1, 2, 4, 8 or 16 bytes"
    assert str(error) == ("clipt_plan_create: CLIPT_ERROR_INVALID_ELEM_SIZE (-1002): "
                          "element size is not 1, 2, 4, 8 or 16 bytes")
    assert a.get().tobytes() == host.tobytes()


def test_read_only_buffer(queue, context):
    host = random_host((31, 17), np.float32)
    buffer = cl.Buffer(context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR,
                       hostbuf=host)
    a = cl_array.Array(queue, host.shape, host.dtype, data=buffer)
    assert refusal(queue, a, "CLIPT_ERROR_READ_ONLY_BUFFER").function == "clipt_enqueue"
    assert read_buffer(queue, buffer).tobytes() == host.tobytes()


def test_misaligned_offset(queue, context):
    """An array 2 bytes into its buffer, of 4-byte items."""
    host = random_host((31, 17), np.float32)
    raw = np.concatenate([np.array([1, 2], np.uint8), host.view(np.uint8).ravel()])
    buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                       hostbuf=raw)
    a = cl_array.Array(queue, host.shape, host.dtype, data=buffer, offset=2)
    refusal(queue, a, "CLIPT_ERROR_MISALIGNED_OFFSET")
    assert read_buffer(queue, buffer).tobytes() == raw.tobytes()


def test_buffer_of_another_context(queue):
    """The array's buffer belongs to another context than the queue."""
    host = random_host((31, 17), np.float32)
    other = cl.Context([queue.device])
    buffer = cl.Buffer(other, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                       hostbuf=host)
    a = cl_array.Array(queue, host.shape, host.dtype, data=buffer)
    refusal(queue, a, "CLIPT_ERROR_DEVICE_MISMATCH")
    other_queue = cl.CommandQueue(other)
    assert read_buffer(other_queue, buffer).tobytes() == host.tobytes()
