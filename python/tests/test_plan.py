"""clipt.Plan and clipt.Context: what a plan tells about itself
(describe, query, sizes, tuning), enqueue on Buffers and Arrays with
wait lists and events, profiling, options, caching and lifetimes."""

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import pytest

import clipt
from helpers import assert_transposed, random_host, read_buffer


def upload(queue, host, size=None):
    buffer = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, size or host.nbytes)
    cl.enqueue_copy(queue, buffer, host)
    return buffer


def transposed_bytes(queue, buffer, host):
    return read_buffer(queue, buffer)[:host.nbytes].tobytes() == \
        np.ascontiguousarray(host.T).tobytes()


def test_query_matches_describe(queue):
    plan = clipt.Plan(queue, (1009, 1013), np.float32)
    info = plan.query()
    text = plan.describe()
    assert (info.rows, info.cols, info.elem_size) == (1009, 1013, 4)
    assert text.startswith("shape: 1009 x 1013, 4-byte elements")
    assert f"sequence: {info.sequence} (automatic)" in text
    assert f"tiles: m={info.tile_m} n={info.tile_n} ({info.tile_reason})" in text
    assert f"padded shape: {info.padded_rows} x {info.padded_cols}" in text
    assert info.buffer_bytes == plan.buffer_size > plan.nbytes
    assert info.scratch_bytes == plan.scratch_size
    assert f"tuning entry: {info.tuning_entry}" in text
    assert f"predicted: {1e3 * info.predicted_seconds:.3f} ms" in text
    assert info.tuning_entry == plan.context.tuning_entry
    assert len(info.stages) == text.count("\nstage ") >= 2
    for k, stage in enumerate(info.stages, 1):
        # plain words first, then the papers' label (issue 18)
        assert f"\nstage {k}: " in text
        assert f" ({stage.label}), kernel {stage.kernels}:" in text
        assert stage.op in ("transpose_tiles", "move_super", "pad", "unpad")
        assert stage.family in ("tile_local", "tile_cycles", "super_local",
                                "super_slices", "super_segments", "rows")
        assert stage.global_size % stage.local_size == 0
        assert "-DELEM_TYPE=" in stage.build_options
    assert plan.query_stage(0) == info.stages[0]
    with pytest.raises(clipt.Error) as caught:
        plan.query_stage(len(info.stages))
    assert caught.value.name == "CLIPT_ERROR_INVALID_OPTION"


def test_options(queue):
    plan = clipt.Plan(queue, (64, 96), np.float32, sequence="1", padding="none",
                      tuning={"walk_unroll": 2})
    info = plan.query()
    assert info.sequence == "1" and info.sequence_forced
    assert plan.tuning()["walk_unroll"] == 2
    assert list(plan.tuning()) == clipt.tuning_names()
    assert set(plan.context.tuning()) == set(clipt.tuning_names())
    forced = clipt.Plan(queue, (64, 96), np.float32, tile_m=8, tile_n=12, sequence=32)
    assert (forced.query().tile_m, forced.query().tile_n) == (8, 12)
    assert forced.query().sequence == "3.2"


@pytest.mark.parametrize("algorithm", ["c2r", "r2c"])
@pytest.mark.parametrize("shape, dtype, passes", [
    ((97, 61), np.float32, 2),     # coprime sides: row and column shuffle
    ((60, 84), np.complex128, 3),  # gcd 12: the column rotation first (R2C: last)
])
def test_algorithm_option(queue, shape, dtype, passes, algorithm):
    host = random_host(shape, dtype)
    plan = clipt.Plan(queue, shape, dtype, algorithm=algorithm, padding="none")
    info = plan.query()
    assert info.algorithm == algorithm and plan.buffer_size == plan.nbytes
    assert len(info.stages) == passes
    assert {stage.family for stage in info.stages} == {"c2r"}
    assert algorithm in plan.describe().lower()
    first = "unshuffle_columns" if algorithm == "r2c" else (
        "shuffle_rows" if passes == 2 else "rotate_columns")
    assert info.stages[0].op == first
    buffer = upload(queue, host)
    plan.enqueue(queue, buffer).wait()
    assert transposed_bytes(queue, buffer, host)
    assert clipt.Plan(queue, shape, dtype, algorithm="tpds").query().algorithm == "tpds"
    assert clipt.Plan(queue, shape, dtype).query().algorithm in ("tpds", "c2r", "r2c")
    with pytest.raises(ValueError, match="unknown algorithm"):
        clipt.Plan(queue, shape, dtype, algorithm="c3r")


@pytest.mark.parametrize("options, name", [
    ({"tuning": {"no_such_value": 1}}, "CLIPT_ERROR_INVALID_OPTION"),
    ({"tile_m": 7, "tile_n": 5, "sequence": "3.2", "padding": "none"},
     "CLIPT_ERROR_INCOMPATIBLE_OPTIONS"),
    ({"tuning": {"pttwac_spread": 3}}, "CLIPT_ERROR_INVALID_OPTION"),
])
def test_option_errors(queue, options, name):
    with pytest.raises(clipt.Error) as caught:
        clipt.Plan(queue, (64, 96), np.float32, **options)
    assert caught.value.name == name


def test_python_side_option_errors(queue):
    with pytest.raises(ValueError, match="unknown sequence"):
        clipt.Plan(queue, (4, 4), np.float32, sequence="5.1")
    with pytest.raises(ValueError, match="unknown tile rule"):
        clipt.Plan(queue, (4, 4), np.float32, tile_rule="best")
    with pytest.raises(TypeError):
        clipt.Plan(queue, (4, 4), np.float32, no_such_option=1)
    with pytest.raises(clipt.Error) as caught:
        clipt.Plan(queue, (0, 4), np.float32)
    assert caught.value.name == "CLIPT_ERROR_INVALID_SHAPE"


def test_enqueue_buffer_with_offset_and_wait_list(queue, context):
    host = random_host((61, 45), np.int16)
    offset = 6
    raw = np.concatenate([np.full(offset, 7, np.uint8), host.view(np.uint8).ravel()])
    buffer = upload(queue, raw)
    plan = clipt.Plan(queue, host.shape, host.dtype, padding="none")
    gate = cl.UserEvent(context)
    done = plan.enqueue(queue, buffer, offset, wait_for=[gate])
    assert done.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    done.wait()
    everything = read_buffer(queue, buffer)
    assert everything[:offset].tolist() == [7] * offset
    assert everything[offset:].tobytes() == np.ascontiguousarray(host.T).tobytes()


def test_enqueue_array(queue):
    host = random_host((33, 20), np.complex64)
    a = cl_array.to_device(queue, host)
    plan = clipt.Plan(queue, host.shape, host.dtype, padding="none")
    done = plan.enqueue(queue, a)
    assert a.events[-1] is done
    done.wait()
    assert transposed_bytes(queue, a.base_data, host)
    with pytest.raises(ValueError, match="the plan is for"):
        plan.enqueue(queue, cl_array.to_device(queue, host.T.copy()))


def test_enqueue_errors_leave_the_buffer_untouched(queue):
    host = random_host((1009, 1013), np.float32)
    buffer = upload(queue, host)
    plan = clipt.Plan(queue, host.shape, host.dtype)  # pads: wants more room
    assert plan.buffer_size > host.nbytes
    with pytest.raises(clipt.Error) as caught:
        plan.enqueue(queue, buffer)
    assert caught.value.name == "CLIPT_ERROR_BUFFER_TOO_SMALL"
    assert caught.value.function == "clipt_enqueue"
    assert read_buffer(queue, buffer).tobytes() == host.tobytes()


def test_profile(queue):
    host = random_host((200, 300), np.float32)
    plan = clipt.Plan(queue, host.shape, host.dtype)
    with pytest.raises(clipt.Error) as caught:
        plan.profile()
    assert caught.value.name == "CL_INVALID_OPERATION"  # never enqueued
    buffer = upload(queue, host, plan.buffer_size)
    plan.enqueue(queue, buffer).wait()
    total, stages = plan.profile()
    assert total > 0 and len(stages) == len(plan.query().stages)
    assert all(0 < s <= total * 1.0001 for s in stages)
    assert transposed_bytes(queue, buffer, host)


def test_release_and_context_manager(queue):
    with clipt.Plan(queue, (8, 8), np.uint8) as plan:
        assert plan.buffer_size == 64
    assert "released" in repr(plan)
    with pytest.raises(ValueError, match="already released"):
        plan.describe()
    plan.release()  # idempotent


def test_context_cache_and_lifetimes(queue):
    cx = clipt.Context(queue.context, queue.device, max_plans=2)
    assert "SIMD width" in cx.describe() or cx.describe()
    assert cx.error_detail() == ""
    first = cx.plan((10, 12), np.float32)
    assert cx.plan((10, 12), np.int32) is first  # same item size, same plan
    assert cx.plan((10, 12), np.int16) is not first
    cx.plan((12, 10), np.float32)
    assert first not in cx.cached_plans()  # least recently used, dropped
    cx.release()
    cx.release()
    with pytest.raises(ValueError, match="already released"):
        cx.describe()
    # a plan outlives the cache and the context that made it
    host = random_host((10, 12), np.float32)
    buffer = upload(queue, host)
    first.enqueue(queue, buffer).wait()
    assert transposed_bytes(queue, buffer, host)


def test_shared_context_and_clear_cache(queue):
    shared = clipt.Context.for_queue(queue)
    assert clipt.Context.for_queue(queue) is shared
    held = shared.plan((16, 24), np.uint16)
    clipt.clear_cache()
    assert clipt.Context.for_queue(queue) is not shared
    host = random_host((16, 24), np.uint16)
    buffer = upload(queue, host)
    held.enqueue(queue, buffer).wait()
    assert transposed_bytes(queue, buffer, host)


def test_plan_from_pyopencl_context(queue):
    plan = clipt.Plan(queue.context, (5, 9), np.uint8)
    assert plan.context is not clipt.Context.for_queue(queue)
    host = random_host((5, 9), np.uint8)
    a = cl_array.to_device(queue, host)
    plan.enqueue(queue, a).wait()
    assert transposed_bytes(queue, a.base_data, host)
    with pytest.raises(TypeError, match="expected a clipt.Context"):
        clipt.Plan("queue", (5, 9), np.uint8)


def test_array_helpers(queue):
    z = clipt.zeros(queue, (7, 3), np.float64)
    assert z.get().tolist() == [[0.0] * 3] * 7
    e = clipt.empty(queue, (1009, 1013), np.float32)
    assert e.base_data.size >= clipt.plan_for(queue, e).buffer_size > e.nbytes
    host = random_host((4, 6), np.uint16)
    assert_transposed(clipt.transpose(queue, clipt.to_device(queue, host)), host)
