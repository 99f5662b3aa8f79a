"""clipt.transpose_host on NumPy arrays: in place, bit-exact, every item
size, several queues; what it refuses, with the array unchanged."""

import numpy as np
import pytest

import clipt
from helpers import (SUPPORTED_DTYPES, UNSUPPORTED_DTYPES, assert_transposed, dtype_id,
                     random_host)


@pytest.mark.parametrize("dtype", SUPPORTED_DTYPES, ids=dtype_id)
def test_every_dtype(queue, dtype):
    host = random_host((41, 23), dtype)
    a = host.copy()
    t = clipt.transpose_host(queue, a)
    assert t.shape == (23, 41) and t.dtype == a.dtype
    assert np.shares_memory(t, a) and t.ctypes.data == a.ctypes.data
    assert_transposed(t, host)


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (1009, 1013), (256, 1000)],
                         ids=str)
@pytest.mark.parametrize("queues", [1, 3])
def test_shapes_and_queues(queue, shape, queues):
    host = random_host(shape, np.float32, seed=shape[1])
    t = clipt.transpose_host(queue, host.copy(), queues=queues)
    assert_transposed(t, host)


def test_options_pass_through(queue):
    host = random_host((64, 48), np.uint8)
    assert_transposed(clipt.transpose_host(queue, host.copy(), sequence="1",
                                           padding="none"), host)


def test_empty(queue):
    assert clipt.transpose_host(queue, np.zeros((0, 4), np.float32)).shape == (4, 0)


def test_refusals_leave_the_array_unchanged(queue):
    host = random_host((20, 30), np.float64)
    a = host.copy()
    with pytest.raises(ValueError, match="not C-contiguous"):
        clipt.transpose_host(queue, a[:, 1:])
    with pytest.raises(ValueError, match="not C-contiguous"):
        clipt.transpose_host(queue, np.asfortranarray(a))
    with pytest.raises(ValueError, match="2-D"):
        clipt.transpose_host(queue, a.reshape(2, 10, 30))
    readonly = a.copy()
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        clipt.transpose_host(queue, readonly)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        clipt.transpose_host(queue, a.tolist())
    with pytest.raises(TypeError, match="Python objects"):
        clipt.transpose_host(queue, np.empty((2, 2), object))
    with pytest.raises(ValueError, match="queues"):
        clipt.transpose_host(queue, a, queues=0)
    with pytest.raises(clipt.Error) as caught:
        clipt.transpose_host(queue, a, tuning={"walk_unroll": 1000})
    assert caught.value.name == "CLIPT_ERROR_INVALID_OPTION"
    assert caught.value.function == "clipt_transpose_host"
    assert a.tobytes() == host.tobytes()


@pytest.mark.parametrize("dtype", UNSUPPORTED_DTYPES, ids=dtype_id)
def test_unsupported_item_sizes(queue, dtype):
    host = random_host((9, 11), dtype)
    a = host.copy()
    with pytest.raises(clipt.Error) as caught:
        clipt.transpose_host(queue, a)
    assert caught.value.name == "CLIPT_ERROR_INVALID_ELEM_SIZE"
    assert a.tobytes() == host.tobytes()


def test_cached_plan_reused_and_cleared(queue):
    # the second call of a shape runs the C context's cached plan; clearing
    # the caches between calls changes nothing but the time
    host = random_host((97, 89), np.float32, seed=5)
    for clear in (False, False, True, False):
        if clear:
            clipt.clear_cache()
        assert_transposed(clipt.transpose_host(queue, host.copy()), host)
    assert_transposed(clipt.transpose_host(queue, host.copy(), queues=2), host)
