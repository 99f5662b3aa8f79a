"""clipt contexts and plans over PyOpenCL objects."""

import collections
import ctypes
import threading
import weakref
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from ._checks import check_device_array
from ._lib import (PlanInfo as _PlanInfoC, StageInfo as _StageInfoC, check, lib,
                   plan_options, read_text, tuning_names)

# The C enums of clipt.h by the names Python uses (tests/test_layout.py
# checks the values against the header).
SEQUENCES = {"auto": 0, "1": 1, "2.1": 21, "2.2": 22, "3.1": 31, "3.2": 32,
             "4.1": 41, "4.2": 42, "4.3": 43}
TILE_RULES = {"auto": 0, "alg5": 5, "alg2": 2, "alg1": 1}
PADDINGS = {"auto": 0, "none": 1, "scratch": 2, "off": 3}
ALGORITHMS = {"auto": 0, "tpds": 1, "c2r": 2, "r2c": 3}
STAGE_OPS = {"transpose_tiles": 1, "move_super": 2, "pad": 3, "unpad": 4,
             "rotate_columns": 5, "shuffle_rows": 6, "shuffle_columns": 7,
             "unshuffle_columns": 8, "unshuffle_rows": 9, "unrotate_columns": 10}
KERNEL_FAMILIES = {"tile_local": 1, "tile_cycles": 2, "super_local": 3,
                   "super_slices": 4, "super_segments": 5, "rows": 6, "c2r": 7}


def enum_value(table, value, what):
    """The C value of `value`, a name in `table` or one of its C values."""
    if isinstance(value, int) and not isinstance(value, bool) and value in table.values():
        return value
    key = str(value).lower()
    if key not in table:
        raise ValueError(f"clipt: unknown {what} {value!r}; one of {', '.join(table)}")
    return table[key]


def _name_of(table, value):
    return next((k for k, v in table.items() if v == value), str(value))


def _text(raw):
    return raw.decode(errors="replace") if raw else ""


@dataclass(frozen=True)
class StageInfo:
    """One stage of a plan (clipt_plan_query_stage): what it does (`op`:
    "transpose_tiles", "move_super", "pad", "unpad") to a region of
    `instances` a x b matrices of s-element super-elements, and how (`family`:
    the kernel file, "tile_local" ... "rows"; `kernels`, launch sizes,
    memory)."""

    op: str
    family: str
    label: str
    kernels: str
    instances: int
    a: int
    b: int
    s: int
    pitch_from: int
    pitch_to: int
    super_transposed: bool
    global_size: int
    local_size: int
    local_bytes: int
    scratch_bytes: int
    table_bytes: int
    build_options: str


@dataclass(frozen=True)
class PlanInfo:
    """A plan's choices (clipt_plan_query), its stages in the order they
    run."""

    rows: int
    cols: int
    elem_size: int
    sequence: str
    sequence_forced: bool
    tile_m: int
    tile_n: int
    tile_reason: str
    padded_rows: int
    padded_cols: int
    buffer_bytes: int
    scratch_bytes: int
    tuning_entry: str
    predicted_seconds: float
    stages: tuple
    algorithm: str


class Context:
    """A clipt context: one (pyopencl.Context, pyopencl.Device) pair, its
    built kernels and a cache of plans.

    `clipt.transpose` and friends share one Context per context and device
    (`Context.for_queue`); make your own to control when its device memory
    (the plans' scratch buffers) goes: `release()`, or the end of a `with`
    block, releases its cached plans and its kernels (plans you still hold
    stay valid).  At most `max_plans` plans are cached, the least recently
    used dropped first."""

    _shared = {}
    _shared_lock = threading.Lock()

    def __init__(self, context, device=None, *, max_plans=16):
        if device is None:
            if len(context.devices) != 1:
                raise ValueError("clipt.Context: the context has several devices; name one")
            device = context.devices[0]
        self.cl_context = context
        self.device = device
        self.max_plans = max_plans
        handle = ctypes.c_void_p()
        check(lib.clipt_context_create(context.int_ptr, device.int_ptr, ctypes.byref(handle)),
              "clipt_context_create")
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, lib.clipt_context_release, self._handle)
        self._plans = collections.OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def for_queue(cls, queue):
        """The shared Context of the queue's context and device (made on
        first use; kept until `clipt.clear_cache()` or exit)."""
        context, device = queue.context, queue.device
        key = (context.int_ptr, device.int_ptr)
        with cls._shared_lock:
            found = cls._shared.get(key)
            if found is None:
                found = cls._shared[key] = cls(context, device)
            return found

    @classmethod
    def clear_shared(cls):
        with cls._shared_lock:
            shared, cls._shared = cls._shared, {}
        for cx in shared.values():
            cx.release()

    @property
    def handle(self):
        if not self._finalizer.alive:
            raise ValueError("clipt.Context: already released")
        return self._handle

    def plan(self, shape, dtype, padding="auto"):
        """The cached Plan of `shape` (rows, cols) for items of `dtype`'s
        size (a plan depends on the item size only: its dtype is the
        opaque one of that size), made with default options and this padding
        policy."""
        rows, cols = (int(n) for n in shape)
        itemsize = np.dtype(dtype).itemsize
        key = (rows, cols, itemsize, enum_value(PADDINGS, padding, "padding"))
        with self._lock:
            found = self._plans.get(key)
            if found is not None and found._finalizer.alive:
                self._plans.move_to_end(key)
                return found
            made = Plan(self, (rows, cols), np.dtype((np.void, itemsize)), padding=padding)
            self._plans[key] = made
            while len(self._plans) > self.max_plans:
                self._plans.popitem(last=False)
            return made

    def cached_plans(self):
        """The plans in the cache, least recently used first."""
        with self._lock:
            return list(self._plans.values())

    def describe(self):
        """The device profile clipt derived (clipt_context_describe)."""
        return read_text(lib.clipt_context_describe, self.handle)

    @property
    def tuning_entry(self):
        """The label of the device's tuning table entry."""
        return _text(lib.clipt_context_tuning_entry(self.handle))

    def tuning(self):
        """The device entry's tuning values, {name: value}."""
        return _tuning_values(lib.clipt_context_tuning, self.handle, "clipt_context_tuning")

    def error_detail(self):
        """The detail of the last failure in this context (paths searched,
        build log), or ""."""
        return read_text(lib.clipt_context_error_detail, self.handle)

    def release(self):
        """Drops the cached plans and releases the clipt context (plans still
        held elsewhere keep what they need).  Idempotent."""
        with self._lock:
            self._plans.clear()
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


def _tuning_values(fn, handle, name):
    values = {}
    for field in tuning_names():
        value = ctypes.c_uint()
        check(fn(handle, field.encode(), ctypes.byref(value)), name)
        values[field] = value.value
    return values


def _as_context(where, device):
    """A clipt.Context from a clipt.Context, a CommandQueue (the shared one)
    or a pyopencl.Context (a new one; `device` picks among several)."""
    if isinstance(where, Context):
        return where
    if isinstance(where, cl.CommandQueue):
        return Context.for_queue(where)
    if isinstance(where, cl.Context):
        return Context(where, device)
    raise TypeError("clipt: expected a clipt.Context, pyopencl.CommandQueue or "
                    f"pyopencl.Context, got {type(where).__name__}")


def options_from(padding="auto", sequence="auto", tile_m=0, tile_n=0, tile_rule="auto",
                 min_super=0, tuning=None, algorithm="auto"):
    """A clipt_plan_options from the Python names of its values."""
    return plan_options(algorithm=enum_value(ALGORITHMS, algorithm, "algorithm"),
                        sequence=enum_value(SEQUENCES, sequence, "sequence"),
                        tile_m=tile_m, tile_n=tile_n,
                        padding=enum_value(PADDINGS, padding, "padding"),
                        tile_rule=enum_value(TILE_RULES, tile_rule, "tile rule"),
                        min_super=min_super, tuning=tuning)


def _wait_list(events):
    events = [e for e in (events or []) if e is not None]
    if not events:
        return 0, None
    return len(events), (ctypes.c_void_p * len(events))(*[e.int_ptr for e in events])


class Plan:
    """The in-place transposition of a row-major rows x cols matrix of
    `dtype` items (1, 2, 4, 8 or 16 bytes) on one context and device.

    `where` is a clipt.Context, a pyopencl.CommandQueue (its context and
    device) or a pyopencl.Context (with `device` if it has several).
    Options as in clipt_plan_options: `padding` "auto" (the buffer needs
    `buffer_size` bytes), "none" (exactly rows*cols*itemsize; the plan
    chooses between padding kept in its own memory and none), "scratch"
    (exactly rows*cols*itemsize, padded as "auto", the padded tail in the
    plan) or "off" (exactly rows*cols*itemsize, never padded);
    `sequence` "auto", "1", "2.1", ... "4.3"; `tile_m`, `tile_n` (0:
    automatic); `tile_rule` "auto", "alg5", "alg2", "alg1"; `min_super`;
    `algorithm` "auto" (the plan's choice), "tpds" (the sequences of
    elementary transpositions), "c2r" (the C2R decomposition: two or
    three passes, never padded; the sequence and tile options do not
    apply to it) or "r2c" (its inverse on the cols x rows view, the same
    rules);
    `tuning` {name: value} overrides (names: `clipt.tuning_names()`).
    Creating a plan builds its kernels (blocking)."""

    def __init__(self, where, shape, dtype, *, device=None, **options):
        self.context = _as_context(where, device)
        rows, cols = (int(n) for n in shape)
        self.shape = (rows, cols)
        self.dtype = np.dtype(dtype)
        self.padding = options.get("padding", "auto")
        opts = options_from(**options)
        handle = ctypes.c_void_p()
        cx = self.context.handle
        check(lib.clipt_plan_create(cx, rows, cols, self.dtype.itemsize, ctypes.byref(opts),
                                    ctypes.byref(handle)), "clipt_plan_create", cx)
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, lib.clipt_plan_release, self._handle)

    @property
    def handle(self):
        if not self._finalizer.alive:
            raise ValueError("clipt.Plan: already released")
        return self._handle

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def transposed_shape(self):
        return self.shape[::-1]

    @property
    def nbytes(self):
        """Bytes of the matrix itself, rows*cols*itemsize."""
        return self.shape[0] * self.shape[1] * self.itemsize

    @property
    def buffer_size(self):
        """Bytes the buffer must hold from the offset: nbytes, plus the room
        for padding when the plan pads (clipt_plan_buffer_size)."""
        return lib.clipt_plan_buffer_size(self.handle)

    @property
    def scratch_size(self):
        """Device memory the plan owns besides the matrix
        (clipt_plan_scratch_size)."""
        return lib.clipt_plan_scratch_size(self.handle)

    def describe(self):
        """The plan as text (clipt_plan_describe)."""
        return read_text(lib.clipt_plan_describe, self.handle)

    def query(self):
        """The plan's choices and stages as a PlanInfo."""
        raw = _PlanInfoC()
        check(lib.clipt_plan_query(self.handle, ctypes.byref(raw)), "clipt_plan_query")
        return PlanInfo(
            rows=raw.rows, cols=raw.cols, elem_size=raw.elem_size,
            sequence=_name_of(SEQUENCES, raw.sequence),
            sequence_forced=bool(raw.sequence_forced), tile_m=raw.tile_m,
            tile_n=raw.tile_n, tile_reason=_text(raw.tile_reason),
            padded_rows=raw.padded_rows, padded_cols=raw.padded_cols,
            buffer_bytes=raw.buffer_bytes, scratch_bytes=raw.scratch_bytes,
            tuning_entry=_text(raw.tuning_entry),
            predicted_seconds=raw.predicted_seconds,
            algorithm=_name_of(ALGORITHMS, raw.algorithm),
            stages=tuple(self.query_stage(i) for i in range(raw.num_stages)))

    def query_stage(self, index):
        """Stage `index` (0-based, in the order they run) as a StageInfo."""
        raw = _StageInfoC()
        check(lib.clipt_plan_query_stage(self.handle, index, ctypes.byref(raw)),
              "clipt_plan_query_stage")
        return StageInfo(
            op=_name_of(STAGE_OPS, raw.op), family=_name_of(KERNEL_FAMILIES, raw.family),
            label=_text(raw.label), kernels=_text(raw.kernels),
            instances=raw.instances, a=raw.a, b=raw.b, s=raw.s,
            pitch_from=raw.pitch_from, pitch_to=raw.pitch_to,
            super_transposed=bool(raw.super_transposed), global_size=raw.global_size,
            local_size=raw.local_size, local_bytes=raw.local_bytes,
            scratch_bytes=raw.scratch_bytes, table_bytes=raw.table_bytes,
            build_options=_text(raw.build_options))

    def tuning(self):
        """The tuning values the plan runs with, {name: value}."""
        return _tuning_values(lib.clipt_plan_tuning, self.handle, "clipt_plan_tuning")

    def enqueue(self, queue, data, offset=None, wait_for=None):
        """Enqueues the transposition of the matrix in `data` on `queue`
        (non-blocking) and returns a pyopencl.Event that completes with it.

        `data` is a pyopencl.Buffer (the matrix starts `offset` bytes in,
        default 0) or a C-contiguous pyopencl.array.Array of this plan's
        shape and item size (offset: the array's own; its pending events are
        waited for, and the new event is added to it).  The buffer needs
        `buffer_size` bytes from the offset.  Waits for `wait_for` (events)
        first.  On an error nothing is enqueued and the data is untouched."""
        events = list(wait_for or [])
        array = None
        if isinstance(data, cl.Buffer):
            buffer = data
            offset = 0 if offset is None else offset
        else:
            array = check_device_array(data, "clipt.Plan.enqueue")
            if tuple(array.shape) != self.shape or array.dtype.itemsize != self.itemsize:
                raise ValueError(
                    f"clipt.Plan.enqueue: the plan is for {self.shape} of "
                    f"{self.itemsize}-byte items, the array is {tuple(array.shape)} "
                    f"of {array.dtype.itemsize}-byte items")
            buffer = array.base_data
            offset = array.offset if offset is None else offset
            events += list(array.events)
        count, wait = _wait_list(events)
        event = ctypes.c_void_p()
        check(lib.clipt_enqueue(self.handle, queue.int_ptr, buffer.int_ptr, offset, count,
                                wait, ctypes.byref(event)), "clipt_enqueue")
        done = cl.Event.from_int_ptr(event.value, retain=False)
        if array is not None:
            array.add_event(done)
        return done

    def profile(self):
        """(total seconds, [seconds per stage]) of the most recent enqueue,
        which must have completed on a queue with profiling enabled
        (clipt_plan_profile)."""
        total = ctypes.c_double()
        count = ctypes.c_uint()
        check(lib.clipt_plan_profile(self.handle, ctypes.byref(total), None, 0,
                                     ctypes.byref(count)), "clipt_plan_profile")
        stages = (ctypes.c_double * max(count.value, 1))()
        check(lib.clipt_plan_profile(self.handle, None, stages, count.value, None),
              "clipt_plan_profile")
        return total.value, list(stages[:count.value])

    def release(self):
        """Releases the plan and its scratch buffer now (commands already
        enqueued keep what they need).  Idempotent."""
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __repr__(self):
        state = "" if self._finalizer.alive else ", released"
        return (f"<clipt.Plan {self.shape[0]} x {self.shape[1]} of {self.itemsize}-byte "
                f"items, padding={self.padding!r}{state}>")
